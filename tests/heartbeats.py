"""ConsumerGroupHeartbeat requests and answers in the short forms tests write them in.

A request is the generated `ConsumerGroupHeartbeatRequestData` (what `Coordinator.heartbeat` takes and the
wire carries), built from group, member and epoch by position and the owned partitions as
`(topic id, partitions)` pairs; an answer's assignment is read back as `{topic id: partitions}` and its
error code as Kafka's error name.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from groupctl.errors import KAFKA_ERROR_NAMES
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
    TopicPartitions,
)


def hb(group_id: str, member_id: str = "", member_epoch: int = 0, *,
       topic_partitions: Iterable[tuple[uuid.UUID, Iterable[int]]] | None = None,
       **fields: Any) -> ConsumerGroupHeartbeatRequestData:
    """A heartbeat request; `fields` are the request's other attributes (`instance_id=`, `rack_id=`, ...)."""
    owned = None if topic_partitions is None else [
        TopicPartitions(topic_id=topic_id, partitions=list(partitions)) for topic_id, partitions in topic_partitions
    ]
    return ConsumerGroupHeartbeatRequestData(group_id=group_id, member_id=member_id, member_epoch=member_epoch,
                                             topic_partitions=owned, **fields)


def assigned(response: ConsumerGroupHeartbeatResponseData) -> dict[uuid.UUID, list[int]] | None:
    """The answer's assignment by topic id (None: not sent, the member's assignment did not change)."""
    if response.assignment is None:
        return None
    return {t.topic_id: t.partitions for t in response.assignment.topic_partitions}


def error(response: ConsumerGroupHeartbeatResponseData) -> str:
    """The answer's error code as Kafka's error name (NONE for 0)."""
    return KAFKA_ERROR_NAMES.get(response.error_code, str(response.error_code))
