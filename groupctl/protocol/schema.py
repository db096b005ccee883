"""The schema description language: Kafka's message JSON, as compact Python data.

A `Message` mirrors one of Kafka's `common/message/*.json` files: `validVersions`,
`flexibleVersions` and a tuple of `Field`s, each with `versions`, `nullableVersions`, an optional
`tag`/`taggedVersions`, a `default`, `ignorable`, and nested `fields` for structs and struct arrays.
No message has hand-written code: `Message.decoder(v)`, `.encoder(v)` and the JSON renderers are
generated from this data once per version and cached (see `codegen` and `jsonconv`).

Field types are Kafka's type strings: `bool int8 int16 uint16 int32 uint32 int64 float64 uuid string
bytes records` (records: a record-batch blob, carried as bytes), `[]T` for arrays, and any other name
for a struct (its `fields` given inline).

Python values in decoded data: int, bool, float, str, bytes, `uuid.UUID`, list, dict (struct), None.
Dict keys are the JSON names (schema name with its first letter lowercased). A field absent at the
decoded version is absent from the dict; a tagged field not on the wire holds its default. Unknown
tagged fields are kept under the key `UNKNOWN_TAGS` as a list of `(tag, bytes)` so that re-encoding
is lossless; they are never rendered to JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from groupctl.protocol.data.base import UNKNOWN_TAGS as UNKNOWN_TAGS  # one definition, used by both
from groupctl.protocol.primitives import ZERO_UUID

if TYPE_CHECKING:
    from groupctl.protocol.data.base import Data



MAX_VERSION: Final = 0x7FFF

PRIMITIVE_TYPES: Final = frozenset(
    {"bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "uuid", "string", "bytes", "records"}
)
FIXED_TYPES: Final = frozenset({"bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "uuid"})


class Versions(NamedTuple):
    """An inclusive version range; empty when `low > high` (Kafka's "none")."""

    low: int
    high: int

    def __contains__(self, version: object) -> bool:
        return isinstance(version, int) and self.low <= version <= self.high

    @property
    def empty(self) -> bool:
        return self.low > self.high

    def __str__(self) -> str:
        if self.empty:
            return "none"
        if self.high == MAX_VERSION:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


NO_VERSIONS: Final = Versions(1, 0)
_VERSIONS_RE: Final = re.compile(r"^(\d+)(\+|-(\d+))?$")


def parse_versions(text: str | Versions) -> Versions:
    """Kafka's version syntax: "none", "3", "0-4", "2+"."""
    if isinstance(text, Versions):
        return text
    text = text.strip()
    if text == "none":
        return NO_VERSIONS
    m = _VERSIONS_RE.match(text)
    if not m:
        raise ValueError(f"bad version range {text!r}")
    low = int(m.group(1))
    if m.group(2) == "+":
        return Versions(low, MAX_VERSION)
    if m.group(3) is not None:
        return Versions(low, int(m.group(3)))
    return Versions(low, low)


class _Missing:
    """Sentinel for "no default given" (Kafka then uses 0, "", empty, zero uuid, empty struct)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()


class Field(NamedTuple):
    """One field of a message or struct; see the module docstring."""

    name: str
    type: str
    versions: Versions
    nullable_versions: Versions
    tag: int | None
    tagged_versions: Versions
    default: Any
    ignorable: bool
    fields: tuple[Field, ...] | None

    @property
    def json_name(self) -> str:
        """Kafka's camelCaseName: the schema name with its first letter lowercased."""
        return self.name[:1].lower() + self.name[1:]

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def element_type(self) -> str:
        """The element type of an array (e.g. "int32", or a struct name)."""
        return self.type[2:]

    @property
    def is_struct(self) -> bool:
        return not self.is_array and self.type not in PRIMITIVE_TYPES

    @property
    def is_struct_array(self) -> bool:
        return self.is_array and self.element_type not in PRIMITIVE_TYPES

    def present(self, version: int) -> bool:
        return version in self.versions

    def tagged_at(self, version: int, flexible: bool) -> bool:
        return flexible and self.tag is not None and version in self.tagged_versions

    def nullable_at(self, version: int) -> bool:
        return version in self.nullable_versions


def field(
    name: str,
    type: str,
    versions: str = "0+",
    *,
    nullable: str = "none",
    tag: int | None = None,
    tagged: str | None = None,
    default: Any = MISSING,
    ignorable: bool = False,
    fields: Sequence[Field] | None = None,
) -> Field:
    """Build a `Field` from Kafka-JSON-like arguments (`tagged` defaults to `versions` when tagged)."""
    if type.startswith("[]"):
        elem = type[2:]
        is_struct = elem not in PRIMITIVE_TYPES
    else:
        is_struct = type not in PRIMITIVE_TYPES
    if is_struct and not fields:
        raise ValueError(f"field {name}: struct type {type} needs fields")
    if not is_struct and fields:
        raise ValueError(f"field {name}: primitive type {type} cannot have fields")
    if type.startswith("[]") and type[2:].startswith("[]"):
        raise ValueError(f"field {name}: nested arrays are not supported; use an array of structs")
    if tag is not None and tagged is None:
        tagged = versions
    return Field(
        name=name,
        type=type,
        versions=parse_versions(versions),
        nullable_versions=parse_versions(nullable),
        tag=tag,
        tagged_versions=parse_versions(tagged or "none"),
        default=default,
        ignorable=ignorable,
        fields=tuple(fields) if fields else None,
    )


class Message:
    """A top-level message (record key/value, request, response): its versions and fields.

    Compiled codecs are cached on the instance, one per (kind, version).
    """

    __slots__ = ("_compiled", "api_key", "fields", "flexible_versions", "name", "valid_versions")

    def __init__(
        self,
        name: str,
        valid_versions: str | Versions,
        flexible_versions: str | Versions,
        fields: Sequence[Field],
        *,
        api_key: int | None = None,
    ) -> None:
        self.name = name
        self.valid_versions = parse_versions(valid_versions)
        self.flexible_versions = parse_versions(flexible_versions)
        self.fields = tuple(fields)
        self.api_key = api_key
        self._compiled: dict[tuple[Any, ...], Any] = {}
        _check_tags(self.name, self.fields)

    def __repr__(self) -> str:
        return f"Message({self.name!r}, {str(self.valid_versions)!r}, {str(self.flexible_versions)!r})"

    @property
    def versions(self) -> range:
        return range(self.valid_versions.low, self.valid_versions.high + 1)

    def is_flexible(self, version: int) -> bool:
        return version in self.flexible_versions

    def check_version(self, version: int) -> None:
        if version not in self.valid_versions:
            raise ValueError(f"{self.name} has no version {version} (valid: {self.valid_versions})")

    def cached(self, key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
        """The compiled artefact for `key`, built once."""
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = build()
        return found

    def decoder(self, version: int) -> Callable[[bytes, int], tuple[dict[str, Any], int]]:
        """`decode(buf, pos) -> (data, end)`; raises `primitives.WireError` (a DecodeError)."""
        from groupctl.protocol import codegen

        return self.cached(("decode", version), lambda: codegen.compile_decoder(self, version))

    def encoder(self, version: int) -> Callable[[dict[str, Any]], bytes]:
        """`encode(data) -> bytes`; missing fields take their defaults; raises ValueError."""
        from groupctl.protocol import codegen

        return self.cached(("encode", version), lambda: codegen.compile_encoder(self, version))

    @property
    def data_class(self) -> type[Data]:
        """The class generated from this schema (`groupctl.protocol.data`)."""
        from groupctl.protocol.data import class_for

        return class_for(self.name)

    def reader(self, version: int) -> Callable[[bytes, int], tuple[Any, int]]:
        """`read(buf, pos) -> (instance of data_class, end)`; raises `primitives.WireError`."""
        from groupctl.protocol import codegen

        return self.cached(("read", version), lambda: codegen.compile_decoder(self, version, self.data_class))

    def writer(self, version: int) -> Callable[[Any], bytes]:
        """`write(instance of data_class) -> bytes`; raises ValueError for a value the version cannot carry."""
        from groupctl.protocol import codegen

        return self.cached(("write", version), lambda: codegen.compile_encoder(self, version, self.data_class))

    def read(self, buf: bytes, version: int) -> Any:
        """Read a whole buffer at `version` into an instance of `data_class`."""
        return self.reader(version)(buf, 0)[0]

    def write(self, data: Any, version: int) -> bytes:
        return self.writer(version)(data)

    def decode(self, buf: bytes, version: int) -> dict[str, Any]:
        """Decode a whole buffer at `version` (trailing bytes are ignored, as Kafka does)."""
        return self.decoder(version)(buf, 0)[0]

    def encode(self, data: dict[str, Any], version: int) -> bytes:
        return self.encoder(version)(data)


def message(
    name: str,
    valid: str,
    flexible: str,
    fields: Sequence[Field],
    *,
    api_key: int | None = None,
) -> Message:
    """Build a `Message` (the spelling used by the schema tables)."""
    return Message(name, valid, flexible, fields, api_key=api_key)


def _check_tags(owner: str, fields: Sequence[Field]) -> None:
    tags = [f.tag for f in fields if f.tag is not None]
    if len(tags) != len(set(tags)):
        raise ValueError(f"{owner}: duplicate tags {tags}")
    names = [f.json_name for f in fields]
    if len(names) != len(set(names)):
        raise ValueError(f"{owner}: duplicate field names {names}")
    for f in fields:
        if f.fields:
            _check_tags(f"{owner}.{f.name}", f.fields)


# --- defaults ------------------------------------------------------------------------------------


def default_is_null(f: Field) -> bool:
    """A null default is the string "null"; a JSON null in Kafka's schema is no default at all
    (`FieldSpec` turns it into ""), so transcribe that as no `default`."""
    return f.default == "null"


def default_value(f: Field, version: int) -> Any:
    """The value Kafka's generated constructor gives the field (a fresh object for mutables)."""
    t = f.type
    if default_is_null(f) and t not in FIXED_TYPES:
        return None
    d = f.default
    if f.is_array:
        return []
    if t in ("int8", "int16", "uint16", "int32", "uint32", "int64"):
        return 0 if d is MISSING or d == "" else (int(d, 0) if isinstance(d, str) else int(d))
    if t == "bool":
        return False if d is MISSING or d == "" else (str(d).lower() == "true")
    if t == "float64":
        return 0.0 if d is MISSING or d == "" else float(d)
    if t == "uuid":
        if d is MISSING or d == "":
            return ZERO_UUID
        from groupctl.protocol.primitives import uuid_from_kafka

        return uuid_from_kafka(d)
    if t == "string":
        return "" if d is MISSING else str(d)
    if t == "bytes":
        return b""
    if t == "records":
        return None  # Kafka: records default to null
    # a struct: the empty struct, i.e. every field at its default
    assert f.fields is not None
    return struct_defaults(f.fields, version)


def struct_defaults(fields: Sequence[Field], version: int) -> dict[str, Any]:
    """Every field present at `version`, at its default."""
    return {f.json_name: default_value(f, version) for f in fields if f.present(version)}
