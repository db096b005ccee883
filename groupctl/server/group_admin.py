"""Looking at groups and their offsets over the wire: ListGroups, DescribeGroups,
ConsumerGroupDescribe, DeleteGroups, OffsetDelete, OffsetCommit and OffsetFetch.

The coordinator answers; these handlers add what Kafka checks before its coordinator is asked (an
empty group id, topics the cluster does not have, topic ids at OffsetCommit/OffsetFetch v10) and
shape the answer for the version asked: OffsetFetch's single group before v8 and batch from v8,
DeleteGroups v3's error messages. ListGroups, DescribeGroups and ConsumerGroupDescribe take and return
the generated classes: the coordinator answers them whole (empty group ids and DescribeGroups v6's
GROUP_ID_NOT_FOUND included), and the handler adds only the authorized operations KafkaApis adds.
"""

from __future__ import annotations

from groupctl.coordinator.coordinator import known_partitions
from groupctl.coordinator.offsets import CommitPartition, FetchedOffset
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeRequestData, ConsumerGroupDescribeResponseData
from groupctl.protocol.data.group_admin import (
    DeletableGroupResult,
    DeleteGroupsRequestData,
    DeleteGroupsResponseData,
    DescribeGroupsRequestData,
    DescribeGroupsResponseData,
    ListGroupsRequestData,
    ListGroupsResponseData,
)
from groupctl.protocol.data.offsets import (
    OffsetDeleteRequestData,
    OffsetDeleteResponseData,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)
from groupctl.protocol.primitives import ZERO_UUID
from groupctl.server.dispatch import Body, RequestContext, handles
from groupctl.server.groups import caller

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
UNKNOWN_TOPIC_OR_PARTITION = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_OR_PARTITION"]
UNKNOWN_TOPIC_ID = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_ID"]
#: Kafka's AclOperation codes supported on a GROUP resource: READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS,
#: ALTER_CONFIGS. groupctl serve has no authorizer, so a client holds them all.
GROUP_OPERATIONS = sum(1 << op for op in (3, 6, 8, 10, 11))
#: OffsetCommit and OffsetFetch v10 name topics by id.
TOPIC_IDS_VERSION = 10
#: OffsetFetch v8 batches groups; v2 added the response's top-level ErrorCode.
BATCH_FETCH_VERSION = 8
TOP_LEVEL_ERROR_VERSION = 2


# -- ListGroups (16) ------------------------------------------------------------------------------


@handles(16)
async def list_groups(ctx: RequestContext, body: ListGroupsRequestData) -> ListGroupsResponseData:
    return ctx.broker.coordinator.list_groups(body)


# -- DescribeGroups (15) --------------------------------------------------------------------------


@handles(15)
async def describe_groups(ctx: RequestContext, body: DescribeGroupsRequestData) -> DescribeGroupsResponseData:
    """Every group named (an empty id aside) carries the operations asked for, its error or not."""
    response = ctx.broker.coordinator.describe_groups(body, caller(ctx))
    if body.include_authorized_operations:
        for group, group_id in zip(response.groups, body.groups, strict=True):
            if group_id != "":
                group.authorized_operations = GROUP_OPERATIONS
    return response


# -- ConsumerGroupDescribe (69) -------------------------------------------------------------------


@handles(69)
async def consumer_group_describe(ctx: RequestContext,
                                  body: ConsumerGroupDescribeRequestData) -> ConsumerGroupDescribeResponseData:
    """A group described carries the operations asked for; one answered with an error does not."""
    response = ctx.broker.coordinator.consumer_group_describe(body)
    if body.include_authorized_operations:
        for group in response.groups:
            if group.error_code == 0:
                group.authorized_operations = GROUP_OPERATIONS
    return response


# -- DeleteGroups (42) ----------------------------------------------------------------------------


@handles(42)
async def delete_groups(ctx: RequestContext, body: DeleteGroupsRequestData) -> DeleteGroupsResponseData:
    results = ctx.broker.coordinator.delete_groups(body.groups_names)
    return DeleteGroupsResponseData(results=[
        DeletableGroupResult(group_id=group_id, error_code=error.code if error else 0,
                             error_message=error.message if error else None)
        for group_id, error in results
    ])


# -- OffsetDelete (47) ----------------------------------------------------------------------------


@handles(47)
async def offset_delete(ctx: RequestContext, body: OffsetDeleteRequestData) -> OffsetDeleteResponseData:
    """Unknown partitions are answered here, the rest by the coordinator; a group-level error is the
    top-level ErrorCode, with the unknown partitions still listed (the broker merges both answers)."""
    coordinator = ctx.broker.coordinator
    group_id = body.group_id
    if group_id == "":
        return OffsetDeleteResponseData(error_code=INVALID_GROUP_ID)
    requested = [(t.name, [p.partition_index for p in t.partitions]) for t in body.topics]
    asked, unknown = known_partitions(ctx.broker.topics, requested)
    answers: dict[str, list[OffsetDeleteResponsePartition]] = {}
    for name, p in unknown:
        answers.setdefault(name, []).append(
            OffsetDeleteResponsePartition(partition_index=p, error_code=UNKNOWN_TOPIC_OR_PARTITION))
    error = 0
    try:
        deleted = coordinator.delete_offsets(group_id, asked)
    except KafkaError as exc:
        error, deleted = exc.code, []
    for name, p, failure in deleted:
        answers.setdefault(name, []).append(
            OffsetDeleteResponsePartition(partition_index=p, error_code=failure.code if failure else 0))
    return OffsetDeleteResponseData(error_code=error, topics=[
        OffsetDeleteResponseTopic(name=n, partitions=parts) for n, parts in answers.items()
    ])


