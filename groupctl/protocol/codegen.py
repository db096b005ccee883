"""Compile a `schema.Message` at one version into a decoder and an encoder (Python source + exec).

Why generated source rather than an interpreter walking the schema: a decoded record costs one
Python function per struct, with consecutive fixed-width fields (and the int16/int32 length prefix
that follows them in non-flexible versions) read by a single `struct.Struct.unpack_from`. No call per
field, no per-field dispatch. The generated code mirrors the order of checks in Kafka's generated
`read()` methods so that a malformed buffer fails with Kafka's message:

* a null length on a non-nullable field: "non-nullable field X was serialized as null";
* a compact string longer than 0x7fff: "string field X had invalid length N";
* a string/bytes/tagged-field length past the end: "Error reading byte array of N byte(s): only M
  byte(s) available" (checked before anything is allocated);
* an array count larger than the bytes left: "Tried to allocate a collection of size N, but there are
  only M bytes remaining.";
* any other short read: Java's BufferUnderflowException, whose message is null (printed "null").
"""

from __future__ import annotations

import copy
import functools
import itertools
import struct
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from groupctl.protocol import primitives as P
from groupctl.protocol.data.base import Data
from groupctl.protocol.schema import (
    FIXED_TYPES,
    UNKNOWN_TAGS,
    Field,
    Message,
    default_is_null,
    default_value,
)

_FMT = {
    "bool": "?",
    "int8": "b",
    "int16": "h",
    "uint16": "H",
    "int32": "i",
    "uint32": "I",
    "int64": "q",
    "float64": "d",
    "uuid": "16s",
}
_SIZE = {k: struct.calcsize(">" + v) for k, v in _FMT.items()}
_PRESENT = b"\x01"  # the presence marker of a non-null nullable struct (int8 1, or uvarint 1 when tagged)


@functools.cache
def _struct(fmt: str) -> struct.Struct:
    """One shared big-endian `Struct` per format."""
    return struct.Struct(">" + fmt)


class _Unit:
    """Accumulates generated functions and the constants they refer to."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.lines: list[str] = []
        self.ns: dict[str, Any] = {
            "_E": P.WireError,
            "_UNDERFLOW": P.UNDERFLOW,
            "_ba": P.byte_array_error,
            "_coll": P.collection_error,
            "_uv": P.read_uvarint,
            "_uvm1": P.read_uvarint_minus1,
            "_wuv": P.write_uvarint,
            "_uuid": P.uuid_from_bytes,
            "_unpack": struct.unpack_from,
            "_pack": struct.pack,
            "_deepcopy": copy.deepcopy,
            "_tag0": itemgetter(0),
            "_UNK": UNKNOWN_TAGS,
            "_new": object.__new__,
        }
        self._ids = itertools.count()
        self._consts: dict[tuple[type, Any], str] = {}

    def name(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    def const(self, value: Any) -> str:
        try:
            key = (type(value), value)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._consts:
            return self._consts[key]
        name = self.name("_c")
        self.ns[name] = value
        if key is not None:
            self._consts[key] = name
        return name

    def struct_unpacker(self, fmt: str) -> str:
        return self.const(_struct(fmt).unpack_from)

    def struct_packer(self, fmt: str) -> str:
        return self.const(_struct(fmt).pack)

    def compile(self, filename: str) -> dict[str, Any]:
        source = "\n".join(self.lines) + "\n"
        code = compile(source, filename, "exec")
        exec(code, self.ns)
        self.ns["__source__"] = source
        return self.ns


class _Lines:
    """An indented block of generated lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)


# ================================================================================================
# decoder
# ================================================================================================


