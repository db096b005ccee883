"""Every `GroupDescription` is built here, whoever holds the group.

Three sources describe a group: the replayed state of `__consumer_offsets` records (a dump, or the
local coordinator's offsets and KIP-848 groups), a live classic group (the in-process coordinator's
rebalance in flight), and a broker's answers (DescribeGroups, ConsumerGroupDescribe). They all meet
in the same few builders, so a group shows the same way from a dump, from DIR and from a cluster,
and a member shows the same way whoever describes it. What the stored forms themselves say (the
consumer-protocol bytes, the partitions a member holds) is read one floor down, in
`groupctl.protocol.member_bytes`, which replay and the wire client use too.

Nothing here changes state: the replay (`groupctl.log.replay`) folds records, this module reads.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from groupctl.model import CommittedOffset, GroupDescription, GroupState, Member, MemberState, TopicPartition
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE
from groupctl.protocol.member_bytes import assigned_partitions, decode_member_bytes, held_partitions
from groupctl.protocol.primitives import uuid_to_kafka

if TYPE_CHECKING:
    from groupctl.kafka.groups import ClassicGroupInfo, ConsumerGroupInfo
    from groupctl.log.replay import ClassicGroupState, ConsumerGroupState, Replay, StoredClassicMember
    from groupctl.protocol.data.consumer_groups import Member as DescribedConsumerMember
    from groupctl.protocol.data.consumer_groups import MemberAssignment
    from groupctl.protocol.data.group_admin import DescribedGroupMember
    from groupctl.protocol.data.records import (
        ConsumerGroupMemberMetadataValue,
        TopicPartitions,
    )
    from groupctl.protocol.data.records import TopicPartition as TargetTopicPartition

__all__ = [
    "classic_description",
    "classic_member",
    "classic_member_from_bytes",
    "committed_offsets",
    "describe_all_replayed",
    "describe_replayed",
    "from_consumer_group_describe",
    "from_describe_groups",
    "member_holds",
    "replayed_mixed",
    "stored_protocol",
]

# -- what a member holds ---------------------------------------------------------------------------


def member_holds(member: Member) -> list[TopicPartition]:
    """`held_partitions` of a described member, sorted: what removing it takes from the group."""
    return sorted(held_partitions(member.assignment, member.pending_revocation))


# -- classic members -------------------------------------------------------------------------------


def classic_member(
    member_id: str,
    instance_id: str | None,
    client_id: str,
    host: str,
    subscription: dict | None,
    assignment: list[TopicPartition],
    *,
    rebalance_timeout_ms: int | None = None,
    session_timeout_ms: int | None = None,
) -> Member:
    """A classic-protocol member from its decoded subscription (None: undecoded) and its partitions.

    A rebalance timeout of -1 (GroupMetadataValue v0 has none) is the session timeout, as Kafka loads it.
    """
    subscription = subscription or {}
    return Member(
        member_id=member_id,
        instance_id=instance_id,
        client_id=client_id,
        host=host,
        protocol="classic",
        assignment=assignment,
        subscribed_topics=list(subscription.get("topics") or ()),
        rack=subscription.get("rackId"),
        rebalance_timeout_ms=session_timeout_ms if rebalance_timeout_ms == -1 else rebalance_timeout_ms,
        session_timeout_ms=session_timeout_ms,
    )


def classic_member_from_bytes(
    member_id: str,
    instance_id: str | None,
    client_id: str,
    host: str,
    subscription: bytes | None,
    assignment: bytes | None,
    *,
    consumer: bool,
    rebalance_timeout_ms: int | None,
    session_timeout_ms: int | None,
) -> Member:
    """A classic member as its group holds it (the bytes it joined with, the assignment it was given)."""
    decoded_subscription, decoded_assignment = decode_member_bytes(subscription, assignment, consumer)
    return classic_member(
        member_id, instance_id, client_id, host, decoded_subscription,
        sorted(assigned_partitions(decoded_assignment)),
        rebalance_timeout_ms=rebalance_timeout_ms, session_timeout_ms=session_timeout_ms,
    )


def _stored_classic_member(m: StoredClassicMember) -> Member:
    """A member of a GroupMetadataValue, its bytes decoded."""
    meta = m.metadata
    return classic_member(
        meta.member_id, meta.group_instance_id, meta.client_id, meta.client_host,
        m.subscription, sorted(assigned_partitions(m.assignment)),
        rebalance_timeout_ms=meta.rebalance_timeout, session_timeout_ms=meta.session_timeout,
    )


def classic_description(
    group_id: str,
    state: str,
    *,
    protocol_type: str,
    protocol: str | None,
    generation: int,
    leader: str | None,
    state_timestamp: int | None,
    members: Iterable[Member],
    coordinator: str | None = None,
    offsets: list[CommittedOffset] | None = None,
) -> GroupDescription:
    """A classic group, stored or live, with its members sorted by member id."""
    return GroupDescription(
        group_id, "classic", state, protocol_type=protocol_type, assignor=protocol, group_epoch=generation,
        coordinator=coordinator, leader=leader, state_timestamp=state_timestamp,
        members=sorted(members, key=lambda m: m.member_id), offsets=offsets if offsets is not None else [],
    )


# -- from replayed state ---------------------------------------------------------------------------


def stored_protocol(meta: ConsumerGroupMemberMetadataValue) -> str:
    """The protocol a KIP-848 member speaks, from its ConsumerGroupMemberMetadataValue: Kafka keeps
    `classicMemberMetadata` only for members that joined with JoinGroup (online migration), and writes
    an explicit null for the others. A record without the tagged field reads as an empty struct (no
    protocols) — how earlier groupctl releases wrote consumer members — and a JoinGroup always
    names a protocol, so such a member is a consumer-protocol one."""
    classic = meta.classic_member_metadata
    return "classic" if classic is not None and classic.supported_protocols else "consumer"


def replayed_mixed(state: ConsumerGroupState) -> bool:
    """`GroupDescription.mixed` of a replayed consumer group, without describing it (for listings)."""
    return any(stored_protocol(meta) == "classic" for meta in state.members.values())


def committed_offsets(replay: Replay, group_id: str) -> list[CommittedOffset]:
    """The group's committed offsets in the replayed state, by topic and partition."""
    committed = replay.offsets.get(group_id) or {}
    return [
        CommittedOffset(topic, partition, e.offset, e.metadata, None if e.leader_epoch == -1 else e.leader_epoch,
                        e.commit_timestamp, e.expire_timestamp)
        for (topic, partition), e in sorted(committed.items(), key=lambda kv: kv[0])
    ]


