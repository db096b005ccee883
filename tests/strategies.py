"""Hypothesis strategies built from a schema description: valid data for any message at any version.

For property tests of the codec and of the code built on it (records, wire messages): the same
schema data that drives the decoder drives the generator, so every field, version, nullable and
tagged variant is covered without a hand-written strategy per message. It lives with the tests
because it needs `hypothesis`, a dev dependency that an installed groupctl does not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from groupctl.protocol.primitives import INT_RANGES, uuid_from_bytes
from groupctl.protocol.schema import FIXED_TYPES, UNKNOWN_TAGS, Field, Message

MAX_LIST = 3


def scalar(type_name: str) -> st.SearchStrategy[Any]:
    """Values of one primitive type, within the wire type's range."""
    if type_name in INT_RANGES:
        low, high = INT_RANGES[type_name]
        return st.one_of(st.integers(low, high), st.sampled_from(sorted({low, high, 0, -1 if low < 0 else 1})))
    if type_name == "bool":
        return st.booleans()
    if type_name == "float64":
        return st.floats(allow_nan=False)
    if type_name == "uuid":
        return st.binary(min_size=16, max_size=16).map(uuid_from_bytes)
    if type_name == "string":
        return st.text(max_size=12)
    if type_name in ("bytes", "records"):
        return st.binary(max_size=12)
    raise ValueError(f"not a primitive type: {type_name}")


def field_values(f: Field, version: int, flexible: bool, unknown_tags: bool) -> st.SearchStrategy[Any]:
    """Values of field `f` at `version` (None included where the field is nullable)."""
    if f.is_array:
        if f.is_struct_array:
            elem = struct_values(f.fields or (), version, flexible, unknown_tags)
        else:
            elem = scalar(f.element_type)
        base: st.SearchStrategy[Any] = st.lists(elem, max_size=MAX_LIST)
    elif f.is_struct:
        base = struct_values(f.fields or (), version, flexible, unknown_tags)
    else:
        base = scalar(f.type)
    if f.nullable_at(version) and f.type not in FIXED_TYPES:
        return st.one_of(st.none(), base)
    return base


def struct_values(
    fields: Sequence[Field], version: int, flexible: bool, unknown_tags: bool = False
) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts with exactly the fields present at `version` (the shape a decode returns)."""
    parts = {f.json_name: field_values(f, version, flexible, unknown_tags) for f in fields if f.present(version)}
    strategy = st.fixed_dictionaries(parts)
    if not (flexible and unknown_tags):
        return strategy
    known = {f.tag for f in fields if f.tag is not None}
    free_tags = st.integers(0, 40).filter(lambda t: t not in known)
    unknown = st.lists(st.tuples(free_tags, st.binary(max_size=6)), max_size=2, unique_by=lambda tb: tb[0]).map(
        lambda xs: sorted(xs, key=lambda tb: tb[0])
    )

    def add_unknown(d: dict[str, Any], extra: list[tuple[int, bytes]]) -> dict[str, Any]:
        if extra:
            d = dict(d)
            d[UNKNOWN_TAGS] = extra
        return d

    return st.builds(add_unknown, strategy, unknown)


def message_values(msg: Message, version: int, *, unknown_tags: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    """Valid data for `msg` at `version`; `unknown_tags` adds unknown tagged fields (flexible only)."""
    return struct_values(msg.fields, version, msg.is_flexible(version), unknown_tags)
