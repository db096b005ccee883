"""Deadlines on an injected clock: remaining time, per-request cuts, bounded sleeps."""

from __future__ import annotations

import pytest

from groupctl.kafka.deadline import Deadline, seconds_text


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_remaining_and_expiry() -> None:
    clock = Clock()
    deadline = Deadline(5.0, clock)
    assert deadline.remaining() == 5.0 and not deadline.expired
    clock.now += 4.5
    assert deadline.remaining() == pytest.approx(0.5)
    clock.now += 1
    assert deadline.remaining() == 0.0 and deadline.expired


def test_sooner_takes_the_nearer_bound() -> None:
    clock = Clock()
    deadline = Deadline(10.0, clock)
    request = deadline.sooner(3.0)
    assert request.remaining() == 3.0 and request.total == 3.0
    clock.now += 8
    late = deadline.sooner(3.0)
    assert late.remaining() == pytest.approx(2.0) and late.total == pytest.approx(2.0)


def test_sleep_never_passes_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    monkeypatch.setattr("groupctl.kafka.deadline.time.sleep", sleep)
    deadline = Deadline(0.05, clock)
    deadline.sleep(5.0)
    assert slept == [pytest.approx(0.05)] and deadline.expired
    deadline.sleep(1.0)  # already expired: returns at once
    assert len(slept) == 1


def test_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError):
        Deadline(-1)


def test_budgets_under_a_second_are_said_in_milliseconds():
    assert [seconds_text(s) for s in (0.015, 0.0004, 0.3, 0.9994, 1.0, 2.25, 30.0)] == [
        "15 ms", "0.4 ms", "300 ms", "999 ms", "1.0 s", "2.2 s", "30.0 s"]
