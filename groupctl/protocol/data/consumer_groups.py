"""The consumer_groups API messages, as classes: generated from `groupctl.protocol.messages.consumer_groups`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class TopicPartitions(Data):
    """An entry of ConsumerGroupHeartbeatRequest.TopicPartitions[]."""

    __slots__ = ("partitions", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("partitions", "partitions", None),
    )

    topic_id: uuid.UUID
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupHeartbeatRequestData(Data):
    """ConsumerGroupHeartbeatRequest, versions 0-1."""

    __slots__ = (
        "group_id",
        "instance_id",
        "member_epoch",
        "member_id",
        "rack_id",
        "rebalance_timeout_ms",
        "server_assignor",
        "subscribed_topic_names",
        "subscribed_topic_regex",
        "topic_partitions",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
        ("member_epoch", "memberEpoch", None),
        ("instance_id", "instanceId", None),
        ("rack_id", "rackId", None),
        ("rebalance_timeout_ms", "rebalanceTimeoutMs", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
        ("subscribed_topic_regex", "subscribedTopicRegex", None),
        ("server_assignor", "serverAssignor", None),
        ("topic_partitions", "topicPartitions", TopicPartitions),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupHeartbeatRequest"

    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    subscribed_topic_names: list[str] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    topic_partitions: list[TopicPartitions] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        member_epoch: int = 0,
        instance_id: str | None = None,
        rack_id: str | None = None,
        rebalance_timeout_ms: int = -1,
        subscribed_topic_names: list[str] | None = None,
        subscribed_topic_regex: str | None = None,
        server_assignor: str | None = None,
        topic_partitions: list[TopicPartitions] | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.subscribed_topic_names = subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.server_assignor = server_assignor
        self.topic_partitions = topic_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class Assignment(Data):
    """The struct ConsumerGroupHeartbeatResponse.Assignment."""

    __slots__ = ("topic_partitions",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_partitions", "topicPartitions", TopicPartitions),
    )

    topic_partitions: list[TopicPartitions]

    def __init__(
        self,
        *,
        topic_partitions: list[TopicPartitions] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupHeartbeatResponseData(Data):
    """ConsumerGroupHeartbeatResponse, versions 0-1."""

    __slots__ = (
        "assignment",
        "error_code",
        "error_message",
        "heartbeat_interval_ms",
        "member_epoch",
        "member_id",
        "throttle_time_ms",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("member_id", "memberId", None),
        ("member_epoch", "memberEpoch", None),
        ("heartbeat_interval_ms", "heartbeatIntervalMs", None),
        ("assignment", "assignment", Assignment),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupHeartbeatResponse"

    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: Assignment | None

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        member_id: str | None = None,
        member_epoch: int = 0,
        heartbeat_interval_ms: int = 0,
        assignment: Assignment | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupDescribeRequestData(Data):
    """ConsumerGroupDescribeRequest, versions 0-1."""

    __slots__ = ("group_ids", "include_authorized_operations")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_ids", "groupIds", None),
        ("include_authorized_operations", "includeAuthorizedOperations", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupDescribeRequest"

    group_ids: list[str]
    include_authorized_operations: bool

    def __init__(
        self,
        *,
        group_ids: list[str] = UNSET,
        include_authorized_operations: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_ids = [] if group_ids is UNSET else group_ids
        self.include_authorized_operations = include_authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class MemberAssignmentTopicPartitions(Data):
    """An entry of ConsumerGroupDescribeResponse.Groups[].Members[].Assignment.TopicPartitions[]."""

    __slots__ = ("partitions", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_id", "topicId", None),
        ("topic_name", "topicName", None),
        ("partitions", "partitions", None),
    )

    topic_id: uuid.UUID
    topic_name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_id: uuid.UUID = ZERO_UUID,
        topic_name: str = "",
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class MemberAssignment(Data):
    """The struct ConsumerGroupDescribeResponse.Groups[].Members[].Assignment."""

    __slots__ = ("topic_partitions",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_partitions", "topicPartitions", MemberAssignmentTopicPartitions),
    )

    topic_partitions: list[MemberAssignmentTopicPartitions]

    def __init__(
        self,
        *,
        topic_partitions: list[MemberAssignmentTopicPartitions] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class Member(Data):
    """An entry of ConsumerGroupDescribeResponse.Groups[].Members[]."""

    __slots__ = (
        "assignment",
        "client_host",
        "client_id",
        "instance_id",
        "member_epoch",
        "member_id",
        "member_type",
        "rack_id",
        "subscribed_topic_names",
        "subscribed_topic_regex",
        "target_assignment",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("instance_id", "instanceId", None),
        ("rack_id", "rackId", None),
        ("member_epoch", "memberEpoch", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
        ("subscribed_topic_regex", "subscribedTopicRegex", None),
        ("assignment", "assignment", MemberAssignment),
        ("target_assignment", "targetAssignment", MemberAssignment),
        ("member_type", "memberType", None),
    )

    member_id: str
    instance_id: str | None
    rack_id: str | None
    member_epoch: int
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    assignment: MemberAssignment
    target_assignment: MemberAssignment
    member_type: int

    def __init__(
        self,
        *,
        member_id: str = "",
        instance_id: str | None = None,
        rack_id: str | None = None,
        member_epoch: int = 0,
        client_id: str = "",
        client_host: str = "",
        subscribed_topic_names: list[str] = UNSET,
        subscribed_topic_regex: str | None = None,
        assignment: MemberAssignment = UNSET,
        target_assignment: MemberAssignment = UNSET,
        member_type: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.assignment = MemberAssignment() if assignment is UNSET else assignment
        self.target_assignment = MemberAssignment() if target_assignment is UNSET else target_assignment
        self.member_type = member_type
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribedGroup(Data):
    """An entry of ConsumerGroupDescribeResponse.Groups[]."""

    __slots__ = (
        "assignment_epoch",
        "assignor_name",
        "authorized_operations",
        "error_code",
        "error_message",
        "group_epoch",
        "group_id",
        "group_state",
        "members",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("group_id", "groupId", None),
        ("group_state", "groupState", None),
        ("group_epoch", "groupEpoch", None),
        ("assignment_epoch", "assignmentEpoch", None),
        ("assignor_name", "assignorName", None),
        ("members", "members", Member),
        ("authorized_operations", "authorizedOperations", None),
    )

    error_code: int
    error_message: str | None
    group_id: str
    group_state: str
    group_epoch: int
    assignment_epoch: int
    assignor_name: str
    members: list[Member]
    authorized_operations: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = None,
        group_id: str = "",
        group_state: str = "",
        group_epoch: int = 0,
        assignment_epoch: int = 0,
        assignor_name: str = "",
        members: list[Member] = UNSET,
        authorized_operations: int = -2147483648,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.assignor_name = assignor_name
        self.members = [] if members is UNSET else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = unknown_tagged_fields


class ConsumerGroupDescribeResponseData(Data):
    """ConsumerGroupDescribeResponse, versions 0-1."""

    __slots__ = ("groups", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("groups", "groups", DescribedGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "ConsumerGroupDescribeResponse"

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


CLASSES: dict[str, type[Data]] = {
    "ConsumerGroupHeartbeatRequest": ConsumerGroupHeartbeatRequestData,
    "ConsumerGroupHeartbeatResponse": ConsumerGroupHeartbeatResponseData,
    "ConsumerGroupDescribeRequest": ConsumerGroupDescribeRequestData,
    "ConsumerGroupDescribeResponse": ConsumerGroupDescribeResponseData,
}
"""Schema name -> class, for the 4 top-level classes."""
