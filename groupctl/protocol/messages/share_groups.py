"""The KIP-932 share group APIs: ShareGroupHeartbeat (76), ShareGroupDescribe (77) and the share-group
offset APIs DescribeShareGroupOffsets (90), AlterShareGroupOffsets (91), DeleteShareGroupOffsets (92).

All flexible. Heartbeat and Describe start at v1: v0 was Kafka 4.0's early access, which 4.1 removed
(v1 dropped the heartbeat's RebalanceTimeoutMs and the assignment's Error). The offset APIs are v0 in
4.1; DescribeShareGroupOffsets v1 (Kafka 4.2, KIP-1226) adds each partition's Lag behind its leader
epoch. The layouts are the ones a real 4.1.0 broker exchanged (`../shared/kafka-4.1-wire/`, s2 and s6),
where they differ from Kafka's earlier JSON files: AlterShareGroupOffsets' response carries a top-level
error, and DeleteShareGroupOffsets answers per topic, not per partition.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.messages.consumer_groups import topic_partitions
from groupctl.protocol.schema import Field, field, message


def _error(versions: str = "0+") -> list[Field]:
    return [
        field("ErrorCode", "int16", versions),
        field("ErrorMessage", "string", versions, nullable=versions, default="null"),
    ]


SHARE_GROUP_HEARTBEAT_REQUEST: Final = message(
    "ShareGroupHeartbeatRequest",
    "1",
    "1+",
    [
        field("GroupId", "string", "1+"),
        field("MemberId", "string", "1+"),
        field("MemberEpoch", "int32", "1+"),
        field("RackId", "string", "1+", nullable="1+", default="null"),
        field("SubscribedTopicNames", "[]string", "1+", nullable="1+", default="null"),
    ],
    api_key=76,
)

SHARE_GROUP_HEARTBEAT_RESPONSE: Final = message(
    "ShareGroupHeartbeatResponse",
    "1",
    "1+",
    [
        field("ThrottleTimeMs", "int32", "1+"),
        *_error("1+"),
        field("MemberId", "string", "1+", nullable="1+", default="null"),
        field("MemberEpoch", "int32", "1+"),
        field("HeartbeatIntervalMs", "int32", "1+"),
        field("Assignment", "Assignment", "1+", nullable="1+", default="null",
              fields=[topic_partitions(False, "1+")]),
    ],
    api_key=76,
)

SHARE_GROUP_DESCRIBE_REQUEST: Final = message(
    "ShareGroupDescribeRequest",
    "1",
    "1+",
    [field("GroupIds", "[]string", "1+"), field("IncludeAuthorizedOperations", "bool", "1+")],
    api_key=77,
)

SHARE_GROUP_DESCRIBE_RESPONSE: Final = message(
    "ShareGroupDescribeResponse",
    "1",
    "1+",
    [
        field("ThrottleTimeMs", "int32", "1+"),
        field(
            "Groups",
            "[]DescribedGroup",
            "1+",
            fields=[
                *_error("1+"),
                field("GroupId", "string", "1+"),
                field("GroupState", "string", "1+"),
                field("GroupEpoch", "int32", "1+"),
                field("AssignmentEpoch", "int32", "1+"),
                field("AssignorName", "string", "1+"),
                field(
                    "Members",
                    "[]Member",
                    "1+",
                    fields=[
                        field("MemberId", "string", "1+"),
                        field("RackId", "string", "1+", nullable="1+", default="null"),
                        field("MemberEpoch", "int32", "1+"),
                        field("ClientId", "string", "1+"),
                        field("ClientHost", "string", "1+"),
                        field("SubscribedTopicNames", "[]string", "1+"),
                        field("Assignment", "Assignment", "1+", fields=[topic_partitions(True, "1+")]),
                    ],
                ),
                field("AuthorizedOperations", "int32", "1+", default=-2147483648),
            ],
        ),
    ],
    api_key=77,
)

DESCRIBE_SHARE_GROUP_OFFSETS_REQUEST: Final = message(
    "DescribeShareGroupOffsetsRequest",
    "0-1",
    "0+",
    [
        field(
            "Groups",
            "[]DescribeShareGroupOffsetsRequestGroup",
            fields=[
                field("GroupId", "string"),
                field(
                    "Topics",
                    "[]DescribeShareGroupOffsetsRequestTopic",
                    nullable="0+",
                    fields=[field("TopicName", "string"), field("Partitions", "[]int32")],
                ),
            ],
        )
    ],
    api_key=90,
)

DESCRIBE_SHARE_GROUP_OFFSETS_RESPONSE: Final = message(
    "DescribeShareGroupOffsetsResponse",
    "0-1",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Groups",
            "[]DescribeShareGroupOffsetsResponseGroup",
            fields=[
                field("GroupId", "string"),
                field(
                    "Topics",
                    "[]DescribeShareGroupOffsetsResponseTopic",
                    fields=[
                        field("TopicName", "string"),
                        field("TopicId", "uuid"),
                        field(
                            "Partitions",
                            "[]DescribeShareGroupOffsetsResponsePartition",
                            fields=[
                                field("PartitionIndex", "int32"),
                                field("StartOffset", "int64"),
                                field("LeaderEpoch", "int32"),
                                field("Lag", "int64", "1+", default=-1, ignorable=True),
                                *_error(),
                            ],
                        ),
                    ],
                ),
                *_error(),
            ],
        )
    ],
    api_key=90,
)

ALTER_SHARE_GROUP_OFFSETS_REQUEST: Final = message(
    "AlterShareGroupOffsetsRequest",
    "0",
    "0+",
    [
        field("GroupId", "string"),
        field(
            "Topics",
            "[]AlterShareGroupOffsetsRequestTopic",
            fields=[
                field("TopicName", "string"),
                field(
                    "Partitions",
                    "[]AlterShareGroupOffsetsRequestPartition",
                    fields=[field("PartitionIndex", "int32"), field("StartOffset", "int64")],
                ),
            ],
        ),
    ],
    api_key=91,
)

ALTER_SHARE_GROUP_OFFSETS_RESPONSE: Final = message(
    "AlterShareGroupOffsetsResponse",
    "0",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        *_error(),
        field(
            "Responses",
            "[]AlterShareGroupOffsetsResponseTopic",
            fields=[
                field("TopicName", "string"),
                field("TopicId", "uuid"),
                field(
                    "Partitions",
                    "[]AlterShareGroupOffsetsResponsePartition",
                    fields=[field("PartitionIndex", "int32"), *_error()],
                ),
            ],
        ),
    ],
    api_key=91,
)

DELETE_SHARE_GROUP_OFFSETS_REQUEST: Final = message(
    "DeleteShareGroupOffsetsRequest",
    "0",
    "0+",
    [
        field("GroupId", "string"),
        field("Topics", "[]DeleteShareGroupOffsetsRequestTopic", fields=[field("TopicName", "string")]),
    ],
    api_key=92,
)

DELETE_SHARE_GROUP_OFFSETS_RESPONSE: Final = message(
    "DeleteShareGroupOffsetsResponse",
    "0",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        *_error(),
        field(
            "Responses",
            "[]DeleteShareGroupOffsetsResponseTopic",
            fields=[field("TopicName", "string"), field("TopicId", "uuid"), *_error()],
        ),
    ],
    api_key=92,
)
