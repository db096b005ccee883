"""OffsetCommit and OffsetFetch asked of the coordinator whole, as the generated classes, at a caller's version:
what KafkaApis sorts out before its coordinator (unknown topics and ids), the empty group id, and the shape
of each version's answer."""

from __future__ import annotations

import uuid

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.data.offsets import (
    OffsetCommitRequestData,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
    OffsetCommitResponseData,
    OffsetFetchRequestData,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from tests.heartbeats import hb

MISSING = uuid.UUID(int=42)


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(5))
    c.create_topic("foo", 2)
    return c


def at(version: int) -> Caller:
    return Caller(api_version=version)


def commit(group: str, *topics: OffsetCommitRequestTopic, epoch: int = -1, member: str = "") -> OffsetCommitRequestData:
    return OffsetCommitRequestData(group_id=group, generation_id_or_member_epoch=epoch, member_id=member,
                                   topics=list(topics))


def by_name(name: str, **offsets: int) -> OffsetCommitRequestTopic:
    """A topic by name, its partitions as p0=offset, p1=offset ..."""
    return OffsetCommitRequestTopic(name=name, partitions=[
        OffsetCommitRequestPartition(partition_index=int(p[1:]), committed_offset=o, committed_metadata=f"m{o}")
        for p, o in offsets.items()])


def errors(answer: OffsetCommitResponseData) -> list[tuple[str, uuid.UUID, int, int]]:
    return [(t.name, t.topic_id, p.partition_index, p.error_code) for t in answer.topics for p in t.partitions]


def test_a_commit_answers_unknown_topics_and_partitions_and_commits_the_rest(coord: Coordinator) -> None:
    foo = coord.topics.get("foo").topic_id
    answer = coord.offset_commit(commit("simple", by_name("foo", p0=5, p1=6, p2=7), by_name("nope", p0=1)), at(9))
    unknown = CODE["UNKNOWN_TOPIC_OR_PARTITION"]
    assert errors(answer) == [("foo", foo, 0, 0), ("foo", foo, 1, 0), ("foo", foo, 2, unknown),
                              ("nope", uuid.UUID(int=0), 0, unknown)]
    assert [(o.partition, o.offset, o.metadata) for o in coord.fetch_offsets("simple")] == [(0, 5, "m5"), (1, 6, "m6")]


def test_a_commit_at_v10_names_topics_by_id(coord: Coordinator) -> None:
    foo = coord.topics.get("foo").topic_id
    answer = coord.offset_commit(commit("simple", OffsetCommitRequestTopic(topic_id=foo, partitions=[
        OffsetCommitRequestPartition(partition_index=1, committed_offset=3)]), OffsetCommitRequestTopic(
        topic_id=MISSING, partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=3)])), at(10))
    assert errors(answer) == [("foo", foo, 1, 0), ("", MISSING, 0, CODE["UNKNOWN_TOPIC_ID"])]
    assert [(o.topic, o.partition, o.offset) for o in coord.fetch_offsets("simple")] == [("foo", 1, 3)]


def test_a_group_refusal_is_every_known_partitions_error(coord: Coordinator) -> None:
    """An empty group id (INVALID_GROUP_ID) or the group's refusal: unknown partitions keep their own error."""
    for group, error in (("", CODE["INVALID_GROUP_ID"]), ("gone", CODE["GROUP_ID_NOT_FOUND"])):
        answer = coord.offset_commit(commit(group, by_name("foo", p0=1, p5=1), epoch=3, member="m"), at(9))
        assert [e[2:] for e in errors(answer)] == [(0, error), (5, CODE["UNKNOWN_TOPIC_OR_PARTITION"])]
    answer = coord.offset_commit(commit("gone", by_name("foo", p0=1), epoch=3, member="m"), at(8))
    assert [e[2:] for e in errors(answer)] == [(0, CODE["ILLEGAL_GENERATION"])]
    assert coord.runtime.state.offsets == {}


def test_a_partition_with_metadata_too_large_answers_alone(coord: Coordinator) -> None:
    big = OffsetCommitRequestTopic(name="foo", partitions=[
        OffsetCommitRequestPartition(partition_index=0, committed_offset=1, committed_metadata="x" * 4097),
        OffsetCommitRequestPartition(partition_index=1, committed_offset=2, committed_metadata=None)])
    assert [e[2:] for e in errors(coord.offset_commit(commit("simple", big), at(9)))] == [
        (0, CODE["OFFSET_METADATA_TOO_LARGE"]), (1, 0)]
    assert [(o.partition, o.metadata) for o in coord.fetch_offsets("simple")] == [(1, "")]


