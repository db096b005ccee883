"""The group_admin API messages, as classes: generated from `groupctl.protocol.messages.group_admin`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields


class FindCoordinatorRequestData(Data):
    """FindCoordinatorRequest, versions 0-6."""

    __slots__ = ("coordinator_keys", "key", "key_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("key", "key", None),
        ("key_type", "keyType", None),
        ("coordinator_keys", "coordinatorKeys", None),
    )
    SCHEMA_NAME: ClassVar[str] = "FindCoordinatorRequest"

    key: str
    key_type: int
    coordinator_keys: list[str]

    def __init__(
        self,
        *,
        key: str = "",
        key_type: int = 0,
        coordinator_keys: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is UNSET else coordinator_keys
        self.unknown_tagged_fields = unknown_tagged_fields


class Coordinator(Data):
    """An entry of FindCoordinatorResponse.Coordinators[]."""

    __slots__ = ("error_code", "error_message", "host", "key", "node_id", "port")
    _FIELDS: ClassVar[FieldTable] = (
        ("key", "key", None),
        ("node_id", "nodeId", None),
        ("host", "host", None),
        ("port", "port", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    key: str
    node_id: int
    host: str
    port: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        key: str = "",
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.key = key
        self.node_id = node_id
        self.host = host
        self.port = port
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class FindCoordinatorResponseData(Data):
    """FindCoordinatorResponse, versions 0-6."""

    __slots__ = ("coordinators", "error_code", "error_message", "host", "node_id", "port", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("node_id", "nodeId", None),
        ("host", "host", None),
        ("port", "port", None),
        ("coordinators", "coordinators", Coordinator),
    )
    SCHEMA_NAME: ClassVar[str] = "FindCoordinatorResponse"

    throttle_time_ms: int
    error_code: int
    error_message: str | None
    node_id: int
    host: str
    port: int
    coordinators: list[Coordinator]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = "",
        node_id: int = 0,
        host: str = "",
        port: int = 0,
        coordinators: list[Coordinator] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is UNSET else coordinators
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeGroupsRequestData(Data):
    """DescribeGroupsRequest, versions 0-6."""

    __slots__ = ("groups", "include_authorized_operations")
    _FIELDS: ClassVar[FieldTable] = (
        ("groups", "groups", None),
        ("include_authorized_operations", "includeAuthorizedOperations", None),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeGroupsRequest"

    groups: list[str]
    include_authorized_operations: bool

    def __init__(
        self,
        *,
        groups: list[str] = UNSET,
        include_authorized_operations: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.groups = [] if groups is UNSET else groups
        self.include_authorized_operations = include_authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribedGroupMember(Data):
    """An entry of DescribeGroupsResponse.Groups[].Members[]."""

    __slots__ = ("client_host", "client_id", "group_instance_id", "member_assignment", "member_id", "member_metadata")
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("group_instance_id", "groupInstanceId", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("member_metadata", "memberMetadata", None),
        ("member_assignment", "memberAssignment", None),
    )

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    member_metadata: bytes
    member_assignment: bytes

    def __init__(
        self,
        *,
        member_id: str = "",
        group_instance_id: str | None = None,
        client_id: str = "",
        client_host: str = "",
        member_metadata: bytes = b"",
        member_assignment: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.member_metadata = member_metadata
        self.member_assignment = member_assignment
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribedGroup(Data):
    """An entry of DescribeGroupsResponse.Groups[]."""

    __slots__ = (
        "authorized_operations",
        "error_code",
        "error_message",
        "group_id",
        "group_state",
        "members",
        "protocol_data",
        "protocol_type",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("group_id", "groupId", None),
        ("group_state", "groupState", None),
        ("protocol_type", "protocolType", None),
        ("protocol_data", "protocolData", None),
        ("members", "members", DescribedGroupMember),
        ("authorized_operations", "authorizedOperations", None),
    )

    error_code: int
    error_message: str | None
    group_id: str
    group_state: str
    protocol_type: str
    protocol_data: str
    members: list[DescribedGroupMember]
    authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = None,
        group_id: str = "",
        group_state: str = "",
        protocol_type: str = "",
        protocol_data: str = "",
        members: list[DescribedGroupMember] = UNSET,
        authorized_operations: int = -2147483648,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.protocol_type = protocol_type
        self.protocol_data = protocol_data
        self.members = [] if members is UNSET else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeGroupsResponseData(Data):
    """DescribeGroupsResponse, versions 0-6."""

    __slots__ = ("groups", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("groups", "groups", DescribedGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeGroupsResponse"

    throttle_time_ms: int
    groups: list[DescribedGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        groups: list[DescribedGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is UNSET else groups
        self.unknown_tagged_fields = unknown_tagged_fields


class ListGroupsRequestData(Data):
    """ListGroupsRequest, versions 0-5."""

    __slots__ = ("states_filter", "types_filter")
    _FIELDS: ClassVar[FieldTable] = (
        ("states_filter", "statesFilter", None),
        ("types_filter", "typesFilter", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ListGroupsRequest"

    states_filter: list[str]
    types_filter: list[str]

    def __init__(
        self,
        *,
        states_filter: list[str] = UNSET,
        types_filter: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.states_filter = [] if states_filter is UNSET else states_filter
        self.types_filter = [] if types_filter is UNSET else types_filter
        self.unknown_tagged_fields = unknown_tagged_fields


class ListedGroup(Data):
    """An entry of ListGroupsResponse.Groups[]."""

    __slots__ = ("group_id", "group_state", "group_type", "protocol_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("protocol_type", "protocolType", None),
        ("group_state", "groupState", None),
        ("group_type", "groupType", None),
    )

    group_id: str
    protocol_type: str
    group_state: str
    group_type: str

    def __init__(
        self,
        *,
        group_id: str = "",
        protocol_type: str = "",
        group_state: str = "",
        group_type: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.protocol_type = protocol_type
        self.group_state = group_state
        self.group_type = group_type
        self.unknown_tagged_fields = unknown_tagged_fields


class ListGroupsResponseData(Data):
    """ListGroupsResponse, versions 0-5."""

    __slots__ = ("error_code", "groups", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("groups", "groups", ListedGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "ListGroupsResponse"

    throttle_time_ms: int
    error_code: int
    groups: list[ListedGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        groups: list[ListedGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is UNSET else groups
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteGroupsRequestData(Data):
    """DeleteGroupsRequest, versions 0-3."""

    __slots__ = ("groups_names",)
    _FIELDS: ClassVar[FieldTable] = (
        ("groups_names", "groupsNames", None),
    )
    SCHEMA_NAME: ClassVar[str] = "DeleteGroupsRequest"

    groups_names: list[str]

    def __init__(
        self,
        *,
        groups_names: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.groups_names = [] if groups_names is UNSET else groups_names
        self.unknown_tagged_fields = unknown_tagged_fields


class DeletableGroupResult(Data):
    """An entry of DeleteGroupsResponse.Results[]."""

    __slots__ = ("error_code", "error_message", "group_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    group_id: str
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteGroupsResponseData(Data):
    """DeleteGroupsResponse, versions 0-3."""

    __slots__ = ("results", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("results", "results", DeletableGroupResult),
    )
    SCHEMA_NAME: ClassVar[str] = "DeleteGroupsResponse"

    throttle_time_ms: int
    results: list[DeletableGroupResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[DeletableGroupResult] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "FindCoordinatorRequest": FindCoordinatorRequestData,
    "FindCoordinatorResponse": FindCoordinatorResponseData,
    "DescribeGroupsRequest": DescribeGroupsRequestData,
    "DescribeGroupsResponse": DescribeGroupsResponseData,
    "ListGroupsRequest": ListGroupsRequestData,
    "ListGroupsResponse": ListGroupsResponseData,
    "DeleteGroupsRequest": DeleteGroupsRequestData,
    "DeleteGroupsResponse": DeleteGroupsResponseData,
}
"""Schema name -> class, for the 8 top-level classes."""
