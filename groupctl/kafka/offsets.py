"""Offsets for lag: a group's committed offsets (OffsetFetch) and log end offsets (ListOffsets).

OffsetFetch goes to the group's coordinator, v2-v9: v2 is the first to fetch every partition at
once (null topics), and v10 answers with topic ids only. ListOffsets goes to each partition's
leader, latest offset (timestamp -1), read_uncommitted as Kafka's admin client does by default;
a moved leader is looked up again until the deadline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.coordinator import INITIAL_BACKOFF_S, MAX_BACKOFF_S, on_coordinators
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import ConnectionFailed, ProtocolFailure, error_name
from groupctl.model import CommittedOffset, TopicPartition

OFFSET_FETCH: Final = 9
OFFSET_FETCH_VERSIONS: Final = range(2, 10)
OFFSET_FETCH_BATCHED_FROM: Final = 8
LIST_OFFSETS: Final = 2
LIST_OFFSETS_VERSIONS: Final = range(1, 12)
LATEST: Final = -1
CONSUMER_REPLICA_ID: Final = -1

UNKNOWN_TOPIC_OR_PARTITION: Final = 3
RETRIABLE_PARTITION_ERRORS: Final = frozenset(
    {
        5,  # LEADER_NOT_AVAILABLE
        6,  # NOT_LEADER_OR_FOLLOWER
        7,  # REQUEST_TIMED_OUT
        9,  # REPLICA_NOT_AVAILABLE
        56,  # KAFKA_STORAGE_ERROR
        74,  # FENCED_LEADER_EPOCH
        75,  # UNKNOWN_LEADER_EPOCH
        78,  # OFFSET_NOT_AVAILABLE
    }
)


# --- OffsetFetch ----------------------------------------------------------------------------------


@dataclass
class OffsetFetchResult:
    """A group's committed offsets (partitions without one are left out) and per-partition errors."""

    group_id: str
    error_code: int
    offsets: list[CommittedOffset] = field(default_factory=list)
    partition_errors: dict[TopicPartition, int] = field(default_factory=dict)

    @property
    def error_name(self) -> str:
        return error_name(self.error_code)


def offset_fetch_request(version: int, group_id: str) -> dict[str, Any]:
    """Every partition of `group_id` (null topics); v8+ in the batched shape, for one group."""
    if version >= OFFSET_FETCH_BATCHED_FROM:
        return {"groups": [{"groupId": group_id, "topics": None}]}
    return {"groupId": group_id, "topics": None}


def parse_offset_fetch(body: dict[str, Any], version: int, group_id: str) -> OffsetFetchResult:
    if version >= OFFSET_FETCH_BATCHED_FROM:
        found = [g for g in body["groups"] if g["groupId"] == group_id]
        if not found:
            raise ProtocolFailure(f"OffsetFetch v{version} answered without group '{group_id}'")
        error, topics = found[0]["errorCode"], found[0]["topics"]
    else:
        error, topics = body.get("errorCode", 0), body["topics"]
    result = OffsetFetchResult(group_id, error)
    for topic in topics:
        for p in topic["partitions"]:
            tp = TopicPartition(topic["name"], p["partitionIndex"])
            if p["errorCode"]:
                result.partition_errors[tp] = p["errorCode"]
            elif p["committedOffset"] >= 0:
                epoch = p.get("committedLeaderEpoch", -1)
                result.offsets.append(
                    CommittedOffset(
                        tp.topic,
                        tp.partition,
                        p["committedOffset"],
                        metadata=p["metadata"] or "",
                        leader_epoch=epoch if epoch >= 0 else None,
                    )
                )
    result.offsets.sort(key=lambda o: (o.topic, o.partition))
    return result


