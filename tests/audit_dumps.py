"""A broker log dir whose audit raises every finding kind, spread over partition directories.

Shared by the audit merge tests and the Spark tests (fixture `every_finding`). Most partitions are
independent, as in a real cluster; two of them (4 and 5) share a group and a producer id (dumps of
two clusters mixed), which a per-partition audit cannot merge as is; one partition is given as
kafka-dump-log text instead of a segment. The expired offset is only expired against the last
timestamp of another partition.
"""

from __future__ import annotations

import struct
import uuid
from pathlib import Path

from groupctl.log.decode import open_inputs
from groupctl.log.dumplog import write_dump_log
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import (
    BASE_TS,
    classic_group,
    consumer_group_records,
    group_tombstone,
    offset_commit,
    offset_tombstone,
)
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.protocol.records import encode_key, encode_value

TS = BASE_TS
TOPIC_ID = uuid.UUID(int=0x1234_5678_9ABC_DEF0_1122_3344_5566_7788)


def _commit_v1(group: str, topic: str, partition: int, offset: int, ts: int, expire: int) -> SimpleRecord:
    key = encode_key(1, {"group": group, "topic": topic, "partition": partition})
    value = encode_value(1, 1, {"offset": offset, "metadata": "m", "commitTimestamp": ts, "expireTimestamp": expire})
    return SimpleRecord(key, value, ts)


def _current(group: str, member: str, assigned: list[int], pending: list[int], epoch: int) -> SimpleRecord:
    def parts(ps: list[int]) -> list[dict]:
        return [{"topicId": TOPIC_ID, "partitions": ps, "assignmentEpochs": None}] if ps else []

    value = {"memberEpoch": epoch, "previousMemberEpoch": epoch - 1, "state": 1 if pending else 0,
             "assignedPartitions": parts(assigned), "partitionsPendingRevocation": parts(pending)}
    return SimpleRecord(encode_key(8, {"groupId": group, "memberId": member}), encode_value(8, 0, value), TS)


def _record(record_type: int, value: dict, **key: str) -> SimpleRecord:
    return SimpleRecord(encode_key(record_type, key), encode_value(record_type, 0, value), TS)


def _unknown(record_type: int) -> SimpleRecord:
    return SimpleRecord(struct.pack(">h", record_type) + b"\x00\x01g", b"\x00\x00payload", TS)


def _bad_subscription(group: str) -> SimpleRecord:
    value = {
        "protocolType": "consumer", "generation": 2, "protocol": "range", "leader": "m-1",
        "currentStateTimestamp": TS, "members": [{
            "memberId": "m-1", "groupInstanceId": None, "clientId": "m", "clientHost": "/10.0.0.1",
            "rebalanceTimeout": 300000, "sessionTimeout": 45000, "subscription": b"\x00\x00\x00\x00\x00\x05",
            "assignment": b"\x00",
        }],
    }
    return SimpleRecord(encode_key(2, {"group": group}), encode_value(2, 3, value), TS)


class _Partition:
    def __init__(self, root: Path, n: int) -> None:
        self.writer = SegmentWriter(root / f"__consumer_offsets-{n}")

    def add(self, *records: SimpleRecord, **options: object) -> None:
        self.writer.append(list(records), **options)

    def txn(self, producer_id: int, *records: SimpleRecord) -> None:
        self.add(*records, producer_id=producer_id, producer_epoch=0, base_sequence=0, is_transactional=True)

    def marker(self, kind: str, producer_id: int, ts: int = TS) -> None:
        self.writer.append_control(kind, coordinator_epoch=1, producer_id=producer_id, producer_epoch=0, timestamp=ts)

    def close(self) -> Path:
        self.writer.close()
        return self.writer.path


