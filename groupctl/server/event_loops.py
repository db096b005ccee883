"""Which event loop `groupctl serve` runs on: uvloop's when it is installed, asyncio's otherwise.

uvloop (libuv under a loop written in Cython) does the transports' reads, writes and callbacks in C:
on pipelined heartbeats it leaves the interpreter more of its time for the coordinator. The listener
uses asyncio's interfaces only, so it serves alike on both; `GROUPCTL_EVENT_LOOP=asyncio` (or
`uvloop`) chooses one, for tests that run the listener on each and for comparing them.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from typing import Final

from groupctl.errors import UsageError

ENV: Final = "GROUPCTL_EVENT_LOOP"
LOOPS: Final = ("uvloop", "asyncio")


def available() -> tuple[str, ...]:
    """The event loops this interpreter can run, the preferred first."""
    return tuple(name for name in LOOPS if name == "asyncio" or importlib.util.find_spec(name) is not None)


def chosen(kind: str | None = None) -> str:
    """`kind`, else `$GROUPCTL_EVENT_LOOP`, else the first available."""
    kind = kind or os.environ.get(ENV) or available()[0]
    if kind not in LOOPS:
        raise UsageError(f"{ENV}={kind!r}: choose one of {', '.join(LOOPS)}")
    if kind not in available():
        raise UsageError(f"{ENV}={kind}: {kind} is not installed (python3 -m pip install {kind}), or choose asyncio")
    return kind


def new_event_loop(kind: str | None = None) -> asyncio.AbstractEventLoop:
    """A new loop of the `chosen` kind."""
    if chosen(kind) == "uvloop":
        import uvloop

        return uvloop.new_event_loop()
    return asyncio.new_event_loop()
