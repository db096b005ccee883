"""The dump audit: every rule fires on its case and stays quiet on the near miss; exact summaries."""

from __future__ import annotations

import json
import struct
import uuid
from pathlib import Path

import pytest

from groupctl.describe import describe_all_replayed
from groupctl.dumps import audit_dumps
from groupctl.log import fast
from groupctl.log.audit import SEVERITIES, Auditor, AuditReport, at_or_above
from groupctl.log.decode import decode_record, open_inputs
from groupctl.log.replay import Replay
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import (
    BASE_TS,
    classic_group,
    consumer_group_records,
    group_tombstone,
    mixed_dump,
    offset_commit,
    offset_tombstone,
    write_sample_dump,
)
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.model import Finding
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import encode_key, encode_value
from tests.log.conftest import COMPILED_LOOP_ONLY

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

TS = BASE_TS
TOPIC_ID = uuid.UUID(int=0x1234_5678_9ABC_DEF0_1122_3344_5566_7788)
TID = uuid_to_kafka(TOPIC_ID)


class Dump:
    """A segment written batch by batch into a temporary partition directory, then audited."""

    def __init__(self, tmp_path: Path) -> None:
        self.directory = tmp_path / "__consumer_offsets-0"
        self.writer = SegmentWriter(self.directory)

    def add(self, *records: SimpleRecord, **options: object) -> int:
        """One batch; returns its base offset."""
        return self.writer.append(list(records), **options).base_offset

    def txn(self, producer_id: int, *records: SimpleRecord) -> int:
        return self.add(*records, producer_id=producer_id, producer_epoch=0, base_sequence=0,
                        is_transactional=True)

    def marker(self, kind: str, producer_id: int, ts: int = TS) -> int:
        return self.writer.append_control(kind, coordinator_epoch=1, producer_id=producer_id, producer_epoch=0,
                                          timestamp=ts).base_offset

    def audit(self) -> AuditReport:
        self.writer.close()
        report = audit_dumps(open_inputs([self.directory]))
        for f in report.findings:  # evidence must survive any output format
            assert json.loads(json.dumps(f.evidence)) == f.evidence
        json.dumps([report.by_group, report.by_type, report.totals])
        return report


def only(report: AuditReport, rule: str) -> list[Finding]:
    return [f for f in report.findings if f.rule == rule]


def rules(report: AuditReport) -> set[str]:
    return {f.rule for f in report.findings}


@pytest.fixture
def dump(tmp_path: Path) -> Dump:
    return Dump(tmp_path)


def commit_v1(group: str, topic: str, partition: int, offset: int, ts: int, expire: int) -> SimpleRecord:
    """OffsetCommitValue v1: the only version with an expire timestamp (old OffsetCommit retention)."""
    key = encode_key(1, {"group": group, "topic": topic, "partition": partition})
    value = encode_value(1, 1, {"offset": offset, "metadata": "", "commitTimestamp": ts, "expireTimestamp": expire})
    return SimpleRecord(key, value, ts)


def group_epoch(group: str, epoch: int, ts: int = TS) -> SimpleRecord:
    return SimpleRecord(encode_key(3, {"groupId": group}), encode_value(3, 0, {"epoch": epoch, "metadataHash": 0}), ts)


def assignment_epoch(group: str, epoch: int, ts: int = TS) -> SimpleRecord:
    return SimpleRecord(encode_key(6, {"groupId": group}),
                        encode_value(6, 0, {"assignmentEpoch": epoch, "assignmentTimestamp": 0}), ts)


def current_assignment(group: str, member: str, assigned: list[int], pending: list[int] = (), epoch: int = 3,
                       ts: int = TS) -> SimpleRecord:
    def parts(ps: list[int]) -> list[dict]:
        return [{"topicId": TOPIC_ID, "partitions": list(ps), "assignmentEpochs": None}] if ps else []

    value = {"memberEpoch": epoch, "previousMemberEpoch": epoch - 1, "state": 1 if pending else 0,
             "assignedPartitions": parts(assigned), "partitionsPendingRevocation": parts(pending)}
    return SimpleRecord(encode_key(8, {"groupId": group, "memberId": member}), encode_value(8, 0, value), ts)


def tombstone(record_type: int, ts: int = TS, **key: str) -> SimpleRecord:
    return SimpleRecord(encode_key(record_type, key), None, ts)


def classic_with_bytes(group: str, protocol_type: str, subscription: bytes, assignment: bytes) -> SimpleRecord:
    """A GroupMetadataValue v3 with one member whose protocol bytes are given as is."""
    value = {
        "protocolType": protocol_type, "generation": 2, "protocol": "range", "leader": "m-1",
        "currentStateTimestamp": TS, "members": [{
            "memberId": "m-1", "groupInstanceId": None, "clientId": "m", "clientHost": "/10.0.0.1",
            "rebalanceTimeout": 300000, "sessionTimeout": 45000, "subscription": subscription,
            "assignment": assignment,
        }],
    }
    return SimpleRecord(encode_key(2, {"group": group}), encode_value(2, 3, value), TS)


