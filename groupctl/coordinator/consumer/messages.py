"""The member epochs with a meaning, and one member's outcome of an admin LeaveGroup (ConsumerGroupHeartbeat's
request and answer are the generated `ConsumerGroupHeartbeatRequestData` and `…ResponseData`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2
#: ConsumerGroupHeartbeat v1 (KIP-1082) makes the client generate its member id.
CLIENT_MEMBER_ID_VERSION = 1


@dataclass(slots=True)
class LeaveResult:
    """One member of an admin LeaveGroup: as named in the request, and its error code (0: removed)."""

    member_id: str
    instance_id: str | None
    error_code: int = 0
    error_message: str | None = None
    removed_member_id: str | None = None
    partitions: list[tuple[uuid.UUID, int]] = field(default_factory=list)  # a consumer-group member's
    classic_assignment: bytes | None = None  # a classic member's assignment (consumer-protocol bytes)
