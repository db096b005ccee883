"""The share-group records (types 10-15), built as Kafka 4.1's `GroupCoordinatorRecordHelpers` builds
them: every value at version 0, topics and partitions sorted (Kafka writes its sets' order)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from groupctl.coordinator.log import Record
from groupctl.coordinator.share.state import InitTopic
from groupctl.protocol.records import encode_key, encode_value

TopicAssignment = Mapping[uuid.UUID, Iterable[int]]


def _group_key(record_type: int, group_id: str) -> bytes:
    return encode_key(record_type, {"groupId": group_id})


def _member_key(record_type: int, group_id: str, member_id: str) -> bytes:
    return encode_key(record_type, {"groupId": group_id, "memberId": member_id})


def _topic_partitions(assignment: TopicAssignment) -> list[dict]:
    return [
        {"topicId": topic_id, "partitions": sorted(parts)}
        for topic_id, parts in sorted(assignment.items(), key=lambda kv: kv[0].bytes)
        if parts
    ]


def member_metadata(group_id: str, member_id: str, *, rack_id: str | None, client_id: str, client_host: str,
                    subscribed_topic_names: Iterable[str]) -> Record:
    value = {"rackId": rack_id, "clientId": client_id, "clientHost": client_host,
             "subscribedTopicNames": sorted(subscribed_topic_names)}
    return _member_key(10, group_id, member_id), encode_value(10, 0, value)


def member_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(10, group_id, member_id), None


def group_epoch(group_id: str, epoch: int, metadata_hash: int) -> Record:
    return _group_key(11, group_id), encode_value(11, 0, {"epoch": epoch, "metadataHash": metadata_hash})


def group_tombstone(group_id: str) -> Record:
    return _group_key(11, group_id), None


def target_epoch(group_id: str, epoch: int) -> Record:
    return _group_key(12, group_id), encode_value(12, 0, {"assignmentEpoch": epoch})


def target_epoch_tombstone(group_id: str) -> Record:
    return _group_key(12, group_id), None


def target_member(group_id: str, member_id: str, assignment: TopicAssignment) -> Record:
    return _member_key(13, group_id, member_id), encode_value(13, 0, {"topicPartitions": _topic_partitions(assignment)})


def target_member_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(13, group_id, member_id), None


def current_assignment(group_id: str, member_id: str, *, member_epoch: int, previous_member_epoch: int,
                       assigned: TopicAssignment) -> Record:
    """Type 14; a share member is always in state 0 (STABLE): it has nothing to revoke."""
    value = {"memberEpoch": member_epoch, "previousMemberEpoch": previous_member_epoch, "state": 0,
             "assignedPartitions": _topic_partitions(assigned)}
    return _member_key(14, group_id, member_id), encode_value(14, 0, value)


def current_assignment_tombstone(group_id: str, member_id: str) -> Record:
    return _member_key(14, group_id, member_id), None


def _init_topics(topics: Mapping[uuid.UUID, InitTopic]) -> list[dict]:
    return [{"topicId": topic_id, "topicName": topic.name, "partitions": sorted(topic.partitions)}
            for topic_id, topic in sorted(topics.items(), key=lambda kv: kv[0].bytes)]


def state_partitions(group_id: str, *, initializing: Mapping[uuid.UUID, InitTopic],
                     initialized: Mapping[uuid.UUID, InitTopic], deleting: Mapping[uuid.UUID, str]) -> Record:
    """Type 15: the share-partitions initializing, initialized and being deleted."""
    value = {
        "initializingTopics": _init_topics(initializing),
        "initializedTopics": _init_topics(initialized),
        "deletingTopics": [{"topicId": t, "topicName": n}
                           for t, n in sorted(deleting.items(), key=lambda kv: kv[0].bytes)],
    }
    return _group_key(15, group_id), encode_value(15, 0, value)


def state_partitions_tombstone(group_id: str) -> Record:
    return _group_key(15, group_id), None
