"""JoinGroup for classic groups (`classicGroupJoin`): new members, known members, static members
taking over their instance id (KIP-345), member ids required first (KIP-394).

The handler changes the live group only once the request is valid, and returns what to append and
whom to answer; a request it rejects leaves no trace (a new group it refused does not exist).
"""

from __future__ import annotations

from groupctl.coordinator.classic.group import (
    MEMBER_ID_REQUIRED_VERSION,
    NEW_MEMBER_JOIN_TIMEOUT_MS,
    SKIP_ASSIGNMENT_VERSION,
    ClassicGroup,
    ClassicMember,
)
from groupctl.coordinator.classic.groups import ClassicGroups, join_response
from groupctl.coordinator.classic.messages import JoinCallback, answer_join, join_error, protocol_pairs
from groupctl.coordinator.classic.records import group_record
from groupctl.coordinator.runtime import Caller, Result, classic_heartbeat_key
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.model import GroupState
from groupctl.protocol.data.groups import JoinGroupRequestData, SyncGroupResponseData

_CODE = KAFKA_ERROR_CODES
EMPTY, STABLE, DEAD = GroupState.EMPTY, GroupState.STABLE, GroupState.DEAD
PREPARING, COMPLETING = GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE


def join(classic: ClassicGroups, req: JoinGroupRequestData, caller: Caller, respond: JoinCallback) -> Result[None]:
    """JoinGroup from `caller`: the answer now (an error, or a known member's), or parked until the rebalance
    completes."""
    return answer_join(lambda out: _join(classic, req, caller, respond, out), req, respond)


def _join(classic: ClassicGroups, req: JoinGroupRequestData, caller: Caller, respond: JoinCallback,
          out: Result) -> None:
    if req.group_id == "":
        raise KafkaError("INVALID_GROUP_ID")
    if not classic.min_session_timeout_ms <= req.session_timeout_ms <= classic.max_session_timeout_ms:
        raise KafkaError("INVALID_SESSION_TIMEOUT")
    if req.rebalance_timeout_ms == -1:
        req.rebalance_timeout_ms = req.session_timeout_ms
    unknown = req.member_id == ""
    group = classic.groups.get(req.group_id)
    if group is None:
        if not classic.exists(req.group_id) and not unknown:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Classic group {req.group_id} not found.")
        group = ClassicGroup(req.group_id)  # enters the live map only once the request is accepted
    if not _accepts(classic, group, req.member_id):
        group.remove(req.member_id)
        out.reply(respond, join_error(_CODE["GROUP_MAX_SIZE_REACHED"], ""))
        return
    if not group.supports(req.protocol_type, {p.name for p in req.protocols}):
        raise KafkaError("INCONSISTENT_GROUP_PROTOCOL")
    classic.groups.setdefault(group.group_id, group)
    if not unknown:
        _join_existing(classic, group, req, caller, respond, out)
        return
    prefix = req.group_instance_id if req.group_instance_id is not None else caller.client_id
    new_id = f"{prefix}-{classic.rt.ids.uuid()}"
    if req.group_instance_id is not None:
        existing = group.static.get(req.group_instance_id)
        if existing is not None:
            _replace_static(classic, group, req, caller, req.group_instance_id, existing, new_id, respond, out)
        else:
            _add_member(classic, group, req, caller, new_id, respond, out)
    elif caller.api_version >= MEMBER_ID_REQUIRED_VERSION:
        group.pending_join.add(new_id)
        classic.schedule_pending(group, new_id, req.session_timeout_ms)
        out.reply(respond, join_error(_CODE["MEMBER_ID_REQUIRED"], new_id))
    else:
        _add_member(classic, group, req, caller, new_id, respond, out)


def _accepts(classic: ClassicGroups, group: ClassicGroup, member_id: str) -> bool:
    if group.state in (EMPTY, DEAD):
        return True
    if group.state == PREPARING:
        member = group.members.get(member_id)
        return (member is not None and member.awaiting_join is not None) or \
            group.awaiting_join_count() < classic.max_size
    return member_id in group.members or len(group.members) < classic.max_size


