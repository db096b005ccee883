"""Kafka-JSON: render decoded data exactly as Kafka's generated JsonConverters + Jackson print it,
and parse that JSON back.

Rules (from `generator/.../JsonConverterGenerator.java` and Jackson's `ObjectNode.toString()`):
compact, schema field order, fields absent at the version omitted, tagged fields only when they
differ from their default, nullable values as `null`, integers as numbers, bool as true/false, uuid as
Kafka's `Uuid.toString()` (URL-safe base64, no padding, 22 chars), bytes as standard base64 with
padding, strings escaped as Jackson does: `"` `\\` and control characters only (`\\b \\t \\n \\f \\r`,
the rest as `\\u00XX` with upper-case hex), `/` and non-ASCII left as they are. Unknown tagged fields
are never rendered.

Renderers are generated per (message, version) like the binary codecs, because dump output prints
millions of lines. `hooks` replace the rendering of one field (by dotted path of JSON names), which is
how a GroupMetadataValue shows its members' embedded consumer-protocol bytes as decoded JSON.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from json.encoder import encode_basestring as _py_json_string
from typing import Any, Final

from groupctl.errors import DecodeError
from groupctl.protocol import primitives as P
from groupctl.protocol.schema import (
    FIXED_TYPES,
    Field,
    Message,
    default_is_null,
    default_value,
)

Hooks = Mapping[str, Callable[[Any], Any]]

# --- scalar rendering ----------------------------------------------------------------------------

_SHORT_ESCAPES: Final = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _jackson_slow(s: str) -> str:
    out = ['"']
    for ch in s:
        esc = _SHORT_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch < " ":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def json_string(s: str) -> str:
    """A JSON string literal exactly as Jackson writes it.

    Python's C encoder escapes the same characters but writes `\\u001f` with lower-case hex; such
    strings (rare) take a slow path. A literal backslash-u in the input also lands there, harmlessly.
    """
    r = _py_json_string(s)
    if "\\u00" in r:
        return _jackson_slow(s)
    return r


def json_string_or_null(s: str | None) -> str:
    return "null" if s is None else json_string(s)


def json_uuid(u: Any) -> str:
    return '"' + P.uuid_to_kafka(u) + '"'


def json_bytes(b: bytes | None) -> str:
    """Jackson BinaryNode: standard base64 with padding, no line breaks."""
    if b is None:
        return "null"
    return '"' + base64.b64encode(b).decode("ascii") + '"'


def java_double(x: float) -> str:
    """Java's `Double.toString` (as Jackson's DoubleNode prints it): 1.0, 1.0E10, 1.0E-5, NaN."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    r = repr(x)  # the shortest digits that round-trip, as Java 19+ prints
    if 1e-3 <= abs(x) < 1e7:
        return r if "." in r else r + ".0"
    sign, digits, exponent = Decimal(r).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    exp10 = len(digits) + int(exponent) - 1
    return f"{'-' if sign else ''}{text[0]}.{text[1:] or '0'}E{exp10}"


def json_array_of_ints(xs: Sequence[int] | None) -> str:
    return "null" if xs is None else "[" + ",".join(map(str, xs)) + "]"


def json_array_of_strings(xs: Sequence[str] | None) -> str:
    return "null" if xs is None else "[" + ",".join(map(json_string, xs)) + "]"


def json_array_of_bools(xs: Sequence[bool] | None) -> str:
    return "null" if xs is None else "[" + ",".join("true" if x else "false" for x in xs) + "]"


def json_array_of_doubles(xs: Sequence[float] | None) -> str:
    return "null" if xs is None else "[" + ",".join(map(java_double, xs)) + "]"


def json_array_of_uuids(xs: Sequence[Any] | None) -> str:
    return "null" if xs is None else "[" + ",".join(map(json_uuid, xs)) + "]"


def json_array_of_bytes(xs: Sequence[bytes] | None) -> str:
    return "null" if xs is None else "[" + ",".join(map(json_bytes, xs)) + "]"


# --- generated renderers -------------------------------------------------------------------------


