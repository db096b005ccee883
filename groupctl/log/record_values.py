"""Decoded group-record values as their generated classes, at the price the replay can pay.

The replay keeps every group record (types 2-8, 16) as its generated class (`groupctl.protocol.data`),
built from the dict the decoders and the compiled value programs produce. `Data.from_dict` does that
for any class, field by field through a table and keyword arguments; a dump carries thousands of such
records, most of them replaced by a newer one before anyone reads them, so `value_reader` compiles,
once per class, a function that builds the same instance with one assignment per field. A dict
without some field (a value version older than the class) is handed to `from_dict`, which fills in
the defaults, so the result is always `from_dict`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from groupctl.protocol.data.base import UNKNOWN_TAGS, Data

__all__ = ["value_reader"]

_READERS: dict[type[Data], Callable[[dict[str, Any]], Any]] = {}


def value_reader(cls: type[Data]) -> Callable[[dict[str, Any]], Any]:
    """`read(decoded dict) -> cls instance`, equal to `cls.from_dict(decoded dict)`; compiled once per class."""
    reader = _READERS.get(cls)
    if reader is None:
        reader = _READERS[cls] = _compile(cls)
    return reader


def _compile(cls: type[Data]) -> Callable[[dict[str, Any]], Any]:
    ns: dict[str, Any] = {"cls": cls, "new": object.__new__, "from_dict": cls.from_dict, "UNKNOWN_TAGS": UNKNOWN_TAGS,
                          "list": list}
    lines = ["def read(d):", "    try:", "        o = new(cls)"]
    for i, (attr, name, nested) in enumerate(cls._FIELDS):
        if nested is None:
            lines.append(f"        o.{attr} = d[{name!r}]")
            continue
        ns[f"r{i}"] = value_reader(nested)
        lines.append(f"        v = d[{name!r}]")
        lines.append(f"        o.{attr} = v if v is None else [r{i}(x) for x in v] if v.__class__ is list else r{i}(v)")
    lines += [
        "    except KeyError:",
        "        return from_dict(d)",
        "    u = d.get(UNKNOWN_TAGS)",
        "    o.unknown_tagged_fields = list(u) if u else None",
        "    return o",
    ]
    exec(compile("\n".join(lines), f"<value reader {cls.__name__}>", "exec"), ns)
    read: Callable[[dict[str, Any]], Any] = ns["read"]
    return read
