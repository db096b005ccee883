"""Share groups described from the broker's answers (groupctl/share_groups.py): the recorded 4.1.0 answers, and
Kafka 4.2's DescribeShareGroupOffsets v1 lag."""

from __future__ import annotations

import uuid

import pytest

from groupctl.kafka.share_groups import ShareGroupInfo, ShareOffsetsAnswer
from groupctl.model import ShareOffset, TopicPartition
from groupctl.protocol.data.share_groups import (
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
)
from groupctl.share_groups import from_share_group_describe, share_offsets
from tests.recorded_broker import WIRE, RecordedGroups


def answer(version: int, *partitions: tuple[int, int, int, int]) -> ShareOffsetsAnswer:
    """(partition, start offset, leader epoch, lag) rows of topic `t`."""
    topic = DescribeShareGroupOffsetsResponseTopic(topic_name="t", topic_id=uuid.uuid4(), partitions=[
        DescribeShareGroupOffsetsResponsePartition(partition_index=p, start_offset=s, leader_epoch=e, lag=lag)
        for p, s, e, lag in partitions])
    return ShareOffsetsAnswer(DescribeShareGroupOffsetsResponseGroup(group_id="g", topics=[topic]), version)


def test_lag_comes_only_from_a_v1_answer_and_only_where_the_broker_knew_it():
    rows = [(1, 40, 0, 2), (0, 10, 3, -1)]
    assert share_offsets(answer(1, *rows)) == [ShareOffset("t", 0, 10, 3, None), ShareOffset("t", 1, 40, 0, 2)]
    assert [o.lag for o in share_offsets(answer(0, *rows))] == [None, None]


def test_an_uninitialised_share_partition_has_no_start_offset():
    assert share_offsets(answer(0, (0, -1, -1, -1))) == [ShareOffset("t", 0, None, None, None)]


@pytest.mark.skipif(not WIRE.is_dir(), reason="the wire transcripts (../shared/kafka-4.1-wire) are absent")
def test_the_recorded_share_group_as_the_model_holds_it():
    recorded = RecordedGroups().add("s2-share-groups", range(3, 4))
    info = ShareGroupInfo(recorded.described[77]["s-share"])
    desc = from_share_group_describe(info, ShareOffsetsAnswer(recorded.share_offsets["s-share"], 0))
    assert (desc.type, desc.state, desc.group_epoch, desc.assignment_epoch, desc.assignor) == \
        ("share", "Stable", 2, 2, "simple")
    (member,) = desc.members
    assert (member.member_id, member.client_id, member.host, member.protocol, member.member_epoch) == \
        ("VhuYUGYkTJqcbal8P6LKYg", "console-share-consumer", "/127.0.0.1", "share", 2)
    assert member.assignment == [TopicPartition("t-share", 0)] and member.subscribed_topics == ["t-share"]
    assert desc.share_offsets == [ShareOffset("t-share", 0, 0, 0, None)]