# --- 1. hanging-transaction -----------------------------------------------------------------------


def test_hanging_transaction(dump: Dump):
    dump.add(offset_commit("etl", "in", 0, 10, TS))
    first = dump.txn(7, offset_commit("etl", "in", 0, 20, TS + 1), offset_commit("etl", "in", 1, 30, TS + 1))
    dump.add(offset_commit("other", "x", 0, 1, TS + 2))
    (f,) = only(dump.audit(), "hanging-transaction")
    assert (f.severity, f.group) == ("error", "etl")
    assert f.evidence["producerId"] == 7
    assert f.evidence["groups"] == ["etl"]
    assert f.evidence["partitions"] == ["in-0", "in-1"]
    assert f.evidence["logOffset"] == first
    assert f.evidence["logOffsets"] == [first, first + 1]
    assert "last stable offset" in f.explanation


def test_hanging_transaction_over_two_groups_names_both(dump: Dump):
    dump.txn(9, offset_commit("a", "t", 0, 1, TS), offset_commit("b", "t", 0, 1, TS))
    (f,) = only(dump.audit(), "hanging-transaction")
    assert f.group is None and f.evidence["groups"] == ["a", "b"]


def test_completed_transaction_is_not_hanging(dump: Dump):
    dump.txn(7, offset_commit("etl", "in", 0, 20, TS))
    dump.marker("COMMIT", 7)
    dump.txn(8, offset_commit("etl", "in", 1, 20, TS))
    dump.marker("ABORT", 8)
    assert "hanging-transaction" not in rules(dump.audit())


# --- 2. aborted-commit ----------------------------------------------------------------------------


def test_aborted_commit(dump: Dump):
    commit = dump.txn(12, offset_commit("etl", "in", 3, 20, TS), offset_commit("side", "in", 0, 5, TS))
    marker = dump.marker("ABORT", 12)
    found = only(dump.audit(), "aborted-commit")
    assert [(f.severity, f.group) for f in found] == [("info", "etl"), ("info", "side")]
    etl = found[0].evidence
    assert etl["producerId"] == 12 and etl["producerEpoch"] == 0
    assert etl["logOffset"] == marker
    assert etl["partitions"] == ["in-3"]
    assert etl["commitLogOffsets"] == [commit]


def test_committed_transaction_is_not_aborted(dump: Dump):
    dump.txn(12, offset_commit("etl", "in", 3, 20, TS))
    dump.marker("COMMIT", 12)
    dump.marker("ABORT", 12)  # a marker with nothing pending drops nothing
    assert only(dump.audit(), "aborted-commit") == []


# --- 3. offset-rewind -----------------------------------------------------------------------------


def test_offset_rewind(dump: Dump):
    old = dump.add(offset_commit("app", "orders", 2, 500, TS))
    new = dump.add(offset_commit("app", "orders", 2, 120, TS + 1000))
    (f,) = only(dump.audit(), "offset-rewind")
    assert (f.severity, f.group) == ("warning", "app")
    assert f.evidence == {"topic": "orders", "partition": 2, "oldOffset": 500, "newOffset": 120,
                          "oldLogOffset": old, "logOffset": new}


def test_offset_rewind_by_a_committed_transaction(dump: Dump):
    old = dump.add(offset_commit("app", "orders", 0, 500, TS))
    txn = dump.txn(4, offset_commit("app", "orders", 0, 300, TS + 1))
    marker = dump.marker("COMMIT", 4)
    (f,) = only(dump.audit(), "offset-rewind")
    assert f.evidence["oldOffset"] == 500 and f.evidence["newOffset"] == 300
    assert f.evidence["oldLogOffset"] == old and f.evidence["logOffset"] == txn
    assert f.evidence["producerId"] == 4 and f.evidence["markerLogOffset"] == marker


def test_offset_rewind_below_a_transactional_or_legacy_commit(dump: Dump):
    dump.add(offset_commit("app", "orders", 0, 100, TS))
    txn = dump.txn(4, offset_commit("app", "orders", 0, 300, TS + 1))
    dump.marker("COMMIT", 4)
    back = dump.add(offset_commit("app", "orders", 0, 150, TS + 2))
    key = encode_key(0, {"group": "app", "topic": "orders", "partition": 1})
    legacy = dump.add(SimpleRecord(key, encode_value(0, 0, {"offset": 70, "metadata": "", "commitTimestamp": TS}), TS))
    lower = dump.add(offset_commit("app", "orders", 1, 20, TS + 3))
    found = only(dump.audit(), "offset-rewind")
    assert [(f.evidence["oldLogOffset"], f.evidence["logOffset"], f.evidence["oldOffset"], f.evidence["newOffset"])
            for f in found] == [(txn, back, 300, 150), (legacy, lower, 70, 20)]


