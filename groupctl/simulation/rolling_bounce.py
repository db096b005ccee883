"""The rolling bounce: every member of a stable group restarts in turn, as a deployment rolls out.

This is the scenario KIP-345 was written for: a dynamic member's restart rebalances the group twice
(it leaves, then joins as someone new), while a static member that is back within the session
timeout takes its old place and assignment without a rebalance. The run measures what the group
went through: generation or group-epoch bumps, partitions that changed hands, and how long each
partition had no consumer.

A migration (`migrate`) is the same rollout with `group.protocol` flipped: each classic member
comes back speaking the consumer protocol (upgrade), or each consumer-protocol member comes back
speaking classic (downgrade), so the coordinator converts the group on the way (KIP-848's online
migration); the run also says when the group changed type.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.configs import GroupConfigs
from groupctl.coordinator.coordinator import CLASSIC_DEFAULTS, Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.errors import KafkaError
from groupctl.model import GroupState, TopicPartition
from groupctl.simulation.clients import (
    CLIENT_STABLE,
    HEARTBEAT_INTERVAL_MS,
    MAX_POLL_INTERVAL_MS,
    ClassicClient,
    ConsumerClient,
    SimulatedClient,
    assignment_partitions,
)
from groupctl.simulation.driver import STEP_MS, VirtualTimeDriver
from groupctl.simulation.ownership import OwnershipTracker

PROTOCOLS = ("classic", "consumer")
MEMBERSHIPS = ("static", "dynamic")
#: A migration, by the protocol its members speak before and after their restart.
MIGRATIONS = {"upgrade": ("classic", "consumer"), "downgrade": ("consumer", "classic")}
GROUP_ID = "rolling-bounce"
TOPIC = "orders"
#: session.timeout.ms's default in the Java consumer (and the broker's KIP-848 default).
DEFAULT_SESSION_TIMEOUT_MS = 45_000
#: A JVM service restarting in place: close, process exit, start, first poll; well inside 45 s.
DEFAULT_RESTART_TIME_MS = 10_000
#: Larger groups make a run take minutes: the coordinator's classic JoinGroup handling is quadratic in members.
MAX_MEMBERS = 200
MAX_PARTITIONS = 100_000
#: At most one hour down per restart: enough to show a static member outliving its session timeout.
MAX_RESTART_TIME_MS = 3_600_000


class SettingsError(ValueError):
    """A setting the scenario cannot run with; `setting` names the field."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


@dataclass(frozen=True, slots=True)
class BounceSettings:
    members: int = 10
    partitions: int = 30
    protocol: str = "classic"
    static: bool = True
    session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS
    restart_time_ms: int = DEFAULT_RESTART_TIME_MS
    seed: int = 0
    migrate: str | None = None  # None, or a key of MIGRATIONS (then `protocol` is the one it starts from)

    @property
    def membership(self) -> str:
        return "static" if self.static else "dynamic"

    @property
    def protocols(self) -> tuple[str, str]:
        """The protocol the members speak before their restart, and after it."""
        return MIGRATIONS[self.migrate] if self.migrate is not None else (self.protocol, self.protocol)

    @classmethod
    def migration(cls, migrate: str, **settings: object) -> BounceSettings:
        """The settings of a migration: `protocol` is the one it starts from."""
        if migrate not in MIGRATIONS:
            raise SettingsError("migrate", f"must be one of {', '.join(MIGRATIONS)} (got {migrate!r})")
        return cls(protocol=MIGRATIONS[migrate][0], migrate=migrate,
                   **settings)  # type: ignore[arg-type]  # the other fields, each of its own type

    def validate(self) -> None:
        """Raise SettingsError for the first setting a run cannot use."""
        if self.protocol not in PROTOCOLS:
            raise SettingsError("protocol", f"must be one of {', '.join(PROTOCOLS)} (got {self.protocol!r})")
        if self.migrate is not None and self.migrate not in MIGRATIONS:
            raise SettingsError("migrate", f"must be one of {', '.join(MIGRATIONS)} (got {self.migrate!r})")
        if self.migrate is not None and self.protocol != MIGRATIONS[self.migrate][0]:
            raise SettingsError("protocol", f"must be {MIGRATIONS[self.migrate][0]} for a migration by "
                                            f"{self.migrate}, which starts from it (got {self.protocol!r})")
        if not 1 <= self.members <= MAX_MEMBERS:
            raise SettingsError("members", f"must be between 1 and {MAX_MEMBERS} (got {self.members})")
        if not 1 <= self.partitions <= MAX_PARTITIONS:
            raise SettingsError("partitions", f"must be between 1 and {MAX_PARTITIONS} (got {self.partitions})")
        if not 0 <= self.restart_time_ms <= MAX_RESTART_TIME_MS:
            raise SettingsError("restart_time_ms",
                                f"must be between 0 and {MAX_RESTART_TIME_MS} ms (got {self.restart_time_ms})")
        low = CLASSIC_DEFAULTS["group.min.session.timeout.ms"]
        high = CLASSIC_DEFAULTS["group.max.session.timeout.ms"]
        if not low <= self.session_timeout_ms <= high:
            raise SettingsError(
                "session_timeout_ms",
                f"must be between {low} and {high} ms, the broker's group.min.session.timeout.ms and "
                f"group.max.session.timeout.ms (got {self.session_timeout_ms}); a classic JoinGroup outside them "
                "gets INVALID_SESSION_TIMEOUT",
            )
        if "consumer" in self.protocols:
            try:
                GroupConfigs().plan(GROUP_ID, {"consumer.session.timeout.ms": self.session_timeout_ms})
            except KafkaError as exc:
                raise SettingsError(
                    "session_timeout_ms",
                    f"{self.session_timeout_ms} cannot be the KIP-848 group's consumer.session.timeout.ms: the broker "
                    f"answers INVALID_CONFIG ({exc.message}); its defaults allow 45000..60000 ms (classic runs "
                    "accept 6000..1800000; a migration runs both protocols)",
                ) from None


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    """What one process consumed when the bounce ended."""

    member: str  # the process (pod) name, stable across restarts
    instance_id: str | None
    member_id: str
    partitions: tuple[TopicPartition, ...]


