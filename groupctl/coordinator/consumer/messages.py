"""ConsumerGroupHeartbeat's request and answer, and the member epochs with a meaning."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2
#: ConsumerGroupHeartbeat v1 (KIP-1082) makes the client generate its member id.
CLIENT_MEMBER_ID_VERSION = 1


@dataclass(slots=True)
class HeartbeatRequest:
    """ConsumerGroupHeartbeatRequest; None means "not sent" (unchanged), as on the wire."""

    group_id: str
    member_id: str = ""
    member_epoch: int = JOIN_EPOCH
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: list[str] | None = None
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    topic_partitions: list[tuple[uuid.UUID, list[int]]] | None = None
    client_id: str = "groupctl"
    client_host: str = "/127.0.0.1"
    version: int = 1


@dataclass(slots=True)
class HeartbeatResponse:
    error_code: int = 0
    error_message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: dict[uuid.UUID, list[int]] | None = None

    @property
    def error(self) -> str:
        from groupctl.errors import KAFKA_ERROR_NAMES

        return KAFKA_ERROR_NAMES.get(self.error_code, str(self.error_code))