class _Gen:
    """What both generators share: with `cls` (a generated `Data` class) the code works on instances
    of it and of its nested classes instead of dicts; `classes` is the struct being generated, innermost last."""

    def __init__(self, unit: _Unit, version: int, flexible: bool, cls: type[Data] | None = None) -> None:
        self.u = unit
        self.version = version
        self.flexible = flexible
        self.classes: list[type[Data]] = [cls] if cls is not None else []

    def struct(self, fields: Sequence[Field]) -> str:
        raise NotImplementedError

    def sub(self, f: Field) -> str:
        """Generate the code of struct field `f` (its class is the current class's nested one)."""
        if not self.classes:
            return self.struct(f.fields or ())
        nested = self.classes[-1].nested(f.json_name)
        assert nested is not None, f.name
        self.classes.append(nested)
        try:
            return self.struct(f.fields or ())
        finally:
            self.classes.pop()


class _DecoderGen(_Gen):
    """Generates a decoder: dicts, or instances of the generated classes."""

    # -- struct ----------------------------------------------------------------------------------

    def struct(self, fields: Sequence[Field]) -> str:
        """Generate `def _dN(buf, pos, blen) -> (dict, pos)` for a struct; returns its name."""
        fname = self.u.name("_d")
        out = _Lines()
        v = self.version
        items: list[tuple[str, str]] = []
        tagged: list[tuple[Field, str]] = []
        run: list[tuple[str, str, str | None]] = []  # (var, type, post-conversion)

        def flush(ind: int) -> None:
            if not run:
                return
            fmt = "".join(_FMT[t] for _, t, _ in run)
            size = sum(_SIZE[t] for _, t, _ in run)
            unpack = self.u.struct_unpacker(fmt)
            targets = ", ".join(var for var, _, _ in run)
            out(ind, f"{targets}, = {unpack}(buf, pos)" if len(run) == 1 else f"{targets} = {unpack}(buf, pos)")
            out(ind, f"pos += {size}")
            for var, t, _ in run:
                if t == "uuid":
                    out(ind, f"{var} = _uuid({var})")
            run.clear()

        for f in fields:
            if not f.present(v):
                continue
            var = self.u.name("v")
            items.append((f.json_name, var))
            if f.tagged_at(v, self.flexible):
                tagged.append((f, var))
                continue
            nullable = f.nullable_at(v)
            if f.type in FIXED_TYPES:
                run.append((var, f.type, None))
            elif f.is_struct:
                sub = self.sub(f)
                if nullable:
                    marker = self.u.name("m")
                    run.append((marker, "int8", None))
                    flush(1)
                    out(1, f"if {marker} < 0:")
                    out(2, f"{var} = None")
                    out(1, "else:")
                    out(2, f"{var}, pos = {sub}(buf, pos, blen)")
                else:
                    flush(1)
                    out(1, f"{var}, pos = {sub}(buf, pos, blen)")
            else:
                length = self.u.name("n")
                if self.flexible:
                    flush(1)
                    self.compact_length(out, 1, length)
                else:
                    run.append((length, "int16" if f.type == "string" else "int32", None))
                    flush(1)
                self.variable_body(out, 1, f, var, length, nullable, self.flexible)
        flush(1)

        if self.flexible:
            self.tag_section(out, fields, tagged)
        if self.classes:
            self.build_instance(out, fields, dict(items))
        else:
            result = ", ".join(f"{k!r}: {var}" for k, var in items)
            out(1, f"d = {{{result}}}")
            if self.flexible:
                out(1, "if unk is not None:")
                out(2, "d[_UNK] = unk")
        out(1, "return d, pos")
        self.u.lines.append(f"def {fname}(buf, pos, blen):")
        self.u.lines.extend(out.lines if out.lines else ["    pass"])
        return fname

    def build_instance(self, out: _Lines, fields: Sequence[Field], values: dict[str, str]) -> None:
        """`d = C()` without running `__init__`: every slot set once, from the wire or the default."""
        cls = self.classes[-1]
        out(1, f"d = _new({self.u.const(cls)})")
        for f in fields:
            attr = cls.attribute(f.json_name)
            var = values.get(f.json_name)
            out(1, f"d.{attr} = {var if var is not None else self.typed_default(f)}")
        out(1, f"d.unknown_tagged_fields = {'unk' if self.flexible else 'None'}")

    def typed_default(self, f: Field) -> str:
        """Source for a fresh default of field `f` in the current class."""
        if f.fields and not default_is_null(f):
            nested = self.classes[-1].nested(f.json_name)
            return "[]" if f.is_array else f"{self.u.const(nested)}()"
        value = default_value(f, self.version)
        return "[]" if isinstance(value, list) else self.u.const(value)

    # -- pieces ----------------------------------------------------------------------------------

    @staticmethod
    def compact_length(out: _Lines, ind: int, var: str) -> None:
        """`var = readUnsignedVarint() - 1`, one-byte case inline."""
        out(ind, "b = buf[pos]")
        out(ind, "if b < 128:")
        out(ind + 1, f"{var} = b - 1")
        out(ind + 1, "pos += 1")
        out(ind, "else:")
        out(ind + 1, f"{var}, pos = _uvm1(buf, pos)")

    @staticmethod
    def uvarint(out: _Lines, ind: int, var: str) -> None:
        out(ind, "b = buf[pos]")
        out(ind, "if b < 128:")
        out(ind + 1, f"{var} = b")
        out(ind + 1, "pos += 1")
        out(ind, "else:")
        out(ind + 1, f"{var}, pos = _uv(buf, pos)")

    def variable_body(
        self, out: _Lines, ind: int, f: Field, var: str, length: str, nullable: bool, compact: bool
    ) -> None:
        """The part of a string/bytes/array read after its length is known."""
        name = f.json_name
        out(ind, f"if {length} < 0:")
        if nullable:
            out(ind + 1, f"{var} = None")
        else:
            out(ind + 1, f"raise _E({self.u.const(P.null_error(name))})")
        if f.type == "string":
            if compact:
                out(ind, f"elif {length} > 32767:")
                msg = self.u.const("string field " + name + " had invalid length ")
                out(ind + 1, f"raise _E({msg} + str({length}))")
            out(ind, "else:")
            self.bytes_read(out, ind + 1, length, f"{var} = buf[pos:e].decode('utf-8', 'replace')")
        elif f.type in ("bytes", "records"):
            out(ind, "else:")
            self.bytes_read(out, ind + 1, length, f"{var} = buf[pos:e]")
        else:
            out(ind, "else:")
            self.array_body(out, ind + 1, f, var, length, compact)

    @staticmethod
    def bytes_read(out: _Lines, ind: int, length: str, assign: str) -> None:
        out(ind, f"e = pos + {length}")
        out(ind, "if e > blen:")
        out(ind + 1, f"raise _E(_ba({length}, blen - pos))")
        out(ind, assign)
        out(ind, "pos = e")

    def array_body(self, out: _Lines, ind: int, f: Field, var: str, count: str, compact: bool) -> None:
        out(ind, f"if {count} > blen - pos:")
        out(ind + 1, f"raise _E(_coll({count}, blen - pos))")
        elem = f.element_type
        if elem in FIXED_TYPES:
            size = _SIZE[elem]
            out(ind, f"e = pos + {count} * {size}" if size != 1 else f"e = pos + {count}")
            out(ind, "if e > blen:")
            out(ind + 1, "raise _E(_UNDERFLOW)")
            if elem == "uuid":
                out(ind, f"{var} = [_uuid(buf[i:i + 16]) for i in range(pos, e, 16)]")
            else:
                out(ind, f"{var} = list(_unpack('>%d{_FMT[elem]}' % {count}, buf, pos))")
            out(ind, "pos = e")
            return
        out(ind, f"{var} = []")
        app = self.u.name("ap")
        out(ind, f"{app} = {var}.append")
        out(ind, f"for _ in range({count}):")
        if elem in ("string", "bytes"):
            m = self.u.name("n")
            if compact:
                self.compact_length(out, ind + 1, m)
            else:
                unpack = self.u.struct_unpacker("h" if elem == "string" else "i")
                out(ind + 1, f"{m}, = {unpack}(buf, pos)")
                out(ind + 1, f"pos += {2 if elem == 'string' else 4}")
            out(ind + 1, f"if {m} < 0:")
            out(ind + 2, f"raise _E({self.u.const(P.null_error(f.json_name + ' element'))})")
            if elem == "string" and compact:
                out(ind + 1, f"if {m} > 32767:")
                msg = self.u.const("string field " + f.json_name + " element had invalid length ")
                out(ind + 2, f"raise _E({msg} + str({m}))")
            decode = ".decode('utf-8', 'replace')" if elem == "string" else ""
            self.bytes_read(out, ind + 1, m, f"{app}(buf[pos:e]{decode})")
        else:
            sub = self.sub(f)
            x = self.u.name("x")
            out(ind + 1, f"{x}, pos = {sub}(buf, pos, blen)")
            out(ind + 1, f"{app}({x})")

    def tagged_read(self, out: _Lines, ind: int, f: Field, var: str) -> None:
        """Read one known tagged field by its own type (Kafka ignores the size for known tags)."""
        nullable = f.nullable_at(self.version)
        if f.type in FIXED_TYPES:
            unpack = self.u.struct_unpacker(_FMT[f.type])
            out(ind, f"{var}, = {unpack}(buf, pos)")
            out(ind, f"pos += {_SIZE[f.type]}")
            if f.type == "uuid":
                out(ind, f"{var} = _uuid({var})")
        elif f.is_struct:
            sub = self.sub(f)
            if nullable:
                marker = self.u.name("m")
                self.uvarint(out, ind, marker)
                out(ind, f"if {marker} <= 0:")
                out(ind + 1, f"{var} = None")
                out(ind, "else:")
                out(ind + 1, f"{var}, pos = {sub}(buf, pos, blen)")
            else:
                out(ind, f"{var}, pos = {sub}(buf, pos, blen)")
        else:
            length = self.u.name("n")
            self.compact_length(out, ind, length)
            self.variable_body(out, ind, f, var, length, nullable, True)

    def tag_section(self, out: _Lines, fields: Sequence[Field], tagged: list[tuple[Field, str]]) -> None:
        v = self.version
        for f, var in tagged:
            dv = default_value(f, v)
            fresh = _fresh_literal(dv)
            if self.classes and f.fields:
                out(1, f"{var} = {self.typed_default(f)}")
            elif fresh is not None:
                out(1, f"{var} = {fresh}")  # a display builds it anew each time, far cheaper than deepcopy
            elif isinstance(dv, (list, dict)):
                out(1, f"{var} = _deepcopy({self.u.const(dv)})")
            else:
                out(1, f"{var} = {self.u.const(dv)}")
        out(1, "unk = None")
        self.uvarint(out, 1, "nt")
        out(1, "for _ in range(nt):")
        self.uvarint(out, 2, "tag")
        self.uvarint(out, 2, "size")
        first = True
        by_field = {f.name: var for f, var in tagged}
        for f in fields:
            if f.tag is None:
                continue
            valid = _intersect(f.versions, f.tagged_versions)
            if valid is None:
                continue
            out(2, f"{'if' if first else 'elif'} tag == {f.tag}:")
            first = False
            if f.name in by_field:
                self.tagged_read(out, 3, f, by_field[f.name])
            else:
                out(3, f"raise _E({self.u.const(f'Tag {f.tag} is not valid for version {v}')})")
        if first:
            out(2, "if True:")
        else:
            out(2, "else:")
        out(3, "if size > blen - pos:")
        out(4, "raise _E(_ba(size, blen - pos))")
        out(3, "if size < 0:")
        out(4, "raise _E(str(size))")
        out(3, "e = pos + size")
        out(3, "if unk is None:")
        out(4, "unk = []")
        out(3, "unk.append((tag, buf[pos:e]))")
        out(3, "pos = e")