def _join_existing(
    classic: ClassicGroups, group: ClassicGroup, req: JoinGroupRequestData, caller: Caller, respond: JoinCallback,
    out: Result,
) -> None:
    if req.member_id in group.pending_join:
        _add_member(classic, group, req, caller, req.member_id, respond, out)
        return
    group.validate_member(req.member_id, req.group_instance_id)
    member = group.members[req.member_id]
    if group.state == PREPARING:
        _update_member(member, req, respond)
        classic.maybe_prepare_or_complete(group, out)
    elif group.state == COMPLETING:
        if member.matches(protocol_pairs(req)):
            out.reply(respond, join_response(group, member.member_id))
        else:
            _update_member(member, req, respond)
            classic.maybe_prepare_or_complete(group, out)
    elif group.state == STABLE:
        if group.leader == member.member_id or not member.matches(protocol_pairs(req)):
            _update_member(member, req, respond)
            classic.maybe_prepare_or_complete(group, out)
        else:
            response = join_response(group, member.member_id)
            response.members = []
            out.reply(respond, response)
    else:
        out.reply(respond, join_error(_CODE["UNKNOWN_MEMBER_ID"], req.member_id))


def _add_member(
    classic: ClassicGroups, group: ClassicGroup, req: JoinGroupRequestData, caller: Caller, member_id: str,
    respond: JoinCallback, out: Result,
) -> None:
    member = ClassicMember(
        member_id, req.group_instance_id, caller.client_id, caller.client_host, req.rebalance_timeout_ms,
        req.session_timeout_ms, req.protocol_type, protocol_pairs(req), awaiting_join=respond, is_new=True,
    )
    if group.state == PREPARING and group.previous_state == EMPTY:
        group.new_member_added = True
    group.add(member)
    classic.reschedule_heartbeat(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS)
    classic.maybe_prepare_or_complete(group, out)


def _update_member(member: ClassicMember, req: JoinGroupRequestData, respond: JoinCallback | None) -> None:
    member.protocols = protocol_pairs(req)
    member.rebalance_timeout_ms = req.rebalance_timeout_ms
    member.session_timeout_ms = req.session_timeout_ms
    member.awaiting_join = respond


def _replace_static(
    classic: ClassicGroups, group: ClassicGroup, req: JoinGroupRequestData, caller: Caller, instance_id: str,
    old_id: str, new_id: str, respond: JoinCallback, out: Result,
) -> None:
    """`updateStaticMemberThenRebalanceOrCompleteJoin`: the instance takes a new member id."""
    current_leader = group.leader
    old = group.members.pop(old_id)
    if old.awaiting_join is not None:
        out.reply(old.awaiting_join, join_error(_CODE["FENCED_INSTANCE_ID"], old_id))
    if old.awaiting_sync is not None:
        out.reply(old.awaiting_sync, SyncGroupResponseData(error_code=_CODE["FENCED_INSTANCE_ID"]))
    classic.rt.timers.cancel(classic_heartbeat_key(group.group_id, old_id))
    member = ClassicMember(new_id, old.instance_id, old.client_id, old.client_host, old.rebalance_timeout_ms,
                           old.session_timeout_ms, old.protocol_type, old.protocols, old.assignment)
    group.members[new_id] = member
    group.pending_sync.discard(old_id)
    if group.leader == old_id:
        group.leader = new_id
    group.static[instance_id] = new_id
    classic.reschedule_heartbeat(group, member)
    _update_member(member, req, respond)
    if group.state == STABLE:
        if (group.protocol_name or "") == group.select_protocol():
            member.awaiting_join = None
            response = join_response(group, new_id)
            if caller.api_version >= SKIP_ASSIGNMENT_VERSION:
                response.skip_assignment = group.leader == new_id  # the leader keeps its member list
            else:
                # Older clients cannot skip the assignment: they are told the leader as it was, so a
                # returning leader does not think it must assign (KIP-345's refined form).
                response.leader, response.members = current_leader or "", []
            out.reply(respond, response)
            out.records.append(group_record(group, {m.member_id: m.assignment for m in group.members.values()}))
            return
        classic.maybe_prepare_or_complete(group, out)
        return
    if group.state == COMPLETING:
        classic.prepare_rebalance(group, out)
        return
    classic.maybe_complete_join(group, out)
