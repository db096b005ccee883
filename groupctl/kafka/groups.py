"""The group RPCs: ListGroups, DescribeGroups, ConsumerGroupDescribe and LeaveGroup.

Each RPC is a request builder (`*_request(version, ...)`), a response parser (`parse_*`), and the
network call that picks the version with the broker and runs on the right brokers. ListGroups,
DescribeGroups and ConsumerGroupDescribe travel as the generated classes (`groupctl.protocol.data`). Results are
plain dataclasses that keep what the wire said (epochs, member types, raw classic metadata);
`groupctl.describe` turns them into the backend-neutral `groupctl.model.GroupDescription`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.coordinator import INITIAL_BACKOFF_S, MAX_BACKOFF_S, RETRIABLE, on_coordinators
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import UnsupportedApi, WireClientError, broker_error, error_name
from groupctl.model import GroupListing, GroupState, TopicPartition
from groupctl.protocol import consumer_protocol
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupDescribeRequestData,
    ConsumerGroupDescribeResponseData,
    MemberAssignment,
)
from groupctl.protocol.data.group_admin import (
    DescribedGroupMember,
    DescribeGroupsRequestData,
    DescribeGroupsResponseData,
    ListGroupsRequestData,
    ListGroupsResponseData,
)
from groupctl.protocol.data.groups import LeaveGroupRequestData, LeaveGroupResponseData, MemberIdentity
from groupctl.protocol.member_bytes import assigned_partitions, decode_member_bytes
from groupctl.protocol.primitives import uuid_to_kafka

LIST_GROUPS: Final = 16
LIST_GROUPS_VERSIONS: Final = range(0, 6)
DESCRIBE_GROUPS: Final = 15
DESCRIBE_GROUPS_VERSIONS: Final = range(0, 7)
CONSUMER_GROUP_DESCRIBE: Final = 69
CONSUMER_GROUP_DESCRIBE_VERSIONS: Final = range(0, 2)
CONSUMER_GROUP_HEARTBEAT: Final = 68
LEAVE_GROUP: Final = 13
LEAVE_GROUP_VERSIONS: Final = range(3, 6)

DEFAULT_LEAVE_REASON: Final = "member was removed by an admin"
"""The reason Kafka's admin client sends when none is given (KafkaAdminClient)."""
MAX_REASON_LENGTH: Final = 255
"""Kafka truncates reasons to this many characters (`JoinGroupRequest.maybeTruncateReason`)."""

MEMBER_TYPES: Final = {-1: "unknown", 0: "classic", 1: "consumer"}
"""ConsumerGroupDescribe v1 MemberType (KIP-1099)."""
OPERATIONS_OMITTED: Final = -(2**31)
"""AuthorizedOperations when the broker left them out."""


# --- ListGroups -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedGroup:
    """One group of one broker's ListGroups answer; `state`/`type` are None where the version lacks them."""

    group_id: str
    protocol_type: str
    state: str | None
    type: str | None
    node_id: int


def list_groups_request(version: int, states: Sequence[str] = (), types: Sequence[str] = ()) -> ListGroupsRequestData:
    """The filters each version can carry (v4 states, v5 types); the rest is filtered client side."""
    return ListGroupsRequestData(states_filter=list(states) if version >= 4 else [],
                                 types_filter=list(types) if version >= 5 else [])


def parse_list_groups(body: ListGroupsResponseData, node_id: int, version: int) -> list[ListedGroup]:
    """The groups of one broker's answer; state (v4+) and type (v5+) are None where `version` lacks them."""
    return [
        ListedGroup(g.group_id, g.protocol_type, g.group_state if version >= 4 else None,
                    g.group_type if version >= 5 else None, node_id)
        for g in body.groups
    ]


