"""Replay: records folded into group state by the broker's own loading rules.

Dumps are written with groupctl's writer (`groupctl.log.writer`, `groupctl.log.synthetic`) and read
back through the decoder, so every test goes bytes -> DecodedRecord -> Replay.
"""

from __future__ import annotations

import struct
import uuid
from pathlib import Path

import pytest

from groupctl.describe import describe_all_replayed, describe_replayed
from groupctl.log.decode import DecodedRecord, decode_record, open_inputs
from groupctl.log.replay import ClassicGroupState, ConsumerGroupState, OffsetEntry, Replay
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
from groupctl.log.writer import SimpleRecord, build_batch, build_control_batch
from groupctl.model import TopicPartition
from groupctl.protocol.data.records import (
    ConsumerGroupCurrentMemberAssignmentValue,
    ConsumerGroupMemberMetadataValue,
    ConsumerGroupPartitionMetadataValue,
    ConsumerGroupRegularExpressionValue,
    ConsumerGroupTargetAssignmentMemberValue,
    MemberMetadata,
)
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.record_schemas import EARLY_ACCESS_VALUE_SCHEMAS
from groupctl.protocol.records import encode_key, encode_value

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

TS = BASE_TS
TOPIC_ID = uuid.UUID("6513270e-269e-0d37-f2a7-4de452e6b438")
TOPIC_B64 = uuid_to_kafka(TOPIC_ID)


def entry_fields(*values):
    """Expected (offset, leader epoch, metadata, commit ts, expire ts, topic id, log offset, producer id)."""
    return values


def fields_of(entry: OffsetEntry):
    return (entry.offset, entry.leader_epoch, entry.metadata, entry.commit_timestamp, entry.expire_timestamp,
            entry.topic_id, entry.log_offset, entry.producer_id)


