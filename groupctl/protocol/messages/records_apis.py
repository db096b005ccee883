"""Produce (0), Fetch (1) and ListOffsets (2): the APIs that move record batches and find offsets.

Produce 3-13 (v0-2 removed in Kafka 4.0; flexible from 9; topic ids replace names at 13). Fetch
4-18 (v0-3 removed in 4.0; flexible from 12; topic ids from 13; the follower's ReplicaState from 15;
the tagged HighWatermark of KIP-1166 at 18). ListOffsets 1-11 (v0 removed in 4.0; flexible from 6).
Batches are carried as opaque `records` bytes: `groupctl.log` reads and writes them.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import Field, field, message


def _node_endpoints(versions: str) -> Field:
    """The tagged list of leaders' endpoints (KIP-951), so a client can skip a Metadata round trip."""
    return field(
        "NodeEndpoints",
        "[]NodeEndpoint",
        versions,
        tag=0,
        fields=[
            field("NodeId", "int32", versions),
            field("Host", "string", versions),
            field("Port", "int32", versions),
            field("Rack", "string", versions, nullable=versions, default="null"),
        ],
    )


def _current_leader(versions: str, tag: int) -> Field:
    return field(
        "CurrentLeader",
        "LeaderIdAndEpoch",
        versions,
        tag=tag,
        fields=[
            field("LeaderId", "int32", versions, default=-1),
            field("LeaderEpoch", "int32", versions, default=-1),
        ],
    )


PRODUCE_REQUEST: Final = message(
    "ProduceRequest",
    "3-13",
    "9+",
    [
        field("TransactionalId", "string", "3+", nullable="3+", default="null"),
        field("Acks", "int16"),
        field("TimeoutMs", "int32"),
        field(
            "TopicData",
            "[]TopicProduceData",
            fields=[
                field("Name", "string", "0-12", ignorable=True),
                field("TopicId", "uuid", "13+", ignorable=True),
                field(
                    "PartitionData",
                    "[]PartitionProduceData",
                    fields=[field("Index", "int32"), field("Records", "records", nullable="0+")],
                ),
            ],
        ),
    ],
    api_key=0,
)

PRODUCE_RESPONSE: Final = message(
    "ProduceResponse",
    "3-13",
    "9+",
    [
        field(
            "Responses",
            "[]TopicProduceResponse",
            fields=[
                field("Name", "string", "0-12", ignorable=True),
                field("TopicId", "uuid", "13+", ignorable=True),
                field(
                    "PartitionResponses",
                    "[]PartitionProduceResponse",
                    fields=[
                        field("Index", "int32"),
                        field("ErrorCode", "int16"),
                        field("BaseOffset", "int64"),
                        field("LogAppendTimeMs", "int64", "2+", default=-1, ignorable=True),
                        field("LogStartOffset", "int64", "5+", default=-1, ignorable=True),
                        field(
                            "RecordErrors",
                            "[]BatchIndexAndErrorMessage",
                            "8+",
                            ignorable=True,
                            fields=[
                                field("BatchIndex", "int32", "8+"),
                                field("BatchIndexErrorMessage", "string", "8+", nullable="8+", default="null"),
                            ],
                        ),
                        field("ErrorMessage", "string", "8+", nullable="8+", default="null", ignorable=True),
                        _current_leader("10+", 0),
                    ],
                ),
            ],
        ),
        field("ThrottleTimeMs", "int32", "1+", default=0, ignorable=True),
        _node_endpoints("10+"),
    ],
    api_key=0,
)

