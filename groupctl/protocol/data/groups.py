"""The groups API messages, as classes: generated from `groupctl.protocol.messages.groups`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields


class JoinGroupRequestProtocol(Data):
    """An entry of JoinGroupRequest.Protocols[]."""

    __slots__ = ("metadata", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("metadata", "metadata", None),
    )

    name: str
    metadata: bytes

    def __init__(
        self,
        *,
        name: str = "",
        metadata: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.metadata = metadata
        self.unknown_tagged_fields = unknown_tagged_fields


class JoinGroupRequestData(Data):
    """JoinGroupRequest, versions 0-9."""

    __slots__ = (
        "group_id",
        "group_instance_id",
        "member_id",
        "protocol_type",
        "protocols",
        "reason",
        "rebalance_timeout_ms",
        "session_timeout_ms",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("session_timeout_ms", "sessionTimeoutMs", None),
        ("rebalance_timeout_ms", "rebalanceTimeoutMs", None),
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("protocol_type", "protocolType", None),
        ("protocols", "protocols", JoinGroupRequestProtocol),
        ("reason", "reason", None),
    )
    SCHEMA_NAME: ClassVar[str] = "JoinGroupRequest"

    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[JoinGroupRequestProtocol]
    reason: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        session_timeout_ms: int = 0,
        rebalance_timeout_ms: int = -1,
        member_id: str = "",
        group_instance_id: str | None = None,
        protocol_type: str = "",
        protocols: list[JoinGroupRequestProtocol] = UNSET,
        reason: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is UNSET else protocols
        self.reason = reason
        self.unknown_tagged_fields = unknown_tagged_fields


class JoinGroupResponseMember(Data):
    """An entry of JoinGroupResponse.Members[]."""

    __slots__ = ("group_instance_id", "member_id", "metadata")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("metadata", "metadata", None),
    )

    member_id: str
    group_instance_id: str | None
    metadata: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        metadata: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.metadata = metadata
        self.unknown_tagged_fields = unknown_tagged_fields


class JoinGroupResponseData(Data):
    """JoinGroupResponse, versions 0-9."""

    __slots__ = (
        "error_code",
        "generation_id",
        "leader",
        "member_id",
        "members",
        "protocol_name",
        "protocol_type",
        "skip_assignment",
        "throttle_time_ms",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("generation_id", "generationId", None),
        ("protocol_type", "protocolType", None),
        ("protocol_name", "protocolName", None),
        ("leader", "leader", None),
        ("skip_assignment", "skipAssignment", None),
        ("member_id", "memberId", None),
        ("members", "members", JoinGroupResponseMember),
    )
    SCHEMA_NAME: ClassVar[str] = "JoinGroupResponse"

    throttle_time_ms: int
    error_code: int
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader: str
    skip_assignment: bool
    member_id: str
    members: list[JoinGroupResponseMember]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        generation_id: int = -1,
        protocol_type: str | None = None,
        protocol_name: str | None = "",
        leader: str = "",
        skip_assignment: bool = False,
        member_id: str = "",
        members: list[JoinGroupResponseMember] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is UNSET else members
        self.unknown_tagged_fields = unknown_tagged_fields


class HeartbeatRequestData(Data):
    """HeartbeatRequest, versions 0-4."""

    __slots__ = ("generation_id", "group_id", "group_instance_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("generation_id", "generationId", None),
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
    )
    SCHEMA_NAME: ClassVar[str] = "HeartbeatRequest"

    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        generation_id: int = 0,
        member_id: str = "",
        group_instance_id: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.unknown_tagged_fields = unknown_tagged_fields


class HeartbeatResponseData(Data):
    """HeartbeatResponse, versions 0-4."""

    __slots__ = ("error_code", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
    )
    SCHEMA_NAME: ClassVar[str] = "HeartbeatResponse"

    throttle_time_ms: int
    error_code: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class MemberIdentity(Data):
    """An entry of LeaveGroupRequest.Members[]."""

    __slots__ = ("group_instance_id", "member_id", "reason")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("reason", "reason", None),
    )

    member_id: str
    group_instance_id: str | None
    reason: str | None

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        reason: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason
        self.unknown_tagged_fields = unknown_tagged_fields


class LeaveGroupRequestData(Data):
    """LeaveGroupRequest, versions 0-5."""

    __slots__ = ("group_id", "member_id", "members")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
        ("members", "members", MemberIdentity),
    )
    SCHEMA_NAME: ClassVar[str] = "LeaveGroupRequest"

    group_id: str
    member_id: str
    members: list[MemberIdentity]

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        members: list[MemberIdentity] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.members = [] if members is UNSET else members
        self.unknown_tagged_fields = unknown_tagged_fields


class MemberResponse(Data):
    """An entry of LeaveGroupResponse.Members[]."""

    __slots__ = ("error_code", "group_instance_id", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("error_code", "errorCode", None),
    )

    member_id: str
    group_instance_id: str | None
    error_code: int

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = "",
        error_code: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.error_code = error_code
        self.unknown_tagged_fields = unknown_tagged_fields


class LeaveGroupResponseData(Data):
    """LeaveGroupResponse, versions 0-5."""

    __slots__ = ("error_code", "members", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("members", "members", MemberResponse),
    )
    SCHEMA_NAME: ClassVar[str] = "LeaveGroupResponse"

    throttle_time_ms: int
    error_code: int
    members: list[MemberResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        members: list[MemberResponse] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is UNSET else members
        self.unknown_tagged_fields = unknown_tagged_fields


class SyncGroupRequestAssignment(Data):
    """An entry of SyncGroupRequest.Assignments[]."""

    __slots__ = ("assignment", "member_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("assignment", "assignment", None),
    )

    member_id: str
    assignment: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        assignment: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.assignment = assignment
        self.unknown_tagged_fields = unknown_tagged_fields


class SyncGroupRequestData(Data):
    """SyncGroupRequest, versions 0-5."""

    __slots__ = (
        "assignments",
        "generation_id",
        "group_id",
        "group_instance_id",
        "member_id",
        "protocol_name",
        "protocol_type",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("generation_id", "generationId", None),
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("protocol_type", "protocolType", None),
        ("protocol_name", "protocolName", None),
        ("assignments", "assignments", SyncGroupRequestAssignment),
    )
    SCHEMA_NAME: ClassVar[str] = "SyncGroupRequest"

    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str | None
    protocol_name: str | None
    assignments: list[SyncGroupRequestAssignment]

    def __init__(
        self,
        *,
        group_id: str = "",
        generation_id: int = 0,
        member_id: str = "",
        group_instance_id: str | None = None,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignments: list[SyncGroupRequestAssignment] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignments = [] if assignments is UNSET else assignments
        self.unknown_tagged_fields = unknown_tagged_fields


class SyncGroupResponseData(Data):
    """SyncGroupResponse, versions 0-5."""

    __slots__ = ("assignment", "error_code", "protocol_name", "protocol_type", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("protocol_type", "protocolType", None),
        ("protocol_name", "protocolName", None),
        ("assignment", "assignment", None),
    )
    SCHEMA_NAME: ClassVar[str] = "SyncGroupResponse"

    throttle_time_ms: int
    error_code: int
    protocol_type: str | None
    protocol_name: str | None
    assignment: bytes

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignment: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignment = assignment
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "JoinGroupRequest": JoinGroupRequestData,
    "JoinGroupResponse": JoinGroupResponseData,
    "HeartbeatRequest": HeartbeatRequestData,
    "HeartbeatResponse": HeartbeatResponseData,
    "LeaveGroupRequest": LeaveGroupRequestData,
    "LeaveGroupResponse": LeaveGroupResponseData,
    "SyncGroupRequest": SyncGroupRequestData,
    "SyncGroupResponse": SyncGroupResponseData,
}
"""Schema name -> class, for the 8 top-level classes."""
