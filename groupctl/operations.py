"""What the changing `group` commands do, as library calls over any `Backend`.

Removing members (the plan shown before, the removal, the check that removed static members did
not come straight back) and changing group configs (all validated before any is made) are
decisions a script or another front end needs as much as the CLI. Here they take a backend and
return model objects; they never print or prompt, so the CLI only parses, confirms and renders.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from groupctl.describe import member_holds
from groupctl.errors import GroupctlError, GroupNotFound
from groupctl.model import SOURCE_GROUP, ConfigEntry, GroupDescription, RemovalResult
from groupctl.protocol.data.groups import MemberIdentity

if TYPE_CHECKING:
    from groupctl.backends.base import Backend

__all__ = [
    "WOULD_REMOVE",
    "ConfigChange",
    "RejoinCheck",
    "Removal",
    "change_config",
    "group_configs",
    "plan_removal",
    "remove_members",
    "verify_rejoin",
]

#: The plan's outcome for a member that is in the group now.
WOULD_REMOVE = "would-remove"



# -- removing members ------------------------------------------------------------------------------


def plan_removal(desc: GroupDescription, targets: list[MemberIdentity]) -> list[RemovalResult]:
    """What removing `targets` would do, from a describe: who is removed, holding which partitions.

    A member that is not in the group now gets UNKNOWN_MEMBER_ID, as the broker would answer; so
    does a KIP-848 member named by member id, since Kafka's admin LeaveGroup names those only by
    instance id.
    """
    by_instance = {m.instance_id: m for m in desc.members if m.instance_id is not None}
    by_member = {m.member_id: m for m in desc.members}
    plan = []
    for target in targets:
        member_id, instance_id = target.member_id, target.group_instance_id
        member = by_instance.get(instance_id) if instance_id is not None else by_member.get(member_id)
        if member is None:
            named = f"instance id {instance_id}" if instance_id is not None else f"member {member_id}"
            plan.append(RemovalResult(desc.group_id, instance_id, member_id or None, "UNKNOWN_MEMBER_ID",
                                      f"{named} is not a member of the group now"))
        elif instance_id is None and desc.type == "consumer" and member.protocol == "consumer":
            plan.append(RemovalResult(desc.group_id, None, member_id, "UNKNOWN_MEMBER_ID",
                                      f"member {member_id} uses the consumer protocol; only static members of a "
                                      "consumer group can be removed, by --instance-id"))
        else:
            plan.append(RemovalResult(desc.group_id, member.instance_id, member.member_id, WOULD_REMOVE,
                                      partitions=member_holds(member)))
    return plan


@dataclass(slots=True)
class RejoinCheck:
    """Which removed static members were back in the group after the wait.

    `back` maps each removed instance id that is a member again to its new member id; it is None
    when the group could not be described again (`error` says why): the removal stands, only the
    check is missing. `wait` 0 or no removed instance means nothing was checked.
    """

    wait: float
    back: dict[str, str] | None = field(default_factory=dict)
    error: GroupctlError | None = None

    def rejoined(self, result: RemovalResult) -> bool | None:
        """Whether this removed instance came back; None when it was not checked (or could not be)."""
        checked = self.back is not None and result.removed and result.instance_id is not None and self.wait > 0
        return (result.instance_id in (self.back or {})) if checked else None


def verify_rejoin(
    backend: Backend,
    group: str,
    results: list[RemovalResult],
    wait: float,
    *,
    before_wait: Callable[[float], None] | None = None,
) -> RejoinCheck:
    """After `wait` seconds, describe the group again and find the removed instances that are back.

    A removed static member whose process still runs rejoins on its next heartbeat; the broker did
    remove it, and stopping the process is the operator's next step. `before_wait` is called with
    the wait just before it starts (a front end may say what the pause is for). A group gone by
    then has nobody back.
    """
    removed = {r.instance_id for r in results if r.removed and r.instance_id is not None}
    if wait <= 0 or not removed:
        return RejoinCheck(wait)
    if before_wait is not None:
        before_wait(wait)
    time.sleep(wait)
    try:
        (desc,) = backend.describe_groups([group])
    except GroupNotFound:
        return RejoinCheck(wait)
    except GroupctlError as exc:
        return RejoinCheck(wait, None, exc)
    return RejoinCheck(wait, {m.instance_id: m.member_id for m in desc.members if m.instance_id in removed})


@dataclass(slots=True)
class Removal:
    """One batch removal: a result per member named, and the rejoin check that followed."""

    results: list[RemovalResult]
    rejoin: RejoinCheck

    @property
    def failed(self) -> list[RemovalResult]:
        return [r for r in self.results if not r.removed]


def remove_members(
    backend: Backend,
    group: str,
    targets: list[MemberIdentity],
    *,
    verify_after: float = 0.0,
    before_wait: Callable[[float], None] | None = None,
) -> Removal:
    """Remove `targets` in one LeaveGroup, then `verify_rejoin` after `verify_after` seconds (0: no check)."""
    results = backend.remove_members(group, targets)
    return Removal(results, verify_rejoin(backend, group, results, verify_after, before_wait=before_wait))


# -- group configs ---------------------------------------------------------------------------------


def group_configs(backend: Backend, group: str, names: list[str]) -> dict[str, ConfigEntry]:
    """The named configs of the group (all when none is named); an unknown name fails with Kafka's
    words and the names that exist."""
    entries = {e.name: e for e in backend.get_config(group)}
    for name in names:
        if name not in entries:
            raise GroupctlError(f"Unknown group config name: {name} (group configs: {', '.join(entries)})")
    return {n: entries[n] for n in names} if names else entries


@dataclass(slots=True)
class ConfigChange:
    """One config a `change_config` touched (or would touch, in a dry run).

    `action` is set or unset (would-set, would-unset in a dry run); `new_value` and `source` are
    what the backend reports afterwards, or, in a dry run, what the change would leave: the value
    given, or the default, with source DYNAMIC_GROUP_CONFIG for a value set and None (unknown) otherwise.
    """

    group_id: str
    name: str
    action: str
    old_value: Any
    new_value: Any
    source: str | None
    dry_run: bool


def change_config(
    backend: Backend, group: str, set_values: Mapping[str, str], delete: list[str], dry_run: bool
) -> list[ConfigChange]:
    """Validate the whole change with the backend first (validate-only), then make it unless `dry_run`.

    Either every config changes or none does: a value the backend refuses fails the validation,
    before anything is altered, with a message that says nothing changed and where the bounds are.
    """
    before = group_configs(backend, group, [*set_values, *delete])
    try:
        backend.alter_config(group, set_values, delete, validate_only=True)
    except GroupctlError as exc:
        raise GroupctlError(f"{exc} (group '{group}' on {backend.location}; nothing was changed; "
                            f"`groupctl group config get {group} -o wide` shows the bounds)") from exc
    after = before
    if not dry_run:
        backend.alter_config(group, set_values, delete)
        after = group_configs(backend, group, list(before))
    changes = []
    for name, old in before.items():
        if dry_run:
            new = set_values.get(name, old.default)
            source = SOURCE_GROUP if name in set_values else None
        else:
            new, source = after[name].value, after[name].source
        action = "set" if name in set_values else "unset"
        changes.append(ConfigChange(group, name, f"would-{action}" if dry_run else action, old.value, new, source,
                                    dry_run))
    return changes
