"""Timers fire only when the injected clock moves, in deadline order; rescheduling replaces."""

from __future__ import annotations

import pytest

from groupctl.coordinator.clock import ManualClock, Timers


def test_timers_fire_in_order_and_reschedule_replaces() -> None:
    timers = Timers()
    fired: list[str] = []
    timers.schedule("a", 10, lambda: fired.append("a"))
    timers.schedule("b", 5, lambda: fired.append("b"))
    timers.schedule("a", 20, lambda: fired.append("a2"))
    timers.schedule("c", 5, lambda: fired.append("c"))
    timers.cancel("c")
    assert timers.pop_due(4) is None
    while (due := timers.pop_due(30)) is not None:
        due[1]()
    assert fired == ["b", "a2"]
    assert len(timers) == 0 and timers.next_deadline() is None


def test_many_reschedules_stay_compact() -> None:
    timers = Timers()
    for i in range(10_000):
        timers.schedule("k", i, lambda: None)
    assert len(timers._heap) < 200
    assert timers.deadline("k") == 9_999


def test_manual_clock_cannot_go_back() -> None:
    clock = ManualClock(5)
    clock.set(7)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(6)
