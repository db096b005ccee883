"""The `__consumer_offsets` record API: keys and values to and from bytes and Kafka's JSON.

Framing (`CoordinatorRecordSerde`): key = int16 record type + key message; value = int16 value
version + value message (a tombstone is a null value, which is the caller's business).

Errors are `DecodeError`s worded as Kafka's DumpLogSegments words them, so a caller can print
`Error at offset O, skipping. <reason>`:

* a key or value shorter than its int16 prefix: "Could not read version from key's buffer." (value's);
* an unknown type: `UnknownRecordType` ("Unknown record type T"; Kafka prints
  "Unknown record type T at offset O, skipping.");
* a value version outside the schema's valid range: `UnknownRecordVersion`
  ("Found an unknown record version V for T type", Kafka's UnknownRecordVersionException);
* a malformed message: "Could not read record with version V from key's|value's buffer due to:
  <reader message>." (for keys V is the record type: Kafka reads a key at version = type, which is
  the same layout as version 0 since every key field is `0+` and keys are never flexible);
* a type 4/5/7/8 value in the Kafka 3.5-3.7 early-access KIP-848 layout: `EarlyAccessLayout`, which
  also tells what Kafka itself would print (`kafka_reason`, or the mis-decoded `kafka_value` when
  Kafka reads it without error and ignores the trailing bytes).

Decoded `data` dicts use Kafka's JSON names; see `groupctl.protocol.schema` for the value types
(`uuid.UUID` for uuids) and for how unknown tagged fields are kept. Treat results as immutable:
`decode_key` returns the same object for identical key bytes.
"""

from __future__ import annotations

import contextlib
import json
import re
import struct
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from groupctl.errors import DecodeError
from groupctl.protocol import consumer_protocol, jsonconv
from groupctl.protocol.primitives import INT16, UNDERFLOW, WireError
from groupctl.protocol.record_schemas import EARLY_ACCESS_VALUE_SCHEMAS, KEY_SCHEMAS, VALUE_SCHEMAS
from groupctl.protocol.schema import Message


def _enum_name(key_schema_name: str) -> str:
    """CoordinatorRecordTypeGenerator's constant: upper snake case of the key name minus "Key"."""
    base = key_schema_name.removesuffix("Key")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", base).upper()


RECORD_TYPE_NAMES: Final[dict[int, str]] = {t: _enum_name(m.name) for t, m in KEY_SCHEMAS.items()}
"""Record type id -> Kafka's `CoordinatorRecordType` constant name (0 -> "LEGACY_OFFSET_COMMIT")."""


class RecordKey(NamedTuple):
    """A decoded key: the record type and the key fields (JSON names)."""

    type: int
    data: dict


class RecordValue(NamedTuple):
    """A decoded value: its version and fields (JSON names)."""

    version: int
    data: dict


class UnknownRecordType(DecodeError):
    """A key whose type is not a `__consumer_offsets` record type (Kafka skips such records)."""

    def __init__(self, record_type: int) -> None:
        super().__init__(f"Unknown record type {record_type}")
        self.record_type = record_type


class UnknownRecordVersion(DecodeError):
    """A value version outside the type's valid versions."""

    def __init__(self, record_type: int, version: int) -> None:
        super().__init__(f"Found an unknown record version {version} for {record_type} type")
        self.record_type = record_type
        self.version = version


class EarlyAccessLayout(DecodeError):
    """A type 4/5/7/8 value written by a Kafka 3.5-3.7 broker with KIP-848 early access on.

    Those layouts are incompatible with 3.8+; the record is reported, not mis-decoded. Kafka's own
    DumpLogSegments would print `kafka_reason` (an "Error at offset" line) or, when its reader
    happens to get through and ignores the trailing bytes, the JSON of `kafka_value`.
    """

    def __init__(
        self,
        record_type: int,
        *,
        kafka_reason: str | None = None,
        kafka_value: RecordValue | None = None,
    ) -> None:
        name = VALUE_SCHEMAS[record_type].name
        super().__init__(
            f"Record type {record_type} ({name}) uses the Kafka 3.5-3.7 early-access KIP-848 layout, "
            "which Kafka 3.8+ cannot read; not decoded"
        )
        self.record_type = record_type
        self.kafka_reason = kafka_reason
        self.kafka_value = kafka_value


# --- decoding ------------------------------------------------------------------------------------

