"""CreateTopics (19) and CreatePartitions (37): what clients and tests send to set up topics.

CreateTopics 2-7 (v0-1 removed in Kafka 4.0; flexible from 5, which also returns the topic's
configs; topic ids from 7). CreatePartitions 0-3 (flexible from 2). `timeoutMs` and `validateOnly` are
Kafka's own lower-case spellings (the JSON names are the same either way).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

CREATE_TOPICS_REQUEST: Final = message(
    "CreateTopicsRequest",
    "2-7",
    "5+",
    [
        field(
            "Topics",
            "[]CreatableTopic",
            fields=[
                field("Name", "string"),
                field("NumPartitions", "int32"),
                field("ReplicationFactor", "int16"),
                field(
                    "Assignments",
                    "[]CreatableReplicaAssignment",
                    fields=[field("PartitionIndex", "int32"), field("BrokerIds", "[]int32")],
                ),
                field(
                    "Configs",
                    "[]CreatableTopicConfig",
                    fields=[field("Name", "string"), field("Value", "string", nullable="0+")],
                ),
            ],
        ),
        field("timeoutMs", "int32", default=60000),
        field("validateOnly", "bool", "1+", default=False),
    ],
    api_key=19,
)

CREATE_TOPICS_RESPONSE: Final = message(
    "CreateTopicsResponse",
    "2-7",
    "5+",
    [
        field("ThrottleTimeMs", "int32", "2+", ignorable=True),
        field(
            "Topics",
            "[]CreatableTopicResult",
            fields=[
                field("Name", "string"),
                field("TopicId", "uuid", "7+", ignorable=True),
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", "1+", nullable="0+", ignorable=True),
                field("TopicConfigErrorCode", "int16", "5+", tag=0, ignorable=True),
                field("NumPartitions", "int32", "5+", default=-1, ignorable=True),
                field("ReplicationFactor", "int16", "5+", default=-1, ignorable=True),
                field(
                    "Configs",
                    "[]CreatableTopicConfigs",
                    "5+",
                    nullable="5+",
                    ignorable=True,
                    fields=[
                        field("Name", "string", "5+"),
                        field("Value", "string", "5+", nullable="5+"),
                        field("ReadOnly", "bool", "5+"),
                        field("ConfigSource", "int8", "5+", default=-1, ignorable=True),
                        field("IsSensitive", "bool", "5+"),
                    ],
                ),
            ],
        ),
    ],
    api_key=19,
)

CREATE_PARTITIONS_REQUEST: Final = message(
    "CreatePartitionsRequest",
    "0-3",
    "2+",
    [
        field(
            "Topics",
            "[]CreatePartitionsTopic",
            fields=[
                field("Name", "string"),
                field("Count", "int32"),
                field(
                    "Assignments",
                    "[]CreatePartitionsAssignment",
                    nullable="0+",
                    fields=[field("BrokerIds", "[]int32")],
                ),
            ],
        ),
        field("TimeoutMs", "int32"),
        field("ValidateOnly", "bool"),
    ],
    api_key=37,
)

CREATE_PARTITIONS_RESPONSE: Final = message(
    "CreatePartitionsResponse",
    "0-3",
    "2+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Results",
            "[]CreatePartitionsTopicResult",
            fields=[
                field("Name", "string"),
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", nullable="0+", default="null"),
            ],
        ),
    ],
    api_key=37,
)
