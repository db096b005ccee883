"""Read-only views of one group as the coordinator holds it now, for code that watches groups from
outside (the lab's simulated members, the rolling-bounce simulator) without reaching into the live
classic groups or the replayed state. Each view is a copy taken when asked: it does not follow the group.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClassicMemberView:
    member_id: str
    instance_id: str | None
    #: What the leader's SyncGroup gave it (b"" until then), in the group's protocol's bytes.
    assignment: bytes


@dataclass(frozen=True, slots=True)
class ClassicGroupView:
    group_id: str
    state: str
    generation: int
    #: Members that asked to join and have not yet been let in (a rebalance is then under way).
    pending_join: frozenset[str]
    members: Mapping[str, ClassicMemberView]

    type = "classic"

    @property
    def epoch(self) -> int:
        """The generation, under the name both group types share."""
        return self.generation


@dataclass(frozen=True, slots=True)
class CurrentAssignment:
    """A consumer-group member's current assignment record (type 8)."""

    member_epoch: int
    #: `MemberState`: STABLE once the member reconciled to its epoch's target.
    state: int
    assigned: Mapping[uuid.UUID, frozenset[int]]


@dataclass(frozen=True, slots=True)
class ConsumerMemberView:
    member_id: str
    instance_id: str | None
    #: None while the member has no current-assignment record.
    current: CurrentAssignment | None


@dataclass(frozen=True, slots=True)
class ConsumerGroupView:
    group_id: str
    state: str
    epoch: int
    #: The target assignment's epoch: the group epoch once the target is computed.
    assignment_epoch: int
    #: Every member Kafka would list, by member id in its order.
    members: Mapping[str, ConsumerMemberView]

    type = "consumer"


@dataclass(frozen=True, slots=True)
class ShareGroupView(ConsumerGroupView):
    """A share group, in the consumer group's shape: a share member's current assignment is always STABLE."""

    type = "share"