def test_no_rewind_going_forward_after_delete_or_abort(dump: Dump):
    dump.add(offset_commit("app", "orders", 0, 100, TS), offset_commit("app", "orders", 1, 100, TS))
    dump.add(offset_commit("app", "orders", 0, 100, TS + 1))  # same offset again: not backwards
    dump.add(offset_commit("app", "orders", 0, 180, TS + 2))
    dump.add(offset_tombstone("app", "orders", 1, TS + 3))  # deleted, then committed lower: a fresh start
    dump.add(offset_commit("app", "orders", 1, 5, TS + 4))
    dump.txn(3, offset_commit("app", "orders", 0, 50, TS + 5))  # lower, but aborted
    dump.marker("ABORT", 3)
    dump.txn(4, offset_commit("app", "orders", 0, 60, TS + 6))  # lower, but overtaken by a newer plain commit
    dump.add(offset_commit("app", "orders", 0, 200, TS + 7))
    dump.marker("COMMIT", 4)
    assert only(dump.audit(), "offset-rewind") == []


# --- 4. offset-expired ----------------------------------------------------------------------------


def test_offset_expired(dump: Dump):
    at = dump.add(commit_v1("old", "logs", 0, 42, TS, expire=TS + 1000))
    dump.add(commit_v1("old", "logs", 1, 42, TS, expire=-1))  # v1 without an expire time
    dump.add(offset_commit("busy", "t", 0, 1, TS + 5000))
    (f,) = only(dump.audit(), "offset-expired")
    assert (f.severity, f.group) == ("warning", "old")
    assert f.evidence == {"logOffset": at, "partitions": ["logs-0"], "logOffsets": [at],
                          "expireTimestamps": [TS + 1000], "lastTimestamp": TS + 5000}


def test_offset_expiring_after_the_last_record_is_not_expired(dump: Dump):
    dump.add(commit_v1("old", "logs", 0, 42, TS, expire=TS + 10_000))
    dump.add(offset_commit("busy", "t", 0, 1, TS + 5000))
    assert only(dump.audit(), "offset-expired") == []


# --- 5. recommitted-after-delete ------------------------------------------------------------------


def test_recommitted_after_delete(dump: Dump):
    dump.add(classic_group("job", 1, [("c-1", None, {"t": [0]})], ["t"], TS))
    dump.add(offset_commit("job", "t", 0, 10, TS))
    deleted = dump.add(offset_tombstone("job", "t", 0, TS + 1), group_tombstone("job", TS + 1)) + 1
    again = dump.add(offset_commit("job", "t", 0, 3, TS + 2))
    dump.add(offset_commit("job", "t", 0, 4, TS + 3))
    (f,) = only(dump.audit(), "recommitted-after-delete")
    assert (f.severity, f.group) == ("warning", "job")
    assert f.evidence == {"deleteLogOffset": deleted, "deleteRecordType": 2, "logOffset": again,
                          "partition": "t-0", "commits": 2}


def test_recommitted_after_consumer_group_delete(dump: Dump):
    dump.add(*consumer_group_records("cg", 3, [("m1", None, [0])], "t", TOPIC_ID, TS))
    deleted = dump.add(tombstone(8, groupId="cg", memberId="m1"), tombstone(7, groupId="cg", memberId="m1"),
                       tombstone(5, groupId="cg", memberId="m1"), tombstone(6, groupId="cg"),
                       tombstone(3, groupId="cg")) + 4
    again = dump.add(offset_commit("cg", "t", 0, 1, TS + 1))
    (f,) = only(dump.audit(), "recommitted-after-delete")
    assert f.evidence["deleteRecordType"] == 3
    assert f.evidence["deleteLogOffset"] == deleted and f.evidence["logOffset"] == again


def test_deleted_and_not_recommitted_or_converted(dump: Dump):
    dump.add(classic_group("gone", 1, [("c-1", None, {"t": [0]})], ["t"], TS))
    dump.add(offset_commit("gone", "t", 0, 10, TS))
    dump.add(offset_tombstone("gone", "t", 0, TS + 1), group_tombstone("gone", TS + 1))
    # a classic group upgraded to a consumer group: its metadata tombstone comes with the new records
    dump.add(classic_group("moved", 1, [("c-1", None, {"t": [0]})], ["t"], TS))
    dump.add(group_tombstone("moved", TS + 2),
             *consumer_group_records("moved", 2, [("m1", None, [0])], "t", TOPIC_ID, TS + 2))
    dump.add(offset_commit("moved", "t", 0, 11, TS + 3))
    assert only(dump.audit(), "recommitted-after-delete") == []


