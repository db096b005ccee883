"""Bounded waits, for what a client thread or the server reaches in its own time: a test that waits in vain
fails with what it waited for instead of hanging.

No test asserts how long something took on the wall clock (the machine may be loaded many times over). A
test waits for the event itself, bounded by WAIT_S only so that a hang fails. A test whose point is that
code does not wait a timeout out gives that code OUTLASTS_S, far longer than the test waits (`promptly`):
code that waits it out fails the test whatever the load, and code that does not passes whatever the load.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

WAIT_S = 30.0
"""How long a test waits for what takes milliseconds on an idle machine: only a hang gets this far."""

PROMPT_S = 20.0
"""The bound of `promptly`: many times what the code takes on a loaded machine, and well short of the
timeouts it must not wait out (OUTLASTS_S, and the wire client's 30 s default)."""

OUTLASTS_S = 120.0
"""A timeout the code under test must not wait out: longer than any bound a test waits for."""


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_S) -> None:
    """Return once `condition()` holds; AssertionError naming `what` after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting until {what}")
        time.sleep(0.05)


@contextmanager
def promptly(what: str) -> Iterator[None]:
    """AssertionError naming `what` when the block runs PROMPT_S or longer: for code given a timeout of
    OUTLASTS_S (or the 30 s default) that must end on an answer, a refusal or a shorter bound instead."""
    started = time.monotonic()
    yield
    took = time.monotonic() - started
    assert took < PROMPT_S, f"took {took:.1f} s, not promptly: {what}"
