"""What every protocol handler shares, and the one place records reach the log.

Kafka splits this between `CoordinatorRuntime` (the log, the timer, the executor) and the shard's
context; here one `Runtime` holds the clock and timers, seeded ids, topics, group configs, the
replayed `CoordinatorState`, the log, deferred tasks and the broker settings. Handlers read it and
return a `Result`; only `Runtime.complete` appends, once per request, timer firing or task.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from groupctl.coordinator.clock import Clock, ManualClock, Timers
from groupctl.coordinator.configs import GroupConfigs
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.layout import NEWEST, kafka_version, writes_partition_metadata
from groupctl.coordinator.log import MemoryLog, Record, RecordLog
from groupctl.coordinator.share.starts import ShareStarts
from groupctl.coordinator.state import CoordinatorState
from groupctl.coordinator.topics import TopicImage

T = TypeVar("T")
#: The answer a parked request gets.
A = TypeVar("A")

#: `group.consumer.assignors` default; the first is the default assignor.
DEFAULT_ASSIGNORS = ("uniform", "range")
#: The broker settings of classic groups, with Kafka's defaults.
CLASSIC_DEFAULTS: dict[str, int] = {
    "group.min.session.timeout.ms": 6000,
    "group.max.session.timeout.ms": 1800000,
    "group.initial.rebalance.delay.ms": 3000,
    "group.max.size": 2**31 - 1,
}

# -- timer keys ------------------------------------------------------------------------------------
# The values are what the local backend persists in DIR's timers.json: changing one orphans the timers
# of every existing directory.

#: The first element of every timer key the coordinator schedules.
TIMER_KINDS = ("session", "heartbeat", "rebalance", "join", "sync", "member-join", "member-sync", "share-session")


def classic_join_key(group_id: str) -> tuple[str, str]:
    """A classic group's join phase (initial delay, or the rebalance timeout of PreparingRebalance)."""
    return ("join", group_id)


def classic_sync_key(group_id: str) -> tuple[str, str]:
    """A classic group's CompletingRebalance: members that did not SyncGroup in time are removed."""
    return ("sync", group_id)


def classic_heartbeat_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A classic member's (or pending member's) session."""
    return ("heartbeat", group_id, member_id)


def session_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A KIP-848 member's session."""
    return ("session", group_id, member_id)


def rebalance_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A KIP-848 member's time to revoke what it was asked to."""
    return ("rebalance", group_id, member_id)


def share_session_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A share member's session."""
    return ("share-session", group_id, member_id)


