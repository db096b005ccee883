"""Reconciliation (Kafka's `CurrentAssignmentBuilder`): move one member from its current assignment
towards its target, revoking first and granting a partition only once its old owner released it.

Pure: a member's assignment state and the group's facts in, the next state out.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from groupctl.coordinator.assignors import Assignment
from groupctl.errors import KafkaError
from groupctl.model import MemberState

Owned = Iterable[tuple[uuid.UUID, Iterable[int]]] | None


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    """The reconciliation half of a member: what its type-8 record holds."""

    state: int  # a MemberState id, kept as stored: an id this version does not know (a newer broker's) stays
    member_epoch: int
    previous_member_epoch: int
    assigned: Assignment
    pending_revocation: Assignment

    def with_epoch(
        self, epoch: int, *, state: MemberState, assigned: Assignment, pending_revocation: Assignment
    ) -> MemberAssignment:
        """Kafka's `updateMemberEpoch`: the old epoch becomes the previous one."""
        return MemberAssignment(state, epoch, self.member_epoch, assigned, pending_revocation)

    def is_reconciled_to(self, target_epoch: int) -> bool:
        return self.state == MemberState.STABLE and self.member_epoch == target_epoch


def _owns_any(owned: Owned, partitions: Assignment) -> bool:
    """Whether the member still reports one of `partitions`; not reporting at all counts as owning."""
    if owned is None:
        return True
    for topic_id, parts in owned:
        pending = partitions.get(topic_id)
        if pending and any(p in pending for p in parts):
            return True
    return False


def reconcile(
    member: MemberAssignment,
    *,
    target_epoch: int,
    target: Assignment,
    owner_epoch: Callable[[uuid.UUID, int], int],
    owned: Owned,
    subscribed: frozenset[uuid.UUID] | set[uuid.UUID],
) -> MemberAssignment:
    """The member's next state (the same object when it cannot move yet).

    `owner_epoch(topic, partition)` is the epoch of the partition's current owner, -1 when free;
    `owned` is what the member reported in its heartbeat (None: not reported); `subscribed` the
    topic ids the member subscribes to now (a topic it left is treated as not targeted).
    """
    state = member.state
    if state == MemberState.STABLE:
        if member.member_epoch != target_epoch:
            return _next(member, member.member_epoch, target_epoch, target, owner_epoch, owned, subscribed)
        return member
    if state == MemberState.UNREVOKED_PARTITIONS:
        if _owns_any(owned, member.pending_revocation):
            return member
        return _next(member, member.member_epoch, target_epoch, target, owner_epoch, owned, subscribed)
    if state == MemberState.UNRELEASED_PARTITIONS:
        return _next(member, member.member_epoch, target_epoch, target, owner_epoch, owned, subscribed)
    if owned is None or any(True for _, parts in owned for _ in parts):
        raise KafkaError(
            "FENCED_MEMBER_EPOCH",
            "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
        )
    return _next(member, target_epoch, target_epoch, target, owner_epoch, owned, subscribed)


def _next(
    member: MemberAssignment,
    member_epoch: int,
    target_epoch: int,
    target: Assignment,
    owner_epoch: Callable[[uuid.UUID, int], int],
    owned: Owned,
    subscribed: frozenset[uuid.UUID] | set[uuid.UUID],
) -> MemberAssignment:
    """Kafka's `computeNextAssignment`."""
    unreleased = False
    assigned: dict[uuid.UUID, frozenset[int]] = {}
    revoking: dict[uuid.UUID, frozenset[int]] = {}
    pending: dict[uuid.UUID, frozenset[int]] = {}
    empty: frozenset[int] = frozenset()
    for topic_id in target.keys() | member.assigned.keys():
        wanted = target.get(topic_id, empty) if topic_id in subscribed else empty
        current = member.assigned.get(topic_id, empty)
        keep = current & wanted
        revoke = current - keep
        grant = wanted - keep
        if grant:
            mine = member.pending_revocation.get(topic_id, empty)
            free = frozenset(p for p in grant if owner_epoch(topic_id, p) == -1 or p in mine)
            if len(free) != len(grant):
                unreleased = True
            grant = free
        if keep:
            assigned[topic_id] = keep
        if revoke:
            revoking[topic_id] = revoke
        if grant:
            pending[topic_id] = grant
    if revoking and _owns_any(owned, revoking):
        return member.with_epoch(member_epoch, state=MemberState.UNREVOKED_PARTITIONS, assigned=assigned,
                                 pending_revocation=revoking)
    for topic_id, parts in pending.items():
        assigned[topic_id] = assigned.get(topic_id, empty) | parts
    state = MemberState.UNRELEASED_PARTITIONS if unreleased else MemberState.STABLE
    return member.with_epoch(target_epoch, state=state, assigned=assigned, pending_revocation={})
