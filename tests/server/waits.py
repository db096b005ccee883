"""A bounded wait, for what a client thread or the server reaches in its own time: a test that waits in vain
fails with what it waited for instead of hanging."""

from __future__ import annotations

import time
from collections.abc import Callable

WAIT_S = 30.0


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_S) -> None:
    """Return once `condition()` holds; AssertionError naming `what` after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting until {what}")
        time.sleep(0.05)
