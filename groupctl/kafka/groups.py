"""The group RPCs: ListGroups, DescribeGroups, ConsumerGroupDescribe and LeaveGroup.

Each RPC is a request builder (`*_request(version, ...)`), a response parser (`parse_*`), and the
network call that picks the version with the broker and runs on the right brokers. ListGroups,
DescribeGroups and ConsumerGroupDescribe travel as the generated classes (`groupctl.protocol.data`), and
their answers stay those classes: a described group is carried with the coordinator that answered
(`ClassicGroupInfo`, `ConsumerGroupInfo`), never copied field by field, and `groupctl.describe` turns it
into the backend-neutral `groupctl.model.GroupDescription`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.coordinator import INITIAL_BACKOFF_S, MAX_BACKOFF_S, RETRIABLE, on_coordinators
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import UnsupportedApi, WireClientError, broker_error, error_name
from groupctl.model import GroupListing, GroupState
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupDescribeRequestData,
    ConsumerGroupDescribeResponseData,
)
from groupctl.protocol.data.consumer_groups import DescribedGroup as ConsumerDescribedGroup
from groupctl.protocol.data.group_admin import (
    DescribedGroup,
    DescribeGroupsRequestData,
    DescribeGroupsResponseData,
    ListedGroup,
    ListGroupsRequestData,
)
from groupctl.protocol.data.groups import LeaveGroupRequestData, LeaveGroupResponseData, MemberIdentity

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

OPERATIONS_OMITTED: Final = -(2**31)
"""AuthorizedOperations when the broker left them out."""


# --- ListGroups -----------------------------------------------------------------------------------


def list_groups_request(version: int, states: Sequence[str] = (), types: Sequence[str] = ()) -> ListGroupsRequestData:
    """The filters each version can carry (v4 states, v5 types); the rest is filtered client side."""
    return ListGroupsRequestData(states_filter=list(states) if version >= 4 else [],
                                 types_filter=list(types) if version >= 5 else [])


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
            state = g.group_state if version >= 4 else states_of.get(g.group_id, "Unknown")
            gtype = g.group_type if version >= 5 else _inferred_type(conn)
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
    """ListGroups on one broker, retrying while its coordinator is loading or starting: the version
    it answered (GroupState needs v4, GroupType v5; older answers leave them "") and its groups."""
    backoff = INITIAL_BACKOFF_S
    while True:
        version, body = conn.call(
            LIST_GROUPS, LIST_GROUPS_VERSIONS, lambda v: list_groups_request(v, states, types), deadline
        )
        code = body.error_code
        if code == 0:
            return version, body.groups
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
    return {g.group_id: g.group_state for g in body.groups if g.error_code == 0}


# --- DescribeGroups -------------------------------------------------------------------------------


G = TypeVar("G", DescribedGroup, ConsumerDescribedGroup)


@dataclass(frozen=True)
class _GroupInfo(Generic[G]):
    """One group of a describe answer as the broker sent it, and the coordinator that answered (None when
    parsed from bytes alone)."""

    described: G
    coordinator: Broker | None = None

    @property
    def error_name(self) -> str:
        return error_name(self.described.error_code)

    @property
    def authorized_operations(self) -> int | None:
        """AuthorizedOperations, None when left out (not asked for, or a version without them)."""
        value = self.described.authorized_operations
        return None if value == OPERATIONS_OMITTED else value


class ClassicGroupInfo(_GroupInfo[DescribedGroup]):
    """DescribeGroups' answer for one group. Before v6, a group that does not exist comes back as
    state `Dead` without an error; v6 says GROUP_ID_NOT_FOUND."""

    @property
    def exists(self) -> bool:
        g = self.described
        return g.error_code == 0 and not (g.group_state == GroupState.DEAD and not g.members)


def describe_groups_request(
    version: int, group_ids: Sequence[str], include_authorized_operations: bool = False
) -> DescribeGroupsRequestData:
    """IncludeAuthorizedOperations from v3."""
    return DescribeGroupsRequestData(groups=list(group_ids),
                                     include_authorized_operations=version >= 3 and include_authorized_operations)


def parse_describe_groups(body: DescribeGroupsResponseData,
                          coordinator: Broker | None = None) -> list[ClassicGroupInfo]:
    return [ClassicGroupInfo(g, coordinator) for g in body.groups]


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
        return {g.described.group_id: g for g in parse_describe_groups(body, broker)}

    return on_coordinators(cluster, group_ids, send, lambda g: g.described.error_code, deadline, "DescribeGroups")


# --- ConsumerGroupDescribe ------------------------------------------------------------------------


class ConsumerGroupInfo(_GroupInfo[ConsumerDescribedGroup]):
    """ConsumerGroupDescribe's answer for one group."""

    @property
    def mixed(self) -> bool | None:
        """Whether a member speaks the classic protocol (`GroupDescription.mixed`); None when a v0 answer
        (no MemberType) leaves it unknown."""
        types = {m.member_type for m in self.described.members}
        if 0 in types:
            return True
        return None if -1 in types else False


def consumer_group_describe_request(
    version: int, group_ids: Sequence[str], include_authorized_operations: bool = False
) -> ConsumerGroupDescribeRequestData:
    return ConsumerGroupDescribeRequestData(group_ids=list(group_ids),
                                            include_authorized_operations=include_authorized_operations)


def parse_consumer_group_describe(body: ConsumerGroupDescribeResponseData,
                                  coordinator: Broker | None = None) -> list[ConsumerGroupInfo]:
    return [ConsumerGroupInfo(g, coordinator) for g in body.groups]


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
        return {g.described.group_id: g for g in parse_consumer_group_describe(body, broker)}

    return on_coordinators(cluster, group_ids, send, lambda g: g.described.error_code, deadline,
                           "ConsumerGroupDescribe")


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
