"""The shape of DIR's `classic-groups.json`, checked before the coordinator is handed its content.

The file holds classic groups' soft state, so a rebalance carries on between invocations: what the
coordinator's `snapshot()` gives (`groupctl.coordinator.soft_state` writes and reads it), with the log
end offset it was taken at. This module only says whether a file read from DIR has that shape, so that a
damaged one gets the damaged-file message rather than an internal error.
"""

from __future__ import annotations

from typing import Any

from groupctl.backends.local_shapes import has, is_flag, is_hex, is_int, is_list_of, is_text, is_text_or_none
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
    """classic-groups.json: {"logEndOffset": offset, "groups": [what `soft_state.classic_snapshot` writes]}, each
    group's leader and pending-sync members among its members."""
    return (has(data, logEndOffset=is_int, groups=lambda v: is_list_of(v, _is_group)) and "groups" in data
            and len({g["groupId"] for g in data["groups"]}) == len(data["groups"]))
