"""The in-process group coordinator: one `__consumer_offsets` partition's worth of groups.

It owns the infrastructure the protocol handlers share: the record log and the state replayed from
it, the clock and its timers, topic metadata, group configs and seeded ids. `Coordinator(log=...)`
over an existing log is a failover: the state is replayed, and session timers restart as Kafka's
`onLoaded` restarts them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence

from groupctl.coordinator import records as rec
from groupctl.coordinator.classic import (
    DEAD,
    EMPTY,
    ClassicGroup,
    ClassicGroups,
    DescribedGroup,
    JoinCallback,
    JoinGroupRequest,
    SyncCallback,
    SyncGroupRequest,
)
from groupctl.coordinator.clock import Clock, ManualClock, Timers
from groupctl.coordinator.configs import ConfigValue, GroupConfigs
from groupctl.coordinator.consumer import ConsumerGroups, HeartbeatRequest, HeartbeatResponse, LeaveResult
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.log import MemoryLog, Record, RecordLog
from groupctl.coordinator.offsets import CommitPartition, FetchedOffset, Offsets
from groupctl.coordinator.reconcile import UNREVOKED_PARTITIONS
from groupctl.coordinator.state import CoordinatorState
from groupctl.coordinator.topics import Topic, TopicImage
from groupctl.errors import KafkaError
from groupctl.model import GroupDescription, GroupListing
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import encode_key

ConsumerGroupDescribed = tuple[str, KafkaError | None, GroupDescription | None]
#: `group.consumer.assignors` default; the first is the default assignor.
DEFAULT_ASSIGNORS = ("uniform", "range")
#: The broker settings of classic groups, with Kafka's defaults.
CLASSIC_DEFAULTS: dict[str, int] = {
    "group.min.session.timeout.ms": 6000,
    "group.max.session.timeout.ms": 1800000,
    "group.initial.rebalance.delay.ms": 3000,
    "group.max.size": 2**31 - 1,
}


class Coordinator:
    def __init__(
        self,
        *,
        clock: Clock | None = None,
        ids: IdGenerator | None = None,
        topics: TopicImage | None = None,
        configs: GroupConfigs | None = None,
        log: RecordLog | None = None,
        assignors: Sequence[str] = DEFAULT_ASSIGNORS,
        max_group_size: int | None = None,
        classic_settings: Mapping[str, int] | None = None,
    ) -> None:
        self.clock = clock if clock is not None else ManualClock()
        self.ids = ids if ids is not None else IdGenerator()
        self.topics = topics if topics is not None else TopicImage()
        self.configs = configs if configs is not None else GroupConfigs()
        self.log = log if log is not None else MemoryLog()
        self.assignor_names = list(assignors)
        self.max_group_size = (
            max_group_size if max_group_size is not None else int(self.configs.broker["group.consumer.max.size"])
        )
        self.state = CoordinatorState()
        self.timers = Timers()
        self.metadata_refresh: set[str] = set()
        self.records_written = 0
        self._tasks: dict[str, Callable[[], None]] = {}
        unknown = set(classic_settings or {}) - set(CLASSIC_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown classic group settings: {', '.join(sorted(unknown))}")
        self.classic_settings = {**CLASSIC_DEFAULTS, **(classic_settings or {})}
        self.consumer = ConsumerGroups(self)
        self.classic = ClassicGroups(self)
        self.offsets = Offsets(self)
        self._load()

    def _load(self) -> None:
        for record in self.log.read():
            self.state.apply(record)
        for group_id, classic in self.state.classic.items():
            self.classic.load(group_id, classic)
        for group_id, group in self.state.consumer.items():
            self.metadata_refresh.add(group_id)
            for member_id in group.member_ids():
                self.schedule_session_timeout(group_id, member_id)
                current = group.current.get(member_id)
                if current is not None and current["state"] == UNREVOKED_PARTITIONS:
                    rebalance = (group.members.get(member_id) or {}).get("rebalanceTimeoutMs", -1)
                    self.schedule_rebalance_timeout(group_id, member_id, current["memberEpoch"], rebalance)

    def rebuild(self) -> Coordinator:
        """A new coordinator loaded from this one's log (failover), sharing clock, ids, topics, configs."""
        return Coordinator(
            clock=self.clock, ids=self.ids, topics=self.topics, configs=self.configs, log=self.log,
            assignors=self.assignor_names, max_group_size=self.max_group_size,
            classic_settings=self.classic_settings,
        )

    # -- records, tasks, time ---------------------------------------------------------------------

    def append(self, records: Sequence[Record]) -> None:
        """Write records to the log and apply them as read back: the only way state changes."""
        if not records:
            return
        for decoded in self.log.append(records, self.clock.now_ms()):
            self.state.apply(decoded)
        self.records_written += len(records)

    def schedule_task(self, key: str, action: Callable[[], None]) -> None:
        """Kafka's background executor, run at the end of the current request (deterministic)."""
        self._tasks.setdefault(key, action)

    def run_tasks(self) -> None:
        while self._tasks:
            key = next(iter(self._tasks))
            self._tasks.pop(key)()

    def schedule_session_timeout(self, group_id: str, member_id: str) -> None:
        deadline = self.clock.now_ms() + self.configs.session_timeout_ms(group_id)
        self.timers.schedule(("session", group_id, member_id), deadline,
                             lambda: self.consumer.fence(group_id, member_id))

    def schedule_rebalance_timeout(self, group_id: str, member_id: str, epoch: int, timeout_ms: int) -> None:
        def expire() -> None:
            group = self.state.consumer.get(group_id)
            current = group.current.get(member_id) if group is not None else None
            if current is not None and current["memberEpoch"] == epoch:
                self.consumer.fence(group_id, member_id)

        self.timers.schedule(("rebalance", group_id, member_id), self.clock.now_ms() + max(timeout_ms, 0), expire)

    def cancel_rebalance_timeout(self, group_id: str, member_id: str) -> None:
        self.timers.cancel(("rebalance", group_id, member_id))

    def cancel_member_timers(self, group_id: str, member_id: str) -> None:
        self.timers.cancel(("session", group_id, member_id))
        self.timers.cancel(("rebalance", group_id, member_id))

    def advance(self, ms: int) -> None:
        """Move a manual clock forward by `ms`, firing every timer that falls due, in deadline order."""
        self.advance_to(self.clock.now_ms() + ms)

    def advance_to(self, now_ms: int) -> None:
        clock = self.clock
        if not isinstance(clock, ManualClock):
            raise TypeError("only a manual clock can be advanced; a wall clock fires timers with fire_due()")
        while True:
            deadline = self.timers.next_deadline()
            if deadline is None or deadline > now_ms:
                break
            clock.set(max(deadline, clock.now_ms()))
            self.fire_due()
        clock.set(now_ms)

    def fire_due(self) -> int:
        """Run every timer due now; returns how many fired."""
        fired = 0
        while (due := self.timers.pop_due(self.clock.now_ms())) is not None:
            due[1]()
            self.run_tasks()
            fired += 1
        return fired

    # -- groups -----------------------------------------------------------------------------------

    def group_exists(self, group_id: str) -> bool:
        return group_id in self.classic.groups or group_id in self.state.group_ids()

    def classic_group_is_empty(self, group_id: str) -> bool:
        group = self.classic.groups.get(group_id)
        return group is None or group.state == EMPTY

    def drop_empty_classic_group(self, group_id: str) -> Record:
        """The tombstone that removes an empty classic (or simple) group a consumer group replaces."""
        self.classic.groups.pop(group_id, None)
        return encode_key(2, {"group": group_id}), None

    def validate_classic_commit(self, group_id: str, member_id: str, generation: int,
                                instance_id: str | None = None) -> None:
        """A commit to a classic group, or to a simple one (an Empty classic group without members)."""
        group = self.classic.groups.get(group_id) or ClassicGroup(group_id)
        self.classic.validate_offset_commit(group, member_id, instance_id, generation)

    def heartbeat(self, request: HeartbeatRequest) -> HeartbeatResponse:
        """ConsumerGroupHeartbeat (KIP-848)."""
        return self.consumer.heartbeat(request)

    def join_group(self, request: JoinGroupRequest, respond: JoinCallback) -> None:
        """JoinGroup; `respond` gets the answer now, or when the rebalance completes."""
        self.classic.join(request, respond)

    def sync_group(self, request: SyncGroupRequest, respond: SyncCallback) -> None:
        """SyncGroup; `respond` gets the assignment now, or when the leader sends it."""
        self.classic.sync(request, respond)

    def describe_groups(self, group_ids: Iterable[str], version: int = 5) -> list[DescribedGroup]:
        """DescribeGroups (classic groups)."""
        return self.classic.describe_groups(list(group_ids), version)

    def classic_heartbeat(self, group_id: str, generation_id: int, member_id: str,
                          instance_id: str | None = None) -> int:
        """Heartbeat (classic protocol): the error code."""
        return self.classic.heartbeat(group_id, generation_id, member_id, instance_id)

    def leave_group(self, group_id: str, identities: Iterable[tuple[str, str | None, str | None]]) -> list[LeaveResult]:
        """LeaveGroup (v3+ batch, also the admin path): members by id and/or instance id, with a reason."""
        identities = list(identities)
        if group_id in self.state.consumer:
            return self.consumer.admin_leave(group_id, identities)
        if group_id not in self.classic.groups:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Group {group_id} not found.")
        group = self.classic.groups[group_id]
        held = {m.member_id: m for m in group.members.values()}
        static = dict(group.static)
        out = []
        for (member_id, instance_id, code), (_, _, _reason) in zip(self.classic.leave(group_id, identities),
                                                                  identities, strict=True):
            result = LeaveResult(member_id, instance_id, code)
            if code == 0:
                removed = member_id or static.get(instance_id or "", "")
                result.removed_member_id = removed or None
                member = held.get(removed)
                if member is not None:
                    result.classic_assignment = member.assignment
            out.append(result)
        return out

    def commit_offsets(self, group_id: str, member_id: str, epoch: int, partitions: list[CommitPartition],
                       **options: int) -> list[CommitPartition]:
        try:
            return self.offsets.commit(group_id, member_id, epoch, partitions, **options)
        finally:
            self.run_tasks()

    def fetch_offsets(self, group_id: str, topics: list[tuple[str, list[int]]] | None = None,
                      **options: object) -> list[FetchedOffset]:
        return self.offsets.fetch(group_id, topics, **options)  # type: ignore[arg-type]

    def list_groups(
        self, states: Iterable[str] | None = None, types: Iterable[str] | None = None
    ) -> list[GroupListing]:
        """ListGroups: every group, filtered by state and type (both case-insensitive, as the broker)."""
        want_states = {s.lower() for s in states} if states else None
        want_types = {t.lower() for t in types} if types else None
        out = []
        for group_id in sorted(set(self.state.group_ids()) | self.classic.groups.keys()):
            consumer = self.state.consumer.get(group_id)
            classic = self.classic.groups.get(group_id)
            if consumer is not None:
                listing = GroupListing(group_id, "consumer", consumer.state(), "consumer", len(consumer.member_ids()))
            elif classic is not None:
                listing = GroupListing(group_id, "classic", classic.state, classic.protocol_type or "",
                                       len(classic.members))
            else:
                listing = GroupListing(group_id, "classic", EMPTY, "", 0)
            if want_states is not None and listing.state.lower() not in want_states:
                continue
            if want_types is not None and listing.type not in want_types:
                continue
            out.append(listing)
        return out

    def topic_names(self) -> dict[str, str]:
        """Topic id (base64) -> name, for describing assignments by name."""
        return {uuid_to_kafka(t.topic_id): t.name for t in self.topics}

    def describe(self, group_id: str) -> GroupDescription:
        """The group as `group describe` shows it; GROUP_ID_NOT_FOUND when there is none."""
        classic = self.classic.groups.get(group_id)
        if classic is not None:
            described = self.classic.describe(classic)
            described.offsets = self.state.committed(group_id)
            return described
        try:
            return self.state.describe(group_id, topic_names=self.topic_names())
        except KeyError:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.") from None

    def consumer_group_describe(self, group_ids: Iterable[str]) -> list[ConsumerGroupDescribed]:
        """ConsumerGroupDescribe: per group, the description or the error Kafka returns."""
        out: list[ConsumerGroupDescribed] = []
        for group_id in group_ids:
            if group_id in self.state.consumer:
                out.append((group_id, None, self.describe(group_id)))
            elif self.group_exists(group_id):
                out.append((group_id, KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a consumer group."),
                            None))
            else:
                out.append((group_id, KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found."), None))
        return out

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
        self.append(records)
        return results

    def _validate_delete(self, group_id: str) -> None:
        """`validateDeleteGroup`: a consumer group must be Empty, a classic one Empty (Dead: gone)."""
        if not self.group_exists(group_id):
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.")
        consumer = self.state.consumer.get(group_id)
        if consumer is not None:
            if consumer.state() != EMPTY:
                raise KafkaError("NON_EMPTY_GROUP", "The group is not empty.")
            return
        classic = self.classic.groups.get(group_id)
        if classic is None or classic.state == EMPTY:
            return
        if classic.state == DEAD:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is in dead state.")
        raise KafkaError("NON_EMPTY_GROUP", "The group is not empty.")

    def _offset_tombstones(self, group_id: str) -> list[Record]:
        """`deleteAllOffsets`: committed offsets, then pending transactional ones not also committed."""
        committed = self.state.offsets.get(group_id, {})
        out: list[Record] = [_offset_tombstone(group_id, topic, partition) for topic, partition in sorted(committed)]
        pending = sorted({
            (topic, partition)
            for entries in self.state.pending.values()
            for (gid, topic, partition) in entries
            if gid == group_id and (topic, partition) not in committed
        })
        out += [_offset_tombstone(group_id, topic, partition) for topic, partition in pending]
        return out

    def _group_tombstones(self, group_id: str) -> list[Record]:
        """The group's tombstones as `createGroupTombstoneRecordsAndCancelTimers` writes them."""
        consumer = self.state.consumer.get(group_id)
        if consumer is None:
            classic = self.classic.groups.pop(group_id, None)
            if classic is not None:
                self.timers.cancel(("join", group_id))
                self.timers.cancel(("sync", group_id))
                for member_id in (*classic.members, *classic.pending_join):
                    self.timers.cancel(("heartbeat", group_id, member_id))
            return [(encode_key(2, {"group": group_id}), None)]
        members = consumer.member_ids()
        for member_id in members:
            self.cancel_member_timers(group_id, member_id)
        self.metadata_refresh.discard(group_id)
        out = [rec.current_assignment_tombstone(group_id, m) for m in members]
        out += [rec.target_member_tombstone(group_id, m) for m in members]
        out.append(_group_record_tombstone(6, group_id))
        out += [rec.member_tombstone(group_id, m) for m in members]
        out += [rec.regex_tombstone(group_id, regex) for regex in sorted(consumer.regexes)]
        out.append(_group_record_tombstone(4, group_id))
        out.append(_group_record_tombstone(3, group_id))
        return out

    # -- topics and configs -----------------------------------------------------------------------

    def create_topic(self, name: str, partitions: int, topic_id: uuid.UUID | None = None) -> Topic:
        topic = self.topics.create(name, partitions, topic_id if topic_id is not None else self.ids.uuid())
        self._topics_changed({name})
        return topic

    def add_partitions(self, name: str, total: int) -> Topic:
        topic = self.topics.add_partitions(name, total)
        self._topics_changed({name})
        return topic

    def _topics_changed(self, names: set[str]) -> None:
        """Kafka's `onNewMetadataImage`: groups using a changed topic recompute their metadata."""
        for group_id in self.state.consumer:
            if names & self.state.subscribed_topic_names(group_id):
                self.metadata_refresh.add(group_id)

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


def _offset_tombstone(group_id: str, topic: str, partition: int) -> Record:
    return encode_key(1, {"group": group_id, "topic": topic, "partition": partition}), None


def _group_record_tombstone(record_type: int, group_id: str) -> Record:
    """A tombstone for a consumer group's per-group record (3 epoch, 4 partition metadata, 6 target epoch)."""
    return encode_key(record_type, {"groupId": group_id}), None
