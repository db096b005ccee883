"""The `__consumer_offsets` record keys and values, as classes: generated from `groupctl.protocol.record_schemas`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class LegacyOffsetCommitKey(Data):
    """LegacyOffsetCommitKey, versions 0."""

    __slots__ = ("group", "partition", "topic")
    _FIELDS: ClassVar[FieldTable] = (
        ("group", "group", None),
        ("topic", "topic", None),
        ("partition", "partition", None),
    )
    SCHEMA_NAME: ClassVar[str] = "LegacyOffsetCommitKey"

    group: str
    topic: str
    partition: int

    def __init__(
        self,
        *,
        group: str = "",
        topic: str = "",
        partition: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group = group
        self.topic = topic
        self.partition = partition
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitKey(Data):
    """OffsetCommitKey, versions 0."""

    __slots__ = ("group", "partition", "topic")
    _FIELDS: ClassVar[FieldTable] = (
        ("group", "group", None),
        ("topic", "topic", None),
        ("partition", "partition", None),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetCommitKey"

    group: str
    topic: str
    partition: int

    def __init__(
        self,
        *,
        group: str = "",
        topic: str = "",
        partition: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group = group
        self.topic = topic
        self.partition = partition
        self.unknown_tagged_fields = unknown_tagged_fields


class GroupMetadataKey(Data):
    """GroupMetadataKey, versions 0."""

    __slots__ = ("group",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group", "group", None),
    )
    SCHEMA_NAME: ClassVar[str] = "GroupMetadataKey"

    group: str

    def __init__(
        self,
        *,
        group: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group = group
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupMetadataKey(Data):
    """ConsumerGroupMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupPartitionMetadataKey(Data):
    """ConsumerGroupPartitionMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupPartitionMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupMemberMetadataKey(Data):
    """ConsumerGroupMemberMetadataKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupMemberMetadataKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupTargetAssignmentMetadataKey(Data):
    """ConsumerGroupTargetAssignmentMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupTargetAssignmentMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupTargetAssignmentMemberKey(Data):
    """ConsumerGroupTargetAssignmentMemberKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupTargetAssignmentMemberKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupCurrentMemberAssignmentKey(Data):
    """ConsumerGroupCurrentMemberAssignmentKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupCurrentMemberAssignmentKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupPartitionMetadataKey(Data):
    """ShareGroupPartitionMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupPartitionMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupMemberMetadataKey(Data):
    """ShareGroupMemberMetadataKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupMemberMetadataKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupMetadataKey(Data):
    """ShareGroupMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupTargetAssignmentMetadataKey(Data):
    """ShareGroupTargetAssignmentMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupTargetAssignmentMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupTargetAssignmentMemberKey(Data):
    """ShareGroupTargetAssignmentMemberKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupTargetAssignmentMemberKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupCurrentMemberAssignmentKey(Data):
    """ShareGroupCurrentMemberAssignmentKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupCurrentMemberAssignmentKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupStatePartitionMetadataKey(Data):
    """ShareGroupStatePartitionMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupStatePartitionMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupRegularExpressionKey(Data):
    """ConsumerGroupRegularExpressionKey, versions 0."""

    __slots__ = ("group_id", "regular_expression")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("regular_expression", "regularExpression", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupRegularExpressionKey"

    group_id: str
    regular_expression: str

    def __init__(
        self,
        *,
        group_id: str = "",
        regular_expression: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.regular_expression = regular_expression
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupMetadataKey(Data):
    """StreamsGroupMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupPartitionMetadataKey(Data):
    """StreamsGroupPartitionMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupPartitionMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupMemberMetadataKey(Data):
    """StreamsGroupMemberMetadataKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupMemberMetadataKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentMetadataKey(Data):
    """StreamsGroupTargetAssignmentMetadataKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentMetadataKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentMemberKey(Data):
    """StreamsGroupTargetAssignmentMemberKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentMemberKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupCurrentMemberAssignmentKey(Data):
    """StreamsGroupCurrentMemberAssignmentKey, versions 0."""

    __slots__ = ("group_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupCurrentMemberAssignmentKey"

    group_id: str
    member_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTopologyKey(Data):
    """StreamsGroupTopologyKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTopologyKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentResolvedTopicIdsKey(Data):
    """StreamsGroupTargetAssignmentResolvedTopicIdsKey, versions 0."""

    __slots__ = ("group_id",)
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentResolvedTopicIdsKey"

    group_id: str

    def __init__(
        self,
        *,
        group_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.unknown_tagged_fields = unknown_tagged_fields


class LegacyOffsetCommitValue(Data):
    """LegacyOffsetCommitValue, versions 0."""

    __slots__ = ("commit_timestamp", "metadata", "offset")
    _FIELDS: ClassVar[FieldTable] = (
        ("offset", "offset", None),
        ("metadata", "metadata", None),
        ("commit_timestamp", "commitTimestamp", None),
    )
    SCHEMA_NAME: ClassVar[str] = "LegacyOffsetCommitValue"

    offset: int
    metadata: str
    commit_timestamp: int

    def __init__(
        self,
        *,
        offset: int = 0,
        metadata: str = "",
        commit_timestamp: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.offset = offset
        self.metadata = metadata
        self.commit_timestamp = commit_timestamp
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitValue(Data):
    """OffsetCommitValue, versions 0-4."""

    __slots__ = ("commit_timestamp", "expire_timestamp", "leader_epoch", "metadata", "offset", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("offset", "offset", None),
        ("leader_epoch", "leaderEpoch", None),
        ("metadata", "metadata", None),
        ("commit_timestamp", "commitTimestamp", None),
        ("expire_timestamp", "expireTimestamp", None),
        ("topic_id", "topicId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetCommitValue"

    offset: int
    leader_epoch: int
    metadata: str
    commit_timestamp: int
    expire_timestamp: int
    topic_id: uuid.UUID

    def __init__(
        self,
        *,
        offset: int = 0,
        leader_epoch: int = -1,
        metadata: str = "",
        commit_timestamp: int = 0,
        expire_timestamp: int = -1,
        topic_id: uuid.UUID = ZERO_UUID,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.offset = offset
        self.leader_epoch = leader_epoch
        self.metadata = metadata
        self.commit_timestamp = commit_timestamp
        self.expire_timestamp = expire_timestamp
        self.topic_id = topic_id
        self.unknown_tagged_fields = unknown_tagged_fields


class MemberMetadata(Data):
    """An entry of GroupMetadataValue.members[]."""

    __slots__ = (
        "assignment",
        "client_host",
        "client_id",
        "group_instance_id",
        "member_id",
        "rebalance_timeout",
        "session_timeout",
        "subscription",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("rebalance_timeout", "rebalanceTimeout", None),
        ("session_timeout", "sessionTimeout", None),
        ("subscription", "subscription", None),
        ("assignment", "assignment", None),
    )

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout: int
    session_timeout: int
    subscription: bytes
    assignment: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        client_id: str = "",
        client_host: str = "",
        rebalance_timeout: int = -1,
        session_timeout: int = 0,
        subscription: bytes = b"",
        assignment: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout = rebalance_timeout
        self.session_timeout = session_timeout
        self.subscription = subscription
        self.assignment = assignment
        self.unknown_tagged_fields = unknown_tagged_fields


class GroupMetadataValue(Data):
    """GroupMetadataValue, versions 0-4."""

    __slots__ = ("current_state_timestamp", "generation", "leader", "members", "protocol", "protocol_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("protocol_type", "protocolType", None),
        ("generation", "generation", None),
        ("protocol", "protocol", None),
        ("leader", "leader", None),
        ("current_state_timestamp", "currentStateTimestamp", None),
        ("members", "members", MemberMetadata),
    )
    SCHEMA_NAME: ClassVar[str] = "GroupMetadataValue"

    protocol_type: str
    generation: int
    protocol: str | None
    leader: str | None
    current_state_timestamp: int
    members: list[MemberMetadata]

    def __init__(
        self,
        *,
        protocol_type: str = "",
        generation: int = 0,
        protocol: str | None = "",
        leader: str | None = "",
        current_state_timestamp: int = -1,
        members: list[MemberMetadata] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.protocol_type = protocol_type
        self.generation = generation
        self.protocol = protocol
        self.leader = leader
        self.current_state_timestamp = current_state_timestamp
        self.members = [] if members is UNSET else members
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupMetadataValue(Data):
    """ConsumerGroupMetadataValue, versions 0."""

    __slots__ = ("epoch", "metadata_hash")
    _FIELDS: ClassVar[FieldTable] = (
        ("epoch", "epoch", None),
        ("metadata_hash", "metadataHash", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupMetadataValue"

    epoch: int
    metadata_hash: int

    def __init__(
        self,
        *,
        epoch: int = 0,
        metadata_hash: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.epoch = epoch
        self.metadata_hash = metadata_hash
        self.unknown_tagged_fields = unknown_tagged_fields


class PartitionMetadata(Data):
    """An entry of ConsumerGroupPartitionMetadataValue.Topics[].PartitionMetadata[]."""

    __slots__ = ("partition", "racks")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition", "partition", None),
        ("racks", "racks", None),
    )

    partition: int
    racks: list[str]

    def __init__(
        self,
        *,
        partition: int = 0,
        racks: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition = partition
        self.racks = [] if racks is UNSET else racks
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicMetadata(Data):
    """An entry of ConsumerGroupPartitionMetadataValue.Topics[]."""

    __slots__ = ("num_partitions", "partition_metadata", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("topic_name", "topicName", None),
        ("num_partitions", "numPartitions", None),
        ("partition_metadata", "partitionMetadata", PartitionMetadata),
    )

    topic_id: uuid.UUID
    topic_name: str
    num_partitions: int
    partition_metadata: list[PartitionMetadata]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        topic_name: str = "",
        num_partitions: int = 0,
        partition_metadata: list[PartitionMetadata] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.num_partitions = num_partitions
        self.partition_metadata = [] if partition_metadata is UNSET else partition_metadata
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupPartitionMetadataValue(Data):
    """ConsumerGroupPartitionMetadataValue, versions 0."""

    __slots__ = ("topics",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", TopicMetadata),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupPartitionMetadataValue"

    topics: list[TopicMetadata]

    def __init__(
        self,
        *,
        topics: list[TopicMetadata] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class ClassicProtocol(Data):
    """An entry of ConsumerGroupMemberMetadataValue.ClassicMemberMetadata.SupportedProtocols[]."""

    __slots__ = ("metadata", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("metadata", "metadata", None),
    )

    name: str
    metadata: bytes

    def __init__(
        self,
        *,
        name: str = "",
        metadata: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.metadata = metadata
        self.unknown_tagged_fields = unknown_tagged_fields


class ClassicMemberMetadata(Data):
    """The struct ConsumerGroupMemberMetadataValue.ClassicMemberMetadata."""

    __slots__ = ("session_timeout_ms", "supported_protocols")
    _FIELDS: ClassVar[FieldTable] = (
        ("session_timeout_ms", "sessionTimeoutMs", None),
        ("supported_protocols", "supportedProtocols", ClassicProtocol),
    )

    session_timeout_ms: int
    supported_protocols: list[ClassicProtocol]

    def __init__(
        self,
        *,
        session_timeout_ms: int = 0,
        supported_protocols: list[ClassicProtocol] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.session_timeout_ms = session_timeout_ms
        self.supported_protocols = [] if supported_protocols is UNSET else supported_protocols
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupMemberMetadataValue(Data):
    """ConsumerGroupMemberMetadataValue, versions 0."""

    __slots__ = (
        "classic_member_metadata",
        "client_host",
        "client_id",
        "instance_id",
        "rack_id",
        "rebalance_timeout_ms",
        "server_assignor",
        "subscribed_topic_names",
        "subscribed_topic_regex",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("instance_id", "instanceId", None),
        ("rack_id", "rackId", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
        ("subscribed_topic_regex", "subscribedTopicRegex", None),
        ("rebalance_timeout_ms", "rebalanceTimeoutMs", None),
        ("server_assignor", "serverAssignor", None),
        ("classic_member_metadata", "classicMemberMetadata", ClassicMemberMetadata),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupMemberMetadataValue"

    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    rebalance_timeout_ms: int
    server_assignor: str | None
    classic_member_metadata: ClassicMemberMetadata | None

    def __init__(
        self,
        *,
        instance_id: str | None = "",
        rack_id: str | None = "",
        client_id: str = "",
        client_host: str = "",
        subscribed_topic_names: list[str] = UNSET,
        subscribed_topic_regex: str | None = "",
        rebalance_timeout_ms: int = -1,
        server_assignor: str | None = "",
        classic_member_metadata: ClassicMemberMetadata | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.server_assignor = server_assignor
        self.classic_member_metadata = (
            ClassicMemberMetadata() if classic_member_metadata is UNSET else classic_member_metadata
        )
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupTargetAssignmentMetadataValue(Data):
    """ConsumerGroupTargetAssignmentMetadataValue, versions 0."""

    __slots__ = ("assignment_epoch", "assignment_timestamp")
    _FIELDS: ClassVar[FieldTable] = (
        ("assignment_epoch", "assignmentEpoch", None),
        ("assignment_timestamp", "assignmentTimestamp", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupTargetAssignmentMetadataValue"

    assignment_epoch: int
    assignment_timestamp: int

    def __init__(
        self,
        *,
        assignment_epoch: int = 0,
        assignment_timestamp: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.assignment_epoch = assignment_epoch
        self.assignment_timestamp = assignment_timestamp
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicPartition(Data):
    """An entry of ConsumerGroupTargetAssignmentMemberValue.TopicPartitions[]."""

    __slots__ = ("partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("partitions", "partitions", None),
    )

    topic_id: uuid.UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupTargetAssignmentMemberValue(Data):
    """ConsumerGroupTargetAssignmentMemberValue, versions 0."""

    __slots__ = ("topic_partitions",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_partitions", "topicPartitions", TopicPartition),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupTargetAssignmentMemberValue"

    topic_partitions: list[TopicPartition]

    def __init__(
        self,
        *,
        topic_partitions: list[TopicPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicPartitions(Data):
    """An entry of ConsumerGroupCurrentMemberAssignmentValue.AssignedPartitions[]."""

    __slots__ = ("assignment_epochs", "partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("partitions", "partitions", None),
        ("assignment_epochs", "assignmentEpochs", None),
    )

    topic_id: uuid.UUID
    partitions: list[int]
    assignment_epochs: list[int] | None

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[int] = UNSET,
        assignment_epochs: list[int] | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.assignment_epochs = assignment_epochs
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupCurrentMemberAssignmentValue(Data):
    """ConsumerGroupCurrentMemberAssignmentValue, versions 0."""

    __slots__ = (
        "assigned_partitions",
        "member_epoch",
        "partitions_pending_revocation",
        "previous_member_epoch",
        "state",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("member_epoch", "memberEpoch", None),
        ("previous_member_epoch", "previousMemberEpoch", None),
        ("state", "state", None),
        ("assigned_partitions", "assignedPartitions", TopicPartitions),
        ("partitions_pending_revocation", "partitionsPendingRevocation", TopicPartitions),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupCurrentMemberAssignmentValue"

    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: list[TopicPartitions]
    partitions_pending_revocation: list[TopicPartitions]

    def __init__(
        self,
        *,
        member_epoch: int = 0,
        previous_member_epoch: int = 0,
        state: int = 0,
        assigned_partitions: list[TopicPartitions] = UNSET,
        partitions_pending_revocation: list[TopicPartitions] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_epoch = member_epoch
        self.previous_member_epoch = previous_member_epoch
        self.state = state
        self.assigned_partitions = [] if assigned_partitions is UNSET else assigned_partitions
        self.partitions_pending_revocation = (
            [] if partitions_pending_revocation is UNSET else partitions_pending_revocation
        )
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupPartitionMetadataValue(Data):
    """ShareGroupPartitionMetadataValue, versions 0."""

    __slots__ = ("topics",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", TopicMetadata),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupPartitionMetadataValue"

    topics: list[TopicMetadata]

    def __init__(
        self,
        *,
        topics: list[TopicMetadata] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupMemberMetadataValue(Data):
    """ShareGroupMemberMetadataValue, versions 0."""

    __slots__ = ("client_host", "client_id", "rack_id", "subscribed_topic_names")
    _FIELDS: ClassVar[FieldTable] = (
        ("rack_id", "rackId", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupMemberMetadataValue"

    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]

    def __init__(
        self,
        *,
        rack_id: str | None = "",
        client_id: str = "",
        client_host: str = "",
        subscribed_topic_names: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupMetadataValue(Data):
    """ShareGroupMetadataValue, versions 0."""

    __slots__ = ("epoch", "metadata_hash")
    _FIELDS: ClassVar[FieldTable] = (
        ("epoch", "epoch", None),
        ("metadata_hash", "metadataHash", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupMetadataValue"

    epoch: int
    metadata_hash: int

    def __init__(
        self,
        *,
        epoch: int = 0,
        metadata_hash: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.epoch = epoch
        self.metadata_hash = metadata_hash
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupTargetAssignmentMetadataValue(Data):
    """ShareGroupTargetAssignmentMetadataValue, versions 0."""

    __slots__ = ("assignment_epoch", "assignment_timestamp")
    _FIELDS: ClassVar[FieldTable] = (
        ("assignment_epoch", "assignmentEpoch", None),
        ("assignment_timestamp", "assignmentTimestamp", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupTargetAssignmentMetadataValue"

    assignment_epoch: int
    assignment_timestamp: int

    def __init__(
        self,
        *,
        assignment_epoch: int = 0,
        assignment_timestamp: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.assignment_epoch = assignment_epoch
        self.assignment_timestamp = assignment_timestamp
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupTargetAssignmentMemberValue(Data):
    """ShareGroupTargetAssignmentMemberValue, versions 0."""

    __slots__ = ("topic_partitions",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_partitions", "topicPartitions", TopicPartition),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupTargetAssignmentMemberValue"

    topic_partitions: list[TopicPartition]

    def __init__(
        self,
        *,
        topic_partitions: list[TopicPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupCurrentMemberAssignmentValueTopicPartitions(Data):
    """An entry of ShareGroupCurrentMemberAssignmentValue.AssignedPartitions[]."""

    __slots__ = ("partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("partitions", "partitions", None),
    )

    topic_id: uuid.UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupCurrentMemberAssignmentValue(Data):
    """ShareGroupCurrentMemberAssignmentValue, versions 0."""

    __slots__ = ("assigned_partitions", "member_epoch", "previous_member_epoch", "state")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_epoch", "memberEpoch", None),
        ("previous_member_epoch", "previousMemberEpoch", None),
        ("state", "state", None),
        ("assigned_partitions", "assignedPartitions", ShareGroupCurrentMemberAssignmentValueTopicPartitions),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupCurrentMemberAssignmentValue"

    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: list[ShareGroupCurrentMemberAssignmentValueTopicPartitions]

    def __init__(
        self,
        *,
        member_epoch: int = 0,
        previous_member_epoch: int = 0,
        state: int = 0,
        assigned_partitions: list[ShareGroupCurrentMemberAssignmentValueTopicPartitions] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_epoch = member_epoch
        self.previous_member_epoch = previous_member_epoch
        self.state = state
        self.assigned_partitions = [] if assigned_partitions is UNSET else assigned_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicPartitionsInfo(Data):
    """An entry of ShareGroupStatePartitionMetadataValue.InitializingTopics[]."""

    __slots__ = ("partitions", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("topic_name", "topicName", None),
        ("partitions", "partitions", None),
    )

    topic_id: uuid.UUID
    topic_name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        topic_name: str = "",
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicInfo(Data):
    """An entry of ShareGroupStatePartitionMetadataValue.DeletingTopics[]."""

    __slots__ = ("topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("topic_name", "topicName", None),
    )

    topic_id: uuid.UUID
    topic_name: str

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        topic_name: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareGroupStatePartitionMetadataValue(Data):
    """ShareGroupStatePartitionMetadataValue, versions 0."""

    __slots__ = ("deleting_topics", "initialized_topics", "initializing_topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("initializing_topics", "initializingTopics", TopicPartitionsInfo),
        ("initialized_topics", "initializedTopics", TopicPartitionsInfo),
        ("deleting_topics", "deletingTopics", TopicInfo),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupStatePartitionMetadataValue"

    initializing_topics: list[TopicPartitionsInfo]
    initialized_topics: list[TopicPartitionsInfo]
    deleting_topics: list[TopicInfo]

    def __init__(
        self,
        *,
        initializing_topics: list[TopicPartitionsInfo] = UNSET,
        initialized_topics: list[TopicPartitionsInfo] = UNSET,
        deleting_topics: list[TopicInfo] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.initializing_topics = [] if initializing_topics is UNSET else initializing_topics
        self.initialized_topics = [] if initialized_topics is UNSET else initialized_topics
        self.deleting_topics = [] if deleting_topics is UNSET else deleting_topics
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupRegularExpressionValue(Data):
    """ConsumerGroupRegularExpressionValue, versions 0."""

    __slots__ = ("timestamp", "topics", "version")
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", None),
        ("version", "version", None),
        ("timestamp", "timestamp", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupRegularExpressionValue"

    topics: list[str]
    version: int
    timestamp: int

    def __init__(
        self,
        *,
        topics: list[str] = UNSET,
        version: int = 0,
        timestamp: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.version = version
        self.timestamp = timestamp
        self.unknown_tagged_fields = unknown_tagged_fields


class LastAssignmentConfig(Data):
    """An entry of StreamsGroupMetadataValue.LastAssignmentConfigs[]."""

    __slots__ = ("key", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("key", "key", None),
        ("value", "value", None),
    )

    key: str
    value: str

    def __init__(
        self,
        *,
        key: str = "",
        value: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.key = key
        self.value = value
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupMetadataValue(Data):
    """StreamsGroupMetadataValue, versions 0."""

    __slots__ = (
        "epoch",
        "failed_description_topology_epoch",
        "last_assignment_configs",
        "metadata_hash",
        "stored_description_topology_epoch",
        "validated_topology_epoch",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("epoch", "epoch", None),
        ("metadata_hash", "metadataHash", None),
        ("validated_topology_epoch", "validatedTopologyEpoch", None),
        ("last_assignment_configs", "lastAssignmentConfigs", LastAssignmentConfig),
        ("stored_description_topology_epoch", "storedDescriptionTopologyEpoch", None),
        ("failed_description_topology_epoch", "failedDescriptionTopologyEpoch", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupMetadataValue"

    epoch: int
    metadata_hash: int
    validated_topology_epoch: int
    last_assignment_configs: list[LastAssignmentConfig] | None
    stored_description_topology_epoch: int
    failed_description_topology_epoch: int

    def __init__(
        self,
        *,
        epoch: int = 0,
        metadata_hash: int = 0,
        validated_topology_epoch: int = -1,
        last_assignment_configs: list[LastAssignmentConfig] | None = None,
        stored_description_topology_epoch: int = -1,
        failed_description_topology_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.epoch = epoch
        self.metadata_hash = metadata_hash
        self.validated_topology_epoch = validated_topology_epoch
        self.last_assignment_configs = last_assignment_configs
        self.stored_description_topology_epoch = stored_description_topology_epoch
        self.failed_description_topology_epoch = failed_description_topology_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupPartitionMetadataValueTopicMetadata(Data):
    """An entry of StreamsGroupPartitionMetadataValue.Topics[]."""

    __slots__ = ("num_partitions", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("topic_name", "topicName", None),
        ("num_partitions", "numPartitions", None),
    )

    topic_id: uuid.UUID
    topic_name: str
    num_partitions: int

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        topic_name: str = "",
        num_partitions: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.num_partitions = num_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupPartitionMetadataValue(Data):
    """StreamsGroupPartitionMetadataValue, versions 0."""

    __slots__ = ("topics",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", StreamsGroupPartitionMetadataValueTopicMetadata),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupPartitionMetadataValue"

    topics: list[StreamsGroupPartitionMetadataValueTopicMetadata]

    def __init__(
        self,
        *,
        topics: list[StreamsGroupPartitionMetadataValueTopicMetadata] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class Endpoint(Data):
    """The struct StreamsGroupMemberMetadataValue.UserEndpoint."""

    __slots__ = ("host", "port")
    _FIELDS: ClassVar[FieldTable] = (
        ("host", "host", None),
        ("port", "port", None),
    )

    host: str
    port: int

    def __init__(
        self,
        *,
        host: str = "",
        port: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.host = host
        self.port = port
        self.unknown_tagged_fields = unknown_tagged_fields


class KeyValue(Data):
    """An entry of StreamsGroupMemberMetadataValue.ClientTags[]."""

    __slots__ = ("key", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("key", "key", None),
        ("value", "value", None),
    )

    key: str
    value: str

    def __init__(
        self,
        *,
        key: str = "",
        value: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.key = key
        self.value = value
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupMemberMetadataValue(Data):
    """StreamsGroupMemberMetadataValue, versions 0."""

    __slots__ = (
        "client_host",
        "client_id",
        "client_tags",
        "instance_id",
        "process_id",
        "rack_id",
        "rebalance_timeout_ms",
        "topology_epoch",
        "user_endpoint",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("instance_id", "instanceId", None),
        ("rack_id", "rackId", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("rebalance_timeout_ms", "rebalanceTimeoutMs", None),
        ("topology_epoch", "topologyEpoch", None),
        ("process_id", "processId", None),
        ("user_endpoint", "userEndpoint", Endpoint),
        ("client_tags", "clientTags", KeyValue),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupMemberMetadataValue"

    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    topology_epoch: int
    process_id: str
    user_endpoint: Endpoint | None
    client_tags: list[KeyValue]

    def __init__(
        self,
        *,
        instance_id: str | None = "",
        rack_id: str | None = "",
        client_id: str = "",
        client_host: str = "",
        rebalance_timeout_ms: int = -1,
        topology_epoch: int = 0,
        process_id: str = "",
        user_endpoint: Endpoint | None = None,
        client_tags: list[KeyValue] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.topology_epoch = topology_epoch
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = [] if client_tags is UNSET else client_tags
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentMetadataValue(Data):
    """StreamsGroupTargetAssignmentMetadataValue, versions 0."""

    __slots__ = ("assignment_epoch", "assignment_timestamp")
    _FIELDS: ClassVar[FieldTable] = (
        ("assignment_epoch", "assignmentEpoch", None),
        ("assignment_timestamp", "assignmentTimestamp", None),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentMetadataValue"

    assignment_epoch: int
    assignment_timestamp: int

    def __init__(
        self,
        *,
        assignment_epoch: int = 0,
        assignment_timestamp: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.assignment_epoch = assignment_epoch
        self.assignment_timestamp = assignment_timestamp
        self.unknown_tagged_fields = unknown_tagged_fields


class TaskIds(Data):
    """An entry of StreamsGroupTargetAssignmentMemberValue.ActiveTasks[]."""

    __slots__ = ("partitions", "subtopology_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("subtopology_id", "subtopologyId", None),
        ("partitions", "partitions", None),
    )

    subtopology_id: str
    partitions: list[int]

    def __init__(
        self,
        *,
        subtopology_id: str = "",
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentMemberValue(Data):
    """StreamsGroupTargetAssignmentMemberValue, versions 0."""

    __slots__ = ("active_tasks", "standby_tasks", "warmup_tasks")
    _FIELDS: ClassVar[FieldTable] = (
        ("active_tasks", "activeTasks", TaskIds),
        ("standby_tasks", "standbyTasks", TaskIds),
        ("warmup_tasks", "warmupTasks", TaskIds),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentMemberValue"

    active_tasks: list[TaskIds]
    standby_tasks: list[TaskIds]
    warmup_tasks: list[TaskIds]

    def __init__(
        self,
        *,
        active_tasks: list[TaskIds] = UNSET,
        standby_tasks: list[TaskIds] = UNSET,
        warmup_tasks: list[TaskIds] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.active_tasks = [] if active_tasks is UNSET else active_tasks
        self.standby_tasks = [] if standby_tasks is UNSET else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is UNSET else warmup_tasks
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupCurrentMemberAssignmentValueTaskIds(Data):
    """An entry of StreamsGroupCurrentMemberAssignmentValue.ActiveTasks[]."""

    __slots__ = ("assignment_epochs", "partitions", "subtopology_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("subtopology_id", "subtopologyId", None),
        ("partitions", "partitions", None),
        ("assignment_epochs", "assignmentEpochs", None),
    )

    subtopology_id: str
    partitions: list[int]
    assignment_epochs: list[int] | None

    def __init__(
        self,
        *,
        subtopology_id: str = "",
        partitions: list[int] = UNSET,
        assignment_epochs: list[int] | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is UNSET else partitions
        self.assignment_epochs = assignment_epochs
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupCurrentMemberAssignmentValue(Data):
    """StreamsGroupCurrentMemberAssignmentValue, versions 0."""

    __slots__ = (
        "active_tasks",
        "active_tasks_pending_revocation",
        "member_epoch",
        "previous_member_epoch",
        "standby_tasks",
        "standby_tasks_pending_revocation",
        "state",
        "warmup_tasks",
        "warmup_tasks_pending_revocation",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("member_epoch", "memberEpoch", None),
        ("previous_member_epoch", "previousMemberEpoch", None),
        ("state", "state", None),
        ("active_tasks", "activeTasks", StreamsGroupCurrentMemberAssignmentValueTaskIds),
        ("standby_tasks", "standbyTasks", StreamsGroupCurrentMemberAssignmentValueTaskIds),
        ("warmup_tasks", "warmupTasks", StreamsGroupCurrentMemberAssignmentValueTaskIds),
        (
            "active_tasks_pending_revocation",
            "activeTasksPendingRevocation",
            StreamsGroupCurrentMemberAssignmentValueTaskIds,
        ),
        (
            "standby_tasks_pending_revocation",
            "standbyTasksPendingRevocation",
            StreamsGroupCurrentMemberAssignmentValueTaskIds,
        ),
        (
            "warmup_tasks_pending_revocation",
            "warmupTasksPendingRevocation",
            StreamsGroupCurrentMemberAssignmentValueTaskIds,
        ),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupCurrentMemberAssignmentValue"

    member_epoch: int
    previous_member_epoch: int
    state: int
    active_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]
    standby_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]
    warmup_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]
    active_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]
    standby_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]
    warmup_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds]

    def __init__(
        self,
        *,
        member_epoch: int = 0,
        previous_member_epoch: int = 0,
        state: int = 0,
        active_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        standby_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        warmup_tasks: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        active_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        standby_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        warmup_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValueTaskIds] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_epoch = member_epoch
        self.previous_member_epoch = previous_member_epoch
        self.state = state
        self.active_tasks = [] if active_tasks is UNSET else active_tasks
        self.standby_tasks = [] if standby_tasks is UNSET else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is UNSET else warmup_tasks
        self.active_tasks_pending_revocation = (
            [] if active_tasks_pending_revocation is UNSET else active_tasks_pending_revocation
        )
        self.standby_tasks_pending_revocation = (
            [] if standby_tasks_pending_revocation is UNSET else standby_tasks_pending_revocation
        )
        self.warmup_tasks_pending_revocation = (
            [] if warmup_tasks_pending_revocation is UNSET else warmup_tasks_pending_revocation
        )
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicConfig(Data):
    """An entry of StreamsGroupTopologyValue.Subtopologies[].StateChangelogTopics[].TopicConfigs[]."""

    __slots__ = ("key", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("key", "key", None),
        ("value", "value", None),
    )

    key: str
    value: str

    def __init__(
        self,
        *,
        key: str = "",
        value: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.key = key
        self.value = value
        self.unknown_tagged_fields = unknown_tagged_fields


class SubtopologyTopicInfo(Data):
    """An entry of StreamsGroupTopologyValue.Subtopologies[].StateChangelogTopics[]."""

    __slots__ = ("name", "partitions", "replication_factor", "topic_configs")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", None),
        ("replication_factor", "replicationFactor", None),
        ("topic_configs", "topicConfigs", TopicConfig),
    )

    name: str
    partitions: int
    replication_factor: int
    topic_configs: list[TopicConfig]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: int = 0,
        replication_factor: int = 0,
        topic_configs: list[TopicConfig] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.topic_configs = [] if topic_configs is UNSET else topic_configs
        self.unknown_tagged_fields = unknown_tagged_fields


class CopartitionGroup(Data):
    """An entry of StreamsGroupTopologyValue.Subtopologies[].CopartitionGroups[]."""

    __slots__ = ("repartition_source_topics", "source_topic_regex", "source_topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("source_topics", "sourceTopics", None),
        ("source_topic_regex", "sourceTopicRegex", None),
        ("repartition_source_topics", "repartitionSourceTopics", None),
    )

    source_topics: list[int]
    source_topic_regex: list[int]
    repartition_source_topics: list[int]

    def __init__(
        self,
        *,
        source_topics: list[int] = UNSET,
        source_topic_regex: list[int] = UNSET,
        repartition_source_topics: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.source_topics = [] if source_topics is UNSET else source_topics
        self.source_topic_regex = [] if source_topic_regex is UNSET else source_topic_regex
        self.repartition_source_topics = [] if repartition_source_topics is UNSET else repartition_source_topics
        self.unknown_tagged_fields = unknown_tagged_fields


class Subtopology(Data):
    """An entry of StreamsGroupTopologyValue.Subtopologies[]."""

    __slots__ = (
        "copartition_groups",
        "repartition_sink_topics",
        "repartition_source_topics",
        "source_topic_regex",
        "source_topics",
        "state_changelog_topics",
        "subtopology_id",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("subtopology_id", "subtopologyId", None),
        ("source_topics", "sourceTopics", None),
        ("source_topic_regex", "sourceTopicRegex", None),
        ("state_changelog_topics", "stateChangelogTopics", SubtopologyTopicInfo),
        ("repartition_sink_topics", "repartitionSinkTopics", None),
        ("repartition_source_topics", "repartitionSourceTopics", SubtopologyTopicInfo),
        ("copartition_groups", "copartitionGroups", CopartitionGroup),
    )

    subtopology_id: str
    source_topics: list[str]
    source_topic_regex: list[str]
    state_changelog_topics: list[SubtopologyTopicInfo]
    repartition_sink_topics: list[str]
    repartition_source_topics: list[SubtopologyTopicInfo]
    copartition_groups: list[CopartitionGroup]

    def __init__(
        self,
        *,
        subtopology_id: str = "",
        source_topics: list[str] = UNSET,
        source_topic_regex: list[str] = UNSET,
        state_changelog_topics: list[SubtopologyTopicInfo] = UNSET,
        repartition_sink_topics: list[str] = UNSET,
        repartition_source_topics: list[SubtopologyTopicInfo] = UNSET,
        copartition_groups: list[CopartitionGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is UNSET else source_topics
        self.source_topic_regex = [] if source_topic_regex is UNSET else source_topic_regex
        self.state_changelog_topics = [] if state_changelog_topics is UNSET else state_changelog_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is UNSET else repartition_sink_topics
        self.repartition_source_topics = [] if repartition_source_topics is UNSET else repartition_source_topics
        self.copartition_groups = [] if copartition_groups is UNSET else copartition_groups
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTopologyValue(Data):
    """StreamsGroupTopologyValue, versions 0."""

    __slots__ = ("epoch", "subtopologies")
    _FIELDS: ClassVar[FieldTable] = (
        ("epoch", "epoch", None),
        ("subtopologies", "subtopologies", Subtopology),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTopologyValue"

    epoch: int
    subtopologies: list[Subtopology]

    def __init__(
        self,
        *,
        epoch: int = 0,
        subtopologies: list[Subtopology] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.epoch = epoch
        self.subtopologies = [] if subtopologies is UNSET else subtopologies
        self.unknown_tagged_fields = unknown_tagged_fields


class ResolvedTopicIds(Data):
    """An entry of StreamsGroupTargetAssignmentResolvedTopicIdsValue.ResolvedTopicIdsBySubtopology[]."""

    __slots__ = ("subtopology_id", "topic_ids")
    _FIELDS: ClassVar[FieldTable] = (
        ("subtopology_id", "subtopologyId", None),
        ("topic_ids", "topicIds", None),
    )

    subtopology_id: str
    topic_ids: list[uuid.UUID]

    def __init__(
        self,
        *,
        subtopology_id: str = "",
        topic_ids: list[uuid.UUID] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.subtopology_id = subtopology_id
        self.topic_ids = [] if topic_ids is UNSET else topic_ids
        self.unknown_tagged_fields = unknown_tagged_fields


class StreamsGroupTargetAssignmentResolvedTopicIdsValue(Data):
    """StreamsGroupTargetAssignmentResolvedTopicIdsValue, versions 0."""

    __slots__ = ("assignment_epoch", "resolved_topic_ids_by_subtopology")
    _FIELDS: ClassVar[FieldTable] = (
        ("assignment_epoch", "assignmentEpoch", None),
        ("resolved_topic_ids_by_subtopology", "resolvedTopicIdsBySubtopology", ResolvedTopicIds),
    )
    SCHEMA_NAME: ClassVar[str] = "StreamsGroupTargetAssignmentResolvedTopicIdsValue"

    assignment_epoch: int
    resolved_topic_ids_by_subtopology: list[ResolvedTopicIds]

    def __init__(
        self,
        *,
        assignment_epoch: int = 0,
        resolved_topic_ids_by_subtopology: list[ResolvedTopicIds] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.assignment_epoch = assignment_epoch
        self.resolved_topic_ids_by_subtopology = (
            [] if resolved_topic_ids_by_subtopology is UNSET else resolved_topic_ids_by_subtopology
        )
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "LegacyOffsetCommitKey": LegacyOffsetCommitKey,
    "OffsetCommitKey": OffsetCommitKey,
    "GroupMetadataKey": GroupMetadataKey,
    "ConsumerGroupMetadataKey": ConsumerGroupMetadataKey,
    "ConsumerGroupPartitionMetadataKey": ConsumerGroupPartitionMetadataKey,
    "ConsumerGroupMemberMetadataKey": ConsumerGroupMemberMetadataKey,
    "ConsumerGroupTargetAssignmentMetadataKey": ConsumerGroupTargetAssignmentMetadataKey,
    "ConsumerGroupTargetAssignmentMemberKey": ConsumerGroupTargetAssignmentMemberKey,
    "ConsumerGroupCurrentMemberAssignmentKey": ConsumerGroupCurrentMemberAssignmentKey,
    "ShareGroupPartitionMetadataKey": ShareGroupPartitionMetadataKey,
    "ShareGroupMemberMetadataKey": ShareGroupMemberMetadataKey,
    "ShareGroupMetadataKey": ShareGroupMetadataKey,
    "ShareGroupTargetAssignmentMetadataKey": ShareGroupTargetAssignmentMetadataKey,
    "ShareGroupTargetAssignmentMemberKey": ShareGroupTargetAssignmentMemberKey,
    "ShareGroupCurrentMemberAssignmentKey": ShareGroupCurrentMemberAssignmentKey,
    "ShareGroupStatePartitionMetadataKey": ShareGroupStatePartitionMetadataKey,
    "ConsumerGroupRegularExpressionKey": ConsumerGroupRegularExpressionKey,
    "StreamsGroupMetadataKey": StreamsGroupMetadataKey,
    "StreamsGroupPartitionMetadataKey": StreamsGroupPartitionMetadataKey,
    "StreamsGroupMemberMetadataKey": StreamsGroupMemberMetadataKey,
    "StreamsGroupTargetAssignmentMetadataKey": StreamsGroupTargetAssignmentMetadataKey,
    "StreamsGroupTargetAssignmentMemberKey": StreamsGroupTargetAssignmentMemberKey,
    "StreamsGroupCurrentMemberAssignmentKey": StreamsGroupCurrentMemberAssignmentKey,
    "StreamsGroupTopologyKey": StreamsGroupTopologyKey,
    "StreamsGroupTargetAssignmentResolvedTopicIdsKey": StreamsGroupTargetAssignmentResolvedTopicIdsKey,
    "LegacyOffsetCommitValue": LegacyOffsetCommitValue,
    "OffsetCommitValue": OffsetCommitValue,
    "GroupMetadataValue": GroupMetadataValue,
    "ConsumerGroupMetadataValue": ConsumerGroupMetadataValue,
    "ConsumerGroupPartitionMetadataValue": ConsumerGroupPartitionMetadataValue,
    "ConsumerGroupMemberMetadataValue": ConsumerGroupMemberMetadataValue,
    "ConsumerGroupTargetAssignmentMetadataValue": ConsumerGroupTargetAssignmentMetadataValue,
    "ConsumerGroupTargetAssignmentMemberValue": ConsumerGroupTargetAssignmentMemberValue,
    "ConsumerGroupCurrentMemberAssignmentValue": ConsumerGroupCurrentMemberAssignmentValue,
    "ShareGroupPartitionMetadataValue": ShareGroupPartitionMetadataValue,
    "ShareGroupMemberMetadataValue": ShareGroupMemberMetadataValue,
    "ShareGroupMetadataValue": ShareGroupMetadataValue,
    "ShareGroupTargetAssignmentMetadataValue": ShareGroupTargetAssignmentMetadataValue,
    "ShareGroupTargetAssignmentMemberValue": ShareGroupTargetAssignmentMemberValue,
    "ShareGroupCurrentMemberAssignmentValue": ShareGroupCurrentMemberAssignmentValue,
    "ShareGroupStatePartitionMetadataValue": ShareGroupStatePartitionMetadataValue,
    "ConsumerGroupRegularExpressionValue": ConsumerGroupRegularExpressionValue,
    "StreamsGroupMetadataValue": StreamsGroupMetadataValue,
    "StreamsGroupPartitionMetadataValue": StreamsGroupPartitionMetadataValue,
    "StreamsGroupMemberMetadataValue": StreamsGroupMemberMetadataValue,
    "StreamsGroupTargetAssignmentMetadataValue": StreamsGroupTargetAssignmentMetadataValue,
    "StreamsGroupTargetAssignmentMemberValue": StreamsGroupTargetAssignmentMemberValue,
    "StreamsGroupCurrentMemberAssignmentValue": StreamsGroupCurrentMemberAssignmentValue,
    "StreamsGroupTopologyValue": StreamsGroupTopologyValue,
    "StreamsGroupTargetAssignmentResolvedTopicIdsValue": StreamsGroupTargetAssignmentResolvedTopicIdsValue,
}
"""Schema name -> class, for the 50 top-level classes."""