def list_groups(
    cluster: Cluster,
    deadline: Deadline,
    *,
    states: Iterable[str] | None = None,
    types: Iterable[str] | None = None,
) -> list[GroupListing]:
    """Every group on every broker, filtered by state and type (case-insensitive), sorted by id.

    Brokers without ListGroups v4 report no state: DescribeGroups on the same broker (each broker
    lists the groups it coordinates) fills it in. Brokers without v5 report no type: their groups
    are `classic` when the broker has no ConsumerGroupHeartbeat (no KIP-848 groups can exist on
    it), `unknown` otherwise.
    """
    wanted_states = [s for s in states or () if s]
    wanted_types = [t for t in types or () if t]
    state_set = {s.lower() for s in wanted_states}
    type_set = {t.lower() for t in wanted_types}
    listings: dict[str, GroupListing] = {}
    for broker in cluster.list_brokers(deadline):
        conn = cluster.connection(broker, deadline)
        version, groups = _list_on(conn, broker, wanted_states, wanted_types, deadline)
        states_of: dict[str, str] = {}
        if version < 4:
            states_of = _states_by_describe(conn, [g.group_id for g in groups], deadline)
        for g in groups:
            state = g.state if version >= 4 else states_of.get(g.group_id, "Unknown")
            gtype = g.type if version >= 5 else _inferred_type(conn)
            listing = GroupListing(g.group_id, gtype or "unknown", state or "Unknown", g.protocol_type)
            if state_set and listing.state.lower() not in state_set:
                continue
            if type_set and listing.type.lower() not in type_set:
                continue
            listings.setdefault(listing.group_id, listing)
    return [listings[k] for k in sorted(listings)]


def _inferred_type(conn: BrokerConnection) -> str:
    return "unknown" if conn.api_versions.supports(CONSUMER_GROUP_HEARTBEAT) else "classic"


def _list_on(
    conn: BrokerConnection, broker: Broker, states: Sequence[str], types: Sequence[str], deadline: Deadline
) -> tuple[int, list[ListedGroup]]:
    """ListGroups on one broker, retrying while its coordinator is loading or starting."""
    backoff = INITIAL_BACKOFF_S
    while True:
        version, body = conn.call(
            LIST_GROUPS, LIST_GROUPS_VERSIONS, lambda v: list_groups_request(v, states, types), deadline
        )
        code = body.error_code
        if code == 0:
            return version, parse_list_groups(body, broker.node_id, version)
        if code not in RETRIABLE or deadline.remaining() <= backoff:
            raise broker_error(code, None, f"ListGroups on {broker}")
        deadline.sleep(backoff)
        backoff = min(backoff * 2, MAX_BACKOFF_S)


def _states_by_describe(conn: BrokerConnection, group_ids: list[str], deadline: Deadline) -> dict[str, str]:
    if not group_ids:
        return {}
    _, body = conn.call(
        DESCRIBE_GROUPS, DESCRIBE_GROUPS_VERSIONS, lambda v: describe_groups_request(v, group_ids), deadline
    )
    return {g.group_id: g.state for g in parse_describe_groups(body) if g.error_code == 0}


# --- DescribeGroups -------------------------------------------------------------------------------


