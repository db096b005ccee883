"""Which homogeneous builder runs: the compiled one (`_uniformc`) or the pure-Python reference.

The compiled builder is built by `pip install` beside the compiled record loop (same `setup.py`, same rule: a
failed compile leaves the reference). It takes the plain case (current assignments that are dicts of
frozensets of partitions, each owned once and in range) and hands anything else back to the reference, which
stays the rule both are tested against. `GROUPCTL_PURE_PYTHON=1` forces the reference here too; `groupctl
--version` says which runs.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import ModuleType

from groupctl.log.fast import PURE_ENV

_forced: bool | None = None  # tests: True = reference only, False = compiled when built
_loaded: tuple[ModuleType | None, str] | None = None


def _state() -> tuple[ModuleType | None, str]:
    global _loaded
    if _loaded is None:
        try:
            from groupctl.coordinator.assignors import _uniformc
        except ImportError:
            _loaded = None, "not built: pip install builds it where a C compiler is present"
        else:
            _loaded = _uniformc, "compiled"
    return _loaded


def module() -> ModuleType | None:
    """The compiled builder, or None when the reference is to run (not built, or switched off)."""
    if _forced is not None:
        return None if _forced else _state()[0]
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    return _state()[0]


def built() -> ModuleType | None:
    """The compiled builder when it is built and loads, whatever the switch says (tests call it directly)."""
    return _state()[0]


def available() -> bool:
    """Whether the compiled builder is built and loads (whatever the switch says)."""
    return built() is not None


def describe() -> str:
    """One line saying which homogeneous builder runs, for `groupctl --version`."""
    native, why = _state()
    if native is None:
        return f"uniform assignor: pure Python ({why})"
    if module() is None:
        return f"uniform assignor: pure Python ({PURE_ENV} is set)"
    return "uniform assignor: compiled"


@contextlib.contextmanager
def forced(pure: bool) -> Iterator[None]:
    """Run the block with the reference only (`pure`) or with the compiled builder (tests compare both)."""
    global _forced
    before = _forced
    _forced = pure
    try:
        yield
    finally:
        _forced = before
