"""The KIP-848 records, built as Kafka's `GroupCoordinatorRecordHelpers` builds them, and the
reconciler's view of a type-8 value.

Each builder returns `(key bytes, value bytes or None)`; the value versions are the ones Kafka 4.1+
writes (KIP-848 types at version 0).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from groupctl.coordinator.consumer.reconcile import MemberAssignment
from groupctl.coordinator.consumer.subscriptions import metadata_changed, metadata_hash
from groupctl.coordinator.log import Record
from groupctl.coordinator.state import assignment_map
from groupctl.model import MemberState
from groupctl.protocol.data.base import UNKNOWN_TAGS
from groupctl.protocol.data.records import ConsumerGroupCurrentMemberAssignmentValue, ConsumerGroupMemberMetadataValue
from groupctl.protocol.records import encode_key, encode_value

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState

def _group_key(record_type: int, group_id: str) -> bytes:
    return encode_key(record_type, {"groupId": group_id})


def _member_key(record_type: int, group_id: str, member_id: str) -> bytes:
    return encode_key(record_type, {"groupId": group_id, "memberId": member_id})


def topic_partitions(assignment: Mapping[uuid.UUID, Iterable[int]]) -> list[dict]:
    """An assignment map as the records' TopicPartitions list (topics and partitions sorted)."""
    return [
        {"topicId": topic_id, "partitions": sorted(parts)}
        for topic_id, parts in sorted(assignment.items(), key=lambda kv: kv[0].bytes)
        if parts
    ]


def group_epoch(group_id: str, epoch: int, metadata_hash: int) -> Record:
    """ConsumerGroupMetadataValue; a hash of 0 is not written (Kafka 4.0's layout has no such field)."""
    return _group_key(3, group_id), encode_value(3, 0, {"epoch": epoch, "metadataHash": metadata_hash})


def partition_metadata(group_id: str, facts: Iterable[tuple[str, uuid.UUID, int]]) -> Record:
    """ConsumerGroupPartitionMetadataValue (type 4, Kafka 4.0): the subscribed topics, no rack data."""
    topics = [{"topicId": topic_id, "topicName": name, "numPartitions": partitions, "partitionMetadata": []}
              for name, topic_id, partitions in sorted(facts)]
    return _group_key(4, group_id), encode_value(4, 0, {"topics": topics})


def epoch_records(group_id: str, epoch: int, facts: list[tuple[str, uuid.UUID, int]],
                  group: ConsumerGroupState | None, kafka_40: bool) -> list[Record]:
    """A new group epoch as the configured Kafka writes it, `facts` being the subscribed topics now.

    Kafka 4.0: the partition metadata (type 4) when it changed, then the epoch alone. Kafka 4.1+: the
    epoch with its MetadataHash, after a tombstone for a type 4 a 4.0 broker left (KIP-1101).
    """
    if kafka_40:
        out = []
        if metadata_changed(group, facts, kafka_40=True) and (group is not None or facts):
            out.append(partition_metadata(group_id, facts))
        out.append(group_epoch(group_id, epoch, 0))
        return out
    out = [group_tombstone(4, group_id)] if group is not None and group.partition_metadata is not None else []
    out.append(group_epoch(group_id, epoch, metadata_hash(facts)))
    return out


def member_metadata(group_id: str, member_id: str, member: ConsumerGroupMemberMetadataValue) -> Record:
    """The member's type-5 record; tagged fields this version does not know are not written back (as Kafka,
    which rebuilds the value from its own member)."""
    data = member.to_dict()
    data.pop(UNKNOWN_TAGS, None)
    return _member_key(5, group_id, member_id), encode_value(5, 0, data)


def member_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(5, group_id, member_id), None


def target_epoch(group_id: str, epoch: int, timestamp: int = 0) -> Record:
    return _group_key(6, group_id), encode_value(6, 0, {"assignmentEpoch": epoch, "assignmentTimestamp": timestamp})


def target_member(group_id: str, member_id: str, assignment: Mapping[uuid.UUID, Iterable[int]]) -> Record:
    return _member_key(7, group_id, member_id), encode_value(7, 0, {"topicPartitions": topic_partitions(assignment)})


def target_member_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(7, group_id, member_id), None


def current_assignment(
    group_id: str,
    member_id: str,
    *,
    member_epoch: int,
    previous_member_epoch: int,
    state: int,
    assigned: Mapping[uuid.UUID, Iterable[int]],
    pending_revocation: Mapping[uuid.UUID, Iterable[int]],
) -> Record:
    value = {
        "memberEpoch": member_epoch,
        "previousMemberEpoch": previous_member_epoch,
        "state": state,
        "assignedPartitions": topic_partitions(assigned),
        "partitionsPendingRevocation": topic_partitions(pending_revocation),
    }
    return _member_key(8, group_id, member_id), encode_value(8, 0, value)


def current_assignment_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(8, group_id, member_id), None


def regex(group_id: str, pattern: str, topics: Iterable[str], version: int, timestamp: int) -> Record:
    key = encode_key(16, {"groupId": group_id, "regularExpression": pattern})
    return key, encode_value(16, 0, {"topics": sorted(topics), "version": version, "timestamp": timestamp})


def regex_tombstone(group_id: str, pattern: str) -> Record:
    return encode_key(16, {"groupId": group_id, "regularExpression": pattern}), None


def group_tombstone(record_type: int, group_id: str) -> Record:
    """A tombstone for a per-group record (3 epoch, 4 partition metadata, 6 target epoch)."""
    return _group_key(record_type, group_id), None


def member_assignment(current: ConsumerGroupCurrentMemberAssignmentValue | None) -> MemberAssignment:
    """A type-8 value (None: the builder's defaults) as the reconciler's input."""
    if current is None:
        return MemberAssignment(MemberState.STABLE, 0, -1, {}, {})
    return MemberAssignment(
        current.state, current.member_epoch, current.previous_member_epoch,
        assignment_map(current.assigned_partitions), assignment_map(current.partitions_pending_revocation),
    )


def current_record(group_id: str, member_id: str, ma: MemberAssignment) -> Record:
    """The type-8 record of a member's reconciled state."""
    return current_assignment(
        group_id, member_id, member_epoch=ma.member_epoch, previous_member_epoch=ma.previous_member_epoch,
        state=ma.state, assigned=ma.assigned, pending_revocation=ma.pending_revocation,
    )
