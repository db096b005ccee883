"""The share_groups API messages, as classes: generated from `groupctl.protocol.messages.share_groups`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class ShareGroupHeartbeatRequestData(Data):
    """ShareGroupHeartbeatRequest, versions 1."""

    __slots__ = ("group_id", "member_epoch", "member_id", "rack_id", "subscribed_topic_names")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("member_id", "memberId", None),
        ("member_epoch", "memberEpoch", None),
        ("rack_id", "rackId", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupHeartbeatRequest"

    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: list[str] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        member_id: str = "",
        member_epoch: int = 0,
        rack_id: str | None = None,
        subscribed_topic_names: list[str] | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.rack_id = rack_id
        self.subscribed_topic_names = subscribed_topic_names
        self.unknown_tagged_fields = unknown_tagged_fields


class TopicPartitions(Data):
    """An entry of ShareGroupHeartbeatResponse.Assignment.TopicPartitions[]."""

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


class Assignment(Data):
    """The struct ShareGroupHeartbeatResponse.Assignment."""

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


class ShareGroupHeartbeatResponseData(Data):
    """ShareGroupHeartbeatResponse, versions 1."""

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
    SCHEMA_NAME: ClassVar[str] = "ShareGroupHeartbeatResponse"

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


class ShareGroupDescribeRequestData(Data):
    """ShareGroupDescribeRequest, versions 1."""

    __slots__ = ("group_ids", "include_authorized_operations")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_ids", "groupIds", None),
        ("include_authorized_operations", "includeAuthorizedOperations", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupDescribeRequest"

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
    """An entry of ShareGroupDescribeResponse.Groups[].Members[].Assignment.TopicPartitions[]."""

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
    """The struct ShareGroupDescribeResponse.Groups[].Members[].Assignment."""

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
    """An entry of ShareGroupDescribeResponse.Groups[].Members[]."""

    __slots__ = (
        "assignment",
        "client_host",
        "client_id",
        "member_epoch",
        "member_id",
        "rack_id",
        "subscribed_topic_names",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("member_id", "memberId", None),
        ("rack_id", "rackId", None),
        ("member_epoch", "memberEpoch", None),
        ("client_id", "clientId", None),
        ("client_host", "clientHost", None),
        ("subscribed_topic_names", "subscribedTopicNames", None),
        ("assignment", "assignment", MemberAssignment),
    )

    member_id: str
    rack_id: str | None
    member_epoch: int
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    assignment: MemberAssignment

    def __init__(
        self,
        *,
        member_id: str = "",
        rack_id: str | None = None,
        member_epoch: int = 0,
        client_id: str = "",
        client_host: str = "",
        subscribed_topic_names: list[str] = UNSET,
        assignment: MemberAssignment = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.member_id = member_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is UNSET else subscribed_topic_names
        self.assignment = MemberAssignment() if assignment is UNSET else assignment
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribedGroup(Data):
    """An entry of ShareGroupDescribeResponse.Groups[]."""

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


class ShareGroupDescribeResponseData(Data):
    """ShareGroupDescribeResponse, versions 1."""

    __slots__ = ("groups", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("groups", "groups", DescribedGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareGroupDescribeResponse"

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


class DescribeShareGroupOffsetsRequestTopic(Data):
    """An entry of DescribeShareGroupOffsetsRequest.Groups[].Topics[]."""

    __slots__ = ("partitions", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
        ("partitions", "partitions", None),
    )

    topic_name: str
    partitions: list[int]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[int] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsRequestGroup(Data):
    """An entry of DescribeShareGroupOffsetsRequest.Groups[]."""

    __slots__ = ("group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", DescribeShareGroupOffsetsRequestTopic),
    )

    group_id: str
    topics: list[DescribeShareGroupOffsetsRequestTopic] | None

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DescribeShareGroupOffsetsRequestTopic] | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsRequestData(Data):
    """DescribeShareGroupOffsetsRequest, versions 0-1."""

    __slots__ = ("groups",)
    _FIELDS: ClassVar[FieldTable] = (
        ("groups", "groups", DescribeShareGroupOffsetsRequestGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeShareGroupOffsetsRequest"

    groups: list[DescribeShareGroupOffsetsRequestGroup]

    def __init__(
        self,
        *,
        groups: list[DescribeShareGroupOffsetsRequestGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.groups = [] if groups is UNSET else groups
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsResponsePartition(Data):
    """An entry of DescribeShareGroupOffsetsResponse.Groups[].Topics[].Partitions[]."""

    __slots__ = ("error_code", "error_message", "lag", "leader_epoch", "partition_index", "start_offset")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("start_offset", "startOffset", None),
        ("leader_epoch", "leaderEpoch", None),
        ("lag", "lag", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    partition_index: int
    start_offset: int
    leader_epoch: int
    lag: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        start_offset: int = 0,
        leader_epoch: int = 0,
        lag: int = -1,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.leader_epoch = leader_epoch
        self.lag = lag
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsResponseTopic(Data):
    """An entry of DescribeShareGroupOffsetsResponse.Groups[].Topics[]."""

    __slots__ = ("partitions", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", DescribeShareGroupOffsetsResponsePartition),
    )

    topic_name: str
    topic_id: uuid.UUID
    partitions: list[DescribeShareGroupOffsetsResponsePartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[DescribeShareGroupOffsetsResponsePartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsResponseGroup(Data):
    """An entry of DescribeShareGroupOffsetsResponse.Groups[]."""

    __slots__ = ("error_code", "error_message", "group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", DescribeShareGroupOffsetsResponseTopic),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    group_id: str
    topics: list[DescribeShareGroupOffsetsResponseTopic]
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DescribeShareGroupOffsetsResponseTopic] = UNSET,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeShareGroupOffsetsResponseData(Data):
    """DescribeShareGroupOffsetsResponse, versions 0-1."""

    __slots__ = ("groups", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("groups", "groups", DescribeShareGroupOffsetsResponseGroup),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeShareGroupOffsetsResponse"

    throttle_time_ms: int
    groups: list[DescribeShareGroupOffsetsResponseGroup]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        groups: list[DescribeShareGroupOffsetsResponseGroup] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is UNSET else groups
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsRequestPartition(Data):
    """An entry of AlterShareGroupOffsetsRequest.Topics[].Partitions[]."""

    __slots__ = ("partition_index", "start_offset")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("start_offset", "startOffset", None),
    )

    partition_index: int
    start_offset: int

    def __init__(
        self,
        *,
        partition_index: int = 0,
        start_offset: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsRequestTopic(Data):
    """An entry of AlterShareGroupOffsetsRequest.Topics[]."""

    __slots__ = ("partitions", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
        ("partitions", "partitions", AlterShareGroupOffsetsRequestPartition),
    )

    topic_name: str
    partitions: list[AlterShareGroupOffsetsRequestPartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        partitions: list[AlterShareGroupOffsetsRequestPartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsRequestData(Data):
    """AlterShareGroupOffsetsRequest, versions 0."""

    __slots__ = ("group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", AlterShareGroupOffsetsRequestTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "AlterShareGroupOffsetsRequest"

    group_id: str
    topics: list[AlterShareGroupOffsetsRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[AlterShareGroupOffsetsRequestTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsResponsePartition(Data):
    """An entry of AlterShareGroupOffsetsResponse.Responses[].Partitions[]."""

    __slots__ = ("error_code", "error_message", "partition_index")
    _FIELDS: ClassVar[FieldTable] = (
        ("partition_index", "partitionIndex", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    partition_index: int
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        partition_index: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsResponseTopic(Data):
    """An entry of AlterShareGroupOffsetsResponse.Responses[]."""

    __slots__ = ("partitions", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
        ("topic_id", "topicId", None),
        ("partitions", "partitions", AlterShareGroupOffsetsResponsePartition),
    )

    topic_name: str
    topic_id: uuid.UUID
    partitions: list[AlterShareGroupOffsetsResponsePartition]

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partitions: list[AlterShareGroupOffsetsResponsePartition] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is UNSET else partitions
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterShareGroupOffsetsResponseData(Data):
    """AlterShareGroupOffsetsResponse, versions 0."""

    __slots__ = ("error_code", "error_message", "responses", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("responses", "responses", AlterShareGroupOffsetsResponseTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "AlterShareGroupOffsetsResponse"

    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[AlterShareGroupOffsetsResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        responses: list[AlterShareGroupOffsetsResponseTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is UNSET else responses
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteShareGroupOffsetsRequestTopic(Data):
    """An entry of DeleteShareGroupOffsetsRequest.Topics[]."""

    __slots__ = ("topic_name",)
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
    )

    topic_name: str

    def __init__(
        self,
        *,
        topic_name: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteShareGroupOffsetsRequestData(Data):
    """DeleteShareGroupOffsetsRequest, versions 0."""

    __slots__ = ("group_id", "topics")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topics", "topics", DeleteShareGroupOffsetsRequestTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "DeleteShareGroupOffsetsRequest"

    group_id: str
    topics: list[DeleteShareGroupOffsetsRequestTopic]

    def __init__(
        self,
        *,
        group_id: str = "",
        topics: list[DeleteShareGroupOffsetsRequestTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteShareGroupOffsetsResponseTopic(Data):
    """An entry of DeleteShareGroupOffsetsResponse.Responses[]."""

    __slots__ = ("error_code", "error_message", "topic_id", "topic_name")
    _FIELDS: ClassVar[FieldTable] = (
        ("topic_name", "topicName", None),
        ("topic_id", "topicId", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
    )

    topic_name: str
    topic_id: uuid.UUID
    error_code: int
    error_message: str | None

    def __init__(
        self,
        *,
        topic_name: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        error_code: int = 0,
        error_message: str | None = None,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = unknown_tagged_fields


class DeleteShareGroupOffsetsResponseData(Data):
    """DeleteShareGroupOffsetsResponse, versions 0."""

    __slots__ = ("error_code", "error_message", "responses", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("responses", "responses", DeleteShareGroupOffsetsResponseTopic),
    )
    SCHEMA_NAME: ClassVar[str] = "DeleteShareGroupOffsetsResponse"

    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[DeleteShareGroupOffsetsResponseTopic]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        error_message: str | None = None,
        responses: list[DeleteShareGroupOffsetsResponseTopic] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is UNSET else responses
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "ShareGroupHeartbeatRequest": ShareGroupHeartbeatRequestData,
    "ShareGroupHeartbeatResponse": ShareGroupHeartbeatResponseData,
    "ShareGroupDescribeRequest": ShareGroupDescribeRequestData,
    "ShareGroupDescribeResponse": ShareGroupDescribeResponseData,
    "DescribeShareGroupOffsetsRequest": DescribeShareGroupOffsetsRequestData,
    "DescribeShareGroupOffsetsResponse": DescribeShareGroupOffsetsResponseData,
    "AlterShareGroupOffsetsRequest": AlterShareGroupOffsetsRequestData,
    "AlterShareGroupOffsetsResponse": AlterShareGroupOffsetsResponseData,
    "DeleteShareGroupOffsetsRequest": DeleteShareGroupOffsetsRequestData,
    "DeleteShareGroupOffsetsResponse": DeleteShareGroupOffsetsResponseData,
}
"""Schema name -> class, for the 10 top-level classes."""
