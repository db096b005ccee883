"""ConsumerGroupHeartbeat (KIP-848), in the three steps of Kafka's `consumerGroupHeartbeat`:

1. create or update the member (epoch and static-membership checks, the new member record);
2. update the target assignment (a new group epoch when the subscriptions or their metadata changed,
   then the pure `build_target`);
3. reconcile the member towards its target (`reconcile`), then arm its timers and answer.

The records are returned, all or nothing, for the router to append (Kafka's coordinator runtime);
the replayed state changes only when they are applied.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from groupctl.coordinator.assignors import Assignment
from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.membership import ConsumerGroups, remove_member_records, uses_classic
from groupctl.coordinator.consumer.messages import (
    JOIN_EPOCH,
    LEAVE_EPOCH,
    STATIC_LEAVE_EPOCH,
)
from groupctl.coordinator.consumer.reconcile import MemberAssignment, Owned, reconcile
from groupctl.coordinator.consumer.regexes import maybe_update_regexes
from groupctl.coordinator.consumer.subscriptions import (
    metadata_changed,
    subscribed_ids,
    subscribed_names,
    topic_facts,
)
from groupctl.coordinator.consumer.target import build_target
from groupctl.coordinator.consumer.validation import check_member_epoch, validate_request
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Caller, Result
from groupctl.coordinator.state import GroupIndex
from groupctl.errors import KafkaError
from groupctl.log.replay import ConsumerGroupState
from groupctl.model import GroupState, MemberState
from groupctl.protocol.data.consumer_groups import Assignment as AssignmentData
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
    TopicPartitions,
)
from groupctl.protocol.data.records import ConsumerGroupCurrentMemberAssignmentValue, ConsumerGroupMemberMetadataValue

#: What a group that does not exist yet reads as (a new `ConsumerGroup`): epoch 0, no members, targets or
#: regexes. Only read; whether the group exists is still asked of `group is None`.
_NO_GROUP = ConsumerGroupState()


def default_member() -> ConsumerGroupMemberMetadataValue:
    """A member as `ConsumerGroupMember.Builder(memberId)` starts it (the record's defaults but for nulls)."""
    return ConsumerGroupMemberMetadataValue(
        instance_id=None, rack_id=None, subscribed_topic_regex=None, server_assignor=None,
        classic_member_metadata=None,
    )


def member_copy(member: ConsumerGroupMemberMetadataValue) -> ConsumerGroupMemberMetadataValue:
    """A copy to change: the replayed value is the state's, which only records change."""
    return copy.copy(member)


@dataclass(slots=True)
class JoiningMember:
    """Step 1's outcome: who the member is now, what it was, and the records so far."""

    group_id: str
    member_id: str
    old: ConsumerGroupMemberMetadataValue  # the replayed value (or a default): never changed in place
    ma: MemberAssignment
    replaced: str | None
    records: list[Record]


HeartbeatResult = Result[ConsumerGroupHeartbeatResponseData]


def heartbeat(groups: ConsumerGroups, req: ConsumerGroupHeartbeatRequestData, caller: Caller,
              other: GroupState | None = None) -> HeartbeatResult:
    """One heartbeat from `caller`; `other` is the state of a group of another protocol holding this id
    (None: none).

    An Empty one is replaced when this heartbeat creates the consumer group: the router writes its
    tombstone first. Errors are answered, with nothing to append.
    """
    try:
        validate_request(req, caller.api_version, groups.rt.assignor_names)
        if req.member_epoch in (LEAVE_EPOCH, STATIC_LEAVE_EPOCH):
            return groups.leave(req)
        return _heartbeat(groups, req, caller, other)
    except KafkaError as exc:
        return Result(ConsumerGroupHeartbeatResponseData(error_code=exc.code, error_message=exc.message))


def owned_partitions(req: ConsumerGroupHeartbeatRequestData) -> Owned:
    """The request's TopicPartitions as (topic id, partitions), as reconciliation reads them."""
    owned = req.topic_partitions
    return None if owned is None else [(t.topic_id, t.partitions) for t in owned]


def _heartbeat(groups: ConsumerGroups, req: ConsumerGroupHeartbeatRequestData, caller: Caller,
               other: GroupState | None) -> HeartbeatResult:
    rt = groups.rt
    gid = req.group_id
    group = rt.state.consumer.get(gid)
    if group is None:
        if req.member_epoch != JOIN_EPOCH:
            groups.group(gid)
        if other is not None and other != GroupState.EMPTY:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {gid} is not a consumer group.")
    idx = rt.state.indexes.get(gid) or GroupIndex()

    # 1. create or update the member
    member = _create_or_update_member(groups, req, group, idx)
    updated = _updated_member(member.old, req, caller)
    new_ma = advance(groups, group, idx, member, updated, owned_partitions(req))
    groups.schedule_session_timeout(gid, member.member_id)
    return Result(_response(groups, req, member.member_id, member.ma, new_ma), member.records)


def advance(groups: ConsumerGroups, group: ConsumerGroupState | None, idx: GroupIndex, member: JoiningMember,
            updated: ConsumerGroupMemberMetadataValue, owned: Owned) -> MemberAssignment:
    """Steps 1 (the member record) to 3 of a member's request, whichever protocol it speaks: write the
    member when it changed, bump the group epoch when its subscription or the topics' metadata did, move
    the target, and reconcile the member against what it says it `owned`. The records go to
    `member.records`; the rebalance timer follows the member's new state."""
    rt = groups.rt
    gid = member.group_id
    member_id, old, ma, records = member.member_id, member.old, member.ma, member.records
    known = group if group is not None else _NO_GROUP
    epoch = known.epoch
    bump = epoch == 0
    if updated is not old and updated != old:
        records.append(rec.member_metadata(gid, member_id, updated))
        if set(updated.subscribed_topic_names) != set(old.subscribed_topic_names):
            bump = True
    bump |= maybe_update_regexes(rt, gid, group, idx, old, updated, records)

    # 2. update the target assignment
    new_epoch = epoch
    if bump or gid in rt.metadata_refresh or group is None:
        facts = topic_facts(rt.topics, subscribed_names(known.regexes, idx, old, updated))
        if metadata_changed(group, facts, rt.kafka_40_records):
            bump = True
        if bump:
            new_epoch = epoch + 1
            records += rec.epoch_records(gid, new_epoch, facts, group, rt.kafka_40_records)
        rt.metadata_refresh.discard(gid)
    target_epoch, target = _target(groups, gid, group, idx, new_epoch, member, updated, updated.instance_id)

    # 3. reconcile
    new_ma = ma
    if not ma.is_reconciled_to(target_epoch):
        owners = idx.owners

        def owner_epoch(topic_id: uuid.UUID, partition: int) -> int:
            holder = owners.get((topic_id, partition))
            return -1 if holder is None else holder[1]

        new_ma = reconcile(
            ma, target_epoch=target_epoch, target=target, owner_epoch=owner_epoch,
            owned=owned, subscribed=subscribed_ids(rt.topics, known.regexes, updated),
        )
        if new_ma != ma:
            records.append(rec.current_record(gid, member_id, new_ma))
    if new_ma != ma:
        if new_ma.state == MemberState.UNREVOKED_PARTITIONS:
            groups.schedule_rebalance_timeout(gid, member_id, new_ma.member_epoch, updated.rebalance_timeout_ms)
        else:
            groups.cancel_rebalance_timeout(gid, member_id)
    return new_ma


def _create_or_update_member(
    groups: ConsumerGroups, req: ConsumerGroupHeartbeatRequestData, group: ConsumerGroupState | None,
    idx: GroupIndex,
) -> JoiningMember:
    """The member this heartbeat is from, checked (size, epoch, static ownership); a static member
    rejoining under a new member id takes its predecessor's place here."""
    rt = groups.rt
    gid = req.group_id
    known = group if group is not None else _NO_GROUP
    members, currents = known.members, known.current
    member_id = req.member_id
    check_group_size(rt.max_group_size, group, member_id)
    if member_id == "":
        member_id = rt.ids.member_id()
    create = req.member_epoch == JOIN_EPOCH
    iid = req.instance_id
    if iid is None:
        old = members.get(member_id)
        if old is None and member_id not in currents and not create:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {gid}.")
        return _checked(req, gid, member_id, old if old is not None else default_member(), currents)
    existing = idx.static.get(iid)
    if create and existing is None:
        old = members.get(member_id)
        return _checked(req, gid, member_id, old if old is not None else default_member(), currents)
    if create and existing is not None:
        # Only a consumer-protocol predecessor must have left (-2): a classic one sends nothing when it closes
        # (KAFKA-17228), so a static member upgrading to the consumer protocol replaces it.
        if not uses_classic(members.get(existing)) \
                and rec.member_assignment(currents.get(existing)).member_epoch != STATIC_LEAVE_EPOCH:
            raise KafkaError(
                "UNRELEASED_INSTANCE_ID",
                f"Static member {member_id} with instance id {iid} cannot join the group because the "
                f"instance id is owned by {existing} member.",
            )
        assert group is not None, "a static member is indexed only in its group"
        return replace_static(group, gid, existing, member_id)
    check_static_member(gid, existing, member_id, iid)
    return _checked(req, gid, member_id, members[member_id], currents)


def check_group_size(limit: int, group: ConsumerGroupState | None, member_id: str) -> None:
    """`throwIfConsumerGroupIsFull`: only a member new to the group can exceed the limit (counting, a
    union of two key sets, is left to it)."""
    if group is None:
        return
    members, currents = group.members, group.current
    if (member_id == "" or member_id not in members) and len(members.keys() | currents.keys()) >= limit:
        raise KafkaError(
            "GROUP_MAX_SIZE_REACHED", f"The consumer group has reached its maximum capacity of {limit} members.",
        )


def check_static_member(group_id: str, existing: str | None, member_id: str, instance_id: str) -> None:
    """A known static member must name the member id that holds its instance id."""
    if existing is None:
        raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {instance_id} is unknown.")
    if existing != member_id:
        raise KafkaError(
            "FENCED_INSTANCE_ID",
            f"Static member {member_id} with instance id {instance_id} was fenced by member {existing}.",
        )


def replace_static(group: ConsumerGroupState, group_id: str, existing: str, member_id: str) -> JoiningMember:
    """A static member rejoining under a new member id takes its predecessor's place: the records move its
    metadata, target and assignment to the new id, at member epoch 0."""
    previous = rec.member_assignment(group.current.get(existing))
    old = group.members[existing]
    ma = MemberAssignment(previous.state, 0, 0, previous.assigned, previous.pending_revocation)
    records = remove_member_records(group_id, existing)
    records.append(rec.member_metadata(group_id, member_id, old))
    records.append(rec.target_member(group_id, member_id, group.targets_map(existing)))
    records.append(rec.current_record(group_id, member_id, ma))
    return JoiningMember(group_id, member_id, old, ma, existing, records)


def _checked(req: ConsumerGroupHeartbeatRequestData, group_id: str, member_id: str,
             old: ConsumerGroupMemberMetadataValue,
             currents: Mapping[str, ConsumerGroupCurrentMemberAssignmentValue]) -> JoiningMember:
    ma = rec.member_assignment(currents.get(member_id))
    check_member_epoch(ma, req.member_epoch, owned_partitions(req))
    return JoiningMember(group_id, member_id, old, ma, None, [])


def _updated_member(old: ConsumerGroupMemberMetadataValue, req: ConsumerGroupHeartbeatRequestData,
                    caller: Caller) -> ConsumerGroupMemberMetadataValue:
    """The member record after this heartbeat: what the request sent replaces, None keeps; the client's
    id and address are the caller's. `old` itself when nothing differs (a steady-state heartbeat), so
    the caller's `updated != old` is an identity check."""
    changes: dict[str, object] = {}
    if req.instance_id is not None and req.instance_id != old.instance_id:
        changes["instance_id"] = req.instance_id
    if req.rack_id is not None and req.rack_id != old.rack_id:
        changes["rack_id"] = req.rack_id
    if req.rebalance_timeout_ms != -1 and req.rebalance_timeout_ms != old.rebalance_timeout_ms:
        changes["rebalance_timeout_ms"] = req.rebalance_timeout_ms
    if req.server_assignor is not None and req.server_assignor != old.server_assignor:
        changes["server_assignor"] = req.server_assignor
    if req.subscribed_topic_names is not None:
        names = sorted(set(req.subscribed_topic_names))
        if names != old.subscribed_topic_names:
            changes["subscribed_topic_names"] = names
    if req.subscribed_topic_regex is not None and req.subscribed_topic_regex != old.subscribed_topic_regex:
        changes["subscribed_topic_regex"] = req.subscribed_topic_regex
    if caller.client_id != old.client_id:
        changes["client_id"] = caller.client_id
    if caller.client_host != old.client_host:
        changes["client_host"] = caller.client_host
    if old.classic_member_metadata is not None:
        changes["classic_member_metadata"] = None
    if not changes:
        return old
    updated = member_copy(old)
    for attr, value in changes.items():
        setattr(updated, attr, value)
    return updated


def _target(
    groups: ConsumerGroups, gid: str, group: ConsumerGroupState | None, idx: GroupIndex, new_epoch: int,
    member: JoiningMember, updated: ConsumerGroupMemberMetadataValue, instance_id: str | None,
) -> tuple[int, Assignment]:
    """The target epoch and this member's target: a new target when the group epoch moved past it."""
    known = group if group is not None else _NO_GROUP
    assignment_epoch = known.assignment_epoch
    member_id = member.member_id
    if new_epoch <= assignment_epoch:
        target = known.targets_map(member_id)
        if not target and member_id not in known.targets and instance_id is not None:
            static = idx.static.get(instance_id)
            if static is not None:
                target = known.targets_map(static)
        return assignment_epoch, target
    rt = groups.rt
    members: dict[str, ConsumerGroupMemberMetadataValue] = dict(known.members)
    old_targets: dict[str, Assignment] = {m: known.targets_map(m) for m in known.targets}
    if member.replaced is not None:
        members.pop(member.replaced, None)
        old_targets[member_id] = old_targets.pop(member.replaced, {})
    members[member_id] = updated
    subscriptions = {mid: subscribed_ids(rt.topics, known.regexes, meta) for mid, meta in members.items()}
    partitions: dict[uuid.UUID, int] = {}
    for ids in subscriptions.values():
        for topic_id in ids:
            if topic_id not in partitions:
                topic = rt.topics.by_id(topic_id)
                partitions[topic_id] = topic.partitions  # type: ignore[union-attr]  # subscribed_ids: known topics only
    records, targets = build_target(
        gid, new_epoch, members=members, subscriptions=subscriptions, old_targets=old_targets,
        partitions=partitions, default_assignor=rt.assignor_names[0],
    )
    member.records += records
    return new_epoch, targets[member_id]


def _response(groups: ConsumerGroups, req: ConsumerGroupHeartbeatRequestData, member_id: str,
              ma: MemberAssignment, new_ma: MemberAssignment) -> ConsumerGroupHeartbeatResponseData:
    full = req.member_epoch == JOIN_EPOCH or (
        req.rebalance_timeout_ms != -1 and req.subscribed_topic_names is not None
        and req.topic_partitions is not None
    )
    response = ConsumerGroupHeartbeatResponseData(
        member_id=member_id, member_epoch=new_ma.member_epoch,
        heartbeat_interval_ms=groups.rt.configs.heartbeat_interval_ms(req.group_id),
    )
    if full or new_ma.assigned != ma.assigned:
        response.assignment = assignment_data(new_ma.assigned)
    return response


def assignment_data(assigned: Assignment) -> AssignmentData:
    """A member's assignment as the response carries it: topics in id order, each one's partitions sorted."""
    return AssignmentData(topic_partitions=[
        TopicPartitions(topic_id=topic_id, partitions=sorted(partitions))
        for topic_id, partitions in sorted(assigned.items(), key=lambda kv: kv[0].bytes)
    ])
