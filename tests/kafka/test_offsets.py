"""OffsetFetch and ListOffsets: request bytes at every version against kafka-python, kafka-python's
responses decoded, and leader moves against fake brokers."""

from __future__ import annotations

import time
from typing import Any

import pytest

from groupctl.kafka.cluster import Cluster
from groupctl.kafka.offsets import (
    committed_offsets,
    end_offsets,
    list_offsets_request,
    offset_fetch_request,
    parse_list_offsets,
    parse_offset_fetch,
)
from groupctl.model import CommittedOffset, TopicPartition
from groupctl.protocol.messages import framing

BASE_VERSIONS = {18: (0, 3), 3: (0, 12), 10: (0, 6)}


def fetched(version: int, group_id: str, partitions: list[dict[str, Any]], error: int = 0) -> dict[str, Any]:
    topics = [{"name": "orders", "partitions": partitions}]
    if version >= 8:
        return {"groups": [{"groupId": group_id, "topics": topics, "errorCode": error}]}
    return {"topics": topics, "errorCode": error}


def partition(index: int, offset: int, error: int = 0, epoch: int = -1, metadata: str | None = "") -> dict[str, Any]:
    return {
        "partitionIndex": index,
        "committedOffset": offset,
        "committedLeaderEpoch": epoch,
        "metadata": metadata,
        "errorCode": error,
    }


# --- OffsetFetch ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(2, 10))
def test_offset_fetch_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 9: (0, version)})
    broker.on(9, lambda r, s: fetched(r.api_version, "orders-app", [partition(0, 42)]))
    with Cluster(config_for(broker)) as cluster:
        result = committed_offsets(cluster, "orders-app", cluster.deadline(5))
    assert result.offsets == [CommittedOffset("orders", 0, 42, metadata="", leader_epoch=None)]
    group = kp.cls["OffsetFetchRequest"].OffsetFetchRequestGroup
    (request,) = broker.requests_for(9)
    assert framing.frame(broker.raw_for(9)[0]) == kp.frame(
        "OffsetFetchRequest",
        version,
        request.correlation_id,
        "groupctl",
        group_id="orders-app",
        topics=None,
        groups=[group(group_id="orders-app", member_id=None, member_epoch=-1, topics=None)],
        require_stable=False,
    )


def test_offset_fetch_never_asks_for_topic_ids(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 9: (1, 10)})
    broker.on(9, lambda r, s: fetched(r.api_version, "g", []))
    with Cluster(config_for(broker)) as cluster:
        committed_offsets(cluster, "g", cluster.deadline(5))
    assert broker.requests_for(9)[0].api_version == 9


@pytest.mark.parametrize("version", range(2, 10))
def test_offset_fetch_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    cls = kp.cls["OffsetFetchResponse"]
    if version >= 8:
        p = cls.OffsetFetchResponseGroup.OffsetFetchResponseTopics.OffsetFetchResponsePartitions
        parts = [
            p(partition_index=0, committed_offset=10, committed_leader_epoch=3, metadata="m", error_code=0),
            p(partition_index=1, committed_offset=-1, committed_leader_epoch=-1, metadata="", error_code=0),
            p(partition_index=2, committed_offset=-1, committed_leader_epoch=-1, metadata=None, error_code=88),
        ]
        topics = [cls.OffsetFetchResponseGroup.OffsetFetchResponseTopics(name="orders", partitions=parts)]
        fields = {"groups": [cls.OffsetFetchResponseGroup(group_id="g", topics=topics, error_code=0)]}
    else:
        p = cls.OffsetFetchResponseTopic.OffsetFetchResponsePartition
        parts = [
            p(partition_index=0, committed_offset=10, committed_leader_epoch=3, metadata="m", error_code=0),
            p(partition_index=1, committed_offset=-1, committed_leader_epoch=-1, metadata="", error_code=0),
            p(partition_index=2, committed_offset=-1, committed_leader_epoch=-1, metadata=None, error_code=88),
        ]
        fields = {"topics": [cls.OffsetFetchResponseTopic(name="orders", partitions=parts)], "error_code": 0}
    wire = kp.frame("OffsetFetchResponse", version, 4, **fields)
    result = parse_offset_fetch(framing.decode_response(wire[4:], 9, version).body, version, "g")
    epoch = 3 if version >= 5 else None
    assert result.offsets == [CommittedOffset("orders", 0, 10, metadata="m", leader_epoch=epoch)]
    assert result.partition_errors == {TopicPartition("orders", 2): 88}
    assert result.error_code == 0


def test_offset_fetch_request_shapes() -> None:
    assert offset_fetch_request(7, "g") == {"groupId": "g", "topics": None}
    assert offset_fetch_request(8, "g") == {"groups": [{"groupId": "g", "topics": None}]}


@pytest.mark.parametrize("version", [7, 9])
def test_offset_fetch_retries_coordinator_errors(fake_cluster: Any, config_for: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 9: (0, version)})
    codes = [16, 14, 0]
    broker.on(9, lambda r, s: fetched(r.api_version, "g", [partition(3, 7, epoch=2)], codes.pop(0)))
    with Cluster(config_for(broker)) as cluster:
        result = committed_offsets(cluster, "g", cluster.deadline(5))
    assert result.offsets == [CommittedOffset("orders", 3, 7, leader_epoch=2)]
    assert len(broker.requests_for(9)) == 3


