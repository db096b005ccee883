"""Which uniform assignor code runs: the compiled one (`_uniformc`) or the pure-Python reference.

`_uniformc` holds the homogeneous builder and the heterogeneous builder's three steps (keeping current
assignments, dealing free partitions, balancing). It is built by `pip install` beside the compiled record loop (same
`setup.py`, same rule: a failed compile leaves the reference). It takes the plain case (current assignments
that are dicts of frozensets of partitions, each owned once and in range) and hands anything else back to the
reference, which stays the rule both are tested against. `GROUPCTL_PURE_PYTHON=1` forces the reference here
too; `groupctl --version` says which runs.
"""

from __future__ import annotations

from types import ModuleType

from groupctl.compiled_parts import CompiledPart

__all__ = ["available", "built", "describe", "forced", "module"]


def _load() -> ModuleType:
    from groupctl.coordinator.assignors import _uniformc

    return _uniformc


_PART = CompiledPart("uniform assignor", _load)
module = _PART.module
built = _PART.built
available = _PART.available
describe = _PART.describe
forced = _PART.forced
