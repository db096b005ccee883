"""Time for the coordinator: a clock it is given, and timers that fire only when that clock moves.

Kafka's coordinator keeps session and rebalance timers in memory (they are not records); a
deterministic coordinator needs them on an injected clock, so a scenario replays exactly.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

#: What a timer's action returns (the coordinator's: a Result to complete).
R = TypeVar("R")


class Clock(Protocol):
    def now_ms(self) -> int: ...


class ManualClock:
    """Virtual time: moves only when told to (tests, simulations, the local backend)."""

    def __init__(self, now_ms: int = 0) -> None:
        self._now = now_ms

    def now_ms(self) -> int:
        return self._now

    def set(self, now_ms: int) -> None:
        if now_ms < self._now:
            raise ValueError(f"time cannot go back from {self._now} to {now_ms}")
        self._now = now_ms


class WallClock:
    """The real clock, for a coordinator serving real clients; never earlier than `floor_ms`, so a
    directory whose virtual clock ran ahead of the wall clock keeps moving forward when served."""

    def __init__(self, floor_ms: int = 0) -> None:
        self._offset = max(0, floor_ms - time.time_ns() // 1_000_000)

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self._offset


class Timers(Generic[R]):
    """Keyed one-shot timers; scheduling a key again replaces its previous deadline.

    A heap with lazy deletion: rescheduling (every heartbeat resets a session timer) is one push,
    and stale entries are skipped when they surface.
    """

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Hashable]] = []
        self._live: dict[Hashable, tuple[int, int, Callable[[], R]]] = {}
        self._seq = itertools.count()

    def schedule(self, key: Hashable, deadline_ms: int, action: Callable[[], R]) -> None:
        seq = next(self._seq)
        self._live[key] = (deadline_ms, seq, action)
        heapq.heappush(self._heap, (deadline_ms, seq, key))
        if len(self._heap) > 4 * len(self._live) + 64:
            self._compact()

    def reschedule(self, key: Hashable, deadline_ms: int) -> bool:
        """Move a live timer to another deadline, keeping its action; False when there is no such timer."""
        entry = self._live.get(key)
        if entry is None:
            return False
        self.schedule(key, deadline_ms, entry[2])
        return True

    def live_keys(self) -> list[Hashable]:
        return list(self._live)

    def cancel(self, key: Hashable) -> None:
        self._live.pop(key, None)

    def deadline(self, key: Hashable) -> int | None:
        entry = self._live.get(key)
        return None if entry is None else entry[0]

    def __contains__(self, key: Hashable) -> bool:
        return key in self._live

    def __len__(self) -> int:
        return len(self._live)

    def next_deadline(self) -> int | None:
        """The earliest live deadline, or None when nothing is scheduled."""
        heap = self._heap
        while heap:
            deadline, seq, key = heap[0]
            entry = self._live.get(key)
            if entry is not None and entry[1] == seq:
                return deadline
            heapq.heappop(heap)
        return None

    def pop_due(self, now_ms: int) -> tuple[Hashable, Callable[[], R]] | None:
        """Remove and return the earliest timer due at `now_ms` (ties: scheduling order)."""
        deadline = self.next_deadline()
        if deadline is None or deadline > now_ms:
            return None
        _, _, key = heapq.heappop(self._heap)
        _, _, action = self._live.pop(key)
        return key, action

    def _compact(self) -> None:
        self._heap = [(d, s, k) for k, (d, s, _) in self._live.items()]
        heapq.heapify(self._heap)