# --- ListOffsets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(1, 12))
def test_list_offsets_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 2: (0, version)})
    broker.topics = {"orders": {0: 0, 1: 0}, "audit": {0: 0}}
    broker.on(
        2,
        lambda r, s: {
            "topics": [
                {
                    "name": t["name"],
                    "partitions": [
                        {"partitionIndex": p["partitionIndex"], "errorCode": 0, "offset": 100} for p in t["partitions"]
                    ],
                }
                for t in r.body["topics"]
            ]
        },
    )
    wanted = [TopicPartition("orders", 1), TopicPartition("orders", 0), TopicPartition("audit", 0)]
    with Cluster(config_for(broker)) as cluster:
        result = end_offsets(cluster, wanted, cluster.deadline(5))
    assert result.offsets == {tp: 100 for tp in wanted} and result.errors == {}
    topic = kp.cls["ListOffsetsRequest"].ListOffsetsTopic
    part = topic.ListOffsetsPartition
    (request,) = broker.requests_for(2)
    assert framing.frame(broker.raw_for(2)[0]) == kp.frame(
        "ListOffsetsRequest",
        version,
        request.correlation_id,
        "groupctl",
        replica_id=-1,
        isolation_level=0,
        topics=[
            topic(name="audit", partitions=[part(partition_index=0, current_leader_epoch=-1, timestamp=-1)]),
            topic(
                name="orders",
                partitions=[part(partition_index=p, current_leader_epoch=-1, timestamp=-1) for p in (0, 1)],
            ),
        ],
        timeout_ms=request.body.get("timeoutMs", 0),
    )
    if version >= 10:
        assert 0 < request.body["timeoutMs"] <= 5000


@pytest.mark.parametrize("version", range(1, 12))
def test_list_offsets_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    cls = kp.cls["ListOffsetsResponse"].ListOffsetsTopicResponse
    p = cls.ListOffsetsPartitionResponse
    wire = kp.frame(
        "ListOffsetsResponse",
        version,
        2,
        topics=[
            cls(
                name="orders",
                partitions=[
                    p(partition_index=0, error_code=0, timestamp=-1, offset=1234, leader_epoch=5),
                    p(partition_index=1, error_code=6, timestamp=-1, offset=-1, leader_epoch=-1),
                ],
            )
        ],
    )
    answers = parse_list_offsets(framing.decode_response(wire[4:], 2, version).body)
    assert answers == {TopicPartition("orders", 0): (0, 1234), TopicPartition("orders", 1): (6, -1)}


def test_list_offsets_request_shape() -> None:
    body = list_offsets_request(10, {"t": [2, 1]}, timeout_ms=1500)
    assert body == {
        "replicaId": -1,
        "topics": [
            {
                "name": "t",
                "partitions": [{"partitionIndex": 1, "timestamp": -1}, {"partitionIndex": 2, "timestamp": -1}],
            }
        ],
        "timeoutMs": 1500,
    }
    assert "timeoutMs" not in list_offsets_request(9, {"t": [0]})


def _offsets_reply(request: Any, answer: Any) -> dict[str, Any]:
    """A ListOffsets body with `answer(partition) -> (error code, offset)` for each partition asked."""
    return {
        "topics": [
            {
                "name": t["name"],
                "partitions": [
                    dict(
                        zip(
                            ("partitionIndex", "errorCode", "offset"),
                            (p["partitionIndex"], *answer(p["partitionIndex"])),
                            strict=True,
                        )
                    )
                    for p in t["partitions"]
                ],
            }
            for t in request.body["topics"]
        ]
    }


def test_end_offsets_follow_a_moved_leader(fake_cluster: Any, config_for: Any) -> None:
    b0, b1 = fake_cluster(2)
    leaders = {0: 0, 1: 1}
    b0.topics = b1.topics = {"orders": leaders}

    def moved(request: Any, state: Any) -> dict[str, Any]:
        leaders[1] = 0  # partition 1 moved to broker 0: the next Metadata says so
        return _offsets_reply(request, lambda p: (6, -1))

    b0.on(2, lambda r, s: _offsets_reply(r, lambda p: (0, 10 * (p + 1))))
    b1.on(2, moved)
    wanted = [TopicPartition("orders", 0), TopicPartition("orders", 1), TopicPartition("ghost", 0)]
    with Cluster(config_for(b0)) as cluster:
        result = end_offsets(cluster, wanted, cluster.deadline(5))
    assert result.offsets == {TopicPartition("orders", 0): 10, TopicPartition("orders", 1): 20}
    assert result.errors == {TopicPartition("ghost", 0): "UNKNOWN_TOPIC_OR_PARTITION"}
    assert len(b1.requests_for(2)) == 1 and len(b0.requests_for(2)) == 2
    assert len(b0.requests_for(3)) + len(b1.requests_for(3)) == 2


def test_end_offsets_give_up_at_the_deadline(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.topics = {"orders": {0: 0, 1: 0}}
    broker.on(
        2,
        lambda r, s: {
            "topics": [
                {
                    "name": "orders",
                    "partitions": [
                        {
                            "partitionIndex": p["partitionIndex"],
                            "errorCode": 0 if p["partitionIndex"] == 0 else 5,
                            "offset": 3,
                        }
                        for p in r.body["topics"][0]["partitions"]
                    ],
                }
            ]
        },
    )
    start = time.monotonic()
    with Cluster(config_for(broker), timeout=0.5) as cluster:
        result = end_offsets(cluster, [TopicPartition("orders", 0), TopicPartition("orders", 1)], cluster.deadline())
    assert time.monotonic() - start < 2.5
    assert result.offsets == {TopicPartition("orders", 0): 3}
    assert result.errors == {TopicPartition("orders", 1): "LEADER_NOT_AVAILABLE"}