# --- 6. orphan-member-records ---------------------------------------------------------------------


def test_member_records_without_group_record(dump: Dump):
    records = [r for r in consumer_group_records("cg", 4, [("m1", None, [0]), ("m2", None, [1])], "t", TOPIC_ID, TS)
               if struct.unpack(">h", r.key[:2])[0] != 3]
    base = dump.add(*records)
    (f,) = only(dump.audit(), "orphan-member-records")
    assert (f.severity, f.group) == ("warning", "cg")
    assert f.evidence["memberIds"] == ["m1", "m2"]
    types = [struct.unpack(">h", r.key[:2])[0] for r in records]
    assert f.evidence["logOffsets"] == [base + i for i, t in enumerate(types) if t in (5, 7, 8)]
    assert f.evidence["logOffset"] == base
    assert "KAFKA-17306" in f.explanation


def test_assignment_without_member_metadata(dump: Dump):
    dump.add(*consumer_group_records("cg", 4, [("m1", None, [0])], "t", TOPIC_ID, TS))
    ghost = dump.add(current_assignment("cg", "ghost", [1], epoch=4))
    (f,) = only(dump.audit(), "orphan-member-records")
    assert f.evidence["memberIds"] == ["ghost"]
    assert f.evidence["logOffsets"] == [ghost]


def test_complete_and_cleanly_deleted_groups_have_no_orphans(dump: Dump):
    dump.add(*consumer_group_records("live", 4, [("m1", None, [0]), ("m2", None, [1])], "t", TOPIC_ID, TS))
    dump.add(*consumer_group_records("left", 2, [("m1", None, [0])], "t", TOPIC_ID, TS))
    dump.add(tombstone(8, groupId="left", memberId="m1"), tombstone(7, groupId="left", memberId="m1"),
             tombstone(5, groupId="left", memberId="m1"), tombstone(6, groupId="left"), tombstone(3, groupId="left"))
    assert only(dump.audit(), "orphan-member-records") == []


# --- 7. empty-group-epoch-mismatch ----------------------------------------------------------------


def test_empty_group_assignment_epoch_behind_is_info(dump: Dump):
    """What a broker without the KAFKA-20442 fix leaves when the last member is fenced: Kafka loads the
    group as Empty and the next join computes a new target, so it is worth knowing, not a warning."""
    meta = dump.add(group_epoch("idle", 7))
    target = dump.add(assignment_epoch("idle", 6))
    (f,) = only(dump.audit(), "empty-group-epoch-mismatch")
    assert (f.severity, f.group) == ("info", "idle")
    assert f.evidence == {"groupEpoch": 7, "assignmentEpoch": 6, "logOffset": meta, "assignmentLogOffset": target}
    assert "KAFKA-20442" in f.explanation and "harmless" in f.explanation


def test_empty_group_assignment_epoch_ahead_is_a_warning(dump: Dump):
    meta = dump.add(group_epoch("stuck", 4))
    target = dump.add(assignment_epoch("stuck", 9))
    (f,) = only(dump.audit(), "empty-group-epoch-mismatch")
    assert (f.severity, f.group) == ("warning", "stuck")
    assert f.evidence == {"groupEpoch": 4, "assignmentEpoch": 9, "logOffset": meta, "assignmentLogOffset": target}
    assert "ahead" in f.explanation and "no new assignment" in f.explanation


def test_empty_group_with_equal_epochs_or_members_is_fine(dump: Dump):
    dump.add(group_epoch("idle", 7), assignment_epoch("idle", 7))
    # epochs differ while members exist: a rebalance in progress, not this rule
    dump.add(*consumer_group_records("busy", 5, [("m1", None, [0])], "t", TOPIC_ID, TS))
    dump.add(group_epoch("busy", 6))
    assert only(dump.audit(), "empty-group-epoch-mismatch") == []


# --- 8. partition-owned-twice ---------------------------------------------------------------------


def test_partition_owned_twice_counting_pending_revocation(dump: Dump):
    dump.add(*consumer_group_records("cg", 3, [("m1", None, [0, 1]), ("m2", None, [2])], "t", TOPIC_ID, TS))
    late = dump.add(current_assignment("cg", "m2", [2], pending=[1]))
    (f,) = only(dump.audit(), "partition-owned-twice")
    assert (f.severity, f.group) == ("error", "cg")
    assert f.evidence["topicId"] == TID and f.evidence["partition"] == 1
    assert f.evidence["memberIds"] == ["m1", "m2"]
    assert late in f.evidence["logOffsets"]