def committed_offsets(cluster: Cluster, group_id: str, deadline: Deadline) -> OffsetFetchResult:
    """OffsetFetch on the group's coordinator, retried through coordinator moves and loads."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, OffsetFetchResult]:
        version, body = conn.call(OFFSET_FETCH, OFFSET_FETCH_VERSIONS, lambda v: offset_fetch_request(v, group_id), dl)
        return {group_id: parse_offset_fetch(body, version, group_id)}

    return on_coordinators(cluster, [group_id], send, lambda r: r.error_code, deadline, "OffsetFetch")[group_id]


# --- ListOffsets ----------------------------------------------------------------------------------


@dataclass
class EndOffsets:
    """Log end offsets by partition, and why the others have none (an error name or a reason)."""

    offsets: dict[TopicPartition, int] = field(default_factory=dict)
    errors: dict[TopicPartition, str] = field(default_factory=dict)


def list_offsets_request(
    version: int, partitions: Mapping[str, Sequence[int]], timeout_ms: int = 30_000, timestamp: int = LATEST
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "replicaId": CONSUMER_REPLICA_ID,
        "topics": [
            {"name": topic, "partitions": [{"partitionIndex": p, "timestamp": timestamp} for p in sorted(ps)]}
            for topic, ps in sorted(partitions.items())
        ],
    }
    if version >= 10:
        body["timeoutMs"] = timeout_ms
    return body


def parse_list_offsets(body: dict[str, Any]) -> dict[TopicPartition, tuple[int, int]]:
    """`partition -> (error code, offset)`."""
    return {
        TopicPartition(t["name"], p["partitionIndex"]): (p["errorCode"], p["offset"])
        for t in body["topics"]
        for p in t["partitions"]
    }


def end_offsets(cluster: Cluster, partitions: Iterable[TopicPartition], deadline: Deadline) -> EndOffsets:
    """The latest offset of each partition, asked of its leader; leaders that moved are looked up
    again (Metadata) after a backoff, until the deadline. Unknown topics and partitions, and
    partitions still failing at the deadline, land in `errors`."""
    result = EndOffsets()
    pending = set(partitions)
    last: dict[TopicPartition, str] = {}
    backoff = INITIAL_BACKOFF_S
    while pending:
        metadata = cluster.metadata(deadline, sorted({tp.topic for tp in pending}))
        by_leader: dict[int, list[TopicPartition]] = {}
        for tp in sorted(pending):
            topic = metadata.topics.get(tp.topic)
            code = UNKNOWN_TOPIC_OR_PARTITION if topic is None else topic.error_code
            partition = topic.partitions.get(tp.partition) if topic is not None else None
            if code == 0 and partition is None:
                code = UNKNOWN_TOPIC_OR_PARTITION
            if code and code not in RETRIABLE_PARTITION_ERRORS:
                result.errors[tp] = error_name(code)
            elif code or partition is None or partition.leader_id not in metadata.brokers:
                last[tp] = error_name(code) if code else "no leader"
            else:
                by_leader.setdefault(partition.leader_id, []).append(tp)
        for leader, tps in by_leader.items():
            _ask_leader(cluster, metadata.brokers[leader], tps, deadline, result, last)
        pending -= result.offsets.keys() | result.errors.keys()
        if not pending or deadline.remaining() <= 0:
            break
        deadline.sleep(backoff)
        backoff = min(backoff * 2, MAX_BACKOFF_S)
        if deadline.expired:
            break
    for tp in pending:
        result.errors[tp] = last.get(tp, "timed out")
    return result


def _ask_leader(
    cluster: Cluster,
    broker: Broker,
    tps: list[TopicPartition],
    deadline: Deadline,
    result: EndOffsets,
    last: dict[TopicPartition, str],
) -> None:
    by_topic: dict[str, list[int]] = {}
    for tp in tps:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    timeout_ms = max(1, int(min(deadline.remaining(), cluster.config.request_timeout_ms / 1000) * 1000))
    try:
        conn = cluster.connection(broker, deadline)
        _, body = conn.call(
            LIST_OFFSETS, LIST_OFFSETS_VERSIONS, lambda v: list_offsets_request(v, by_topic, timeout_ms), deadline
        )
    except ConnectionFailed as exc:
        cluster.drop(broker.node_id)
        for tp in tps:
            last[tp] = str(exc)
        return
    answers = parse_list_offsets(body)
    for tp in tps:
        code, offset = answers.get(tp, (UNKNOWN_TOPIC_OR_PARTITION, -1))
        if code == 0:
            result.offsets[tp] = offset
        elif code in RETRIABLE_PARTITION_ERRORS or code == UNKNOWN_TOPIC_OR_PARTITION:
            last[tp] = error_name(code)
        else:
            result.errors[tp] = error_name(code)
