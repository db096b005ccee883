"""Share groups (KIP-932) as `group describe` shows them, from replayed dump records.

The shape is what ShareGroupDescribe gives live: type "share", state Empty or Stable, the broker's
default assignor "simple" (`group.share.assignors`), members speaking the "share" protocol with their
epochs and assignment. A dump adds each member's target assignment and, from the type-15 record,
the share-partitions initialised for the group in `__share_group_state`; their start offsets are in
that topic, so from `__consumer_offsets` alone each is shown without one (`-`, as kafka-share-groups.sh
shows a partition nothing was acknowledged on).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Final

from groupctl.log.share_groups import ShareGroupState
from groupctl.model import GroupDescription, Member, MemberState, ShareOffset, TopicPartition
from groupctl.protocol.primitives import uuid_to_kafka

__all__ = ["SHARE_ASSIGNOR", "SHARE_PROTOCOL", "describe_share_group"]

SHARE_ASSIGNOR: Final = "simple"
"""The first (and in 4.1 the only) of `group.share.assignors`."""
SHARE_PROTOCOL: Final = "share"


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
