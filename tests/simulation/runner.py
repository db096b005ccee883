"""The scenario runner the coordinator simulations share (tests/coordinator/test_simulation.py for KIP-848,
tests/coordinator/test_simulation_classic.py for classic groups, test_simulation_mixed.py for groups whose
members speak both protocols).

A `Scenario` is one seeded run: its events come from `random.Random(seed)`; after a setup it takes a
random number of weighted actions (`do_<name>` methods), checks its invariants after every step, then
the inputs stop and the group(s) must converge within a bounded simulated time and stay put. Time is
discrete-event: the next instant is the earliest of the clients' next action and the coordinator's
next timer deadline; at an instant due timers fire, then the clients act, then the invariants are
checked. A failover replaces `coord` by `coord.rebuild()` and the clients carry on (they reach the
coordinator through `CurrentCoordinator`).

A failure raises `ScenarioFailure` with the seed, the event log so far and the command that reruns
that seed. `run_chunk` (over `run_seeds`, with a harness's KNOWN_BUGS through `known_bugs`),
`check_replays_identically` and `run_single_seed` are the three tests each harness builds from it. What a
harness keeps for itself: its events, its invariants (`check`), how its clients act (`next_client_action`,
`clients_act`) and what converged means (`convergence_problems`); the events every harness has (time passes, a
topic grows, a topic appears) are here.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.runtime import classic_heartbeat_key

#: The environment variable that selects the seed `run_single_seed` reruns.
SEED_ENV = "GROUPCTL_SIM_SEED"
#: Seeds per test: a failing chunk names its first failure and lists the other failing seeds.
CHUNK = 25
#: The repository root: subprocess reruns start there.
REPO = Path(__file__).resolve().parents[2]


class ScenarioFailure(AssertionError):
    pass


# -- the coordinator's timers, as the harnesses read them ---------------------------------------------------


def classic_session_deadline(coord: Coordinator, group_id: str, member_id: str) -> int | None:
    """When a classic member's session ends (None: no session timer runs for it)."""
    return coord.runtime.timers.deadline(classic_heartbeat_key(group_id, member_id))


def timers_due(coord: Coordinator, t: int) -> list[str]:
    """The coordinator's timers due by `t`, in deadline order, named for the event log."""
    timers = coord.runtime.timers
    return [k for _, k in sorted((timers.deadline(k), str(k)) for k in timers.live_keys()
                                 if (timers.deadline(k) or 0) <= t)]


def log_end(coord: Coordinator) -> int:
    """How many records the coordinator's log holds (a failover keeps the log)."""
    return coord.runtime.log.next_offset


# -- one scenario ---------------------------------------------------------------------------------------------


class CurrentCoordinator:
    """The coordinator as a client process sees it: whichever one the scenario has now, so a failover
    redirects every client."""

    def __init__(self, scenario: Scenario) -> None:
        self._scenario = scenario

    def __getattr__(self, name: str) -> Any:
        return getattr(self._scenario.coord, name)