@dataclass
class ClassicMemberInfo:
    """A member as DescribeGroups shows it; `subscription`/`assignment` are decoded for protocol type
    `consumer` (None when the bytes are empty or not the consumer protocol)."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    metadata: bytes = field(repr=False)
    assignment_bytes: bytes = field(repr=False)
    subscription: dict[str, Any] | None = None
    assignment: list[TopicPartition] | None = None

    @property
    def subscribed_topics(self) -> list[str]:
        return list(self.subscription["topics"]) if self.subscription else []

    @property
    def rack(self) -> str | None:
        return self.subscription.get("rackId") if self.subscription else None


@dataclass
class ClassicGroupInfo:
    """DescribeGroups' answer for one group. Before v6, a group that does not exist comes back as
    state `Dead` without an error; v6 says GROUP_ID_NOT_FOUND."""

    group_id: str
    error_code: int
    error_message: str | None
    state: str
    protocol_type: str
    protocol: str
    members: list[ClassicMemberInfo]
    authorized_operations: int | None = None
    coordinator: Broker | None = None

    @property
    def error_name(self) -> str:
        return error_name(self.error_code)

    @property
    def exists(self) -> bool:
        return self.error_code == 0 and not (self.state == GroupState.DEAD and not self.members)


def describe_groups_request(
    version: int, group_ids: Sequence[str], include_authorized_operations: bool = False
) -> DescribeGroupsRequestData:
    """IncludeAuthorizedOperations from v3."""
    return DescribeGroupsRequestData(groups=list(group_ids),
                                     include_authorized_operations=version >= 3 and include_authorized_operations)


def _decode_member(member: DescribedGroupMember, protocol_type: str) -> ClassicMemberInfo:
    info = ClassicMemberInfo(
        member.member_id,
        member.group_instance_id,
        member.client_id,
        member.client_host,
        member.member_metadata,
        member.member_assignment,
    )
    info.subscription, assignment = decode_member_bytes(
        info.metadata, info.assignment_bytes, protocol_type == consumer_protocol.PROTOCOL_TYPE
    )
    info.assignment = None if assignment is None else assigned_partitions(assignment)
    return info


def _operations(value: int) -> int | None:
    """AuthorizedOperations, None when left out (not asked for, or a version without them)."""
    return None if value == OPERATIONS_OMITTED else value


def parse_describe_groups(body: DescribeGroupsResponseData,
                          coordinator: Broker | None = None) -> list[ClassicGroupInfo]:
    return [
        ClassicGroupInfo(
            group_id=g.group_id,
            error_code=g.error_code,
            error_message=g.error_message,
            state=g.group_state,
            protocol_type=g.protocol_type,
            protocol=g.protocol_data,
            members=[_decode_member(m, g.protocol_type) for m in g.members],
            authorized_operations=_operations(g.authorized_operations),
            coordinator=coordinator,
        )
        for g in body.groups
    ]


def describe_classic_groups(
    cluster: Cluster, group_ids: Iterable[str], deadline: Deadline, *, include_authorized_operations: bool = False
) -> dict[str, ClassicGroupInfo]:
    """DescribeGroups for each group on its coordinator; per-group errors stay in the results."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, ClassicGroupInfo]:
        _, body = conn.call(
            DESCRIBE_GROUPS,
            DESCRIBE_GROUPS_VERSIONS,
            lambda v: describe_groups_request(v, groups, include_authorized_operations),
            dl,
        )
        broker = Broker(conn.node_id if conn.node_id is not None else -1, conn.host, conn.port)
        return {g.group_id: g for g in parse_describe_groups(body, broker)}

    return on_coordinators(cluster, group_ids, send, lambda g: g.error_code, deadline, "DescribeGroups")


# --- ConsumerGroupDescribe ------------------------------------------------------------------------


@dataclass
class ConsumerMemberInfo:
    """A KIP-848 member as ConsumerGroupDescribe shows it."""

    member_id: str
    instance_id: str | None
    rack_id: str | None
    member_epoch: int
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    assignment: list[TopicPartition]
    target_assignment: list[TopicPartition]
    member_type: int = -1  # v1: 0 classic protocol, 1 consumer protocol; -1 unknown (v0)

    @property
    def protocol(self) -> str:
        """The protocol the member speaks; v0 cannot tell, and then `consumer` is assumed."""
        return "classic" if self.member_type == 0 else "consumer"


@dataclass
class ConsumerGroupInfo:
    """ConsumerGroupDescribe's answer for one group."""

    group_id: str
    error_code: int
    error_message: str | None
    state: str
    group_epoch: int
    assignment_epoch: int
    assignor_name: str
    members: list[ConsumerMemberInfo]
    authorized_operations: int | None = None
    coordinator: Broker | None = None

    @property
    def error_name(self) -> str:
        return error_name(self.error_code)

    @property
    def mixed(self) -> bool | None:
        """Whether a member speaks the classic protocol (`GroupDescription.mixed`); None when a v0 answer
        (no MemberType) leaves it unknown."""
        types = {m.member_type for m in self.members}
        if 0 in types:
            return True
        return None if -1 in types else False


def consumer_group_describe_request(
    version: int, group_ids: Sequence[str], include_authorized_operations: bool = False
) -> ConsumerGroupDescribeRequestData:
    return ConsumerGroupDescribeRequestData(group_ids=list(group_ids),
                                            include_authorized_operations=include_authorized_operations)


def _partitions(assignment: MemberAssignment) -> list[TopicPartition]:
    """Named by topic name, or by topic id (base64url) when the broker sent no name."""
    return [
        TopicPartition(tp.topic_name or uuid_to_kafka(tp.topic_id), p)
        for tp in assignment.topic_partitions
        for p in tp.partitions
    ]