# -- OffsetCommit (8) -----------------------------------------------------------------------------


@handles(8)
async def offset_commit(ctx: RequestContext, body: Body) -> Body:
    """Commit what names a partition the cluster has; the rest answer UNKNOWN_TOPIC_OR_PARTITION
    (UNKNOWN_TOPIC_ID for an unknown id at v10), as KafkaApis sorts them before the coordinator."""
    coordinator = ctx.broker.coordinator
    by_ids = ctx.api_version >= TOPIC_IDS_VERSION
    group_id = body["groupId"]
    answer: list[tuple[Body, list[tuple[int, CommitPartition | int]]]] = []
    valid: list[CommitPartition] = []
    for t in body["topics"]:
        topic = coordinator.topics.by_id(t["topicId"]) if by_ids else coordinator.topics.get(t["name"])
        entry = {"name": t.get("name", "") if topic is None else topic.name,
                 "topicId": t.get("topicId", ZERO_UUID) if topic is None else topic.topic_id}
        outcomes: list[tuple[int, CommitPartition | int]] = []
        for p in t["partitions"]:
            index = p["partitionIndex"]
            if topic is None:
                outcomes.append((index, UNKNOWN_TOPIC_ID if by_ids else UNKNOWN_TOPIC_OR_PARTITION))
            elif not 0 <= index < topic.partitions:
                outcomes.append((index, UNKNOWN_TOPIC_OR_PARTITION))
            else:
                item = CommitPartition(topic.name, index, p["committedOffset"], p.get("committedLeaderEpoch", -1),
                                       p.get("committedMetadata") or "")
                valid.append(item)
                outcomes.append((index, item))
        answer.append((entry, outcomes))
    group_error = 0
    if group_id == "":
        group_error = INVALID_GROUP_ID
    else:
        try:
            coordinator.commit_offsets(
                group_id, body.get("memberId", ""), body.get("generationIdOrMemberEpoch", -1), valid,
                version=ctx.api_version, retention_ms=body.get("retentionTimeMs", -1),
                instance_id=body.get("groupInstanceId"),
            )
        except KafkaError as exc:
            group_error = exc.code
    return {
        "topics": [
            {**entry, "partitions": [
                {"partitionIndex": index,
                 "errorCode": outcome if isinstance(outcome, int) else group_error or outcome.error_code}
                for index, outcome in outcomes
            ]}
            for entry, outcomes in answer
        ]
    }


# -- OffsetFetch (9) ------------------------------------------------------------------------------


@handles(9)
async def offset_fetch(ctx: RequestContext, body: Body) -> Body:
    version = ctx.api_version
    stable = bool(body.get("requireStable"))
    if version >= BATCH_FETCH_VERSION:
        groups = []
        for g in body["groups"]:
            error, topics = _fetch_group(ctx, g["groupId"], g["topics"], g.get("memberId"), g.get("memberEpoch", -1),
                                         stable)
            groups.append({"groupId": g["groupId"], "topics": topics, "errorCode": error})
        return {"groups": groups}
    error, topics = _fetch_group(ctx, body["groupId"], body["topics"], None, -1, stable)
    if error and version < TOP_LEVEL_ERROR_VERSION:
        # v1 has no top-level error: each partition asked for carries it.
        topics = [{"name": t["name"], "partitions": [_fetched_entry(FetchedOffset(t["name"], p, error_code=error))
                                                     for p in t["partitionIndexes"]]}
                  for t in body["topics"] or ()]
    return {"topics": topics, "errorCode": error}


def _fetch_group(
    ctx: RequestContext, group_id: str, requested: list[Body] | None, member_id: str | None, epoch: int,
    require_stable: bool,
) -> tuple[int, list[Body]]:
    """One group's committed offsets: (group error, topics with partitions), as the version names topics."""
    if group_id == "":
        return INVALID_GROUP_ID, []
    coordinator = ctx.broker.coordinator
    by_ids = ctx.api_version >= TOPIC_IDS_VERSION
    unknown: list[Body] = []
    wanted: list[tuple[str, list[int]]] | None = None
    if requested is not None:
        wanted = []
        for t in requested:
            if by_ids:
                topic = coordinator.topics.by_id(t["topicId"])
                if topic is None:
                    unknown.append({"name": "", "topicId": t["topicId"], "partitions": [
                        _fetched_entry(FetchedOffset("", p, error_code=UNKNOWN_TOPIC_ID)) for p in t["partitionIndexes"]
                    ]})
                    continue
                wanted.append((topic.name, list(t["partitionIndexes"])))
            else:
                wanted.append((t["name"], list(t["partitionIndexes"])))
    try:
        fetched = coordinator.fetch_offsets(group_id, wanted, member_id=member_id, epoch=epoch,
                                            require_stable=require_stable)
    except KafkaError as exc:
        return exc.code, []
    by_topic: dict[str, list[FetchedOffset]] = {}
    for item in fetched:
        by_topic.setdefault(item.topic, []).append(item)
    topics = []
    for name, items in by_topic.items():
        topic = coordinator.topics.get(name)
        topic_id = topic.topic_id if topic is not None else ZERO_UUID
        if by_ids and topic_id == ZERO_UUID:
            continue  # a topic without an id (deleted) cannot be named at v10
        topics.append({"name": name, "topicId": topic_id, "partitions": [_fetched_entry(i) for i in items]})
    return 0, topics + unknown


def _fetched_entry(item: FetchedOffset) -> Body:
    return {"partitionIndex": item.partition, "committedOffset": item.offset,
            "committedLeaderEpoch": item.leader_epoch, "metadata": item.metadata, "errorCode": item.error_code}
