"""Kafka's primitive encodings the generated codecs share: varints, uuids, integer ranges, error texts.

Readers take `(buf, pos)` and return `(value, new_pos)`; writers return `bytes`. The generated codecs
inline fixed-width fields, strings and bytes, and call these only for the slow paths (multi-byte
varints) and the shared texts, so the functions
here favour exactness over speed: every failure raises `WireError` worded as Kafka's own reader
(`ByteBufferAccessor`, `ByteUtils`, the generated `read` methods) words it, so a caller can print the
same line `kafka-dump-log.sh` prints.
"""

from __future__ import annotations

import base64
import struct
import uuid
from typing import Final

from groupctl.errors import DecodeError

# --- errors -------------------------------------------------------------------------------------

UNDERFLOW: Final = "null"
"""What Java prints for a BufferUnderflowException's message (it has none): the string "null"."""


class WireError(DecodeError):
    """Bytes that do not parse; the message is the one Kafka's reader would give."""


def byte_array_error(size: int, remaining: int) -> str:
    """ByteBufferAccessor.readArray's message for a length past the end of the buffer."""
    return f"Error reading byte array of {size} byte(s): only {remaining} byte(s) available"


def collection_error(size: int, remaining: int) -> str:
    """The generated readers' message for an array count larger than the bytes left."""
    return f"Tried to allocate a collection of size {size}, but there are only {remaining} bytes remaining."


def null_error(name: str) -> str:
    """The generated readers' message for a null length on a non-nullable field."""
    return f"non-nullable field {name} was serialized as null"




# --- fixed width ---------------------------------------------------------------------------------

INT16: Final = struct.Struct(">h")  # the version/type prefix of record keys and values

