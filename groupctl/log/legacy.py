"""Message sets of magic 0 and 1 (Kafka before 0.11), read as Kafka's `AbstractLegacyRecordBatch` reads them.

On disk each entry is `offset int64 | size int32 | crc uint32 | magic int8 | attributes int8 |
[timestamp int64, v1 only] | key int32-length-prefixed | value int32-length-prefixed`, with a
plain CRC-32 over magic..end. A compressed entry (a "wrapper") holds a compressed message set in
its value; v1 inner offsets are relative to the wrapper, whose own offset is that of the last inner
message (a wrapper offset of 0 means base 0, a librdkafka quirk), while v0 inner offsets are
absolute. Inner v1 messages take the wrapper's timestamp when the wrapper says LogAppendTime.

`decode_legacy` turns one shallow entry into a `Batch`. Fatal damage raises `DecodeError`
(without path/position: the segment reader adds them); oddities Kafka tolerates (a truncated last
inner message, an inner CRC mismatch, bytes after the value) are returned as warnings beside the
batch.
"""

from __future__ import annotations

import struct
import zlib

from groupctl.errors import DecodeError
from groupctl.log.batch import (
    MAX_BATCH_RECORDS,
    MAX_RECORDS_PER_COMPRESSED_BYTE,
    RECORD_ALLOWANCE,
    Batch,
    Record,
    suspicious,
    wrap_long,
)
from groupctl.log.compression import CODEC_NAMES, CompressionError, decompress, expansion_limit

__all__ = ["RECORD_OVERHEAD", "decode_legacy"]

#: Minimum message size (crc + magic + attributes [+ timestamp] + key and value lengths) per magic.
RECORD_OVERHEAD = (14, 22)

_HEADER = struct.Struct(">qiIbb")  # offset, size, crc, magic, attributes
_OFFSET_SIZE = struct.Struct(">qi")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")


def _key_value(buf: bytes, pos: int, end: int, what: str) -> tuple[bytes | None, bytes | None, int, int, int]:
    """Key and value from `pos` (the key length); returns key, value, key_size, value_size, end of value."""
    if end - pos < 4:
        raise DecodeError(f"{what}: the key length runs past the message end")
    (ksize,) = _I32.unpack_from(buf, pos)
    pos += 4
    if ksize < 0:
        key = None
        ksize = -1
    else:
        if ksize > end - pos - 4:
            left = max(end - pos - 4, 0)
            raise DecodeError(f"{what}: key length {ksize} exceeds the {left} bytes left in the message")
        key = buf[pos : pos + ksize]
        pos += ksize
    if end - pos < 4:
        raise DecodeError(f"{what}: the value length runs past the message end")
    (vsize,) = _I32.unpack_from(buf, pos)
    pos += 4
    if vsize < 0:
        value = None
        vsize = -1
    else:
        if vsize > end - pos:
            raise DecodeError(f"{what}: value length {vsize} exceeds the {end - pos} bytes left in the message")
        value = buf[pos : pos + vsize]
        pos += vsize
    return key, value, ksize, vsize, pos


