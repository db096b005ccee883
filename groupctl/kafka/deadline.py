"""Deadlines: one overall time budget per command, shared by every connect, request and retry.

Each blocking call takes the time left (`remaining`) as its socket timeout, so a command never runs
past `--timeout` however many brokers, retries and requests it needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def seconds_text(seconds: float) -> str:
    """A time budget for messages: `15 ms` under a second (where `0.0 s` would hide it), else `2.5 s`."""
    if seconds < 1:
        ms = seconds * 1000
        return f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"
    return f"{seconds:.1f} s"


class Deadline:
    """A point in monotonic time; `total` is the budget it was made with (for messages)."""

    __slots__ = ("_clock", "at", "total")

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        if seconds < 0:
            raise ValueError(f"a deadline needs a non-negative budget, got {seconds}")
        self._clock = clock
        self.total = seconds
        self.at = clock() + seconds

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.at - self._clock())

    @property
    def expired(self) -> bool:
        return self._clock() >= self.at

    def sooner(self, seconds: float) -> Deadline:
        """This deadline or `seconds` from now, whichever comes first (a per-request bound); its
        `total` is the time it gives, so a timeout message says how long the request really waited."""
        return Deadline(min(seconds, self.remaining()), self._clock)

    def sleep(self, seconds: float) -> None:
        """Sleep `seconds`, or less when the deadline comes first."""
        wait = min(seconds, self.remaining())
        if wait > 0:
            time.sleep(wait)
