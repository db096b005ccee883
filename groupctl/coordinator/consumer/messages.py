"""The member epochs with a meaning (ConsumerGroupHeartbeat's request and answer are the generated
`ConsumerGroupHeartbeatRequestData` and `…ResponseData`)."""

from __future__ import annotations

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2
#: ConsumerGroupHeartbeat v1 (KIP-1082) makes the client generate its member id.
CLIENT_MEMBER_ID_VERSION = 1
