"""The records_apis API messages, as classes: generated from `groupctl.protocol.messages.records_apis`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class PartitionProduceData(Data):
    """An entry of ProduceRequest.TopicData[].PartitionData[]."""

    __slots__ = ("index", "records")
    _FIELDS: ClassVar[FieldTable] = (
        ("index", "index", None),
        ("records", "records", None),
    )

    index: int
    records: bytes | None

    def __init__(
        self,
        *,
        index: int = 0,
        records: bytes | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.index = index
        self.records = records
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicProduceData(Data):
    """An entry of ProduceRequest.TopicData[]."""

    __slots__ = ("name", "partition_data", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partition_data", "partitionData", PartitionProduceData),
    )

    name: str
    topic_id: uuid.UUID
    partition_data: list[PartitionProduceData]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partition_data: list[PartitionProduceData] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_data = [] if partition_data is UNSET else partition_data
        self.unknown_tagged_fields = unknown_tagged_fields


class ProduceRequestData(Data):
    """ProduceRequest, versions 3-13."""

    __slots__ = ("acks", "timeout_ms", "topic_data", "transactional_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("transactional_id", "transactionalId", None),
        ("acks", "acks", None),
        ("timeout_ms", "timeoutMs", None),
        ("topic_data", "topicData", TopicProduceData),
    )
    SCHEMA_NAME: ClassVar[str] = "ProduceRequest"

    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[TopicProduceData]

    def __init__(
        self,
        *,
        transactional_id: str | None = None,
        acks: int = 0,
        timeout_ms: int = 0,
        topic_data: list[TopicProduceData] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is UNSET else topic_data
        self.unknown_tagged_fields = unknown_tagged_fields


class BatchIndexAndErrorMessage(Data):
    """An entry of ProduceResponse.Responses[].PartitionResponses[].RecordErrors[]."""

    __slots__ = ("batch_index", "batch_index_error_message")
    _FIELDS: ClassVar[FieldTable] = (
        ("batch_index", "batchIndex", None),
        ("batch_index_error_message", "batchIndexErrorMessage", None),
    )

    batch_index: int
    batch_index_error_message: str | None

    def __init__(
        self,
        *,
        batch_index: int = 0,
        batch_index_error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.batch_index = batch_index
        self.batch_index_error_message = batch_index_error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class LeaderIdAndEpoch(Data):
    """The struct ProduceResponse.Responses[].PartitionResponses[].CurrentLeader."""

    __slots__ = ("leader_epoch", "leader_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("leader_id", "leaderId", None),
        ("leader_epoch", "leaderEpoch", None),
    )

    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = -1,
        leader_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class PartitionProduceResponse(Data):
    """An entry of ProduceResponse.Responses[].PartitionResponses[]."""

    __slots__ = (
        "base_offset",
        "current_leader",
        "error_code",
        "error_message",
        "index",
        "log_append_time_ms",
        "log_start_offset",
        "record_errors",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("index", "index", None),
        ("error_code", "errorCode", None),
        ("base_offset", "baseOffset", None),
        ("log_append_time_ms", "logAppendTimeMs", None),
        ("log_start_offset", "logStartOffset", None),
        ("record_errors", "recordErrors", BatchIndexAndErrorMessage),
        ("error_message", "errorMessage", None),
        ("current_leader", "currentLeader", LeaderIdAndEpoch),
    )

    index: int
    error_code: int
    base_offset: int
    log_append_time_ms: int
    log_start_offset: int
    record_errors: list[BatchIndexAndErrorMessage]
    error_message: str | None
    current_leader: LeaderIdAndEpoch

    def __init__(
        self,
        *,
        index: int = 0,
        error_code: int = 0,
        base_offset: int = 0,
        log_append_time_ms: int = -1,
        log_start_offset: int = -1,
        record_errors: list[BatchIndexAndErrorMessage] = UNSET,
        error_message: str | None = None,
        current_leader: LeaderIdAndEpoch = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.index = index
        self.error_code = error_code
        self.base_offset = base_offset
        self.log_append_time_ms = log_append_time_ms
        self.log_start_offset = log_start_offset
        self.record_errors = [] if record_errors is UNSET else record_errors
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is UNSET else current_leader
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicProduceResponse(Data):
    """An entry of ProduceResponse.Responses[]."""

    __slots__ = ("name", "partition_responses", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("topic_id", "topicId", None),
        ("partition_responses", "partitionResponses", PartitionProduceResponse),
    )

    name: str
    topic_id: uuid.UUID
    partition_responses: list[PartitionProduceResponse]

    def __init__(
        self,
        *,
        name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partition_responses: list[PartitionProduceResponse] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_responses = [] if partition_responses is UNSET else partition_responses
        self.unknown_tagged_fields = unknown_tagged_fields


class NodeEndpoint(Data):
    """An entry of ProduceResponse.NodeEndpoints[]."""

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


class ProduceResponseData(Data):
    """ProduceResponse, versions 3-13."""

    __slots__ = ("node_endpoints", "responses", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("responses", "responses", TopicProduceResponse),
        ("throttle_time_ms", "throttleTimeMs", None),
        ("node_endpoints", "nodeEndpoints", NodeEndpoint),
    )
    SCHEMA_NAME: ClassVar[str] = "ProduceResponse"

    responses: list[TopicProduceResponse]
    throttle_time_ms: int
    node_endpoints: list[NodeEndpoint]

    def __init__(
        self,
        *,
        responses: list[TopicProduceResponse] = UNSET,
        throttle_time_ms: int = 0,
        node_endpoints: list[NodeEndpoint] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.responses = [] if responses is UNSET else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self.unknown_tagged_fields = unknown_tagged_fields


class ReplicaState(Data):
    """The struct FetchRequest.ReplicaState."""

    __slots__ = ("replica_epoch", "replica_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("replica_id", "replicaId", None),
        ("replica_epoch", "replicaEpoch", None),
    )

    replica_id: int
    replica_epoch: int

    def __init__(
        self,
        *,
        replica_id: int = -1,
        replica_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class FetchPartition(Data):
    """An entry of FetchRequest.Topics[].Partitions[]."""

    __slots__ = (
        "current_leader_epoch",
        "fetch_offset",
        "high_watermark",
        "last_fetched_epoch",
        "log_start_offset",
        "partition",
        "partition_max_bytes",
        "replica_directory_id",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("partition", "partition", None),
        ("current_leader_epoch", "currentLeaderEpoch", None),
        ("fetch_offset", "fetchOffset", None),
        ("last_fetched_epoch", "lastFetchedEpoch", None),
        ("log_start_offset", "logStartOffset", None),
        ("partition_max_bytes", "partitionMaxBytes", None),
        ("replica_directory_id", "replicaDirectoryId", None),
        ("high_watermark", "highWatermark", None),
    )

    partition: int
    current_leader_epoch: int
    fetch_offset: int
    last_fetched_epoch: int
    log_start_offset: int
    partition_max_bytes: int
    replica_directory_id: uuid.UUID
    high_watermark: int

    def __init__(
        self,
        *,
        partition: int = 0,
        current_leader_epoch: int = -1,
        fetch_offset: int = 0,
        last_fetched_epoch: int = -1,
        log_start_offset: int = -1,
        partition_max_bytes: int = 0,
        replica_directory_id: uuid.UUID = ZERO_UUID,
        high_watermark: int = 9223372036854775807,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.fetch_offset = fetch_offset
        self.last_fetched_epoch = last_fetched_epoch
        self.log_start_offset = log_start_offset
        self.partition_max_bytes = partition_max_bytes
        self.replica_directory_id = replica_directory_id
        self.high_watermark = high_watermark
        self.unknown_tagged_fields = unknown_tagged_fields


class FetchTopic(Data):
    """An entry of FetchRequest.Topics[]."""

    __slots__ = ("partitions", "topic", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic", "topic", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", FetchPartition),
    )

    topic: str
    topic_id: uuid.UUID
    partitions: list[FetchPartition]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[FetchPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ForgottenTopic(Data):
    """An entry of FetchRequest.ForgottenTopicsData[]."""

    __slots__ = ("partitions", "topic", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic", "topic", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", None),
    )

    topic: str
    topic_id: uuid.UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class FetchRequestData(Data):
    """FetchRequest, versions 4-18."""

    __slots__ = (
        "cluster_id",
        "forgotten_topics_data",
        "isolation_level",
        "max_bytes",
        "max_wait_ms",
        "min_bytes",
        "rack_id",
        "replica_id",
        "replica_state",
        "session_epoch",
        "session_id",
        "topics",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("cluster_id", "clusterId", None),
        ("replica_id", "replicaId", None),
        ("replica_state", "replicaState", ReplicaState),
        ("max_wait_ms", "maxWaitMs", None),
        ("min_bytes", "minBytes", None),
        ("max_bytes", "maxBytes", None),
        ("isolation_level", "isolationLevel", None),
        ("session_id", "sessionId", None),
        ("session_epoch", "sessionEpoch", None),
        ("topics", "topics", FetchTopic),
        ("forgotten_topics_data", "forgottenTopicsData", ForgottenTopic),
        ("rack_id", "rackId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "FetchRequest"

    cluster_id: str | None
    replica_id: int
    replica_state: ReplicaState
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    isolation_level: int
    session_id: int
    session_epoch: int
    topics: list[FetchTopic]
    forgotten_topics_data: list[ForgottenTopic]
    rack_id: str

    def __init__(
        self,
        *,
        cluster_id: str | None = None,
        replica_id: int = -1,
        replica_state: ReplicaState = UNSET,
        max_wait_ms: int = 0,
        min_bytes: int = 0,
        max_bytes: int = 2147483647,
        isolation_level: int = 0,
        session_id: int = 0,
        session_epoch: int = -1,
        topics: list[FetchTopic] = UNSET,
        forgotten_topics_data: list[ForgottenTopic] = UNSET,
        rack_id: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = ReplicaState() if replica_state is UNSET else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is UNSET else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is UNSET else forgotten_topics_data
        self.rack_id = rack_id
        self.unknown_tagged_fields = unknown_tagged_fields


class EpochEndOffset(Data):
    """The struct FetchResponse.Responses[].Partitions[].DivergingEpoch."""

    __slots__ = ("end_offset", "epoch")
    _FIELDS: ClassVar[FieldTable] = (
        ("epoch", "epoch", None),
        ("end_offset", "endOffset", None),
    )

    epoch: int
    end_offset: int

    def __init__(
        self,
        *,
        epoch: int = -1,
        end_offset: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.epoch = epoch
        self.end_offset = end_offset
        self.unknown_tagged_fields = unknown_tagged_fields


class PartitionLeaderIdAndEpoch(Data):
    """The struct FetchResponse.Responses[].Partitions[].CurrentLeader."""

    __slots__ = ("leader_epoch", "leader_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("leader_id", "leaderId", None),
        ("leader_epoch", "leaderEpoch", None),
    )

    leader_id: int
    leader_epoch: int

    def __init__(
        self,
        *,
        leader_id: int = -1,
        leader_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class SnapshotId(Data):
    """The struct FetchResponse.Responses[].Partitions[].SnapshotId."""

    __slots__ = ("end_offset", "epoch")
    _FIELDS: ClassVar[FieldTable] = (
        ("end_offset", "endOffset", None),
        ("epoch", "epoch", None),
    )

    end_offset: int
    epoch: int

    def __init__(
        self,
        *,
        end_offset: int = -1,
        epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.end_offset = end_offset
        self.epoch = epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class AbortedTransaction(Data):
    """An entry of FetchResponse.Responses[].Partitions[].AbortedTransactions[]."""

    __slots__ = ("first_offset", "producer_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("producer_id", "producerId", None),
        ("first_offset", "firstOffset", None),
    )

    producer_id: int
    first_offset: int

    def __init__(
        self,
        *,
        producer_id: int = 0,
        first_offset: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.producer_id = producer_id
        self.first_offset = first_offset
        self.unknown_tagged_fields = unknown_tagged_fields


class PartitionData(Data):
    """An entry of FetchResponse.Responses[].Partitions[]."""

    __slots__ = (
        "aborted_transactions",
        "current_leader",
        "diverging_epoch",
        "error_code",
        "high_watermark",
        "last_stable_offset",
        "log_start_offset",
        "partition_index",
        "preferred_read_replica",
        "records",
        "snapshot_id",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("error_code", "errorCode", None),
        ("high_watermark", "highWatermark", None),
        ("last_stable_offset", "lastStableOffset", None),
        ("log_start_offset", "logStartOffset", None),
        ("diverging_epoch", "divergingEpoch", EpochEndOffset),
        ("current_leader", "currentLeader", PartitionLeaderIdAndEpoch),
        ("snapshot_id", "snapshotId", SnapshotId),
        ("aborted_transactions", "abortedTransactions", AbortedTransaction),
        ("preferred_read_replica", "preferredReadReplica", None),
        ("records", "records", None),
    )

    partition_index: int
    error_code: int
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    diverging_epoch: EpochEndOffset
    current_leader: PartitionLeaderIdAndEpoch
    snapshot_id: SnapshotId
    aborted_transactions: list[AbortedTransaction] | None
    preferred_read_replica: int
    records: bytes | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        high_watermark: int = 0,
        last_stable_offset: int = -1,
        log_start_offset: int = -1,
        diverging_epoch: EpochEndOffset = UNSET,
        current_leader: PartitionLeaderIdAndEpoch = UNSET,
        snapshot_id: SnapshotId = UNSET,
        aborted_transactions: list[AbortedTransaction] | None = UNSET,
        preferred_read_replica: int = -1,
        records: bytes | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.diverging_epoch = EpochEndOffset() if diverging_epoch is UNSET else diverging_epoch
        self.current_leader = PartitionLeaderIdAndEpoch() if current_leader is UNSET else current_leader
        self.snapshot_id = SnapshotId() if snapshot_id is UNSET else snapshot_id
        self.aborted_transactions = [] if aborted_transactions is UNSET else aborted_transactions
        self.preferred_read_replica = preferred_read_replica
        self.records = records
        self.unknown_tagged_fields = unknown_tagged_fields


class FetchableTopicResponse(Data):
    """An entry of FetchResponse.Responses[]."""

    __slots__ = ("partitions", "topic", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic", "topic", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", PartitionData),
    )

    topic: str
    topic_id: uuid.UUID
    partitions: list[PartitionData]

    def __init__(
        self,
        *,
        topic: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[PartitionData] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class FetchResponseNodeEndpoint(Data):
    """An entry of FetchResponse.NodeEndpoints[]."""

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


class FetchResponseData(Data):
    """FetchResponse, versions 4-18."""

    __slots__ = ("error_code", "node_endpoints", "responses", "session_id", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("session_id", "sessionId", None),
        ("responses", "responses", FetchableTopicResponse),
        ("node_endpoints", "nodeEndpoints", FetchResponseNodeEndpoint),
    )
    SCHEMA_NAME: ClassVar[str] = "FetchResponse"

    throttle_time_ms: int
    error_code: int
    session_id: int
    responses: list[FetchableTopicResponse]
    node_endpoints: list[FetchResponseNodeEndpoint]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        session_id: int = 0,
        responses: list[FetchableTopicResponse] = UNSET,
        node_endpoints: list[FetchResponseNodeEndpoint] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is UNSET else responses
        self.node_endpoints = [] if node_endpoints is UNSET else node_endpoints
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsPartition(Data):
    """An entry of ListOffsetsRequest.Topics[].Partitions[]."""

    __slots__ = ("current_leader_epoch", "max_num_offsets", "partition_index", "timestamp")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("current_leader_epoch", "currentLeaderEpoch", None),
        ("timestamp", "timestamp", None),
        ("max_num_offsets", "maxNumOffsets", None),
    )

    partition_index: int
    current_leader_epoch: int
    timestamp: int
    max_num_offsets: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        current_leader_epoch: int = -1,
        timestamp: int = 0,
        max_num_offsets: int = 1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.current_leader_epoch = current_leader_epoch
        self.timestamp = timestamp
        self.max_num_offsets = max_num_offsets
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsTopic(Data):
    """An entry of ListOffsetsRequest.Topics[]."""

    __slots__ = ("name", "partitions")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", ListOffsetsPartition),
    )

    name: str
    partitions: list[ListOffsetsPartition]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ListOffsetsPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsRequestData(Data):
    """ListOffsetsRequest, versions 1-11."""

    __slots__ = ("isolation_level", "replica_id", "timeout_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("replica_id", "replicaId", None),
        ("isolation_level", "isolationLevel", None),
        ("topics", "topics", ListOffsetsTopic),
        ("timeout_ms", "timeoutMs", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ListOffsetsRequest"

    replica_id: int
    isolation_level: int
    topics: list[ListOffsetsTopic]
    timeout_ms: int

    def __init__(
        self,
        *,
        replica_id: int = 0,
        isolation_level: int = 0,
        topics: list[ListOffsetsTopic] = UNSET,
        timeout_ms: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.replica_id = replica_id
        self.isolation_level = isolation_level
        self.topics = [] if topics is UNSET else topics
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsPartitionResponse(Data):
    """An entry of ListOffsetsResponse.Topics[].Partitions[]."""

    __slots__ = ("error_code", "leader_epoch", "offset", "old_style_offsets", "partition_index", "timestamp")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("error_code", "errorCode", None),
        ("old_style_offsets", "oldStyleOffsets", None),
        ("timestamp", "timestamp", None),
        ("offset", "offset", None),
        ("leader_epoch", "leaderEpoch", None),
    )

    partition_index: int
    error_code: int
    old_style_offsets: list[int]
    timestamp: int
    offset: int
    leader_epoch: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        old_style_offsets: list[int] = UNSET,
        timestamp: int = -1,
        offset: int = -1,
        leader_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.old_style_offsets = [] if old_style_offsets is UNSET else old_style_offsets
        self.timestamp = timestamp
        self.offset = offset
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsTopicResponse(Data):
    """An entry of ListOffsetsResponse.Topics[]."""

    __slots__ = ("name", "partitions")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("partitions", "partitions", ListOffsetsPartitionResponse),
    )

    name: str
    partitions: list[ListOffsetsPartitionResponse]

    def __init__(
        self,
        *,
        name: str = "",
        partitions: list[ListOffsetsPartitionResponse] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ListOffsetsResponseData(Data):
    """ListOffsetsResponse, versions 1-11."""

    __slots__ = ("throttle_time_ms", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("topics", "topics", ListOffsetsTopicResponse),
    )
    SCHEMA_NAME: ClassVar[str] = "ListOffsetsResponse"

    throttle_time_ms: int
    topics: list[ListOffsetsTopicResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        topics: list[ListOffsetsTopicResponse] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "ProduceRequest": ProduceRequestData,
    "ProduceResponse": ProduceResponseData,
    "FetchRequest": FetchRequestData,
    "FetchResponse": FetchResponseData,
    "ListOffsetsRequest": ListOffsetsRequestData,
    "ListOffsetsResponse": ListOffsetsResponseData,
}
"""Schema name -> class, for the 6 top-level classes."""
