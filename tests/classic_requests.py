"""JoinGroup, SyncGroup and Heartbeat requests and answers in the short forms tests write them in.

A request is the generated class (what `Coordinator.join_group`, `sync_group` and `classic_heartbeat` take
and the wire carries), built from its leading fields by position with Kafka's defaults for the rest, but a
JoinGroup's protocol type "consumer"; protocols and assignments are `(name, metadata)` and
`(member id, assignment)` pairs. Who sends a JoinGroup goes beside it as a `Caller`.
"""

from __future__ import annotations

from collections.abc import Iterable

from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    JoinGroupRequestData,
    JoinGroupRequestProtocol,
    JoinGroupResponseData,
    JoinGroupResponseMember,
    SyncGroupRequestAssignment,
    SyncGroupRequestData,
    SyncGroupResponseData,
)


def join_req(group_id: str, session_timeout_ms: int, rebalance_timeout_ms: int = -1, member_id: str = "",
             group_instance_id: str | None = None, protocol_type: str = PROTOCOL_TYPE,
             protocols: Iterable[tuple[str, bytes]] = (), reason: str | None = None) -> JoinGroupRequestData:
    return JoinGroupRequestData(
        group_id=group_id, session_timeout_ms=session_timeout_ms, rebalance_timeout_ms=rebalance_timeout_ms,
        member_id=member_id, group_instance_id=group_instance_id, protocol_type=protocol_type,
        protocols=[JoinGroupRequestProtocol(name=name, metadata=metadata) for name, metadata in protocols],
        reason=reason,
    )


def sync_req(group_id: str, generation_id: int, member_id: str, group_instance_id: str | None = None,
             protocol_type: str | None = None, protocol_name: str | None = None,
             assignments: Iterable[tuple[str, bytes]] = ()) -> SyncGroupRequestData:
    return SyncGroupRequestData(
        group_id=group_id, generation_id=generation_id, member_id=member_id, group_instance_id=group_instance_id,
        protocol_type=protocol_type, protocol_name=protocol_name,
        assignments=[SyncGroupRequestAssignment(member_id=m, assignment=a) for m, a in assignments],
    )


def beat(group_id: str, generation_id: int, member_id: str,
         group_instance_id: str | None = None) -> HeartbeatRequestData:
    return HeartbeatRequestData(group_id=group_id, generation_id=generation_id, member_id=member_id,
                                group_instance_id=group_instance_id)


def join_answer(error_code: int = 0, generation_id: int = -1, protocol_type: str | None = None,
                protocol_name: str | None = None, leader: str = "", skip_assignment: bool = False,
                member_id: str = "", members: Iterable[tuple[str, str | None, bytes]] = ()) -> JoinGroupResponseData:
    """A JoinGroup answer by position, its members as `(member id, instance id, metadata)`."""
    return JoinGroupResponseData(
        error_code=error_code, generation_id=generation_id, protocol_type=protocol_type, protocol_name=protocol_name,
        leader=leader, skip_assignment=skip_assignment, member_id=member_id,
        members=[JoinGroupResponseMember(member_id=m, group_instance_id=i, metadata=data) for m, i, data in members],
    )


def sync_answer(error_code: int = 0, protocol_type: str | None = None, protocol_name: str | None = None,
                assignment: bytes = b"") -> SyncGroupResponseData:
    return SyncGroupResponseData(error_code=error_code, protocol_type=protocol_type, protocol_name=protocol_name,
                                 assignment=assignment)


def member_rows(answer: JoinGroupResponseData) -> list[tuple[str, str | None, bytes]]:
    """A JoinGroup answer's member list as `(member id, instance id, metadata)`."""
    return [(m.member_id, m.group_instance_id, m.metadata) for m in answer.members]