def parse_consumer_group_describe(body: ConsumerGroupDescribeResponseData,
                                  coordinator: Broker | None = None) -> list[ConsumerGroupInfo]:
    return [
        ConsumerGroupInfo(
            group_id=g.group_id,
            error_code=g.error_code,
            error_message=g.error_message,
            state=g.group_state,
            group_epoch=g.group_epoch,
            assignment_epoch=g.assignment_epoch,
            assignor_name=g.assignor_name,
            members=[
                ConsumerMemberInfo(
                    member_id=m.member_id,
                    instance_id=m.instance_id,
                    rack_id=m.rack_id,
                    member_epoch=m.member_epoch,
                    client_id=m.client_id,
                    client_host=m.client_host,
                    subscribed_topic_names=list(m.subscribed_topic_names),
                    subscribed_topic_regex=m.subscribed_topic_regex,
                    assignment=_partitions(m.assignment),
                    target_assignment=_partitions(m.target_assignment),
                    member_type=m.member_type,
                )
                for m in g.members
            ],
            authorized_operations=_operations(g.authorized_operations),
            coordinator=coordinator,
        )
        for g in body.groups
    ]


def describe_consumer_groups(
    cluster: Cluster, group_ids: Iterable[str], deadline: Deadline, *, include_authorized_operations: bool = False
) -> dict[str, ConsumerGroupInfo]:
    """ConsumerGroupDescribe for each group on its coordinator; per-group errors (GROUP_ID_NOT_FOUND
    for a classic or unknown group) stay in the results. A coordinator without API 69 raises
    `UnsupportedApi` ("... has no ConsumerGroupDescribe (API 69)")."""

    def send(conn: BrokerConnection, groups: list[str], dl: Deadline) -> dict[str, ConsumerGroupInfo]:
        _, body = conn.call(
            CONSUMER_GROUP_DESCRIBE,
            CONSUMER_GROUP_DESCRIBE_VERSIONS,
            lambda v: consumer_group_describe_request(v, groups, include_authorized_operations),
            dl,
        )
        broker = Broker(conn.node_id if conn.node_id is not None else -1, conn.host, conn.port)
        return {g.group_id: g for g in parse_consumer_group_describe(body, broker)}

    return on_coordinators(cluster, group_ids, send, lambda g: g.error_code, deadline, "ConsumerGroupDescribe")


# --- LeaveGroup -----------------------------------------------------------------------------------


class LeaveGroupUnsupported(WireClientError):
    """The coordinator is older than Kafka 2.3 and cannot remove members by instance id."""


def truncate_reason(reason: str | None) -> str:
    """Kafka's admin default when empty, cut to 255 characters as the broker would."""
    return (reason or DEFAULT_LEAVE_REASON)[:MAX_REASON_LENGTH]


def leave_group_request(version: int, group_id: str, members: Sequence[MemberIdentity]) -> LeaveGroupRequestData:
    """v3+ batch: one identity per member (member id or "", group instance id); v5 carries each reason."""
    if version < 3:
        raise ValueError(f"LeaveGroup v{version} cannot name members by instance id")
    identities = [
        MemberIdentity(member_id=m.member_id, group_instance_id=m.group_instance_id,
                       reason=truncate_reason(m.reason) if version >= 5 else None)
        for m in members
    ]
    return LeaveGroupRequestData(group_id=group_id, members=identities)


def leave_group(
    cluster: Cluster,
    group_id: str,
    members: Sequence[MemberIdentity],
    deadline: Deadline,
) -> tuple[LeaveGroupResponseData, Broker]:
    """Remove members from a group in one LeaveGroup v3-v5 on its coordinator: the response, and
    the coordinator that sent it."""

    Answer = tuple[LeaveGroupResponseData, Broker]

    def send(conn: BrokerConnection, _groups: list[str], dl: Deadline) -> dict[str, Answer]:
        try:
            version = conn.version_for(LEAVE_GROUP, LEAVE_GROUP_VERSIONS)
        except UnsupportedApi as exc:
            found = "none" if exc.broker_versions is None else f"v{exc.broker_versions[1]}"
            raise LeaveGroupUnsupported(
                f"{conn.where}: this broker's LeaveGroup is {found}; removing members by group.instance.id "
                "needs Kafka 2.3+ (LeaveGroup v3)"
            ) from exc
        body = conn.request(LEAVE_GROUP, version, leave_group_request(version, group_id, members), dl)
        broker = Broker(conn.node_id if conn.node_id is not None else -1, conn.host, conn.port)
        return {group_id: (body, broker)}

    answers = on_coordinators(cluster, [group_id], send, lambda r: r[0].error_code, deadline, "LeaveGroup")
    return answers[group_id]
