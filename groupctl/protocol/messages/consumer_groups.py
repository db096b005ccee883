"""The KIP-848 consumer group APIs: ConsumerGroupHeartbeat (68) and ConsumerGroupDescribe (69).

Both 0-1 and flexible throughout. Heartbeat v1 adds SubscribedTopicRegex and makes the client
generate its own member id (KIP-1082); the response is unchanged. Describe v1 adds each member's
MemberType (KIP-1099: -1 unknown, 0 classic, 1 consumer); the request is unchanged.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import Field, field, message


def topic_partitions(with_name: bool, versions: str = "0+") -> Field:
    """Assigned partitions by topic id (the describe responses also name the topic); the share-group
    APIs use the same struct from their first version, 1."""
    name = [field("TopicName", "string", versions)] if with_name else []
    return field(
        "TopicPartitions",
        "[]TopicPartitions",
        versions,
        fields=[field("TopicId", "uuid", versions), *name, field("Partitions", "[]int32", versions)],
    )


CONSUMER_GROUP_HEARTBEAT_REQUEST: Final = message(
    "ConsumerGroupHeartbeatRequest",
    "0-1",
    "0+",
    [
        field("GroupId", "string"),
        field("MemberId", "string"),
        field("MemberEpoch", "int32"),
        field("InstanceId", "string", nullable="0+", default="null"),
        field("RackId", "string", nullable="0+", default="null"),
        field("RebalanceTimeoutMs", "int32", default=-1),
        field("SubscribedTopicNames", "[]string", nullable="0+", default="null"),
        field("SubscribedTopicRegex", "string", "1+", nullable="1+", default="null"),
        field("ServerAssignor", "string", nullable="0+", default="null"),
        field(
            "TopicPartitions",
            "[]TopicPartitions",
            nullable="0+",
            default="null",
            fields=[field("TopicId", "uuid"), field("Partitions", "[]int32")],
        ),
    ],
    api_key=68,
)

CONSUMER_GROUP_HEARTBEAT_RESPONSE: Final = message(
    "ConsumerGroupHeartbeatResponse",
    "0-1",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        field("ErrorCode", "int16"),
        field("ErrorMessage", "string", nullable="0+", default="null"),
        field("MemberId", "string", nullable="0+", default="null"),
        field("MemberEpoch", "int32"),
        field("HeartbeatIntervalMs", "int32"),
        field("Assignment", "Assignment", nullable="0+", default="null", fields=[topic_partitions(False)]),
    ],
    api_key=68,
)

CONSUMER_GROUP_DESCRIBE_REQUEST: Final = message(
    "ConsumerGroupDescribeRequest",
    "0-1",
    "0+",
    [field("GroupIds", "[]string"), field("IncludeAuthorizedOperations", "bool")],
    api_key=69,
)

CONSUMER_GROUP_DESCRIBE_RESPONSE: Final = message(
    "ConsumerGroupDescribeResponse",
    "0-1",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Groups",
            "[]DescribedGroup",
            fields=[
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", nullable="0+", default="null"),
                field("GroupId", "string"),
                field("GroupState", "string"),
                field("GroupEpoch", "int32"),
                field("AssignmentEpoch", "int32"),
                field("AssignorName", "string"),
                field(
                    "Members",
                    "[]Member",
                    fields=[
                        field("MemberId", "string"),
                        field("InstanceId", "string", nullable="0+", default="null"),
                        field("RackId", "string", nullable="0+", default="null"),
                        field("MemberEpoch", "int32"),
                        field("ClientId", "string"),
                        field("ClientHost", "string"),
                        field("SubscribedTopicNames", "[]string"),
                        field("SubscribedTopicRegex", "string", nullable="0+", default="null"),
                        field("Assignment", "Assignment", fields=[topic_partitions(True)]),
                        field("TargetAssignment", "Assignment", fields=[topic_partitions(True)]),
                        field("MemberType", "int8", "1+", default=-1, ignorable=True),
                    ],
                ),
                field("AuthorizedOperations", "int32", default=-2147483648),
            ],
        ),
    ],
    api_key=69,
)
