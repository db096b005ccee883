"""The rolling bounce: every member of a stable group restarts in turn, as a deployment rolls out.

This is the scenario KIP-345 was written for: a dynamic member's restart rebalances the group twice
(it leaves, then joins as someone new), while a static member that is back within the session
timeout takes its old place and assignment without a rebalance. The run measures what the group
went through: generation or group-epoch bumps, partitions that changed hands, and how long each
partition had no consumer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.configs import GroupConfigs
from groupctl.coordinator.coordinator import CLASSIC_DEFAULTS, Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.state import assignment_map
from groupctl.errors import KafkaError
from groupctl.model import GroupState, TopicPartition
from groupctl.simulation.clients import (
    HEARTBEAT_INTERVAL_MS,
    MAX_POLL_INTERVAL_MS,
    STABLE,
    ClassicClient,
    ConsumerClient,
    SimulatedClient,
    assignment_partitions,
)
from groupctl.simulation.driver import STEP_MS, VirtualTimeDriver
from groupctl.simulation.ownership import OwnershipTracker

PROTOCOLS = ("classic", "consumer")
MEMBERSHIPS = ("static", "dynamic")
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

    @property
    def membership(self) -> str:
        return "static" if self.static else "dynamic"

    def validate(self) -> None:
        """Raise SettingsError for the first setting a run cannot use."""
        if self.protocol not in PROTOCOLS:
            raise SettingsError("protocol", f"must be one of {', '.join(PROTOCOLS)} (got {self.protocol!r})")
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
        if self.protocol == "consumer":
            try:
                GroupConfigs().plan(GROUP_ID, {"consumer.session.timeout.ms": self.session_timeout_ms})
            except KafkaError as exc:
                raise SettingsError(
                    "session_timeout_ms",
                    f"{self.session_timeout_ms} cannot be the KIP-848 group's consumer.session.timeout.ms: the broker "
                    f"answers INVALID_CONFIG ({exc.message}); its defaults allow 45000..60000 ms (classic runs "
                    "accept 6000..1800000)",
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
        if settings.protocol == "consumer":
            self.coord.alter_configs(GROUP_ID, {"consumer.session.timeout.ms": settings.session_timeout_ms})
        self.tracker = OwnershipTracker([(TOPIC, p) for p in range(settings.partitions)])
        self.anomalies: list[str] = []
        rng = random.Random(settings.seed)
        client_ids = IdGenerator(rng.getrandbits(64))  # member ids KIP-848 clients generate themselves
        self.clients: list[SimulatedClient] = []
        for i in range(settings.members):
            name = f"member-{i}"
            instance_id = name if settings.static else None
            client: SimulatedClient
            if settings.protocol == "classic":
                # One consumer per JVM: every pod's default client.id is the same, so dynamic member ids
                # (client.id + "-" + UUID) sort at random, as they do in production.
                client = ClassicClient(self.coord, name, GROUP_ID, [TOPIC], instance_id=instance_id,
                                       session_timeout_ms=settings.session_timeout_ms,
                                       client_id=f"consumer-{GROUP_ID}-1", observe=self.tracker.change,
                                       anomalies=self.anomalies)
            else:
                client = ConsumerClient(self.coord, name, GROUP_ID, [TOPIC], instance_id=instance_id, ids=client_ids,
                                        observe=self.tracker.change, anomalies=self.anomalies)
            self.clients.append(client)
        # Pods come up spread over a heartbeat interval, so their heartbeats are not in lockstep.
        self.start_at = [rng.randrange(0, HEARTBEAT_INTERVAL_MS, STEP_MS) for _ in self.clients]
        self.settle_limit_ms = settings.session_timeout_ms + 2 * MAX_POLL_INTERVAL_MS

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
        began, epoch_before = self.now, self.epoch()
        converged = True
        # A StatefulSet's rolling update goes from the highest ordinal down.
        for client in reversed(self.clients):
            client.stop()
            self.tick_all()
            self.run_until(self.now + self.settings.restart_time_ms)
            client.start()
            self.tick_all()
            if not self._settle():
                converged = False
                self.anomalies.append(f"{self.now} ms: the group did not settle within {self.settle_limit_ms} ms "
                                      f"of {client.name}'s restart")
        unowned = self.tracker.unowned_totals(self.now)
        self.anomalies.extend(self.tracker.conflicts)
        epoch_after = self.epoch()
        return BounceResult(
            self.settings, epoch_after - epoch_before, self.tracker.moves, max(unowned.values()),
            sum(unowned.values()), epoch_before, epoch_after, self.now - began, converged, self.final_assignment(),
            self.anomalies,
        )

    # -- time -------------------------------------------------------------------------------------

    def _settle(self) -> bool:
        return self.run_until(self.now + self.settle_limit_ms, self.converged)

    # -- the group --------------------------------------------------------------------------------

    def epoch(self) -> int:
        """The classic generation or the KIP-848 group epoch."""
        if self.settings.protocol == "classic":
            group = self.coord.classic.groups.get(GROUP_ID)
            return group.generation if group is not None else 0
        state = self.coord.state.consumer.get(GROUP_ID)
        return state.epoch if state is not None else 0

    def converged(self) -> bool:
        """Stable, every running client a member of the current generation/epoch, owning what the coordinator says."""
        running = [c for c in self.clients if c.running]
        if self.settings.protocol == "classic":
            group = self.coord.classic.groups.get(GROUP_ID)
            if group is None or group.state != GroupState.STABLE or group.pending_join:
                return False
            if len(group.members) != len(running):
                return False
            for c in running:
                member = group.members.get(c.member_id)
                if not isinstance(c, ClassicClient) or member is None or c.state != STABLE \
                        or c.generation != group.generation:
                    return False
                if c.owned != assignment_partitions(member.assignment):
                    return False
            return True
        state = self.coord.state.consumer.get(GROUP_ID)
        if state is None or state.state() != GroupState.STABLE or len(state.member_ids()) != len(running):
            return False
        for c in running:
            current = state.current.get(c.member_id)
            if not isinstance(c, ConsumerClient) or current is None or c.epoch != current["memberEpoch"]:
                return False
            if c.owned_ids != assignment_map(current["assignedPartitions"]):
                return False
        return True

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