class _Gen:
    """Generates `_rN(d) -> str` (text) or `_jN(d) -> dict` (Python objects) per struct."""

    def __init__(
        self, version: int, flexible: bool, hooks: Hooks | None, text: bool, hidden: frozenset[str] = frozenset()
    ) -> None:
        self.version = version
        self.flexible = flexible
        self.hooks = dict(hooks or {})
        self.text = text
        self.hidden = hidden
        self.lines: list[str] = []
        self.ns: dict[str, Any] = {
            "_js": json_string,
            "_jsn": json_string_or_null,
            "_ju": json_uuid,
            "_jb": json_bytes,
            "_jd": java_double,
            "_jai": json_array_of_ints,
            "_jas": json_array_of_strings,
            "_jabool": json_array_of_bools,
            "_jad": json_array_of_doubles,
            "_jau": json_array_of_uuids,
            "_jab": json_array_of_bytes,
            "_uk": P.uuid_to_kafka,
            "_b64": _b64,
            "_b64n": jsonable_bytes,
        }
        self._n = 0

    def name(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def const(self, value: Any) -> str:
        name = self.name("_c")
        self.ns[name] = value
        return name

    # -- one value -------------------------------------------------------------------------------

    def text_expr(self, f: Field, x: str, path: str) -> str:
        """A Python expression rendering value `x` of field `f` as JSON text."""
        hook = self.hooks.get(path)
        if hook is not None:
            return f"{self.const(hook)}({x})"
        t = f.type
        nullable = f.nullable_at(self.version)
        if t in ("int8", "int16", "uint16", "int32", "uint32", "int64"):
            return x if x.startswith("d[") else f"str({x})"
        if t == "bool":
            return f"('true' if {x} else 'false')"
        if t == "float64":
            return f"_jd({x})"
        if t == "uuid":
            return f"_ju({x})"
        if t == "string":
            return f"_jsn({x})" if nullable else f"_js({x})"
        if t in ("bytes", "records"):
            return f"_jb({x})"
        if f.is_array:
            elem = f.element_type
            simple = {
                "string": "_jas",
                "uuid": "_jau",
                "bytes": "_jab",
                "bool": "_jabool",
                "float64": "_jad",
            }.get(elem)
            if simple is None and elem in FIXED_TYPES:
                simple = "_jai"
            if simple is not None:
                return f"{simple}({x})"
            sub = self.struct(f.fields or (), path)
            joined = f"'[' + ','.join(map({sub}, {x})) + ']'"
            return f"('null' if {x} is None else {joined})" if nullable else joined
        sub = self.struct(f.fields or (), path)
        return f"('null' if {x} is None else {sub}({x}))" if nullable else f"{sub}({x})"

    def obj_expr(self, f: Field, x: str, path: str) -> str:
        """A Python expression converting value `x` to JSON-able Python objects."""
        hook = self.hooks.get(path)
        if hook is not None:
            return f"{self.const(hook)}({x})"
        t = f.type
        if t in FIXED_TYPES and t != "uuid":
            return x
        if t == "uuid":
            return f"_uk({x})"
        if t == "string":
            return x
        if t in ("bytes", "records"):
            return f"_b64n({x})"
        if f.is_array:
            elem = f.element_type
            if elem == "uuid":
                conv = f"[_uk(e) for e in {x}]"
            elif elem == "bytes":
                conv = f"[_b64(e) for e in {x}]"
            elif elem in FIXED_TYPES or elem == "string":
                conv = f"list({x})"
            else:
                sub = self.struct(f.fields or (), path)
                conv = f"[{sub}(e) for e in {x}]"
            return f"(None if {x} is None else {conv})"
        sub = self.struct(f.fields or (), path)
        return f"(None if {x} is None else {sub}({x}))"

    def non_default(self, f: Field, x: str) -> str:
        """Kafka's generateNonDefaultValueCheck (see codegen), for tagged fields."""
        nullable = not f.nullable_versions.empty
        if default_is_null(f) and f.type not in FIXED_TYPES:
            return f"{x} is not None"
        if f.is_array or f.type in ("bytes", "records"):
            return f"len({x}) != 0" if not nullable else f"({x} is None or len({x}) != 0)"
        dv = self.const(default_value(f, self.version))
        if not nullable or f.type in FIXED_TYPES:
            return f"{x} != {dv}"
        return f"({x} is None or {x} != {dv})"

    # -- one struct ------------------------------------------------------------------------------

    def struct(self, fields: Sequence[Field], path: str) -> str:
        fname = self.name("_r" if self.text else "_j")
        v = self.version
        present = [f for f in fields if f.present(v) and not self._hidden(f, path)]
        body: list[str] = []
        if self.text:
            self._text_struct(body, present, path)
        else:
            self._obj_struct(body, present, path)
        self.lines.append(f"def {fname}(d):")
        self.lines.extend("    " + line for line in body)
        self.lines.append("")
        return fname

    def _path(self, path: str, f: Field) -> str:
        return f"{path}.{f.json_name}" if path else f.json_name

    def _hidden(self, f: Field, path: str) -> bool:
        """A tagged field an older schema does not have: its tag is unknown there, so never printed."""
        if not self.hidden or self._path(path, f) not in self.hidden:
            return False
        if not f.tagged_at(self.version, self.flexible):
            raise ValueError(f"only tagged fields can be hidden, not {self._path(path, f)}")
        return True

    def _text_struct(self, body: list[str], present: list[Field], path: str) -> None:
        if not present:
            body.append("return '{}'")
            return
        tagged = [f.tagged_at(self.version, self.flexible) for f in present]
        if tagged[0]:
            # a leading tagged field may be omitted: collect the parts, then join
            body.append("p = []")
            for f, is_tagged in zip(present, tagged, strict=True):
                expr = self.text_expr(f, "x", self._path(path, f))
                body.append(f"x = d[{f.json_name!r}]")
                part = f"p.append('\"{f.json_name}\":' + {expr})"
                if is_tagged:
                    body.append(f"if {self.non_default(f, 'x')}:")
                    body.append("    " + part)
                else:
                    body.append(part)
            body.append("return '{' + ','.join(p) + '}'")
            return
        # the first field is always there: one f-string per run of untagged fields, `if`s between
        run: list[str] = []
        started = False

        def flush() -> None:
            nonlocal started
            if run:
                text = "".join(run)
                body.append(f'{"s +=" if started else "s ="} f"""{text}"""')
                started = True
                run.clear()

        for i, (f, is_tagged) in enumerate(zip(present, tagged, strict=True)):
            lead = "{{" if i == 0 else ","
            if is_tagged:
                flush()
                expr = self.text_expr(f, "x", self._path(path, f))
                body.append(f"x = d[{f.json_name!r}]")
                body.append(f"if {self.non_default(f, 'x')}:")
                body.append(f"    s += ',\"{f.json_name}\":' + {expr}")
            else:
                expr = self.text_expr(f, f"d[{f.json_name!r}]", self._path(path, f))
                run.append(f'{lead}"{f.json_name}":{{{expr}}}')
        if not any(tagged):
            text = "".join(run)
            body.append(f'return f"""{text}}}}}"""')
            return
        flush()
        body.append("return s + '}'")

    def _obj_struct(self, body: list[str], present: list[Field], path: str) -> None:
        body.append("o = {}")
        for f in present:
            key = f.json_name
            expr = self.obj_expr(f, "x", self._path(path, f))
            body.append(f"x = d[{key!r}]")
            if f.tagged_at(self.version, self.flexible):
                body.append(f"if {self.non_default(f, 'x')}:")
                body.append(f"    o[{key!r}] = {expr}")
            else:
                body.append(f"o[{key!r}] = {expr}")
        body.append("return o")

    def compile(self, top: str, label: str) -> Callable[[dict[str, Any]], Any]:
        source = "\n".join(self.lines) + "\n"
        exec(compile(source, f"<{label}>", "exec"), self.ns)
        fn = self.ns[top]
        fn.source = source
        return fn


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def jsonable_bytes(b: bytes | None) -> str | None:
    """A bytes value as its JSON-able form: the base64 text (None for null)."""
    return None if b is None else base64.b64encode(b).decode("ascii")


def compile_renderer(
    msg: Message, version: int, hooks: Hooks | None = None, hidden: frozenset[str] = frozenset()
) -> Callable[[dict[str, Any]], str]:
    """`render(data) -> str`: the compact Kafka JSON of `data` (a decoded `msg` at `version`).

    `hidden` names tagged fields (dotted JSON paths) to leave out, as a Kafka release whose schema
    lacks them does: it reads their tags as unknown tagged fields, which its JSON never shows.
    """
    msg.check_version(version)
    gen = _Gen(version, msg.is_flexible(version), hooks, text=True, hidden=hidden)
    top = gen.struct(msg.fields, "")
    return gen.compile(top, f"json renderer {msg.name} v{version}")


def compile_jsonable(msg: Message, version: int, hooks: Hooks | None = None) -> Callable[[dict[str, Any]], Any]:
    """`to_jsonable(data) -> dict`: the same JSON as Python objects (for json.dumps / jsonl)."""
    msg.check_version(version)
    gen = _Gen(version, msg.is_flexible(version), hooks, text=False)
    top = gen.struct(msg.fields, "")
    return gen.compile(top, f"jsonable {msg.name} v{version}")


def renderer(
    msg: Message, version: int, hooks_key: str = "", hooks: Hooks | None = None, hidden: frozenset[str] = frozenset()
) -> Callable[..., str]:
    """The cached renderer; `hooks_key` names a hooks variant (hooks are not hashable)."""
    return msg.cached(("render", version, hooks_key, hidden), lambda: compile_renderer(msg, version, hooks, hidden))


def jsonable(msg: Message, version: int, hooks_key: str = "", hooks: Hooks | None = None) -> Callable[..., Any]:
    """The cached to-JSON-able converter."""
    return msg.cached(("jsonable", version, hooks_key), lambda: compile_jsonable(msg, version, hooks))


# --- parsing back --------------------------------------------------------------------------------


def from_jsonable(msg: Message, version: int, obj: Any, hooks: Hooks | None = None) -> dict[str, Any]:
    """Kafka JSON (as Python objects) back to decoded-data form at `version`.

    Tagged fields missing from the JSON take their default (as a decode would give); fields absent
    at `version` are ignored; a missing mandatory field is a DecodeError worded like Kafka's
    JsonConverter ("X: unable to locate field 'f', which is mandatory in version N").
    `hooks` map a dotted path to a function converting that field's JSON value.
    """
    msg.check_version(version)
    return _from_struct(msg.name, msg.fields, version, msg.is_flexible(version), obj, "", dict(hooks or {}))


def _from_struct(
    owner: str,
    fields: Sequence[Field],
    version: int,
    flexible: bool,
    obj: Any,
    path: str,
    hooks: dict[str, Callable[[Any], Any]],
) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise DecodeError(f"{owner}: expected a JSON object, got {_kind(obj)}")
    out: dict[str, Any] = {}
    for f in fields:
        if not f.present(version):
            continue
        key = f.json_name
        fpath = f"{path}.{key}" if path else key
        if key not in obj:
            if f.tagged_at(version, flexible):
                out[key] = default_value(f, version)
                continue
            raise DecodeError(f"{owner}: unable to locate field '{key}', which is mandatory in version {version}")
        value = obj[key]
        hook = hooks.get(fpath)
        if hook is not None:
            out[key] = hook(value)
            continue
        out[key] = _from_value(owner, f, version, flexible, value, fpath, hooks)
    return out


def _from_value(
    owner: str,
    f: Field,
    version: int,
    flexible: bool,
    value: Any,
    path: str,
    hooks: dict[str, Callable[[Any], Any]],
) -> Any:
    if value is None:
        if f.nullable_at(version) and f.type not in FIXED_TYPES:
            return None
        raise DecodeError(f"{owner}: field '{path}' is not nullable in version {version}")
    if f.is_array:
        if not isinstance(value, list):
            raise DecodeError(f"{owner}: field '{path}' expected a JSON array, got {_kind(value)}")
        elem = f.element_type
        if elem in FIXED_TYPES or elem in ("string", "bytes"):
            return [_scalar(owner, elem, e, f"{path}[]") for e in value]
        return [_from_struct(owner, f.fields or (), version, flexible, e, path, hooks) for e in value]
    if f.is_struct:
        return _from_struct(owner, f.fields or (), version, flexible, value, path, hooks)
    return _scalar(owner, f.type, value, path)


def _scalar(owner: str, t: str, value: Any, path: str) -> Any:
    if t in P.INT_RANGES:
        if not isinstance(value, int) or isinstance(value, bool):
            raise DecodeError(f"{owner}: field '{path}' expected an integer, got {_kind(value)}")
        low, high = P.INT_RANGES[t]
        if not low <= value <= high:
            raise DecodeError(f"{owner}: field '{path}' value {value} is out of range for {t}")
        return value
    if t == "bool":
        if not isinstance(value, bool):
            raise DecodeError(f"{owner}: field '{path}' expected a boolean, got {_kind(value)}")
        return value
    if t == "float64":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise DecodeError(f"{owner}: field '{path}' expected a number, got {_kind(value)}")
        return float(value)
    if not isinstance(value, str):
        raise DecodeError(f"{owner}: field '{path}' expected a string, got {_kind(value)}")
    if t == "string":
        return value
    if t == "uuid":
        try:
            return P.uuid_from_kafka(value)
        except (ValueError, binascii.Error):
            raise DecodeError(f"{owner}: field '{path}' is not a Kafka uuid: {value!r}") from None
    if t in ("bytes", "records"):
        try:
            return base64.b64decode(value, validate=True)
        except (ValueError, binascii.Error):
            raise DecodeError(f"{owner}: field '{path}' is not base64: {value!r}") from None
    raise DecodeError(f"{owner}: field '{path}' has unsupported type {t}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), type(value).__name__
    )


def from_jsonable_bytes(text: Any, owner: str = "bytes") -> bytes:
    """A base64 JSON string back to bytes (DecodeError when it is not base64)."""
    return _scalar(owner, "bytes", text, "value")