@dataclass(slots=True)
class BounceResult:
    settings: BounceSettings
    rebalances: int  # generation (classic) or group epoch (consumer) bumps from the first stop to the end
    partition_moves: int
    max_unowned_ms: int  # the largest total time any one partition had no consumer
    total_unowned_ms: int
    epoch_before: int
    epoch_after: int
    bounce_ms: int  # virtual time from the first stop until the group settled after the last start
    converged: bool  # the group settled after every restart within the bound
    assignment: list[MemberAssignment]
    anomalies: list[str] = field(default_factory=list)  # errors a healthy run never sees
    group_type_before: str | None = None  # "classic" or "consumer" once stable, before the first stop
    group_type_after: str | None = None
    converted_at_restart: int | None = None  # the restart (1, 2, ...) during which the group changed type
    converted_at_ms: int | None = None  # virtual time from the first stop until the group changed type

    @property
    def protocol(self) -> str:
        return self.settings.protocol

    @property
    def membership(self) -> str:
        return self.settings.membership

    @property
    def mean_unowned_ms(self) -> float:
        return self.total_unowned_ms / self.settings.partitions


class RollingBounce(VirtualTimeDriver):
    """One run: a coordinator on a manual clock, one topic, N clients, then each restarted in turn."""

    def __init__(self, settings: BounceSettings) -> None:
        settings.validate()
        self.settings = settings
        self.coord = Coordinator(clock=ManualClock(), ids=IdGenerator(settings.seed))
        self.coord.create_topic(TOPIC, settings.partitions)
        if "consumer" in settings.protocols:
            self.coord.alter_configs(GROUP_ID, {"consumer.session.timeout.ms": settings.session_timeout_ms})
        self.tracker = OwnershipTracker([(TOPIC, p) for p in range(settings.partitions)])
        self.anomalies: list[str] = []
        rng = random.Random(settings.seed)
        self.client_ids = IdGenerator(rng.getrandbits(64))  # member ids KIP-848 clients generate themselves
        self.clients = [self.client(f"member-{i}", settings.protocols[0]) for i in range(settings.members)]
        # Pods come up spread over a heartbeat interval, so their heartbeats are not in lockstep.
        self.start_at = [rng.randrange(0, HEARTBEAT_INTERVAL_MS, STEP_MS) for _ in self.clients]
        self.settle_limit_ms = settings.session_timeout_ms + 2 * MAX_POLL_INTERVAL_MS
        # What the group went through since the first stop: epoch bumps, and when it changed type.
        self.counting = False
        self.seen: tuple[str | None, int] = (None, 0)
        self.bumps = 0
        self.restart = 0
        self.began = 0
        self.converted: tuple[int, int] | None = None  # (restart, ms since the first stop)

    def client(self, name: str, protocol: str) -> SimulatedClient:
        """A pod's consumer speaking `protocol` (a static one's instance id is the pod's name)."""
        instance_id = name if self.settings.static else None
        if protocol == "classic":
            # One consumer per JVM: every pod's default client.id is the same, so dynamic member ids
            # (client.id + "-" + UUID) sort at random, as they do in production.
            return ClassicClient(self.coord, name, GROUP_ID, [TOPIC], instance_id=instance_id,
                                 session_timeout_ms=self.settings.session_timeout_ms,
                                 client_id=f"consumer-{GROUP_ID}-1", observe=self.tracker.change,
                                 anomalies=self.anomalies)
        return ConsumerClient(self.coord, name, GROUP_ID, [TOPIC], instance_id=instance_id, ids=self.client_ids,
                              observe=self.tracker.change, anomalies=self.anomalies)

    def active_clients(self) -> list[SimulatedClient]:
        return self.clients

    def run(self) -> BounceResult:
        for at, client in sorted(zip(self.start_at, self.clients, strict=True), key=lambda pair: pair[0]):
            self.run_until(at)
            client.start()
            self.tick_all()
        if not self._settle():
            self.anomalies.append(f"{self.now} ms: the group did not become stable before the bounce")
        self.tracker.begin(self.now)
        self.began, epoch_before = self.now, self.epoch()
        type_before = self.group_type()
        self.seen, self.counting = (type_before, epoch_before), True
        converged = True
        after = self.settings.protocols[1]
        # A StatefulSet's rolling update goes from the highest ordinal down.
        for i in reversed(range(len(self.clients))):
            self.restart += 1
            old = self.clients[i]
            old.stop()
            self.tick_all()
            self.run_until(self.now + self.settings.restart_time_ms)
            new = self.clients[i] = old if old.protocol == after else self.client(old.name, after)
            new.start()
            self.tick_all()
            if not self._settle():
                converged = False
                self.anomalies.append(f"{self.now} ms: the group did not settle within {self.settle_limit_ms} ms "
                                      f"of {new.name}'s restart")
        unowned = self.tracker.unowned_totals(self.now)
        self.anomalies.extend(self.tracker.conflicts)
        converted_at = self.converted or (None, None)
        return BounceResult(
            self.settings, self.bumps, self.tracker.moves, max(unowned.values()), sum(unowned.values()),
            epoch_before, self.epoch(), self.now - self.began, converged, self.final_assignment(), self.anomalies,
            type_before, self.group_type(), *converted_at,
        )

    # -- time -------------------------------------------------------------------------------------

    def tick_all(self) -> None:
        super().tick_all()
        self.note_group()

    def _settle(self) -> bool:
        return self.run_until(self.now + self.settle_limit_ms, self.converged)

    # -- the group --------------------------------------------------------------------------------

    def group_type(self) -> str | None:
        """"consumer", "classic", or None before any member joined."""
        if self.coord.consumer_group(GROUP_ID) is not None:
            return "consumer"
        return "classic" if self.coord.classic_group(GROUP_ID) is not None else None

    def epoch(self) -> int:
        """The classic generation or the KIP-848 group epoch, whichever type the group has now."""
        state = self.coord.consumer_group(GROUP_ID)
        if state is not None:
            return state.epoch
        group = self.coord.classic_group(GROUP_ID)
        return group.generation if group is not None else 0

    def note_group(self) -> None:
        """Count epoch bumps since the first stop, across conversions (which keep the epoch) and replacements of
        an Empty group by one of the other type (whose epochs start again), and note the first change of type."""
        if not self.counting:
            return
        kind, epoch = self.group_type(), self.epoch()
        last_kind, last_epoch = self.seen
        self.bumps += epoch - last_epoch if kind == last_kind or epoch >= last_epoch else epoch
        if kind != last_kind and self.converted is None:
            self.converted = (self.restart, self.now - self.began)
        self.seen = (kind, epoch)

    def converged(self) -> bool:
        """Stable, every running client a member of the current generation/epoch, owning what the coordinator says."""
        running = [c for c in self.clients if c.running]
        state = self.coord.consumer_group(GROUP_ID)
        if state is not None:
            if state.state != GroupState.STABLE or len(state.members) != len(running):
                return False
            for c in running:
                held = state.members.get(c.member_id)
                current = held.current if held is not None else None
                if current is None:
                    return False
                assigned = current.assigned
                if isinstance(c, ConsumerClient):
                    if c.epoch != current.member_epoch or c.owned_ids != assigned:
                        return False
                elif isinstance(c, ClassicClient) and (
                    c.state != CLIENT_STABLE or c.generation != current.member_epoch
                    or c.owned != self.names(assigned)
                ):
                    return False
            return True
        group = self.coord.classic_group(GROUP_ID)
        if group is None or group.state != GroupState.STABLE or group.pending_join:
            return False
        if len(group.members) != len(running):
            return False
        for c in running:
            member = group.members.get(c.member_id)
            if not isinstance(c, ClassicClient) or member is None or c.state != CLIENT_STABLE \
                    or c.generation != group.generation:
                return False
            if c.owned != assignment_partitions(member.assignment):
                return False
        return True

    def names(self, assignment: Mapping) -> frozenset[tuple[str, int]]:
        by_id = {t.topic_id: t.name for t in self.coord.topics}
        return frozenset((by_id[t], p) for t, ps in assignment.items() for p in ps)

    def final_assignment(self) -> list[MemberAssignment]:
        return [
            MemberAssignment(c.name, c.instance_id, c.member_id,
                             tuple(TopicPartition(t, p) for t, p in sorted(c.owned)))
            for c in self.clients
        ]


def run_rolling_bounce(settings: BounceSettings) -> BounceResult:
    return RollingBounce(settings).run()


def compare_settings(settings: BounceSettings) -> list[BounceSettings]:
    """The four runs of `--compare`: classic and consumer, each static then dynamic."""
    return [replace(settings, protocol=p, static=m == "static") for p in PROTOCOLS for m in MEMBERSHIPS]
