"""Share groups (KIP-932) described into the backend-neutral `GroupDescription`, from a broker's answers
(ShareGroupDescribe and DescribeShareGroupOffsets) and from replayed dump records, so a share group renders
with the views of kafka-share-groups.sh whoever answered.

A share group commits no offsets: its position on a partition is the share-partition's start offset,
shared by every member, and its members share partitions (several members may hold the same one). From
`__consumer_offsets` alone a dump knows which share-partitions were initialised (type 15) but not their
start offsets, which live in `__share_group_state`: each is shown without one (`-`, as kafka-share-groups.sh
shows a partition nothing was acknowledged on) unless that topic's records are read too.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Final

from groupctl.kafka.share_groups import UNINITIALISED, ShareGroupInfo, ShareOffsetsAnswer
from groupctl.log.share_groups import ShareGroupState
from groupctl.model import GroupDescription, Member, MemberState, ShareOffset, TopicPartition
from groupctl.protocol.data.share_groups import Member as DescribedShareMember
from groupctl.protocol.data.share_groups import MemberAssignment
from groupctl.protocol.primitives import uuid_to_kafka

#: The share-group assignor Kafka 4.x runs (`SimpleAssignor`): the first (in 4.1 the only) of
#: `group.share.assignors`; ShareGroupDescribe names it too.
SHARE_ASSIGNOR: Final = "simple"
SHARE_PROTOCOL: Final = "share"


def from_share_group_describe(info: ShareGroupInfo, offsets: ShareOffsetsAnswer | None = None) -> GroupDescription:
    """ShareGroupDescribe's answer for one group, with its start offsets when DescribeShareGroupOffsets was asked."""
    g = info.described
    return GroupDescription(
        group_id=g.group_id,
        type="share",
        state=g.group_state,
        protocol_type=SHARE_PROTOCOL,
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
        protocol=SHARE_PROTOCOL,
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


# -- from replayed records -------------------------------------------------------------------------


def describe_share_group(group_id: str, state: ShareGroupState, *, topic_names: Mapping[str, str] | None = None,
                         coordinator: str | None = None) -> GroupDescription:
    """The share group as it stands in the replayed records. `topic_names` maps topic ids (base64url)
    to names for the ids the records do not name themselves."""
    names = {uuid_to_kafka(topic_id): name for topic_id, name in state.topic_names().items()}
    names = {**(topic_names or {}), **names}

    def topic(topic_id: uuid.UUID) -> str:
        text = uuid_to_kafka(topic_id)
        return names.get(text, text)

    def partitions(tps: Iterable[Any]) -> list[TopicPartition]:
        return sorted(TopicPartition(topic(t.topic_id), p) for t in tps for p in t.partitions)

    members = []
    for mid in state.member_ids():
        meta = state.members.get(mid)
        cur = state.current.get(mid)
        target = state.targets.get(mid)
        members.append(Member(
            member_id=mid,
            instance_id=None,  # share groups have no static membership
            client_id=meta.client_id if meta is not None else "",
            host=meta.client_host if meta is not None else "",
            protocol=SHARE_PROTOCOL,
            # A member without a type-14 record has Kafka's builder defaults: epoch 0, STABLE.
            member_epoch=cur.member_epoch if cur is not None else 0,
            previous_member_epoch=cur.previous_member_epoch if cur is not None else -1,
            member_state=MemberState.name_of(cur.state if cur is not None else MemberState.STABLE),
            assignment=partitions(cur.assigned_partitions) if cur is not None else [],
            target_assignment=partitions(target.topic_partitions) if target is not None else [],
            subscribed_topics=sorted(meta.subscribed_topic_names) if meta is not None else [],
            rack=meta.rack_id if meta is not None else None,
        ))
    return GroupDescription(
        group_id, "share", state.state(), protocol_type=SHARE_PROTOCOL, assignor=SHARE_ASSIGNOR,
        group_epoch=state.epoch, assignment_epoch=state.assignment_epoch, coordinator=coordinator,
        members=members, share_offsets=_share_partitions(state, topic),
    )


def _share_partitions(state: ShareGroupState, topic: Any) -> list[ShareOffset]:
    """The share-partitions initialised in `__share_group_state` (type 15), without start offsets."""
    meta = state.partition_state
    if meta is None:
        return []
    found = {(topic(t.topic_id), p) for t in meta.initialized_topics for p in t.partitions}
    return [ShareOffset(name, p, None) for name, p in sorted(found)]