def member_join_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A classic-protocol member of a consumer group told to rejoin: fenced if it does not in time."""
    return ("member-join", group_id, member_id)


def member_sync_key(group_id: str, member_id: str) -> tuple[str, str, str]:
    """A classic-protocol member of a consumer group that joined: fenced if it does not SyncGroup in time."""
    return ("member-sync", group_id, member_id)


# -- migration policy ------------------------------------------------------------------------------

#: `group.consumer.migration.policy` values (Kafka's ConsumerGroupMigrationPolicy), with what each allows.
MIGRATION_POLICIES: dict[str, tuple[bool, bool]] = {
    "disabled": (False, False), "upgrade": (True, False), "downgrade": (False, True), "bidirectional": (True, True),
}
DEFAULT_MIGRATION_POLICY = "bidirectional"


def migration_policy(value: str) -> str:
    """The policy named by `value` (any case, as the broker parses it), or ValueError naming the choices."""
    name = value.strip().lower()
    if name not in MIGRATION_POLICIES:
        raise ValueError(
            f"group.consumer.migration.policy must be one of {', '.join(MIGRATION_POLICIES)}, not {value!r}"
        )
    return name


# -- who asked -------------------------------------------------------------------------------------

#: The API version of a caller that names none: int16's maximum, so every "from version N" rule applies.
LATEST_VERSION = 2**15 - 1


@dataclass(frozen=True, slots=True)
class Caller:
    """What the coordinator needs about a request beyond its wire body, passed beside it as Kafka passes
    a `RequestContext` beside the request data: the client's id and address (recorded on its member)
    and the API version whose rules apply."""

    client_id: str = "groupctl"
    client_host: str = "/127.0.0.1"
    api_version: int = LATEST_VERSION


#: The caller of a request that says nothing about itself (a test, a local command).
DEFAULT_CALLER = Caller()


# -- results ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class Result(Generic[T]):
    """What an operation produced: its answer, the records to append, the parked requests it completes.

    `replies` run after the records are written, as Kafka completes responses after the write.
    """

    response: T = None  # type: ignore[assignment]  # a Result[None] (records only) leaves it out
    records: list[Record] = field(default_factory=list)
    replies: list[Callable[[], None]] = field(default_factory=list)

    def reply(self, respond: Callable[[A], None], answer: A) -> None:
        """Answer a parked request once the records are written."""
        self.replies.append(lambda: respond(answer))

    def merge(self, other: Result) -> None:
        self.records += other.records
        self.replies += other.replies


Action = Callable[[], Result]


class Runtime:
    """The coordinator's infrastructure; handlers get this, never the router."""

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
        migration: str = DEFAULT_MIGRATION_POLICY,
        kafka: str = NEWEST,
        share_starts: ShareStarts | None = None,
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
        unknown = set(classic_settings or {}) - set(CLASSIC_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown classic group settings: {', '.join(sorted(unknown))}")
        self.classic_settings = {**CLASSIC_DEFAULTS, **(classic_settings or {})}
        self.migration = migration_policy(migration)
        self.kafka_version = kafka_version(kafka)
        #: Kafka 4.0's layout: type-4 partition metadata, type 3 without MetadataHash, OffsetCommitValue v3.
        self.kafka_40_records = writes_partition_metadata(self.kafka_version)
        self.state = CoordinatorState()
        #: The share coordinator's share-partition states (not in `__consumer_offsets`; see `share.starts`).
        self.share_starts = share_starts if share_starts is not None else ShareStarts()
        self.timers: Timers[Result] = Timers()
        self.metadata_refresh: set[str] = set()
        self.records_written = 0
        self._tasks: dict[str, Action] = {}

    def now_ms(self) -> int:
        return self.clock.now_ms()

    @property
    def upgrade_enabled(self) -> bool:
        return MIGRATION_POLICIES[self.migration][0]

    @property
    def downgrade_enabled(self) -> bool:
        return MIGRATION_POLICIES[self.migration][1]

    def load(self) -> None:
        """Replay the log into the state (a failover, or a directory reopened)."""
        for record in self.log.read():
            self.state.apply(record)

    def complete(self, result: Result) -> None:
        """Append the result's records, then answer what it completed, then run the deferred tasks."""
        self._append(result.records)
        for reply in result.replies:
            reply()
        self.run_tasks()

    def _append(self, records: Sequence[Record]) -> None:
        """Write records to the log and apply them as read back: the only way replayed state changes."""
        if not records:
            return
        for decoded in self.log.append(records, self.clock.now_ms()):
            self.state.apply(decoded)
        self.records_written += len(records)

    def schedule_task(self, key: str, action: Action) -> None:
        """Kafka's background executor, run at the end of the current request (deterministic)."""
        self._tasks.setdefault(key, action)

    def run_tasks(self) -> None:
        while self._tasks:
            key = next(iter(self._tasks))
            action = self._tasks.pop(key)
            result = action()
            self._append(result.records)
            for reply in result.replies:
                reply()

    def schedule(self, key: Hashable, deadline_ms: int, action: Action) -> None:
        """A timer whose action returns a result; `fire_due` completes it."""
        self.timers.schedule(key, deadline_ms, action)

    def fire_due(self) -> int:
        """Run every timer due now, completing each one's result; returns how many fired."""
        fired = 0
        while (due := self.timers.pop_due(self.clock.now_ms())) is not None:
            self.complete(due[1]())
            fired += 1
        return fired
