"""DeleteGroups: which groups may go, and the tombstones Kafka writes for the ones that do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.log import MemoryLog
from groupctl.coordinator.offsets import CommitPartition
from groupctl.log.decode import DecodedRecord
from groupctl.protocol.consumer_protocol import encode_subscription
from groupctl.protocol.data.groups import JoinGroupResponseData, MemberIdentity
from tests.classic_requests import join_req, sync_req
from tests.heartbeats import hb


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(3))
    c.create_topic("foo", 2)
    return c


def tail(coord: Coordinator, since: int) -> list[tuple[int, dict, bool]]:
    """The records appended after offset `since`: (key type, key data, is a tombstone)."""
    assert isinstance(coord.runtime.log, MemoryLog)
    records: list[DecodedRecord] = list(coord.runtime.log.read())[since:]
    return [(r.key.type, r.key.data, r.value is None) for r in records]


def consumer_member(coord: Coordinator, group: str = "cg", member: str = "m1") -> None:
    r = coord.heartbeat(hb(group, member, 0, rebalance_timeout_ms=5000, subscribed_topic_names=["foo"],
                                         topic_partitions=[]))
    assert r.error_code == 0


def classic_member(coord: Coordinator, group: str = "classic") -> str:
    """One static member joins (the initial delay passes) and syncs; returns its member id."""
    answers: list[JoinGroupResponseData] = []
    coord.join_group(join_req(group, 10_000, 10_000, group_instance_id="pod-0",
                              protocols=[("range", encode_subscription({"topics": ["foo"], "userData": None},
                                                                               0))]), answers.append)
    coord.advance(3_000)
    joined = answers[-1]
    assert joined.error_code == 0
    coord.sync_group(sync_req(group, joined.generation_id, joined.member_id, "pod-0",
                              assignments=[(joined.member_id, b"")]), lambda _r: None)
    return joined.member_id


def test_missing_and_non_empty_groups_are_refused(coord: Coordinator) -> None:
    consumer_member(coord)
    classic_member(coord)
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    results = coord.delete_groups(["nope", "cg", "classic"])
    assert [(g, e.name if e else None, e.message if e else None) for g, e in results] == [
        ("nope", "GROUP_ID_NOT_FOUND", "Group nope not found."),
        ("cg", "NON_EMPTY_GROUP", "The group is not empty."),
        ("classic", "NON_EMPTY_GROUP", "The group is not empty."),
    ]
    assert coord.runtime.log.next_offset == before  # type: ignore[attr-defined]


def test_an_empty_consumer_group_goes_with_its_offsets(coord: Coordinator) -> None:
    consumer_member(coord)
    coord.commit_offsets("cg", "m1", 1, [CommitPartition("foo", 1, 5), CommitPartition("foo", 0, 7)])
    assert coord.heartbeat(hb("cg", "m1", -1)).error_code == 0
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    assert coord.delete_groups(["cg"]) == [("cg", None)]
    assert tail(coord, before) == [
        (1, {"group": "cg", "topic": "foo", "partition": 0}, True),
        (1, {"group": "cg", "topic": "foo", "partition": 1}, True),
        (6, {"groupId": "cg"}, True),
        (4, {"groupId": "cg"}, True),
        (3, {"groupId": "cg"}, True),
    ]
    assert not coord.group_exists("cg")
    assert coord.group_listings() == []
    assert coord.rebuild().runtime.state == coord.runtime.state
    consumer_member(coord, member="m2")  # the id is free again: a new group at epoch 1
    assert coord.runtime.state.consumer["cg"].epoch == 1


def test_an_emptied_classic_group_and_a_simple_group(coord: Coordinator) -> None:
    member_id = classic_member(coord)
    coord.commit_offsets("classic", member_id, 1, [CommitPartition("foo", 0, 3)], instance_id="pod-0")
    answer = coord.leave_group("classic", [MemberIdentity(group_instance_id="pod-0")])
    assert [m.error_code for m in answer.response.members] == [0]
    coord.commit_offsets("simple", "", -1, [CommitPartition("foo", 1, 9)])
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    assert coord.delete_groups(["classic", "simple"]) == [("classic", None), ("simple", None)]
    assert tail(coord, before) == [
        (1, {"group": "classic", "topic": "foo", "partition": 0}, True),
        (2, {"group": "classic"}, True),
        (1, {"group": "simple", "topic": "foo", "partition": 1}, True),
        (2, {"group": "simple"}, True),
    ]
    assert coord.group_listings() == []
    assert "classic" not in coord.classic.groups
    assert not any(isinstance(k, tuple) and "classic" in k for k in coord.runtime.timers.live_keys())
    assert coord.rebuild().runtime.state == coord.runtime.state
    assert coord.delete_groups(["simple"])[0][1].name == "GROUP_ID_NOT_FOUND"  # type: ignore[union-attr]


BROKER_VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "kafka-4.0-broker-vectors"


def _last_batch(text: str) -> tuple[str, list[str]]:
    """The last batch of a dump-log text: (its 'count: .. size: ..' part, each record from keySize on)."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("baseOffset:"))
    header = re.search(r"count: \d+", lines[start]).group(0) + " " + re.search(r"size: \d+", lines[start]).group(0)
    return header, [re.sub(r"sequence: -?\d+ ", "", line.split(" keySize: ", 1)[1]) for line in lines[start + 1:]
                    if line.startswith("| offset:")]


def test_a_deleted_classic_group_leaves_the_records_kafka_40_writes(cli, tmp_path: Path) -> None:
    """The group kafka-consumer-groups.sh --delete deleted on a real Kafka 4.0.0 broker (partition 0 of
    the broker vectors): a classic member committed 5/6 on oc-del and left; the deletion is one batch of
    the two offset tombstones, then the group's."""
    dumped = BROKER_VECTORS / "__consumer_offsets-0" / "00000000000000000000.log.offsets-decoder.txt"
    if not dumped.is_file():
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    coord = Coordinator(ids=IdGenerator(5))
    coord.create_topic("oc-del", 2)
    answers: list[JoinGroupResponseData] = []
    metadata = encode_subscription({"topics": ["oc-del"], "userData": None}, 0)
    coord.join_group(join_req("oracle-deleted", 45_000, 300_000, protocols=[("range", metadata)]),
                     answers.append)
    coord.join_group(join_req("oracle-deleted", 45_000, 300_000, answers[-1].member_id,
                              protocols=[("range", metadata)]), answers.append)
    coord.advance(3_000)
    joined = answers[-1]
    coord.sync_group(sync_req("oracle-deleted", joined.generation_id, joined.member_id, None,
                              assignments=[(joined.member_id, b"")]), lambda _r: None)
    coord.commit_offsets("oracle-deleted", joined.member_id, joined.generation_id,
                         [CommitPartition("oc-del", 0, 5), CommitPartition("oc-del", 1, 6)])
    answer = coord.leave_group("oracle-deleted", [MemberIdentity(member_id=joined.member_id)])
    assert [m.error_code for m in answer.response.members] == [0]
    assert coord.delete_groups(["oracle-deleted"]) == [("oracle-deleted", None)]
    segment = tmp_path / "00000000000000000000.log"
    segment.write_bytes(coord.runtime.log.segment_bytes())  # type: ignore[attr-defined]
    ours = cli("dump", "decode", str(segment), "--format", "dump-log")
    assert ours.code == 0, ours.err
    assert _last_batch(ours.out) == _last_batch(dumped.read_text())