def test_disjoint_assignments(dump: Dump):
    dump.add(*consumer_group_records("cg", 3, [("m1", None, [0, 1]), ("m2", None, [2])], "t", TOPIC_ID, TS))
    dump.add(current_assignment("cg", "m2", [2], pending=[3]))
    # the same partition in another group is no conflict
    dump.add(*consumer_group_records("cg2", 3, [("m1", None, [0, 1])], "t", TOPIC_ID, TS))
    assert only(dump.audit(), "partition-owned-twice") == []


# --- 9. duplicate-instance-id ---------------------------------------------------------------------


def test_duplicate_instance_id_classic(dump: Dump):
    at = dump.add(classic_group("static", 3, [("a-1", "pod-0", {"t": [0]}), ("b-2", "pod-0", {"t": [1]}),
                                             ("c-3", "pod-1", {"t": [2]})], ["t"], TS))
    (f,) = only(dump.audit(), "duplicate-instance-id")
    assert (f.severity, f.group) == ("error", "static")
    assert f.evidence == {"instanceId": "pod-0", "memberIds": ["a-1", "b-2"], "logOffset": at, "logOffsets": [at]}


def test_duplicate_instance_id_consumer_group(dump: Dump):
    base = dump.add(*consumer_group_records("cg", 3, [("m1", "pod-0", [0]), ("m2", "pod-0", [1])], "t", TOPIC_ID,
                                            TS))
    (f,) = only(dump.audit(), "duplicate-instance-id")
    assert f.group == "cg" and f.evidence["memberIds"] == ["m1", "m2"]
    assert f.evidence["logOffsets"] == [base, base + 1]  # their member metadata records


def test_distinct_instance_ids(dump: Dump):
    dump.add(classic_group("static", 3, [("a-1", "pod-0", {"t": [0]}), ("b-2", "pod-1", {"t": [1]}),
                                         ("c-3", None, {"t": [2]}), ("d-4", None, {"t": [3]})], ["t"], TS))
    dump.add(*consumer_group_records("cg", 3, [("m1", "pod-0", [0]), ("m2", "pod-1", [1])], "t", TOPIC_ID, TS))
    # an instance replaced by a newer classic generation is not held twice
    dump.add(classic_group("static", 4, [("e-5", "pod-0", {"t": [0]}), ("b-2", "pod-1", {"t": [1]})], ["t"], TS))
    assert only(dump.audit(), "duplicate-instance-id") == []


# --- 10. undecodable-subscription -----------------------------------------------------------------


def test_undecodable_subscription(dump: Dump):
    """Bytes no version of the consumer protocol reads: a warning."""
    good = classic_group("x", 1, [("m-1", None, {"t": [0]})], ["t"], TS)
    at = dump.add(classic_with_bytes("bad", "consumer", b"\x00\x00\x00\x00\x00\x05", b"\x00"))
    dump.add(good)
    (f,) = only(dump.audit(), "undecodable-subscription")
    assert (f.severity, f.group) == ("warning", "bad")
    assert f.evidence == {"memberId": "m-1", "fields": ["subscription", "assignment"], "logOffset": at,
                          "generation": 2}


def test_an_earlier_version_labelled_newer_is_info(dump: Dump):
    """kafka-go's subscription: version 1 on v0's fields (topics, null user data), which Kafka leaves as base64 too."""
    kafka_go = b"\x00\x01" + encode_subscription({"topics": ["order_created"], "userData": None}, 0)[2:]
    assignment = encode_assignment({"assignedPartitions": [{"topic": "order_created", "partitions": [0]}],
                                    "userData": None}, 1)
    at = dump.add(classic_with_bytes("kgo", "consumer", kafka_go, assignment))
    (f,) = only(dump.audit(), "undecodable-subscription")
    assert (f.severity, f.group) == ("info", "kgo")
    assert f.evidence == {"memberId": "m-1", "fields": ["subscription"], "logOffset": at, "generation": 2,
                          "readsAsVersions": [0]}
    assert "say version 1" in f.explanation and "kafka-go" in f.explanation


def test_mislabelled_and_damaged_fields_together_are_a_warning(dump: Dump):
    kafka_go = b"\x00\x01" + encode_subscription({"topics": ["order_created"], "userData": None}, 0)[2:]
    dump.add(classic_with_bytes("kgo", "consumer", kafka_go, b"\x00\x00\xff"))
    (f,) = only(dump.audit(), "undecodable-subscription")
    assert f.severity == "warning" and f.evidence["fields"] == ["subscription", "assignment"]
    assert "readsAsVersions" not in f.evidence


def test_decodable_or_non_consumer_protocol_bytes(dump: Dump):
    dump.add(classic_group("fine", 1, [("m-1", None, {"t": [0]}), ("m-2", None, {"t": [1]})], ["t"], TS))
    dump.add(classic_with_bytes("connect", "connect", b"\xff\xff\xff", b"\xff"))  # not consumer-protocol bytes
    dump.add(classic_with_bytes("joining", "consumer", b"\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff", b""))
    assert only(dump.audit(), "undecodable-subscription") == []


