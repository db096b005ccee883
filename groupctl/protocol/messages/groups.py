"""The classic group membership protocol: JoinGroup (11), SyncGroup (14), Heartbeat (12), LeaveGroup (13).

JoinGroup 0-9 (flexible from 6): v4 is the MEMBER_ID_REQUIRED flow (KIP-394), v5 adds
GroupInstanceId (KIP-345), v8 a reason, v9 SkipAssignment. SyncGroup 0-5 (flexible from 4),
Heartbeat 0-4 (flexible from 4), both with GroupInstanceId from v3. LeaveGroup 0-5 (flexible from 4):
v3 turns the single MemberId into a batch of member identities, which is what lets an admin remove
static members by instance id; v5 adds a reason per member.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

JOIN_GROUP_REQUEST: Final = message(
    "JoinGroupRequest",
    "0-9",
    "6+",
    [
        field("GroupId", "string"),
        field("SessionTimeoutMs", "int32"),
        field("RebalanceTimeoutMs", "int32", "1+", default=-1, ignorable=True),
        field("MemberId", "string"),
        field("GroupInstanceId", "string", "5+", nullable="5+", default="null"),
        field("ProtocolType", "string"),
        field(
            "Protocols",
            "[]JoinGroupRequestProtocol",
            fields=[field("Name", "string"), field("Metadata", "bytes")],
        ),
        field("Reason", "string", "8+", nullable="8+", default="null", ignorable=True),
    ],
    api_key=11,
)

JOIN_GROUP_RESPONSE: Final = message(
    "JoinGroupResponse",
    "0-9",
    "6+",
    [
        field("ThrottleTimeMs", "int32", "2+", ignorable=True),
        field("ErrorCode", "int16"),
        field("GenerationId", "int32", default=-1),
        field("ProtocolType", "string", "7+", nullable="7+", default="null", ignorable=True),
        field("ProtocolName", "string", nullable="7+"),
        field("Leader", "string"),
        field("SkipAssignment", "bool", "9+", default=False),
        field("MemberId", "string"),
        field(
            "Members",
            "[]JoinGroupResponseMember",
            fields=[
                field("MemberId", "string"),
                field("GroupInstanceId", "string", "5+", nullable="5+", default="null", ignorable=True),
                field("Metadata", "bytes"),
            ],
        ),
    ],
    api_key=11,
)

SYNC_GROUP_REQUEST: Final = message(
    "SyncGroupRequest",
    "0-5",
    "4+",
    [
        field("GroupId", "string"),
        field("GenerationId", "int32"),
        field("MemberId", "string"),
        field("GroupInstanceId", "string", "3+", nullable="3+", default="null"),
        field("ProtocolType", "string", "5+", nullable="5+", default="null", ignorable=True),
        field("ProtocolName", "string", "5+", nullable="5+", default="null", ignorable=True),
        field(
            "Assignments",
            "[]SyncGroupRequestAssignment",
            fields=[field("MemberId", "string"), field("Assignment", "bytes")],
        ),
    ],
    api_key=14,
)

SYNC_GROUP_RESPONSE: Final = message(
    "SyncGroupResponse",
    "0-5",
    "4+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field("ErrorCode", "int16"),
        field("ProtocolType", "string", "5+", nullable="5+", default="null", ignorable=True),
        field("ProtocolName", "string", "5+", nullable="5+", default="null", ignorable=True),
        field("Assignment", "bytes"),
    ],
    api_key=14,
)

HEARTBEAT_REQUEST: Final = message(
    "HeartbeatRequest",
    "0-4",
    "4+",
    [
        field("GroupId", "string"),
        field("GenerationId", "int32"),
        field("MemberId", "string"),
        field("GroupInstanceId", "string", "3+", nullable="3+", default="null"),
    ],
    api_key=12,
)

HEARTBEAT_RESPONSE: Final = message(
    "HeartbeatResponse",
    "0-4",
    "4+",
    [field("ThrottleTimeMs", "int32", "1+", ignorable=True), field("ErrorCode", "int16")],
    api_key=12,
)

LEAVE_GROUP_REQUEST: Final = message(
    "LeaveGroupRequest",
    "0-5",
    "4+",
    [
        field("GroupId", "string"),
        field("MemberId", "string", "0-2"),
        field(
            "Members",
            "[]MemberIdentity",
            "3+",
            fields=[
                field("MemberId", "string", "3+"),
                field("GroupInstanceId", "string", "3+", nullable="3+", default="null"),
                field("Reason", "string", "5+", nullable="5+", default="null", ignorable=True),
            ],
        ),
    ],
    api_key=13,
)

LEAVE_GROUP_RESPONSE: Final = message(
    "LeaveGroupResponse",
    "0-5",
    "4+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field("ErrorCode", "int16"),
        field(
            "Members",
            "[]MemberResponse",
            "3+",
            fields=[
                field("MemberId", "string", "3+"),
                field("GroupInstanceId", "string", "3+", nullable="3+"),
                field("ErrorCode", "int16", "3+"),
            ],
        ),
    ],
    api_key=13,
)
