"""The classic protocol's requests and answers as the coordinator takes and gives them (JoinGroup,
SyncGroup); the server maps them to and from the wire. DescribeGroups' answer is the generated
`DescribeGroupsResponseData`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from groupctl.coordinator.runtime import Result
from groupctl.errors import KafkaError
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE

NONE = 0


@dataclass(slots=True)
class JoinGroupRequest:
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int = -1  # v0 has none: the session timeout is used
    member_id: str = ""
    group_instance_id: str | None = None
    protocol_type: str = PROTOCOL_TYPE
    protocols: list[tuple[str, bytes]] = field(default_factory=list)
    reason: str | None = None
    client_id: str = "groupctl"
    client_host: str = "/127.0.0.1"
    version: int = 9


@dataclass(slots=True)
class JoinGroupResponse:
    error_code: int = NONE
    generation_id: int = -1
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader: str = ""
    skip_assignment: bool = False
    member_id: str = ""
    members: list[tuple[str, str | None, bytes]] = field(default_factory=list)  # only for the leader


@dataclass(slots=True)
class SyncGroupRequest:
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None = None
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignments: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class SyncGroupResponse:
    error_code: int = NONE
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignment: bytes = b""


JoinCallback = Callable[[JoinGroupResponse], None]
SyncCallback = Callable[[SyncGroupResponse], None]


def answer_join(steps: Callable[[Result[None]], None], req: JoinGroupRequest, respond: JoinCallback) -> Result[None]:
    """Run a JoinGroup handler's steps into a result; a refusal (KafkaError) is answered with its code and
    leaves nothing else behind, whichever group the request went to."""
    out: Result[None] = Result()
    try:
        steps(out)
    except KafkaError as exc:
        out = Result()
        out.reply(respond, JoinGroupResponse(error_code=exc.code, member_id=req.member_id))
    return out

