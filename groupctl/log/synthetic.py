"""Synthetic `__consumer_offsets` data, written with groupctl's own encoder and batch writer.

Real broker dumps hold no compressed batches, no KIP-848 records and no transactions (see the
shared vectors' README), so the sample for the Quick start, the decode benchmark and the tests
build those here: every record the way the broker writes it (GroupMetadataValue v3, offset
commits v3/v4, consumer-group records 3-8 and 16, transactional commits with their markers).
Deterministic for a given seed.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

from groupctl.log.writer import SegmentWriter, SimpleRecord, build_batch, build_control_batch
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.records import encode_key, encode_value

BASE_TS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
CODECS = ("gzip", "snappy", "lz4", "zstd")


def offset_commit(group: str, topic: str, partition: int, offset: int, ts: int, *,
                  version: int = 3, topic_id: uuid.UUID | None = None, leader_epoch: int = 0) -> SimpleRecord:
    """An OffsetCommit record as the broker writes it (v3 up to 4.0, v4 with topicId from 4.1)."""
    data = {"offset": offset, "leaderEpoch": leader_epoch, "metadata": "", "commitTimestamp": ts}
    if version == 4:
        data["topicId"] = topic_id or uuid.UUID(int=0)
    key = encode_key(1, {"group": group, "topic": topic, "partition": partition})
    return SimpleRecord(key, encode_value(1, version, data), ts)


def offset_tombstone(group: str, topic: str, partition: int, ts: int) -> SimpleRecord:
    return SimpleRecord(encode_key(1, {"group": group, "topic": topic, "partition": partition}), None, ts)


def classic_group(group: str, generation: int, members: Sequence[tuple[str, str | None, dict[str, list[int]]]],
                  topics: list[str], ts: int) -> SimpleRecord:
    """GroupMetadataValue v3 of a consumer-protocol group; members are (member id, instance id, assignment)."""
    rows = []
    for member_id, instance_id, assigned in members:
        subscription = encode_subscription(
            {"topics": topics, "userData": None,
             "ownedPartitions": [{"topic": t, "partitions": p} for t, p in assigned.items()],
             "generationId": generation - 1, "rackId": None},
            3,
        )
        assignment = encode_assignment(
            {"assignedPartitions": [{"topic": t, "partitions": p} for t, p in assigned.items()], "userData": None},
            3,
        )
        rows.append({
            "memberId": member_id, "groupInstanceId": instance_id, "clientId": member_id.split("-")[0],
            "clientHost": "/127.0.0.1", "rebalanceTimeout": 300000, "sessionTimeout": 45000,
            "subscription": subscription, "assignment": assignment,
        })
    value = {
        "protocolType": "consumer", "generation": generation, "protocol": "range",
        "leader": members[0][0] if members else None, "currentStateTimestamp": ts, "members": rows,
    }
    return SimpleRecord(encode_key(2, {"group": group}), encode_value(2, 3, value), ts)


def group_tombstone(group: str, ts: int) -> SimpleRecord:
    return SimpleRecord(encode_key(2, {"group": group}), None, ts)


def _partitions(topic_id: uuid.UUID, parts: list[int]) -> dict:
    return {"topicId": topic_id, "partitions": parts, "assignmentEpochs": None}


def consumer_group_records(group: str, epoch: int, members: Sequence[tuple[str, str | None, list[int]]],
                           topic: str, topic_id: uuid.UUID, ts: int, regex: str | None = None) -> list[SimpleRecord]:
    """One KIP-848 group at a stable epoch: member metadata (5), group epoch (3), target assignment
    (7, 6) and current assignments (8), plus a resolved regex (16) when members subscribe by one."""
    out = []
    for member_id, instance_id, _ in members:
        out.append(SimpleRecord(
            encode_key(5, {"groupId": group, "memberId": member_id}),
            encode_value(5, 0, {
                "instanceId": instance_id, "rackId": None, "clientId": "consumer", "clientHost": "/127.0.0.1",
                "subscribedTopicNames": [] if regex else [topic], "subscribedTopicRegex": regex,
                "rebalanceTimeoutMs": 300000, "serverAssignor": "uniform", "classicMemberMetadata": None,
            }),
            ts,
        ))
    out.append(SimpleRecord(encode_key(3, {"groupId": group}),
                            encode_value(3, 0, {"epoch": epoch, "metadataHash": 0}), ts))
    if regex:
        out.append(SimpleRecord(encode_key(16, {"groupId": group, "regularExpression": regex}),
                                encode_value(16, 0, {"topics": [topic], "version": 7, "timestamp": ts}), ts))
    for member_id, _, parts in members:
        out.append(SimpleRecord(encode_key(7, {"groupId": group, "memberId": member_id}),
                                encode_value(7, 0, {"topicPartitions": [
                                    {"topicId": topic_id, "partitions": parts}]}), ts))
    out.append(SimpleRecord(encode_key(6, {"groupId": group}),
                            encode_value(6, 0, {"assignmentEpoch": epoch, "assignmentTimestamp": 0}), ts))
    for member_id, _, parts in members:
        out.append(SimpleRecord(
            encode_key(8, {"groupId": group, "memberId": member_id}),
            encode_value(8, 0, {"memberEpoch": epoch, "previousMemberEpoch": epoch - 1, "state": 0,
                                "assignedPartitions": [_partitions(topic_id, parts)],
                                "partitionsPendingRevocation": []}),
            ts,
        ))
    return out


def sample_batches(seed: int = 7) -> Iterator[tuple[list[SimpleRecord], dict]]:
    """The Quick start sample: (records, batch options) pairs covering every case worth seeing once."""
    rng = random.Random(seed)
    ts = BASE_TS
    orders_id = uuid.UUID(int=rng.getrandbits(128))
    payments_id = uuid.UUID(int=rng.getrandbits(128))
    static = [(f"consumer-orders-{i}-{uuid.UUID(int=rng.getrandbits(128))}", f"orders-{i}", {"orders": [i]})
              for i in range(3)]
    yield [classic_group("orders-app", 1, static, ["orders"], ts)], {}
    yield [offset_commit("orders-app", "orders", p, 100 + p, ts + 5) for p in range(3)], {}
    yield [offset_commit("orders-app", "orders", p, 180 + p, ts + 60_000, version=4, topic_id=orders_id)
           for p in range(3)], {"codec": "zstd"}
    members = [(f"m{i}-{uuid.UUID(int=rng.getrandbits(128)).hex[:12]}", None, [i, i + 3]) for i in range(3)]
    yield consumer_group_records("payments-app", 4, members, "payments", payments_id, ts + 90_000,
                                 regex="payments.*"), {"codec": "gzip"}
    yield [offset_commit("payments-app", "payments", p, 7_000 + p, ts + 95_000, version=4, topic_id=payments_id)
           for p in range(6)], {"codec": "lz4"}
    yield [offset_commit("billing-etl", "invoices", 0, 500, ts + 120_000)], {
        "producer_id": 4001, "producer_epoch": 0, "base_sequence": 0, "is_transactional": True}
    yield [], {"marker": "COMMIT", "producer_id": 4001, "producer_epoch": 0, "timestamp": ts + 121_000}
    yield [offset_commit("billing-etl", "invoices", 0, 450, ts + 130_000)], {
        "producer_id": 4002, "producer_epoch": 3, "base_sequence": 0, "is_transactional": True}
    yield [], {"marker": "ABORT", "producer_id": 4002, "producer_epoch": 3, "timestamp": ts + 131_000}
    yield [offset_tombstone("old-job", "logs", 0, ts + 200_000), group_tombstone("old-job", ts + 200_000)], {
        "codec": "snappy"}


def write_sample_dump(directory: Path, seed: int = 7) -> Path:
    """Write the sample as `directory/__consumer_offsets-0/00000000000000000000.log`; returns the segment."""
    partition = directory / "__consumer_offsets-0"
    segment = partition / "00000000000000000000.log"
    if segment.exists():
        segment.unlink()
    with SegmentWriter(partition) as writer:
        for records, options in sample_batches(seed):
            opts = dict(options)
            marker = opts.pop("marker", None)
            if marker:
                writer.append_control(marker, coordinator_epoch=5, partition_leader_epoch=0, **opts)
            else:
                writer.append(records, partition_leader_epoch=0, **opts)
    return segment


def mixed_dump(records: int, seed: int = 1, groups: int = 200, partitions: int = 24) -> bytes:
    """A benchmark dump of about `records` records, as one segment's bytes.

    Mostly offset commits (v3 and v4, keys repeating across groups x partitions) in batches of 1 to
    10 records, with classic group metadata and KIP-848 records mixed in, one batch in eight
    compressed (rotating gzip, snappy, lz4, zstd).
    """
    rng = random.Random(seed)
    topic_ids = {f"topic-{t}": uuid.UUID(int=rng.getrandbits(128)) for t in range(8)}
    topics = list(topic_ids)
    out: list[bytes] = []
    offset = 0
    written = 0
    batch_no = 0
    ts = BASE_TS
    committed: dict[tuple[int, str, int], int] = {}
    while written < records:
        batch_no += 1
        ts += rng.randint(1, 50)
        kind = rng.random()
        if kind < 0.02:
            g = rng.randrange(groups)
            topic = rng.choice(topics)
            members = [(f"consumer-{g}-{i}-{rng.getrandbits(64):016x}", f"pod-{i}" if g % 2 else None,
                        {topic: [i, i + 4]}) for i in range(4)]
            batch = [classic_group(f"group-{g}", rng.randint(1, 50), members, [topic], ts)]
        elif kind < 0.04:
            g = rng.randrange(groups)
            topic = rng.choice(topics)
            consumers = [(f"member-{g}-{i}", None, [i, i + 3]) for i in range(3)]
            batch = consumer_group_records(f"cgroup-{g}", rng.randint(1, 100), consumers, topic, topic_ids[topic], ts)
        else:
            g = rng.randrange(groups)
            topic = topics[g % len(topics)]
            version = 4 if g % 3 == 0 else 3
            batch = []
            for p in rng.sample(range(partitions), rng.randint(1, 10)):
                key = (g, topic, p)
                committed[key] = committed.get(key, 0) + rng.randint(0, 500)
                batch.append(offset_commit(f"group-{g}", topic, p, committed[key], ts, version=version,
                                           topic_id=topic_ids[topic]))
        codec = CODECS[batch_no // 8 % 4] if batch_no % 8 == 0 else "none"
        out.append(build_batch(batch, base_offset=offset, codec=codec, partition_leader_epoch=3))
        offset += len(batch)
        written += len(batch)
    if records > 0:
        out.append(build_control_batch("COMMIT", coordinator_epoch=1, producer_id=9, producer_epoch=0,
                                       timestamp=ts, base_offset=offset))
    return b"".join(out)
