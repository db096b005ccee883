"""Classic groups' soft state in DIR's `classic-groups.json`, so a rebalance carries on between invocations.

A broker keeps a classic group's rebalance in memory (who is awaiting join or sync, pending members,
the state machine) and writes only GroupMetadataValue snapshots; a coordinator that stops between
invocations (the local backend) keeps the rest here, taken at a log end offset and used only when the
log still ends there. Parked requests are not kept: a member that was waiting is marked as such and
its answer, when it comes, is dropped (the client asks again).
"""

from __future__ import annotations

from typing import Any

from groupctl.backends.local_shapes import has, is_flag, is_hex, is_int, is_list_of, is_text, is_text_or_none
from groupctl.coordinator.classic import ClassicGroup, ClassicGroups, ClassicMember
from groupctl.model import GroupState

_CLASSIC_STATES = frozenset({GroupState.EMPTY, GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE,
                             GroupState.STABLE, GroupState.DEAD})


_MEMBER = {"memberId": is_text, "instanceId": is_text_or_none, "clientId": is_text, "clientHost": is_text,
           "rebalanceTimeoutMs": is_int, "sessionTimeoutMs": is_int, "protocolType": is_text,
           "protocols": lambda v: is_list_of(v, lambda p: isinstance(p, list) and len(p) == 2 and is_text(p[0])
                                             and is_hex(p[1])),
           "assignment": is_hex, "awaitingJoin": is_flag, "awaitingSync": is_flag, "isNew": is_flag}


def _is_member(data: Any) -> bool:
    return has(data, **_MEMBER) and _MEMBER.keys() <= data.keys()


def _is_state(value: Any) -> bool:
    """One of the classic states' names (a list or a dict is not looked up: it cannot be one)."""
    return isinstance(value, str) and value in _CLASSIC_STATES


def _is_group(data: Any) -> bool:
    fields = {"groupId": is_text, "state": _is_state,
              "previousState": lambda v: v is None or _is_state(v), "generation": is_int,
              "protocolType": is_text_or_none, "protocolName": is_text_or_none, "leader": is_text_or_none,
              "stateTimestamp": lambda v: v is None or is_int(v), "pendingJoin": lambda v: is_list_of(v, is_text),
              "pendingSync": lambda v: is_list_of(v, is_text), "newMemberAdded": is_flag,
              "members": lambda v: is_list_of(v, _is_member)}
    if not (has(data, **fields) and fields.keys() <= data.keys()):
        return False
    members = {m["memberId"] for m in data["members"]}
    return ((data["leader"] is None or data["leader"] in members) and set(data["pendingSync"]) <= members
            and len(members) == len(data["members"]))


def is_snapshot(data: Any) -> bool:
    """classic-groups.json: {"logEndOffset": offset, "groups": [what `snapshot_classic` writes]}, each
    group's leader and pending-sync members among its members."""
    return (has(data, logEndOffset=is_int, groups=lambda v: is_list_of(v, _is_group)) and "groups" in data
            and len({g["groupId"] for g in data["groups"]}) == len(data["groups"]))


def snapshot_classic(classic: ClassicGroups) -> list[dict]:
    """The live groups' soft state as plain values (a rebalance in progress included)."""
    out = []
    for group in classic.groups.values():
        out.append({
            "groupId": group.group_id, "state": group.state, "previousState": group.previous_state,
            "generation": group.generation, "protocolType": group.protocol_type,
            "protocolName": group.protocol_name, "leader": group.leader, "stateTimestamp": group.state_timestamp,
            "pendingJoin": sorted(group.pending_join), "pendingSync": sorted(group.pending_sync),
            "newMemberAdded": group.new_member_added,
            "members": [{
                "memberId": m.member_id, "instanceId": m.instance_id, "clientId": m.client_id,
                "clientHost": m.client_host, "rebalanceTimeoutMs": m.rebalance_timeout_ms,
                "sessionTimeoutMs": m.session_timeout_ms, "protocolType": m.protocol_type,
                "protocols": [[name, data.hex()] for name, data in m.protocols],
                "assignment": m.assignment.hex(), "awaitingJoin": m.awaiting_join is not None,
                "awaitingSync": m.awaiting_sync is not None, "isNew": m.is_new,
            } for m in group.members.values()],
        })
    return out


def restore_classic(classic: ClassicGroups, snapshot: list[dict]) -> None:
    """Replace the groups loaded from the log with a `snapshot` taken at the same log end."""
    groups = []
    for g in snapshot:
        previous = g["previousState"]
        group = ClassicGroup(
            g["groupId"], GroupState(g["state"]), GroupState(previous) if previous is not None else None,
            g["generation"], g["protocolType"], g["protocolName"], g["leader"], g["stateTimestamp"],
            pending_join=set(g["pendingJoin"]), pending_sync=set(g["pendingSync"]),
            new_member_added=g["newMemberAdded"],
        )
        for m in g["members"]:
            member = ClassicMember(
                m["memberId"], m["instanceId"], m["clientId"], m["clientHost"], m["rebalanceTimeoutMs"],
                m["sessionTimeoutMs"], m["protocolType"], [(n, bytes.fromhex(d)) for n, d in m["protocols"]],
                bytes.fromhex(m["assignment"]), is_new=m["isNew"],
            )
            if m["awaitingJoin"]:
                member.awaiting_join = _dropped
            if m["awaitingSync"]:
                member.awaiting_sync = _dropped
            group.members[member.member_id] = member
            if member.instance_id is not None:
                group.static[member.instance_id] = member.member_id
        groups.append(group)
    classic.restore(groups)


def _dropped(_response: object) -> None:
    """The answer to a request parked by an earlier process: nobody is waiting for it any more."""
