"""Which loop `groupctl serve` runs on: uvloop's when installed, unless GROUPCTL_EVENT_LOOP says otherwise."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from groupctl.errors import UsageError
from groupctl.server import event_loops

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


def _kind(loop: asyncio.AbstractEventLoop) -> str:
    try:
        return type(loop).__module__.split(".")[0]
    finally:
        loop.close()


def test_uvloop_is_preferred_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(event_loops.ENV, raising=False)
    assert event_loops.available() == (("uvloop", "asyncio") if HAS_UVLOOP else ("asyncio",))
    assert _kind(event_loops.new_event_loop()) == ("uvloop" if HAS_UVLOOP else "asyncio")


def test_the_environment_chooses_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loops.ENV, "asyncio")
    assert _kind(event_loops.new_event_loop()) == "asyncio"


def test_an_explicit_choice_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loops.ENV, "uvloop")
    assert _kind(event_loops.new_event_loop("asyncio")) == "asyncio"


def test_an_unknown_loop_is_a_usage_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loops.ENV, "trio")
    with pytest.raises(UsageError, match=r"GROUPCTL_EVENT_LOOP='trio': choose one of uvloop, asyncio"):
        event_loops.new_event_loop()


def test_uvloop_asked_for_but_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(event_loops, "available", lambda: ("asyncio",))
    with pytest.raises(UsageError, match=r"uvloop is not installed \(python3 -m pip install uvloop\)"):
        event_loops.new_event_loop("uvloop")