def _fresh_literal(value: Any) -> str | None:
    """Source for a list or dict default that a display rebuilds fresh: an empty list, or a dict of
    scalars and empty lists (a tagged struct's default). None for anything else (deepcopy then)."""
    if isinstance(value, list):
        return "[]" if not value else None
    if not isinstance(value, dict):
        return None
    parts = []
    for k, v in value.items():
        if isinstance(v, list) and not v:
            parts.append(f"{k!r}: []")
        elif v is None or isinstance(v, (bool, int, str)):
            parts.append(f"{k!r}: {v!r}")
        else:
            return None
    return "{" + ", ".join(parts) + "}"


def _intersect(a: Any, b: Any) -> tuple[int, int] | None:
    low, high = max(a.low, b.low), min(a.high, b.high)
    return (low, high) if low <= high else None


def compile_decoder(
    msg: Message, version: int, cls: type[Data] | None = None
) -> Callable[[bytes, int], tuple[Any, int]]:
    """`decode(buf, pos=0) -> (data, end)` for `msg` at `version`: `data` a dict, or with `cls` (the
    class generated from `msg`) an instance of it.

    Raises `primitives.WireError` (a DecodeError) with Kafka's reader message; never anything else.
    `buf` may be bytes, bytearray or memoryview (non-bytes are copied once).
    """
    msg.check_version(version)
    unit = _Unit(msg.name)
    gen = _DecoderGen(unit, version, msg.is_flexible(version), cls)
    top = gen.struct(msg.fields)
    ns = unit.compile(f"<{'reader' if cls else 'decoder'} {msg.name} v{version}>")
    inner = ns[top]
    wire_error = P.WireError
    underflow = P.UNDERFLOW
    short_read = (IndexError, struct.error)

    def decode(buf: bytes, pos: int = 0) -> tuple[Any, int]:
        if type(buf) is not bytes:
            buf = bytes(buf)
        try:
            return inner(buf, pos, len(buf))
        except wire_error:
            raise
        except short_read:
            raise wire_error(underflow) from None
        except Exception as exc:  # a codec bug must still surface as a DecodeError
            raise wire_error(f"{type(exc).__name__}: {exc}") from exc

    decode.__doc__ = f"Decode {msg.name} v{version} from buf[pos:]; returns (data, end position)."
    # A function object takes attributes; mypy's Callable type does not know these two.
    decode.source = ns["__source__"]  # type: ignore[attr-defined]
    # The bare generated function, for hot loops that catch IndexError/struct.error themselves.
    decode.inner = inner  # type: ignore[attr-defined]
    return decode


