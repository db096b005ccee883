"""What every generated message class shares: equality, repr, and the JSON-name dict view.

The generated classes (one per message, record key, record value and nested struct, every version in
one class, as Kafka's `…Data`) hold only their fields; the behaviour lives here, driven by each
class's `_FIELDS` table, so the generated modules stay declarations a reader can scan.

`to_dict` and `from_dict` translate to and from the dicts the schema decoders produce (JSON names,
`schema.UNKNOWN_TAGS` for unknown tagged fields): the record hot paths and Kafka-JSON rendering keep
those dicts, and a typed value is built from one only where something reads it by attribute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

UNKNOWN_TAGS: Final = "_unknownTaggedFields"
"""Dict key under which unknown tagged fields (a list of `(tag, bytes)`) survive a dict decode; the schema
decoders and these classes share it."""

TaggedFields = list[tuple[int, bytes]] | None
"""Unknown tagged fields as `(tag, raw bytes)`, kept so that re-encoding is lossless; None when none."""

FieldTable = tuple[tuple[str, str, "type[Data] | None"], ...]
"""`(attribute, JSON name, nested class or None)` per field, in schema order."""


class _Unset:
    """The default of a list or struct parameter: each instance gets a fresh one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final[Any] = _Unset()
"""Typed `Any` so that a parameter `topics: list[T] = UNSET` checks; never stored on an instance."""


class Data:
    """Base of the generated classes; see the module docstring."""

    __slots__ = ("unknown_tagged_fields",)
    _FIELDS: ClassVar[FieldTable] = ()
    SCHEMA_NAME: ClassVar[str] = ""
    """The schema (`Message.name`) a top-level class was generated from; "" for a nested struct."""

    unknown_tagged_fields: TaggedFields

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        if self.unknown_tagged_fields != other.unknown_tagged_fields:
            return False
        return all(getattr(self, attr) == getattr(other, attr) for attr, _, _ in self._FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dict is

    def __repr__(self) -> str:
        parts = ", ".join(f"{attr}={getattr(self, attr)!r}" for attr, _, _ in self._FIELDS)
        return f"{type(self).__name__}({parts})"

    def to_dict(self) -> dict[str, Any]:
        """The value as the schema decoders' dict (every field, nested values as dicts too)."""
        out: dict[str, Any] = {}
        for attr, name, nested in self._FIELDS:
            value = getattr(self, attr)
            if nested is not None and value is not None:
                value = [v.to_dict() for v in value] if isinstance(value, list) else value.to_dict()
            out[name] = value
        if self.unknown_tagged_fields:
            out[UNKNOWN_TAGS] = list(self.unknown_tagged_fields)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any:
        """An instance from a schema decoder's dict; fields the dict lacks take their defaults.

        Returns `Any` only because a classmethod on the base cannot name the subclass for a checker
        without a TypeVar on every call site; callers annotate what they built.
        """
        return cls.reader()(data)

    @classmethod
    def reader(cls) -> Callable[[dict[str, Any]], Any]:
        """`from_dict` as one function compiled for this class, for a loop that builds many (a replay
        builds one per group record): a store per field instead of a table walk and keyword arguments.
        A dict that lacks a field (a version older than the class) goes the table's way, which fills in
        the defaults, so the result is always `from_table`'s."""
        reader = _READERS.get(cls)
        if reader is None:
            reader = _READERS[cls] = _compile_reader(cls)
        return reader

    @classmethod
    def from_table(cls, data: dict[str, Any]) -> Any:
        """`from_dict` by walking `_FIELDS` and calling the constructor: the reference the compiled
        reader is tested against, and its way for a dict without every field."""
        kwargs: dict[str, Any] = {}
        for attr, name, nested in cls._FIELDS:
            if name not in data:
                continue
            value = data[name]
            if nested is not None and value is not None:
                value = [nested.from_table(v) for v in value] if isinstance(value, list) else nested.from_table(value)
            kwargs[attr] = value
        unknown = data.get(UNKNOWN_TAGS)
        if unknown:
            kwargs["unknown_tagged_fields"] = list(unknown)
        return cls(**kwargs)

    @classmethod
    def nested(cls, json_name: str) -> type[Data] | None:
        """The class of a struct (or struct-array) field, by JSON name."""
        for _, name, nested in cls._FIELDS:
            if name == json_name:
                return nested
        raise KeyError(f"{cls.__name__} has no field {json_name!r}")

    @classmethod
    def attribute(cls, json_name: str) -> str:
        """The attribute that holds the field with this JSON name."""
        for attr, name, _ in cls._FIELDS:
            if name == json_name:
                return attr
        raise KeyError(f"{cls.__name__} has no field {json_name!r}")


_READERS: dict[type[Data], Callable[[dict[str, Any]], Any]] = {}


def _compile_reader(cls: type[Data]) -> Callable[[dict[str, Any]], Any]:
    """Source for `cls.reader()`: `object.__new__`, then one store per slot (nested values by their own readers)."""
    ns: dict[str, Any] = {"cls": cls, "new": object.__new__, "from_table": cls.from_table, "UNKNOWN_TAGS": UNKNOWN_TAGS,
                          "list": list}
    lines = ["def read(d):", "    try:", "        o = new(cls)"]
    for i, (attr, name, nested) in enumerate(cls._FIELDS):
        if nested is None:
            lines.append(f"        o.{attr} = d[{name!r}]")
            continue
        ns[f"r{i}"] = nested.reader()
        lines.append(f"        v = d[{name!r}]")
        lines.append(f"        o.{attr} = v if v is None else [r{i}(x) for x in v] if v.__class__ is list else r{i}(v)")
    lines += [
        "    except KeyError:",
        "        return from_table(d)",
        "    u = d.get(UNKNOWN_TAGS)",
        "    o.unknown_tagged_fields = list(u) if u else None",
        "    return o",
    ]
    exec(compile("\n".join(lines), f"<reader {cls.__name__}>", "exec"), ns)
    read: Callable[[dict[str, Any]], Any] = ns["read"]
    return read
