"""Looking at groups and their offsets over the wire: ListGroups, DescribeGroups,
ConsumerGroupDescribe, DeleteGroups, OffsetDelete, OffsetCommit and OffsetFetch.

The coordinator answers; these handlers add what Kafka checks before its coordinator is asked for
OffsetDelete (an empty group id, topics the cluster does not have) and DeleteGroups v3's error messages.
ListGroups, DescribeGroups and ConsumerGroupDescribe take and return the generated classes: the
coordinator answers them whole (empty group ids and DescribeGroups v6's GROUP_ID_NOT_FOUND included), and
the handler adds only the authorized operations KafkaApis adds. OffsetCommit and OffsetFetch are the
coordinator's whole, at the caller's version (`groupctl.coordinator.offset_requests`): unknown topics and
ids, empty group ids, OffsetFetch's single group before v8 and batch from v8.
"""

from __future__ import annotations

from typing import TypeVar

from groupctl.coordinator.coordinator import known_partitions
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
    OffsetCommitRequestData,
    OffsetCommitResponseData,
    OffsetDeleteRequestData,
    OffsetDeleteResponseData,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
    OffsetFetchRequestData,
    OffsetFetchResponseData,
)
from groupctl.protocol.data.share_groups import ShareGroupDescribeResponseData
from groupctl.server.dispatch import RequestContext, handles
from groupctl.server.groups import caller

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
UNKNOWN_TOPIC_OR_PARTITION = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_OR_PARTITION"]
#: Kafka's AclOperation codes supported on a GROUP resource: READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS,
#: ALTER_CONFIGS. groupctl serve has no authorizer, so a client holds them all.
GROUP_OPERATIONS = sum(1 << op for op in (3, 6, 8, 10, 11))


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
    return with_operations(body.include_authorized_operations, ctx.broker.coordinator.consumer_group_describe(body))


R = TypeVar("R", ConsumerGroupDescribeResponseData, ShareGroupDescribeResponseData)


def with_operations(asked: bool, response: R) -> R:
    """A group described carries the operations asked for; one answered with an error does not."""
    if asked:
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
async def offset_commit(ctx: RequestContext, body: OffsetCommitRequestData) -> OffsetCommitResponseData:
    return ctx.broker.coordinator.offset_commit(body, caller(ctx))


# -- OffsetFetch (9) ------------------------------------------------------------------------------


@handles(9)
async def offset_fetch(ctx: RequestContext, body: OffsetFetchRequestData) -> OffsetFetchResponseData:
    return ctx.broker.coordinator.offset_fetch(body, caller(ctx))
