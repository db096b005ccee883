"""Handlers stepped at once: a task only for one that waits, and a waiting one still cancellable."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from groupctl.server import event_loops
from groupctl.server.eager import run_eagerly


@pytest.fixture(params=event_loops.available())
def run(request: pytest.FixtureRequest) -> Callable[[Coroutine[Any, Any, Any]], Any]:
    """Run a test coroutine on each event loop."""
    def on_loop(coro: Coroutine[Any, Any, Any]) -> Any:
        loop = event_loops.new_event_loop(request.param)
        try:
            return loop.run_until_complete(coro)
        finally:
            loop.close()

    return on_loop


def test_a_handler_that_does_not_wait_is_answered_without_a_task(run: Callable[..., Any]) -> None:
    steps: list[str] = []

    async def handler() -> str:
        steps.append("ran")
        return "answer"

    async def check() -> tuple[Any, Any, list[str]]:
        before = len(asyncio.all_tasks())
        result, task = run_eagerly(handler(), asyncio.get_running_loop())
        assert len(asyncio.all_tasks()) == before
        return result, task, list(steps)

    assert run(check()) == ("answer", None, ["ran"])


def test_a_handler_that_waits_finishes_in_a_task_from_where_it_waited(run: Callable[..., Any]) -> None:
    async def check() -> tuple[list[str], Any]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[int] = loop.create_future()
        steps: list[str] = []

        async def handler() -> int:
            steps.append("before")
            value = await answer
            steps.append("after")
            await asyncio.sleep(0)
            return value + 1

        result, task = run_eagerly(handler(), loop)
        assert result is None and task is not None and steps == ["before"]
        loop.call_later(0.01, answer.set_result, 41)
        return steps, await asyncio.wait_for(task, 5)

    assert run(check()) == (["before", "after"], 42)


def test_a_handler_may_first_wait_through_wait_for(run: Callable[..., Any]) -> None:
    """As JoinGroup and SyncGroup do, started from a transport's callback as the listener starts it (no task
    is current there; `wait_for` needs one from Python 3.12 on)."""
    async def check() -> Any:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()
        started: asyncio.Future[tuple[Any, Any]] = loop.create_future()

        async def handler() -> str:
            return await asyncio.wait_for(answer, 5)

        def from_a_callback() -> None:
            assert asyncio.current_task() is None
            try:
                started.set_result(run_eagerly(handler(), loop))
            except Exception as exc:
                started.set_exception(exc)

        loop.call_soon(from_a_callback)
        result, task = await started
        assert result is None and task is not None
        answer.set_result("joined")
        return await task

    assert run(check()) == "joined"


def test_an_error_before_waiting_is_raised_at_once(run: Callable[..., Any]) -> None:
    async def handler() -> None:
        raise LookupError("no such group")

    async def check() -> None:
        with pytest.raises(LookupError, match="no such group"):
            run_eagerly(handler(), asyncio.get_running_loop())

    run(check())


@pytest.mark.parametrize("when", ["before its first step", "while it waits"])
def test_a_waiting_handler_is_cancelled_where_it_waits(run: Callable[..., Any], when: str) -> None:
    """The task is cancelled before or after it took over: either way the handler sees the cancellation at its
    await, and its clean-up runs."""
    async def check() -> list[str]:
        loop = asyncio.get_running_loop()
        never: asyncio.Future[None] = loop.create_future()
        steps: list[str] = []

        async def handler() -> None:
            try:
                await never
            except asyncio.CancelledError:
                steps.append("cancelled at its await")
                raise
            finally:
                steps.append("cleaned up")

        _, task = run_eagerly(handler(), loop)
        assert task is not None
        if when == "while it waits":
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert task.cancelled()
        return steps

    assert run(check()) == ["cancelled at its await", "cleaned up"]
