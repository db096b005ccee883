"""Share groups (KIP-932) as records 10-15 leave them, folded the way Kafka's `GroupMetadataManager`
replays them: the coordinator's share state changes only by these records.

- type 11 (ShareGroupMetadata) creates the group; its tombstone removes it;
- types 10, 13, 14 (member, target member, current assignment) create the group on first sight too;
- type 12 is the target assignment epoch; type 15 which share-partitions are initializing, initialized
  or being deleted (kept per group beside it, as Kafka's `shareGroupStatePartitionMetadata`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from groupctl.model import GroupState
from groupctl.protocol.data.records import (
    ShareGroupCurrentMemberAssignmentValue,
    ShareGroupMemberMetadataValue,
    ShareGroupMetadataValue,
    ShareGroupStatePartitionMetadataValue,
    ShareGroupTargetAssignmentMemberValue,
    ShareGroupTargetAssignmentMetadataValue,
)

#: The share-group record types this fold applies.
SHARE_RECORD_TYPES = frozenset(range(10, 16))
_READ: dict[type, Callable[[dict], Any]] = {cls: cls.reader() for cls in (
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
    """One share group: its epochs and each member's subscription, target and current assignment."""

    epoch: int = 0
    metadata_hash: int = 0
    assignment_epoch: int = 0
    members: dict[str, ShareGroupMemberMetadataValue] = field(default_factory=dict)  # type 10
    targets: dict[str, ShareGroupTargetAssignmentMemberValue] = field(default_factory=dict)  # type 13
    current: dict[str, ShareGroupCurrentMemberAssignmentValue] = field(default_factory=dict)  # type 14

    def member_ids(self) -> list[str]:
        return sorted(self.members.keys() | self.current.keys())

    def state(self) -> str:
        """`ShareGroup`'s states: Empty without members, else Stable (a share group never reconciles)."""
        return GroupState.STABLE if self.members or self.current else GroupState.EMPTY

    def target_of(self, member_id: str) -> dict[uuid.UUID, frozenset[int]]:
        target = self.targets.get(member_id)
        return {} if target is None else partitions_map(target.topic_partitions)

    def assigned_to(self, member_id: str) -> dict[uuid.UUID, frozenset[int]]:
        current = self.current.get(member_id)
        return {} if current is None else partitions_map(current.assigned_partitions)

    def subscribed_topic_names(self) -> set[str]:
        return {name for member in self.members.values() for name in member.subscribed_topic_names}


@dataclass(frozen=True, slots=True)
class InitTopic:
    """One topic of a type-15 list: its name and the share-partitions in that list."""

    name: str
    partitions: frozenset[int]


@dataclass(slots=True)
class SharePartitionsState:
    """A type-15 value: which share-partitions of the group are initializing, initialized, deleting."""

    initializing: dict[uuid.UUID, InitTopic] = field(default_factory=dict)
    initialized: dict[uuid.UUID, InitTopic] = field(default_factory=dict)
    deleting: dict[uuid.UUID, str] = field(default_factory=dict)


class ShareFold:
    """The share groups of one `__consumer_offsets` partition, with the handlers a replay dispatches to."""

    def __init__(self) -> None:
        self.groups: dict[str, ShareGroupState] = {}
        self.partitions: dict[str, SharePartitionsState] = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShareFold):
            return NotImplemented
        return self.groups == other.groups and self.partitions == other.partitions

    def handlers(self) -> dict[int, Callable[[dict, Any, int], None]]:
        return {10: self._member, 11: self._metadata, 12: self._target_epoch, 13: self._target_member,
                14: self._current, 15: self._partitions}

    def _group(self, group_id: str) -> ShareGroupState:
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = ShareGroupState()
        return group

    def _metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id = kd["groupId"]
        if value is None:
            self.groups.pop(group_id, None)
            return
        v: ShareGroupMetadataValue = _READ[ShareGroupMetadataValue](value.data)
        group = self._group(group_id)
        group.epoch, group.metadata_hash = v.epoch, v.metadata_hash

    def _member(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id, member_id = kd["groupId"], kd["memberId"]
        if value is not None:
            self._group(group_id).members[member_id] = _READ[ShareGroupMemberMetadataValue](value.data)
        elif (group := self.groups.get(group_id)) is not None:
            group.members.pop(member_id, None)

    def _target_epoch(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id = kd["groupId"]
        if value is not None:
            v: ShareGroupTargetAssignmentMetadataValue = _READ[ShareGroupTargetAssignmentMetadataValue](value.data)
            self._group(group_id).assignment_epoch = v.assignment_epoch
        elif (group := self.groups.get(group_id)) is not None:
            group.assignment_epoch = -1

    def _target_member(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id, member_id = kd["groupId"], kd["memberId"]
        if value is not None:
            self._group(group_id).targets[member_id] = _READ[ShareGroupTargetAssignmentMemberValue](value.data)
        elif (group := self.groups.get(group_id)) is not None:
            group.targets.pop(member_id, None)

    def _current(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id, member_id = kd["groupId"], kd["memberId"]
        if value is not None:
            self._group(group_id).current[member_id] = _READ[ShareGroupCurrentMemberAssignmentValue](value.data)
        elif (group := self.groups.get(group_id)) is not None:
            group.current.pop(member_id, None)

    def _partitions(self, kd: dict, value: Any, log_offset: int) -> None:
        group_id = kd["groupId"]
        if value is None:
            self.partitions.pop(group_id, None)
            return
        v: ShareGroupStatePartitionMetadataValue = _READ[ShareGroupStatePartitionMetadataValue](value.data)
        self.partitions[group_id] = SharePartitionsState(
            {t.topic_id: InitTopic(t.topic_name, frozenset(t.partitions)) for t in v.initializing_topics},
            {t.topic_id: InitTopic(t.topic_name, frozenset(t.partitions)) for t in v.initialized_topics},
            {t.topic_id: t.topic_name for t in v.deleting_topics},
        )
