"""The metadata API messages, as classes: generated from `groupctl.protocol.messages.metadata`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class MetadataRequestTopic(Data):
    """An entry of MetadataRequest.Topics[]."""

    __slots__ = ("name", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("name", "name", None),
    )

    topic_id: uuid.UUID
    name: str | None

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        name: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.name = name
        self.unknown_tagged_fields = unknown_tagged_fields


class MetadataRequestData(Data):
    """MetadataRequest, versions 0-13."""

    __slots__ = (
        "allow_auto_topic_creation",
        "include_cluster_authorized_operations",
        "include_topic_authorized_operations",
        "topics",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("topics", "topics", MetadataRequestTopic),
        ("allow_auto_topic_creation", "allowAutoTopicCreation", None),
        ("include_cluster_authorized_operations", "includeClusterAuthorizedOperations", None),
        ("include_topic_authorized_operations", "includeTopicAuthorizedOperations", None),
    )
    SCHEMA_NAME: ClassVar[str] = "MetadataRequest"

    topics: list[MetadataRequestTopic] | None
    allow_auto_topic_creation: bool
    include_cluster_authorized_operations: bool
    include_topic_authorized_operations: bool

    def __init__(
        self,
        *,
        topics: list[MetadataRequestTopic] | None = UNSET,
        allow_auto_topic_creation: bool = True,
        include_cluster_authorized_operations: bool = False,
        include_topic_authorized_operations: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topics = [] if topics is UNSET else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class MetadataResponseBroker(Data):
    """An entry of MetadataResponse.Brokers[]."""

    __slots__ = ("host", "node_id", "port", "rack")
    _FIELDS: ClassVar[FieldTable] = (
        ("node_id", "nodeId", None),
        ("host", "host", None),
        ("port", "port", None),
        ("rack", "rack", None),
    )

    node_id: int
    host: str
    port: int
    rack: str | None

    def __init__(
        self,
        *,
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = unknown_tagged_fields


class MetadataResponsePartition(Data):
    """An entry of MetadataResponse.Topics[].Partitions[]."""

    __slots__ = (
        "error_code",
        "isr_nodes",
        "leader_epoch",
        "leader_id",
        "offline_replicas",
        "partition_index",
        "replica_nodes",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("partition_index", "partitionIndex", None),
        ("leader_id", "leaderId", None),
        ("leader_epoch", "leaderEpoch", None),
        ("replica_nodes", "replicaNodes", None),
        ("isr_nodes", "isrNodes", None),
        ("offline_replicas", "offlineReplicas", None),
    )

    error_code: int
    partition_index: int
    leader_id: int
    leader_epoch: int
    replica_nodes: list[int]
    isr_nodes: list[int]
    offline_replicas: list[int]

    def __init__(
        self,
        *,
        error_code: int = 0,
        partition_index: int = 0,
        leader_id: int = 0,
        leader_epoch: int = -1,
        replica_nodes: list[int] = UNSET,
        isr_nodes: list[int] = UNSET,
        offline_replicas: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is UNSET else replica_nodes
        self.isr_nodes = [] if isr_nodes is UNSET else isr_nodes
        self.offline_replicas = [] if offline_replicas is UNSET else offline_replicas
        self.unknown_tagged_fields = unknown_tagged_fields


class MetadataResponseTopic(Data):
    """An entry of MetadataResponse.Topics[]."""

    __slots__ = ("error_code", "is_internal", "name", "partitions", "topic_authorized_operations", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("is_internal", "isInternal", None),
        ("partitions", "partitions", MetadataResponsePartition),
        ("topic_authorized_operations", "topicAuthorizedOperations", None),
    )

    error_code: int
    name: str | None
    topic_id: uuid.UUID
    is_internal: bool
    partitions: list[MetadataResponsePartition]
    topic_authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        name: str | None = "",
        topic_id: uuid.UUID = ZERO_UUID,
        is_internal: bool = False,
        partitions: list[MetadataResponsePartition] = UNSET,
        topic_authorized_operations: int = -2147483648,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is UNSET else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class MetadataResponseData(Data):
    """MetadataResponse, versions 0-13."""

    __slots__ = (
        "brokers",
        "cluster_authorized_operations",
        "cluster_id",
        "controller_id",
        "error_code",
        "throttle_time_ms",
        "topics",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("brokers", "brokers", MetadataResponseBroker),
        ("cluster_id", "clusterId", None),
        ("controller_id", "controllerId", None),
        ("topics", "topics", MetadataResponseTopic),
        ("cluster_authorized_operations", "clusterAuthorizedOperations", None),
        ("error_code", "errorCode", None),
    )
    SCHEMA_NAME: ClassVar[str] = "MetadataResponse"

    throttle_time_ms: int
    brokers: list[MetadataResponseBroker]
    cluster_id: str | None
    controller_id: int
    topics: list[MetadataResponseTopic]
    cluster_authorized_operations: int
    error_code: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        brokers: list[MetadataResponseBroker] = UNSET,
        cluster_id: str | None = None,
        controller_id: int = -1,
        topics: list[MetadataResponseTopic] = UNSET,
        cluster_authorized_operations: int = -2147483648,
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is UNSET else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is UNSET else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeClusterRequestData(Data):
    """DescribeClusterRequest, versions 0-2."""

    __slots__ = ("endpoint_type", "include_cluster_authorized_operations", "include_fenced_brokers")
    _FIELDS: ClassVar[FieldTable] = (
        ("include_cluster_authorized_operations", "includeClusterAuthorizedOperations", None),
        ("endpoint_type", "endpointType", None),
        ("include_fenced_brokers", "includeFencedBrokers", None),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeClusterRequest"

    include_cluster_authorized_operations: bool
    endpoint_type: int
    include_fenced_brokers: bool

    def __init__(
        self,
        *,
        include_cluster_authorized_operations: bool = False,
        endpoint_type: int = 1,
        include_fenced_brokers: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self.include_fenced_brokers = include_fenced_brokers
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeClusterBroker(Data):
    """An entry of DescribeClusterResponse.Brokers[]."""

    __slots__ = ("broker_id", "host", "is_fenced", "port", "rack")
    _FIELDS: ClassVar[FieldTable] = (
        ("broker_id", "brokerId", None),
        ("host", "host", None),
        ("port", "port", None),
        ("rack", "rack", None),
        ("is_fenced", "isFenced", None),
    )

    broker_id: int
    host: str
    port: int
    rack: str | None
    is_fenced: bool

    def __init__(
        self,
        *,
        broker_id: int = 0,
        host: str = "",
        port: int = 0,
        rack: str | None = None,
        is_fenced: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.broker_id = broker_id
        self.host = host
        self.port = port
        self.rack = rack
        self.is_fenced = is_fenced
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeClusterResponseData(Data):
    """DescribeClusterResponse, versions 0-2."""

    __slots__ = (
        "brokers",
        "cluster_authorized_operations",
        "cluster_id",
        "controller_id",
        "endpoint_type",
        "error_code",
        "error_message",
        "throttle_time_ms",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("endpoint_type", "endpointType", None),
        ("cluster_id", "clusterId", None),
        ("controller_id", "controllerId", None),
        ("brokers", "brokers", DescribeClusterBroker),
        ("cluster_authorized_operations", "clusterAuthorizedOperations", None),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeClusterResponse"

    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: list[DescribeClusterBroker]
    cluster_authorized_operations: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        endpoint_type: int = 1,
        cluster_id: str = "",
        controller_id: int = -1,
        brokers: list[DescribeClusterBroker] = UNSET,
        cluster_authorized_operations: int = -2147483648,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is UNSET else brokers
        self.cluster_authorized_operations = cluster_authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "MetadataRequest": MetadataRequestData,
    "MetadataResponse": MetadataResponseData,
    "DescribeClusterRequest": DescribeClusterRequestData,
    "DescribeClusterResponse": DescribeClusterResponseData,
}
"""Schema name -> class, for the 4 top-level classes."""
