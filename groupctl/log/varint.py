"""Zig-zag varints as Kafka writes them inside v2 records (`ByteUtils.readVarint` / `readVarlong`).

A varint carries 7 bits per byte, least significant group first, high bit = "more follows". The
unsigned result is zig-zag mapped to a signed one: 0, -1, 1, -2 … An int32 varint takes at most 5
bytes and an int64 varlong at most 10; bits beyond 32 (64) are dropped as Java's int (long)
arithmetic does. The segment reader inlines the one-byte case; these functions are the general path
and the encoder.
"""

from __future__ import annotations

__all__ = [
    "VarintError",
    "decode_varint",
    "decode_varlong",
    "encode_varint",
    "size_of_varint",
]


class VarintError(ValueError):
    """A varint that runs past its buffer or past its maximum length."""


def _decode(buf: bytes | bytearray | memoryview, pos: int, end: int, max_bytes: int, bits: int) -> tuple[int, int]:
    raw = 0
    shift = 0
    for i in range(max_bytes):
        p = pos + i
        if p >= end:
            raise VarintError(f"varint at byte {pos} runs past the end of its buffer")
        b = buf[p]
        raw |= (b & 0x7F) << shift
        if b < 0x80:
            raw &= (1 << bits) - 1
            return (raw >> 1) ^ -(raw & 1), p + 1
        shift += 7
    raise VarintError(f"varint at byte {pos} is longer than {max_bytes} bytes")


def decode_varint(buf: bytes | bytearray | memoryview, pos: int, end: int | None = None) -> tuple[int, int]:
    """Read a zig-zag int32 varint at `pos`; return (value, position after it)."""
    return _decode(buf, pos, len(buf) if end is None else end, 5, 32)


def decode_varlong(buf: bytes | bytearray | memoryview, pos: int, end: int | None = None) -> tuple[int, int]:
    """Read a zig-zag int64 varlong at `pos`; return (value, position after it)."""
    return _decode(buf, pos, len(buf) if end is None else end, 10, 64)


def encode_varint(value: int) -> bytes:
    """Zig-zag encode a signed int32/int64 value."""
    if not -(1 << 63) <= value < (1 << 63):
        raise OverflowError(f"{value} does not fit in a varlong")
    raw = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    if raw < 0x80:
        return bytes((raw,))
    out = bytearray()
    while raw >= 0x80:
        out.append((raw & 0x7F) | 0x80)
        raw >>= 7
    out.append(raw)
    return bytes(out)


def size_of_varint(value: int) -> int:
    """Number of bytes `encode_varint(value)` takes."""
    raw = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    size = 1
    while raw >= 0x80:
        raw >>= 7
        size += 1
    return size
