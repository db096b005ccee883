"""KIP-848 consumer groups, following Kafka 4.x's `GroupMetadataManager` step by step.

A consumer group changes only by replay: every handler builds its records from the replayed state and
returns them; the router appends them, all or nothing, and the state applies them as read back.

- `messages`: the member epochs and an admin leave's outcome; `validation`: the request and epoch checks;
- `heartbeat`: ConsumerGroupHeartbeat in Kafka's three steps; `target`: the pure target builder;
  `reconcile`: the pure member reconciler; `regexes`: regex subscriptions; `subscriptions`: the topics
  a group subscribes to and their metadata hash;
- `membership`: leaving, admin removal, fencing and the session/rebalance timers; `records`: the
  KIP-848 record builders;
- `classic_requests`: the JoinGroup, SyncGroup and Heartbeat of classic-protocol members inside a
  consumer group (online migration).
"""

from groupctl.coordinator.consumer.membership import ConsumerGroups
from groupctl.coordinator.consumer.messages import (
    CLIENT_MEMBER_ID_VERSION,
    JOIN_EPOCH,
    LEAVE_EPOCH,
    STATIC_LEAVE_EPOCH,
)
from groupctl.coordinator.consumer.records import member_assignment
from groupctl.coordinator.consumer.subscriptions import metadata_hash

__all__ = [
    "CLIENT_MEMBER_ID_VERSION", "JOIN_EPOCH", "LEAVE_EPOCH", "STATIC_LEAVE_EPOCH", "ConsumerGroups",
    "member_assignment", "metadata_hash",
]
