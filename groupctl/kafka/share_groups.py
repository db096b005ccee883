"""The share-group RPCs (KIP-932): ShareGroupDescribe (77) and Describe/Alter/DeleteShareGroupOffsets (90-92).

Each goes to the group's coordinator through `on_coordinators`, as the other group RPCs do, and the
answers stay the generated classes (`groupctl.protocol.data.share_groups`) with the coordinator that
sent them; `groupctl.describe` turns them into the model. Versions are the ones a real Kafka 4.1.0
broker exchanged (ShareGroupDescribe v1, the offsets APIs v0) and Kafka 4.2's DescribeShareGroupOffsets
v1, which adds each partition's lag (KIP-1226).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.coordinator import on_coordinators
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import error_name
from groupctl.model import TopicPartition
from groupctl.protocol.data.share_groups import (
    AlterShareGroupOffsetsRequestData,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
    AlterShareGroupOffsetsResponseData,
    DeleteShareGroupOffsetsRequestData,
    DeleteShareGroupOffsetsRequestTopic,
    DeleteShareGroupOffsetsResponseData,
    DescribedGroup,
    DescribeShareGroupOffsetsRequestData,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsResponseGroup,
    ShareGroupDescribeRequestData,
)

SHARE_GROUP_DESCRIBE: Final = 77
#: v0 was Kafka 4.0's early access, dropped in 4.1 with a different layout; v1 is what 4.1+ answers.
SHARE_GROUP_DESCRIBE_VERSIONS: Final = range(1, 2)
DESCRIBE_SHARE_GROUP_OFFSETS: Final = 90
DESCRIBE_SHARE_GROUP_OFFSETS_VERSIONS: Final = range(0, 2)
ALTER_SHARE_GROUP_OFFSETS: Final = 91
ALTER_SHARE_GROUP_OFFSETS_VERSIONS: Final = range(0, 1)
DELETE_SHARE_GROUP_OFFSETS: Final = 92
DELETE_SHARE_GROUP_OFFSETS_VERSIONS: Final = range(0, 1)
#: DescribeShareGroupOffsets v1 is the first to carry Lag.
LAG_FROM: Final = 1
#: A share-partition not initialised yet (nothing delivered): its StartOffset, shown `-` by Kafka's tool.
UNINITIALISED: Final = -1


def _broker(conn: BrokerConnection) -> Broker:
    return Broker(conn.node_id if conn.node_id is not None else -1, conn.host, conn.port)


@dataclass(frozen=True)
class ShareGroupInfo:
    """ShareGroupDescribe's answer for one group, and the coordinator that sent it."""

    described: DescribedGroup
    coordinator: Broker | None = None

    @property
    def error_name(self) -> str:
        return error_name(self.described.error_code)


def describe_share_groups(cluster: Cluster, group_ids: Iterable[str], deadline: Deadline) -> dict[str, ShareGroupInfo]:
    """ShareGroupDescribe on each group's coordinator; per-group errors (GROUP_ID_NOT_FOUND, "Group g is not a
    share group.") stay in the results. A coordinator without API 77 v1 raises `UnsupportedApi`."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, ShareGroupInfo]:
        _, body = conn.call(SHARE_GROUP_DESCRIBE, SHARE_GROUP_DESCRIBE_VERSIONS,
                            lambda _v: ShareGroupDescribeRequestData(group_ids=groups), dl)
        broker = _broker(conn)
        return {g.group_id: ShareGroupInfo(g, broker) for g in body.groups}

    return on_coordinators(cluster, group_ids, send, lambda i: i.described.error_code, deadline, "ShareGroupDescribe")


@dataclass(frozen=True)
class ShareOffsetsAnswer:
    """DescribeShareGroupOffsets' answer for one group, with the version it came in (lag needs v1)."""

    group: DescribeShareGroupOffsetsResponseGroup
    version: int

    @property
    def has_lag(self) -> bool:
        return self.version >= LAG_FROM


def describe_share_offsets(cluster: Cluster, group_id: str, deadline: Deadline) -> ShareOffsetsAnswer:
    """Every share-partition of the group (Topics null: all of them, as kafka-share-groups.sh asks)."""

    def send(conn: BrokerConnection, _groups: list[str], dl: Deadline) -> dict[str, ShareOffsetsAnswer]:
        request = DescribeShareGroupOffsetsRequestData(
            groups=[DescribeShareGroupOffsetsRequestGroup(group_id=group_id, topics=None)])
        version, body = conn.call(DESCRIBE_SHARE_GROUP_OFFSETS, DESCRIBE_SHARE_GROUP_OFFSETS_VERSIONS,
                                  lambda _v: request, dl)
        answers = {g.group_id: ShareOffsetsAnswer(g, version) for g in body.groups}
        return answers if group_id in answers else {}

    return on_coordinators(cluster, [group_id], send, lambda a: a.group.error_code, deadline,
                           "DescribeShareGroupOffsets")[group_id]


def alter_share_offsets_request(
    group_id: str, offsets: Mapping[TopicPartition, int]
) -> AlterShareGroupOffsetsRequestData:
    """Partitions grouped by topic, topics in the order first named."""
    by_topic: dict[str, list[AlterShareGroupOffsetsRequestPartition]] = {}
    for tp, offset in offsets.items():
        by_topic.setdefault(tp.topic, []).append(
            AlterShareGroupOffsetsRequestPartition(partition_index=tp.partition, start_offset=offset))
    return AlterShareGroupOffsetsRequestData(group_id=group_id, topics=[
        AlterShareGroupOffsetsRequestTopic(topic_name=topic, partitions=parts) for topic, parts in by_topic.items()])


def alter_share_offsets(
    cluster: Cluster, group_id: str, offsets: Mapping[TopicPartition, int], deadline: Deadline
) -> tuple[AlterShareGroupOffsetsResponseData, Broker]:
    """One AlterShareGroupOffsets v0 on the group's coordinator: the answer (a top-level error, then per
    partition; a real 4.1.0 broker answered success with an empty list) and who sent it."""

    Answer = tuple[AlterShareGroupOffsetsResponseData, Broker]

    def send(conn: BrokerConnection, _groups: list[str], dl: Deadline) -> dict[str, Answer]:
        _, body = conn.call(ALTER_SHARE_GROUP_OFFSETS, ALTER_SHARE_GROUP_OFFSETS_VERSIONS,
                            lambda _v: alter_share_offsets_request(group_id, offsets), dl)
        return {group_id: (body, _broker(conn))}

    return on_coordinators(cluster, [group_id], send, lambda a: a[0].error_code, deadline,
                           "AlterShareGroupOffsets")[group_id]


def delete_share_offsets(
    cluster: Cluster, group_id: str, topics: Sequence[str], deadline: Deadline
) -> tuple[DeleteShareGroupOffsetsResponseData, Broker]:
    """One DeleteShareGroupOffsets v0 naming whole topics (share offsets are deleted per topic)."""

    Answer = tuple[DeleteShareGroupOffsetsResponseData, Broker]

    def send(conn: BrokerConnection, _groups: list[str], dl: Deadline) -> dict[str, Answer]:
        request = DeleteShareGroupOffsetsRequestData(
            group_id=group_id, topics=[DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in topics])
        _, body = conn.call(DELETE_SHARE_GROUP_OFFSETS, DELETE_SHARE_GROUP_OFFSETS_VERSIONS, lambda _v: request, dl)
        return {group_id: (body, _broker(conn))}

    return on_coordinators(cluster, [group_id], send, lambda a: a[0].error_code, deadline,
                           "DeleteShareGroupOffsets")[group_id]