def test_a_batched_fetch_answers_each_group_by_name_or_id(coord: Coordinator) -> None:
    foo = coord.topics.get("foo").topic_id
    coord.offset_commit(commit("simple", by_name("foo", p1=9)), at(9))
    groups = [OffsetFetchRequestGroup(group_id="simple", topics=[
                  OffsetFetchRequestTopics(name="foo", topic_id=foo, partition_indexes=[0, 1]),
                  OffsetFetchRequestTopics(name="nope", topic_id=MISSING, partition_indexes=[3])]),
              OffsetFetchRequestGroup(group_id="simple", topics=None),
              OffsetFetchRequestGroup(group_id="", topics=None)]
    for version in (8, 10):
        answer = coord.offset_fetch(OffsetFetchRequestData(groups=groups), at(version))
        asked, every, empty = answer.groups
        rows = [(t.name, t.topic_id, [(p.partition_index, p.committed_offset, p.metadata, p.error_code)
                                      for p in t.partitions]) for t in asked.topics]
        if version == 10:  # by id: the unknown one answers UNKNOWN_TOPIC_ID, after the known topics
            assert rows == [("foo", foo, [(0, -1, "", 0), (1, 9, "m9", 0)]),
                            ("", MISSING, [(3, -1, "", CODE["UNKNOWN_TOPIC_ID"])])]
        else:  # by name: a topic the group never committed answers -1
            assert rows == [("foo", foo, [(0, -1, "", 0), (1, 9, "m9", 0)]),
                            ("nope", uuid.UUID(int=0), [(3, -1, "", 0)])]
        assert [(t.name, [p.partition_index for p in t.partitions]) for t in every.topics] == [("foo", [1])]
        assert (asked.error_code, every.error_code, empty.error_code, empty.topics) == (
            0, 0, CODE["INVALID_GROUP_ID"], [])
        assert [g.group_id for g in answer.groups] == ["simple", "simple", ""]


def test_a_single_group_fetch_before_v8_and_v1s_per_partition_error(coord: Coordinator) -> None:
    coord.offset_commit(commit("simple", by_name("foo", p0=4)), at(7))
    asked = [OffsetFetchRequestTopic(name="foo", partition_indexes=[0, 1])]
    answer = coord.offset_fetch(OffsetFetchRequestData(group_id="simple", topics=asked), at(7))
    assert answer.error_code == 0 and answer.groups == []
    assert [(t.name, [(p.partition_index, p.committed_offset) for p in t.partitions]) for t in answer.topics] == [
        ("foo", [(0, 4), (1, -1)])]
    refused = coord.offset_fetch(OffsetFetchRequestData(group_id="", topics=asked), at(2))
    assert (refused.error_code, refused.topics) == (CODE["INVALID_GROUP_ID"], [])
    v1 = coord.offset_fetch(OffsetFetchRequestData(group_id="", topics=asked), at(1))
    assert [(t.name, [(p.partition_index, p.committed_offset, p.error_code) for p in t.partitions])
            for t in v1.topics] == [("foo", [(0, -1, CODE["INVALID_GROUP_ID"]), (1, -1, CODE["INVALID_GROUP_ID"])])]


def test_a_fetch_checks_the_member_epoch_of_a_consumer_group(coord: Coordinator) -> None:
    assert coord.heartbeat(hb("cg", "a", 0, rebalance_timeout_ms=1000, subscribed_topic_names=["foo"],
                              topic_partitions=[])).member_epoch == 1
    assert errors(coord.offset_commit(commit("cg", by_name("foo", p0=2), epoch=1, member="a"), at(9)))[0][3] == 0
    assert errors(coord.offset_commit(commit("cg", by_name("foo", p0=2), epoch=1, member="a"), at(8)))[0][3] == \
        CODE["UNSUPPORTED_VERSION"]
    stale, ok = coord.offset_fetch(OffsetFetchRequestData(groups=[
        OffsetFetchRequestGroup(group_id="cg", member_id="a", member_epoch=4, topics=None),
        OffsetFetchRequestGroup(group_id="cg", member_id="a", member_epoch=1, topics=None)]), at(9)).groups
    assert (stale.error_code, stale.topics) == (CODE["STALE_MEMBER_EPOCH"], [])
    assert [(t.name, [(p.partition_index, p.committed_offset) for p in t.partitions]) for t in ok.topics] == [
        ("foo", [(0, 2)])]
