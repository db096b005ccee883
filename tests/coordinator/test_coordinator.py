"""The router: one append per request, timer firing or task, and the decisions that cross protocols
(a consumer group replacing an Empty classic group only when its heartbeat succeeds)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.log import MemoryLog, Record
from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import KafkaError
from groupctl.log.decode import DecodedRecord
from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatRequestData
from groupctl.protocol.data.groups import JoinGroupResponseData, MemberIdentity
from tests.classic_requests import join_req, sync_req
from tests.heartbeats import error, hb

SESSION = 10_000


class CountingLog(MemoryLog):
    """A memory log that remembers the size of every batch appended to it."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[int] = []

    def append(self, records: Sequence[Record], timestamp: int) -> list[DecodedRecord]:
        if records:
            self.batches.append(len(records))
        return super().append(records, timestamp)


def _join(coord: Coordinator, group: str, member_id: str, answers: list[JoinGroupResponseData]) -> None:
    coord.join_group(join_req(group, SESSION, 30_000, member_id, protocols=[("range", b"")]), answers.append)


def _heartbeat(group: str, member: str, topics: list[str] | None = None,
               regex: str | None = None) -> ConsumerGroupHeartbeatRequestData:
    return hb(group, member, 0, rebalance_timeout_ms=30_000, topic_partitions=[],
              subscribed_topic_names=topics, subscribed_topic_regex=regex)


def test_every_request_and_timer_appends_at_most_one_batch() -> None:
    log = CountingLog()
    coord = Coordinator(ids=IdGenerator(5), log=log)
    coord.create_topic("foo", 4)

    def batches_of(action) -> int:
        before = len(log.batches)
        action()
        return len(log.batches) - before

    answers: list[JoinGroupResponseData] = []
    assert batches_of(lambda: _join(coord, "c", "", answers)) == 1  # the new group's record
    member_id = answers[-1].member_id
    assert batches_of(lambda: _join(coord, "c", member_id, answers)) == 0  # parked: the initial delay runs
    assert batches_of(lambda: coord.advance(3_000)) == 0  # the join completes: nothing written yet
    generation = answers[-1].generation_id
    assert batches_of(lambda: coord.sync_group(sync_req("c", generation, member_id,
                                                        assignments=[(member_id, b"")]),
                                               lambda _: None)) == 1  # the leader's assignment
    # The last member leaves: the rebalance completes at once with nobody, and the Empty record is written.
    assert batches_of(lambda: coord.leave_group("c", [MemberIdentity(member_id=member_id)])) == 1
    assert batches_of(lambda: coord.heartbeat(_heartbeat("k", "m1", ["foo"]))) == 1
    assert batches_of(lambda: coord.heartbeat(_heartbeat("k", "m2", regex="fo.*"))) == 2  # the request, its task
    with pytest.raises(KafkaError, match="UNKNOWN_MEMBER_ID"):
        batches_of(lambda: coord.commit_offsets("k", "", -1, [CommitPartition("foo", 0, 1)]))
    assert batches_of(lambda: coord.commit_offsets("s", "", -1, [CommitPartition("foo", 0, 1),
                                                                 CommitPartition("foo", 1, 2)])) == 1
    assert batches_of(lambda: coord.advance(60_000)) == 2  # two sessions expire: one batch per timer
    assert batches_of(lambda: coord.delete_groups(["c", "k", "s"])) == 1
    assert all(size > 0 for size in log.batches)


def test_a_failed_heartbeat_leaves_the_empty_classic_group_it_would_replace() -> None:
    coord = Coordinator(ids=IdGenerator(5))
    coord.create_topic("foo", 4)
    answers: list[JoinGroupResponseData] = []
    _join(coord, "g", "", answers)  # MEMBER_ID_REQUIRED: an Empty classic group with a pending member
    assert coord.classic.groups["g"].state == "Empty"
    failed = coord.heartbeat(_heartbeat("g", "m1", regex="("))
    assert error(failed) == "INVALID_REGULAR_EXPRESSION"
    assert "g" in coord.classic.groups
    assert [(g.group_id, g.type) for g in coord.group_listings()] == [("g", "classic")]
    joined = coord.heartbeat(_heartbeat("g", "m1", ["foo"]))
    assert joined.error_code == 0
    assert "g" not in coord.classic.groups
    assert [(g.group_id, g.type) for g in coord.group_listings()] == [("g", "consumer")]
    assert [(g.group_id, g.type) for g in coord.rebuild().group_listings()] == [("g", "consumer")]
