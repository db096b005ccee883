"""Which record loop runs: the compiled one (`groupctl.log._fastlog`) or the pure-Python reference.

The compiled loop is built by `pip install` when a C compiler is present and is then used by every
dump command; the pure-Python code stays the reference it is tested against, and the fallback
(record by record, for anything the compiled loop does not handle). `GROUPCTL_PURE_PYTHON=1`
forces the reference; `groupctl --version` says which runs.
"""

from __future__ import annotations

from types import ModuleType

from groupctl.compiled_parts import PURE_ENV, CompiledPart

__all__ = ["PURE_ENV", "available", "built", "describe", "forced", "module"]


def _load() -> ModuleType:
    import importlib

    from groupctl.log.batch import Batch, Record
    from groupctl.log.decode import DecodedRecord, decode_record
    from groupctl.protocol import primitives, records
    from groupctl.protocol.record_schemas import VALUE_SCHEMAS
    from groupctl.protocol.value_programs import value_programs

    # By name: a type checker cannot read a built extension, and the module is whatever was compiled.
    _fastlog = importlib.import_module("groupctl.log._fastlog")
    _fastlog.setup(
        Record, DecodedRecord, records.RecordKey, records.RecordValue, records._KEY_CACHE, primitives._UUID_CACHE,
        primitives.uuid_from_bytes, primitives.uuid_from_bytes(bytes(16)), decode_record, Batch,
    )
    _fastlog.set_value_programs(value_programs(VALUE_SCHEMAS))
    return _fastlog


_PART = CompiledPart("record loop", _load, name="groupctl.log._fastlog")
module = _PART.module
built = _PART.built
available = _PART.available
describe = _PART.describe
forced = _PART.forced
