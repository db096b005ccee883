"""Run a handler coroutine at once, and give it a task only when it has to wait.

Most requests (a heartbeat, a metadata request, an offset commit) are answered without awaiting
anything, and a task per request (creating it, scheduling its first step, its done callback) costs
as much as answering one. So the listener steps the handler's coroutine itself: if it finishes, its
answer is had without a task; if it awaits a future (a JoinGroup waiting for the rebalance, a
long-poll Fetch), the coroutine, suspended where it is, is handed to a task that carries on from
there. Python 3.12's eager tasks do the same, and are used from 3.12 on.

On 3.11, until its first suspension a handler runs outside any task: `asyncio.current_task()` is
None there, so what needs it (`asyncio.timeout`, a `TaskGroup`) must come after a first await.
Every handler today waits through `asyncio.wait_for` or `asyncio.wait`, which on 3.11 do not.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine, Generator
from typing import Any


class Started(Coroutine[Any, Any, Any]):
    """A coroutine already stepped once, for a task to finish: its first `send` hands the task what the
    coroutine yielded then (the future it waits on), and every later step goes to the coroutine itself.
    A cancellation before that first step is thrown into the coroutine where it waits."""

    __slots__ = ("_coro", "_first", "_started")

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self._coro = coro
        self._first = first
        self._started = False

    def send(self, value: Any) -> Any:
        if not self._started:
            self._started = True
            first, self._first = self._first, None
            return first
        return self._coro.send(value)

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        self._started = True
        self._first = None
        if val is None and tb is None:
            return self._coro.throw(typ)
        return self._coro.throw(typ, val, tb)

    def close(self) -> None:
        self._first = None
        self._coro.close()

    def __await__(self) -> Generator[Any, None, Any]:
        return (yield from self._coro.__await__())


def run_eagerly(coro: Coroutine[Any, Any, Any],
                loop: asyncio.AbstractEventLoop) -> tuple[Any, asyncio.Task[Any] | None]:
    """`(result, None)` when `coro` finishes without waiting, `(None, task)` when it waits; its exception
    is raised here when it fails before waiting."""
    # Python 3.12's tasks start eagerly on request, with the task current from the first step: there
    # `asyncio.wait_for` itself needs one (it is built on `asyncio.timeout`). Tested as sys.version_info,
    # so a type checker reads the branch for the version it checks.
    if sys.version_info >= (3, 12):
        task = asyncio.Task(coro, loop=loop, eager_start=True)
        if not task.done():
            return None, task
        return task.result(), None
    try:
        first = coro.send(None)
    except StopIteration as done:
        return done.value, None
    return None, loop.create_task(Started(coro, first))