_KEY_CACHE: dict[bytes, RecordKey] = {}
KEY_CACHE_SIZE: Final = 1 << 16
"""Distinct key byte strings remembered by `decode_key` (oldest evicted first)."""

_tuple_new = tuple.__new__
_int16 = INT16.unpack_from
_KEY_DECODERS: dict[int, Callable[[bytes, int], tuple[dict[str, Any], int]]] = {}
_VALUE_DECODERS: dict[int, Callable[[bytes, int, int], tuple[dict[str, Any], int]]] = {}


def decode_key(buf: bytes) -> RecordKey:
    """Decode a record key; identical bytes give the same (cached, treat as immutable) result."""
    if type(buf) is not bytes:
        buf = bytes(buf)
    hit = _KEY_CACHE.get(buf)
    if hit is not None:
        return hit
    key = _decode_key(buf)
    if len(_KEY_CACHE) >= KEY_CACHE_SIZE:
        # evict the oldest entry; tolerate another thread having just done it
        with contextlib.suppress(StopIteration, RuntimeError):
            _KEY_CACHE.pop(next(iter(_KEY_CACHE)), None)
    _KEY_CACHE[buf] = key
    return key


def _decode_key(buf: bytes) -> RecordKey:
    if len(buf) < 2:
        raise DecodeError("Could not read version from key's buffer.")
    (record_type,) = _int16(buf, 0)
    dec = _KEY_DECODERS.get(record_type)
    if dec is None:
        schema = KEY_SCHEMAS.get(record_type)
        if schema is None:
            raise UnknownRecordType(record_type)
        dec = _KEY_DECODERS[record_type] = schema.decoder(0)
    try:
        data, _ = dec(buf, 2)
    except WireError as exc:
        raise DecodeError(_read_error(record_type, "key", exc.reason)) from None
    return _tuple_new(RecordKey, (record_type, data))


def _read_error(version: int, which: str, reason: str) -> str:
    return f"Could not read record with version {version} from {which}'s buffer due to: {reason}."


def _value_decoder(record_type: int, version: int) -> Callable[[bytes, int, int], tuple[dict[str, Any], int]]:
    """The bare generated decoder of (type, version), cached under `type << 16 | version`."""
    schema = VALUE_SCHEMAS.get(record_type)
    if schema is None:
        raise UnknownRecordType(record_type)
    if version not in schema.valid_versions:
        raise UnknownRecordVersion(record_type, version)
    dec = schema.decoder(version).inner  # type: ignore[attr-defined]  # codegen hangs the bare decoder on the function
    _VALUE_DECODERS[(record_type << 16) | version] = dec
    return dec


def decode_value(record_type: int, buf: bytes) -> RecordValue:
    """Decode a (non-tombstone) value of `record_type`. Trailing bytes are ignored, as Kafka does.

    This runs once per record of every dump, so the generated decoder is called bare and its
    low-level failures (IndexError, struct.error: a short buffer) are mapped to Kafka's wording here.
    """
    if type(buf) is not bytes:
        buf = bytes(buf)
    if len(buf) < 2:
        raise DecodeError("Could not read version from value's buffer.")
    version = (buf[0] << 8 | buf[1]) - ((buf[0] & 0x80) << 9)
    dec = _VALUE_DECODERS.get((record_type << 16) | (version & 0xFFFF))
    if dec is None:
        dec = _value_decoder(record_type, version)
    try:
        data, end = dec(buf, 2, len(buf))
    except (WireError, IndexError, struct.error) as exc:
        reason = _read_error(version, "value", exc.reason if isinstance(exc, WireError) else UNDERFLOW)
        if record_type in EARLY_ACCESS_VALUE_SCHEMAS and _early_access(record_type, buf):
            raise EarlyAccessLayout(record_type, kafka_reason=reason) from None
        raise DecodeError(reason) from None
    except Exception as exc:  # a codec bug must still surface as a DecodeError
        raise DecodeError(_read_error(version, "value", f"{type(exc).__name__}: {exc}")) from exc
    value = _tuple_new(RecordValue, (version, data))
    if end != len(buf) and record_type in EARLY_ACCESS_VALUE_SCHEMAS and _early_access(record_type, buf):
        raise EarlyAccessLayout(record_type, kafka_value=value)
    return value


