"""A share group (KIP-932) as `__consumer_offsets` records 10-15 leave it, folded as Kafka's
GroupMetadataManager replays them.

* 10 (member metadata): a value creates or updates the member; a tombstone removes it with its
  current assignment.
* 11 (group metadata): the group epoch; a tombstone deletes the group.
* 12 (target assignment metadata): the target assignment epoch; a tombstone sets it to -1.
* 13 (target assignment member): a member's target; a tombstone removes it.
* 14 (current member assignment): a member's epochs, state and partitions; a tombstone leaves the
  member at epoch -1 with nothing assigned.
* 15 (share-group state partition metadata): which topics' share-partitions are being initialised,
  are initialised, or are being deleted in `__share_group_state`; a tombstone clears it.

A value of any of these creates the group (Kafka would refuse a record of a group it does not hold;
a dump cut short can start anywhere); a tombstone of a group that does not exist is ignored. The
group is Empty without members, else Stable (ShareGroup.maybeUpdateGroupState). Values are the
generated record classes, read by attribute.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from groupctl.model import GroupState
from groupctl.protocol.data.records import (
    ShareGroupCurrentMemberAssignmentValue,
    ShareGroupMemberMetadataValue,
    ShareGroupMetadataValue,
    ShareGroupStatePartitionMetadataValue,
    ShareGroupTargetAssignmentMemberValue,
    ShareGroupTargetAssignmentMetadataValue,
)

__all__ = ["SHARE_GROUP_TYPES", "ShareGroupState"]

SHARE_GROUP_TYPES: Final = frozenset(range(10, 16))
"""The `__consumer_offsets` record types of share groups that Kafka 4.1+ writes (9 was 4.0's only)."""

#: The epoch a member gets when its current assignment is tombstoned (ShareGroupHeartbeatRequest).
LEAVE_GROUP_MEMBER_EPOCH: Final = -1

READ: Final[dict[type, Callable[[dict], Any]]] = {cls: cls.reader() for cls in (
    ShareGroupMemberMetadataValue, ShareGroupMetadataValue, ShareGroupTargetAssignmentMetadataValue,
    ShareGroupTargetAssignmentMemberValue, ShareGroupCurrentMemberAssignmentValue,
    ShareGroupStatePartitionMetadataValue,
)}


def partitions_map(topic_partitions: Any) -> dict[uuid.UUID, frozenset[int]]:
    """A TopicPartitions list of a type-13 or type-14 value as {topic id: partitions}."""
    out: dict[uuid.UUID, frozenset[int]] = {}
    for tps in topic_partitions:
        if tps.partitions:
            out[tps.topic_id] = out.get(tps.topic_id, frozenset()) | frozenset(tps.partitions)
    return out


@dataclass(slots=True)
class ShareGroupState:
    """A share group's records: its epochs, members (type 10), targets (13), current assignments (14)
    and the state of its share-partitions in `__share_group_state` (15)."""

    epoch: int = 0  # group epoch (Kafka's TimelineInteger starts at 0)
    assignment_epoch: int = 0  # target assignment epoch: 0 until type 12, -1 after its tombstone
    metadata_hash: int = 0
    members: dict[str, ShareGroupMemberMetadataValue] = field(default_factory=dict)
    targets: dict[str, ShareGroupTargetAssignmentMemberValue] = field(default_factory=dict)
    current: dict[str, ShareGroupCurrentMemberAssignmentValue] = field(default_factory=dict)
    partition_state: ShareGroupStatePartitionMetadataValue | None = None

    def member_ids(self) -> list[str]:
        """Every member Kafka would list, sorted."""
        return sorted(self.members.keys() | self.current.keys())

    def state(self) -> str:
        return GroupState.STABLE if self.members or self.current else GroupState.EMPTY

    def target_of(self, member_id: str) -> dict[uuid.UUID, frozenset[int]]:
        """A member's target assignment (type 13) as {topic id: partitions}."""
        target = self.targets.get(member_id)
        return {} if target is None else partitions_map(target.topic_partitions)

    def assigned_to(self, member_id: str) -> dict[uuid.UUID, frozenset[int]]:
        """A member's current assignment (type 14) as {topic id: partitions}."""
        current = self.current.get(member_id)
        return {} if current is None else partitions_map(current.assigned_partitions)

    def subscribed_topic_names(self) -> set[str]:
        return {name for member in self.members.values() for name in member.subscribed_topic_names}

    def topic_names(self) -> dict[uuid.UUID, str]:
        """Topic id -> name, as the type-15 record names them."""
        meta = self.partition_state
        if meta is None:
            return {}
        names = {t.topic_id: t.topic_name for t in meta.deleting_topics}
        names.update((t.topic_id, t.topic_name) for t in (*meta.initializing_topics, *meta.initialized_topics))
        return names

    def apply(self, record_type: int, kd: dict, value: Any) -> None:
        """Fold one record of type 10, 12, 13, 14 or 15 (type 11 creates and deletes the group: the caller's)."""
        member: str = kd.get("memberId", "")  # types 10, 13 and 14 name a member
        if record_type == 10:
            if value is None:
                self.members.pop(member, None)
                self.current.pop(member, None)
            else:
                self.members[member] = READ[ShareGroupMemberMetadataValue](value.data)
        elif record_type == 12:
            self.assignment_epoch = (-1 if value is None else
                                     READ[ShareGroupTargetAssignmentMetadataValue](value.data).assignment_epoch)
        elif record_type == 13:
            if value is None:
                self.targets.pop(member, None)
            else:
                self.targets[member] = READ[ShareGroupTargetAssignmentMemberValue](value.data)
        elif record_type == 14:
            self._current(member, value)
        elif record_type == 15:
            self.partition_state = None if value is None else READ[ShareGroupStatePartitionMetadataValue](value.data)

    def set_metadata(self, value: Any) -> None:
        metadata: ShareGroupMetadataValue = READ[ShareGroupMetadataValue](value.data)
        self.epoch = metadata.epoch
        self.metadata_hash = metadata.metadata_hash

    def _current(self, member: str, value: Any) -> None:
        if value is not None:
            self.current[member] = READ[ShareGroupCurrentMemberAssignmentValue](value.data)
            return
        if member not in self.members and member not in self.current:
            return
        previous = self.current.get(member)
        self.current[member] = ShareGroupCurrentMemberAssignmentValue(
            member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
            previous_member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
            state=0 if previous is None else previous.state,
        )
