"""The router: one `__consumer_offsets` partition's worth of groups behind Kafka's request API.

Each request is validated, handed to its protocol's handler, and the `Result` the handler returns is
completed by the runtime: its records appended once, then the parked requests it finished answered.
The router owns what crosses protocols: which protocol a LeaveGroup goes to, a new classic group's
first record, dropping an empty classic group a consumer group replaces, DeleteGroups' and OffsetDelete's
tombstones.
`Coordinator(log=...)` over an existing log is a failover: the state is replayed, and session timers
restart as Kafka's `onLoaded` restarts them.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from groupctl.coordinator import offset_requests
from groupctl.coordinator.classic import ClassicGroups, JoinCallback, SyncCallback
from groupctl.coordinator.classic import join as classic_join
from groupctl.coordinator.classic import members as classic_members
from groupctl.coordinator.classic.messages import join_error
from groupctl.coordinator.classic.records import empty_group_record, group_tombstone
from groupctl.coordinator.clock import Clock, ManualClock
from groupctl.coordinator.configs import ConfigValue, GroupConfigs
from groupctl.coordinator.consumer import JOIN_EPOCH, ConsumerGroups
from groupctl.coordinator.consumer import classic_requests as members_of_consumer
from groupctl.coordinator.consumer.heartbeat import heartbeat as consumer_heartbeat
from groupctl.coordinator.consumer.membership import group_tombstones
from groupctl.coordinator.described import described_consumer_group
from groupctl.coordinator.log import Record
from groupctl.coordinator.migration import Migration
from groupctl.coordinator.offsets import CommitPartition, FetchedOffset, Offsets, offset_tombstone
from groupctl.coordinator.runtime import (
    CLASSIC_DEFAULTS,
    DEFAULT_ASSIGNORS,
    DEFAULT_CALLER,
    Caller,
    Result,
    Runtime,
    classic_heartbeat_key,
    classic_join_key,
    classic_sync_key,
    rebalance_key,
    session_key,
    share_session_key,
)
from groupctl.coordinator.share.admin import ShareAdmin, described_share_group
from groupctl.coordinator.share.heartbeat import ShareGroups
from groupctl.coordinator.soft_state import SoftState, classic_snapshot, restore_classic, restore_timers, timer_snapshot
from groupctl.coordinator.state import CoordinatorState, assignment_map
from groupctl.coordinator.topics import Topic, TopicImage
from groupctl.coordinator.views import (
    ClassicGroupView,
    ClassicMemberView,
    ConsumerGroupView,
    ConsumerMemberView,
    CurrentAssignment,
    ShareGroupView,
)
from groupctl.describe import committed_offsets, describe_replayed, replayed_mixed
from groupctl.errors import KAFKA_ERROR_CODES, DecodeError, KafkaError
from groupctl.leaving import LeaveAnswer
from groupctl.model import (
    SUBSCRIBED_MESSAGE,
    CommittedOffset,
    GroupDescription,
    GroupListing,
    GroupState,
    MemberState,
    ShareOffset,
)
from groupctl.protocol.consumer_protocol import decode_subscription
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupDescribeRequestData,
    ConsumerGroupDescribeResponseData,
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
)
from groupctl.protocol.data.consumer_groups import DescribedGroup as DescribedConsumerGroup
from groupctl.protocol.data.group_admin import (
    DescribedGroup,
    DescribeGroupsRequestData,
    DescribeGroupsResponseData,
    ListedGroup,
    ListGroupsRequestData,
    ListGroupsResponseData,
)
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    MemberIdentity,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.protocol.data.offsets import (
    OffsetCommitRequestData,
    OffsetCommitResponseData,
    OffsetFetchRequestData,
    OffsetFetchResponseData,
)
from groupctl.protocol.data.share_groups import DescribedGroup as DescribedShareGroup
from groupctl.protocol.data.share_groups import (
    ShareGroupDescribeRequestData,
    ShareGroupDescribeResponseData,
    ShareGroupHeartbeatRequestData,
    ShareGroupHeartbeatResponseData,
)
from groupctl.protocol.primitives import uuid_to_kafka

__all__ = ["CLASSIC_DEFAULTS", "DEFAULT_ASSIGNORS", "Coordinator"]

INVALID_GROUP_ID = KAFKA_ERROR_CODES["INVALID_GROUP_ID"]
#: The protocol type of classic groups whose subscriptions the coordinator can read.
CONSUMER_PROTOCOL_TYPE = "consumer"


def known_partitions(image: TopicImage, topics: list[tuple[str, list[int]]]) -> tuple[
        list[tuple[str, list[int]]], list[tuple[str, int]]]:
    """KafkaApis' first step of OffsetDelete, shared by `serve` and the local backend: (what the
    coordinator is asked, partitions of topics the cluster does not have or beyond their count, which
    answer UNKNOWN_TOPIC_OR_PARTITION)."""
    asked: list[tuple[str, list[int]]] = []
    unknown: list[tuple[str, int]] = []
    for name, partitions in topics:
        topic = image.get(name)
        valid = [p for p in partitions if topic is not None and 0 <= p < topic.partitions]
        unknown += [(name, p) for p in partitions if p not in valid]
        if valid:
            asked.append((name, valid))
    return asked, unknown


class Coordinator:
    def __init__(self, **settings: Any) -> None:
        """`settings` are `Runtime`'s keywords (clock, ids, topics, configs, log, assignors, max_group_size,
        classic_settings): the router adds nothing to them, so they are declared once, there."""
        self.runtime = Runtime(**settings)
        self.classic = ClassicGroups(self.runtime)
        self._consumer = ConsumerGroups(self.runtime, self.group_exists)
        self._offsets = Offsets(self.runtime, self.classic)
        self._migration = Migration(self.runtime, self.classic, self._consumer)
        self._consumer.downgrade = self._migration.maybe_downgrade
        self._share = ShareGroups(self.runtime, self._not_share)
        self._share_admin = ShareAdmin(self.runtime)
        self._load()

    # -- the parts it was given -------------------------------------------------------------------------
    # What a caller injected (or, left out, the defaults the runtime made): the clock it runs on, the topics
    # image it resolves names against, the group configs, and the classic groups' broker settings. Its
    # internals (the replayed state, the timers, the log) are the runtime's: read `runtime` only in tests.

    @property
    def clock(self) -> Clock:
        return self.runtime.clock

    @property
    def topics(self) -> TopicImage:
        return self.runtime.topics

    @property
    def configs(self) -> GroupConfigs:
        return self.runtime.configs

    @property
    def classic_settings(self) -> dict[str, int]:
        """`group.min.session.timeout.ms` ... as this coordinator runs with them (a copy)."""
        return dict(self.runtime.classic_settings)

    @property
    def _state(self) -> CoordinatorState:
        """The replayed state, which the router reads to route a request (it changes only by replay)."""
        return self.runtime.state

    # -- what a watcher outside may ask ----------------------------------------------------------------

    def next_timer_deadline(self) -> int | None:
        """When the earliest pending timer falls due (ms), or None: when a wall-clock driver must wake up."""
        return self.runtime.timers.next_deadline()

    def member_deadlines(self, group_id: str, member_id: str) -> tuple[int | None, int | None]:
        """A member's pending (session, rebalance) deadlines: its heartbeat timer in a classic group, its
        session in a consumer group, and the time it has to revoke; None for one not running."""
        timers = self.runtime.timers
        if group_id in self.runtime.state.share:
            return timers.deadline(share_session_key(group_id, member_id)), None
        session = session_key if group_id in self.runtime.state.consumer else classic_heartbeat_key
        return timers.deadline(session(group_id, member_id)), timers.deadline(rebalance_key(group_id, member_id))

    def committed_offsets(self, group_id: str) -> list[CommittedOffset]:
        """The group's committed offsets, by topic and partition (none for a group that has none)."""
        return committed_offsets(self.runtime.state, group_id)

    def classic_group(self, group_id: str) -> ClassicGroupView | None:
        """A copy of the live classic group `group_id` as it is now; None when there is none."""
        group = self.classic.groups.get(group_id)
        if group is None:
            return None
        return ClassicGroupView(group_id, group.state, group.generation, frozenset(group.pending_join), {
            m.member_id: ClassicMemberView(m.member_id, m.instance_id, m.assignment) for m in group.members.values()
        })

    def consumer_group(self, group_id: str) -> ConsumerGroupView | None:
        """A copy of the consumer group `group_id` as its records leave it now; None when there is none."""
        state = self.runtime.state.consumer.get(group_id)
        if state is None:
            return None
        members = {}
        for member_id in state.member_ids():
            meta, current = state.members.get(member_id), state.current.get(member_id)
            members[member_id] = ConsumerMemberView(
                member_id, meta.instance_id if meta is not None else None,
                None if current is None else CurrentAssignment(
                    current.member_epoch, current.state, assignment_map(current.assigned_partitions)),
            )
        return ConsumerGroupView(group_id, state.state(), state.epoch, state.assignment_epoch, members)

    def share_group(self, group_id: str) -> ShareGroupView | None:
        """A copy of the share group `group_id` as its records leave it now; None when there is none."""
        state = self.runtime.state.share.get(group_id)
        if state is None:
            return None
        members = {}
        for member_id in state.member_ids():
            current = state.current.get(member_id)
            members[member_id] = ConsumerMemberView(member_id, None, None if current is None else CurrentAssignment(
                current.member_epoch, current.state, state.assigned_to(member_id)))
        return ShareGroupView(group_id, state.state(), state.epoch, state.assignment_epoch, members)

    def share_assignment_pending(self, group_id: str) -> bool:
        """Whether the share group's next heartbeat brings a new target: share-partitions were initialized
        since the target was computed (Kafka's `initializedAssignmentPending`)."""
        return self._share.assignment_pending(group_id)

    def group_views(self) -> list[ClassicGroupView | ConsumerGroupView]:
        """Every live classic group, then every consumer group, then every share group, as `classic_group`,
        `consumer_group` and `share_group` see them."""
        classic = [self.classic_group(gid) for gid in self.classic.groups]
        consumer = [self.consumer_group(gid) for gid in self.runtime.state.consumer]
        share = [self.share_group(gid) for gid in self.runtime.state.share]
        return [view for view in (*classic, *consumer, *share) if view is not None]

    def group_broker_settings(self) -> dict[str, object]:
        """The group coordinator's broker settings under Kafka's names, as this coordinator runs with them."""
        rt = self.runtime
        return {
            "group.consumer.assignors": ",".join(rt.assignor_names),
            "group.consumer.migration.policy": rt.migration,
            **rt.classic_settings,
            **rt.configs.broker,
        }

    # -- what is not in the log -------------------------------------------------------------------------

    def snapshot(self) -> SoftState:
        """The classic groups' soft state and the live timers, as plain values a backend can keep as JSON."""
        return SoftState(classic_snapshot(self.classic), timer_snapshot(self.runtime.timers))

    def restore(self, kept: SoftState, *, timer_shift_ms: int = 0) -> None:
        """Carry on from a `snapshot` taken when the log ended where it ends now: the classic groups (unless
        None) replace those loaded from the log, then every timer still live gets its kept deadline, moved by
        `timer_shift_ms`."""
        if kept.classic_groups is not None:
            restore_classic(self.classic, kept.classic_groups)
        restore_timers(self.runtime.timers, kept.timers, timer_shift_ms)

    def _load(self) -> None:
        rt = self.runtime
        rt.load()
        for group_id, classic in rt.state.classic.items():
            self.classic.load(group_id, classic)
        for group_id, share in rt.state.share.items():
            for member_id in share.member_ids():
                self._share.schedule_session_timeout(group_id, member_id)
        for group_id, group in rt.state.consumer.items():
            rt.metadata_refresh.add(group_id)
            for member_id in group.member_ids():
                self._consumer.schedule_session_timeout(group_id, member_id)
                current = group.current.get(member_id)
                if current is not None and current.state == MemberState.UNREVOKED_PARTITIONS:
                    meta = group.members.get(member_id)
                    rebalance = meta.rebalance_timeout_ms if meta is not None else -1
                    self._consumer.schedule_rebalance_timeout(group_id, member_id, current.member_epoch, rebalance)

    def rebuild(self) -> Coordinator:
        """A new coordinator loaded from this one's log (failover), sharing clock, ids, topics, configs."""
        rt = self.runtime
        return Coordinator(
            clock=rt.clock, ids=rt.ids, topics=rt.topics, configs=rt.configs, log=rt.log,
            assignors=rt.assignor_names, max_group_size=rt.max_group_size, classic_settings=rt.classic_settings,
            migration=rt.migration, kafka=rt.kafka_version, share_starts=rt.share_starts,
        )

    # -- time -------------------------------------------------------------------------------------------

    def advance(self, ms: int) -> None:
        """Move a manual clock forward by `ms`, firing every timer that falls due, in deadline order."""
        self.advance_to(self.clock.now_ms() + ms)

    def advance_to(self, now_ms: int) -> None:
        clock = self.clock
        if not isinstance(clock, ManualClock):
            raise TypeError("only a manual clock can be advanced; a wall clock fires timers with fire_due()")
        while True:
            deadline = self.runtime.timers.next_deadline()
            if deadline is None or deadline > now_ms:
                break
            clock.set(max(deadline, clock.now_ms()))
            self.fire_due()
        clock.set(now_ms)

    def fire_due(self) -> int:
        """Run every timer due now (each completes its own result); returns how many fired."""
        return self.runtime.fire_due()

    # -- groups -----------------------------------------------------------------------------------------

    def group_exists(self, group_id: str) -> bool:
        return self.classic.exists(group_id)

    def _not_share(self, group_id: str) -> bool:
        """Whether a classic, simple or consumer group holds the id (then it cannot be a share group)."""
        return group_id not in self._state.share and self.group_exists(group_id)

    def share_heartbeat(self, request: ShareGroupHeartbeatRequestData,
                        caller: Caller = DEFAULT_CALLER) -> ShareGroupHeartbeatResponseData:
        """ShareGroupHeartbeat (KIP-932) from `caller`: a share group never takes over a group of another type."""
        result = self._share.heartbeat(request, caller)
        self.runtime.complete(result)
        return result.response

    def classic_group_is_empty(self, group_id: str) -> bool:
        """Whether a consumer group could take this id over: no live classic group, or an Empty one."""
        group = self.classic.groups.get(group_id)
        return group is None or group.state == GroupState.EMPTY

    def _other_group(self, group_id: str) -> GroupState | None:
        """The state of a non-consumer group by this id: a live classic one, or a simple one (Empty)."""
        classic = self.classic.groups.get(group_id)
        if classic is not None:
            return classic.state
        return GroupState.EMPTY if group_id in self._state.group_ids() else None

    def heartbeat(self, request: ConsumerGroupHeartbeatRequestData,
                  caller: Caller = DEFAULT_CALLER) -> ConsumerGroupHeartbeatResponseData:
        """ConsumerGroupHeartbeat (KIP-848) from `caller`; a consumer group it creates replaces an Empty
        classic one, and a member joining a non-empty classic group converts it (online upgrade)."""
        gid = request.group_id
        rt = self.runtime
        if gid in rt.state.share:
            return ConsumerGroupHeartbeatResponseData(error_code=KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"],
                                                      error_message=f"Group {gid} is not a consumer group.")
        live = self.classic.groups.get(gid)
        if (gid not in rt.state.consumer and live is not None and live.state != GroupState.EMPTY
                and request.member_epoch == JOIN_EPOCH):
            upgraded = self._migration.upgrade(request, caller)
            rt.complete(upgraded)
            return upgraded.response
        other = None if gid in rt.state.consumer else self._other_group(gid)
        result = consumer_heartbeat(self._consumer, request, caller, other)
        if other is not None and result.response.error_code == 0 and result.records:
            self.classic.groups.pop(gid, None)
            result.records.insert(0, group_tombstone(gid))
        rt.complete(result)
        return result.response

    def join_group(self, request: JoinGroupRequestData, respond: JoinCallback,
                   caller: Caller = DEFAULT_CALLER) -> None:
        """JoinGroup from `caller` (its id and host go on the member, its version picks the rules); `respond`
        gets the answer once the request's records are written, or when the rebalance completes. A group
        this request creates gets its first (empty) record; a non-empty consumer group takes the member in
        (online migration), an empty one is replaced."""
        gid = request.group_id
        if gid in self._state.share:  # `getOrMaybeCreateClassicGroup`: "Group X is not a classic group."
            respond(join_error(KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"], request.member_id))
            return
        consumer = self._state.consumer.get(gid)
        if consumer is not None and consumer.member_ids():
            self.runtime.complete(members_of_consumer.join(self._consumer, request, caller, respond))
            return
        new = consumer is not None or not self.group_exists(gid)
        result = classic_join.join(self.classic, request, caller, respond)
        group = self.classic.groups.get(gid)
        if new and group is not None and not result.records:
            result.records.append(empty_group_record(group))
        if consumer is not None and group is not None:
            if group.members or group.pending_join:
                self.runtime.metadata_refresh.discard(gid)
                result.records[0:0] = group_tombstones(gid, consumer)
            else:  # the join was refused: the consumer group stays
                self.classic.groups.pop(gid)
                result.records.clear()
        self.runtime.complete(result)

    def sync_group(self, request: SyncGroupRequestData, respond: SyncCallback) -> None:
        """SyncGroup; `respond` gets the assignment now, or when the leader sends it."""
        consumer = self._state.consumer.get(request.group_id)
        if consumer is not None:
            if consumer.member_ids():
                self.runtime.complete(members_of_consumer.sync(self._consumer, request, respond))
            else:
                respond(SyncGroupResponseData(error_code=KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"]))
            return
        self.runtime.complete(classic_members.sync(self.classic, request, respond))

    def sync_wait_ms(self, group_id: str, member_id: str) -> int:
        """How long a SyncGroup of this member may be parked: its rebalance timeout in a live classic group,
        0 otherwise (a classic member of a consumer group, like an unknown member, is answered at once)."""
        group = self.classic.groups.get(group_id)
        member = group.members.get(member_id) if group is not None else None
        return member.rebalance_timeout_ms if member is not None else 0

    def describe_groups(self, request: DescribeGroupsRequestData,
                        caller: Caller = DEFAULT_CALLER) -> DescribeGroupsResponseData:
        """DescribeGroups (classic groups), at the caller's version; an empty group id is INVALID_GROUP_ID, as
        Kafka's `GroupCoordinatorService` answers it. Authorized operations are left to the caller."""
        described = iter(self.classic.describe_groups([g for g in request.groups if g != ""], caller.api_version))
        return DescribeGroupsResponseData(groups=[
            next(described) if group_id != "" else DescribedGroup(error_code=INVALID_GROUP_ID)
            for group_id in request.groups
        ])

    def classic_heartbeat(self, request: HeartbeatRequestData) -> HeartbeatResponseData:
        """Heartbeat (classic protocol): its error code; a classic member of a consumer group is told to rejoin
        while its assignment must change."""
        if request.group_id in self._state.consumer:
            result = members_of_consumer.heartbeat(self._consumer, request)
        else:
            result = classic_members.heartbeat(self.classic, request)
        self.runtime.complete(result)
        return result.response

    def leave_group(self, group_id: str, identities: Iterable[MemberIdentity]) -> LeaveAnswer:
        """LeaveGroup (v3+ batch, also the admin path): members by id and/or instance id, with a reason.

        A consumer group takes it as an admin removal; a classic group as its members leaving; a group
        that does not exist answers every member UNKNOWN_MEMBER_ID.
        """
        named = list(identities)
        if group_id in self._state.consumer:
            result = self._consumer.leave_group(group_id, named)
        elif group_id in self.classic.groups:
            result = classic_members.leave_group(self.classic, group_id, named)
        else:
            return LeaveAnswer.unknown_group(group_id, named)
        self.runtime.complete(result)
        return result.response

    def offset_commit(self, request: OffsetCommitRequestData,
                      caller: Caller = DEFAULT_CALLER) -> OffsetCommitResponseData:
        """OffsetCommit at the caller's version: partitions of topics the cluster does not have answer
        UNKNOWN_TOPIC_OR_PARTITION (an unknown id at v10 UNKNOWN_TOPIC_ID), an empty group id
        INVALID_GROUP_ID, the rest what `commit_offsets` makes of them."""
        return offset_requests.offset_commit(self, request, caller)

    def offset_fetch(self, request: OffsetFetchRequestData,
                     caller: Caller = DEFAULT_CALLER) -> OffsetFetchResponseData:
        """OffsetFetch at the caller's version: one group before v8, a batch from v8, topics by id from v10."""
        return offset_requests.offset_fetch(self, request, caller)

    def commit_offsets(self, group_id: str, member_id: str, epoch: int, partitions: list[CommitPartition], *,
                       version: int = 9, retention_ms: int = -1, instance_id: str | None = None,
                       ) -> list[CommitPartition]:
        try:
            result = self._offsets.commit(group_id, member_id, epoch, partitions, version=version,
                                         retention_ms=retention_ms, instance_id=instance_id)
        except KafkaError:
            self.runtime.run_tasks()
            raise
        self.runtime.complete(result)
        return result.response

    def fetch_offsets(self, group_id: str, topics: list[tuple[str, list[int]]] | None = None, *,
                      member_id: str | None = None, epoch: int = -1, require_stable: bool = False,
                      ) -> list[FetchedOffset]:
        return self._offsets.fetch(group_id, topics, member_id=member_id, epoch=epoch, require_stable=require_stable)

    def list_groups(self, request: ListGroupsRequestData) -> ListGroupsResponseData:
        """ListGroups: every group, filtered by the request's states and types (empty: all)."""
        return ListGroupsResponseData(groups=[
            ListedGroup(group_id=g.group_id, protocol_type=g.protocol_type, group_state=g.state, group_type=g.type)
            for g in self.group_listings(request.states_filter or None, request.types_filter or None)
        ])

    def group_listings(
        self, states: Iterable[str] | None = None, types: Iterable[str] | None = None, *, mixed: bool = False
    ) -> list[GroupListing]:
        """Every group as `group list` shows it (with member counts), filtered by state and type (both
        case-insensitive, as the broker); with `mixed`, each says whether it is a consumer group holding
        classic-protocol members."""
        want_states = {s.lower() for s in states} if states else None
        want_types = {t.lower() for t in types} if types else None
        out = []
        for group_id in sorted(set(self._state.group_ids()) | self.classic.groups.keys()):
            consumer = self._state.consumer.get(group_id)
            classic = self.classic.groups.get(group_id)
            share = self._state.share.get(group_id)
            if share is not None:
                listing = GroupListing(group_id, "share", share.state(), "share", len(share.member_ids()))
            elif consumer is not None:
                listing = GroupListing(group_id, "consumer", consumer.state(), "consumer", len(consumer.member_ids()))
            elif classic is not None:
                listing = GroupListing(group_id, "classic", classic.state, classic.protocol_type or "",
                                       len(classic.members))
            else:
                listing = GroupListing(group_id, "classic", GroupState.EMPTY, "", 0)
            if want_states is not None and listing.state.lower() not in want_states:
                continue
            if want_types is not None and listing.type not in want_types:
                continue
            if mixed:
                listing.mixed = replayed_mixed(consumer) if consumer is not None else False
            out.append(listing)
        return out

    def topic_names(self) -> dict[str, str]:
        """Topic id (base64) -> name, for describing assignments by name."""
        return {uuid_to_kafka(t.topic_id): t.name for t in self.topics}

    def describe(self, group_id: str) -> GroupDescription:
        """The group as `group describe` shows it; GROUP_ID_NOT_FOUND when there is none."""
        share = self._state.share.get(group_id)
        if share is not None:
            return self._share_admin.describe(group_id, share)
        classic = self.classic.groups.get(group_id)
        if classic is not None:
            described = self.classic.describe(classic)
            described.offsets = committed_offsets(self._state, group_id)
            return described
        try:
            return describe_replayed(self._state, group_id, topic_names=self.topic_names())
        except KeyError:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.") from None

    def consumer_group_describe(self, request: ConsumerGroupDescribeRequestData) -> ConsumerGroupDescribeResponseData:
        """ConsumerGroupDescribe: per group, the description or the error Kafka returns (an empty group id:
        INVALID_GROUP_ID). Authorized operations are left to the caller."""
        return ConsumerGroupDescribeResponseData(groups=[self._described_consumer_group(g) for g in request.group_ids])

    def _described_consumer_group(self, group_id: str) -> DescribedConsumerGroup:
        if group_id == "":
            return DescribedConsumerGroup(error_code=INVALID_GROUP_ID)
        if group_id in self._state.consumer:
            return described_consumer_group(self.describe(group_id), self.topics, self.runtime.assignor_names[0])
        message = f"Group {group_id} is not a consumer group." if self.group_exists(group_id) \
            else f"Group {group_id} not found."
        return DescribedConsumerGroup(error_code=KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"], error_message=message,
                                      group_id=group_id)

    # -- share groups' admin requests -------------------------------------------------------------------

    def share_group_describe(self, request: ShareGroupDescribeRequestData) -> ShareGroupDescribeResponseData:
        """ShareGroupDescribe: per group, the description or Kafka's error ("Group X is not a share group." for
        a group of another type). Authorized operations are left to the caller."""
        out = []
        for group_id in request.group_ids:
            if group_id == "":
                out.append(DescribedShareGroup(error_code=INVALID_GROUP_ID))
                continue
            try:
                group = self._share.group(group_id)
            except KafkaError as exc:
                out.append(DescribedShareGroup(error_code=exc.code, error_message=exc.message, group_id=group_id))
                continue
            assert group is not None
            ids = {t.name: t.topic_id for t in self.topics}
            out.append(described_share_group(self._share_admin.describe(group_id, group), ids))
        return ShareGroupDescribeResponseData(groups=out)

    def share_offsets(self, group_id: str) -> list[ShareOffset]:
        """DescribeShareGroupOffsets of every topic: each initialized share-partition's start offset (None
        where unresolved); GROUP_ID_NOT_FOUND raised for no share group of that id."""
        self._share.group(group_id)
        return self._share_admin.share_offsets(group_id)

    def alter_share_offsets(self, group_id: str,
                            offsets: Mapping[tuple[str, int], int]) -> dict[tuple[str, int], KafkaError | None]:
        """AlterShareGroupOffsets: per (topic, partition), None when set or its error; a group-level refusal
        (no such share group, NON_EMPTY_GROUP while members are active) raises."""
        group = self._share.group(group_id)
        assert group is not None
        result = self._share_admin.alter(group_id, group, offsets)
        self.runtime.complete(result)
        return result.response

    def delete_share_offsets(self, group_id: str,
                             topics: Iterable[str]) -> list[tuple[str, uuid.UUID | None, KafkaError | None]]:
        """DeleteShareGroupOffsets: per topic (name, id when it exists, error or None); a group-level refusal
        raises."""
        group = self._share.group(group_id)
        assert group is not None
        result = self._share_admin.delete_offsets(group_id, group, list(topics))
        self.runtime.complete(result)
        return result.response

    def delete_groups(self, group_ids: Iterable[str]) -> list[tuple[str, KafkaError | None]]:
        """DeleteGroups: per group, None when deleted or the error Kafka returns for it.

        As Kafka's `GroupCoordinatorShard.deleteGroups`: a group with members is NON_EMPTY_GROUP, a
        missing one GROUP_ID_NOT_FOUND; a deletable group gets a tombstone for each committed (and
        pending transactional) offset, then the group's own tombstones, all appended in one batch.
        """
        results: list[tuple[str, KafkaError | None]] = []
        records: list[Record] = []
        for group_id in group_ids:
            try:
                self._validate_delete(group_id)
            except KafkaError as exc:
                results.append((group_id, exc))
                continue
            records += self._offset_tombstones(group_id)
            records += self._group_tombstones(group_id)
            results.append((group_id, None))
        self.runtime.complete(Result(results, records))
        return results

    def _validate_delete(self, group_id: str) -> None:
        """`validateDeleteGroup`: a consumer group must be Empty, a classic one Empty (Dead: gone)."""
        if not self.group_exists(group_id):
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.")
        share = self._state.share.get(group_id)
        if share is not None:
            ShareAdmin.check_empty(share)
            return
        consumer = self._state.consumer.get(group_id)
        if consumer is not None:
            if consumer.state() != GroupState.EMPTY:
                raise KafkaError("NON_EMPTY_GROUP", "The group is not empty.")
            return
        classic = self.classic.groups.get(group_id)
        if classic is None or classic.state == GroupState.EMPTY:
            return
        if classic.state == GroupState.DEAD:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is in dead state.")
        raise KafkaError("NON_EMPTY_GROUP", "The group is not empty.")

    def _offset_tombstones(self, group_id: str) -> list[Record]:
        """`deleteAllOffsets`: committed offsets, then pending transactional ones not also committed."""
        committed = self._state.offsets.get(group_id, {})
        out: list[Record] = [offset_tombstone(group_id, topic, partition) for topic, partition in sorted(committed)]
        pending = sorted({
            (topic, partition)
            for entries in self._state.pending.values()
            for (gid, topic, partition) in entries
            if gid == group_id and (topic, partition) not in committed
        })
        out += [offset_tombstone(group_id, topic, partition) for topic, partition in pending]
        return out

    def _group_tombstones(self, group_id: str) -> list[Record]:
        """The group's tombstones as `createGroupTombstoneRecordsAndCancelTimers` writes them."""
        share = self._state.share.get(group_id)
        if share is not None:
            for member_id in share.member_ids():
                self._share.cancel_member_timers(group_id, member_id)
            return self._share_admin.group_tombstones(group_id, share)
        consumer = self._state.consumer.get(group_id)
        timers = self.runtime.timers
        if consumer is None:
            classic = self.classic.groups.pop(group_id, None)
            if classic is not None:
                timers.cancel(classic_join_key(group_id))
                timers.cancel(classic_sync_key(group_id))
                for member_id in (*classic.members, *classic.pending_join):
                    timers.cancel(classic_heartbeat_key(group_id, member_id))
            return [group_tombstone(group_id)]
        members = consumer.member_ids()
        for member_id in members:
            self._consumer.cancel_member_timers(group_id, member_id)
        self.runtime.metadata_refresh.discard(group_id)
        return group_tombstones(group_id, consumer)

    # -- OffsetDelete ------------------------------------------------------------------------------------

    def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> list[tuple[str, int, KafkaError | None]]:
        """OffsetDelete: per partition, None when its offset is gone (or there was none) or the error.

        As Kafka 4.x's `OffsetMetadataManager.deleteOffsets`: a group-level refusal (no such group,
        a non-empty classic group that does not speak the consumer protocol) raises; every partition
        of a topic the group is subscribed to is GROUP_SUBSCRIBED_TO_TOPIC; the others answer success
        and get a tombstone when a committed or pending transactional offset exists, in one batch.
        """
        self._validate_offset_delete(group_id)
        committed = self._state.offsets.get(group_id, {})
        pending = {(t, p) for entries in self._state.pending.values() for (g, t, p) in entries if g == group_id}
        results: list[tuple[str, int, KafkaError | None]] = []
        records: list[Record] = []
        for topic, partitions in topics:
            if self._subscribed_to(group_id, topic):
                error = KafkaError("GROUP_SUBSCRIBED_TO_TOPIC", SUBSCRIBED_MESSAGE)
                results += [(topic, p, error) for p in partitions]
                continue
            for p in partitions:
                results.append((topic, p, None))
                if (topic, p) in committed or (topic, p) in pending:
                    records.append(offset_tombstone(group_id, topic, p))
        self.runtime.complete(Result(results, records))
        return results

    def _validate_offset_delete(self, group_id: str) -> None:
        """`validateOffsetDelete`: consumer groups always pass; a classic group in a rebalance or Stable
        only when it speaks the consumer protocol (then the topics decide)."""
        if not self.group_exists(group_id):
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.")
        classic = self.classic.groups.get(group_id)
        if group_id in self._state.consumer or classic is None:
            return
        if classic.state == GroupState.DEAD:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is in dead state.")
        if classic.state != GroupState.EMPTY and classic.protocol_type != CONSUMER_PROTOCOL_TYPE:
            raise KafkaError("NON_EMPTY_GROUP", "The group is not empty.")

    def _subscribed_to(self, group_id: str, topic: str) -> bool:
        """`isSubscribedToTopic`: a consumer group's subscribed names and resolved regexes; a classic
        group's members' consumer-protocol subscriptions (unknown, e.g. unparsable: subscribed)."""
        if group_id in self._state.consumer:
            return topic in self._state.subscribed_topic_names(group_id)
        classic = self.classic.groups.get(group_id)
        if classic is None or classic.protocol_type != CONSUMER_PROTOCOL_TYPE or not classic.members:
            return False
        if classic.protocol_name is None:
            return True
        subscribed: set[str] = set()
        for member in classic.members.values():
            try:
                subscribed.update(decode_subscription(member.metadata(classic.protocol_name))[1]["topics"] or ())
            except (DecodeError, ValueError, KeyError):
                return True
        return topic in subscribed

    # -- topics and configs -----------------------------------------------------------------------------

    def create_topic(self, name: str, partitions: int, topic_id: uuid.UUID | None = None) -> Topic:
        topic = self.topics.create(name, partitions, topic_id if topic_id is not None else self.runtime.ids.uuid())
        self._topics_changed({name})
        return topic

    def add_partitions(self, name: str, total: int) -> Topic:
        topic = self.topics.add_partitions(name, total)
        self._topics_changed({name})
        return topic

    def _topics_changed(self, names: set[str]) -> None:
        """Kafka's `onNewMetadataImage`: groups using a changed topic recompute their metadata."""
        for group_id in self._state.consumer:
            if names & self._state.subscribed_topic_names(group_id):
                self.runtime.metadata_refresh.add(group_id)

    def describe_configs(self, group_id: str, names: list[str] | None = None) -> list[ConfigValue]:
        return self.configs.describe(group_id, names)

    def alter_configs(
        self, group_id: str, set_values: dict[str, object] | None = None, delete: list[str] | None = None,
        *, validate_only: bool = False,
    ) -> None:
        """IncrementalAlterConfigs (SET/DELETE) on a GROUP resource; `validate_only` changes nothing."""
        if validate_only:
            self.configs.plan(group_id, set_values, delete)
        else:
            self.configs.alter(group_id, set_values, delete)