INT_RANGES: Final = {
    "int8": (-(1 << 7), (1 << 7) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1),
    "uint16": (0, (1 << 16) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1),
    "uint32": (0, (1 << 32) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
}


def to_int32(value: int) -> int:
    """Wrap to a Java int, as Java's `int` arithmetic does."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def to_int64(value: int) -> int:
    """Wrap to a Java long."""
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value & 0x8000000000000000 else value


# --- varints -------------------------------------------------------------------------------------


def read_uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    """Unsigned varint exactly as `ByteUtils.readUnsignedVarint`: at most 5 bytes, Java int result.

    The fifth byte is shifted by 28 in 32-bit arithmetic, so large values wrap negative (callers see a
    negative length, i.e. null, as Java does); a fifth byte with its top bit set is an error.
    """
    try:
        b = buf[pos]
        if b < 0x80:
            return b, pos + 1
        result = b & 0x7F
        for shift in (7, 14, 21):
            b = buf[pos + shift // 7]
            if b < 0x80:
                return result | (b << shift), pos + shift // 7 + 1
            result |= (b & 0x7F) << shift
        b = buf[pos + 4]
    except IndexError:
        raise WireError(UNDERFLOW) from None
    signed = b - 256 if b >= 0x80 else b
    result = to_int32(result | (signed << 28))
    if signed < 0:
        raise WireError(
            "Varint is too long, the most significant bit in the 5th byte is set, "
            f"converted value: {result & 0xFFFFFFFF:x}"
        )
    return result, pos + 5


def read_uvarint_minus1(buf: bytes, pos: int) -> tuple[int, int]:
    """`readUnsignedVarint() - 1` in Java int arithmetic: the compact length/count decoder."""
    value, pos = read_uvarint(buf, pos)
    return to_int32(value - 1), pos


def read_uvarlong(buf: bytes, pos: int) -> tuple[int, int]:
    """Unsigned varlong as `ByteUtils.readUnsignedVarlong`: at most 10 bytes, Java long result."""
    value = 0
    shift = 0
    try:
        while True:
            b = buf[pos]
            pos += 1
            if b < 0x80:
                return to_int64(value | (b << shift)), pos
            value |= (b & 0x7F) << shift
            shift += 7
            if shift > 63:
                raise WireError(
                    "Varlong is too long, most significant bit in the 10th byte is set, "
                    f"converted value: {to_int64(value) & 0xFFFFFFFFFFFFFFFF:x}"
                )
    except IndexError:
        raise WireError(UNDERFLOW) from None


def read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    """Zig-zag varint (record framing: lengths, offset deltas)."""
    raw, pos = read_uvarint(buf, pos)
    raw &= 0xFFFFFFFF
    return (raw >> 1) ^ -(raw & 1), pos


def read_varlong(buf: bytes, pos: int) -> tuple[int, int]:
    """Zig-zag varlong (record framing: timestamp deltas)."""
    raw, pos = read_uvarlong(buf, pos)
    raw &= 0xFFFFFFFFFFFFFFFF
    return (raw >> 1) ^ -(raw & 1), pos


def write_uvarint(value: int) -> bytes:
    """Unsigned varint of a Java int (negative values use their 32-bit two's complement, as Java)."""
    value &= 0xFFFFFFFF
    if value < 0x80:
        return _SMALL_UVARINTS[value]
    return write_uvarlong(value)


def write_uvarlong(value: int) -> bytes:
    """Unsigned varlong of a Java long."""
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def write_varint(value: int) -> bytes:
    """Zig-zag varint of a Java int."""
    if not INT_RANGES["int32"][0] <= value <= INT_RANGES["int32"][1]:
        raise ValueError(f"varint out of range: {value}")
    return write_uvarint((value << 1) ^ (value >> 31))


def write_varlong(value: int) -> bytes:
    """Zig-zag varlong of a Java long."""
    if not INT_RANGES["int64"][0] <= value <= INT_RANGES["int64"][1]:
        raise ValueError(f"varlong out of range: {value}")
    return write_uvarlong((value << 1) ^ (value >> 63))


_SMALL_UVARINTS: Final = tuple(bytes((i,)) for i in range(0x80))


# --- strings and bytes ---------------------------------------------------------------------------


# --- uuid ----------------------------------------------------------------------------------------

_UUID: Final = uuid.UUID
_new = object.__new__
_set = object.__setattr__
_SAFE_UNKNOWN: Final = uuid.SafeUUID.unknown
_from_bytes = int.from_bytes

ZERO_UUID: Final = uuid.UUID(int=0)
"""Kafka's `Uuid.ZERO_UUID`: the default of every uuid field."""


_UUID_CACHE: dict[bytes, uuid.UUID] = {}
_UUID_CACHE_SIZE: Final = 4096


def uuid_from_bytes(raw: bytes) -> uuid.UUID:
    """A `uuid.UUID` from 16 big-endian bytes, three times faster than `UUID(bytes=...)`.

    It fills the two slots `uuid.UUID.__init__` would fill; the result is an ordinary, immutable
    UUID (equal and hash-equal to one built the usual way). Topic ids repeat in every offset
    commit and assignment record, so recent ones are remembered.
    """
    u = _UUID_CACHE.get(raw)
    if u is not None:
        return u
    u = _new(_UUID)
    _set(u, "int", _from_bytes(raw, "big"))
    _set(u, "is_safe", _SAFE_UNKNOWN)
    if len(_UUID_CACHE) >= _UUID_CACHE_SIZE:
        _UUID_CACHE.clear()
    _UUID_CACHE[bytes(raw)] = u
    return u


def uuid_to_kafka(value: uuid.UUID) -> str:
    """Kafka's `Uuid.toString()`: URL-safe base64 of the 16 bytes, without padding (22 chars)."""
    return base64.urlsafe_b64encode(value.bytes)[:22].decode("ascii")


def uuid_from_kafka(text: str) -> uuid.UUID:
    """Kafka's `Uuid.fromString()`: the inverse of `uuid_to_kafka`."""
    if not isinstance(text, str) or len(text) != 22:
        raise ValueError(f"not a Kafka uuid (22 base64url characters): {text!r}")
    raw = base64.urlsafe_b64decode(text + "==")
    if len(raw) != 16:
        raise ValueError(f"not a Kafka uuid: {text!r}")
    return uuid_from_bytes(raw)