def describe_replayed(
    replay: Replay, group_id: str, *, topic_names: Mapping[str, str] | None = None, coordinator: str | None = None
) -> GroupDescription:
    """The group as `group describe` would show it from the replayed state; KeyError when it does not exist.

    `topic_names` maps topic ids (base64url) to names: KIP-848 records name topics by id only.
    """
    if not replay.exists(group_id):
        raise KeyError(group_id)
    offsets = committed_offsets(replay, group_id)
    state = replay.consumer.get(group_id)
    if state is not None:
        return _replayed_consumer(group_id, state, offsets, topic_names or {}, coordinator)
    classic = replay.classic.get(group_id)
    if classic is None:
        # A simple group: the empty classic group without protocol type the broker creates.
        return GroupDescription(group_id, "classic", GroupState.EMPTY, protocol_type="", group_epoch=0,
                                coordinator=coordinator, offsets=offsets)
    return _replayed_classic(group_id, classic, offsets, coordinator)


def describe_all_replayed(
    replay: Replay, *, topic_names: Mapping[str, str] | None = None, coordinator: str | None = None
) -> list[GroupDescription]:
    """`describe_replayed` of every group, in `replay.group_ids()` order."""
    return [describe_replayed(replay, g, topic_names=topic_names, coordinator=coordinator)
            for g in replay.group_ids()]


def _replayed_classic(
    group_id: str, classic: ClassicGroupState, offsets: list[CommittedOffset], coordinator: str | None
) -> GroupDescription:
    """A stored classic group loads as Kafka loads it: Stable with members, else Empty."""
    return classic_description(
        group_id, GroupState.STABLE if classic.members else GroupState.EMPTY, protocol_type=classic.protocol_type,
        protocol=classic.protocol, generation=classic.generation, leader=classic.leader,
        state_timestamp=None if classic.current_state_timestamp == -1 else classic.current_state_timestamp,
        members=[_stored_classic_member(m) for m in classic.members], coordinator=coordinator, offsets=offsets,
    )


