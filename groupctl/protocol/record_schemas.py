"""Every `__consumer_offsets` record schema, keys and values, as data.

Transcribed from Kafka's `group-coordinator/src/main/resources/common/message/*Key.json` and
`*Value.json` (trunk, 4.5.0-SNAPSHOT), including the removed types 9 and 18 and the provisional
type 24, plus the Kafka 3.5-3.7 early-access layouts of types 4, 5, 7 and 8 (used only to recognise
such records, never to decode them as current ones). Keys are version 0 and never flexible.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import Field, Message, field, message

# --- shared struct shapes ------------------------------------------------------------------------


def _member_metadata() -> list[Field]:
    """The fields type 5 has had since the 3.5 early access (what follows them changed in 3.8)."""
    return [
        field("InstanceId", "string", nullable="0+"),
        field("RackId", "string", nullable="0+"),
        field("ClientId", "string"),
        field("ClientHost", "string"),
        field("SubscribedTopicNames", "[]string"),
        field("SubscribedTopicRegex", "string", nullable="0+"),
        field("RebalanceTimeoutMs", "int32", default=-1),
        field("ServerAssignor", "string", nullable="0+"),
    ]


def _target_assignment_metadata() -> list[Field]:
    """The value of types 6, 12 and 20 (AssignmentTimestamp: KIP-1263, 4.3)."""
    return [field("AssignmentEpoch", "int32"), field("AssignmentTimestamp", "int64", tag=0, default=0)]


def _topic_partitions() -> list[Field]:
    return [field("TopicId", "uuid"), field("Partitions", "[]int32")]


def _topic_partitions_with_epochs() -> list[Field]:
    """ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions (AssignmentEpochs: KIP-1251, 4.3)."""
    return [
        *_topic_partitions(),
        field("AssignmentEpochs", "[]int32", nullable="0+", tag=0, default="null"),
    ]


def _task_ids() -> list[Field]:
    return [field("SubtopologyId", "string"), field("Partitions", "[]int32")]


def _task_ids_with_epochs() -> list[Field]:
    return [*_task_ids(), field("AssignmentEpochs", "[]int32", nullable="0+", tag=0, default="null")]


def _key_value() -> list[Field]:
    return [field("Key", "string"), field("Value", "string")]


def _topic_metadata() -> list[Field]:
    """ConsumerGroupPartitionMetadataValue.TopicMetadata (also the removed type 9's)."""
    return [
        field("TopicId", "uuid"),
        field("TopicName", "string"),
        field("NumPartitions", "int32"),
        field(
            "PartitionMetadata",
            "[]PartitionMetadata",
            fields=[field("Partition", "int32"), field("Racks", "[]string")],
        ),
    ]


def _streams_topic_info() -> list[Field]:
    return [
        field("Name", "string"),
        field("Partitions", "int32"),
        field("ReplicationFactor", "int16"),
        field("TopicConfigs", "[]TopicConfig", fields=[field("key", "string"), field("value", "string")]),
    ]


def _key(name: str, type_id: int, *fields: Field) -> Message:
    return message(name, "0", "none", list(fields), api_key=type_id)


def _value(name: str, type_id: int, fields: list[Field]) -> Message:
    return message(name, "0", "0+", fields, api_key=type_id)


def _group_id() -> Field:
    return field("GroupId", "string")


def _member_id() -> Field:
    return field("MemberId", "string")


# --- keys ----------------------------------------------------------------------------------------

KEY_SCHEMAS: Final[dict[int, Message]] = {
    0: _key(
        "LegacyOffsetCommitKey", 0, field("group", "string"), field("topic", "string"), field("partition", "int32")
    ),
    1: _key("OffsetCommitKey", 1, field("group", "string"), field("topic", "string"), field("partition", "int32")),
    2: _key("GroupMetadataKey", 2, field("group", "string")),
    3: _key("ConsumerGroupMetadataKey", 3, _group_id()),
    4: _key("ConsumerGroupPartitionMetadataKey", 4, _group_id()),
    5: _key("ConsumerGroupMemberMetadataKey", 5, _group_id(), _member_id()),
    6: _key("ConsumerGroupTargetAssignmentMetadataKey", 6, _group_id()),
    7: _key("ConsumerGroupTargetAssignmentMemberKey", 7, _group_id(), _member_id()),
    8: _key("ConsumerGroupCurrentMemberAssignmentKey", 8, _group_id(), _member_id()),
    9: _key("ShareGroupPartitionMetadataKey", 9, _group_id()),
    10: _key("ShareGroupMemberMetadataKey", 10, _group_id(), _member_id()),
    11: _key("ShareGroupMetadataKey", 11, _group_id()),
    12: _key("ShareGroupTargetAssignmentMetadataKey", 12, _group_id()),
    13: _key("ShareGroupTargetAssignmentMemberKey", 13, _group_id(), _member_id()),
    14: _key("ShareGroupCurrentMemberAssignmentKey", 14, _group_id(), _member_id()),
    15: _key("ShareGroupStatePartitionMetadataKey", 15, _group_id()),
    16: _key("ConsumerGroupRegularExpressionKey", 16, _group_id(), field("RegularExpression", "string")),
    17: _key("StreamsGroupMetadataKey", 17, _group_id()),
    18: _key("StreamsGroupPartitionMetadataKey", 18, _group_id()),
    19: _key("StreamsGroupMemberMetadataKey", 19, _group_id(), _member_id()),
    20: _key("StreamsGroupTargetAssignmentMetadataKey", 20, _group_id()),
    21: _key("StreamsGroupTargetAssignmentMemberKey", 21, _group_id(), _member_id()),
    22: _key("StreamsGroupCurrentMemberAssignmentKey", 22, _group_id(), _member_id()),
    23: _key("StreamsGroupTopologyKey", 23, _group_id()),
    24: _key("StreamsGroupTargetAssignmentResolvedTopicIdsKey", 24, _group_id()),
}

# --- values --------------------------------------------------------------------------------------

VALUE_SCHEMAS: Final[dict[int, Message]] = {
    0: message(
        "LegacyOffsetCommitValue",
        "0",
        "none",
        [field("offset", "int64"), field("metadata", "string"), field("commitTimestamp", "int64")],
        api_key=0,
    ),
    1: message(
        "OffsetCommitValue",
        "0-4",
        "4+",
        [
            field("offset", "int64"),
            field("leaderEpoch", "int32", "3+", default=-1, ignorable=True),
            field("metadata", "string"),
            field("commitTimestamp", "int64"),
            field("expireTimestamp", "int64", "1", default=-1, ignorable=True),
            field("topicId", "uuid", "4+", tag=0, ignorable=True),
        ],
        api_key=1,
    ),
    2: message(
        "GroupMetadataValue",
        "0-4",
        "4+",
        [
            field("protocolType", "string"),
            field("generation", "int32"),
            field("protocol", "string", nullable="0+"),
            field("leader", "string", nullable="0+"),
            field("currentStateTimestamp", "int64", "2+", default=-1, ignorable=True),
            field(
                "members",
                "[]MemberMetadata",
                fields=[
                    field("memberId", "string"),
                    field("groupInstanceId", "string", "3+", nullable="3+", default="null", ignorable=True),
                    field("clientId", "string"),
                    field("clientHost", "string"),
                    field("rebalanceTimeout", "int32", "1+", default=-1, ignorable=True),
                    field("sessionTimeout", "int32"),
                    field("subscription", "bytes"),
                    field("assignment", "bytes"),
                ],
            ),
        ],
        api_key=2,
    ),
    3: _value(
        "ConsumerGroupMetadataValue",
        3,
        [field("Epoch", "int32"), field("MetadataHash", "int64", tag=0, default=0)],
    ),
    4: _value(
        "ConsumerGroupPartitionMetadataValue",
        4,
        [field("Topics", "[]TopicMetadata", fields=_topic_metadata())],
    ),
    5: _value(
        "ConsumerGroupMemberMetadataValue",
        5,
        [
            *_member_metadata(),
            # Kafka's schema says `"default": null` (a JSON null, not the string "null"), which its
            # generator reads as no default: the default is the empty struct, so a null is written
            # (tag 0, size 1, marker 0) and printed (`"classicMemberMetadata":null`), and an absent
            # tag reads as the empty struct, which is not printed.
            field(
                "ClassicMemberMetadata",
                "ClassicMemberMetadata",
                nullable="0+",
                tag=0,
                fields=[
                    field("SessionTimeoutMs", "int32"),
                    field(
                        "SupportedProtocols",
                        "[]ClassicProtocol",
                        fields=[field("Name", "string"), field("Metadata", "bytes")],
                    ),
                ],
            ),
        ],
    ),
    6: _value(
        "ConsumerGroupTargetAssignmentMetadataValue",
        6,
        _target_assignment_metadata(),
    ),
    7: _value(
        "ConsumerGroupTargetAssignmentMemberValue",
        7,
        [field("TopicPartitions", "[]TopicPartition", fields=_topic_partitions())],
    ),
    8: _value(
        "ConsumerGroupCurrentMemberAssignmentValue",
        8,
        [
            field("MemberEpoch", "int32"),
            field("PreviousMemberEpoch", "int32"),
            field("State", "int8"),
            field("AssignedPartitions", "[]TopicPartitions", fields=_topic_partitions_with_epochs()),
            field("PartitionsPendingRevocation", "[]TopicPartitions", fields=_topic_partitions_with_epochs()),
        ],
    ),
    9: _value(
        "ShareGroupPartitionMetadataValue",
        9,
        [field("Topics", "[]TopicMetadata", fields=_topic_metadata())],
    ),
    10: _value(
        "ShareGroupMemberMetadataValue",
        10,
        [
            field("RackId", "string", nullable="0+"),
            field("ClientId", "string"),
            field("ClientHost", "string"),
            field("SubscribedTopicNames", "[]string"),
        ],
    ),
    11: _value("ShareGroupMetadataValue", 11, [field("Epoch", "int32"), field("MetadataHash", "int64")]),
    12: _value(
        "ShareGroupTargetAssignmentMetadataValue",
        12,
        _target_assignment_metadata(),
    ),
    13: _value(
        "ShareGroupTargetAssignmentMemberValue",
        13,
        [field("TopicPartitions", "[]TopicPartition", fields=_topic_partitions())],
    ),
    14: _value(
        "ShareGroupCurrentMemberAssignmentValue",
        14,
        [
            field("MemberEpoch", "int32"),
            field("PreviousMemberEpoch", "int32"),
            field("State", "int8"),
            field("AssignedPartitions", "[]TopicPartitions", fields=_topic_partitions()),
        ],
    ),
    15: _value(
        "ShareGroupStatePartitionMetadataValue",
        15,
        [
            field(
                "InitializingTopics",
                "[]TopicPartitionsInfo",
                fields=[field("TopicId", "uuid"), field("TopicName", "string"), field("Partitions", "[]int32")],
            ),
            field(
                "InitializedTopics",
                "[]TopicPartitionsInfo",
                fields=[field("TopicId", "uuid"), field("TopicName", "string"), field("Partitions", "[]int32")],
            ),
            field(
                "DeletingTopics",
                "[]TopicInfo",
                fields=[field("TopicId", "uuid"), field("TopicName", "string")],
            ),
        ],
    ),
    16: _value(
        "ConsumerGroupRegularExpressionValue",
        16,
        [field("Topics", "[]string"), field("Version", "int64"), field("Timestamp", "int64")],
    ),
    17: _value(
        "StreamsGroupMetadataValue",
        17,
        [
            field("Epoch", "int32"),
            field("MetadataHash", "int64"),
            field("ValidatedTopologyEpoch", "int32", tag=0, default=-1),
            field(
                "LastAssignmentConfigs",
                "[]LastAssignmentConfig",
                nullable="0+",
                tag=1,
                default="null",
                fields=_key_value(),
            ),
            field("StoredDescriptionTopologyEpoch", "int32", tag=2, default=-1),
            field("FailedDescriptionTopologyEpoch", "int32", tag=3, default=-1),
        ],
    ),
    18: _value(
        "StreamsGroupPartitionMetadataValue",
        18,
        [
            field(
                "Topics",
                "[]TopicMetadata",
                fields=[field("TopicId", "uuid"), field("TopicName", "string"), field("NumPartitions", "int32")],
            )
        ],
    ),
    19: _value(
        "StreamsGroupMemberMetadataValue",
        19,
        [
            field("InstanceId", "string", nullable="0+"),
            field("RackId", "string", nullable="0+"),
            field("ClientId", "string"),
            field("ClientHost", "string"),
            field("RebalanceTimeoutMs", "int32", default=-1),
            field("TopologyEpoch", "int32"),
            field("ProcessId", "string"),
            field(
                "UserEndpoint",
                "Endpoint",
                nullable="0+",
                default="null",
                fields=[field("Host", "string"), field("Port", "uint16")],
            ),
            field("ClientTags", "[]KeyValue", fields=_key_value()),
        ],
    ),
    20: _value(
        "StreamsGroupTargetAssignmentMetadataValue",
        20,
        _target_assignment_metadata(),
    ),
    21: _value(
        "StreamsGroupTargetAssignmentMemberValue",
        21,
        [
            field("ActiveTasks", "[]TaskIds", fields=_task_ids()),
            field("StandbyTasks", "[]TaskIds", fields=_task_ids()),
            field("WarmupTasks", "[]TaskIds", fields=_task_ids()),
        ],
    ),
    22: _value(
        "StreamsGroupCurrentMemberAssignmentValue",
        22,
        [
            field("MemberEpoch", "int32"),
            field("PreviousMemberEpoch", "int32"),
            field("State", "int8"),
            field("ActiveTasks", "[]TaskIds", fields=_task_ids_with_epochs()),
            field("StandbyTasks", "[]TaskIds", fields=_task_ids_with_epochs()),
            field("WarmupTasks", "[]TaskIds", fields=_task_ids_with_epochs()),
            field("ActiveTasksPendingRevocation", "[]TaskIds", fields=_task_ids_with_epochs()),
            field("StandbyTasksPendingRevocation", "[]TaskIds", fields=_task_ids_with_epochs()),
            field("WarmupTasksPendingRevocation", "[]TaskIds", fields=_task_ids_with_epochs()),
        ],
    ),
    23: _value(
        "StreamsGroupTopologyValue",
        23,
        [
            field("Epoch", "int32"),
            field(
                "Subtopologies",
                "[]Subtopology",
                fields=[
                    field("SubtopologyId", "string"),
                    field("SourceTopics", "[]string"),
                    field("SourceTopicRegex", "[]string"),
                    field("StateChangelogTopics", "[]TopicInfo", fields=_streams_topic_info()),
                    field("RepartitionSinkTopics", "[]string"),
                    field("RepartitionSourceTopics", "[]TopicInfo", fields=_streams_topic_info()),
                    field(
                        "CopartitionGroups",
                        "[]CopartitionGroup",
                        fields=[
                            field("SourceTopics", "[]int16"),
                            field("SourceTopicRegex", "[]int16"),
                            field("RepartitionSourceTopics", "[]int16"),
                        ],
                    ),
                ],
            ),
        ],
    ),
    24: _value(
        "StreamsGroupTargetAssignmentResolvedTopicIdsValue",
        24,
        [
            field("AssignmentEpoch", "int32"),
            field(
                "ResolvedTopicIdsBySubtopology",
                "[]ResolvedTopicIds",
                fields=[field("SubtopologyId", "string"), field("TopicIds", "[]uuid")],
            ),
        ],
    ),
}

REMOVED_TYPES: Final = frozenset({9, 18})
"""Types that existed only in 4.0 (9) or in development (18); still decoded if met."""

PROVISIONAL_TYPES: Final = frozenset({24})
"""Types seen in a newer public copy of the schemas but not in the 2026-08 trunk."""

# --- Kafka 3.5-3.7 early-access layouts (KIP-848 before GA) -------------------------------------
# Only used to recognise such records; a 3.8+ broker cannot read them either. Type 4 is listed with
# and without the per-partition rack list, the one detail the sources disagree on.

_EA_ASSIGNORS = field(
    "Assignors",
    "[]Assignor",
    fields=[
        field("Name", "string"),
        field("MinimumVersion", "int16"),
        field("MaximumVersion", "int16"),
        field("Reason", "int8"),
        field("Version", "int16"),
        field("Metadata", "bytes"),
    ],
)

EARLY_ACCESS_VALUE_SCHEMAS: Final[dict[int, tuple[Message, ...]]] = {
    4: (
        _value(
            "ConsumerGroupPartitionMetadataValue(3.7)",
            4,
            [
                field("Epoch", "int32"),
                field(
                    "Topics",
                    "[]TopicMetadata",
                    fields=[field("TopicId", "uuid"), field("TopicName", "string"), field("NumPartitions", "int32")],
                ),
            ],
        ),
        _value(
            "ConsumerGroupPartitionMetadataValue(3.7 with racks)",
            4,
            [
                field("Epoch", "int32"),
                field(
                    "Topics",
                    "[]TopicMetadata",
                    fields=[
                        field("TopicId", "uuid"),
                        field("TopicName", "string"),
                        field("NumPartitions", "int32"),
                        field(
                            "PartitionRacks",
                            "[]PartitionMetadata",
                            fields=[field("Partition", "int32"), field("Racks", "[]string")],
                        ),
                    ],
                ),
            ],
        ),
    ),
    5: (
        _value(
            "ConsumerGroupMemberMetadataValue(3.7)",
            5,
            [
                *_member_metadata(),
                _EA_ASSIGNORS,
            ],
        ),
    ),
    7: (
        _value(
            "ConsumerGroupTargetAssignmentMemberValue(3.7)",
            7,
            [
                field("Error", "int8"),
                field("TopicPartitions", "[]TopicPartition", fields=_topic_partitions()),
                field("MetadataVersion", "int16"),
                field("MetadataBytes", "bytes"),
            ],
        ),
    ),
    8: (
        _value(
            "ConsumerGroupCurrentMemberAssignmentValue(3.7)",
            8,
            [
                field("MemberEpoch", "int32"),
                field("PreviousMemberEpoch", "int32"),
                field("TargetMemberEpoch", "int32"),
                field("AssignedPartitions", "[]TopicPartitions", fields=_topic_partitions()),
                field("PartitionsPendingRevocation", "[]TopicPartitions", fields=_topic_partitions()),
                field("PartitionsPendingAssignment", "[]TopicPartitions", fields=_topic_partitions()),
                field("Error", "int8"),
                field("MetadataVersion", "int16"),
                field("MetadataBytes", "bytes"),
            ],
        ),
    ),
}

# --- Kafka 4.0 layouts of share-group values a 4.1 broker writes differently ----------------------
# What a 4.0 tool reads a 4.1 broker's records with (KIP-932 was a preview in both): 4.1 added type
# 11's MetadataHash (not tagged) and type 15's InitializingTopics (first), so 4.0 reads their bytes as
# something else, often failing. Used only to print a 4.1 segment as Kafka 4.0's kafka-dump-log.sh does.

KAFKA_40_VALUE_SCHEMAS: Final[dict[int, Message]] = {
    11: _value("ShareGroupMetadataValue(4.0)", 11, [field("Epoch", "int32")]),
    15: _value(
        "ShareGroupStatePartitionMetadataValue(4.0)",
        15,
        [
            field(
                "InitializedTopics",
                "[]TopicPartitionsInfo",
                fields=[field("TopicId", "uuid"), field("TopicName", "string"), field("Partitions", "[]int32")],
            ),
            field("DeletingTopics", "[]TopicInfo", fields=[field("TopicId", "uuid"), field("TopicName", "string")]),
        ],
    ),
}