def decode_value_as(
    record_type: int, buf: bytes, *, schema_type: int | None = None, nearest: bool = False
) -> tuple[RecordValue, int]:
    """Decode a value as an older Kafka's tool did: `(value, layout version)`.

    `schema_type` reads it with another type's schema (Kafka before 4.1 read type 0 values as
    OffsetCommitValue). With `nearest`, a version outside the valid range is read with the layout of
    the nearest valid version, as Kafka 3.8-3.9 did (their serde did not check it); the value keeps
    its own version number. Errors are worded as `decode_value`'s, naming `record_type`.
    """
    schema = _value_schema(record_type if schema_type is None else schema_type)
    if type(buf) is not bytes:
        buf = bytes(buf)
    if len(buf) < 2:
        raise DecodeError("Could not read version from value's buffer.")
    (version,) = _int16(buf, 0)
    valid = schema.valid_versions
    layout = version
    if version not in valid:
        if not nearest:
            raise UnknownRecordVersion(record_type, version)
        layout = min(max(version, valid.low), valid.high)
    try:
        data, _ = schema.decoder(layout)(buf, 2)
    except DecodeError as exc:
        raise DecodeError(_read_error(version, "value", exc.reason)) from None
    return RecordValue(version, data), layout


def _early_access(record_type: int, buf: bytes) -> bool:
    """Whether `buf` reads completely, with nothing left over, as a 3.5-3.7 early-access layout."""
    for schema in EARLY_ACCESS_VALUE_SCHEMAS[record_type]:
        try:
            _, end = schema.decoder(0)(buf, 2)
        except DecodeError:
            continue
        if end == len(buf):
            return True
    return False


# --- encoding ------------------------------------------------------------------------------------


def _key_schema(record_type: int) -> Message:
    schema = KEY_SCHEMAS.get(record_type)
    if schema is None:
        raise ValueError(f"Unknown record type {record_type}")
    return schema


def _value_schema(record_type: int) -> Message:
    schema = VALUE_SCHEMAS.get(record_type)
    if schema is None:
        raise ValueError(f"Unknown record type {record_type}")
    return schema


def encode_key(record_type: int, data: dict) -> bytes:
    """int16 type + the key at version 0. Missing fields take their defaults; bad data: ValueError."""
    return INT16.pack(record_type) + _key_schema(record_type).encoder(0)(data)


def encode_value(record_type: int, version: int, data: dict) -> bytes:
    """int16 version + the value at `version` (fields absent at that version are not written)."""
    return INT16.pack(version) + _value_schema(record_type).encoder(version)(data)


# --- Kafka JSON ----------------------------------------------------------------------------------

_SUB_TEXT, _SUB_OBJ = consumer_protocol.bytes_hooks(consumer_protocol.SUBSCRIPTION)
_ASG_TEXT, _ASG_OBJ = consumer_protocol.bytes_hooks(consumer_protocol.ASSIGNMENT)
_CONSUMER_TEXT_HOOKS: Final = {"members.subscription": _SUB_TEXT, "members.assignment": _ASG_TEXT}
_CONSUMER_OBJ_HOOKS: Final = {"members.subscription": _SUB_OBJ, "members.assignment": _ASG_OBJ}
_GROUP_METADATA: Final = 2


_KEY_RENDERERS: dict[int, Callable[[dict], str]] = {}
_VALUE_RENDERERS: dict[tuple[int, int, bool, frozenset[str]], Callable[[dict], str]] = {}
_SHOWN_ALL: Final[frozenset[str]] = frozenset()


def _is_consumer_group(record_type: int, data: dict) -> bool:
    return record_type == _GROUP_METADATA and data.get("protocolType") == consumer_protocol.PROTOCOL_TYPE


def _value_renderer(record_type: int, version: int, consumer: bool, hidden: frozenset[str]) -> Callable[[dict], str]:
    schema = _value_schema(record_type)
    if consumer:
        fn = jsonconv.renderer(schema, version, "consumer", _CONSUMER_TEXT_HOOKS, hidden)
    else:
        fn = jsonconv.renderer(schema, version, hidden=hidden)
    _VALUE_RENDERERS[(record_type, version, consumer, hidden)] = fn
    return fn


def key_json(key: RecordKey) -> str:
    """Exactly Kafka 3.8+ DumpLogSegments' key: `{"type":"1","data":{...}}` (type as a string)."""
    render = _KEY_RENDERERS.get(key.type)
    if render is None:
        render = _KEY_RENDERERS[key.type] = jsonconv.renderer(_key_schema(key.type), 0)
    return f'{{"type":"{key.type}","data":{render(key.data)}}}'