# --- 11. unknown-record-type ----------------------------------------------------------------------


def unknown_type(record_type: int, ts: int = TS) -> SimpleRecord:
    return SimpleRecord(struct.pack(">h", record_type) + b"\x00\x01g", b"\x00\x00payload", ts)


def test_unknown_record_type(dump: Dump):
    dump.add(offset_commit("g", "t", 0, 1, TS))
    first = dump.add(unknown_type(99), unknown_type(99))
    dump.add(unknown_type(120))
    report = dump.audit()
    found = only(report, "unknown-record-type")
    assert [(f.severity, f.group, f.evidence) for f in found] == [
        ("warning", None, {"recordType": 99, "records": 2, "logOffset": first}),
        ("warning", None, {"recordType": 120, "records": 1, "logOffset": first + 2}),
    ]
    rows = {(r["type"], r["name"]): r["records"] for r in report.by_type}
    assert rows[(99, "UNKNOWN")] == 2 and rows[(120, "UNKNOWN")] == 1


def test_share_and_streams_types_are_known(dump: Dump):
    dump.add(
        SimpleRecord(encode_key(11, {"groupId": "share"}), encode_value(11, 0, {"epoch": 1, "metadataHash": 0}), TS),
        SimpleRecord(encode_key(17, {"groupId": "streams"}), encode_value(17, 0, {"epoch": 1, "metadataHash": 0}), TS),
    )
    report = dump.audit()
    assert report.findings == []
    assert {r["name"] for r in report.by_type} == {"SHARE_GROUP_METADATA", "STREAMS_GROUP_METADATA"}


# --- 12. invalid-batch and undecodable-record -----------------------------------------------------


def test_invalid_batch(dump: Dump):
    dump.add(offset_commit("g", "t", 0, 1, TS))
    dump.add(offset_commit("g", "t", 0, 2, TS + 1))
    dump.writer.close()
    segment = dump.writer.path
    data = bytearray(segment.read_bytes())
    victim = list(iter_batches(bytes(data)))[1]
    data[victim.position + victim.size - 1] ^= 0x55
    segment.write_bytes(bytes(data))
    report = dump.audit()
    (f,) = only(report, "invalid-batch")
    assert (f.severity, f.group) == ("error", None)
    assert f.evidence["file"] == str(segment)
    assert f.evidence["position"] == victim.position
    assert "CRC" in f.evidence["reason"]
    assert report.totals["invalidBatches"] == 1


def test_undecodable_record(dump: Dump):
    dump.add(offset_commit("g", "t", 0, 1, TS))
    bad = dump.add(SimpleRecord(encode_key(1, {"group": "g", "topic": "t", "partition": 1}), b"\x00\x03\x00", TS))
    report = dump.audit()
    (f,) = only(report, "undecodable-record")
    assert (f.severity, f.group) == ("error", "g")
    assert f.evidence["logOffset"] == bad and f.evidence["recordType"] == 1
    assert f.evidence["reason"].startswith("Could not read record with version 3")
    assert [r["name"] for r in report.by_type] == ["OFFSET_COMMIT", "UNDECODABLE"]


def test_clean_batches_have_no_input_findings(dump: Dump):
    dump.add(offset_commit("g", "t", 0, 1, TS), offset_commit("g", "t", 1, 1, TS))
    dump.add(classic_group("g", 1, [("m-1", None, {"t": [0, 1]})], ["t"], TS), codec="zstd")
    report = dump.audit()
    assert report.findings == []
    assert report.totals["invalidBatches"] == 0


# --- summaries ------------------------------------------------------------------------------------


def test_summaries_exact(dump: Dump):
    batches = [
        [offset_commit("g1", "t", 0, 1, TS), offset_commit("g1", "t", 1, 1, TS)],
        [offset_commit("g1", "t", 0, 5, TS + 30_000)],
        [offset_commit("g1", "t", 1, 7, TS + 60_000, version=4, topic_id=TOPIC_ID)],
        [offset_tombstone("g2", "u", 0, TS + 60_000), group_tombstone("g2", TS + 60_000)],
    ]
    for records in batches:
        dump.add(*records)
    dump.marker("COMMIT", 5, ts=TS + 61_000)  # nothing pending: only a control record

    def size(r: SimpleRecord) -> int:
        return len(r.key) + (len(r.value) if r.value is not None else 0)

    commits = [r for b in batches[:3] for r in b]
    report = dump.audit()
    assert report.findings == []
    assert report.by_group == [
        {"group": "g1", "records": 4, "bytes": sum(map(size, commits)), "tombstones": 0, "commits": 4,
         "firstTimestamp": TS, "lastTimestamp": TS + 60_000, "commitsPerMinute": 4.0},
        {"group": "g2", "records": 2, "bytes": sum(map(size, batches[3])), "tombstones": 2, "commits": 0,
         "firstTimestamp": TS + 60_000, "lastTimestamp": TS + 60_000, "commitsPerMinute": None},
    ]
    assert report.by_type == [
        {"type": 1, "name": "OFFSET_COMMIT", "records": 5, "bytes": sum(map(size, commits)) + size(batches[3][0]),
         "tombstones": 1},
        {"type": 2, "name": "GROUP_METADATA", "records": 1, "bytes": size(batches[3][1]), "tombstones": 1},
        {"type": None, "name": "CONTROL", "records": 1, "bytes": 10, "tombstones": 0},
    ]
    total_bytes = sum(size(r) for b in batches for r in b) + 10
    assert report.totals == {"records": 7, "bytes": total_bytes, "tombstones": 2, "tombstoneRatio": 2 / 7,
                             "groups": 2, "firstTimestamp": TS, "lastTimestamp": TS + 61_000, "invalidBatches": 0}


