"""The coordinator's state: `Replay` (the very fold `dump groups` uses) plus indexes kept beside it.

Records are the only writer: the coordinator appends records and this state applies them, so a
coordinator rebuilt from its log holds equal state. The indexes (who owns which partition at what
epoch, which member holds an instance id, how many members use each regex or topic name) are
derived from the records as they are applied, so the request path never scans a whole group.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from groupctl.coordinator.share.state import SharePartitionsState, share_partitions
from groupctl.log.replay import Replay
from groupctl.protocol.data.records import (
    ConsumerGroupCurrentMemberAssignmentValue,
    ConsumerGroupMemberMetadataValue,
    TopicPartitions,
)
from groupctl.protocol.member_bytes import current_held

TopicPartitionKey = tuple[uuid.UUID, int]


class OwnershipError(AssertionError):
    """A partition would be owned by two members at once: a coordinator bug, never a client error."""


@dataclass(slots=True)
class GroupIndex:
    """What the coordinator looks up per request, derived from a consumer group's records."""

    owners: dict[TopicPartitionKey, tuple[str, int]] = field(default_factory=dict)  # -> (member id, epoch)
    static: dict[str, str] = field(default_factory=dict)  # instance id -> member id
    regex_members: dict[str, int] = field(default_factory=dict)  # regex -> members subscribed to it
    names: dict[str, int] = field(default_factory=dict)  # topic name -> members subscribed by name


def assignment_map(topic_partitions: Iterable[TopicPartitions]) -> dict[uuid.UUID, frozenset[int]]:
    """A type-8 value's TopicPartitions list as {topic id: partitions}."""
    out: dict[uuid.UUID, frozenset[int]] = {}
    for tps in topic_partitions:
        if tps.partitions:
            out[tps.topic_id] = out.get(tps.topic_id, frozenset()) | frozenset(tps.partitions)
    return out


class CoordinatorState(Replay):
    """Replay with the coordinator's indexes; equality is the replayed state's (share groups included:
    `Replay` folds records 10-15 as `dump groups` does)."""

    def __init__(self) -> None:
        super().__init__()
        self.indexes: dict[str, GroupIndex] = {}

    @property
    def share_partitions(self) -> dict[str, SharePartitionsState]:
        """Each share group's share-partitions (type 15) by topic id, as the share coordinator plans with them."""
        return share_partitions(self.share)

    def index(self, group_id: str) -> GroupIndex:
        idx = self.indexes.get(group_id)
        if idx is None:
            idx = self.indexes[group_id] = GroupIndex()
        return idx

    # -- keeping the indexes in step with the records -------------------------------------------

    def _drop_group(self, group_id: str) -> None:
        self.indexes.pop(group_id, None)

    def _group_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        if kd["group"] in self.consumer:
            self._drop_group(kd["group"])
        super()._group_metadata(kd, value, log_offset)

    def _consumer_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        super()._consumer_metadata(kd, value, log_offset)
        group = kd["groupId"]
        state = self.consumer.get(group)
        if state is None:
            self._drop_group(group)

    def _member_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group, member = kd["groupId"], kd["memberId"]
        state = self.consumer.get(group)
        old = state.members.get(member) if state is not None else None
        old_current = state.current.get(member) if state is not None else None
        super()._member_metadata(kd, value, log_offset)
        state = self.consumer.get(group)
        if state is None:
            return
        idx = self.index(group)
        if old is not None:
            self._unsubscribe(idx, member, old)
        new = state.members.get(member)
        if new is not None:
            self._subscribe(idx, member, new)
        elif old_current is not None:  # the tombstone also removed the member's current assignment
            self._release(idx, member, old_current)

    @staticmethod
    def _unsubscribe(idx: GroupIndex, member_id: str, member: ConsumerGroupMemberMetadataValue) -> None:
        instance = member.instance_id
        if instance is not None and idx.static.get(instance) == member_id:
            del idx.static[instance]
        regex = member.subscribed_topic_regex
        if regex:
            left = idx.regex_members.get(regex, 0) - 1
            if left > 0:
                idx.regex_members[regex] = left
            else:
                idx.regex_members.pop(regex, None)
        for name in member.subscribed_topic_names:
            left = idx.names.get(name, 0) - 1
            if left > 0:
                idx.names[name] = left
            else:
                idx.names.pop(name, None)

    @staticmethod
    def _subscribe(idx: GroupIndex, member_id: str, member: ConsumerGroupMemberMetadataValue) -> None:
        instance = member.instance_id
        if instance is not None:
            idx.static[instance] = member_id
        regex = member.subscribed_topic_regex
        if regex:
            idx.regex_members[regex] = idx.regex_members.get(regex, 0) + 1
        for name in member.subscribed_topic_names:
            idx.names[name] = idx.names.get(name, 0) + 1

    def _current_member(self, kd: dict, value: Any, log_offset: int) -> None:
        group, member = kd["groupId"], kd["memberId"]
        state = self.consumer.get(group)
        old = state.current.get(member) if state is not None else None
        super()._current_member(kd, value, log_offset)
        state = self.consumer.get(group)
        if state is None:
            return
        idx = self.index(group)
        if old is not None:
            self._release(idx, member, old)
        new = state.current.get(member)
        if new is not None:
            epoch = new.member_epoch
            owners = idx.owners
            for tp in current_held(new):
                holder = owners.get(tp)
                if holder is not None and holder[0] != member:
                    raise OwnershipError(
                        f"group {group}: partition {tp} assigned to {member} while {holder[0]} still owns it"
                    )
                owners[tp] = (member, epoch)

    @staticmethod
    def _release(idx: GroupIndex, member_id: str, current: ConsumerGroupCurrentMemberAssignmentValue) -> None:
        owners = idx.owners
        for tp in current_held(current):
            holder = owners.get(tp)
            if holder is not None and holder[0] == member_id:
                del owners[tp]

    # -- reading ----------------------------------------------------------------------------------

    def subscribed_topic_names(self, group_id: str) -> set[str]:
        """Every topic the group subscribes to: by name, or through a resolved regex still in use."""
        idx = self.indexes.get(group_id)
        state = self.consumer.get(group_id)
        if idx is None or state is None:
            return set()
        names = set(idx.names)
        for regex, resolved in state.regexes.items():
            if idx.regex_members.get(regex):
                names.update(resolved.topics)
        return names