FETCH_REQUEST: Final = message(
    "FetchRequest",
    "4-18",
    "12+",
    [
        field("ClusterId", "string", "12+", nullable="12+", tag=0, default="null", ignorable=True),
        field("ReplicaId", "int32", "0-14", default=-1),
        field(
            "ReplicaState",
            "ReplicaState",
            "15+",
            tag=1,
            fields=[field("ReplicaId", "int32", "15+", default=-1), field("ReplicaEpoch", "int64", "15+", default=-1)],
        ),
        field("MaxWaitMs", "int32"),
        field("MinBytes", "int32"),
        field("MaxBytes", "int32", "3+", default=0x7FFFFFFF, ignorable=True),
        field("IsolationLevel", "int8", "4+", default=0, ignorable=True),
        field("SessionId", "int32", "7+", default=0, ignorable=True),
        field("SessionEpoch", "int32", "7+", default=-1, ignorable=True),
        field(
            "Topics",
            "[]FetchTopic",
            fields=[
                field("Topic", "string", "0-12", ignorable=True),
                field("TopicId", "uuid", "13+", ignorable=True),
                field(
                    "Partitions",
                    "[]FetchPartition",
                    fields=[
                        field("Partition", "int32"),
                        field("CurrentLeaderEpoch", "int32", "9+", default=-1, ignorable=True),
                        field("FetchOffset", "int64"),
                        field("LastFetchedEpoch", "int32", "12+", default=-1),
                        field("LogStartOffset", "int64", "5+", default=-1, ignorable=True),
                        field("PartitionMaxBytes", "int32"),
                        field("ReplicaDirectoryId", "uuid", "17+", tag=0, ignorable=True),
                        field("HighWatermark", "int64", "18+", tag=1, default=0x7FFFFFFFFFFFFFFF, ignorable=True),
                    ],
                ),
            ],
        ),
        field(
            "ForgottenTopicsData",
            "[]ForgottenTopic",
            "7+",
            fields=[
                field("Topic", "string", "7-12", ignorable=True),
                field("TopicId", "uuid", "13+", ignorable=True),
                field("Partitions", "[]int32", "7+"),
            ],
        ),
        field("RackId", "string", "11+", ignorable=True),
    ],
    api_key=1,
)

FETCH_RESPONSE: Final = message(
    "FetchResponse",
    "4-18",
    "12+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field("ErrorCode", "int16", "7+", ignorable=True),
        field("SessionId", "int32", "7+", default=0),
        field(
            "Responses",
            "[]FetchableTopicResponse",
            fields=[
                field("Topic", "string", "0-12", ignorable=True),
                field("TopicId", "uuid", "13+", ignorable=True),
                field(
                    "Partitions",
                    "[]PartitionData",
                    fields=[
                        field("PartitionIndex", "int32"),
                        field("ErrorCode", "int16"),
                        field("HighWatermark", "int64"),
                        field("LastStableOffset", "int64", "4+", default=-1, ignorable=True),
                        field("LogStartOffset", "int64", "5+", default=-1, ignorable=True),
                        field(
                            "DivergingEpoch",
                            "EpochEndOffset",
                            "12+",
                            tag=0,
                            fields=[
                                field("Epoch", "int32", "12+", default=-1),
                                field("EndOffset", "int64", "12+", default=-1),
                            ],
                        ),
                        _current_leader("12+", 1),
                        field(
                            "SnapshotId",
                            "SnapshotId",
                            "12+",
                            tag=2,
                            fields=[field("EndOffset", "int64", default=-1), field("Epoch", "int32", default=-1)],
                        ),
                        field(
                            "AbortedTransactions",
                            "[]AbortedTransaction",
                            "4+",
                            nullable="4+",
                            ignorable=True,
                            fields=[field("ProducerId", "int64", "4+"), field("FirstOffset", "int64", "4+")],
                        ),
                        field("PreferredReadReplica", "int32", "11+", default=-1),
                        field("Records", "records", nullable="0+"),
                    ],
                ),
            ],
        ),
        _node_endpoints("16+"),
    ],
    api_key=1,
)

LIST_OFFSETS_REQUEST: Final = message(
    "ListOffsetsRequest",
    "1-11",
    "6+",
    [
        field("ReplicaId", "int32"),
        field("IsolationLevel", "int8", "2+"),
        field(
            "Topics",
            "[]ListOffsetsTopic",
            fields=[
                field("Name", "string"),
                field(
                    "Partitions",
                    "[]ListOffsetsPartition",
                    fields=[
                        field("PartitionIndex", "int32"),
                        field("CurrentLeaderEpoch", "int32", "4+", default=-1, ignorable=True),
                        field("Timestamp", "int64"),
                        field("MaxNumOffsets", "int32", "0", default=1),
                    ],
                ),
            ],
        ),
        field("TimeoutMs", "int32", "10+", ignorable=True),
    ],
    api_key=2,
)

LIST_OFFSETS_RESPONSE: Final = message(
    "ListOffsetsResponse",
    "1-11",
    "6+",
    [
        field("ThrottleTimeMs", "int32", "2+", ignorable=True),
        field(
            "Topics",
            "[]ListOffsetsTopicResponse",
            fields=[
                field("Name", "string"),
                field(
                    "Partitions",
                    "[]ListOffsetsPartitionResponse",
                    fields=[
                        field("PartitionIndex", "int32"),
                        field("ErrorCode", "int16"),
                        field("OldStyleOffsets", "[]int64", "0"),
                        field("Timestamp", "int64", "1+", default=-1),
                        field("Offset", "int64", "1+", default=-1),
                        field("LeaderEpoch", "int32", "4+", default=-1),
                    ],
                ),
            ],
        ),
    ],
    api_key=2,
)