def test_commit_rate_needs_a_time_span(dump: Dump):
    dump.add(offset_commit("once", "t", 0, 1, TS), offset_commit("once", "t", 1, 1, TS))
    (row,) = dump.audit().by_group
    assert row["commits"] == 2 and row["commitsPerMinute"] is None


def test_empty_audit():
    report = Auditor(Replay()).finish()
    assert report.findings == [] and report.by_group == [] and report.by_type == []
    assert report.totals == {"records": 0, "bytes": 0, "tombstones": 0, "tombstoneRatio": 0.0, "groups": 0,
                             "firstTimestamp": None, "lastTimestamp": None, "invalidBatches": 0}


# --- ordering, severities, the replay underneath --------------------------------------------------


def test_findings_sorted_by_severity_group_rule_offset(dump: Dump):
    dump.add(offset_commit("b", "t", 0, 9, TS), offset_commit("a", "t", 0, 9, TS))
    dump.add(offset_commit("b", "t", 0, 5, TS), offset_commit("a", "t", 0, 5, TS))  # two rewinds
    dump.add(offset_commit("b", "t", 0, 1, TS))  # and another in b
    dump.txn(3, offset_commit("z", "t", 0, 1, TS))
    dump.marker("ABORT", 3)
    dump.txn(4, offset_commit("y", "t", 0, 1, TS))  # left hanging
    dump.add(unknown_type(77))
    report = dump.audit()
    keys = [(f.severity, f.group, f.rule, f.evidence.get("logOffset")) for f in report.findings]
    assert keys == [
        ("error", "y", "hanging-transaction", 7),
        ("warning", None, "unknown-record-type", 8),
        ("warning", "a", "offset-rewind", 3),
        ("warning", "b", "offset-rewind", 2),
        ("warning", "b", "offset-rewind", 4),
        ("info", "z", "aborted-commit", 6),
    ]


def test_at_or_above():
    finding = Finding("warning", "offset-rewind", "g", "x", {})
    assert SEVERITIES == ("error", "warning", "info")
    assert [at_or_above(finding, s) for s in SEVERITIES] == [False, True, True]
    with pytest.raises(ValueError, match="unknown severity"):
        at_or_above(finding, "fatal")


def test_observe_applies_every_record_once():
    data = mixed_dump(3000)
    records = [decode_record(b, r) for b in iter_batches(data) for r in b.records]
    own = Replay()
    auditor = Auditor(own)
    for rec in records:
        auditor.observe(rec)
    plain = Replay()
    for rec in records:
        plain.apply(rec)
    assert auditor.replay is own
    assert describe_all_replayed(own) == describe_all_replayed(plain)
    assert own.offsets == plain.offsets and own.pending == plain.pending
    report = auditor.finish()
    assert report.totals["records"] == len(records) == own.records
    assert sum(r["records"] for r in report.by_group) == len(records) - 1  # all but the final marker


# --- whole dumps ----------------------------------------------------------------------------------


def test_sample_dump(tmp_path: Path):
    write_sample_dump(tmp_path)
    report = audit_dumps(open_inputs([tmp_path]))
    (f,) = only(report, "aborted-commit")
    assert f.group == "billing-etl" and f.evidence["producerId"] == 4002
    assert f.evidence["partitions"] == ["invoices-0"]
    assert not any(at_or_above(x, "error") for x in report.findings)
    assert report.totals["records"] == 31 and report.totals["tombstones"] == 2


