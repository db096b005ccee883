"""The local backend's offsets-reset methods: the admin OffsetCommit (generation -1, no member id) with
the coordinator's answers, and what a DIR without produced records says about log starts and times."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from groupctl.model import TopicPartition

from ..cli.test_group import _classic_group, _consumer_group

T0, T1 = TopicPartition("t", 0), TopicPartition("t", 1)


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    with LocalBackend(tmp_path / "dir", create=True) as b:
        b.coordinator.create_topic("t", 2)
        b.coordinator.create_topic("p", 2)
        b.end_offsets_by_topic.update(t=[100, 100], p=[10, 10])
        _consumer_group(b, "live", "t", ["pod-0"])
        _classic_group(b, "live-classic", "p", 2, ["app-0"])
    return tmp_path / "dir"


def test_an_admin_commit_is_written_and_survives_a_reopen(directory):
    with LocalBackend(directory) as b:
        assert b.alter_offsets("g", {T0: 7, T1: 9}) == {T0: None, T1: None}
    with LocalBackend(directory) as b:  # replayed from the log
        assert {(o.partition, o.offset) for o in b.committed_offsets("g")} == {(0, 7), (1, 9)}


def test_an_unknown_partition_fails_alone(directory):
    with LocalBackend(directory) as b:
        answer = b.alter_offsets("g", {T0: 7, TopicPartition("t", 5): 1, TopicPartition("nope", 0): 1})
    assert answer == {T0: None, TopicPartition("t", 5): "UNKNOWN_TOPIC_OR_PARTITION",
                      TopicPartition("nope", 0): "UNKNOWN_TOPIC_OR_PARTITION"}


@pytest.mark.parametrize("group, topic", [("live", "t"), ("live-classic", "p")])
def test_a_group_with_members_refuses_the_admin_commit(directory, group, topic):
    """What the broker answers when members joined between the plan and the commit."""
    with LocalBackend(directory) as b:
        before = {(o.partition, o.offset) for o in b.committed_offsets(group)}
        tp = TopicPartition(topic, 0)
        assert b.alter_offsets(group, {tp: 1}) == {tp: "UNKNOWN_MEMBER_ID"}
        assert {(o.partition, o.offset) for o in b.committed_offsets(group)} == before


def test_without_records_times_give_the_log_end_and_say_so(directory):
    with LocalBackend(directory) as b:
        b.coordinator.commit_offsets("g", "", -1, [CommitPartition("t", 0, 1)])
        assert b.offsets_for_time([T0, T1, TopicPartition("t", 9)], 0) == {T0: 100, T1: 100}
        assert b.start_offsets([T0]) == {T0: 100}
        assert any("no timestamps: the log end was taken" in n for n in b.notices)
