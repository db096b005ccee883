"""SyncGroup, Heartbeat and LeaveGroup for classic groups: a generation's members settling, staying,
and leaving (`classicGroupSync`, `classicGroupHeartbeat`, `classicGroupLeave`)."""

from __future__ import annotations

from groupctl.coordinator.classic.group import ClassicGroup
from groupctl.coordinator.classic.groups import ClassicGroups
from groupctl.coordinator.classic.messages import NONE, SyncCallback, join_error
from groupctl.coordinator.classic.records import group_record
from groupctl.coordinator.runtime import Result, classic_heartbeat_key, classic_sync_key
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.leaving import LeaveAnswer
from groupctl.model import GroupState, TopicPartition
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    MemberIdentity,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.protocol.member_bytes import assigned_partitions, decode_member_bytes

_CODE = KAFKA_ERROR_CODES
EMPTY, STABLE = GroupState.EMPTY, GroupState.STABLE
PREPARING, COMPLETING = GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE


def sync(classic: ClassicGroups, req: SyncGroupRequestData, respond: SyncCallback) -> Result[None]:
    """SyncGroup: the assignment now (Stable), when the leader sends it, or an error."""
    out: Result[None] = Result()
    try:
        _sync(classic, req, respond, out)
    except KafkaError as exc:
        out = Result()
        out.reply(respond, SyncGroupResponseData(error_code=exc.code))
    return out


def _sync(classic: ClassicGroups, req: SyncGroupRequestData, respond: SyncCallback, out: Result) -> None:
    group = classic.group(req.group_id)
    group.validate_member(req.member_id, req.group_instance_id)
    if req.generation_id != group.generation:
        raise KafkaError("ILLEGAL_GENERATION")
    if _inconsistent(req.protocol_type, group.protocol_type) or _inconsistent(req.protocol_name, group.protocol_name):
        raise KafkaError("INCONSISTENT_GROUP_PROTOCOL")
    if group.state == EMPTY:
        raise KafkaError("UNKNOWN_MEMBER_ID")
    if group.state == PREPARING:
        raise KafkaError("REBALANCE_IN_PROGRESS")
    member = group.members[req.member_id]
    if group.state == STABLE:
        _sync_received(classic, group, req.member_id)
        out.reply(respond, _assigned(group, member.assignment))
        return
    member.awaiting_sync = respond
    _sync_received(classic, group, req.member_id)
    if group.leader != req.member_id:
        return
    assignment = {a.member_id: a.assignment for a in req.assignments}
    for m in group.members.values():
        assignment.setdefault(m.member_id, b"")
    for m in group.members.values():
        m.assignment = assignment[m.member_id]
    classic.transition(group, STABLE)
    out.records.append(group_record(group, assignment))
    for m in group.members.values():
        if m.awaiting_sync is not None:
            callback, m.awaiting_sync = m.awaiting_sync, None
            out.reply(callback, _assigned(group, m.assignment))
            classic.reschedule_heartbeat(group, m)


def _assigned(group: ClassicGroup, assignment: bytes) -> SyncGroupResponseData:
    return SyncGroupResponseData(error_code=NONE, protocol_type=group.protocol_type,
                                 protocol_name=group.protocol_name, assignment=assignment)


def _sync_received(classic: ClassicGroups, group: ClassicGroup, member_id: str) -> None:
    group.pending_sync.discard(member_id)
    if not group.pending_sync:
        classic.rt.timers.cancel(classic_sync_key(group.group_id))


def heartbeat(classic: ClassicGroups, req: HeartbeatRequestData) -> Result[HeartbeatResponseData]:
    """Heartbeat: the error code Kafka answers with (0 when all is well); it writes nothing."""
    try:
        group = classic.group(req.group_id)
        group.validate_member(req.member_id, req.group_instance_id)
        if req.generation_id != group.generation:
            raise KafkaError("ILLEGAL_GENERATION")
    except KafkaError as exc:
        return Result(HeartbeatResponseData(error_code=exc.code))
    if group.state == EMPTY:
        return Result(HeartbeatResponseData(error_code=_CODE["UNKNOWN_MEMBER_ID"]))
    classic.reschedule_heartbeat(group, group.members[req.member_id])
    code = _CODE["REBALANCE_IN_PROGRESS"] if group.state == PREPARING else NONE
    return Result(HeartbeatResponseData(error_code=code))


def leave_group(classic: ClassicGroups, group_id: str, identities: list[MemberIdentity]) -> Result[LeaveAnswer]:
    """LeaveGroup: an answer per member named, with what each removed member held; one rebalance for them all."""
    group = classic.group(group_id)
    out: Result[LeaveAnswer] = Result(LeaveAnswer())
    answer = out.response
    left = False
    for identity in identities:
        member_id, instance_id = identity.member_id, identity.group_instance_id
        if member_id == "":
            target = group.static.get(instance_id) if instance_id is not None else None
            if target is None:
                answer.add(identity, _CODE["UNKNOWN_MEMBER_ID"])
                continue
            removed, held = target, _leave_member(classic, group, target, out)
        elif member_id in group.pending_join:
            group.pending_join.discard(member_id)
            classic.rt.timers.cancel(classic_heartbeat_key(group_id, member_id))
            removed, held = member_id, []
        else:
            try:
                group.validate_member(member_id, instance_id)
            except KafkaError as exc:
                answer.add(identity, exc.code)
                continue
            removed, held = member_id, _leave_member(classic, group, member_id, out)
        answer.add(identity, NONE, removed, held)
        left = True
    if left:
        if group.state in (STABLE, COMPLETING):
            classic.maybe_prepare_or_complete(group, out)
        elif group.state == PREPARING:
            classic.maybe_complete_join(group, out)
    return out


def _leave_member(classic: ClassicGroups, group: ClassicGroup, member_id: str, out: Result) -> list[TopicPartition]:
    """Remove one member; what it held, read from its assignment before it goes."""
    member = group.members[member_id]
    classic.rt.timers.cancel(classic_heartbeat_key(group.group_id, member_id))
    if member.awaiting_join is not None:
        callback, member.awaiting_join = member.awaiting_join, None
        out.reply(callback, join_error(_CODE["UNKNOWN_MEMBER_ID"], ""))
    # Read as the consumer protocol whatever the group's protocol type: bytes that do not decode hold nothing.
    held = assigned_partitions(decode_member_bytes(None, member.assignment, True)[1]) if member.assignment else []
    group.remove(member_id)
    return held


def _inconsistent(requested: str | None, current: str | None) -> bool:
    return requested is not None and current is not None and requested != current
