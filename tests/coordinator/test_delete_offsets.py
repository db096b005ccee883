"""OffsetDelete in the coordinator, as Kafka 4.x's `OffsetMetadataManager.deleteOffsets`: who may, which
topics a group still subscribes to, and the tombstones it writes."""

from __future__ import annotations

import pytest

from groupctl.coordinator.coordinator import Coordinator, known_partitions
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.log import MemoryLog
from groupctl.coordinator.offsets import CommitPartition
from groupctl.protocol.consumer_protocol import encode_subscription
from groupctl.protocol.data.groups import JoinGroupResponseData
from tests.classic_requests import join_req, sync_req
from tests.heartbeats import hb


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(4))
    for name in ("foo", "bar", "orders-eu"):
        c.create_topic(name, 2)
    return c


def tail(coord: Coordinator, since: int) -> list[tuple[int, dict, bool]]:
    assert isinstance(coord.runtime.log, MemoryLog)
    return [(r.key.type, r.key.data, r.value is None) for r in list(coord.runtime.log.read())[since:]]


def outcomes(results: list) -> list[tuple[str, int, str | None]]:
    return [(t, p, e.name if e else None) for t, p, e in results]


def classic_member(coord: Coordinator, group: str, metadata: bytes, protocol_type: str = "consumer") -> str:
    answers: list[JoinGroupResponseData] = []
    coord.join_group(join_req(group, 10_000, 10_000, group_instance_id="pod-0", protocol_type=protocol_type,
                              protocols=[("range", metadata)]), answers.append)
    coord.advance(3_000)
    joined = answers[-1]
    assert joined.error_code == 0
    coord.sync_group(sync_req(group, joined.generation_id, joined.member_id, "pod-0",
                              assignments=[(joined.member_id, b"")]), lambda _r: None)
    coord.commit_offsets(group, joined.member_id, joined.generation_id,
                         [CommitPartition("foo", 0, 1), CommitPartition("bar", 0, 2), CommitPartition("bar", 1, 3)],
                         instance_id="pod-0")
    return joined.member_id


def test_a_stable_classic_group_loses_offsets_of_topics_it_does_not_subscribe_to(coord: Coordinator) -> None:
    classic_member(coord, "app", encode_subscription({"topics": ["foo"], "userData": None}, 0))
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    results = coord.delete_offsets("app", [("foo", [0, 1]), ("bar", [0, 1])])
    assert outcomes(results) == [("foo", 0, "GROUP_SUBSCRIBED_TO_TOPIC"), ("foo", 1, "GROUP_SUBSCRIBED_TO_TOPIC"),
                                 ("bar", 0, None), ("bar", 1, None)]
    assert results[0][2].message == ("Deleting offsets of a topic is forbidden while the consumer group is actively "
                                     "subscribed to it.")
    assert tail(coord, before) == [(1, {"group": "app", "topic": "bar", "partition": 0}, True),
                                   (1, {"group": "app", "topic": "bar", "partition": 1}, True)]
    assert {tp for tp in coord.runtime.state.offsets["app"]} == {("foo", 0)}
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_a_partition_without_an_offset_answers_success_and_writes_nothing(coord: Coordinator) -> None:
    coord.commit_offsets("simple", "", -1, [CommitPartition("foo", 0, 9)])
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    assert outcomes(coord.delete_offsets("simple", [("foo", [1])])) == [("foo", 1, None)]
    assert coord.runtime.log.next_offset == before  # type: ignore[attr-defined]


def test_unreadable_subscriptions_count_as_subscribed_and_other_protocols_are_refused(coord: Coordinator) -> None:
    classic_member(coord, "garbled", b"\x00\x00\xff\xff\xff")
    assert outcomes(coord.delete_offsets("garbled", [("bar", [0])])) == [("bar", 0, "GROUP_SUBSCRIBED_TO_TOPIC")]
    classic_member(coord, "connect", b"\x00", protocol_type="connect")
    before = coord.runtime.log.next_offset  # type: ignore[attr-defined]
    with pytest.raises(Exception) as refused:
        coord.delete_offsets("connect", [("bar", [0])])
    assert getattr(refused.value, "name", None) == "NON_EMPTY_GROUP"
    with pytest.raises(Exception) as missing:
        coord.delete_offsets("nope", [("bar", [0])])
    assert (missing.value.name, missing.value.message) == ("GROUP_ID_NOT_FOUND", "Group nope not found.")  # type: ignore[attr-defined]
    assert coord.runtime.log.next_offset == before  # type: ignore[attr-defined]


def test_a_consumer_group_keeps_offsets_of_topics_its_regex_resolved(coord: Coordinator) -> None:
    r = coord.heartbeat(hb("cg", "m1", 0, rebalance_timeout_ms=5000, subscribed_topic_regex="orders.*",
                                         topic_partitions=[]))
    assert r.error_code == 0
    coord.advance(10_001)
    coord.heartbeat(hb("cg", "m1", r.member_epoch))
    assert coord.runtime.state.consumer["cg"].regexes["orders.*"].topics == ["orders-eu"]
    epoch = coord.describe("cg").members[0].member_epoch
    coord.commit_offsets("cg", "m1", epoch, [CommitPartition("orders-eu", 0, 4), CommitPartition("foo", 1, 5)])
    results = coord.delete_offsets("cg", [("orders-eu", [0]), ("foo", [1])])
    assert outcomes(results) == [("orders-eu", 0, "GROUP_SUBSCRIBED_TO_TOPIC"), ("foo", 1, None)]
    assert set(coord.runtime.state.offsets["cg"]) == {("orders-eu", 0)}
    assert coord.heartbeat(hb("cg", "m1", -1)).error_code == 0  # empty now: nothing is subscribed
    assert outcomes(coord.delete_offsets("cg", [("orders-eu", [0])])) == [("orders-eu", 0, None)]
    assert "cg" not in coord.runtime.state.offsets
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_partitions_the_cluster_lacks_are_split_off_first(coord: Coordinator) -> None:
    assert known_partitions(coord.topics, [("foo", [0, 2]), ("nope", [0]), ("bar", [1])]) == (
        [("foo", [0]), ("bar", [1])], [("foo", 2), ("nope", 0)])
