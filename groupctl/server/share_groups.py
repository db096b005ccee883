"""Share groups over the wire: ShareGroupHeartbeat, ShareGroupDescribe and the share offsets requests
(Describe/Alter/DeleteShareGroupOffsets), at the versions a Kafka 4.1.0 broker advertises.

The coordinator answers; these handlers put its answers in the wire's shapes, as Kafka 4.1.0 fills them:
AlterShareGroupOffsets v0 answers a success with an empty `responses` list (only refused partitions are
listed), and a group-level refusal is the top-level ErrorCode with its message.
"""

from __future__ import annotations

from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.protocol.data.share_groups import (
    AlterShareGroupOffsetsRequestData,
    AlterShareGroupOffsetsResponseData,
    AlterShareGroupOffsetsResponsePartition,
    AlterShareGroupOffsetsResponseTopic,
    DeleteShareGroupOffsetsRequestData,
    DeleteShareGroupOffsetsResponseData,
    DeleteShareGroupOffsetsResponseTopic,
    DescribeShareGroupOffsetsRequestData,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsResponseData,
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
    ShareGroupDescribeRequestData,
    ShareGroupDescribeResponseData,
    ShareGroupHeartbeatRequestData,
    ShareGroupHeartbeatResponseData,
)
from groupctl.server.dispatch import RequestContext, handles
from groupctl.server.group_admin import with_operations
from groupctl.server.groups import caller

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
UNKNOWN_TOPIC_OR_PARTITION = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_OR_PARTITION"]


@handles(76, range(1, 2))
async def share_group_heartbeat(ctx: RequestContext,
                                body: ShareGroupHeartbeatRequestData) -> ShareGroupHeartbeatResponseData:
    return ctx.broker.coordinator.share_heartbeat(body, caller(ctx))


@handles(77, range(1, 2))
async def share_group_describe(ctx: RequestContext,
                               body: ShareGroupDescribeRequestData) -> ShareGroupDescribeResponseData:
    return with_operations(body.include_authorized_operations, ctx.broker.coordinator.share_group_describe(body))


@handles(90, range(0, 1))
async def describe_share_group_offsets(
        ctx: RequestContext, body: DescribeShareGroupOffsetsRequestData) -> DescribeShareGroupOffsetsResponseData:
    return DescribeShareGroupOffsetsResponseData(groups=[_described_offsets(ctx, g) for g in body.groups])


def _described_offsets(ctx: RequestContext,
                       asked: DescribeShareGroupOffsetsRequestGroup) -> DescribeShareGroupOffsetsResponseGroup:
    """One group's start offsets: every initialized share-partition (`topics` null), or those named (a
    partition without state answers start offset -1)."""
    coordinator = ctx.broker.coordinator
    if asked.group_id == "":
        return DescribeShareGroupOffsetsResponseGroup(group_id="", error_code=INVALID_GROUP_ID)
    try:
        offsets = coordinator.share_offsets(asked.group_id)
    except KafkaError as exc:
        return DescribeShareGroupOffsetsResponseGroup(group_id=asked.group_id, error_code=exc.code,
                                                      error_message=exc.message)
    known = {(o.topic, o.partition): o for o in offsets}
    wanted = (sorted(known) if asked.topics is None
              else [(t.topic_name, p) for t in asked.topics for p in t.partitions])
    topics: dict[str, DescribeShareGroupOffsetsResponseTopic] = {}
    for name, partition in wanted:
        topic = ctx.broker.topics.get(name)
        if topic is None:
            continue
        entry = topics.get(name)
        if entry is None:
            entry = topics[name] = DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=topic.topic_id)
        offset = known.get((name, partition))
        start = offset.start_offset if offset is not None and offset.start_offset is not None else -1
        epoch = offset.leader_epoch if offset is not None and offset.leader_epoch is not None else -1
        entry.partitions.append(DescribeShareGroupOffsetsResponsePartition(
            partition_index=partition, start_offset=start, leader_epoch=epoch))
    return DescribeShareGroupOffsetsResponseGroup(group_id=asked.group_id, topics=list(topics.values()))


@handles(91, range(0, 1))
async def alter_share_group_offsets(
        ctx: RequestContext, body: AlterShareGroupOffsetsRequestData) -> AlterShareGroupOffsetsResponseData:
    if body.group_id == "":
        return AlterShareGroupOffsetsResponseData(error_code=INVALID_GROUP_ID)
    offsets = {(t.topic_name, p.partition_index): p.start_offset for t in body.topics for p in t.partitions}
    try:
        answers = ctx.broker.coordinator.alter_share_offsets(body.group_id, offsets)
    except KafkaError as exc:
        return AlterShareGroupOffsetsResponseData(error_code=exc.code, error_message=exc.message)
    refused: dict[str, AlterShareGroupOffsetsResponseTopic] = {}
    for (name, partition), error in answers.items():
        if error is None:
            continue
        topic = ctx.broker.topics.get(name)
        entry = refused.setdefault(name, AlterShareGroupOffsetsResponseTopic(topic_name=name))
        if topic is not None:
            entry.topic_id = topic.topic_id
        entry.partitions.append(AlterShareGroupOffsetsResponsePartition(
            partition_index=partition, error_code=error.code, error_message=error.message))
    return AlterShareGroupOffsetsResponseData(responses=list(refused.values()))


@handles(92, range(0, 1))
async def delete_share_group_offsets(
        ctx: RequestContext, body: DeleteShareGroupOffsetsRequestData) -> DeleteShareGroupOffsetsResponseData:
    if body.group_id == "":
        return DeleteShareGroupOffsetsResponseData(error_code=INVALID_GROUP_ID)
    try:
        answers = ctx.broker.coordinator.delete_share_offsets(body.group_id, [t.topic_name for t in body.topics])
    except KafkaError as exc:
        return DeleteShareGroupOffsetsResponseData(error_code=exc.code, error_message=exc.message)
    out = []
    for name, topic_id, error in answers:
        topic = DeleteShareGroupOffsetsResponseTopic(topic_name=name, error_code=error.code if error else 0,
                                                     error_message=error.message if error else None)
        if topic_id is not None:
            topic.topic_id = topic_id
        out.append(topic)
    return DeleteShareGroupOffsetsResponseData(responses=out)