def _replayed_consumer(group_id: str, state: ConsumerGroupState, offsets: list[CommittedOffset],
                       names: Mapping[str, str], coordinator: str | None) -> GroupDescription:
    cache: dict[uuid.UUID, str] = {}

    def topic(topic_id: uuid.UUID) -> str:
        name = cache.get(topic_id)
        if name is None:
            text = uuid_to_kafka(topic_id)
            name = cache[topic_id] = names.get(text, text)
        return name

    def partitions(tps: Iterable[TopicPartitions | TargetTopicPartition]) -> list[TopicPartition]:
        return sorted(TopicPartition(topic(t.topic_id), p) for t in tps for p in t.partitions)

    members = []
    for mid in state.member_ids():
        meta = state.members.get(mid)
        cur = state.current.get(mid)
        classic = meta.classic_member_metadata if meta is not None and stored_protocol(meta) == "classic" else None
        target = state.targets.get(mid)
        members.append(Member(
            member_id=mid,
            # A member with only a type-8 record: Kafka's builder defaults for the rest.
            instance_id=meta.instance_id if meta is not None else None,
            client_id=meta.client_id if meta is not None else "",
            host=meta.client_host if meta is not None else "",
            protocol=stored_protocol(meta) if meta is not None else "consumer",
            # A member without a type-8 record has Kafka's builder defaults: epoch 0, STABLE.
            member_epoch=cur.member_epoch if cur is not None else 0,
            previous_member_epoch=cur.previous_member_epoch if cur is not None else -1,
            member_state=MemberState.name_of(cur.state if cur is not None else MemberState.STABLE),
            assignment=partitions(cur.assigned_partitions) if cur is not None else [],
            target_assignment=partitions(target.topic_partitions) if target is not None else [],
            pending_revocation=partitions(cur.partitions_pending_revocation) if cur is not None else [],
            subscribed_topics=sorted(meta.subscribed_topic_names) if meta is not None else [],
            subscribed_regex=meta.subscribed_topic_regex if meta is not None else None,
            rack=meta.rack_id if meta is not None else None,
            server_assignor=meta.server_assignor if meta is not None else None,
            rebalance_timeout_ms=meta.rebalance_timeout_ms if meta is not None else None,
            session_timeout_ms=classic.session_timeout_ms if classic is not None else None,
        ))
    return GroupDescription(
        group_id, "consumer", state.state(), protocol_type=PROTOCOL_TYPE, assignor=state.preferred_assignor(),
        group_epoch=state.epoch, assignment_epoch=state.assignment_epoch, coordinator=coordinator,
        members=members, offsets=offsets,
    )


# -- from a broker's answers -----------------------------------------------------------------------


def from_describe_groups(info: ClassicGroupInfo) -> GroupDescription:
    """DescribeGroups' answer for one group; it carries no generation, leader or timeouts."""
    g = info.described
    consumer = g.protocol_type == PROTOCOL_TYPE
    return GroupDescription(
        group_id=g.group_id,
        type="classic",
        state=g.group_state,
        protocol_type=g.protocol_type,
        assignor=g.protocol_data or None,
        coordinator=str(info.coordinator) if info.coordinator else None,
        members=[_described_classic_member(m, consumer) for m in g.members],
    )


def _described_classic_member(m: DescribedGroupMember, consumer: bool) -> Member:
    """A DescribeGroups member, its bytes decoded as the consumer protocol when the group uses it; its
    partitions stay in the order the broker's assignment lists them."""
    subscription, assignment = decode_member_bytes(m.member_metadata, m.member_assignment, consumer)
    return classic_member(m.member_id, m.group_instance_id, m.client_id, m.client_host, subscription,
                          assigned_partitions(assignment))


def from_consumer_group_describe(info: ConsumerGroupInfo) -> GroupDescription:
    """ConsumerGroupDescribe's answer for one group (no previous epochs, member states or pending revocations)."""
    g = info.described
    return GroupDescription(
        group_id=g.group_id,
        type="consumer",
        state=g.group_state,
        protocol_type=PROTOCOL_TYPE,
        assignor=g.assignor_name or None,
        group_epoch=g.group_epoch,
        assignment_epoch=g.assignment_epoch,
        coordinator=str(info.coordinator) if info.coordinator else None,
        members=[_described_consumer_member(m) for m in g.members],
    )


def _described_consumer_member(m: DescribedConsumerMember) -> Member:
    return Member(
        member_id=m.member_id,
        instance_id=m.instance_id,
        client_id=m.client_id,
        host=m.client_host,
        # MemberType (v1, KIP-1099): 0 the classic protocol; a v0 answer (-1) cannot tell, and consumer is assumed.
        protocol="classic" if m.member_type == 0 else "consumer",
        member_epoch=m.member_epoch,
        assignment=_described_partitions(m.assignment),
        target_assignment=_described_partitions(m.target_assignment),
        subscribed_topics=list(m.subscribed_topic_names),
        subscribed_regex=m.subscribed_topic_regex,
        rack=m.rack_id,
    )


def _described_partitions(assignment: MemberAssignment) -> list[TopicPartition]:
    """Named by topic name, or by topic id (base64url) when the broker sent no name; in the broker's order."""
    return [
        TopicPartition(tp.topic_name or uuid_to_kafka(tp.topic_id), p)
        for tp in assignment.topic_partitions
        for p in tp.partitions
    ]