def _inner_messages(
    buf: bytes, wrapper_magic: int, wrapper_offset: int, wrapper_ts: int, log_append: bool, warnings: list[str],
    compressed: int, codec: str,
) -> list[Record]:
    n = len(buf)
    honest = MAX_RECORDS_PER_COMPRESSED_BYTE * compressed + RECORD_ALLOWANCE
    pos = 0
    entries: list[tuple[int, int, bytes | None, bytes | None, int, int, int, bool]] = []
    while True:
        left = n - pos
        if left < 12:
            if left:
                warnings.append(f"{left} bytes after the last inner message were ignored")
            break
        if len(entries) >= honest and honest < MAX_BATCH_RECORDS:
            raise DecodeError(suspicious(codec, "wrapper", f"more than {honest}", compressed))
        if len(entries) >= MAX_BATCH_RECORDS:
            raise DecodeError(
                f"the compressed message set holds more than {MAX_BATCH_RECORDS} inner messages "
                "(a record bomb, or damaged data)"
            )
        offset, size = _OFFSET_SIZE.unpack_from(buf, pos)
        what = f"inner message {len(entries) + 1}"
        if size < RECORD_OVERHEAD[0]:
            raise DecodeError(f"{what}: size {size} is below the minimum of {RECORD_OVERHEAD[0]} bytes")
        if size > left - 12:
            # Kafka's DataLogInputStream stops quietly at a partial inner message.
            warnings.append(f"{what}: size {size} exceeds the {left - 12} bytes left; the partial message was ignored")
            break
        end = pos + 12 + size
        _, _, crc, magic, attrs = _HEADER.unpack_from(buf, pos)
        if magic not in (0, 1):
            raise DecodeError(f"{what}: magic {magic} is not a legacy magic (0 or 1)")
        if size < RECORD_OVERHEAD[magic]:
            minimum = RECORD_OVERHEAD[magic]
            raise DecodeError(f"{what}: size {size} is below the minimum of {minimum} bytes for magic {magic}")
        if attrs & 0x07:
            raise DecodeError(f"{what}: inner messages must not be compressed (codec {attrs & 0x07})")
        if magic == 0:
            ts = -1
            kpos = pos + 18
        else:
            ts = wrapper_ts if log_append else _I64.unpack_from(buf, pos + 18)[0]
            kpos = pos + 26
        key, value, ksize, vsize, vend = _key_value(buf, kpos, end, what)
        if vend != end:
            warnings.append(f"{what}: {end - vend} bytes after the value were ignored")
        computed = zlib.crc32(memoryview(buf)[pos + 16 : end])
        if computed != crc:
            warnings.append(f"{what} (offset {offset}): CRC mismatch: stored {crc}, computed {computed}")
        entries.append((offset, ts, key, value, ksize, vsize, crc, computed == crc))
        pos = end
    if not entries:
        raise DecodeError("compressed message set with no inner messages")
    base = 0
    if wrapper_magic == 1 and wrapper_offset != 0:
        last_inner = entries[-1][0]
        if wrapper_offset < last_inner:
            raise DecodeError(
                f"invalid wrapper offset in compressed v1 message set: wrapper offset {wrapper_offset} is less "
                f"than the last inner message offset {last_inner} and it is not zero"
            )
        base = wrap_long(wrapper_offset - last_inner)
    return [
        Record(wrap_long(base + off), ts, key, value, [], -1, ksize, vsize, crc, ok)
        for off, ts, key, value, ksize, vsize, crc, ok in entries
    ]


def decode_legacy(
    buf: bytes, pos: int, end: int, crc_valid: bool, limit: int
) -> tuple[Batch, list[str]]:
    """Decode the magic 0/1 entry at `pos` (its log overhead included) ending at `end`.

    `crc_valid` is the caller's check of the entry's CRC. Returns the batch and the warnings.
    """
    offset, size, crc, magic, attrs = _HEADER.unpack_from(buf, pos)
    codec = attrs & 0x07
    if magic == 0:
        ts = -1
        kpos = pos + 18
        ts_type = "NoTimestampType"
    else:
        (ts,) = _I64.unpack_from(buf, pos + 18)
        kpos = pos + 26
        ts_type = "LogAppendTime" if attrs & 0x08 else "CreateTime"
    warnings: list[str] = []
    key, value, ksize, vsize, vend = _key_value(buf, kpos, end, "message")
    if vend != end:
        warnings.append(f"{end - vend} bytes after the message value were ignored")
    if codec == 0:
        records = [Record(offset, ts, key, value, [], -1, ksize, vsize, crc, crc_valid)]
    else:
        if codec > 3:
            raise DecodeError(f"compression codec {codec} is not valid for magic {magic} (0-3 only)")
        if value is None:
            raise DecodeError(f"compressed message set with a null value (magic {magic})")
        try:
            inner = decompress(codec, value, limit=expansion_limit(len(value), limit), magic=magic)
        except CompressionError as exc:
            raise DecodeError(f"{CODEC_NAMES[codec]} wrapper: {exc}") from None
        records = _inner_messages(inner, magic, offset, ts, magic == 1 and ts_type == "LogAppendTime", warnings,
                                  len(value), CODEC_NAMES[codec])
    batch = Batch(
        records[0].offset, offset, len(records), -1, -1, -1, -1, -1, False, False, None, pos, size + 12, magic,
        CODEC_NAMES[codec], ts_type, ts, crc, crc_valid, records,
    )
    return batch, warnings