def write_every_finding(root: Path) -> list[Path]:
    """Write the dump under `root`; returns the PATHs to audit (the log dir, then a dump-log text file)."""
    logs = root / "kafka-logs"
    p0 = _Partition(logs, 0)  # transactions and rewinds
    p0.add(offset_commit("etl", "in", 0, 10, TS))
    p0.txn(7, offset_commit("etl", "in", 0, 20, TS + 1), offset_commit("etl", "in", 1, 30, TS + 1))  # hangs
    p0.txn(12, offset_commit("side", "in", 3, 20, TS + 2))
    p0.marker("ABORT", 12)
    p0.add(offset_commit("app", "orders", 2, 500, TS + 3))
    p0.add(offset_commit("app", "orders", 2, 120, TS + 4))
    p0.close()

    p1 = _Partition(logs, 1)  # expiry, deletion, unknown types
    p1.add(_commit_v1("old", "logs", 0, 42, TS, expire=TS + 50_000))
    p1.add(classic_group("job", 1, [("c-1", None, {"t": [0]})], ["t"], TS))
    p1.add(offset_commit("job", "t", 0, 10, TS))
    p1.add(offset_tombstone("job", "t", 0, TS + 1), group_tombstone("job", TS + 1))
    p1.add(offset_commit("job", "t", 0, 3, TS + 2))
    p1.add(_unknown(99), _unknown(99))
    p1.close()

    p2 = _Partition(logs, 2)  # KIP-848 and classic membership
    records = consumer_group_records("orphan", 4, [("m1", None, [0])], "t", TOPIC_ID, TS)
    p2.add(*[r for r in records if struct.unpack(">h", r.key[:2])[0] != 3])
    p2.add(_record(3, {"epoch": 7, "metadataHash": 0}, groupId="idle"),
           _record(6, {"assignmentEpoch": 6, "assignmentTimestamp": 0}, groupId="idle"))
    p2.add(*consumer_group_records("owned", 3, [("m1", None, [0, 1]), ("m2", None, [2])], "t", TOPIC_ID, TS))
    p2.add(_current("owned", "m2", [2], [1], 3))
    p2.add(classic_group("static", 3, [("a-1", "pod-0", {"t": [0]}), ("b-2", "pod-0", {"t": [1]})], ["t"], TS))
    p2.add(*consumer_group_records("cstatic", 3, [("m1", "pod-0", [0]), ("m2", "pod-0", [1])], "t", TOPIC_ID, TS),
           codec="zstd")
    p2.add(_bad_subscription("kgo"))
    p2.close()

    p3 = _Partition(logs, 3)  # damage
    p3.add(offset_commit("g3", "t", 0, 1, TS))
    p3.add(SimpleRecord(encode_key(1, {"group": "g3", "topic": "t", "partition": 1}), b"\x00\x03\x00", TS))
    p3.add(offset_commit("g3", "t", 0, 2, TS + 1), codec="gzip")
    p3.add(_unknown(99), _unknown(120))
    p3.add(offset_commit("g3", "t", 0, 3, TS + 100_000))  # the dump's last timestamp: "old" expired
    segment = p3.close()
    data = bytearray(segment.read_bytes())
    victim = list(iter_batches(bytes(data)))[2]
    data[victim.position + victim.size - 1] ^= 0x55
    segment.write_bytes(bytes(data))

    p4, p5 = _Partition(logs, 4), _Partition(logs, 5)  # mixed clusters: one group, one producer in both
    p4.add(offset_commit("shared", "t", 0, 500, TS))
    p4.txn(30, offset_commit("shared", "t", 1, 50, TS))
    p4.add(offset_commit("alone-4", "t", 0, 1, TS))
    p5.add(offset_commit("shared", "t", 0, 100, TS + 5))  # a rewind only seen across the two
    p5.marker("COMMIT", 30)  # settles p4's transaction: nothing hangs
    p5.add(offset_commit("alone-5", "t", 0, 1, TS))
    p4.close()
    p5.close()

    p6 = _Partition(root / "text", 6)  # shown as kafka-dump-log text
    p6.txn(40, offset_commit("texty", "t", 0, 9, TS + 6))
    p6.marker("ABORT", 40)
    p6.add(offset_commit("texty", "t", 0, 11, TS + 7), offset_tombstone("texty", "t", 1, TS + 7))
    text = root / "p6.txt"
    with text.open("w") as fh:
        for _ in write_dump_log(open_inputs([p6.close()]), fh):
            pass
    return [logs, text]
