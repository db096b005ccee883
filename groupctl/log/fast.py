"""Which record loop runs: the compiled one (`groupctl.log._fastlog`) or the pure-Python reference.

The compiled loop is built by `pip install` when a C compiler is present and is then used by every
dump command; the pure-Python code stays the reference it is tested against, and the fallback
(record by record, for anything the compiled loop does not handle). `GROUPCTL_PURE_PYTHON=1`
forces the reference; `groupctl --version` says which runs.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import ModuleType

PURE_ENV = "GROUPCTL_PURE_PYTHON"

_forced: bool | None = None  # tests: True = reference only, False = compiled only
_loaded: tuple[ModuleType | None, str] | None = None


def _load() -> tuple[ModuleType | None, str]:
    try:
        from groupctl.log import _fastlog
    except ImportError:
        return None, "not built: pip install builds it where a C compiler is present"
    from groupctl.log.batch import Batch, Record
    from groupctl.log.decode import DecodedRecord, decode_record
    from groupctl.protocol import primitives, records

    _fastlog.setup(
        Record, DecodedRecord, records.RecordKey, records.RecordValue, records._KEY_CACHE, primitives._UUID_CACHE,
        primitives.uuid_from_bytes, primitives.uuid_from_bytes(bytes(16)), decode_record, Batch,
    )
    return _fastlog, "compiled"


def _state() -> tuple[ModuleType | None, str]:
    global _loaded
    if _loaded is None:
        _loaded = _load()
    return _loaded


def module() -> ModuleType | None:
    """The compiled record loop, or None when the reference is to run (not built, or switched off)."""
    if _forced is not None:
        return None if _forced else _state()[0]
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    return _state()[0]


def available() -> bool:
    """Whether the compiled record loop is built and loads (whatever the switch says)."""
    return _state()[0] is not None


def describe() -> str:
    """One line saying which record loop runs, for `groupctl --version`."""
    native, why = _state()
    if native is None:
        return f"record loop: pure Python ({why})"
    if module() is None:
        return f"record loop: pure Python ({PURE_ENV} is set)"
    return "record loop: compiled"


@contextlib.contextmanager
def forced(pure: bool) -> Iterator[None]:
    """Run the block with the reference only (`pure`) or with the compiled loop (tests compare both)."""
    global _forced
    before = _forced
    _forced = pure
    try:
        yield
    finally:
        _forced = before
