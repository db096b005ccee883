"""Which uniform assignor code runs: the compiled one (`_uniformc`) or the pure-Python reference.

`_uniformc` holds the homogeneous builder and the heterogeneous builder's three steps (keeping current
assignments, dealing free partitions, balancing). It is built by `pip install` beside the compiled record loop (same
`setup.py`, same rule: a failed compile leaves the reference). It takes the plain case (current assignments
that are dicts of frozensets of partitions, each owned once and in range) and hands anything else back to the
reference, which stays the rule both are tested against. `GROUPCTL_PURE_PYTHON=1` forces the reference here
too; `groupctl --version` says which runs, and names any step that declines the plain case on this Python
(`probe`: none should, on any Python groupctl supports).
"""

from __future__ import annotations

import importlib
import uuid
from types import ModuleType

from groupctl.compiled_parts import CompiledPart

__all__ = ["available", "built", "describe", "forced", "module", "probe", "steps_off"]

_NAME = "groupctl.coordinator.assignors._uniformc"
_DECLINED = "declines the plain case on this Python"


def _load() -> ModuleType:
    """The extension by name: it is a built file only (no Python source for a type checker to read)."""
    return importlib.import_module(_NAME)


def probe(native: ModuleType) -> dict[str, str]:
    """Each compiled entry point given a small plain input it must take; the ones that return their "not
    handled" None instead (their pure-Python path then runs for every group), with why."""
    from groupctl.coordinator.assignors.common import MemberSpec

    foo, bar = uuid.UUID(int=1), uuid.UUID(int=2)
    off: dict[str, str] = {}
    one = frozenset({foo})
    alike = {"a": MemberSpec(None, None, one, {foo: frozenset({0, 1, 2})}), "b": MemberSpec(None, None, one)}
    if native.alike(alike, {foo: 4}) is None:
        off["alike"] = _DECLINED
    if native.homogeneous(["a", "b"], [{foo: frozenset({0, 1, 2})}, {}], [foo], [4], {}) is None:
        off["homogeneous"] = _DECLINED
    assigned = [{foo: frozenset({0, 1, 2})}, {}]
    kept = native.keep(assigned, [0, 1], [one, frozenset({foo, bar})], {foo: 4, bar: 2})
    if kept is None:
        off["keep"] = _DECLINED
        return off
    work, counts, holders, free = kept
    counts = native.deal([bar, foo], [range(2), free[foo]], [[1], [0, 1]], [0, 1], counts, work, holders)
    if counts is None:
        off["deal"] = _DECLINED
        return off
    if native.balance([foo], [[0, 1]], [0, 1], counts, work, holders, assigned) is None:
        off["balance"] = _DECLINED
    return off


_PART = CompiledPart("uniform assignor", _load, name=_NAME, probe=probe)
module = _PART.module
built = _PART.built
available = _PART.available
describe = _PART.describe
forced = _PART.forced
steps_off = _PART.steps_off
