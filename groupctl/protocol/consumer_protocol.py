"""The classic consumer's embedded protocol: ConsumerProtocolSubscription / ConsumerProtocolAssignment.

These are the bytes a classic group's members exchange in JoinGroup/SyncGroup and that
GroupMetadataValue stores per member (`subscription`, `assignment`) when `protocolType == "consumer"`.
On the wire: `int16 version` + the message at that version (v0-3, never flexible).

Reading follows what Kafka's DumpLogSegments does with them: the message is read at the version it
carries, so a negative version reads like v0 and a future version like v3 (every field is `N+`),
and trailing bytes are ignored. Kafka's JSON does not carry the version, so parsing JSON back picks
the lowest version whose fields are exactly those present: for a subscription that recovers the
original version (each version adds a field Kafka always prints); for an assignment (the same fields
in v0-3) it is v0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from groupctl.errors import DecodeError
from groupctl.protocol import jsonconv
from groupctl.protocol.primitives import INT16, WireError
from groupctl.protocol.schema import Message, field, message

SUBSCRIPTION: Final = message(
    "ConsumerProtocolSubscription",
    "0-3",
    "none",
    [
        field("Topics", "[]string"),
        field("UserData", "bytes", nullable="0+", default="null"),
        field(
            "OwnedPartitions",
            "[]TopicPartition",
            "1+",
            ignorable=True,
            fields=[field("Topic", "string", "1+"), field("Partitions", "[]int32", "1+")],
        ),
        field("GenerationId", "int32", "2+", default=-1, ignorable=True),
        field("RackId", "string", "3+", nullable="3+", default="null", ignorable=True),
    ],
)

ASSIGNMENT: Final = message(
    "ConsumerProtocolAssignment",
    "0-3",
    "none",
    [
        field(
            "AssignedPartitions",
            "[]TopicPartition",
            fields=[field("Topic", "string"), field("Partitions", "[]int32")],
        ),
        field("UserData", "bytes", nullable="0+", default="null"),
    ],
)

PROTOCOL_TYPE: Final = "consumer"
"""GroupMetadataValue.protocolType of groups whose member bytes use this protocol."""


def effective_version(msg: Message, version: int) -> int:
    """The layout Kafka's generated reader uses for `version` (only `>= N` checks exist)."""
    return min(max(version, msg.valid_versions.low), msg.valid_versions.high)


def decode(msg: Message, buf: bytes) -> tuple[int, dict[str, Any]]:
    """`(written version, data)`; raises DecodeError with Kafka's reader message."""
    if len(buf) < 2:
        raise WireError("null")
    (version,) = INT16.unpack_from(buf, 0)
    data, _ = msg.decoder(effective_version(msg, version))(buf, 2)
    return version, data


def version_of(buf: bytes) -> int | None:
    """The version the bytes say they are (their leading int16), None when there are not two bytes."""
    return INT16.unpack_from(buf, 0)[0] if len(buf) >= 2 else None


def reads_as_earlier_version(msg: Message, buf: bytes) -> int | None:
    """The highest version below the one `buf` says it is whose layout reads it exactly (every byte,
    no error); None when there is none. Such bytes came from a client that labels an older layout
    with a newer version (kafka-go writes ConsumerProtocolSubscription v1 with v0's fields); Kafka's
    reader, which trusts the label, fails on them as `decode` does."""
    labelled = version_of(buf)
    if labelled is None:
        return None
    for version in range(effective_version(msg, labelled) - 1, msg.valid_versions.low - 1, -1):
        try:
            _, end = msg.decoder(version)(buf, 2)
        except DecodeError:
            continue
        if end == len(buf):
            return version
    return None


def encode(msg: Message, data: dict[str, Any], version: int) -> bytes:
    """`int16 version` + the message at `version`."""
    return INT16.pack(version) + msg.encoder(version)(data)


def lowest_version(msg: Message, keys: set[str] | dict[str, Any]) -> int:
    """The lowest version whose fields include every key present (a JSON object's keys)."""
    keys = set(keys)
    for v in msg.versions:
        if keys <= {f.json_name for f in msg.fields if f.present(v)}:
            return v
    return msg.valid_versions.high


def decode_subscription(buf: bytes) -> tuple[int, dict[str, Any]]:
    return decode(SUBSCRIPTION, buf)


def decode_assignment(buf: bytes) -> tuple[int, dict[str, Any]]:
    return decode(ASSIGNMENT, buf)


def encode_subscription(data: dict[str, Any], version: int) -> bytes:
    return encode(SUBSCRIPTION, data, version)


def encode_assignment(data: dict[str, Any], version: int) -> bytes:
    return encode(ASSIGNMENT, data, version)


def render_json(msg: Message, buf: bytes) -> str | None:
    """Kafka's JSON of the embedded bytes, or None when they do not decode (Kafka then keeps base64)."""
    try:
        version, data = decode(msg, buf)
    except DecodeError:
        return None
    return jsonconv.renderer(msg, effective_version(msg, version))(data)


def to_jsonable(msg: Message, buf: bytes) -> dict[str, Any] | None:
    """The same as Python objects, or None when the bytes do not decode."""
    try:
        version, data = decode(msg, buf)
    except DecodeError:
        return None
    return jsonconv.jsonable(msg, effective_version(msg, version))(data)


def from_jsonable(msg: Message, obj: dict[str, Any]) -> bytes:
    """Re-encode decoded JSON at the lowest version that carries its fields (see module docstring)."""
    version = lowest_version(msg, obj)
    data = jsonconv.from_jsonable(msg, version, obj)
    return encode(msg, data, version)


def bytes_hooks(msg: Message) -> tuple[Callable[[bytes], str], Callable[[bytes], Any]]:
    """Render hooks for a bytes field holding `msg`: decoded JSON, else Kafka's base64 fallback."""

    def text(b: bytes) -> str:
        rendered = render_json(msg, b)
        return jsonconv.json_bytes(b) if rendered is None else rendered

    def obj(b: bytes) -> Any:
        converted = to_jsonable(msg, b)
        return jsonconv.jsonable_bytes(b) if converted is None else converted

    return text, obj
