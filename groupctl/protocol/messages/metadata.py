"""Metadata (3) and DescribeCluster (60): where the brokers, topics, topic ids and partitions are.

Metadata 0-13 (flexible from 9): topic ids from v10, nullable topic names from v12, the top-level
ErrorCode from v13. DescribeCluster 0-2 (flexible throughout): EndpointType v1, fenced brokers v2.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

METADATA_REQUEST: Final = message(
    "MetadataRequest",
    "0-13",
    "9+",
    [
        field(
            "Topics",
            "[]MetadataRequestTopic",
            nullable="1+",
            fields=[
                field("TopicId", "uuid", "10+", ignorable=True),
                field("Name", "string", nullable="10+"),
            ],
        ),
        field("AllowAutoTopicCreation", "bool", "4+", default=True),
        field("IncludeClusterAuthorizedOperations", "bool", "8-10"),
        field("IncludeTopicAuthorizedOperations", "bool", "8+"),
    ],
    api_key=3,
)

METADATA_RESPONSE: Final = message(
    "MetadataResponse",
    "0-13",
    "9+",
    [
        field("ThrottleTimeMs", "int32", "3+", ignorable=True),
        field(
            "Brokers",
            "[]MetadataResponseBroker",
            fields=[
                field("NodeId", "int32"),
                field("Host", "string"),
                field("Port", "int32"),
                field("Rack", "string", "1+", nullable="1+", default="null", ignorable=True),
            ],
        ),
        field("ClusterId", "string", "2+", nullable="2+", default="null", ignorable=True),
        field("ControllerId", "int32", "1+", default=-1, ignorable=True),
        field(
            "Topics",
            "[]MetadataResponseTopic",
            fields=[
                field("ErrorCode", "int16"),
                field("Name", "string", nullable="12+"),
                field("TopicId", "uuid", "10+", ignorable=True),
                field("IsInternal", "bool", "1+", default=False, ignorable=True),
                field(
                    "Partitions",
                    "[]MetadataResponsePartition",
                    fields=[
                        field("ErrorCode", "int16"),
                        field("PartitionIndex", "int32"),
                        field("LeaderId", "int32"),
                        field("LeaderEpoch", "int32", "7+", default=-1, ignorable=True),
                        field("ReplicaNodes", "[]int32"),
                        field("IsrNodes", "[]int32"),
                        field("OfflineReplicas", "[]int32", "5+", ignorable=True),
                    ],
                ),
                field("TopicAuthorizedOperations", "int32", "8+", default=-2147483648),
            ],
        ),
        field("ClusterAuthorizedOperations", "int32", "8-10", default=-2147483648),
        field("ErrorCode", "int16", "13+", ignorable=True),
    ],
    api_key=3,
)

DESCRIBE_CLUSTER_REQUEST: Final = message(
    "DescribeClusterRequest",
    "0-2",
    "0+",
    [
        field("IncludeClusterAuthorizedOperations", "bool"),
        field("EndpointType", "int8", "1+", default=1),
        field("IncludeFencedBrokers", "bool", "2+"),
    ],
    api_key=60,
)

DESCRIBE_CLUSTER_RESPONSE: Final = message(
    "DescribeClusterResponse",
    "0-2",
    "0+",
    [
        field("ThrottleTimeMs", "int32"),
        field("ErrorCode", "int16"),
        field("ErrorMessage", "string", nullable="0+", default="null"),
        field("EndpointType", "int8", "1+", default=1),
        field("ClusterId", "string"),
        field("ControllerId", "int32", default=-1),
        field(
            "Brokers",
            "[]DescribeClusterBroker",
            fields=[
                field("BrokerId", "int32"),
                field("Host", "string"),
                field("Port", "int32"),
                field("Rack", "string", nullable="0+", default="null"),
                field("IsFenced", "bool", "2+"),
            ],
        ),
        field("ClusterAuthorizedOperations", "int32", default=-2147483648),
    ],
    api_key=60,
)