def value_json(
    record_type: int,
    value: RecordValue,
    hidden: frozenset[str] = _SHOWN_ALL,
    *,
    layout: int | None = None,
) -> str:
    """Exactly DumpLogSegments' payload: `{"version":"3","data":{...}}`.

    A GroupMetadataValue of protocol type "consumer" shows each member's subscription and assignment
    decoded (ConsumerProtocol JSON), or as base64 when they do not decode, as Kafka does.
    `hidden` leaves out tagged fields an older Kafka's schema lacks (see `jsonconv.compile_renderer`);
    `layout` renders with another version's fields while printing the value's own version number.
    """
    version, data = value
    fields_at = version if layout is None else layout
    cache_key = (
        record_type, fields_at, record_type == _GROUP_METADATA and _is_consumer_group(record_type, data), hidden
    )
    render = _VALUE_RENDERERS.get(cache_key)
    if render is None:
        render = _value_renderer(*cache_key)
    return f'{{"version":"{version}","data":{render(data)}}}'


def key_to_jsonable(key: RecordKey) -> dict:
    """The key JSON as Python objects, type as an int: `{"type": 1, "data": {...}}`."""
    conv = jsonconv.jsonable(_key_schema(key.type), 0)
    return {"type": key.type, "data": conv(key.data)}


def value_to_jsonable(record_type: int, value: RecordValue) -> dict:
    """The value JSON as Python objects, version as an int: `{"version": 3, "data": {...}}`."""
    schema = _value_schema(record_type)
    if _is_consumer_group(record_type, value.data):
        conv = jsonconv.jsonable(schema, value.version, "consumer", _CONSUMER_OBJ_HOOKS)
    else:
        conv = jsonconv.jsonable(schema, value.version)
    return {"version": value.version, "data": conv(value.data)}


def _as_int(obj: Any, name: str) -> int:
    """`type`/`version` from either JSON form: a number (jsonl) or a string (DumpLogSegments)."""
    value = obj.get(name) if isinstance(obj, dict) else None
    if isinstance(value, bool):
        value = None
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        value = int(value)
    if not isinstance(value, int):
        raise DecodeError(f"expected an object with an integer '{name}', got {json.dumps(obj)[:200]}")
    return value


def key_from_jsonable(obj: dict) -> RecordKey:
    """Parse Kafka's key JSON (as objects) back; `type` may be a number or a string."""
    record_type = _as_int(obj, "type")
    schema = KEY_SCHEMAS.get(record_type)
    if schema is None:
        raise UnknownRecordType(record_type)
    return RecordKey(record_type, jsonconv.from_jsonable(schema, 0, obj.get("data")))


def _consumer_bytes(msg: Message) -> Callable[[Any], bytes]:
    def convert(value: Any) -> bytes:
        if isinstance(value, str):  # undecodable bytes, kept as base64 by Kafka
            return jsonconv.from_jsonable_bytes(value, msg.name)
        if isinstance(value, dict):
            try:
                return consumer_protocol.from_jsonable(msg, value)
            except ValueError as exc:
                raise DecodeError(f"{msg.name}: {exc}") from None
        raise DecodeError(f"{msg.name}: expected a JSON object or a base64 string")

    return convert


_CONSUMER_PARSE_HOOKS: Final = {
    "members.subscription": _consumer_bytes(consumer_protocol.SUBSCRIPTION),
    "members.assignment": _consumer_bytes(consumer_protocol.ASSIGNMENT),
}


def value_from_jsonable(record_type: int, obj: dict) -> RecordValue:
    """Parse Kafka's value JSON (as objects) back; `version` may be a number or a string.

    Uuids come back from their base64url text and bytes from base64. A consumer group's decoded
    subscription/assignment JSON is re-encoded at the lowest ConsumerProtocol version carrying its
    fields (see `consumer_protocol`); the JSON does not record the version the client used.
    """
    version = _as_int(obj, "version")
    schema = VALUE_SCHEMAS.get(record_type)
    if schema is None:
        raise UnknownRecordType(record_type)
    if version not in schema.valid_versions:
        raise UnknownRecordVersion(record_type, version)
    data = obj.get("data")
    hooks = None
    if isinstance(data, dict) and _is_consumer_group(record_type, data):
        hooks = _CONSUMER_PARSE_HOOKS
    return RecordValue(version, jsonconv.from_jsonable(schema, version, data, hooks))
