"""OffsetCommit (8) and OffsetFetch (9) answered whole, as the generated classes, at the caller's version.

Kafka splits this between KafkaApis (topics the cluster does not have answer UNKNOWN_TOPIC_OR_PARTITION,
unknown ids at v10 UNKNOWN_TOPIC_ID, before the coordinator is asked) and `GroupCoordinatorService` (an
empty group id is INVALID_GROUP_ID); the answer's shape follows the version: OffsetFetch's single group
before v8 and batch from v8, v1's per-partition group error, topics named by id from v10. The commit and
fetch themselves are the coordinator's `commit_offsets` / `fetch_offsets`, which the local backend shares.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from groupctl.coordinator.offsets import CommitPartition, FetchedOffset
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.protocol.data.offsets import (
    OffsetCommitRequestData,
    OffsetCommitResponseData,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
    OffsetFetchRequestData,
    OffsetFetchResponseData,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from groupctl.protocol.primitives import ZERO_UUID

if TYPE_CHECKING:
    from groupctl.coordinator.coordinator import Coordinator

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
UNKNOWN_TOPIC_OR_PARTITION = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_OR_PARTITION"]
UNKNOWN_TOPIC_ID = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_ID"]
#: OffsetCommit and OffsetFetch v10 name topics by id.
TOPIC_IDS_VERSION = 10
#: OffsetFetch v8 batches groups; v2 added the response's top-level ErrorCode.
BATCH_FETCH_VERSION = 8
TOP_LEVEL_ERROR_VERSION = 2

#: A topic as OffsetFetch asks for it or answers it, whatever the version's classes: name, id, partitions.
Asked = tuple[str, uuid.UUID, list[int]]
Fetched = tuple[str, uuid.UUID, list[FetchedOffset]]


def offset_commit(coordinator: Coordinator, request: OffsetCommitRequestData,
                  caller: Caller) -> OffsetCommitResponseData:
    """Commit what names a partition the cluster has; each partition answers its own error, else the
    group's (the request's whole refusal), else its own outcome (metadata too large)."""
    topics = coordinator.topics
    by_ids = caller.api_version >= TOPIC_IDS_VERSION
    answer: list[tuple[OffsetCommitResponseTopic, list[tuple[int, CommitPartition | int]]]] = []
    valid: list[CommitPartition] = []
    for t in request.topics:
        topic = topics.by_id(t.topic_id) if by_ids else topics.get(t.name)
        entry = OffsetCommitResponseTopic(name=t.name if topic is None else topic.name,
                                          topic_id=t.topic_id if topic is None else topic.topic_id)
        outcomes: list[tuple[int, CommitPartition | int]] = []
        for p in t.partitions:
            index = p.partition_index
            if topic is None:
                outcomes.append((index, UNKNOWN_TOPIC_ID if by_ids else UNKNOWN_TOPIC_OR_PARTITION))
            elif not 0 <= index < topic.partitions:
                outcomes.append((index, UNKNOWN_TOPIC_OR_PARTITION))
            else:
                item = CommitPartition(topic.name, index, p.committed_offset, p.committed_leader_epoch,
                                       p.committed_metadata or "")
                valid.append(item)
                outcomes.append((index, item))
        answer.append((entry, outcomes))
    group_error = 0
    if request.group_id == "":
        group_error = INVALID_GROUP_ID
    else:
        try:
            coordinator.commit_offsets(
                request.group_id, request.member_id, request.generation_id_or_member_epoch, valid,
                version=caller.api_version, retention_ms=request.retention_time_ms,
                instance_id=request.group_instance_id,
            )
        except KafkaError as exc:
            group_error = exc.code
    for entry, outcomes in answer:
        entry.partitions = [
            OffsetCommitResponsePartition(
                partition_index=index,
                error_code=outcome if isinstance(outcome, int) else group_error or outcome.error_code)
            for index, outcome in outcomes
        ]
    return OffsetCommitResponseData(topics=[entry for entry, _ in answer])


def offset_fetch(coordinator: Coordinator, request: OffsetFetchRequestData,
                 caller: Caller) -> OffsetFetchResponseData:
    """Each group's committed offsets (all it has for topics None), or its error."""
    version = caller.api_version
    by_ids = version >= TOPIC_IDS_VERSION
    stable = request.require_stable
    if version >= BATCH_FETCH_VERSION:
        groups = []
        for g in request.groups:
            asked = None if g.topics is None else [(t.name, t.topic_id, t.partition_indexes) for t in g.topics]
            error, found = _fetch_group(coordinator, g.group_id, asked, g.member_id, g.member_epoch, stable, by_ids)
            groups.append(OffsetFetchResponseGroup(group_id=g.group_id, error_code=error, topics=[
                OffsetFetchResponseTopics(name=name, topic_id=topic_id, partitions=[
                    OffsetFetchResponsePartitions(
                        partition_index=o.partition, committed_offset=o.offset, committed_leader_epoch=o.leader_epoch,
                        metadata=o.metadata, error_code=o.error_code)
                    for o in items])
                for name, topic_id, items in found]))
        return OffsetFetchResponseData(groups=groups)
    single = None if request.topics is None else [(t.name, ZERO_UUID, t.partition_indexes) for t in request.topics]
    error, found = _fetch_group(coordinator, request.group_id, single, None, -1, stable, by_ids=False)
    if error and version < TOP_LEVEL_ERROR_VERSION:
        # v1 has no top-level error: each partition asked for carries it.
        found = [(name, topic_id, [FetchedOffset(name, p, error_code=error) for p in partitions])
                 for name, topic_id, partitions in single or ()]
    return OffsetFetchResponseData(error_code=error, topics=[
        OffsetFetchResponseTopic(name=name, partitions=[
            OffsetFetchResponsePartition(
                partition_index=o.partition, committed_offset=o.offset, committed_leader_epoch=o.leader_epoch,
                metadata=o.metadata, error_code=o.error_code)
            for o in items])
        for name, _, items in found])


def _fetch_group(
    coordinator: Coordinator, group_id: str, requested: list[Asked] | None, member_id: str | None, epoch: int,
    require_stable: bool, by_ids: bool,
) -> tuple[int, list[Fetched]]:
    """One group's committed offsets: (group error, topics with their partitions), named as the version
    names them (by id: unknown ids answer UNKNOWN_TOPIC_ID, after the known topics)."""
    if group_id == "":
        return INVALID_GROUP_ID, []
    topics = coordinator.topics
    unknown: list[Fetched] = []
    wanted: list[tuple[str, list[int]]] | None = None
    if requested is not None:
        wanted = []
        for name, topic_id, partitions in requested:
            if by_ids:
                topic = topics.by_id(topic_id)
                if topic is None:
                    unknown.append(("", topic_id, [FetchedOffset("", p, error_code=UNKNOWN_TOPIC_ID)
                                                   for p in partitions]))
                    continue
                name = topic.name
            wanted.append((name, list(partitions)))
    try:
        fetched = coordinator.fetch_offsets(group_id, wanted, member_id=member_id, epoch=epoch,
                                            require_stable=require_stable)
    except KafkaError as exc:
        return exc.code, []
    by_topic: dict[str, list[FetchedOffset]] = {}
    for item in fetched:
        by_topic.setdefault(item.topic, []).append(item)
    out: list[Fetched] = []
    for name, items in by_topic.items():
        topic = topics.get(name)
        topic_id = topic.topic_id if topic is not None else ZERO_UUID
        if by_ids and topic_id == ZERO_UUID:
            continue  # a topic without an id (deleted) cannot be named at v10
        out.append((name, topic_id, items))
    return 0, out + unknown
