"""Finding, listing, describing and deleting groups: FindCoordinator (10), ListGroups (16),
DescribeGroups (15), DeleteGroups (42).

FindCoordinator 0-6 (flexible from 3): v4 batches keys (CoordinatorKeys/Coordinators), v6 adds share
groups. ListGroups 0-5 (flexible from 3): v4 StatesFilter and GroupState, v5 TypesFilter and
GroupType. DescribeGroups 0-6 (flexible from 5): v3 authorized operations, v4 GroupInstanceId, v6
a per-group ErrorMessage (KIP-1043). DeleteGroups 0-3 (flexible from 2): v3 adds a per-group
ErrorMessage (trunk; Kafka 4.3 stops at 2).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

FIND_COORDINATOR_REQUEST: Final = message(
    "FindCoordinatorRequest",
    "0-6",
    "3+",
    [
        field("Key", "string", "0-3"),
        field("KeyType", "int8", "1+", default=0),
        field("CoordinatorKeys", "[]string", "4+"),
    ],
    api_key=10,
)

FIND_COORDINATOR_RESPONSE: Final = message(
    "FindCoordinatorResponse",
    "0-6",
    "3+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field("ErrorCode", "int16", "0-3"),
        field("ErrorMessage", "string", "1-3", nullable="1-3", ignorable=True),
        field("NodeId", "int32", "0-3"),
        field("Host", "string", "0-3"),
        field("Port", "int32", "0-3"),
        field(
            "Coordinators",
            "[]Coordinator",
            "4+",
            fields=[
                field("Key", "string", "4+"),
                field("NodeId", "int32", "4+"),
                field("Host", "string", "4+"),
                field("Port", "int32", "4+"),
                field("ErrorCode", "int16", "4+"),
                field("ErrorMessage", "string", "4+", nullable="4+", ignorable=True),
            ],
        ),
    ],
    api_key=10,
)

LIST_GROUPS_REQUEST: Final = message(
    "ListGroupsRequest",
    "0-5",
    "3+",
    [field("StatesFilter", "[]string", "4+"), field("TypesFilter", "[]string", "5+")],
    api_key=16,
)

LIST_GROUPS_RESPONSE: Final = message(
    "ListGroupsResponse",
    "0-5",
    "3+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field("ErrorCode", "int16"),
        field(
            "Groups",
            "[]ListedGroup",
            fields=[
                field("GroupId", "string"),
                field("ProtocolType", "string"),
                field("GroupState", "string", "4+", ignorable=True),
                field("GroupType", "string", "5+", ignorable=True),
            ],
        ),
    ],
    api_key=16,
)

DESCRIBE_GROUPS_REQUEST: Final = message(
    "DescribeGroupsRequest",
    "0-6",
    "5+",
    [field("Groups", "[]string"), field("IncludeAuthorizedOperations", "bool", "3+")],
    api_key=15,
)

DESCRIBE_GROUPS_RESPONSE: Final = message(
    "DescribeGroupsResponse",
    "0-6",
    "5+",
    [
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field(
            "Groups",
            "[]DescribedGroup",
            fields=[
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", "6+", nullable="6+", default="null"),
                field("GroupId", "string"),
                field("GroupState", "string"),
                field("ProtocolType", "string"),
                field("ProtocolData", "string"),
                field(
                    "Members",
                    "[]DescribedGroupMember",
                    fields=[
                        field("MemberId", "string"),
                        field("GroupInstanceId", "string", "4+", nullable="4+", default="null", ignorable=True),
                        field("ClientId", "string"),
                        field("ClientHost", "string"),
                        field("MemberMetadata", "bytes"),
                        field("MemberAssignment", "bytes"),
                    ],
                ),
                field("AuthorizedOperations", "int32", "3+", default=-2147483648),
            ],
        ),
    ],
    api_key=15,
)

DELETE_GROUPS_REQUEST: Final = message(
    "DeleteGroupsRequest", "0-3", "2+", [field("GroupsNames", "[]string")], api_key=42
)

DELETE_GROUPS_RESPONSE: Final = message(
    "DeleteGroupsResponse",
    "0-3",
    "2+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Results",
            "[]DeletableGroupResult",
            fields=[
                field("GroupId", "string"),
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", "3+", nullable="3+", default="null", ignorable=True),
            ],
        ),
    ],
    api_key=42,
)
