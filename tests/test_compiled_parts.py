"""`groupctl --version`'s line for a compiled part says whenever compiled code is off, and why."""

from __future__ import annotations

from types import ModuleType

import pytest

from groupctl.compiled_parts import NOT_BUILT, PURE_ENV, CompiledPart


def missing() -> ModuleType:
    raise ImportError("cannot import name '_nothing'")


def test_not_built(monkeypatch):
    monkeypatch.delenv(PURE_ENV, raising=False)
    part = CompiledPart("thing", missing, name="groupctl._no_such_extension")
    assert part.describe() == f"thing: pure Python ({NOT_BUILT})"
    assert CompiledPart("thing", missing).describe() == f"thing: pure Python ({NOT_BUILT})"


def test_built_but_not_loading_says_why(monkeypatch):
    """A module that is there (here `json`) but whose load fails: its error, not "not built"."""
    monkeypatch.delenv(PURE_ENV, raising=False)

    def wrong_abi() -> ModuleType:
        raise ImportError("undefined symbol: _PyDict_SetItem_KnownHash")

    part = CompiledPart("thing", wrong_abi, name="json")
    assert part.describe() == (
        "thing: pure Python (built but does not load: undefined symbol: _PyDict_SetItem_KnownHash)"
    )


@pytest.mark.parametrize("value", ["1", "yes"])
def test_switched_off(monkeypatch, value):
    monkeypatch.setenv(PURE_ENV, value)
    part = CompiledPart("thing", lambda: ModuleType("thing"))
    assert part.describe() == f"thing: pure Python ({PURE_ENV} is set)"
    assert part.module() is None


def test_a_step_that_declines_its_probe_is_named(monkeypatch):
    monkeypatch.delenv(PURE_ENV, raising=False)
    module = ModuleType("thing")
    off = {"alike": "declines the plain case on this Python"}
    part = CompiledPart("thing", lambda: module, probe=lambda m: off)
    assert part.describe() == (
        "thing: compiled, some steps in pure Python (alike: declines the plain case on this Python)"
    )
    every = CompiledPart("thing", lambda: module, probe=lambda m: {})
    assert every.describe() == "thing: compiled"
    assert every.module() is module
