"""What a group member's stored forms say it holds: consumer-protocol bytes and assignment records read.

A classic member carries its subscription and assignment as consumer-protocol bytes (JoinGroup,
SyncGroup, GroupMetadataValue, DescribeGroups); a KIP-848 member's partitions are in its
ConsumerGroupCurrentMemberAssignment record. Replay, the coordinator, the wire client and the views
all read them, so the readers live here, below all of them: each rule exists once and no reader
has to import the views (`groupctl.describe`) that are built on top.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from groupctl.errors import DecodeError
from groupctl.model import TopicPartition
from groupctl.protocol.consumer_protocol import decode_assignment, decode_subscription
from groupctl.protocol.data.records import ConsumerGroupCurrentMemberAssignmentValue, TopicPartitions

__all__ = [
    "assigned_partitions",
    "current_held",
    "decode_member_bytes",
    "held_partitions",
]

P = TypeVar("P", bound=Hashable)

# -- what a member holds ---------------------------------------------------------------------------


def held_partitions(assigned: Iterable[P], pending_revocation: Iterable[P] = ()) -> list[P]:
    """The partitions a member holds: those assigned to it and those it has yet to revoke.

    A KIP-848 member keeps consuming a partition pending revocation until it acknowledges the
    revocation, so removing it frees both kinds; a classic member holds its decoded assignment
    (nothing is ever pending). Each partition once, in first-seen order; any partition form works
    (TopicPartition, (topic id, partition) ...), so every caller applies the same rule.
    """
    return list(dict.fromkeys([*assigned, *pending_revocation]))


def _record_pairs(topic_partitions: Iterable[TopicPartitions]) -> list[tuple[uuid.UUID, int]]:
    return [(tps.topic_id, p) for tps in topic_partitions for p in tps.partitions]


def current_held(current: ConsumerGroupCurrentMemberAssignmentValue | None) -> list[tuple[uuid.UUID, int]]:
    """`held_partitions` of a ConsumerGroupCurrentMemberAssignment value (type 8) as (topic id, partition)."""
    if current is None:
        return []
    return held_partitions(_record_pairs(current.assigned_partitions),
                           _record_pairs(current.partitions_pending_revocation))


# -- classic members: the consumer-protocol bytes ---------------------------------------------------


def _decode_or_none(decode: Callable[[bytes], tuple[int, dict[str, Any]]], raw: bytes | None) -> dict | None:
    if raw is None:
        return None
    try:
        return decode(raw)[1]
    except DecodeError:
        return None


def decode_member_bytes(
    subscription: bytes | None, assignment: bytes | None, consumer: bool
) -> tuple[dict | None, dict | None]:
    """A classic member's subscription and assignment decoded as the consumer protocol.

    None for either when the group does not use the consumer protocol (`consumer` False) or the
    bytes do not decode: Kafka's tools then leave them undecoded too.
    """
    if not consumer:
        return None, None
    return _decode_or_none(decode_subscription, subscription), _decode_or_none(decode_assignment, assignment)


def assigned_partitions(decoded_assignment: dict | None) -> list[TopicPartition]:
    """The partitions of a decoded ConsumerProtocolAssignment, in its order (empty when None)."""
    if not decoded_assignment:
        return []
    return [TopicPartition(tp["topic"], p) for tp in decoded_assignment.get("assignedPartitions") or ()
            for p in tp["partitions"]]