def test_real_segments(real_segments: list[Path]):
    report = audit_dumps(open_inputs(real_segments))
    assert report.totals["records"] == 1473
    assert report.totals["invalidBatches"] == 0
    assert [f for f in report.findings if f.severity == "error"] == []
    # the kafka-go member whose subscription Kafka leaves as base64: v1 on v0's fields, so info
    (f,) = only(report, "undecodable-subscription")
    assert "kafka-go" in f.evidence["memberId"]
    assert (f.severity, f.evidence["readsAsVersions"]) == ("info", [0])
    assert sum(r["records"] for r in report.by_type) == 1473


@COMPILED_LOOP_ONLY
def test_the_audit_observes_records_in_c(tmp_path: Path, compiled_calls):
    """`audit`, as `dump audit` runs: the reader hands plain batches of offset commits to C whole (`audit_batch`)
    and compressed ones as their records' bytes (`audit_records`); the records of every other batch are observed
    by `observe_batch`; the report is the reference's."""
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(mixed_dump(300))
    with fast.forced(True):
        reference = audit_dumps(open_inputs([path]))
    calls = compiled_calls(fast.built(), "audit_batch", "audit_records", "observe_batch")
    assert audit_dumps(open_inputs([path])) == reference
    assert any(call.answer is not None for call in calls["audit_batch"]), "no plain batch was audited in C"
    assert any(call.answer for call in calls["audit_records"]), "no compressed batch was audited in C"
    assert calls["observe_batch"], "no other batch's records were observed in C"


# -- the compiled contract: what _fastlog.c reads on an auditor and a replay by name -----------------

_FASTLOG_C = Path(__file__).resolve().parents[2] / "groupctl" / "log" / "_fastlog.c"


def test_every_attribute_of_the_compiled_contract_exists_on_real_instances() -> None:
    """A rename of an attribute the compiled audit reads fails here, not as the compiled path missing one."""
    auditor = Auditor()
    replay = auditor.replay
    for owner, names in ((auditor, Auditor.COMPILED_CONTRACT), (replay, Replay.COMPILED_CONTRACT)):
        assert len(set(names)) == len(names)
        missing = [name for name in names if not hasattr(owner, name)]
        assert missing == [], f"{type(owner).__name__} lacks {missing}: rename them in COMPILED_CONTRACT too"
    assert [callable(getattr(auditor, n)) for n in Auditor.COMPILED_CONTRACT] == [False] * 3 + [True] * 3
    assert [type(getattr(replay, n)) for n in Replay.COMPILED_CONTRACT] == [dict, set, int, type(None), type(None)]


def test_the_compiled_source_spells_none_of_the_contract_names() -> None:
    """The names are written once, beside the classes: the C source takes them from there (bind_audit).
    `records` is also a field of Batch, which the C names in its BATCH_FIELDS (checked as slots at setup)."""
    import dataclasses

    from groupctl.log.batch import Batch

    source = _FASTLOG_C.read_text()
    batch_fields = {f.name for f in dataclasses.fields(Batch)}
    spelled = [name for name in (*Auditor.COMPILED_CONTRACT, *Replay.COMPILED_CONTRACT)
               if f'"{name}"' in source and name not in batch_fields]
    assert spelled == []


@COMPILED_LOOP_ONLY
def test_the_compiled_audit_reads_the_names_the_contract_binds() -> None:
    """Bound to a name the auditor does not have, the compiled path fails loudly (it reads what the
    contract says, not names of its own); a contract of the wrong shape is refused."""
    native = fast.module()
    records = [offset_commit("g", "t", 0, n, BASE_TS + n) for n in range(3)]
    data = b"".join(_plain(records, base_offset=i * 3) for i in range(3))
    renamed = ("_commits_renamed", *Auditor.COMPILED_CONTRACT[1:])
    try:
        auditor = Auditor()
        reader = iter_batches(data)
        auditor.attach(reader)  # binds the real contract
        native.bind_audit(renamed, Replay.COMPILED_CONTRACT)
        with pytest.raises(AttributeError, match="_commits_renamed"):
            for batch, recs in reader.decoded():
                auditor.observe_batch(batch, recs)
        with pytest.raises(TypeError, match="a tuple of 6"):
            native.bind_audit(Auditor.COMPILED_CONTRACT[:-1], Replay.COMPILED_CONTRACT)
        with pytest.raises(TypeError, match="is not a str"):
            native.bind_audit(Auditor.COMPILED_CONTRACT, (1, *Replay.COMPILED_CONTRACT[1:]))
    finally:
        native.bind_audit(Auditor.COMPILED_CONTRACT, Replay.COMPILED_CONTRACT)
    # bound again: the same audit goes through
    auditor = Auditor()
    reader = iter_batches(data)
    auditor.attach(reader)
    for batch, recs in reader.decoded():
        auditor.observe_batch(batch, recs)
    assert auditor.finish().totals["records"] == 9


def _plain(records: list[SimpleRecord], base_offset: int) -> bytes:
    from groupctl.log.writer import build_batch

    return build_batch(records, base_offset=base_offset)
