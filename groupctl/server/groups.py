"""Group membership over the wire: JoinGroup, SyncGroup, Heartbeat, LeaveGroup (classic protocol) and
ConsumerGroupHeartbeat (KIP-848).

The coordinator already decides everything Kafka's `GroupMetadataManager` decides (KIP-394's
MEMBER_ID_REQUIRED from JoinGroup v4, KIP-345 instance ids from v5, fencing, the KIP-848 epochs);
every body is the generated request class and goes to the coordinator as it came (JoinGroup and
ConsumerGroupHeartbeat with the `Caller` beside it), and the coordinator's answer is the reply. The
handlers add only the checks Kafka makes before its coordinator sees a request (an empty group id,
SyncGroup v5's mandatory protocol type and name) and JoinGroup's one wire rule: before v7 a protocol
name cannot be null, and "" stands for none.
A JoinGroup or SyncGroup the coordinator parks is answered when its callback fires, from whatever
request or timer completes the rebalance; the wait is bounded by the member's rebalance timeout plus
the margin a Java client allows itself (`JOIN_GROUP_TIMEOUT_LAPSE`), after which the client has given
up anyway and is told to rejoin.

Mixed groups (KIP-848 online migration) need nothing here: the coordinator's router sends a classic
member's JoinGroup, SyncGroup, Heartbeat and LeaveGroup to the consumer group it is in, and answers
them at once, so the classic-group wait bounds above never come into play for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from groupctl.coordinator.classic.messages import join_error
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.leaving import BATCH_LEAVE_VERSION
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
)
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    LeaveGroupRequestData,
    LeaveGroupResponseData,
    MemberIdentity,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.server.dispatch import RequestContext, handles

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
UNKNOWN_MEMBER_ID = KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"]
REBALANCE_IN_PROGRESS = KAFKA_ERROR_CODES["REBALANCE_IN_PROGRESS"]
INCONSISTENT_GROUP_PROTOCOL = KAFKA_ERROR_CODES["INCONSISTENT_GROUP_PROTOCOL"]
#: What a parked JoinGroup/SyncGroup may wait beyond the rebalance timeout (Kafka's clients: 5 s).
WAIT_MARGIN_S = 5.0
#: SyncGroup v5 requires ProtocolType and ProtocolName (`SyncGroupRequest.areMandatoryProtocolTypeAndNamePresent`).
SYNC_PROTOCOL_REQUIRED_VERSION = 5
#: JoinGroup v7 made ProtocolName nullable; older versions carry "" for none.
NULLABLE_PROTOCOL_NAME_VERSION = 7

Answer = TypeVar("Answer")


def client_host(ctx: RequestContext) -> str:
    """The client's address as Kafka records it (`InetAddress.toString()`: "/127.0.0.1")."""
    host = ctx.session.peer.rsplit(":", 1)[0]
    return f"/{host}"


def caller(ctx: RequestContext) -> Caller:
    """What the coordinator takes beside a request's body: the client's id and address, the API version."""
    return Caller(ctx.client_id or "", client_host(ctx), ctx.api_version)


async def parked(start: Callable[[Callable[[Answer], None]], None], timeout_s: float) -> Answer | None:
    """Start a coordinator call that answers through a callback; its answer, or None after `timeout_s`.

    The callback may fire at once, from another connection's request, or from a timer, all on this
    loop; one that fires after the wait gave up (or after the client went away) is dropped.
    """
    answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()

    def respond(value: Answer) -> None:
        if not answer.done():
            answer.set_result(value)

    start(respond)
    try:
        return await asyncio.wait_for(answer, timeout_s)
    except TimeoutError:
        return None


# -- JoinGroup (11) -------------------------------------------------------------------------------


@handles(11)
async def join_group(ctx: RequestContext, body: JoinGroupRequestData) -> JoinGroupResponseData:
    coordinator = ctx.broker.coordinator
    wait_ms = max(body.rebalance_timeout_ms, body.session_timeout_ms)

    def start(respond: Callable[[JoinGroupResponseData], None]) -> None:
        coordinator.join_group(body, respond, caller(ctx))

    response = await parked(start, wait_ms / 1000 + WAIT_MARGIN_S)
    if response is None:
        response = join_error(REBALANCE_IN_PROGRESS, body.member_id)
    if response.protocol_name is None and ctx.api_version < NULLABLE_PROTOCOL_NAME_VERSION:
        response.protocol_name = ""
    return response


# -- SyncGroup (14) -------------------------------------------------------------------------------


@handles(14)
async def sync_group(ctx: RequestContext, body: SyncGroupRequestData) -> SyncGroupResponseData:
    if body.group_id == "":
        return SyncGroupResponseData(error_code=INVALID_GROUP_ID)
    if ctx.api_version >= SYNC_PROTOCOL_REQUIRED_VERSION and (body.protocol_type is None or body.protocol_name is None):
        return SyncGroupResponseData(error_code=INCONSISTENT_GROUP_PROTOCOL)
    coordinator = ctx.broker.coordinator

    def start(respond: Callable[[SyncGroupResponseData], None]) -> None:
        coordinator.sync_group(body, respond)

    response = await parked(start, coordinator.sync_wait_ms(body.group_id, body.member_id) / 1000 + WAIT_MARGIN_S)
    return response if response is not None else SyncGroupResponseData(error_code=REBALANCE_IN_PROGRESS)


# -- Heartbeat (12) -------------------------------------------------------------------------------


@handles(12)
async def heartbeat(ctx: RequestContext, body: HeartbeatRequestData) -> HeartbeatResponseData:
    if body.group_id == "":
        return HeartbeatResponseData(error_code=INVALID_GROUP_ID)
    return ctx.broker.coordinator.classic_heartbeat(body)


# -- LeaveGroup (13) ------------------------------------------------------------------------------


@handles(13)
async def leave_group(ctx: RequestContext, body: LeaveGroupRequestData) -> LeaveGroupResponseData:
    """v0-2 name one member and answer with one error; v3+ name a batch (by member id and/or
    instance id, the admin path) and answer per member."""
    if body.group_id == "":
        return LeaveGroupResponseData(error_code=INVALID_GROUP_ID)
    identities = body.members if ctx.api_version >= BATCH_LEAVE_VERSION else [MemberIdentity(member_id=body.member_id)]
    try:
        answer = ctx.broker.coordinator.leave_group(body.group_id, identities)
    except KafkaError as exc:
        return LeaveGroupResponseData(error_code=exc.code)
    return answer.at_version(ctx.api_version)


# -- ConsumerGroupHeartbeat (68) ------------------------------------------------------------------


@handles(68)
async def consumer_group_heartbeat(ctx: RequestContext,
                                   body: ConsumerGroupHeartbeatRequestData) -> ConsumerGroupHeartbeatResponseData:
    return ctx.broker.coordinator.heartbeat(body, caller(ctx))
