"""Hostile segments for the reader's bounds: small compressed batches that expand into millions of
tiny records (the sizes of issue 15), built in bounded memory."""

from __future__ import annotations

import struct
import zlib

import cramjam
from crc32c import crc32c

from groupctl.log.writer import build_legacy_message

_V2 = struct.Struct(">qiibIhiqqqhii")

#: The smallest v2 record: size 6, attributes 0, timestamp delta 0, offset delta 0, null key, null
#: value, no headers.
TINY_RECORD = b"\x0c\x00\x00\x00\x01\x01\x00"
#: The smallest v0 message (log overhead included): offset 0, size 14, null key and value.
_TINY_MESSAGE = build_legacy_message(0, 0, 0, -1, None, None)


def v2_batch(payload: bytes, count: int, *, codec: int, base_offset: int = 0, last_offset_delta: int | None = None
             ) -> bytes:
    """A v2 batch around an already compressed payload, claiming `count` records, with a valid CRC."""
    lod = count - 1 if last_offset_delta is None else last_offset_delta
    header = bytearray(_V2.pack(base_offset, _V2.size - 12 + len(payload), 0, 2, 0, codec, lod, 0, 0, -1, -1, -1,
                                count))
    struct.pack_into(">I", header, 17, crc32c(payload, crc32c(bytes(header[21:]))))
    return bytes(header) + payload


def zstd_bomb(target: int, *, claimed: int | None = None) -> tuple[bytes, int]:
    """A zstd batch of about `target` bytes whose payload is millions of TINY_RECORDs.

    Returns the batch and the number of records inside; the header claims `claimed` records
    (default: the true number, as an honest writer would).
    """
    per_kib = 1 << 17  # records per 896 KiB chunk; zstd packs each chunk into a few dozen bytes
    chunk = TINY_RECORD * per_kib
    chunks = 1
    while True:
        payload = bytes(cramjam.zstd.compress(chunk * chunks, level=3))
        if len(payload) >= target - 61 or chunks > 4096:
            break
        chunks = max(chunks + 1, chunks * (target - 61) // max(len(payload), 1))
    records = per_kib * chunks
    return v2_batch(payload, records if claimed is None else claimed, codec=4), records


def legacy_gzip_bomb(target: int) -> tuple[bytes, int]:
    """A magic 0 gzip wrapper of about `target` bytes holding millions of the smallest messages.

    Compressed as a stream, so the expanded set (hundreds of MB) never sits in memory. Returns the
    wrapper and the inner message count.
    """
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    step = 1 << 15
    block = _TINY_MESSAGE * step
    parts: list[bytes] = []
    size = 0
    messages = 0
    while size < target - 64:
        out = comp.compress(block)
        messages += step
        parts.append(out)
        size += len(out)
    parts.append(comp.flush())
    return build_legacy_message(0, 0, 1, -1, None, b"".join(parts)), messages


def padded_zstd_bomb(records: int = 1 << 17, *, per_byte: int = 8, base_offset: int = 0) -> bytes:
    """A zstd batch of `records` TINY_RECORDs whose payload is padded (a skippable frame after the real one, a
    hundred-odd bytes) to `per_byte` records a compressed byte: thousands a byte of real frame, but within a
    records-per-compressed-byte bound as loose as `per_byte`. The padding is fixed bytes: the bomb is the same
    every time."""
    frame = bytes(cramjam.zstd.compress(TINY_RECORD * records, level=3))
    pad = max(records // per_byte - len(frame) - 8, 0)
    skippable = struct.pack("<II", 0x184D2A50, pad) + bytes(range(256)) * (pad // 256) + bytes(pad % 256)
    return v2_batch(frame + skippable, records, codec=4, base_offset=base_offset)
