"""Classic groups (JoinGroup/SyncGroup/Heartbeat/LeaveGroup) with static membership (KIP-345) and
member ids required (KIP-394), as Kafka 4.x's `GroupMetadataManager` and `ClassicGroup` run them.

A classic group's rebalance is soft state (who is awaiting join or sync, pending members, the state
machine); Kafka persists only GroupMetadataValue snapshots at the points it writes them (group
created, rebalance completed by the leader's SyncGroup, group emptied, a static member replaced while
Stable). The live group is kept in `ClassicGroups`; its snapshots go through the log and replay, and a
rebuilt coordinator loads each group as Kafka loads it: Stable with its members, or Empty.

Parked requests (a JoinGroup waiting for the rebalance, a SyncGroup waiting for the leader) are
answered through the callback given with the request: the handlers put those answers in their
`Result`, delivered after its records are written.

- `messages`: the answer callbacks and refusals (requests and answers are the generated classes);
- `group`: the group model; `records`: its GroupMetadataValue;
- `groups`: the live groups and the rebalance state machine (timers included);
- `join`: JoinGroup; `members`: SyncGroup, Heartbeat, LeaveGroup.
"""

from groupctl.coordinator.classic.group import ClassicGroup, ClassicMember
from groupctl.coordinator.classic.groups import ClassicGroups
from groupctl.coordinator.classic.messages import JoinCallback, SyncCallback
from groupctl.model import GroupState

# The classic state names by their Kafka constants, for callers that name them so.
EMPTY = GroupState.EMPTY
PREPARING_REBALANCE = GroupState.PREPARING_REBALANCE
COMPLETING_REBALANCE = GroupState.COMPLETING_REBALANCE
STABLE = GroupState.STABLE
DEAD = GroupState.DEAD

__all__ = [
    "COMPLETING_REBALANCE", "DEAD", "EMPTY", "PREPARING_REBALANCE", "STABLE", "ClassicGroup", "ClassicGroups",
    "ClassicMember", "JoinCallback", "SyncCallback",
]
