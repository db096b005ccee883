"""OffsetCommit/OffsetFetch against consumer groups: member epoch checks with Kafka's errors."""

from __future__ import annotations

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import KafkaError
from tests.heartbeats import hb


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(5))
    c.create_topic("foo", 2)
    r = c.heartbeat(hb("g", "a", 0, rebalance_timeout_ms=1000, subscribed_topic_names=["foo"],
                                     topic_partitions=[]))
    assert r.member_epoch == 1
    return c


def test_commit_with_the_member_epoch_and_fetch_it_back(coord: Coordinator) -> None:
    coord.clock.set(1_000)
    coord.commit_offsets("g", "a", 1, [CommitPartition("foo", 0, 17, 3, "meta")])
    got = coord.fetch_offsets("g", [("foo", [0, 1])], member_id="a", epoch=1)
    assert [(o.partition, o.offset, o.leader_epoch, o.metadata) for o in got] == [(0, 17, 3, "meta"), (1, -1, -1, "")]
    assert coord.runtime.state.offsets["g"][("foo", 0)].commit_timestamp == 1_000
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_stale_member_epoch(coord: Coordinator) -> None:
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", "a", 0, [CommitPartition("foo", 0, 1)])
    assert info.value.name == "STALE_MEMBER_EPOCH"
    assert info.value.message == "The received member epoch 0 does not match the expected member epoch 1."
    with pytest.raises(KafkaError) as info:
        coord.fetch_offsets("g", None, member_id="a", epoch=7)
    assert info.value.name == "STALE_MEMBER_EPOCH"


def test_unknown_member_and_admin_commits(coord: Coordinator) -> None:
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", "ghost", 1, [CommitPartition("foo", 0, 1)])
    assert (info.value.name, info.value.message) == ("UNKNOWN_MEMBER_ID", "Member ghost is not a member of group g.")
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", "", -1, [CommitPartition("foo", 0, 1)])
    assert info.value.name == "UNKNOWN_MEMBER_ID"  # the group is not empty
    assert coord.fetch_offsets("g") == []  # admin fetch: no member id, epoch -1


def test_old_offset_commit_versions_are_refused_for_consumer_protocol_members(coord: Coordinator) -> None:
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", "a", 1, [CommitPartition("foo", 0, 1)], version=8)
    assert info.value.name == "UNSUPPORTED_VERSION"


def test_missing_group(coord: Coordinator) -> None:
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("nope", "m", 3, [CommitPartition("foo", 0, 1)])
    assert (info.value.name, info.value.message) == ("GROUP_ID_NOT_FOUND", "Group nope not found.")
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("nope", "m", 3, [CommitPartition("foo", 0, 1)], version=8)
    assert info.value.name == "ILLEGAL_GENERATION"
    coord.commit_offsets("nope", "", -1, [CommitPartition("foo", 0, 9)])
    assert [o.offset for o in coord.fetch_offsets("nope")] == [9]


def test_metadata_too_large_fails_that_partition_only(coord: Coordinator) -> None:
    result = coord.commit_offsets("g", "a", 1, [CommitPartition("foo", 0, 1, metadata="x" * 4097),
                                                CommitPartition("foo", 1, 2)])
    assert [p.error_code for p in result] == [12, 0]
    assert [o.offset for o in coord.fetch_offsets("g")] == [2]
