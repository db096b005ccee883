"""Write Kafka log data: v2 record batches, control batches, legacy v0/v1 message sets, segment files.

* `build_batch(records, ...)`: one v2 batch with any codec, producer state, transactional and
  control flags, LogAppendTime, partition leader epoch, delete horizon; CRC-32C over
  attributes..end, lastOffsetDelta from the records (or given, for empty compacted batches).
* `build_control_batch(marker, ...)`: a COMMIT/ABORT marker batch as the transaction coordinator
  has it written (control + transactional, one record).
* `build_message_set(records, magic=0|1, ...)`: legacy messages, one per record, or one
  compressed wrapper holding them (v1 inner offsets relative, v0 absolute).
* `SegmentWriter`: appends batches to `NNNNNNNNNNNNNNNNNNNN.log`, assigning offsets, optionally
  fsyncing every append (or on demand with `sync()`); `append_batch` stores a producer's batch as
  received, only its base offset and leader epoch changed.

Records to write are any objects with `key`, `value`, `timestamp` and `headers` attributes
(`SimpleRecord`, or a `Record` read back); an `offset_delta` attribute, when present and not None,
places the record at base offset + delta (gaps as compaction leaves them), otherwise records take
consecutive offsets.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from crc32c import crc32c

from groupctl.errors import DecodeError
from groupctl.log.batch import CONTROL_TYPE_NAMES, NO_TIMESTAMP
from groupctl.log.compression import codec_id, compress
from groupctl.protocol.primitives import write_varint, write_varlong

__all__ = [
    "Appended",
    "SegmentWriter",
    "SimpleRecord",
    "build_batch",
    "build_control_batch",
    "build_legacy_message",
    "build_message_set",
    "control_record",
    "segment_file_name",
]

_V2 = struct.Struct(">qiibIhiqqqhii")
_CRC_OFFSET = 17
_ATTRIBUTES_OFFSET = 21
_CONTROL_KEY = struct.Struct(">hh")
_MARKER_VALUE = struct.Struct(">hi")
_LEGACY_V0 = struct.Struct(">qiIbb")
_LEGACY_V1 = struct.Struct(">qiIbbq")
_I32 = struct.Struct(">i")
_CONTROL_IDS = {name: cid for cid, name in CONTROL_TYPE_NAMES.items()}
_TIMESTAMP_TYPES = ("CreateTime", "LogAppendTime")


class SimpleRecord(NamedTuple):
    """A record to write: key, value, timestamp (ms, -1 for none), headers and an optional offset delta."""

    key: bytes | None
    value: bytes | None
    timestamp: int = NO_TIMESTAMP
    headers: Sequence[tuple[str, bytes | None]] = ()
    offset_delta: int | None = None


class Appended(NamedTuple):
    """Where a `SegmentWriter` put a batch: its offsets and its byte range in the file."""

    base_offset: int
    last_offset: int
    position: int
    size: int


def _normalise(records: Iterable[Any]) -> list[tuple[int, int, bytes | None, bytes | None, Sequence]]:
    out = []
    for i, r in enumerate(records):
        delta = getattr(r, "offset_delta", None)
        out.append((i if delta is None else delta, r.timestamp, r.key, r.value, r.headers))
    return out


def _nullable(data: bytes | None) -> bytes:
    if data is None:
        return b"\x01"  # varint -1
    return write_varint(len(data)) + bytes(data)


def _encode_record(delta: int, ts_delta: int, key: bytes | None, value: bytes | None, headers: Sequence) -> bytes:
    parts = [b"\x00", write_varlong(ts_delta), write_varint(delta), _nullable(key), _nullable(value)]
    parts.append(write_varint(len(headers)))
    for hkey, hval in headers:
        raw = hkey.encode("utf-8")
        parts.append(write_varint(len(raw)) + raw)
        parts.append(_nullable(hval))
    body = b"".join(parts)
    return write_varint(len(body)) + body


def build_batch(
    records: Iterable[Any],
    *,
    base_offset: int = 0,
    codec: int | str = "none",
    timestamp_type: str = "CreateTime",
    log_append_time: int | None = None,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    is_control: bool = False,
    partition_leader_epoch: int = -1,
    delete_horizon_ms: int | None = None,
    max_timestamp: int | None = None,
    last_offset_delta: int | None = None,
    compression_level: int | None = None,
) -> bytes:
    """One v2 record batch (log overhead included), as a broker would store it.

    The base timestamp is the first record's (or `delete_horizon_ms`, which then sets attribute
    bit 6). `max_timestamp` defaults to the largest record timestamp, or `log_append_time` with
    LogAppendTime. An empty batch (compaction left only the header) needs `last_offset_delta` and is
    written uncompressed with base timestamp -1, as Kafka's `writeEmptyHeader` does.
    """
    entries = _normalise(records)
    cid = codec_id(codec)
    if timestamp_type not in _TIMESTAMP_TYPES:
        raise ValueError(f"timestamp type must be CreateTime or LogAppendTime for magic 2, not {timestamp_type!r}")
    if is_transactional and producer_id < 0:
        raise ValueError("a transactional batch needs a producer id")
    if entries:
        base_ts = entries[0][1] if delete_horizon_ms is None else delete_horizon_ms
        payload = b"".join(_encode_record(d, ts - base_ts, k, v, h) for d, ts, k, v, h in entries)
        lod = entries[-1][0] if last_offset_delta is None else last_offset_delta
        if max_timestamp is None:
            max_timestamp = max(e[1] for e in entries)
            if timestamp_type == "LogAppendTime" and log_append_time is not None:
                max_timestamp = log_append_time
    else:
        if last_offset_delta is None:
            raise ValueError("an empty batch needs last_offset_delta (the offsets it used to cover)")
        cid = 0
        payload = b""
        lod = last_offset_delta
        base_ts = NO_TIMESTAMP if delete_horizon_ms is None else delete_horizon_ms
        if max_timestamp is None:
            max_timestamp = log_append_time if log_append_time is not None else NO_TIMESTAMP
    if cid:
        payload = compress(cid, payload, magic=2, level=compression_level)
    attributes = cid
    if timestamp_type == "LogAppendTime":
        attributes |= 0x08
    if is_transactional:
        attributes |= 0x10
    if is_control:
        attributes |= 0x20
    if delete_horizon_ms is not None:
        attributes |= 0x40
    header = bytearray(
        _V2.pack(
            base_offset, _V2.size - 12 + len(payload), partition_leader_epoch, 2, 0, attributes, lod, base_ts,
            max_timestamp, producer_id, producer_epoch, base_sequence, len(entries),
        )
    )
    crc = crc32c(payload, crc32c(memoryview(header)[_ATTRIBUTES_OFFSET:]))
    struct.pack_into(">I", header, _CRC_OFFSET, crc)
    return bytes(header) + payload


def control_record(marker: str, coordinator_epoch: int = 0, timestamp: int = NO_TIMESTAMP) -> SimpleRecord:
    """The record of an end-transaction marker: key = int16 0 + int16 type, value = int16 0 + int32 epoch."""
    name = marker.upper()
    if name not in ("COMMIT", "ABORT"):
        raise ValueError(f"an end-transaction marker is COMMIT or ABORT, not {marker!r}")
    key = _CONTROL_KEY.pack(0, _CONTROL_IDS[name])
    return SimpleRecord(key, _MARKER_VALUE.pack(0, coordinator_epoch), timestamp)


def build_control_batch(
    marker: str,
    *,
    coordinator_epoch: int,
    producer_id: int,
    producer_epoch: int,
    timestamp: int,
    base_offset: int = 0,
    partition_leader_epoch: int = -1,
) -> bytes:
    """A COMMIT or ABORT marker batch: control and transactional, one record, no sequence."""
    return build_batch(
        [control_record(marker, coordinator_epoch, timestamp)],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        is_transactional=True,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )


def build_legacy_message(
    offset: int, magic: int, attributes: int, timestamp: int, key: bytes | None, value: bytes | None
) -> bytes:
    """One magic 0/1 entry (log overhead included) with its CRC-32; `value` is stored as given.

    `attributes` holds the codec (bits 0-2) and, for v1, the timestamp type (bit 3); with a codec
    the value must already be the compressed inner message set.
    """
    if magic not in (0, 1):
        raise ValueError(f"legacy magic must be 0 or 1, not {magic}")
    body = (
        (b"\xff\xff\xff\xff" if key is None else _I32.pack(len(key)) + bytes(key))
        + (b"\xff\xff\xff\xff" if value is None else _I32.pack(len(value)) + bytes(value))
    )
    if magic == 0:
        head = bytearray(_LEGACY_V0.pack(offset, 6 + len(body), 0, 0, attributes))
    else:
        head = bytearray(_LEGACY_V1.pack(offset, 14 + len(body), 0, 1, attributes, timestamp))
    struct.pack_into(">I", head, 12, zlib.crc32(body, zlib.crc32(memoryview(head)[16:])))
    return bytes(head) + body


def build_message_set(
    records: Iterable[Any],
    *,
    magic: int,
    codec: int | str = "none",
    base_offset: int = 0,
    timestamp_type: str = "CreateTime",
    log_append_time: int | None = None,
    wrapper_offset: int | None = None,
) -> bytes:
    """Legacy (magic 0/1) messages for `records`: one entry each, or one compressed wrapper.

    With a codec (gzip, snappy or lz4; zstd did not exist for these formats) the records become
    inner messages of one wrapper whose offset is the last inner offset (`wrapper_offset` overrides
    it, e.g. 0 as some librdkafka versions wrote). v1 inner offsets are relative, v0 absolute. With
    LogAppendTime (v1) the messages carry `log_append_time` and the timestamp-type bit.
    """
    if magic not in (0, 1):
        raise ValueError(f"legacy magic must be 0 or 1, not {magic}")
    cid = codec_id(codec)
    if cid > 3:
        raise ValueError("zstd is not allowed for magic 0 or 1")
    if timestamp_type not in _TIMESTAMP_TYPES:
        raise ValueError(f"timestamp type must be CreateTime or LogAppendTime, not {timestamp_type!r}")
    entries = _normalise(records)
    if not entries:
        raise ValueError("a legacy message set needs at least one record")
    log_append = magic == 1 and timestamp_type == "LogAppendTime"
    ts_bit = 0x08 if log_append else 0

    def stamp(ts: int) -> int:
        if magic == 0:
            return NO_TIMESTAMP
        return log_append_time if log_append and log_append_time is not None else ts

    for *_, headers in entries:
        if headers:
            raise ValueError("magic 0/1 messages cannot carry headers")
    if cid == 0:
        return b"".join(
            build_legacy_message(base_offset + d, magic, ts_bit, stamp(ts), k, v) for d, ts, k, v, _ in entries
        )
    inner = b"".join(
        build_legacy_message(d if magic == 1 else base_offset + d, magic, ts_bit, stamp(ts), k, v)
        for d, ts, k, v, _ in entries
    )
    wrapper_ts = stamp(max(e[1] for e in entries))
    offset = base_offset + entries[-1][0] if wrapper_offset is None else wrapper_offset
    return build_legacy_message(offset, magic, cid | ts_bit, wrapper_ts, None, compress(cid, inner, magic=magic))


def segment_file_name(base_offset: int) -> str:
    """`42` -> `00000000000000000042.log`."""
    if base_offset < 0:
        raise ValueError("a segment's base offset cannot be negative")
    return f"{base_offset:020d}.log"


class SegmentWriter:
    """Appends batches to one segment file, assigning offsets from the next free one.

    The file is `directory/NNNNNNNNNNNNNNNNNNNN.log` (the base offset, 20 digits); the directory is
    created if missing. Reopening an existing segment continues after its last valid batch, found as
    Kafka's log recovery finds it (`groupctl.log.recovery`): everything from the first invalid batch
    on (a torn write, zeros, a bad CRC ...) either raises `DecodeError` or, with
    `truncate_torn_tail=True`, is cut off (`truncated_bytes` tells how many, `truncation` what they
    were). With `fsync=True` every append is flushed to disk before it returns.
    """

    def __init__(
        self, directory: str | Path, base_offset: int = 0, *, fsync: bool = False, truncate_torn_tail: bool = False
    ) -> None:
        from groupctl.log.recovery import scan_segment

        self.directory = Path(directory)
        self.base_offset = base_offset
        self.path = self.directory / segment_file_name(base_offset)
        self.fsync = fsync
        self.next_offset = base_offset
        self.truncated_bytes = 0
        #: What the cut bytes were, one line (set when `truncate_torn_tail` cut something).
        self.truncation: str | None = None
        self.directory.mkdir(parents=True, exist_ok=True)
        created = not self.path.exists()
        if not created and self.path.stat().st_size:
            recovery = scan_segment(self.path, base_offset)
            self.next_offset = recovery.next_offset
            if recovery.cut_bytes:
                if not truncate_torn_tail:
                    raise DecodeError(
                        f"{recovery.cut_bytes} invalid bytes at the end, from byte {recovery.valid_bytes} "
                        f"({recovery.reason}); reopen with truncate_torn_tail=True to cut them off",
                        path=str(self.path),
                    )
                os.truncate(self.path, recovery.valid_bytes)
                self.truncated_bytes = recovery.cut_bytes
                self.truncation = recovery.describe()
        # Unbuffered: each append is written through os.write, so a failed one leaves no bytes in the
        # process that a later flush could add after a rollback.
        self._fh = open(self.path, "ab", buffering=0)  # noqa: SIM115 - held open across appends, closed by close()
        self.position = self._fh.tell()
        #: A new file's directory entry is durable only once the directory is fsynced too.
        self._directory_unsynced = created
        if created and fsync:
            self._sync_directory()
            self._directory_unsynced = False

    def _sync_directory(self) -> None:
        try:
            fd = os.open(self.directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    def _write(self, data: bytes | bytearray, base: int, last: int) -> Appended:
        if self._fh.closed:
            raise ValueError(f"segment writer for {self.path} is closed")
        position = self.position
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fh.fileno(), view):]
            if self.fsync:
                os.fsync(self._fh.fileno())
        except OSError as exc:
            if exc.filename is None:
                raise OSError(exc.errno, exc.strerror, str(self.path)) from exc
            raise
        self.position += len(data)
        self.next_offset = max(self.next_offset, last + 1)
        return Appended(base, last, position, len(data))

    def append(self, records: Iterable[Any], **options: Any) -> Appended:
        """Write one v2 batch of `records` at the next offset; `options` as for `build_batch`."""
        if "base_offset" in options:
            raise TypeError("SegmentWriter assigns the base offset itself")
        entries = list(records)
        data = build_batch(entries, base_offset=self.next_offset, **options)
        (lod,) = _I32.unpack_from(data, 23)
        return self._write(data, self.next_offset, self.next_offset + lod)

    def append_control(
        self,
        marker: str,
        *,
        coordinator_epoch: int,
        producer_id: int,
        producer_epoch: int,
        timestamp: int,
        partition_leader_epoch: int = -1,
    ) -> Appended:
        """Write a COMMIT/ABORT marker batch at the next offset."""
        data = build_control_batch(
            marker, coordinator_epoch=coordinator_epoch, producer_id=producer_id, producer_epoch=producer_epoch,
            timestamp=timestamp, base_offset=self.next_offset, partition_leader_epoch=partition_leader_epoch,
        )
        return self._write(data, self.next_offset, self.next_offset)

    def append_raw(self, data: bytes) -> Appended:
        """Write already framed batches (any magic) verbatim; they must read back without a problem."""
        from groupctl.log.segment import iter_batches

        batches = list(iter_batches(data, path=f"{self.path} (append)", strict=True))
        if not batches or sum(b.size for b in batches) != len(data):
            raise DecodeError("append_raw needs whole batches", path=str(self.path))
        return self._write(bytes(data), batches[0].base_offset, max(b.last_offset for b in batches))

    def append_batch(self, data: bytes | bytearray, *, partition_leader_epoch: int | None = None) -> Appended:
        """Write one v2 batch as a producer sent it, at the next offset.

        Only the base offset (and the partition leader epoch, when given) are rewritten: both lie
        outside the CRC, so the batch stays valid and its records, compressed or not, are stored as
        received. The caller has checked that `data` is one whole v2 batch with a valid CRC.
        """
        buf = bytearray(data)
        struct.pack_into(">q", buf, 0, self.next_offset)
        if partition_leader_epoch is not None:
            struct.pack_into(">i", buf, 12, partition_leader_epoch)
        (lod,) = _I32.unpack_from(buf, 23)
        return self._write(buf, self.next_offset, self.next_offset + lod)

    def size(self) -> int:
        """The segment's size on disk: more than `position` after an append that failed part way."""
        return os.fstat(self._fh.fileno()).st_size

    def rollback(self, position: int, next_offset: int) -> None:
        """Cut the segment back to `position` (where `next_offset` was next), fsynced: the appends after
        it are undone, a torn one included. Shrinking a file needs no free space."""
        os.ftruncate(self._fh.fileno(), position)
        os.fsync(self._fh.fileno())
        self.position, self.next_offset = position, next_offset

    def flush(self) -> None:
        if self.fsync:
            os.fsync(self._fh.fileno())

    def sync(self) -> None:
        """Flush and fsync now, whatever `fsync` says: for writers that sync on a timer, not per append."""
        if self._fh.closed:
            return
        os.fsync(self._fh.fileno())
        if self._directory_unsynced:
            self._sync_directory()
            self._directory_unsynced = False

    def close(self) -> None:
        """Nothing is left to flush (appends are unbuffered, and fsynced already when `fsync`)."""
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> SegmentWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
