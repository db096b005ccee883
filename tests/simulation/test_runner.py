"""The shared scenario runner on a toy scenario: the time loop's order, failure reports, run_seeds' and run_chunk's
verdicts, the topic events every harness shares."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from tests.simulation import runner
from tests.simulation.runner import ScenarioFailure

TICK_MS = 1_000


class Counting(runner.Scenario):
    """A client that counts on a fixed interval; the invariant is a cap on the count, the convergence goal a
    count to reach. Knobs make each part of the runner fail on purpose."""

    ACTIONS = (("tick", 3), ("advance", 1), ("noop", 1))
    RERUN = "{seed_env}={seed} python3 -m pytest tests/simulation/test_runner.py"
    CONVERGE_WITHIN_MS = 30_000
    IDLE_MS = TICK_MS
    STEADY_MS = 3 * TICK_MS

    def __init__(self, seed: int, *, cap: int = 10_000, goal: int = 0, boom_at: int | None = None,
                 stuck: bool = False) -> None:
        super().__init__(seed, steps=20)
        self.coord = Coordinator(clock=ManualClock(), ids=IdGenerator(seed))
        self.cap, self.goal, self.boom_at, self.stuck = cap, goal, boom_at, stuck
        self.count = 0
        self.next_at = 0
        self.checks = 0
        self.acted_at: list[int] = []

    def setup(self) -> None:
        self.note("starts")

    def check(self) -> None:
        self.checks += 1
        self.expect(self.count <= self.cap, f"count {self.count} over the cap {self.cap}")

    def next_client_action(self) -> int | None:
        return self.next_at

    def clients_act(self, t: int) -> None:
        if self.next_at <= t:
            self.count += 1
            self.acted_at.append(t)
            self.note(f"count {self.count}")
            if self.count == self.boom_at:
                raise RuntimeError("the client broke")
            self.next_at = t if self.stuck else t + TICK_MS

    def do_tick(self) -> None:
        self.step()

    def do_advance(self) -> None:
        self.advance_to(self.now + 2_500)

    def do_noop(self) -> None:
        pass

    def convergence_problems(self) -> list[str]:
        return [] if self.count >= self.goal else [f"count {self.count} short of {self.goal}"]


def test_a_scenario_steps_on_discrete_time_and_checks_after_every_step() -> None:
    scenario = Counting(3)
    scenario.run()
    times = scenario.acted_at
    assert times and times == sorted(times) and all(b - a == TICK_MS for a, b in pairwise(times))
    assert scenario.checks >= 1 + scenario.steps + len(times)
    assert scenario.events[0].startswith("[000 t=      0] starts")
    # The steady state went on after convergence: the client kept counting, time moved by STEADY_MS.
    assert scenario.now >= times[0] + Counting.STEADY_MS


def test_a_seed_replays_the_same_events() -> None:
    first, second = Counting(11), Counting(11)
    first.run()
    second.run()
    assert first.events == second.events
    other = Counting(12)
    other.run()
    assert other.events != first.events


def test_a_broken_invariant_reports_the_seed_the_rerun_command_and_the_event_log() -> None:
    scenario = Counting(5, cap=4)
    with pytest.raises(ScenarioFailure) as failure:
        scenario.run()
    text = str(failure.value)
    assert text.startswith("seed 5: count 5 over the cap 4\n")
    assert f"rerun: {runner.SEED_ENV}=5 python3 -m pytest tests/simulation/test_runner.py\n" in text
    assert "] count 5" in text.splitlines()[-1]


def test_an_exception_in_a_step_is_a_failure_of_its_seed() -> None:
    with pytest.raises(ScenarioFailure, match=r"(?s)^seed 2: RuntimeError: the client broke\n.*Traceback"):
        Counting(2, boom_at=3).run()


def test_a_scenario_that_does_not_converge_in_time_fails() -> None:
    with pytest.raises(ScenarioFailure, match=r"^seed 1: not converged 30000 ms after the inputs stopped: count"):
        Counting(1, goal=10_000).run()


def test_instants_that_never_move_the_clock_are_a_livelock() -> None:
    with pytest.raises(ScenarioFailure, match="instants without the clock moving: a livelock"):
        Counting(4, stuck=True).run()


def test_run_seeds_names_the_first_failure_and_the_other_failing_seeds() -> None:
    with pytest.raises(pytest.fail.Exception) as failure:
        runner.run_seeds(lambda seed: Counting(seed, cap=4 if seed % 2 else 10_000), range(4))
    text = str(failure.value)
    assert text.startswith("seed 1: count 5 over the cap 4") and text.endswith("also failing in this chunk: seeds 3")


def test_run_seeds_warns_about_seeds_stopped_by_a_known_bug_and_sums_the_stats() -> None:
    def make(seed: int) -> Counting:
        scenario = Counting(seed, cap=4 if seed == 2 else 10_000)
        scenario.stats["runs"] = 1
        return scenario

    with pytest.warns(UserWarning, match=r"seeds stopped by known bugs: the cap: \[2\]"):
        stats = runner.run_seeds(make, range(3), lambda text: "the cap" if "over the cap" in text else None)
    assert stats["runs"] == 3 and stats["max convergence ms"] >= 0


def test_known_bugs_names_the_bug_a_failures_first_line_matches() -> None:
    known = runner.known_bugs({"the cap": re.compile(r"over the cap"), "a boom": re.compile(r"^seed \d+: boom")})
    assert known("seed 3: count 5 over the cap 4\nrerun: ...") == "the cap"
    assert known("seed 3: boom\n") == "a boom"
    assert known("seed 3: not converged\nevent log:\n[001 t=0] count 5 over the cap 4") is None


def test_run_chunk_requires_a_whole_chunk_to_exercise_each_named_stat() -> None:
    def make(seed: int) -> Counting:
        scenario = Counting(seed)
        scenario.stats["runs"] = 1
        return scenario

    runner.run_chunk(make, 0, runner.CHUNK, must_exercise=("runs",))
    with pytest.raises(AssertionError, match=rf"seeds 0\.\.{runner.CHUNK - 1} never exercised: \['falls'\]"):
        runner.run_chunk(make, 0, runner.CHUNK, must_exercise=("runs", "falls"))
    runner.run_chunk(make, runner.CHUNK, runner.CHUNK + 2, must_exercise=("falls",))  # too few seeds to require it


class WithTopics(Counting):
    TOPIC_POOL = ("foo", "bar")
    MAX_PARTITIONS = 8


def test_topics_grow_up_to_max_partitions_and_only_pool_topics_appear() -> None:
    scenario = WithTopics(1)
    scenario.coord.create_topic("foo", 3)
    for _ in range(20):
        scenario.do_add_partitions()
        scenario.do_create_topic()
    assert {t.name: t.partitions for t in scenario.coord.topics} == {"foo": 8, "bar": 8}
    assert scenario.stats["topics created"] == 1 and 2 <= scenario.stats["topics grown"] <= 12
    assert "topic bar created: " in "\n".join(scenario.events)
