"""The topics API messages, as classes: generated from `groupctl.protocol.messages.topics`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class CreatableReplicaAssignment(Data):
    """An entry of CreateTopicsRequest.Topics[].Assignments[]."""

    __slots__ = ("broker_ids", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("broker_ids", "brokerIds", None),
    )

    partition_index: int
    broker_ids: list[int]

    def __init__(
        self,
        *,
        partition_index: int = 0,
        broker_ids: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.broker_ids = [] if broker_ids is UNSET else broker_ids
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatableTopicConfig(Data):
    """An entry of CreateTopicsRequest.Topics[].Configs[]."""

    __slots__ = ("name", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("value", "value", None),
    )

    name: str
    value: str | None

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.value = value
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatableTopic(Data):
    """An entry of CreateTopicsRequest.Topics[]."""

    __slots__ = ("assignments", "configs", "name", "num_partitions", "replication_factor")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("num_partitions", "numPartitions", None),
        ("replication_factor", "replicationFactor", None),
        ("assignments", "assignments", CreatableReplicaAssignment),
        ("configs", "configs", CreatableTopicConfig),
    )

    name: str
    num_partitions: int
    replication_factor: int
    assignments: list[CreatableReplicaAssignment]
    configs: list[CreatableTopicConfig]

    def __init__(
        self,
        *,
        name: str = "",
        num_partitions: int = 0,
        replication_factor: int = 0,
        assignments: list[CreatableReplicaAssignment] = UNSET,
        configs: list[CreatableTopicConfig] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.assignments = [] if assignments is UNSET else assignments
        self.configs = [] if configs is UNSET else configs
        self.unknown_tagged_fields = unknown_tagged_fields


class CreateTopicsRequestData(Data):
    """CreateTopicsRequest, versions 2-7."""

    __slots__ = ("timeout_ms", "topics", "validate_only")
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", CreatableTopic),
        ("timeout_ms", "timeoutMs", None),
        ("validate_only", "validateOnly", None),
    )
    SCHEMA_NAME: ClassVar[str] = "CreateTopicsRequest"

    topics: list[CreatableTopic]
    timeout_ms: int
    validate_only: bool

    def __init__(
        self,
        *,
        topics: list[CreatableTopic] = UNSET,
        timeout_ms: int = 60000,
        validate_only: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatableTopicConfigs(Data):
    """An entry of CreateTopicsResponse.Topics[].Configs[]."""

    __slots__ = ("config_source", "is_sensitive", "name", "read_only", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("value", "value", None),
        ("read_only", "readOnly", None),
        ("config_source", "configSource", None),
        ("is_sensitive", "isSensitive", None),
    )

    name: str
    value: str | None
    read_only: bool
    config_source: int
    is_sensitive: bool

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        read_only: bool = False,
        config_source: int = -1,
        is_sensitive: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatableTopicResult(Data):
    """An entry of CreateTopicsResponse.Topics[]."""

    __slots__ = (
        "configs",
        "error_code",
        "error_message",
        "name",
        "num_partitions",
        "replication_factor",
        "topic_config_error_code",
        "topic_id",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("topic_config_error_code", "topicConfigErrorCode", None),
        ("num_partitions", "numPartitions", None),
        ("replication_factor", "replicationFactor", None),
        ("configs", "configs", CreatableTopicConfigs),
    )

    name: str
    topic_id: uuid.UUID
    error_code: int
    error_message: str | None
    topic_config_error_code: int
    num_partitions: int
    replication_factor: int
    configs: list[CreatableTopicConfigs] | None

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        error_code: int = 0,
        error_message: str | None = "",
        topic_config_error_code: int = 0,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: list[CreatableTopicConfigs] | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.topic_config_error_code = topic_config_error_code
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.configs = [] if configs is UNSET else configs
        self.unknown_tagged_fields = unknown_tagged_fields


class CreateTopicsResponseData(Data):
    """CreateTopicsResponse, versions 2-7."""

    __slots__ = ("throttle_time_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("topics", "topics", CreatableTopicResult),
    )
    SCHEMA_NAME: ClassVar[str] = "CreateTopicsResponse"

    throttle_time_ms: int
    topics: list[CreatableTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[CreatableTopicResult] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatePartitionsAssignment(Data):
    """An entry of CreatePartitionsRequest.Topics[].Assignments[]."""

    __slots__ = ("broker_ids",)
    _FIELDS: ClassVar[FieldTable] = (
        ("broker_ids", "brokerIds", None),
    )

    broker_ids: list[int]

    def __init__(
        self,
        *,
        broker_ids: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.broker_ids = [] if broker_ids is UNSET else broker_ids
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatePartitionsTopic(Data):
    """An entry of CreatePartitionsRequest.Topics[]."""

    __slots__ = ("assignments", "count", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("count", "count", None),
        ("assignments", "assignments", CreatePartitionsAssignment),
    )

    name: str
    count: int
    assignments: list[CreatePartitionsAssignment] | None

    def __init__(
        self,
        *,
        name: str = "",
        count: int = 0,
        assignments: list[CreatePartitionsAssignment] | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.count = count
        self.assignments = [] if assignments is UNSET else assignments
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatePartitionsRequestData(Data):
    """CreatePartitionsRequest, versions 0-3."""

    __slots__ = ("timeout_ms", "topics", "validate_only")
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", CreatePartitionsTopic),
        ("timeout_ms", "timeoutMs", None),
        ("validate_only", "validateOnly", None),
    )
    SCHEMA_NAME: ClassVar[str] = "CreatePartitionsRequest"

    topics: list[CreatePartitionsTopic]
    timeout_ms: int
    validate_only: bool

    def __init__(
        self,
        *,
        topics: list[CreatePartitionsTopic] = UNSET,
        timeout_ms: int = 0,
        validate_only: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatePartitionsTopicResult(Data):
    """An entry of CreatePartitionsResponse.Results[]."""

    __slots__ = ("error_code", "error_message", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    name: str
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        name: str = "",
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class CreatePartitionsResponseData(Data):
    """CreatePartitionsResponse, versions 0-3."""

    __slots__ = ("results", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("results", "results", CreatePartitionsTopicResult),
    )
    SCHEMA_NAME: ClassVar[str] = "CreatePartitionsResponse"

    throttle_time_ms: int
    results: list[CreatePartitionsTopicResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[CreatePartitionsTopicResult] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "CreateTopicsRequest": CreateTopicsRequestData,
    "CreateTopicsResponse": CreateTopicsResponseData,
    "CreatePartitionsRequest": CreatePartitionsRequestData,
    "CreatePartitionsResponse": CreatePartitionsResponseData,
}
"""Schema name -> class, for the 4 top-level classes."""