class Scenario:
    """One seeded run; subclasses add the events (`do_<action>`), invariants and convergence criterion."""

    #: (action, weight) for the random phase: each names a `do_<action>` method.
    ACTIONS: ClassVar[tuple[tuple[str, int], ...]]
    #: The command that reruns one seed, with `{seed_env}` and `{seed}` to fill in.
    RERUN: ClassVar[str]
    #: Once the inputs stop, the scenario must converge within this much simulated time.
    CONVERGE_WITHIN_MS: ClassVar[int]
    #: How far time moves when nothing at all is due.
    IDLE_MS: ClassVar[int]
    #: The steady state after convergence is checked over this much simulated time.
    STEADY_MS: ClassVar[int]
    #: Instants that may go by without the clock moving before the runner calls it a livelock.
    MAX_INSTANTS_AT_ONCE = 200
    #: The topics `do_create_topic` may create, and how many partitions `do_add_partitions` may grow one to.
    TOPIC_POOL: ClassVar[tuple[str, ...]] = ()
    MAX_PARTITIONS: ClassVar[int] = 0

    coord: Coordinator

    def __init__(self, seed: int, *, steps: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.steps = steps if steps is not None else self.rng.randint(40, 120)
        self.events: list[str] = []
        self.stats: Counter[str] = Counter()
        self.step_no = 0
        self.inputs_stopped = False
        self._instant = -1
        self._instants_at_now = 0
        self._rebuilt: Coordinator | None = None
        self._rebuilt_at = -1

    @property
    def now(self) -> int:
        return self.coord.clock.now_ms()

    # -- running ----------------------------------------------------------------------------------------------

    def run(self) -> None:
        """Setup, the random phase, then convergence; any exception is a failure with the seed's event log."""
        try:
            self.setup()
            self.check()
            for _ in range(self.steps):
                self.step_no += 1
                action = self.rng.choices([a for a, _ in self.ACTIONS], [w for _, w in self.ACTIONS])[0]
                getattr(self, f"do_{action}")()
                self.check()
            self.converge()
        except ScenarioFailure:
            raise
        except Exception as exc:  # an exception from the coordinator or a client is a failure too
            self.fail(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")

    def setup(self) -> None:
        """Topics and the first members."""
        raise NotImplementedError

    def check(self) -> None:
        """Every invariant, after every step."""
        raise NotImplementedError

    def fail(self, what: str) -> None:
        raise ScenarioFailure(
            f"seed {self.seed}: {what}\nrerun: {self.rerun_command()}\n"
            f"event log ({len(self.events)} events):\n" + "\n".join(self.events)
        )

    def rerun_command(self) -> str:
        return self.RERUN.format(seed_env=SEED_ENV, seed=self.seed)

    def expect(self, condition: object, what: str | Callable[[], str]) -> None:
        if not condition:
            self.fail(what() if callable(what) else what)

    def note(self, text: str) -> None:
        self.events.append(f"[{self.step_no:03d} t={self.now:>7}] {text}")

    # -- time -------------------------------------------------------------------------------------------------

    def next_client_action(self) -> int | None:
        """When a client (or a process around one) next acts on its own; None: none will."""
        raise NotImplementedError

    def clients_act(self, t: int) -> None:
        """Every client due at `t` acts."""
        raise NotImplementedError

    def fire_timers(self, t: int) -> None:
        """Move the coordinator to `t`: the timers due by then fire (subclasses log what they did)."""
        deadline = self.coord.runtime.timers.next_deadline()
        if t > self.now or (deadline is not None and deadline <= t):
            self.coord.advance_to(t)

    def next_instant(self) -> int | None:
        due = [d for d in (self.next_client_action(), self.coord.runtime.timers.next_deadline()) if d is not None]
        return min(due) if due else None

    def instant(self, t: int) -> None:
        """Time moves to `t`: due timers fire, the clients act, the invariants hold."""
        if t == self._instant:
            self._instants_at_now += 1
            self.expect(self._instants_at_now < self.MAX_INSTANTS_AT_ONCE,
                        f"{self.MAX_INSTANTS_AT_ONCE} instants without the clock moving: a livelock")
        else:
            self._instant, self._instants_at_now = t, 0
        self.fire_timers(t)
        self.clients_act(t)
        self.check()

    def step(self) -> bool:
        """The next instant at which anything is due; False when nothing is."""
        t = self.next_instant()
        if t is None:
            return False
        self.instant(max(t, self.now))
        return True

    def advance_to(self, until: int) -> None:
        """Every instant up to `until`, then the clock at `until`."""
        while (t := self.next_instant()) is not None and t <= until:
            self.instant(max(t, self.now))
        if until > self.now:
            self.coord.advance_to(until)

    def do_advance(self) -> None:
        """Time passes (1 to 20 s); the clients act whenever they are due meanwhile."""
        until = self.now + self.rng.randint(1_000, 20_000)
        self.note(f"time passes until t={until}")
        self.advance_to(until)

    def fail_over(self) -> Coordinator:
        """The coordinator fails over: a new one loads the log and the clients go on with it (they reach it through
        `CurrentCoordinator`). Returns the old one."""
        old = self.coord
        self.coord = old.rebuild()
        return old

    # -- topics -------------------------------------------------------------------------------------------------

    def topics_text(self) -> str:
        return " ".join(f"{t.name}/{t.partitions}" for t in self.coord.topics)

    def create_topic(self, name: str, partitions: int) -> None:
        """A new topic (a harness that dates partitions overrides this and `grow_topic`)."""
        self.coord.create_topic(name, partitions)

    def grow_topic(self, name: str, partitions: int) -> None:
        """A topic grows to `partitions`."""
        self.coord.add_partitions(name, partitions)

    def do_add_partitions(self) -> None:
        """A topic gains 1 to 3 partitions, up to MAX_PARTITIONS."""
        topics = [t for t in self.coord.topics if t.partitions < self.MAX_PARTITIONS]
        if not topics:
            return
        topic = self.rng.choice(topics)
        total = min(self.MAX_PARTITIONS, topic.partitions + self.rng.randint(1, 3))
        self.grow_topic(topic.name, total)
        self.stats["topics grown"] += 1
        self.note(f"{topic.name} grows to {total} partitions")

    def do_create_topic(self) -> None:
        """A topic of TOPIC_POOL that does not exist yet appears, with 1 to 6 partitions."""
        missing = [n for n in self.TOPIC_POOL if n not in self.coord.topics]
        if not missing:
            return
        name = self.rng.choice(missing)
        self.create_topic(name, self.rng.randint(1, 6))
        self.stats["topics created"] += 1
        self.note(f"topic {name} created: {self.topics_text()}")

    # -- replay -----------------------------------------------------------------------------------------------

    def rebuilt(self) -> Coordinator:
        """A coordinator rebuilt from the log from scratch, again whenever the log grew (an unchanged log
        replays the same: replay is a function of the log)."""
        size = log_end(self.coord)
        if self._rebuilt is None or size != self._rebuilt_at:
            self._rebuilt, self._rebuilt_at = self.coord.rebuild(), size
        return self._rebuilt

    # -- convergence ------------------------------------------------------------------------------------------

    def stop_inputs(self) -> None:
        """The random phase is over: clients drop their injected faults (subclasses)."""

    def pending(self) -> bool:
        """Something the scenario set in motion has still to happen (a restart, a wake-up)."""
        return False

    def convergence_problems(self) -> list[str]:
        """Why the scenario has not converged (empty: it has)."""
        raise NotImplementedError

    def converged(self) -> bool:
        return not self.convergence_problems()

    def describe(self) -> str:
        """The group(s), for a convergence failure."""
        return ""

    def converge(self) -> None:
        """Inputs stop; convergence within CONVERGE_WITHIN_MS, then a steady state that writes nothing."""
        self.step_no += 1
        self.inputs_stopped = True
        self.stop_inputs()
        started = self.now
        deadline = started + self.CONVERGE_WITHIN_MS
        while self.pending() or not self.converged():
            if not self.step():
                self.advance_to(self.now + self.IDLE_MS)
            if self.now > deadline:
                self.fail(f"not converged {self.CONVERGE_WITHIN_MS} ms after the inputs stopped: "
                          f"{'; '.join(self.convergence_problems())}\n{self.describe()}")
        self.stats["max convergence ms"] = max(self.stats["max convergence ms"], self.now - started)
        self.after_convergence()
        written = self.coord.runtime.records_written
        before = self.steady_marks()
        self.advance_to(self.now + self.STEADY_MS)
        self.expect(self.converged(), lambda: f"converged, then not: {'; '.join(self.convergence_problems())}")
        self.expect(self.steady_marks() == before, lambda: f"the steady state moved: {before} -> "
                                                           f"{self.steady_marks()}")
        self.expect(self.coord.runtime.records_written == written,
                    f"steady heartbeats wrote {self.coord.runtime.records_written - written} records")

    def after_convergence(self) -> None:
        """Note the converged state (subclasses)."""

    def steady_marks(self) -> object:
        """What may not move in the steady state besides the log (e.g. a generation)."""
        return None


# -- the tests a harness builds from it -----------------------------------------------------------------------


def chunks(scenarios: int) -> Any:
    """`@chunks(N)`: a test parametrized over the first seed of each CHUNK of `range(N)`."""
    return pytest.mark.parametrize("first", range(0, scenarios, CHUNK), ids=lambda s: f"seeds{s}-{s + CHUNK - 1}")


def run_seeds(make: Callable[[int], Scenario], seeds: range,
              known_bug: Callable[[str], str | None] = lambda _: None, *, stacklevel: int = 2) -> Counter[str]:
    """Run every seed; fail with the first failure (naming the others), warn about seeds stopped by known bugs
    (the warning names the line `stacklevel` frames up: the test's). Returns the scenarios' stats summed ("max ..."
    entries: the maximum)."""
    failures: list[tuple[int, str]] = []
    known: dict[str, list[int]] = {}
    stats: Counter[str] = Counter()
    for seed in seeds:
        scenario = make(seed)
        try:
            scenario.run()
        except ScenarioFailure as exc:
            bug = known_bug(str(exc))
            if bug is None:
                failures.append((seed, str(exc)))
            else:
                known.setdefault(bug, []).append(seed)
        for key, value in scenario.stats.items():
            stats[key] = max(stats[key], value) if key.startswith("max ") else stats[key] + value
    if failures:
        others = ", ".join(str(s) for s, _ in failures[1:])
        pytest.fail(failures[0][1] + (f"\n\nalso failing in this chunk: seeds {others}" if others else ""),
                    pytrace=False)
    if known:
        warnings.warn("seeds stopped by known bugs: " + "; ".join(f"{bug}: {seeds}" for bug, seeds in known.items()),
                      stacklevel=stacklevel)
    return stats


def known_bugs(patterns: dict[str, re.Pattern[str]]) -> Callable[[str], str | None]:
    """`run_seeds`' `known_bug` for a harness's KNOWN_BUGS (name -> pattern): the bug whose pattern a failure's
    first line matches."""
    def known_bug(message: str) -> str | None:
        first = message.split("\n", 1)[0]
        return next((name for name, pattern in patterns.items() if pattern.search(first)), None)
    return known_bug


def run_chunk(make: Callable[[int], Scenario], first: int, scenarios: int,
              known_bug: Callable[[str], str | None] = lambda _: None, must_exercise: tuple[str, ...] = ()) -> None:
    """`run_seeds` over the CHUNK of `range(scenarios)` that starts at `first`. A whole chunk must have counted
    each stat of `must_exercise` at least once, so that a change to the weights cannot make a check vacuous."""
    stats = run_seeds(make, range(first, min(first + CHUNK, scenarios)), known_bug, stacklevel=3)
    if scenarios - first >= CHUNK:
        missing = [k for k in must_exercise if not stats[k]]
        assert not missing, f"seeds {first}..{first + CHUNK - 1} never exercised: {missing}; stats {dict(stats)}"


def check_replays_identically(test_file: str, seed: int) -> None:
    """The rerun command must reproduce a failure: a scenario may not depend on hash randomization (set iteration
    order). Two processes with different PYTHONHASHSEEDs run `seed` and must log the same events."""
    logs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, **{SEED_ENV: str(seed)})
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-p", "no:randomly", test_file,
             "-k", "single_seed"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        logs.append([line for line in done.stdout.splitlines() if line.startswith("[")])
    assert logs[0] and logs[0] == logs[1]


def run_single_seed(make: Callable[[int], Scenario]) -> None:
    """Rerun the scenario SEED_ENV names (skip without it), printing its event log (`-s` shows it)."""
    if SEED_ENV not in os.environ:
        pytest.skip(f"set {SEED_ENV} to rerun one scenario")
    seed = int(os.environ[SEED_ENV])
    scenario = make(seed)
    started = time.perf_counter()
    try:
        scenario.run()
    finally:
        stats = f", stats {dict(sorted(scenario.stats.items()))}" if scenario.stats else ""
        print(f"seed {seed}: {len(scenario.events)} events, {time.perf_counter() - started:.2f}s{stats}")
        print("\n".join(scenario.events))
