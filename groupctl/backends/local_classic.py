"""Classic groups' soft state in DIR's `classic-groups.json`, so a rebalance carries on between invocations.

A broker keeps a classic group's rebalance in memory (who is awaiting join or sync, pending members,
the state machine) and writes only GroupMetadataValue snapshots; a coordinator that stops between
invocations (the local backend) keeps the rest here, taken at a log end offset and used only when the
log still ends there. Parked requests are not kept: a member that was waiting is marked as such and
its answer, when it comes, is dropped (the client asks again).
"""

from __future__ import annotations

from groupctl.coordinator.classic import ClassicGroup, ClassicGroups, ClassicMember
from groupctl.model import GroupState


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