class Log:
    """A `__consumer_offsets` partition written batch by batch at consecutive offsets."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.offset = 0

    def add(self, *records: SimpleRecord, **options) -> Log:
        self.parts.append(build_batch(list(records), base_offset=self.offset, **options))
        self.offset += len(records)
        return self

    def txn(self, producer_id: int, *records: SimpleRecord) -> Log:
        return self.add(*records, producer_id=producer_id, producer_epoch=0, base_sequence=0, is_transactional=True)

    def marker(self, kind: str, producer_id: int) -> Log:
        self.parts.append(build_control_batch(kind, coordinator_epoch=1, producer_id=producer_id, producer_epoch=0,
                                              timestamp=TS, base_offset=self.offset))
        self.offset += 1
        return self

    def records(self) -> list[DecodedRecord]:
        return decoded(b"".join(self.parts))

    def replay(self) -> Replay:
        replay = Replay()
        replay.apply_all(self.records())
        return replay


def decoded(data: bytes) -> list[DecodedRecord]:
    return [decode_record(batch, rec) for batch in iter_batches(data, strict=True) for rec in batch.records]


def record(record_type: int, key: dict, version: int = 0, value: dict | None = None) -> SimpleRecord:
    """Any record type; `value=None` is a tombstone."""
    raw = None if value is None else encode_value(record_type, version, value)
    return SimpleRecord(encode_key(record_type, key), raw, TS)


def commit(offset: int, group: str = "g", topic: str = "t", partition: int = 0, **kw) -> SimpleRecord:
    return offset_commit(group, topic, partition, offset, TS, **kw)


def committed(replay: Replay, group: str = "g") -> dict[tuple[str, int], int]:
    return {tp: e.offset for tp, e in replay.offsets.get(group, {}).items()}


# -- offsets ---------------------------------------------------------------------------------------


def test_plain_commit_and_a_later_commit_replaces_it():
    replay = Log().add(commit(10)).add(commit(20), commit(5, partition=1)).replay()
    assert fields_of(replay.offsets["g"][("t", 0)]) == entry_fields(20, 0, "", TS, None, None, 1, -1)
    assert committed(replay) == {("t", 0): 20, ("t", 1): 5}
    assert replay.pending == {}
    offsets = describe_replayed(replay, "g").offsets
    assert [(o.topic, o.partition, o.offset, o.leader_epoch) for o in offsets] == [("t", 0, 20, 0), ("t", 1, 5, 0)]


def test_value_versions_legacy_type_expire_timestamp_and_topic_id():
    legacy = SimpleRecord(encode_key(0, {"group": "g", "topic": "old", "partition": 0}),
                          encode_value(0, 0, {"offset": 7, "metadata": "m", "commitTimestamp": TS}), TS)
    v1 = record(1, {"group": "g", "topic": "v1", "partition": 0}, 1,
                {"offset": 8, "metadata": "", "commitTimestamp": TS, "expireTimestamp": TS + 99})
    v1_none = record(1, {"group": "g", "topic": "v1", "partition": 1}, 1,
                     {"offset": 9, "metadata": "", "commitTimestamp": TS, "expireTimestamp": -1})
    v4 = commit(10, topic="v4", version=4, topic_id=TOPIC_ID, leader_epoch=-1)
    v4_zero = commit(11, topic="v4", partition=1, version=4)
    replay = Log().add(legacy, v1, v1_none, v4, v4_zero).replay()
    entries = replay.offsets["g"]
    assert fields_of(entries[("old", 0)]) == entry_fields(7, -1, "m", TS, None, None, 0, -1)
    assert entries[("v1", 0)].expire_timestamp == TS + 99
    assert entries[("v1", 1)].expire_timestamp is None
    assert entries[("v4", 0)].topic_id == TOPIC_ID and entries[("v4", 0)].leader_epoch == -1
    assert entries[("v4", 1)].topic_id is None
    by_tp = {(o.topic, o.partition): o for o in describe_replayed(replay, "g").offsets}
    assert by_tp[("v1", 0)].expire_timestamp == TS + 99 and by_tp[("old", 0)].metadata == "m"
    assert by_tp[("v4", 0)].leader_epoch is None


def test_transactional_commit_is_invisible_until_its_commit_marker():
    log = Log().add(commit(1)).txn(7, commit(50), commit(60, partition=1))
    replay = log.replay()
    assert committed(replay) == {("t", 0): 1}
    assert {k: e.offset for k, e in replay.pending[7].items()} == {("g", "t", 0): 50, ("g", "t", 1): 60}
    assert [o.offset for o in describe_replayed(replay, "g").offsets] == [1]
    replay = log.marker("COMMIT", 7).replay()
    assert committed(replay) == {("t", 0): 50, ("t", 1): 60}
    assert replay.offsets["g"][("t", 0)].producer_id == 7 and replay.pending == {}


def test_transactional_commit_is_dropped_on_abort():
    replay = Log().add(commit(1)).txn(7, commit(50)).marker("ABORT", 7).replay()
    assert committed(replay) == {("t", 0): 1}
    assert replay.pending == {}


def test_pending_only_group_exists_as_an_empty_simple_group():
    # The broker creates the group when it replays the offset record, whatever the batch.
    replay = Log().txn(7, commit(50, group="txn-only")).replay()
    assert replay.group_ids() == ["txn-only"]
    desc = describe_replayed(replay, "txn-only")
    assert (desc.type, desc.state, desc.protocol_type, desc.group_epoch) == ("classic", "Empty", "", 0)
    assert desc.offsets == []


def test_newer_offset_wins_on_commit():
    # A plain commit written after the transactional record but before the marker survives the COMMIT.
    replay = Log().txn(7, commit(100)).add(commit(90)).marker("COMMIT", 7).replay()
    assert fields_of(replay.offsets["g"][("t", 0)]) == entry_fields(90, 0, "", TS, None, None, 1, -1)
    # The other way round, the transactional record is the newer one.
    replay = Log().add(commit(90)).txn(7, commit(100)).marker("COMMIT", 7).replay()
    assert fields_of(replay.offsets["g"][("t", 0)]) == entry_fields(100, 0, "", TS, None, None, 1, 7)


def test_interleaved_producers():
    log = (Log().txn(1, commit(5))                      # log offset 0
           .txn(2, commit(6), commit(7, partition=1))   # 1, 2
           .txn(1, commit(8, partition=1))              # 3
           .txn(3, commit(9, group="other")))           # 4
    replay = log.marker("COMMIT", 2).replay()
    assert committed(replay) == {("t", 0): 6, ("t", 1): 7}
    assert set(replay.pending) == {1, 3}
    replay = log.marker("COMMIT", 1).replay()
    # Producer 1's t-0 (log offset 0) is older than producer 2's (1); its t-1 (3) is newer than 2.
    assert committed(replay) == {("t", 0): 6, ("t", 1): 8}
    assert replay.offsets["g"][("t", 1)].producer_id == 1
    replay = log.marker("ABORT", 3).replay()
    assert replay.pending == {} and committed(replay, "other") == {}


def test_tombstone_removes_the_committed_offset_and_every_pending_one():
    log = (Log().add(commit(10), commit(11, partition=1))
           .txn(7, commit(15))
           .txn(8, commit(16), commit(17, partition=1))
           .add(offset_tombstone("g", "t", 0, TS)))
    replay = log.replay()
    assert committed(replay) == {("t", 1): 11}
    # Kafka keeps the open transaction of producer 7, now with nothing pending.
    assert replay.pending[7] == {}
    assert list(replay.pending[8]) == [("g", "t", 1)]
    replay = log.marker("COMMIT", 7).marker("COMMIT", 8).add(offset_tombstone("g", "t", 1, TS)).replay()
    assert replay.offsets == {} and replay.pending == {}
    # The simple group the commits created is still there, empty: only a group tombstone removes it.
    assert replay.group_ids() == ["g"] and describe_replayed(replay, "g").offsets == []
    replay = log.add(group_tombstone("g", TS)).replay()
    assert replay.group_ids() == []
    with pytest.raises(KeyError):
        describe_replayed(replay, "g")


def test_a_transactional_tombstone_applies_at_once():
    replay = Log().add(commit(10)).txn(7, offset_tombstone("g", "t", 0, TS)).replay()
    assert committed(replay) == {}


def test_markers_without_pending_offsets_are_ignored():
    replay = Log().add(commit(1)).marker("COMMIT", 42).marker("ABORT", 43).replay()
    assert committed(replay) == {("t", 0): 1} and replay.pending == {}
    assert replay.records == 3


# -- classic groups --------------------------------------------------------------------------------


MEMBERS = [
    ("consumer-b-2", "pod-b", {"orders": [2, 3]}),
    ("consumer-a-1", "pod-a", {"orders": [0, 1], "audit": [0]}),
]


def test_classic_group_members_and_state():
    replay = Log().add(classic_group("shop", 7, MEMBERS, ["orders", "audit"], TS)).add(commit(4, group="shop")).replay()
    state = replay.classic["shop"]
    assert (state.protocol_type, state.generation, state.protocol, state.leader) == ("consumer", 7, "range",
                                                                                       "consumer-b-2")
    assert state.members[0].assignment["assignedPartitions"] == [{"topic": "orders", "partitions": [2, 3]}]
    assert state.members[0].subscription["topics"] == ["orders", "audit"]
    desc = describe_replayed(replay, "shop", coordinator="__consumer_offsets-3")
    assert (desc.type, desc.state, desc.protocol_type, desc.assignor, desc.group_epoch) == (
        "classic", "Stable", "consumer", "range", 7)
    assert (desc.leader, desc.state_timestamp, desc.coordinator) == ("consumer-b-2", TS, "__consumer_offsets-3")
    assert [m.member_id for m in desc.members] == ["consumer-a-1", "consumer-b-2"]  # sorted by id
    a = desc.members[0]
    assert (a.instance_id, a.client_id, a.host, a.protocol, a.member_epoch) == ("pod-a", "consumer", "/127.0.0.1",
                                                                                "classic", None)
    assert a.assignment == [TopicPartition("audit", 0), TopicPartition("orders", 0), TopicPartition("orders", 1)]
    assert a.subscribed_topics == ["orders", "audit"]
    assert (a.session_timeout_ms, a.rebalance_timeout_ms, a.target_assignment) == (45000, 300000, None)
    assert [o.offset for o in desc.offsets] == [4]


def test_classic_group_without_members_is_empty_and_a_tombstone_removes_only_the_metadata():
    log = Log().add(classic_group("shop", 7, MEMBERS, ["orders"], TS)).add(commit(4, group="shop"))
    replay = log.add(classic_group("shop", 8, [], ["orders"], TS)).replay()
    desc = describe_replayed(replay, "shop")
    assert (desc.state, desc.group_epoch, desc.members, desc.leader) == ("Empty", 8, [], None)
    replay = log.add(group_tombstone("shop", TS)).replay()
    assert "shop" not in replay.classic
    # The offsets stay (no offset tombstone): the group still shows, with them.
    desc = describe_replayed(replay, "shop")
    assert (desc.type, desc.state, desc.protocol_type, [o.offset for o in desc.offsets]) == (
        "classic", "Empty", "", [4])


def test_classic_member_bytes_that_do_not_decode_and_other_protocols():
    member = {"memberId": "m", "groupInstanceId": None, "clientId": "c", "clientHost": "/h", "rebalanceTimeout": -1,
              "sessionTimeout": 10000, "subscription": b"\x00", "assignment": b"\x00\x00\x00\x00\x00\x09"}
    value = {"protocolType": "consumer", "generation": 1, "protocol": "range", "leader": "m",
             "currentStateTimestamp": -1, "members": [member]}
    connect = dict(value, protocolType="connect", members=[dict(member, subscription=b"\x00\x00\x00\x00\x00\x00")])
    replay = Log().add(record(2, {"group": "bad"}, 3, value), record(2, {"group": "conn"}, 3, connect)).replay()
    m = replay.classic["bad"].members[0]
    assert m.subscription is None and m.assignment is None
    assert replay.classic["conn"].members[0].subscription is None
    desc = describe_replayed(replay, "bad")
    assert desc.state_timestamp is None
    assert (desc.members[0].assignment, desc.members[0].subscribed_topics) == ([], [])
    # No rebalance timeout in the record: Kafka loads the session timeout in its place.
    assert desc.members[0].rebalance_timeout_ms == 10000
    assert describe_replayed(replay, "conn").protocol_type == "connect"


def test_classic_state_equality_does_not_depend_on_decoding():
    log = Log().add(classic_group("shop", 7, MEMBERS, ["orders"], TS))
    one, two = log.replay(), log.replay()
    assert one.classic["shop"].members  # decoded on one side only
    assert one.classic["shop"] == two.classic["shop"]
    assert isinstance(one.classic["shop"], ClassicGroupState)


# -- consumer groups (KIP-848) ---------------------------------------------------------------------

CG_MEMBERS = [("m1", "static-1", [0, 3]), ("m0", None, [1, 2])]


def cg_log(epoch: int = 5) -> Log:
    return Log().add(*consumer_group_records("cg", epoch, CG_MEMBERS, "orders", TOPIC_ID, TS))


def member_key(member: str, group: str = "cg") -> dict:
    return {"groupId": group, "memberId": member}


def current(member: str, epoch: int, parts: list[int], *, state: int = 0, revoking: list[int] = (),
            group: str = "cg") -> SimpleRecord:
    def tps(ps):
        return [{"topicId": TOPIC_ID, "partitions": list(ps), "assignmentEpochs": None}] if ps else []

    return record(8, member_key(member, group), 0, {
        "memberEpoch": epoch, "previousMemberEpoch": epoch - 1, "state": state,
        "assignedPartitions": tps(parts), "partitionsPendingRevocation": tps(revoking)})


def test_consumer_group_stable_with_epochs_members_and_topic_names():
    replay = cg_log().add(commit(9, group="cg", topic="orders")).replay()
    state = replay.consumer["cg"]
    assert (state.has_metadata, state.epoch, state.assignment_epoch) == (True, 5, 5)
    assert [(t.topic_id, p) for t in state.targets["m1"].topic_partitions for p in t.partitions] == [
        (TOPIC_ID, 0), (TOPIC_ID, 3)]
    desc = describe_replayed(replay, "cg", topic_names={TOPIC_B64: "orders"})
    assert (desc.type, desc.state, desc.protocol_type, desc.assignor) == ("consumer", "Stable", "consumer", "uniform")
    assert (desc.group_epoch, desc.assignment_epoch, desc.leader) == (5, 5, None)
    assert [m.member_id for m in desc.members] == ["m0", "m1"]
    m1 = desc.members[1]
    assert (m1.instance_id, m1.client_id, m1.host, m1.protocol) == ("static-1", "consumer", "/127.0.0.1", "consumer")
    assert (m1.member_epoch, m1.previous_member_epoch, m1.member_state) == (5, 4, "STABLE")
    assert m1.assignment == m1.target_assignment == [TopicPartition("orders", 0), TopicPartition("orders", 3)]
    assert (m1.subscribed_topics, m1.subscribed_regex, m1.server_assignor) == (["orders"], None, "uniform")
    assert (m1.rebalance_timeout_ms, m1.session_timeout_ms, m1.pending_revocation) == (300000, None, [])
    assert desc.converged and [o.offset for o in desc.offsets] == [9]
    # Without a name for the topic id, the id (Kafka's base64url form) stands in.
    assert describe_replayed(replay, "cg").members[1].assignment[0] == TopicPartition(TOPIC_B64, 0)


def test_each_group_record_is_kept_as_its_generated_class():
    """One type per record from the log to the state: what the state holds is what the record decodes to."""
    topics = {"topics": [{"topicId": TOPIC_ID, "topicName": "orders", "numPartitions": 4, "partitionMetadata": []}]}
    regex = "orders-.*"
    log = Log().add(*consumer_group_records("cg", 3, CG_MEMBERS, "orders-eu", TOPIC_ID, TS, regex=regex))
    replay = log.add(record(4, {"groupId": "cg"}, 0, topics)).replay()
    state = replay.consumer["cg"]
    for member_id in ("m0", "m1"):
        for held, cls in ((state.members, ConsumerGroupMemberMetadataValue),
                          (state.targets, ConsumerGroupTargetAssignmentMemberValue),
                          (state.current, ConsumerGroupCurrentMemberAssignmentValue)):
            assert type(held[member_id]) is cls
    assert type(state.regexes[regex]) is ConsumerGroupRegularExpressionValue
    assert type(state.partition_metadata) is ConsumerGroupPartitionMetadataValue
    # ... equal to the class built from the decoded value itself
    (rec,) = [r for r in log.records() if r.key is not None and r.key.type == 5 and r.key.data["memberId"] == "m1"]
    assert state.members["m1"] == ConsumerGroupMemberMetadataValue.from_dict(rec.value.data)
    assert state.members["m1"].instance_id == "static-1" and state.members["m1"].subscribed_topic_regex == regex
    classic = Log().add(classic_group("shop", 7, MEMBERS, ["orders"], TS)).replay().classic["shop"]
    assert {type(m) for m in classic.raw_members} == {MemberMetadata}
    assert [m.metadata for m in classic.members] == classic.raw_members


def test_replays_that_differ_in_one_member_field_are_unequal():
    """Equality reads every field of the record classes (how a coordinator rebuilt from its log is checked)."""
    def member(rack: str) -> SimpleRecord:
        return record(5, member_key("m9"), 0, {
            "instanceId": None, "rackId": rack, "clientId": "c", "clientHost": "/h", "subscribedTopicNames": ["a"],
            "subscribedTopicRegex": None, "rebalanceTimeoutMs": 1000, "serverAssignor": None,
            "classicMemberMetadata": None})

    assert cg_log().add(member("r1")).replay() == cg_log().add(member("r1")).replay()
    assert cg_log().add(member("r1")).replay() != cg_log().add(member("r2")).replay()
    assert cg_log().add(current("m0", 5, [1, 2])).replay() != cg_log().add(current("m0", 5, [1])).replay()


def test_consumer_group_assigning_when_the_group_epoch_is_ahead():
    replay = cg_log().add(record(3, {"groupId": "cg"}, 0, {"epoch": 6, "metadataHash": 0})).replay()
    assert describe_replayed(replay, "cg").state == "Assigning"
    replay = cg_log().add(record(6, {"groupId": "cg"}, 0, {"assignmentEpoch": 6, "assignmentTimestamp": 0}),
                          record(3, {"groupId": "cg"}, 0, {"epoch": 6, "metadataHash": 0})).replay()
    assert describe_replayed(replay, "cg").state == "Reconciling"  # target moved on, members still at epoch 5


def test_consumer_group_reconciling_members():
    behind = cg_log().add(current("m0", 4, [1, 2])).replay()
    assert describe_replayed(behind, "cg").state == "Reconciling"
    revoking = cg_log().add(current("m0", 5, [1], state=1, revoking=[2])).replay()
    desc = describe_replayed(revoking, "cg", topic_names={TOPIC_B64: "orders"})
    m0 = desc.members[0]
    assert desc.state == "Reconciling" and m0.member_state == "UNREVOKED_PARTITIONS"
    assert m0.pending_revocation == [TopicPartition("orders", 2)] and not desc.converged
    unreleased = cg_log().add(current("m0", 5, [1, 2], state=2)).replay()
    assert describe_replayed(unreleased, "cg").members[0].member_state == "UNRELEASED_PARTITIONS"


def test_member_tombstones_and_group_deletion():
    log = cg_log().add(record(8, member_key("m0")))
    replay = log.replay()
    m0 = describe_replayed(replay, "cg").members[0]
    # A current-assignment tombstone leaves the member at epoch -1, owning nothing (Kafka keeps it).
    assert (m0.member_id, m0.member_epoch, m0.previous_member_epoch, m0.assignment) == ("m0", -1, -1, [])
    assert describe_replayed(replay, "cg").state == "Reconciling"
    log.add(record(7, member_key("m0")), record(5, member_key("m0")))
    replay = log.replay()
    assert [m.member_id for m in describe_replayed(replay, "cg").members] == ["m1"]
    assert "m0" not in replay.consumer["cg"].targets and "m0" not in replay.consumer["cg"].current
    log.add(record(8, member_key("m1")), record(7, member_key("m1")), record(5, member_key("m1")))
    log.add(record(6, {"groupId": "cg"}))
    replay = log.replay()
    assert replay.consumer["cg"].assignment_epoch == -1
    assert describe_replayed(replay, "cg").state == "Empty"
    replay = log.add(record(16, {"groupId": "cg", "regularExpression": "x.*"}), record(4, {"groupId": "cg"}),
                     record(3, {"groupId": "cg"})).replay()
    assert "cg" not in replay.consumer and replay.group_ids() == []


def test_tombstones_of_unknown_consumer_groups_are_ignored():
    replay = Log().add(record(5, member_key("m", "ghost")), record(8, member_key("m", "ghost")),
                       record(7, member_key("m", "ghost")), record(6, {"groupId": "ghost"}),
                       record(3, {"groupId": "ghost"}), record(4, {"groupId": "ghost"})).replay()
    assert replay.consumer == {} and replay.group_ids() == []


def test_orphan_member_records_make_a_group_without_metadata():
    replay = Log().add(record(5, member_key("m", "orphan"), 0, {
        "instanceId": None, "rackId": "r1", "clientId": "c", "clientHost": "/h", "subscribedTopicNames": ["b", "a"],
        "subscribedTopicRegex": None, "rebalanceTimeoutMs": 1000, "serverAssignor": "range",
        "classicMemberMetadata": None}), current("m", 3, [0], group="orphan")).replay()
    state = replay.consumer["orphan"]
    assert state == ConsumerGroupState(False, 0, 0, state.members, {}, state.current, {}, None)
    desc = describe_replayed(replay, "orphan")
    assert (desc.type, desc.group_epoch, desc.assignment_epoch, desc.assignor) == ("consumer", 0, 0, "range")
    assert desc.state == "Reconciling"  # member epoch 3, target epoch 0
    m = desc.members[0]
    assert (m.rack, m.subscribed_topics, m.target_assignment) == ("r1", ["a", "b"], [])


def test_member_known_only_from_its_current_assignment():
    replay = Log().add(record(3, {"groupId": "cg"}, 0, {"epoch": 2, "metadataHash": 0}),
                       record(6, {"groupId": "cg"}, 0, {"assignmentEpoch": 2, "assignmentTimestamp": 0}),
                       current("x", 2, [0])).replay()
    desc = describe_replayed(replay, "cg")
    assert [m.member_id for m in desc.members] == ["x"] and desc.state == "Stable"
    assert (desc.members[0].client_id, desc.members[0].host, desc.assignor) == ("", "", "uniform")


def test_classic_protocol_member_inside_a_consumer_group_and_assignor_vote():
    meta = {"instanceId": None, "rackId": None, "clientId": "old", "clientHost": "/h", "subscribedTopicNames": ["t"],
            "subscribedTopicRegex": None, "rebalanceTimeoutMs": 5000, "serverAssignor": None,
            "classicMemberMetadata": {"sessionTimeoutMs": 45000, "supportedProtocols": [
                {"name": "range", "metadata": b""}]}}
    replay = Log().add(record(5, member_key("a"), 0, dict(meta, classicMemberMetadata=None, serverAssignor="range")),
                       record(5, member_key("b"), 0, dict(meta, classicMemberMetadata=None, serverAssignor="range")),
                       record(5, member_key("c"), 0, dict(meta, classicMemberMetadata=None, serverAssignor="uniform")),
                       record(5, member_key("z"), 0, meta)).replay()
    desc = describe_replayed(replay, "cg")
    assert desc.assignor == "range"
    z = desc.members[-1]
    assert (z.protocol, z.session_timeout_ms, z.rebalance_timeout_ms) == ("classic", 45000, 5000)
    assert {m.protocol for m in desc.members[:-1]} == {"consumer"}


def test_regex_records():
    regex = "orders-.*"
    log = Log().add(*consumer_group_records("cg", 3, CG_MEMBERS, "orders-eu", TOPIC_ID, TS, regex=regex))
    replay = log.replay()
    assert {r: v.to_dict() for r, v in replay.consumer["cg"].regexes.items()} == {
        regex: {"topics": ["orders-eu"], "version": 7, "timestamp": TS}}
    assert {m.subscribed_regex for m in describe_replayed(replay, "cg").members} == {regex}
    replay = log.add(record(16, {"groupId": "cg", "regularExpression": regex})).replay()
    assert replay.consumer["cg"].regexes == {}


def test_partition_metadata_is_replayed():
    topics = {"topics": [{"topicId": TOPIC_ID, "topicName": "orders", "numPartitions": 4, "partitionMetadata": []}]}
    log = cg_log().add(record(4, {"groupId": "cg"}, 0, topics))
    assert log.replay().consumer["cg"].partition_metadata.topics[0].num_partitions == 4
    assert log.add(record(4, {"groupId": "cg"})).replay().consumer["cg"].partition_metadata is None


def test_one_group_per_id_like_the_broker():
    # Upgrade: the classic group's tombstone, then consumer records.
    log = Log().add(classic_group("g", 3, MEMBERS, ["orders"], TS)).add(group_tombstone("g", TS))
    log.add(*consumer_group_records("g", 4, CG_MEMBERS, "orders", TOPIC_ID, TS))
    replay = log.replay()
    assert "g" not in replay.classic and describe_replayed(replay, "g").type == "consumer"
    # Downgrade: a GroupMetadataValue replaces the consumer group.
    replay = log.add(classic_group("g", 5, MEMBERS, ["orders"], TS)).replay()
    assert "g" not in replay.consumer and describe_replayed(replay, "g").type == "classic"


# -- what is skipped -------------------------------------------------------------------------------


def test_unknown_skipped_and_undecodable_records_are_counted_not_applied():
    unknown = SimpleRecord(struct.pack(">h", 99) + b"\x00\x01g", b"\x00\x00", TS)
    no_key = SimpleRecord(None, b"\x00\x00", TS)
    share = record(9, {"groupId": "s"}, 0, {"topics": []})  # 4.0's share partition metadata
    streams = record(17, {"groupId": "st"}, 0, {"epoch": 1, "metadataHash": 0})
    streams_tombstone = record(19, {"groupId": "st", "memberId": "m"})
    early = EARLY_ACCESS_VALUE_SCHEMAS[8][0]
    early_value = struct.pack(">h", 0) + early.encoder(0)({
        "memberEpoch": 5, "previousMemberEpoch": 4, "targetMemberEpoch": 5, "assignedPartitions": [],
        "partitionsPendingRevocation": [], "partitionsPendingAssignment": [], "error": 0,
        "metadataVersion": 0, "metadataBytes": b""})
    early_access = SimpleRecord(encode_key(8, member_key("m", "ea")), early_value, TS)
    replay = Log().add(unknown, no_key, unknown, share, streams, streams_tombstone, early_access, commit(1)).replay()
    assert replay.unknown_types == {99: 2, -1: 1}
    assert replay.skipped_types == {9: 1, 17: 1, 19: 1}
    assert replay.undecodable_values == 1
    assert replay.group_ids() == ["g"] and replay.consumer == {}
    assert replay.records == 8


def test_counters_and_timestamps():
    log = Log().add(offset_commit("g", "t", 0, 1, TS + 5)).add(offset_commit("g", "t", 0, 2, TS + 9))
    replay = log.marker("COMMIT", 3).replay()
    assert (replay.records, replay.first_timestamp, replay.last_timestamp) == (3, TS + 5, TS)
    assert Replay().first_timestamp is None


# -- incremental replay ----------------------------------------------------------------------------


def scenario_log() -> Log:
    """Every kind of record in one partition: the split tests run over it."""
    log = Log().add(classic_group("shop", 1, MEMBERS, ["orders"], TS), commit(1, group="shop"))
    log.txn(7, commit(50), commit(51, partition=1)).add(commit(40)).txn(8, commit(60, partition=2))
    log.marker("COMMIT", 7).add(*consumer_group_records("cg", 3, CG_MEMBERS, "orders", TOPIC_ID, TS, regex="o.*"))
    log.add(offset_tombstone("g", "t", 2, TS), current("m0", 2, [1]), record(8, member_key("m1")))
    log.marker("ABORT", 8).add(classic_group("shop", 2, [], ["orders"], TS),
                               record(11, {"groupId": "s"}, 0, {"epoch": 1, "metadataHash": 0}))
    log.add(record(7, member_key("m1")), record(5, member_key("m1")), group_tombstone("shop", TS))
    return log


@pytest.fixture(scope="module")
def dumps(tmp_path_factory) -> dict[str, list[DecodedRecord]]:
    sample = write_sample_dump(tmp_path_factory.mktemp("sample"))
    sample_records = [rec for dump in open_inputs([sample]) for _batch, recs in dump.batches for rec in recs]
    return {
        "scenario": scenario_log().records(),
        "sample": sample_records,
        "mixed-head": decoded(mixed_dump(3000))[:300],
        "mixed": decoded(mixed_dump(3000)),
    }


def full_replay(records: list[DecodedRecord]) -> Replay:
    replay = Replay()
    replay.apply_all(records)
    return replay


@pytest.mark.parametrize("name", ["scenario", "sample", "mixed-head"])
def test_every_split_point_gives_the_same_state(dumps, name):
    records = dumps[name]
    full = full_replay(records)
    expected = describe_all_replayed(full, topic_names={TOPIC_B64: "orders"})
    for n in range(len(records) + 1):
        replay = Replay()
        replay.apply_all(records[:n])
        if n % 2:
            for rec in records[n:]:
                replay.apply(rec)
        else:
            replay.apply_all(records[n:])
        assert replay.offsets == full.offsets and replay.pending == full.pending, n
        assert describe_all_replayed(replay, topic_names={TOPIC_B64: "orders"}) == expected, n
        assert replay == full, n


def test_split_points_over_the_mixed_dump(dumps):
    records = dumps["mixed"]
    full = full_replay(records)
    expected = describe_all_replayed(full)
    assert len(expected) > 100 and full.consumer and full.classic
    for n in [*range(0, len(records), 97), len(records) - 1]:
        replay = Replay()
        replay.apply_all(records[:n])
        replay.apply_all(records[n:])
        assert replay.offsets == full.offsets and replay.pending == full.pending
        assert describe_all_replayed(replay) == expected, n


def test_absorb_joins_replays_of_partitions_with_their_own_groups(dumps):
    """Partitions replayed apart, then joined: the state one replay reaches over both in order."""
    first = dumps["scenario"]
    second = Log().add(commit(5, group="other")).txn(90, commit(6, group="other")).add(
        classic_group("else", 1, MEMBERS, ["orders"], TS - 60)).records()
    joined = full_replay(first)
    joined.absorb(full_replay(second))
    both = full_replay(first + second)
    assert joined == both
    assert describe_all_replayed(joined) == describe_all_replayed(both)
    assert (joined.first_timestamp, joined.last_timestamp) == (TS, TS - 60)


@pytest.mark.parametrize("name", ["scenario", "sample", "mixed"])
def test_one_record_at_a_time_equals_apply_all(dumps, name):
    records = dumps[name]
    one = Replay()
    for rec in records:
        one.apply(rec)
    full = full_replay(records)
    assert one == full
    assert describe_all_replayed(one) == describe_all_replayed(full)
    assert one.records == len(records)


def test_sample_dump_groups(dumps):
    replay = full_replay(dumps["sample"])
    assert replay.group_ids() == ["billing-etl", "orders-app", "payments-app"]  # old-job was deleted
    assert committed(replay, "billing-etl") == {("invoices", 0): 500}  # 450 was aborted
    assert describe_replayed(replay, "payments-app").state == "Stable"


# -- real broker segments --------------------------------------------------------------------------


def replay_paths(*paths: Path) -> Replay:
    replay = Replay()
    for dump in open_inputs(paths):
        for _batch, recs in dump.batches:
            replay.apply_all(recs)
    return replay


def test_every_real_segment_replays(real_segments):
    assert len(real_segments) == 22
    total = 0
    for segment in real_segments:  # different clusters: one replay each
        replay = replay_paths(segment)
        assert replay.unknown_types == {} and replay.skipped_types == {} and replay.undecodable_values == 0
        assert replay.pending == {}  # no transactions in real data
        for desc in describe_all_replayed(replay):
            assert desc.type == "classic"
        total += replay.records
    assert total == 1473


def test_real_segment_facts(vectors_dir):
    base = vectors_dir / "real-broker-segments"

    # phthai98__kafka-demo/kafka/data/kafka/__consumer_offsets-5/00000000000000000000.log (Kafka 3.1.0)
    replay = replay_paths(base / "phthai98__kafka-demo/kafka/data/kafka/__consumer_offsets-5")
    desc = describe_replayed(replay, "validation-group-id")
    assert (replay.records, desc.state, desc.group_epoch, desc.assignor) == (750, "Stable", 6, "range")
    [member] = desc.members
    assert member.member_id == "validation-consumer-048e465a-ea49-486f-9690-8096e272036d"
    assert (member.client_id, member.host, member.session_timeout_ms) == ("validation-consumer", "/172.29.160.1", 10000)
    assert member.assignment == [TopicPartition("invoice-topic", 0), TopicPartition("invoice-topic", 1)]
    assert [(o.topic, o.partition, o.offset, o.leader_epoch) for o in desc.offsets] == [
        ("invoice-topic", 0, 4, None), ("invoice-topic", 1, 4, 2)]

    # DEVMasterBros__Mermes/kafka/logs/__consumer_offsets-37/00000000000000000000.log (Kafka 1.0.0, value v1)
    replay = replay_paths(base / "DEVMasterBros__Mermes/kafka/logs/__consumer_offsets-37")
    desc = describe_replayed(replay, "test-group-2")
    assert (desc.state, desc.group_epoch, desc.members) == ("Empty", 86, [])
    assert fields_of(replay.offsets["test-group-2"][("baro3", 0)]) == entry_fields(
        30, -1, "", 1533396653158, 1533483053158, None, 193, -1)
    assert committed(replay, "test-group-2") == {("baro3", 0): 30, ("baro4", 0): 8}
    # ... and __consumer_offsets-28: the group, its offset and its metadata were all deleted.
    assert replay_paths(base / "DEVMasterBros__Mermes/kafka/logs/__consumer_offsets-28").group_ids() == []

    # RaviAzzuraPutra__LATIHAN-MICROSERVICE-NEW/kafka/data/__consumer_offsets-0/00000000000000000000.log:
    # a kafka-go member whose subscription bytes do not decode (Kafka leaves them undecoded too).
    replay = replay_paths(base / "RaviAzzuraPutra__LATIHAN-MICROSERVICE-NEW/kafka/data/__consumer_offsets-0")
    raw = replay.classic["stock-service-group"].members[0]
    assert raw.subscription is None and raw.metadata.client_id == "main@b87095bf3dc0 (github.com/segmentio/kafka-go)"
    desc = describe_replayed(replay, "stock-service-group")
    assert (desc.state, desc.group_epoch, [o.offset for o in desc.offsets]) == ("Stable", 4, [2])
    assert desc.members[0].assignment == [TopicPartition("order_created", p) for p in (0, 1, 2)]

    # mscaldas2012__kafka-connect-spooldir/kafka-data/__consumer_offsets-37/...: a Connect group.
    desc = describe_replayed(
        replay_paths(base / "mscaldas2012__kafka-connect-spooldir/kafka-data/__consumer_offsets-37"),
        "compose-connect-group")
    assert (desc.protocol_type, desc.assignor, desc.group_epoch, desc.state) == ("connect", "default", 73, "Stable")
    assert [(m.client_id, m.assignment) for m in desc.members] == [("connect-1", [])]

    # adheepshetty__Resume-Tracking-System/.../__consumer_offsets-12: two segments, replayed in order.
    replay = replay_paths(base / "adheepshetty__Resume-Tracking-System/kafka/data/kafka/__consumer_offsets-12")
    desc = describe_replayed(replay, "my-group")
    assert (desc.state, desc.group_epoch, [(o.topic, o.offset) for o in desc.offsets]) == ("Empty", 33,
                                                                                            [("test", 13931)])
