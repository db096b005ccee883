"""Share groups (KIP-932) described from a broker's answers: ShareGroupDescribe and DescribeShareGroupOffsets
into the backend-neutral `GroupDescription`, so a share group renders with the views of
kafka-share-groups.sh whoever answered.

A share group commits no offsets: its position on a partition is the share-partition's start offset,
shared by every member, and its members share partitions (several members may hold the same one).
"""

from __future__ import annotations

from groupctl.kafka.share_groups import UNINITIALISED, ShareGroupInfo, ShareOffsetsAnswer
from groupctl.model import GroupDescription, Member, ShareOffset, TopicPartition
from groupctl.protocol.data.share_groups import Member as DescribedShareMember
from groupctl.protocol.data.share_groups import MemberAssignment
from groupctl.protocol.primitives import uuid_to_kafka

#: The share-group assignor Kafka 4.x runs (`SimpleAssignor`); ShareGroupDescribe names it too.
SHARE_ASSIGNOR = "simple"


def from_share_group_describe(info: ShareGroupInfo, offsets: ShareOffsetsAnswer | None = None) -> GroupDescription:
    """ShareGroupDescribe's answer for one group, with its start offsets when DescribeShareGroupOffsets was asked."""
    g = info.described
    return GroupDescription(
        group_id=g.group_id,
        type="share",
        state=g.group_state,
        protocol_type="share",
        assignor=g.assignor_name or SHARE_ASSIGNOR,
        group_epoch=g.group_epoch,
        assignment_epoch=g.assignment_epoch,
        coordinator=str(info.coordinator) if info.coordinator else None,
        members=[_described_share_member(m) for m in g.members],
        share_offsets=share_offsets(offsets) if offsets is not None else [],
    )


def _described_share_member(m: DescribedShareMember) -> Member:
    """A share member holds its assignment with no target beside it (ShareGroupDescribe has none): the
    share-group coordinator assigns without revocation, so what it holds is what it was given."""
    return Member(
        member_id=m.member_id,
        instance_id=None,
        client_id=m.client_id,
        host=m.client_host,
        protocol="share",
        member_epoch=m.member_epoch,
        assignment=_partitions(m.assignment),
        subscribed_topics=list(m.subscribed_topic_names),
        rack=m.rack_id,
    )


def _partitions(assignment: MemberAssignment) -> list[TopicPartition]:
    return [TopicPartition(tp.topic_name or uuid_to_kafka(tp.topic_id), p)
            for tp in assignment.topic_partitions for p in tp.partitions]


def share_offsets(answer: ShareOffsetsAnswer) -> list[ShareOffset]:
    """Each share-partition by topic and partition: StartOffset -1 (not initialised) as None; Lag only where
    the answer's version carries it (v1, Kafka 4.2+) and the broker knew it (-1 is unknown)."""
    rows = []
    for topic in answer.group.topics:
        name = topic.topic_name or uuid_to_kafka(topic.topic_id)
        for p in topic.partitions:
            lag = p.lag if answer.has_lag and p.lag >= 0 else None
            rows.append(ShareOffset(
                topic=name, partition=p.partition_index,
                start_offset=None if p.start_offset == UNINITIALISED else p.start_offset,
                leader_epoch=None if p.leader_epoch < 0 else p.leader_epoch, lag=lag))
    return sorted(rows, key=lambda o: (o.topic, o.partition))
