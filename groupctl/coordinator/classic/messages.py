"""What the classic handlers share about their answers (JoinGroup's and SyncGroup's requests and answers
are the generated `JoinGroupRequestData`/`…ResponseData` and `SyncGroupRequestData`/`…ResponseData`,
the Heartbeat's `HeartbeatRequestData`/`…ResponseData`; DescribeGroups' answer `DescribeGroupsResponseData`).

A parked JoinGroup or SyncGroup is answered through the callback given with it, which the group keeps
until the rebalance completes.
"""

from __future__ import annotations

from collections.abc import Callable

from groupctl.coordinator.runtime import Result
from groupctl.errors import KafkaError
from groupctl.protocol.data.groups import JoinGroupRequestData, JoinGroupResponseData, SyncGroupResponseData

NONE = 0

JoinCallback = Callable[[JoinGroupResponseData], None]
SyncCallback = Callable[[SyncGroupResponseData], None]


def join_error(code: int, member_id: str) -> JoinGroupResponseData:
    """A JoinGroup refused with `code`: no protocol chosen, so its name is null (the class defaults to ""),
    which the wire carries as "" before JoinGroup v7."""
    return JoinGroupResponseData(error_code=code, member_id=member_id, protocol_name=None)


def protocol_pairs(req: JoinGroupRequestData) -> list[tuple[str, bytes]]:
    """A JoinGroup's protocols as a member keeps them: (name, metadata), in the member's order of preference."""
    return [(p.name, p.metadata) for p in req.protocols]


def answer_join(steps: Callable[[Result[None]], None], req: JoinGroupRequestData,
                respond: JoinCallback) -> Result[None]:
    """Run a JoinGroup handler's steps into a result; a refusal (KafkaError) is answered with its code and
    leaves nothing else behind, whichever group the request went to."""
    out: Result[None] = Result()
    try:
        steps(out)
    except KafkaError as exc:
        out = Result()
        out.reply(respond, join_error(exc.code, req.member_id))
    return out
