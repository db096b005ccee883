"""The deletion RPCs: DeleteGroups (42) and OffsetDelete (47), each sent to the group's coordinator.

Both go through groupctl's wire client rather than librdkafka: the answers keep every per-group and
per-partition error code (and DeleteGroups v3's message), and the coordinator lookup, retries on
NOT_COORDINATOR and deadline are the ones every other group RPC here uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.coordinator import on_coordinators
from groupctl.kafka.deadline import Deadline
from groupctl.model import TopicPartition
from groupctl.protocol.data.group_admin import DeleteGroupsRequestData, DeleteGroupsResponseData
from groupctl.protocol.data.offsets import (
    OffsetDeleteRequestData,
    OffsetDeleteRequestPartition,
    OffsetDeleteRequestTopic,
    OffsetDeleteResponseData,
)

DELETE_GROUPS: Final = 42
DELETE_GROUPS_VERSIONS: Final = range(0, 4)
OFFSET_DELETE: Final = 47
OFFSET_DELETE_VERSIONS: Final = range(0, 1)


def _broker(conn: BrokerConnection) -> Broker:
    return Broker(conn.node_id if conn.node_id is not None else -1, conn.host, conn.port)


@dataclass(frozen=True)
class GroupDeleteAnswer:
    """One group's DeleteGroups result as the coordinator sent it."""

    group_id: str
    error_code: int
    error_message: str | None
    coordinator: Broker | None = None


def parse_delete_groups(
    body: DeleteGroupsResponseData, coordinator: Broker | None = None
) -> dict[str, GroupDeleteAnswer]:
    return {r.group_id: GroupDeleteAnswer(r.group_id, r.error_code, r.error_message, coordinator) for r in body.results}


def delete_groups(cluster: Cluster, group_ids: Iterable[str], deadline: Deadline) -> dict[str, GroupDeleteAnswer]:
    """DeleteGroups on each group's coordinator, the groups sharing one batched per coordinator."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, GroupDeleteAnswer]:
        _, body = conn.call(DELETE_GROUPS, DELETE_GROUPS_VERSIONS,
                            lambda _v: DeleteGroupsRequestData(groups_names=groups), dl)
        return parse_delete_groups(body, _broker(conn))

    return on_coordinators(cluster, group_ids, send, lambda a: a.error_code, deadline, "DeleteGroups")


@dataclass
class OffsetDeleteAnswer:
    """OffsetDelete's top-level error (the whole request failed) and each partition's error code."""

    group_id: str
    error_code: int
    partitions: dict[TopicPartition, int] = field(default_factory=dict)
    coordinator: Broker | None = None


def offset_delete_request(group_id: str, partitions: Sequence[TopicPartition]) -> OffsetDeleteRequestData:
    """Partitions grouped by topic, topics in the order first named."""
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return OffsetDeleteRequestData(group_id=group_id, topics=[
        OffsetDeleteRequestTopic(name=topic, partitions=[OffsetDeleteRequestPartition(partition_index=p)
                                                         for p in parts])
        for topic, parts in by_topic.items()
    ])


def parse_offset_delete(
    body: OffsetDeleteResponseData, group_id: str, coordinator: Broker | None = None
) -> OffsetDeleteAnswer:
    partitions = {TopicPartition(t.name, p.partition_index): p.error_code for t in body.topics for p in t.partitions}
    return OffsetDeleteAnswer(group_id, body.error_code, partitions, coordinator)


def delete_offsets(
    cluster: Cluster, group_id: str, partitions: Sequence[TopicPartition], deadline: Deadline
) -> OffsetDeleteAnswer:
    """One OffsetDelete v0 for the group's partitions on its coordinator."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, OffsetDeleteAnswer]:
        _, body = conn.call(OFFSET_DELETE, OFFSET_DELETE_VERSIONS,
                            lambda _v: offset_delete_request(group_id, partitions), dl)
        return {group_id: parse_offset_delete(body, group_id, _broker(conn))}

    return on_coordinators(cluster, [group_id], send, lambda a: a.error_code, deadline, "OffsetDelete")[group_id]
