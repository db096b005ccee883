"""Flat decoding programs for the compiled record loop: one per group-record value (type, version).

The compiled loop (`groupctl/log/_fastlog.c`) decodes the values of group records (every value
schema but the offset commits of types 0 and 1, which it reads by hand or leaves to the reference)
by running one of these programs, so a dump never calls into Python per group record. They are
compiled here from the same `schema.Message` descriptions, with the same rules, as the generated
decoders of `codegen`, which stay the reference: the compiled loop hands anything a program does not
read cleanly (a short buffer, a null where none is allowed, trailing bytes...) back to the
reference, which words the error.

A program is `(ops, consts)`: `ops` native-endian int32s (an `array('i')` as bytes), `consts` the
dict keys and tagged-field defaults the ops refer to by index. The ops hold structs, the message's
own at offset 0, each laid out as

    nslots, nplain, ntags, flexible,
    key const index      * nslots   (the dict's keys, in the generated decoder's order)
    slot, kind, flags, aux            * nplain   (the fields read in order, untagged)
    tag, slot, kind, flags, aux, default const index * ntags   (the tag section's table)

A tag table entry with slot -1 is a tag the schema knows but not at this version (the reference
rejects it). `aux` is the struct's offset for STRUCT and ARRAY_STRUCT, the element kind for ARRAY.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, Final

from groupctl.protocol.schema import Field, Message, default_value

# kinds, in the order _fastlog.c numbers them (the fixed-width ones first)
BOOL, INT8, INT16, UINT16, INT32, UINT32, INT64, FLOAT64, UUID, STRING, BYTES, STRUCT, ARRAY, ARRAY_STRUCT = range(14)
NULLABLE, COMPACT, TAGGED = 1, 2, 4
MAX_SLOTS: Final = 64
"""Fields one struct may have (the compiled loop's limit; no schema comes near it)."""
MAX_TYPES: Final = 64
MAX_VERSIONS: Final = 16
"""The compiled loop's table of programs: record types 0-63, versions 0-15."""

_KINDS: Final = {
    "bool": BOOL, "int8": INT8, "int16": INT16, "uint16": UINT16, "int32": INT32, "uint32": UINT32,
    "int64": INT64, "float64": FLOAT64, "uuid": UUID, "string": STRING, "bytes": BYTES, "records": BYTES,
}
SKIPPED_TYPES: Final = frozenset({0, 1})
"""Value types the programs leave alone: the offset commits (type 1 in C by hand, type 0 to the reference)."""


class _Compiler:
    def __init__(self, version: int, flexible: bool) -> None:
        self.version = version
        self.flexible = flexible
        self.ops: list[int] = []
        self.consts: list[Any] = []
        self._const_ids: dict[tuple[type, Any], int] = {}

    def const(self, value: Any) -> int:
        """The index of a constant; hashable ones shared, containers kept apart (C copies them per use)."""
        try:
            key = (type(value), value)
            hash(key)
        except TypeError:
            self.consts.append(value)
            return len(self.consts) - 1
        found = self._const_ids.get(key)
        if found is None:
            found = self._const_ids[key] = len(self.consts)
            self.consts.append(value)
        return found

    def struct(self, fields: Sequence[Field]) -> int:
        """Lay out one struct (its nested structs after it); returns its offset."""
        v = self.version
        present = [f for f in fields if f.present(v)]
        if len(present) > MAX_SLOTS:
            raise ValueError(f"a struct of {len(present)} fields; the compiled loop takes at most {MAX_SLOTS}")
        slot_of = {f.name: i for i, f in enumerate(present)}
        plain = [f for f in present if not f.tagged_at(v, self.flexible)]
        tagged = {f.name for f in present if f.tagged_at(v, self.flexible)}
        known = [(f.tag, f) for f in fields if f.tag is not None and _overlap(f)] if self.flexible else []
        start = len(self.ops)
        size = 4 + len(present) + 4 * len(plain) + 6 * len(known)
        self.ops.extend([0] * size)
        block = [len(present), len(plain), len(known), int(self.flexible)]
        block += [self.const(f.json_name) for f in present]
        for f in plain:
            block += [slot_of[f.name], *self.reader(f, tagged=False)]
        for tag, f in known:
            if f.name in tagged:
                block += [tag, slot_of[f.name], *self.reader(f, tagged=True), self.const(default_value(f, v))]
            else:
                block += [tag, -1, 0, 0, 0, 0]
        self.ops[start:start + size] = block
        return start

    def reader(self, f: Field, *, tagged: bool) -> tuple[int, int, int]:
        """(kind, flags, aux) reading field `f` as the generated decoder does."""
        flags = (NULLABLE if f.nullable_at(self.version) else 0) | (COMPACT if self.flexible else 0)
        if tagged:
            flags |= TAGGED | COMPACT
        if f.is_array:
            if f.is_struct_array:
                return ARRAY_STRUCT, flags, self.struct(f.fields or ())
            return ARRAY, flags, _KINDS[f.element_type]
        if f.is_struct:
            return STRUCT, flags, self.struct(f.fields or ())
        return _KINDS[f.type], flags, 0


def _overlap(f: Field) -> bool:
    """Whether the tag is in the tag section at some version (the generated decoder's `_intersect`)."""
    return max(f.versions.low, f.tagged_versions.low) <= min(f.versions.high, f.tagged_versions.high)


def compile_program(msg: Message, version: int) -> tuple[bytes, tuple[Any, ...]]:
    """The program decoding `msg` at `version` as `msg.decoder(version)` does."""
    msg.check_version(version)
    comp = _Compiler(version, msg.is_flexible(version))
    comp.struct(msg.fields)
    return array("i", comp.ops).tobytes(), tuple(comp.consts)


def value_programs(schemas: dict[int, Message]) -> list[tuple[int, int, bytes, tuple[Any, ...]]]:
    """`(type, version, ops, consts)` for every valid version of every value schema but types 0 and 1.

    A (type, version) the compiled loop cannot hold (beyond its table, or a struct wider than it
    takes) is left out: the reference decodes those values, as it does without the compiled loop.
    """
    out = []
    for record_type, msg in sorted(schemas.items()):
        if record_type in SKIPPED_TYPES or not 0 <= record_type < MAX_TYPES:
            continue
        for version in msg.versions:
            if version >= MAX_VERSIONS:
                break
            try:
                out.append((record_type, version, *compile_program(msg, version)))
            except ValueError:
                continue
    return out
