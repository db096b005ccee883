"""The offsets API messages, as classes: generated from `groupctl.protocol.messages.offsets`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class OffsetCommitRequestPartition(Data):
    """An entry of OffsetCommitRequest.Topics[].Partitions[]."""

    __slots__ = (
        "commit_timestamp",
        "committed_leader_epoch",
        "committed_metadata",
        "committed_offset",
        "partition_index",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("committed_offset", "committedOffset", None),
        ("committed_leader_epoch", "committedLeaderEpoch", None),
        ("commit_timestamp", "commitTimestamp", None),
        ("committed_metadata", "committedMetadata", None),
    )

    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    commit_timestamp: int
    committed_metadata: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        commit_timestamp: int = -1,
        committed_metadata: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.commit_timestamp = commit_timestamp
        self.committed_metadata = committed_metadata
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitRequestTopic(Data):
    """An entry of OffsetCommitRequest.Topics[]."""

    __slots__ = ("name", "partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", OffsetCommitRequestPartition),
    )

    name: str
    topic_id: uuid.UUID
    partitions: list[OffsetCommitRequestPartition]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[OffsetCommitRequestPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitRequestData(Data):
    """OffsetCommitRequest, versions 2-10."""

    __slots__ = (
        "generation_id_or_member_epoch",
        "group_id",
        "group_instance_id",
        "member_id",
        "retention_time_ms",
        "topics",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("generation_id_or_member_epoch", "generationIdOrMemberEpoch", None),
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("retention_time_ms", "retentionTimeMs", None),
        ("topics", "topics", OffsetCommitRequestTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetCommitRequest"

    group_id: str
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    retention_time_ms: int
    topics: list[OffsetCommitRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        generation_id_or_member_epoch: int = -1,
        member_id: str = "",
        group_instance_id: str | None = None,
        retention_time_ms: int = -1,
        topics: list[OffsetCommitRequestTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitResponsePartition(Data):
    """An entry of OffsetCommitResponse.Topics[].Partitions[]."""

    __slots__ = ("error_code", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("error_code", "errorCode", None),
    )

    partition_index: int
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitResponseTopic(Data):
    """An entry of OffsetCommitResponse.Topics[]."""

    __slots__ = ("name", "partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", OffsetCommitResponsePartition),
    )

    name: str
    topic_id: uuid.UUID
    partitions: list[OffsetCommitResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[OffsetCommitResponsePartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetCommitResponseData(Data):
    """OffsetCommitResponse, versions 2-10."""

    __slots__ = ("throttle_time_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("topics", "topics", OffsetCommitResponseTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetCommitResponse"

    throttle_time_ms: int
    topics: list[OffsetCommitResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[OffsetCommitResponseTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchRequestTopic(Data):
    """An entry of OffsetFetchRequest.Topics[]."""

    __slots__ = ("name", "partition_indexes")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partition_indexes", "partitionIndexes", None),
    )

    name: str
    partition_indexes: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        partition_indexes: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchRequestTopics(Data):
    """An entry of OffsetFetchRequest.Groups[].Topics[]."""

    __slots__ = ("name", "partition_indexes", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partition_indexes", "partitionIndexes", None),
    )

    name: str
    topic_id: uuid.UUID
    partition_indexes: list[int]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partition_indexes: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_indexes = [] if partition_indexes is UNSET else partition_indexes
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchRequestGroup(Data):
    """An entry of OffsetFetchRequest.Groups[]."""

    __slots__ = ("group_id", "member_epoch", "member_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
        ("member_epoch", "memberEpoch", None),
        ("topics", "topics", OffsetFetchRequestTopics),
    )

    group_id: str
    member_id: str | None
    member_epoch: int
    topics: list[OffsetFetchRequestTopics] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str | None = None,
        member_epoch: int = -1,
        topics: list[OffsetFetchRequestTopics] | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchRequestData(Data):
    """OffsetFetchRequest, versions 1-10."""

    __slots__ = ("group_id", "groups", "require_stable", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", OffsetFetchRequestTopic),
        ("groups", "groups", OffsetFetchRequestGroup),
        ("require_stable", "requireStable", None),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetFetchRequest"

    group_id: str
    topics: list[OffsetFetchRequestTopic] | None
    groups: list[OffsetFetchRequestGroup]
    require_stable: bool

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetFetchRequestTopic] | None = UNSET,
        groups: list[OffsetFetchRequestGroup] = UNSET,
        require_stable: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.groups = [] if groups is UNSET else groups
        self.require_stable = require_stable
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponsePartition(Data):
    """An entry of OffsetFetchResponse.Topics[].Partitions[]."""

    __slots__ = ("committed_leader_epoch", "committed_offset", "error_code", "metadata", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("committed_offset", "committedOffset", None),
        ("committed_leader_epoch", "committedLeaderEpoch", None),
        ("metadata", "metadata", None),
        ("error_code", "errorCode", None),
    )

    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    metadata: str | None
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        metadata: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponseTopic(Data):
    """An entry of OffsetFetchResponse.Topics[]."""

    __slots__ = ("name", "partitions")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", OffsetFetchResponsePartition),
    )

    name: str
    partitions: list[OffsetFetchResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetFetchResponsePartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponsePartitions(Data):
    """An entry of OffsetFetchResponse.Groups[].Topics[].Partitions[]."""

    __slots__ = ("committed_leader_epoch", "committed_offset", "error_code", "metadata", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("committed_offset", "committedOffset", None),
        ("committed_leader_epoch", "committedLeaderEpoch", None),
        ("metadata", "metadata", None),
        ("error_code", "errorCode", None),
    )

    partition_index: int
    committed_offset: int
    committed_leader_epoch: int
    metadata: str | None
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        committed_offset: int = 0,
        committed_leader_epoch: int = -1,
        metadata: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponseTopics(Data):
    """An entry of OffsetFetchResponse.Groups[].Topics[]."""

    __slots__ = ("name", "partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", OffsetFetchResponsePartitions),
    )

    name: str
    topic_id: uuid.UUID
    partitions: list[OffsetFetchResponsePartitions]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[OffsetFetchResponsePartitions] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponseGroup(Data):
    """An entry of OffsetFetchResponse.Groups[]."""

    __slots__ = ("error_code", "group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", OffsetFetchResponseTopics),
        ("error_code", "errorCode", None),
    )

    group_id: str
    topics: list[OffsetFetchResponseTopics]
    error_code: int

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetFetchResponseTopics] = UNSET,
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetFetchResponseData(Data):
    """OffsetFetchResponse, versions 1-10."""

    __slots__ = ("error_code", "groups", "throttle_time_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("topics", "topics", OffsetFetchResponseTopic),
        ("error_code", "errorCode", None),
        ("groups", "groups", OffsetFetchResponseGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetFetchResponse"

    throttle_time_ms: int
    topics: list[OffsetFetchResponseTopic]
    error_code: int
    groups: list[OffsetFetchResponseGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[OffsetFetchResponseTopic] = UNSET,
        error_code: int = 0,
        groups: list[OffsetFetchResponseGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.error_code = error_code
        self.groups = [] if groups is UNSET else groups
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteRequestPartition(Data):
    """An entry of OffsetDeleteRequest.Topics[].Partitions[]."""

    __slots__ = ("partition_index",)
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
    )

    partition_index: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteRequestTopic(Data):
    """An entry of OffsetDeleteRequest.Topics[]."""

    __slots__ = ("name", "partitions")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", OffsetDeleteRequestPartition),
    )

    name: str
    partitions: list[OffsetDeleteRequestPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetDeleteRequestPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteRequestData(Data):
    """OffsetDeleteRequest, versions 0."""

    __slots__ = ("group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", OffsetDeleteRequestTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetDeleteRequest"

    group_id: str
    topics: list[OffsetDeleteRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[OffsetDeleteRequestTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteResponsePartition(Data):
    """An entry of OffsetDeleteResponse.Topics[].Partitions[]."""

    __slots__ = ("error_code", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("error_code", "errorCode", None),
    )

    partition_index: int
    error_code: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteResponseTopic(Data):
    """An entry of OffsetDeleteResponse.Topics[]."""

    __slots__ = ("name", "partitions")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", OffsetDeleteResponsePartition),
    )

    name: str
    partitions: list[OffsetDeleteResponsePartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[OffsetDeleteResponsePartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class OffsetDeleteResponseData(Data):
    """OffsetDeleteResponse, versions 0."""

    __slots__ = ("error_code", "throttle_time_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("throttle_time_ms", "throttleTimeMs", None),
        ("topics", "topics", OffsetDeleteResponseTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "OffsetDeleteResponse"

    error_code: int
    throttle_time_ms: int
    topics: list[OffsetDeleteResponseTopic]

    def __init__(
        self,
        *,
        error_code: int = 0,
        throttle_time_ms: int = 0,
        topics: list[OffsetDeleteResponseTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "OffsetCommitRequest": OffsetCommitRequestData,
    "OffsetCommitResponse": OffsetCommitResponseData,
    "OffsetFetchRequest": OffsetFetchRequestData,
    "OffsetFetchResponse": OffsetFetchResponseData,
    "OffsetDeleteRequest": OffsetDeleteRequestData,
    "OffsetDeleteResponse": OffsetDeleteResponseData,
}
"""Schema name -> class, for the 6 top-level classes."""