# ================================================================================================
# encoder
# ================================================================================================


class _EncoderGen(_Gen):
    """Generates an encoder: of dicts, or of instances of the generated classes."""

    def __init__(self, unit: _Unit, msg: Message, version: int, flexible: bool, cls: type[Data] | None = None) -> None:
        super().__init__(unit, version, flexible, cls)
        self.msg = msg

    def typed_default(self, f: Field) -> Any:
        """The default of `f` as the instances hold it (a struct's is an instance of its class)."""
        if f.fields and not f.is_array and not default_is_null(f):
            nested = self.classes[-1].nested(f.json_name)
            assert nested is not None, f.name
            return nested()
        return default_value(f, self.version)

    def struct(self, fields: Sequence[Field]) -> str:
        """Generate `def _eN(w, d)` appending the struct's bytes to bytearray `w`."""
        fname = self.u.name("_e")
        out = _Lines()
        v = self.version
        run: list[tuple[str, str]] = []  # (expr, type)

        def flush(ind: int) -> None:
            if not run:
                return
            fmt = "".join(_FMT[t] for _, t in run)
            pack = self.u.struct_packer(fmt)
            args = ", ".join(f"{e}.bytes" if t == "uuid" else e for e, t in run)
            out(ind, f"w += {pack}({args})")
            run.clear()

        tagged: list[tuple[Field, str]] = []
        cls = self.classes[-1] if self.classes else None
        for f in fields:
            key = repr(f.json_name)
            if not f.present(v):
                if not f.ignorable:
                    msg = f"Attempted to write a non-default {f.json_name} at version {v}"
                    if cls is not None:
                        out(1, f"if d.{cls.attribute(f.json_name)} != {self.u.const(self.typed_default(f))}:")
                    else:
                        out(1, f"if {key} in d and d[{key}] != {self.u.const(default_value(f, v))}:")
                    out(2, f"raise ValueError({self.u.const(msg)})")
                continue
            var = self.u.name("v")
            dv = default_value(f, v)
            if cls is not None:
                out(1, f"{var} = d.{cls.attribute(f.json_name)}")
            elif dv is None or isinstance(dv, (int, float, str, bytes)) or f.type == "uuid":
                out(1, f"{var} = d.get({key}, {self.u.const(dv)})")
            else:
                out(1, f"{var} = d[{key}] if {key} in d else {self.u.const(dv)}")
            if f.tagged_at(v, self.flexible):
                tagged.append((f, var))
                continue
            if f.type in FIXED_TYPES:
                run.append((var, f.type))
                continue
            flush(1)
            self.write_value(out, 1, "w", f, var, self.flexible)
        flush(1)
        if self.flexible:
            self.tag_section(out, tagged)
        self.u.lines.append(f"def {fname}(w, d):")
        self.u.lines.extend(out.lines if out.lines else ["    pass"])
        return fname

    def write_value(self, out: _Lines, ind: int, w: str, f: Field, var: str, compact: bool) -> None:
        """Append one non-fixed (or tagged) value `var` of field `f` to bytearray `w`."""
        nullable = f.nullable_at(self.version)
        name = f.json_name
        if f.type in FIXED_TYPES:
            pack = self.u.struct_packer(_FMT[f.type])
            out(ind, f"{w} += {pack}({var}.bytes)" if f.type == "uuid" else f"{w} += {pack}({var})")
            return
        if f.is_struct:
            sub = self.sub(f)
            if nullable:
                # a tagged struct's presence marker is a uvarint, an untagged one an int8 (-1 = null)
                null = b"\x00" if f.tagged_at(self.version, self.flexible) else b"\xff"
                out(ind, f"if {var} is None:")
                out(ind + 1, f"{w} += {null!r}")
                out(ind, "else:")
                out(ind + 1, f"{w} += {_PRESENT!r}")
                out(ind + 1, f"{sub}({w}, {var})")
            else:
                out(ind, f"{sub}({w}, {var})")
            return
        out(ind, f"if {var} is None:")
        if nullable:
            null = b"\x00" if compact else (b"\xff\xff" if f.type == "string" else b"\xff\xff\xff\xff")
            out(ind + 1, f"{w} += {null!r}")
        else:
            out(ind + 1, f"raise ValueError({self.u.const(f'non-nullable field {name} was null')})")
        out(ind, "else:")
        ind += 1
        if f.type == "string":
            x = self.u.name("x")
            out(ind, f"{x} = {var}.encode('utf-8')")
            out(ind, f"if len({x}) > 32767:")
            out(ind + 1, f"raise ValueError({self.u.const(repr(name) + ' field is too long to be serialized')})")
            self.length(out, ind, w, f"len({x})", compact, "h")
            out(ind, f"{w} += {x}")
        elif f.type in ("bytes", "records"):
            self.length(out, ind, w, f"len({var})", compact, "i")
            out(ind, f"{w} += {var}")
        else:
            self.length(out, ind, w, f"len({var})", compact, "i")
            elem = f.element_type
            if elem == "uuid":
                out(ind, f"for x in {var}:")
                out(ind + 1, f"{w} += x.bytes")
            elif elem in FIXED_TYPES:
                out(ind, f"{w} += _pack('>%d{_FMT[elem]}' % len({var}), *{var})")
            elif elem in ("string", "bytes"):
                out(ind, f"for x in {var}:")
                out(ind + 1, "if x is None:")
                msg = self.u.const(f"non-nullable field {name} element was null")
                out(ind + 2, f"raise ValueError({msg})")
                if elem == "string":
                    out(ind + 1, "x = x.encode('utf-8')")
                    out(ind + 1, "if len(x) > 32767:")
                    too_long = repr(name + " element") + " field is too long to be serialized"
                    out(ind + 2, f"raise ValueError({self.u.const(too_long)})")
                self.length(out, ind + 1, w, "len(x)", compact, "h" if elem == "string" else "i")
                out(ind + 1, f"{w} += x")
            else:
                sub = self.sub(f)
                out(ind, f"for x in {var}:")
                out(ind + 1, f"{sub}({w}, x)")

    def length(self, out: _Lines, ind: int, w: str, expr: str, compact: bool, fmt: str) -> None:
        if compact:
            out(ind, f"{w} += _wuv({expr} + 1)")
        else:
            out(ind, f"{w} += {self.u.struct_packer(fmt)}({expr})")

    def non_default(self, f: Field, var: str) -> str:
        """Kafka's generateNonDefaultValueCheck, as a Python condition."""
        v = self.version
        nullable = not f.nullable_versions.empty
        if default_is_null(f) and f.type not in FIXED_TYPES:
            return f"{var} is not None"
        if f.is_array or f.type in ("bytes", "records"):
            return f"len({var}) != 0" if not nullable else f"{var} is None or len({var}) != 0"
        if self.classes and f.is_struct:
            differs = f"{self.struct_differs(f)}({var})"
            return differs if not nullable else f"{var} is None or {differs}"
        dv = self.u.const(self.typed_default(f) if self.classes else default_value(f, v))
        if f.type in ("string", "uuid") or f.is_struct:
            return f"{var} != {dv}" if not nullable else f"{var} is None or {var} != {dv}"
        return f"{var} != {dv}"

    def struct_differs(self, f: Field) -> str:
        """Generate `def _ndN(x)`: whether a struct instance differs from the struct's default, field by
        field (a generated writer asks this of every tagged struct it writes: `Data.__eq__` is slower)."""
        nested = self.classes[-1].nested(f.json_name)
        assert nested is not None, f.name
        default = nested()
        fname = self.u.name("_nd")
        checks = [f"x.{attr} != {self.u.const(getattr(default, attr))}" for attr, _, _ in nested._FIELDS]
        checks.append("bool(x.unknown_tagged_fields)")
        self.u.lines.append(f"def {fname}(x):")
        self.u.lines.append(f"    return {' or '.join(checks)}")
        return fname

    def tag_section(self, out: _Lines, tagged: list[tuple[Field, str]]) -> None:
        out(1, "unk = d.unknown_tagged_fields" if self.classes else "unk = d.get(_UNK)")
        if not tagged:
            out(1, "if not unk:")
            out(2, "w.append(0)")
            out(2, "return")
            out(1, "tg = list(unk)")
        else:
            out(1, "tg = list(unk) if unk else []")
            for f, var in sorted(tagged, key=lambda fv: fv[0].tag or 0):
                out(1, f"if {self.non_default(f, var)}:")
                out(2, "t = bytearray()")
                self.write_value(out, 2, "t", f, var, True)
                out(2, f"tg.append(({f.tag}, t))")
        out(1, "tg.sort(key=_tag0)")
        out(1, "w += _wuv(len(tg))")
        out(1, "for tag, p in tg:")
        out(2, "w += _wuv(tag)")
        out(2, "w += _wuv(len(p))")
        out(2, "w += p")


def compile_encoder(msg: Message, version: int, cls: type[Data] | None = None) -> Callable[[Any], bytes]:
    """`encode(data) -> bytes` for `msg` at `version`, `data` a dict or with `cls` an instance of it;
    bad data raises ValueError."""
    msg.check_version(version)
    unit = _Unit(msg.name)
    gen = _EncoderGen(unit, msg, version, msg.is_flexible(version), cls)
    top = gen.struct(msg.fields)
    ns = unit.compile(f"<{'writer' if cls else 'encoder'} {msg.name} v{version}>")
    inner = ns[top]
    label = f"{msg.name} v{version}"

    def encode(data: Any) -> bytes:
        w = bytearray()
        try:
            inner(w, data)
        except ValueError:
            raise
        except (struct.error, AttributeError, TypeError, KeyError, OverflowError) as exc:
            raise ValueError(f"cannot encode {label}: {exc}") from exc
        return bytes(w)

    encode.__doc__ = f"Encode {label}; missing fields take their defaults."
    encode.source = ns["__source__"]  # type: ignore[attr-defined]  # kept for debugging, as decode's
    return encode
