"""OffsetCommit (8), OffsetFetch (9) and OffsetDelete (47): committed offsets, for classic and consumer groups alike.

OffsetCommit 2-10 (v0-1 removed in Kafka 4.0; flexible from 8): v9 accepts a KIP-848 member epoch in
GenerationIdOrMemberEpoch, v10 addresses topics by id. OffsetFetch 1-10 (v0 removed in 4.0; flexible
from 6): v8 batches groups, v9 adds the member id and epoch of KIP-848, v10 topic ids. OffsetDelete has
v0 only (Kafka 2.4+, KIP-496).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

OFFSET_COMMIT_REQUEST: Final = message(
    "OffsetCommitRequest",
    "2-10",
    "8+",
    [
        field("GroupId", "string"),
        field("GenerationIdOrMemberEpoch", "int32", "1+", default=-1, ignorable=True),
        field("MemberId", "string", "1+", ignorable=True),
        field("GroupInstanceId", "string", "7+", nullable="7+", default="null"),
        field("RetentionTimeMs", "int64", "2-4", default=-1, ignorable=True),
        field(
            "Topics",
            "[]OffsetCommitRequestTopic",
            fields=[
                field("Name", "string", "0-9", ignorable=True),
                field("TopicId", "uuid", "10+", ignorable=True),
                field(
                    "Partitions",
                    "[]OffsetCommitRequestPartition",
                    fields=[
                        field("PartitionIndex", "int32"),
                        field("CommittedOffset", "int64"),
                        field("CommittedLeaderEpoch", "int32", "6+", default=-1, ignorable=True),
                        field("CommitTimestamp", "int64", "1", default=-1),
                        field("CommittedMetadata", "string", nullable="0+"),
                    ],
                ),
            ],
        ),
    ],
    api_key=8,
)

OFFSET_COMMIT_RESPONSE: Final = message(
    "OffsetCommitResponse",
    "2-10",
    "8+",
    [
        field("ThrottleTimeMs", "int32", "3+", ignorable=True),
        field(
            "Topics",
            "[]OffsetCommitResponseTopic",
            fields=[
                field("Name", "string", "0-9", ignorable=True),
                field("TopicId", "uuid", "10+", ignorable=True),
                field(
                    "Partitions",
                    "[]OffsetCommitResponsePartition",
                    fields=[field("PartitionIndex", "int32"), field("ErrorCode", "int16")],
                ),
            ],
        ),
    ],
    api_key=8,
)

OFFSET_FETCH_REQUEST: Final = message(
    "OffsetFetchRequest",
    "1-10",
    "6+",
    [
        field("GroupId", "string", "0-7"),
        field(
            "Topics",
            "[]OffsetFetchRequestTopic",
            "0-7",
            nullable="2-7",
            fields=[field("Name", "string", "0-7"), field("PartitionIndexes", "[]int32", "0-7")],
        ),
        field(
            "Groups",
            "[]OffsetFetchRequestGroup",
            "8+",
            fields=[
                field("GroupId", "string", "8+"),
                field("MemberId", "string", "9+", nullable="9+", default="null", ignorable=True),
                field("MemberEpoch", "int32", "9+", default=-1, ignorable=True),
                field(
                    "Topics",
                    "[]OffsetFetchRequestTopics",
                    "8+",
                    nullable="8+",
                    fields=[
                        field("Name", "string", "8-9", ignorable=True),
                        field("TopicId", "uuid", "10+", ignorable=True),
                        field("PartitionIndexes", "[]int32", "8+"),
                    ],
                ),
            ],
        ),
        field("RequireStable", "bool", "7+", default=False),
    ],
    api_key=9,
)

OFFSET_FETCH_RESPONSE: Final = message(
    "OffsetFetchResponse",
    "1-10",
    "6+",
    [
        field("ThrottleTimeMs", "int32", "3+", ignorable=True),
        field(
            "Topics",
            "[]OffsetFetchResponseTopic",
            "0-7",
            fields=[
                field("Name", "string", "0-7"),
                field(
                    "Partitions",
                    "[]OffsetFetchResponsePartition",
                    "0-7",
                    fields=[
                        field("PartitionIndex", "int32", "0-7"),
                        field("CommittedOffset", "int64", "0-7"),
                        field("CommittedLeaderEpoch", "int32", "5-7", default=-1, ignorable=True),
                        field("Metadata", "string", "0-7", nullable="0-7"),
                        field("ErrorCode", "int16", "0-7"),
                    ],
                ),
            ],
        ),
        field("ErrorCode", "int16", "2-7", default=0, ignorable=True),
        field(
            "Groups",
            "[]OffsetFetchResponseGroup",
            "8+",
            fields=[
                field("GroupId", "string", "8+"),
                field(
                    "Topics",
                    "[]OffsetFetchResponseTopics",
                    "8+",
                    fields=[
                        field("Name", "string", "8-9", ignorable=True),
                        field("TopicId", "uuid", "10+", ignorable=True),
                        field(
                            "Partitions",
                            "[]OffsetFetchResponsePartitions",
                            "8+",
                            fields=[
                                field("PartitionIndex", "int32", "8+"),
                                field("CommittedOffset", "int64", "8+"),
                                field("CommittedLeaderEpoch", "int32", "8+", default=-1, ignorable=True),
                                field("Metadata", "string", "8+", nullable="8+"),
                                field("ErrorCode", "int16", "8+"),
                            ],
                        ),
                    ],
                ),
                field("ErrorCode", "int16", "8+", default=0),
            ],
        ),
    ],
    api_key=9,
)

# OffsetDelete (47): v0 only, never flexible (Kafka 2.4+, KIP-496); the response's ErrorCode comes first.
OFFSET_DELETE_REQUEST: Final = message(
    "OffsetDeleteRequest",
    "0",
    "none",
    [
        field("GroupId", "string"),
        field(
            "Topics",
            "[]OffsetDeleteRequestTopic",
            fields=[
                field("Name", "string"),
                field("Partitions", "[]OffsetDeleteRequestPartition", fields=[field("PartitionIndex", "int32")]),
            ],
        ),
    ],
    api_key=47,
)

OFFSET_DELETE_RESPONSE: Final = message(
    "OffsetDeleteResponse",
    "0",
    "none",
    [
        field("ErrorCode", "int16"),
        field("ThrottleTimeMs", "int32", ignorable=True),
        field(
            "Topics",
            "[]OffsetDeleteResponseTopic",
            fields=[
                field("Name", "string"),
                field(
                    "Partitions",
                    "[]OffsetDeleteResponsePartition",
                    fields=[field("PartitionIndex", "int32"), field("ErrorCode", "int16")],
                ),
            ],
        ),
    ],
    api_key=47,
)
