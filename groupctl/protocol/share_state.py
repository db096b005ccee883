"""The `__share_group_state` record API: keys and values to and from bytes and Kafka's JSON.

The framing is `__consumer_offsets`' (int16 record type + key, int16 value version + value), and so
are the error texts (see `groupctl.protocol.records`), but the type space is the share coordinator's:
0 ShareSnapshot, 1 ShareUpdate. Keys and values come back as `ShareStateKey`/`ShareStateValue`, not
as `records.RecordKey`/`RecordValue`, so no code written for `__consumer_offsets` (the replay, the
audit, the compiled printers, which check the exact tuple class) mistakes a snapshot for an offset
commit of the same type number.
"""

from __future__ import annotations

import struct
from typing import Any, Final, NamedTuple

from groupctl.errors import DecodeError
from groupctl.protocol import jsonconv
from groupctl.protocol.primitives import INT16, UNDERFLOW, WireError
from groupctl.protocol.records import UnknownRecordType, UnknownRecordVersion
from groupctl.protocol.schema import Message
from groupctl.protocol.share_state_schemas import (
    SHARE_STATE_KEY_SCHEMAS,
    SHARE_STATE_RECORD_TYPE_NAMES,
    SHARE_STATE_VALUE_SCHEMAS,
)

SHARE_STATE_TOPIC: Final = "__share_group_state"

__all__ = [
    "SHARE_STATE_RECORD_TYPE_NAMES",
    "SHARE_STATE_TOPIC",
    "ShareStateKey",
    "ShareStateValue",
    "decode_key",
    "decode_value",
    "encode_key",
    "encode_value",
    "key_from_jsonable",
    "key_json",
    "key_to_jsonable",
    "value_from_jsonable",
    "value_json",
    "value_to_jsonable",
]


class ShareStateKey(NamedTuple):
    """A decoded `__share_group_state` key: the record type and `groupId`, `topicId`, `partition`."""

    type: int
    data: dict


class ShareStateValue(NamedTuple):
    """A decoded `__share_group_state` value: its version and fields (JSON names)."""

    version: int
    data: dict


def _read_error(version: int, which: str, reason: str) -> str:
    return f"Could not read record with version {version} from {which}'s buffer due to: {reason}."


def _key_schema(record_type: int) -> Message:
    schema = SHARE_STATE_KEY_SCHEMAS.get(record_type)
    if schema is None:
        raise UnknownRecordType(record_type)
    return schema


def _value_schema(record_type: int) -> Message:
    schema = SHARE_STATE_VALUE_SCHEMAS.get(record_type)
    if schema is None:
        raise UnknownRecordType(record_type)
    return schema


def decode_key(buf: bytes) -> ShareStateKey:
    """Decode a key as Kafka's ShareCoordinatorRecordSerde does (read at version = type: the same layout)."""
    buf = bytes(buf)
    if len(buf) < 2:
        raise DecodeError("Could not read version from key's buffer.")
    (record_type,) = INT16.unpack_from(buf, 0)
    schema = _key_schema(record_type)
    try:
        data, _ = schema.decoder(0)(buf, 2)
    except WireError as exc:
        raise DecodeError(_read_error(record_type, "key", exc.reason)) from None
    return ShareStateKey(record_type, data)


def decode_value(record_type: int, buf: bytes) -> ShareStateValue:
    """Decode a (non-tombstone) value of `record_type`; trailing bytes are ignored, as Kafka does."""
    buf = bytes(buf)
    if len(buf) < 2:
        raise DecodeError("Could not read version from value's buffer.")
    (version,) = INT16.unpack_from(buf, 0)
    schema = _value_schema(record_type)
    if version not in schema.valid_versions:
        raise UnknownRecordVersion(record_type, version)
    try:
        data, _ = schema.decoder(version)(buf, 2)
    except WireError as exc:
        raise DecodeError(_read_error(version, "value", exc.reason)) from None
    except (IndexError, struct.error):
        raise DecodeError(_read_error(version, "value", UNDERFLOW)) from None
    return ShareStateValue(version, data)


def encode_key(record_type: int, data: dict) -> bytes:
    """int16 type + the key; bad data: ValueError."""
    return INT16.pack(record_type) + _key_schema(record_type).encoder(0)(data)


def encode_value(record_type: int, version: int, data: dict) -> bytes:
    """int16 version + the value at `version`."""
    return INT16.pack(version) + _value_schema(record_type).encoder(version)(data)


def key_json(key: ShareStateKey) -> str:
    """DumpLogSegments' key text: `{"type":"0","data":{...}}`."""
    render = jsonconv.renderer(_key_schema(key.type), 0)
    return f'{{"type":"{key.type}","data":{render(key.data)}}}'


def value_json(record_type: int, value: ShareStateValue, hidden: frozenset[str] = frozenset()) -> str:
    """DumpLogSegments' payload text: `{"version":"0","data":{...}}`; `hidden` leaves out tagged fields
    an older Kafka's schema lacks."""
    render = jsonconv.renderer(_value_schema(record_type), value.version, hidden=hidden)
    return f'{{"version":"{value.version}","data":{render(value.data)}}}'


def key_to_jsonable(key: ShareStateKey) -> dict[str, Any]:
    """The key JSON as Python objects, type as an int."""
    return {"type": key.type, "data": jsonconv.jsonable(_key_schema(key.type), 0)(key.data)}


def value_to_jsonable(record_type: int, value: ShareStateValue) -> dict[str, Any]:
    """The value JSON as Python objects, version as an int."""
    conv = jsonconv.jsonable(_value_schema(record_type), value.version)
    return {"version": value.version, "data": conv(value.data)}


def _as_int(obj: Any, name: str) -> int:
    value = obj.get(name) if isinstance(obj, dict) else None
    if isinstance(value, str) and value.lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DecodeError(f"expected an object with an integer '{name}', got {str(obj)[:200]}")
    return value


def key_from_jsonable(obj: dict) -> ShareStateKey:
    """Kafka's key JSON (as objects) back; `type` may be a number or a string."""
    record_type = _as_int(obj, "type")
    return ShareStateKey(record_type, jsonconv.from_jsonable(_key_schema(record_type), 0, obj.get("data")))


def value_from_jsonable(record_type: int, obj: dict) -> ShareStateValue:
    """Kafka's value JSON (as objects) back; `version` may be a number or a string."""
    version = _as_int(obj, "version")
    schema = _value_schema(record_type)
    if version not in schema.valid_versions:
        raise UnknownRecordVersion(record_type, version)
    return ShareStateValue(version, jsonconv.from_jsonable(schema, version, obj.get("data")))
