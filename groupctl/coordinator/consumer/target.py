"""The target assignment of a KIP-848 group (Kafka's `TargetAssignmentBuilder`), as a pure function.

The caller says who the members are after this request and what they subscribe to (topic ids,
regexes already resolved), the targets they had and the partition counts; the builder runs the group's
assignor and returns the records that move the target to the new epoch and the new target of every
member. Nothing is read from or written to a coordinator, so it is tested on its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from groupctl.coordinator.assignors import ASSIGNORS, Assignment, MemberSpec
from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.log import Record
from groupctl.log.replay import preferred_assignor
from groupctl.protocol.data.records import ConsumerGroupMemberMetadataValue

_EMPTY: Assignment = {}


def build_target(
    group_id: str,
    epoch: int,
    *,
    members: Mapping[str, ConsumerGroupMemberMetadataValue],
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    old_targets: Mapping[str, Assignment],
    partitions: Mapping[uuid.UUID, int],
    default_assignor: str,
) -> tuple[list[Record], dict[str, Assignment]]:
    """(records, new targets by member id) for `members` (type-5 values) at target epoch `epoch`.

    `subscriptions` gives each member's subscribed topic ids, `partitions` every such topic's partition
    count. A record is written for each member whose target changed (or that had none), then the epoch.
    The assignor is the one most members ask for, else `default_assignor`.
    """
    assignor = preferred_assignor(members.values(), default_assignor)
    specs: dict[str, MemberSpec] = {}
    for member_id in sorted(members):
        meta = members[member_id]
        specs[member_id] = MemberSpec(
            instance_id=meta.instance_id, rack_id=meta.rack_id,
            subscribed_topic_ids=subscriptions[member_id], assigned=old_targets.get(member_id, _EMPTY),
        )
    result = ASSIGNORS[assignor].assign(specs, partitions)
    records: list[Record] = []
    targets: dict[str, Assignment] = {}
    for member_id in specs:
        new = {t: frozenset(ps) for t, ps in result.get(member_id, {}).items() if ps}
        targets[member_id] = new
        if member_id not in old_targets or new != old_targets[member_id]:
            records.append(rec.target_member(group_id, member_id, new))
    records.append(rec.target_epoch(group_id, epoch))
    return records, targets
