"""The codecs of Kafka record batches: gzip, snappy, lz4 and zstd, with bounded decompression.

Codec ids are the low three attribute bits: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd (zstd is
magic 2 only). The byte formats are the ones Kafka's Java client reads and writes:

* gzip: a gzip stream (`GZIPInputStream`, so concatenated members are read too).
* snappy: xerial's block framing (`SnappyOutputStream`): the 16-byte header `\\x82SNAPPY\\x00`,
  int32 version, int32 compatible version, then blocks of big-endian int32 length + raw snappy.
  Some clients write one raw snappy block with no framing; xerial's reader accepts both, so do we.
* lz4: Kafka's subset of the LZ4 frame format (`KafkaLZ4BlockInputStream`): independent blocks,
  optional content size, block and content checksums. The header checksum byte is
  `(xxh32(FLG..BD) >> 8) & 0xFF`; Kafka before 0.10 hashed the 4 magic bytes too, so for magic 0
  message sets the header checksum is not checked (Kafka reads them the same way).
* zstd: one or more zstd frames.

Every decompressor takes a `limit` (bytes of output) and fails with `CompressionError` before
producing more, so a small corrupt or hostile batch cannot allocate unbounded memory. gzip and zstd
use the standard library and cramjam (already a dependency); nothing here needs python-snappy, lz4
or zstandard.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import Any

import cramjam

__all__ = [
    "CODEC_IDS",
    "CODEC_NAMES",
    "DEFAULT_MAX_DECOMPRESSED",
    "EXPANSION_ALLOWANCE",
    "MAX_EXPANSION",
    "CompressionError",
    "codec_id",
    "compress",
    "decompress",
    "expansion_limit",
    "xxh32",
]

CODEC_NAMES: tuple[str, ...] = ("none", "gzip", "snappy", "lz4", "zstd")
CODEC_IDS: dict[str, int] = {name: i for i, name in enumerate(CODEC_NAMES)}

#: Default cap on the decompressed bytes of one batch (or one legacy wrapper message): 64 times
#: Kafka's default message.max.bytes, so a legitimate batch never meets it and memory stays bounded.
DEFAULT_MAX_DECOMPRESSED = 64 * 1024 * 1024
#: A payload may expand at most MAX_EXPANSION times its compressed size, plus EXPANSION_ALLOWANCE
#: bytes: real record data compresses a few times to a few tens of times, a bomb thousands of times,
#: and this bounds the work one compressed byte can cause (gzip cannot exceed ~1030 times anyway).
MAX_EXPANSION = 1024
EXPANSION_ALLOWANCE = 1 << 20

XERIAL_MAGIC = b"\x82SNAPPY\x00"
XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
XERIAL_BLOCK_SIZE = 32 * 1024  # xerial's default block size, the one Kafka's SnappyOutputStream uses

LZ4_MAGIC = b"\x04\x22\x4d\x18"  # 0x184D2204 little-endian
LZ4_BLOCK_SIZE = 64 * 1024  # Kafka's default (BD block size id 4)
_LZ4_UNCOMPRESSED = 0x80000000

_ZSTD_START_CAPACITY = 4 * 1024


class CompressionError(ValueError):
    """Compressed bytes that do not decompress (corrupt, truncated, or over the output limit)."""


def expansion_limit(compressed_size: int, limit: int = DEFAULT_MAX_DECOMPRESSED) -> int:
    """The decompressed bytes a payload of `compressed_size` bytes may produce (never above `limit`)."""
    return min(limit, MAX_EXPANSION * compressed_size + EXPANSION_ALLOWANCE)


def codec_id(codec: int | str) -> int:
    """`"gzip"` or 1 -> 1; rejects unknown codecs."""
    if isinstance(codec, str):
        try:
            return CODEC_IDS[codec.lower()]
        except KeyError:
            raise ValueError(f"unknown compression codec {codec!r}; use one of {', '.join(CODEC_NAMES)}") from None
    if codec not in range(len(CODEC_NAMES)):
        raise ValueError(f"unknown compression codec id {codec}")
    return codec


def decompress(codec: int, data: bytes | memoryview, *, limit: int = DEFAULT_MAX_DECOMPRESSED, magic: int = 2) -> bytes:
    """Decompress one batch payload (v2) or wrapper value (v0/v1); at most `limit` bytes come out."""
    if codec == 1:
        return _gunzip(data, limit)
    if codec == 2:
        return _unsnappy(data, limit)
    if codec == 3:
        return _unlz4(data, limit, magic)
    if codec == 4:
        return _unzstd(data, limit)
    raise CompressionError(f"unknown compression codec id {codec}")


def compress(codec: int | str, data: bytes, *, magic: int = 2, level: int | None = None) -> bytes:
    """Compress a batch payload as Kafka's Java producer would frame it."""
    cid = codec_id(codec)
    if cid == 0:
        return bytes(data)
    if cid == 1:
        comp = zlib.compressobj(6 if level is None else level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        return comp.compress(data) + comp.flush()
    if cid == 2:
        return _snappy_xerial(data)
    if cid == 3:
        return _lz4_frame(data, magic)
    return bytes(cramjam.zstd.compress(data, level=3 if level is None else level))


def _native(what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Call a cramjam (Rust) codec; any failure, a Rust panic included, becomes a CompressionError."""
    try:
        return fn(*args)
    except (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError):
        raise
    except BaseException as exc:  # pyo3 turns Rust panics into PanicException, a BaseException
        raise CompressionError(f"{what}: {exc}") from None


def _over(limit: int) -> CompressionError:
    return CompressionError(f"decompressed size exceeds the limit of {limit} bytes")


# --------------------------------------------------------------------------------------------- gzip


_GZIP_PIECE = 1 << 20


def _gunzip(data: bytes | memoryview, limit: int) -> bytes:
    """Inflate in pieces of at most 1 MiB, so a bomb costs `limit` bytes at most (zlib would double its
    buffer past it), then join once."""
    parts: list[bytes] = []
    total = 0
    rest: bytes | memoryview = data
    while True:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending: bytes | memoryview = rest
        try:
            while True:
                chunk = d.decompress(pending, min(_GZIP_PIECE, limit + 1 - total))
                total += len(chunk)
                if total > limit:
                    raise _over(limit)
                parts.append(chunk)
                pending = d.unconsumed_tail
                if d.eof or (not pending and not chunk):
                    break
        except zlib.error as exc:
            raise CompressionError(f"gzip: {exc}") from None
        if not d.eof:
            raise CompressionError("gzip: the compressed stream is truncated")
        rest = d.unused_data
        # GZIPInputStream reads a following member when one starts here, and ignores anything else.
        if len(rest) < 18 or rest[:3] != b"\x1f\x8b\x08":
            break
    return parts[0] if len(parts) == 1 else b"".join(parts)


# ------------------------------------------------------------------------------------------- snappy


def _raw_snappy(block: bytes | memoryview, budget: int, limit: int) -> bytes:
    size = _native("snappy", cramjam.snappy.decompress_raw_len, block)
    if size > budget:
        raise _over(limit)
    return bytes(_native("snappy", cramjam.snappy.decompress_raw, block))


def _unsnappy(data: bytes | memoryview, limit: int) -> bytes:
    n = len(data)
    if n < 16 or bytes(data[:8]) != XERIAL_MAGIC:
        return _raw_snappy(data, limit, limit)
    mv = memoryview(data)
    pos = 16
    parts: list[bytes] = []
    total = 0
    while pos < n:
        if pos + 4 > n:
            raise CompressionError(f"snappy: xerial block header at byte {pos} is truncated")
        (size,) = struct.unpack_from(">i", mv, pos)
        pos += 4
        if size < 0 or size > n - pos:
            raise CompressionError(f"snappy: xerial block length {size} exceeds the {n - pos} bytes left")
        block = _raw_snappy(mv[pos : pos + size], limit - total, limit)
        pos += size
        total += len(block)
        parts.append(block)
    return b"".join(parts)


def _snappy_xerial(data: bytes) -> bytes:
    out = [XERIAL_HEADER]
    mv = memoryview(data)
    for start in range(0, len(data), XERIAL_BLOCK_SIZE):
        block = bytes(cramjam.snappy.compress_raw(mv[start : start + XERIAL_BLOCK_SIZE]))
        out.append(struct.pack(">i", len(block)))
        out.append(block)
    return b"".join(out)


# ------------------------------------------------------------------------------------------- xxh32

_P1 = 2654435761
_P2 = 2246822519
_P3 = 3266489917
_P4 = 668265263
_P5 = 374761393
_M32 = 0xFFFFFFFF
_STRIPE = struct.Struct("<4I")
_U32 = struct.Struct("<I")


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def xxh32(data: bytes | memoryview, seed: int = 0) -> int:
    """XXH32 (the LZ4 frame checksum), per the xxHash specification."""
    n = len(data)
    i = 0
    if n >= 16:
        v1 = (seed + _P1 + _P2) & _M32
        v2 = (seed + _P2) & _M32
        v3 = seed & _M32
        v4 = (seed - _P1) & _M32
        while i <= n - 16:
            a, b, c, d = _STRIPE.unpack_from(data, i)
            v1 = (_rotl((v1 + a * _P2) & _M32, 13) * _P1) & _M32
            v2 = (_rotl((v2 + b * _P2) & _M32, 13) * _P1) & _M32
            v3 = (_rotl((v3 + c * _P2) & _M32, 13) * _P1) & _M32
            v4 = (_rotl((v4 + d * _P2) & _M32, 13) * _P1) & _M32
            i += 16
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & _M32
    else:
        h = (seed + _P5) & _M32
    h = (h + n) & _M32
    while i + 4 <= n:
        (w,) = _U32.unpack_from(data, i)
        h = (_rotl((h + w * _P3) & _M32, 17) * _P4) & _M32
        i += 4
    while i < n:
        h = (_rotl((h + data[i] * _P5) & _M32, 11) * _P1) & _M32
        i += 1
    h ^= h >> 15
    h = (h * _P2) & _M32
    h ^= h >> 13
    h = (h * _P3) & _M32
    h ^= h >> 16
    return h


# --------------------------------------------------------------------------------------------- lz4


def _unlz4(data: bytes | memoryview, limit: int, magic: int) -> bytes:
    mv = memoryview(data)
    n = len(mv)
    if n < 7:
        raise CompressionError("lz4: the frame is truncated")
    if bytes(mv[:4]) != LZ4_MAGIC:
        raise CompressionError("lz4: not an LZ4 frame (bad magic bytes)")
    flg = mv[4]
    bd = mv[5]
    if flg >> 6 != 1:
        raise CompressionError(f"lz4: frame version {flg >> 6} is unsupported")
    if flg & 0x03:
        raise CompressionError("lz4: reserved FLG bits are set")
    if not flg & 0x20:
        raise CompressionError("lz4: dependent (linked) blocks are unsupported")
    if bd & 0x8F:
        raise CompressionError("lz4: reserved BD bits are set")
    size_id = (bd >> 4) & 0x07
    if size_id < 4:
        raise CompressionError(f"lz4: block size id {size_id} is invalid")
    max_block = 1 << (2 * size_id + 8)
    block_checksum = flg & 0x10
    pos = 6
    if flg & 0x08:  # content size
        pos += 8
    if pos >= n:
        raise CompressionError("lz4: the frame descriptor is truncated")
    if magic != 0:  # Kafka wrote a wrong header checksum for magic 0; it is not checked there
        expected = (xxh32(mv[4:pos]) >> 8) & 0xFF
        if mv[pos] != expected:
            raise CompressionError(f"lz4: frame descriptor checksum {mv[pos]} does not match {expected}")
    pos += 1
    parts: list[bytes] = []
    total = 0
    while True:
        if pos + 4 > n:
            raise CompressionError("lz4: the frame ends before its end mark")
        (size,) = _U32.unpack_from(mv, pos)
        pos += 4
        if size == 0:
            break
        stored = size & _LZ4_UNCOMPRESSED
        size &= 0x7FFFFFFF
        if size > max_block:
            raise CompressionError(f"lz4: block size {size} exceeds the frame's maximum {max_block}")
        if size > n - pos:
            raise CompressionError(f"lz4: block of {size} bytes exceeds the {n - pos} bytes left")
        block = mv[pos : pos + size]
        pos += size
        if block_checksum:
            if pos + 4 > n:
                raise CompressionError("lz4: block checksum is truncated")
            if _U32.unpack_from(mv, pos)[0] != xxh32(block):
                raise CompressionError("lz4: block checksum mismatch")
            pos += 4
        piece = bytes(block) if stored else _lz4_block(block, max_block)
        total += len(piece)
        if total > limit:
            raise _over(limit)
        parts.append(piece)
    return b"".join(parts)


def _lz4_block(block: memoryview, max_block: int) -> bytes:
    """One compressed block; tries a buffer sized for typical ratios before the frame's maximum."""
    guess = min(max_block, 8 * len(block) + 256)
    while True:
        out = bytearray(guess)
        try:
            got = _native("lz4", cramjam.lz4.decompress_block_into, block, out)
        except CompressionError:
            if guess < max_block:
                guess = max_block
                continue
            raise
        return bytes(memoryview(out)[:got])


def _lz4_frame(data: bytes, magic: int) -> bytes:
    descriptor = bytes((0x60, 0x40))  # version 1, independent blocks, no checksums; 64 KiB blocks
    hashed = LZ4_MAGIC + descriptor if magic == 0 else descriptor  # magic 0: Kafka's old, wrong checksum
    out = [LZ4_MAGIC, descriptor, bytes(((xxh32(hashed) >> 8) & 0xFF,))]
    mv = memoryview(data)
    for start in range(0, len(data), LZ4_BLOCK_SIZE):
        chunk = mv[start : start + LZ4_BLOCK_SIZE]
        block = bytes(cramjam.lz4.compress_block(chunk, store_size=False))
        if len(block) >= len(chunk):
            out.append(_U32.pack(len(chunk) | _LZ4_UNCOMPRESSED))
            out.append(bytes(chunk))
        else:
            out.append(_U32.pack(len(block)))
            out.append(block)
    out.append(b"\x00\x00\x00\x00")
    return b"".join(out)


# -------------------------------------------------------------------------------------------- zstd


def _zstd_content_size(data: bytes | memoryview) -> int | None:
    """Frame_Content_Size from the first frame's header, when the writer put it there."""
    if len(data) < 6 or bytes(data[:4]) != b"\x28\xb5\x2f\xfd":
        return None
    fhd = data[4]
    fcs_flag = fhd >> 6
    single_segment = (fhd >> 5) & 1
    size = (1 if single_segment else 0, 2, 4, 8)[fcs_flag]
    if not size:
        return None
    at = 5 + (0 if single_segment else 1) + (0, 1, 2, 4)[fhd & 3]
    if len(data) < at + size:
        return None
    value = int.from_bytes(bytes(data[at : at + size]), "little")
    return value + 256 if size == 2 else value


def _unzstd(data: bytes | memoryview, limit: int) -> bytes:
    declared = _zstd_content_size(data)
    if declared is not None and declared > limit:
        raise _over(limit)
    # With a declared size, one byte of room more shows a frame that lied or a second frame.
    default = min(limit + 1, max(_ZSTD_START_CAPACITY, 16 * len(data)))
    capacity = default if declared is None else declared + 1
    while True:
        out = bytearray(capacity)
        try:
            got = _native("zstd", cramjam.zstd.decompress_into, data, out)
        except CompressionError as exc:
            if "write whole buffer" not in str(exc):  # anything but "the output did not fit" is corruption
                raise
            if capacity > limit:
                raise _over(limit) from None
            capacity = min(limit + 1, capacity * 8)
            continue
        if got > limit:
            raise _over(limit)
        if got == capacity:  # filled exactly: there may be more; try again with room to spare
            if capacity > limit:
                raise _over(limit)
            capacity = min(limit + 1, capacity * 8)
            continue
        return bytes(memoryview(out)[:got])
