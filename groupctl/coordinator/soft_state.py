"""What the coordinator holds outside the log, as plain JSON values: a backend that stops between
invocations (the local lab) keeps it beside the log and hands it back when it reopens.

A broker keeps a classic group's rebalance in memory (who is awaiting join or sync, pending members,
the state machine) and writes only GroupMetadataValue snapshots, and restarts its timers when it loads
a partition. A coordinator that stops between invocations keeps the classic groups' soft state (taken
at a log end offset and used only when the log still ends there) and the live timers' deadlines.
Parked requests are not kept: a member that was waiting is marked as such and its answer, when it
comes, is dropped (the client asks again).

The shapes written here are what DIR's `classic-groups.json` and `timers.json` hold: changing one
orphans the state of every existing lab directory.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from groupctl.coordinator.classic import ClassicGroup, ClassicGroups, ClassicMember
from groupctl.coordinator.clock import Timers
from groupctl.coordinator.runtime import TIMER_KINDS
from groupctl.model import GroupState

#: A classic group's soft state: its fields and its members' (see `classic_snapshot`).
ClassicGroupData = dict
#: A live timer: its key's parts, then its deadline in ms (`["session", group, member, 1767225600000]`).
TimerEntry = list


@dataclass(slots=True)
class SoftState:
    """The classic groups' soft state (None: keep the groups the log gave) and the live timers."""

    classic_groups: list[ClassicGroupData] | None = None
    timers: list[TimerEntry] = field(default_factory=list)


def classic_snapshot(classic: ClassicGroups) -> list[ClassicGroupData]:
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


def restore_classic(classic: ClassicGroups, snapshot: Iterable[ClassicGroupData]) -> None:
    """Replace the groups loaded from the log with a `snapshot` taken at the same log end (timers re-armed
    with fresh deadlines, which `restore_timers` then moves back)."""
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


def timer_snapshot(timers: Timers) -> list[TimerEntry]:
    """Every live timer the coordinator named (`runtime.TIMER_KINDS`) as [kind, key parts..., deadline], sorted."""
    return sorted(
        [*key, timers.deadline(key)] for key in timers.live_keys()
        if isinstance(key, tuple) and key and key[0] in TIMER_KINDS
    )


def restore_timers(timers: Timers, entries: Iterable[TimerEntry], shift_ms: int = 0) -> None:
    """Move each live timer named in `entries` to its kept deadline plus `shift_ms` (the time a wall-clock
    coordinator lay stopped); a timer that is no longer live (its member is gone) stays gone."""
    for entry in entries:
        timers.reschedule(tuple(entry[:-1]), int(entry[-1]) + shift_ms)
