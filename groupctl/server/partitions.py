"""The partition logs behind Produce, Fetch and ListOffsets: `DIR/data/<topic>-<partition>/`.

Each partition is a Kafka log: segment files named for their base offset (`NNNNNNNNNNNNNNNNNNNN.log`,
20 digits) holding v2 batches exactly as producers sent them, any codec, never recompressed. Only
the base offset and the partition leader epoch are rewritten on the way in; both lie outside the
CRC-32C, which is checked before anything is stored. An in-memory index per segment (base offset,
last offset, file position, running maximum timestamp) is rebuilt on start by reading the
segments, cutting off a torn tail as Kafka's log recovery does.

A partition that has no log yet starts at the log end offset the local backend records for it, so
a topic made with `groupctl local topics create --messages N` behaves as if N records had been
deleted by retention: log start = log end = N. After every append the store writes the new end
offset back into that same table (`LocalBackend.end_offsets_by_topic`), which `group describe`
reads for lag and `topics.json` keeps.

Appends are written to the OS at once (a Fetch sees them immediately) but fsynced only by `sync()`,
which the broker calls when it saves DIR (about once a second) and at close: an fsync per Produce
would cap a local server at a few hundred requests a second. As with Kafka's default
`log.flush.interval.messages`, a power cut can lose the last second; a killed process loses nothing.
"""

from __future__ import annotations

import asyncio
import bisect
import os
import re
import struct
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from crc32c import crc32c

from groupctl.errors import DecodeError, KafkaError
from groupctl.log.batch import NO_TIMESTAMP, Batch
from groupctl.log.segment import SEGMENT_NAME, iter_batches, read_segment
from groupctl.log.writer import SegmentWriter, segment_file_name
from groupctl.server.idempotence import ProducerStates

DATA_DIR = "data"
#: The one leader epoch of this single-node cluster (Metadata says 0); stored in every batch.
LEADER_EPOCH = 0
#: Kafka's `log.segment.bytes` default: when the active segment would grow past it, a new one starts.
SEGMENT_BYTES = 1 << 30
#: Kafka's `message.max.bytes` default: the largest batch a producer may send.
MAX_BATCH_BYTES = 1_048_588

_HEADER = struct.Struct(">qiibIhiqqqhii")  # the 61-byte v2 batch header
_LOG_OVERHEAD = 12
_MAGIC_OFFSET = 16
_PARTITION_DIR = re.compile(r"^(.+)-(\d+)$")


class CheckedBatch(NamedTuple):
    """What the index needs from a producer's batch once it has passed the checks."""

    last_offset_delta: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int


def check_batch(data: bytes | None, *, allow_zstd: bool = True, max_bytes: int = MAX_BATCH_BYTES) -> CheckedBatch:
    """Kafka's checks on a Produce v3+ partition's records, in Kafka's order, as `KafkaError`s.

    Exactly one magic 2 batch (INVALID_RECORD otherwise, as `ProduceRequest.validateRecords`), zstd
    only when `allow_zstd` (Produce v7+; UNSUPPORTED_COMPRESSION_TYPE otherwise), no larger than
    `message.max.bytes` (MESSAGE_TOO_LARGE), with a valid CRC-32C (CORRUPT_MESSAGE), then
    `LogValidator`'s rules for a client batch: base offset 0, count = last offset delta + 1, records
    at offset deltas 0..count-1, no control batch, a sequence when there is a producer id.
    """
    if data is None or len(data) <= _MAGIC_OFFSET:
        raise KafkaError("INVALID_RECORD", "Produce requests must have at least one record batch per partition")
    magic = data[_MAGIC_OFFSET]
    if magic != 2:
        raise KafkaError("INVALID_RECORD", f"Produce requests are only allowed to contain record batches with "
                                           f"magic version 2, not {magic}")
    if len(data) < _HEADER.size:
        raise KafkaError("INVALID_RECORD", "Produce requests must have at least one record batch per partition")
    base, length, _epoch, _magic, crc, attributes, lod, _base_ts, max_ts, pid, pep, base_seq, count = (
        _HEADER.unpack_from(data)
    )
    size = _LOG_OVERHEAD + length
    if size > len(data) or length < _HEADER.size - _LOG_OVERHEAD:
        raise KafkaError("INVALID_RECORD", "Produce requests must have at least one record batch per partition")
    if size < len(data):
        raise KafkaError("INVALID_RECORD", "Produce requests are only allowed to contain exactly one record batch "
                                           "per partition")
    codec = attributes & 0x07
    if codec == 4 and not allow_zstd:
        raise KafkaError("UNSUPPORTED_COMPRESSION_TYPE", "Produce requests before version 7 are not allowed to use "
                                                         "ZStandard compression")
    if size > max_bytes:
        raise KafkaError("MESSAGE_TOO_LARGE", f"The record batch size {size} exceeds the maximum of {max_bytes} bytes")
    computed = crc32c(memoryview(data)[21:])
    if computed != crc:
        raise KafkaError("CORRUPT_MESSAGE", f"Record batch is corrupt (stored crc = {crc}, computed crc = {computed})")
    if codec > 4:
        raise KafkaError("UNSUPPORTED_COMPRESSION_TYPE", f"Unknown compression type id: {codec}")
    if base != 0:
        raise KafkaError("INVALID_RECORD", f"The baseOffset of the record batch should be 0, but it is {base}")
    if attributes & 0x20:
        raise KafkaError("INVALID_RECORD", "Clients are not allowed to write control records")
    if count <= 0 or lod + 1 != count:
        raise KafkaError("INVALID_RECORD", f"Inconsistent batch offset range [0, {lod}] and count of records {count}")
    if pid >= 0 and base_seq < 0:
        raise KafkaError("INVALID_RECORD", f"Invalid sequence number {base_seq} in record batch with producerId {pid}")
    try:
        batch = next(iter(iter_batches(data, strict=True)))
    except (DecodeError, StopIteration) as exc:
        raise KafkaError("INVALID_RECORD", f"Record batch does not parse: {exc}") from None
    for expected, record in enumerate(batch.records):
        if record.offset != expected:
            raise KafkaError("INVALID_RECORD", f"Record {expected} of the batch has offset delta {record.offset}")
    if not attributes & 0x08:  # CreateTime: index the records' own largest timestamp, as Kafka recomputes it
        max_ts = max(r.timestamp for r in batch.records)
    return CheckedBatch(lod, max_ts, pid, pep, base_seq)


class Segment:
    """One `.log` file and the index of its batches: last offset, start and end position, and
    running maximum timestamp, as parallel lists in offset order.

    `running_max[i]` is the largest timestamp of batches 0..i, so the first batch reaching a
    timestamp is a bisection away (Kafka's time index, kept in memory).
    """

    def __init__(self, path: Path, base_offset: int) -> None:
        self.path = path
        self.base_offset = base_offset
        self.lasts: list[int] = []
        self.positions: list[int] = []
        self.ends: list[int] = []
        self.running_max: list[int] = []
        self.size = 0
        self._fd: int | None = None

    def add(self, last: int, position: int, end: int, max_timestamp: int) -> None:
        self.lasts.append(last)
        self.positions.append(position)
        self.ends.append(end)
        self.running_max.append(max(max_timestamp, self.running_max[-1]) if self.running_max else max_timestamp)
        self.size = end

    @property
    def largest_timestamp(self) -> int:
        return self.running_max[-1] if self.running_max else NO_TIMESTAMP

    def read(self, start: int, end: int) -> bytes:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        return os.pread(self._fd, end - start, start)

    def batch(self, index: int) -> Batch:
        """Batch `index` decoded, records and all (for timestamp lookups)."""
        data = self.read(self.positions[index], self.ends[index])
        return next(iter(iter_batches(data, path=str(self.path), strict=True)))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class PartitionLog:
    """One topic-partition's log: its segments, offsets, writer and long-poll waiters."""

    def __init__(
        self, topic: str, partition: int, directory: Path, start_offset: int, *, segment_bytes: int = SEGMENT_BYTES,
        on_append: Callable[[PartitionLog], None] | None = None,
    ) -> None:
        self.topic = topic
        self.partition = partition
        self.directory = directory
        self.segment_bytes = segment_bytes
        self.on_append = on_append
        self.segments: list[Segment] = []
        self.log_start_offset = start_offset
        self.end_offset = start_offset
        self.unsynced = False
        self.notices: list[str] = []
        self.waiters: list[asyncio.Future[None]] = []
        self.producers = ProducerStates()
        self._writer: SegmentWriter | None = None

    # -- recovery ---------------------------------------------------------------------------------

    def recover(self) -> None:
        """Rebuild the index from the segment files; cut the log at the first batch that does not
        read back whole and valid (a torn tail), deleting any segments after it, as Kafka does."""
        found = sorted(
            (int(m.group(1)), p) for p in self.directory.iterdir() if (m := SEGMENT_NAME.match(p.name)) and p.is_file()
        )
        if not found:
            return
        self.log_start_offset = self.end_offset = found[0][0]
        for k, (base, path) in enumerate(found):
            segment = Segment(path, base)
            self.segments.append(segment)
            self.end_offset = max(self.end_offset, base)
            good_end, damage = self._index(segment, self.end_offset)
            if segment.lasts:
                self.end_offset = segment.lasts[-1] + 1
            size = path.stat().st_size
            if damage is None and good_end == size:
                continue
            os.truncate(path, good_end)
            segment.size = good_end
            self.notices.append(f"{path}: cut off {size - good_end} bytes at byte {good_end} "
                                f"({damage or 'a torn last write'})")
            for _, later in found[k + 1 :]:
                later.unlink()
                self.notices.append(f"{later}: deleted, it followed the damage in {path.name}")
            break

    def _index(self, segment: Segment, expected: int) -> tuple[int, str | None]:
        """Index `segment`'s good batches; returns where they end and what stopped the reading, if anything."""
        good_end = 0
        for entry in read_segment(segment.path).entries():
            if isinstance(entry, DecodeError):
                return good_end, entry.reason
            if entry.magic != 2 or entry.position != good_end or entry.base_offset < expected:
                return good_end, f"an unexpected batch at offset {entry.base_offset}"
            max_ts = entry.max_timestamp
            if entry.timestamp_type == "CreateTime" and entry.records:
                max_ts = max(r.timestamp for r in entry.records)
            segment.add(entry.last_offset, entry.position, entry.position + entry.size, max_ts)
            if entry.producer_id >= 0:
                self.producers.record(entry.producer_id, entry.producer_epoch, entry.base_sequence,
                                      entry.last_offset - entry.base_offset + 1, entry.base_offset)
            good_end = entry.position + entry.size
            expected = entry.last_offset + 1
        return good_end, None

    # -- writing ----------------------------------------------------------------------------------

    def append(self, data: bytes, *, allow_zstd: bool = True) -> int:
        """Check a producer's batch (`KafkaError` when it fails) and append it at the log end; returns
        its base offset."""
        checked = check_batch(data, allow_zstd=allow_zstd)
        count = checked.last_offset_delta + 1
        if checked.producer_id >= 0:
            earlier = self.producers.check(checked.producer_id, checked.producer_epoch, checked.base_sequence, count,
                                           self.end_offset, f"{self.topic}-{self.partition}")
            if earlier is not None:
                return earlier
        active = self.segments[-1] if self.segments else None
        if active is None or (active.size and active.size + len(data) > self.segment_bytes):
            self._roll()
            active = self.segments[-1]
        if self._writer is None:
            self._writer = SegmentWriter(self.directory, active.base_offset)
        appended = self._writer.append_batch(data, partition_leader_epoch=LEADER_EPOCH)
        active.add(appended.last_offset, appended.position, appended.position + appended.size, checked.max_timestamp)
        self.end_offset = appended.last_offset + 1
        if checked.producer_id >= 0:
            self.producers.record(checked.producer_id, checked.producer_epoch, checked.base_sequence, count,
                                  appended.base_offset)
        self.unsynced = True
        if self.on_append is not None:
            self.on_append(self)
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(None)
        self.waiters.clear()
        return appended.base_offset

    def _roll(self) -> None:
        """Start a new segment at the log end (the first one, or when the active one is full)."""
        if self._writer is not None:
            self._writer.sync()
            self._writer.close()
            self._writer = None
        self.directory.mkdir(parents=True, exist_ok=True)
        self.segments.append(Segment(self.directory / segment_file_name(self.end_offset), self.end_offset))

    def sync(self) -> None:
        if self._writer is not None and self.unsynced:
            self._writer.sync()
        self.unsynced = False

    def close(self) -> None:
        if self._writer is not None:
            self._writer.sync()
            self._writer.close()
            self._writer = None
        for segment in self.segments:
            segment.close()
        for waiter in self.waiters:
            if not waiter.done():
                waiter.cancel()
        self.waiters.clear()

    # -- reading ----------------------------------------------------------------------------------

    def read(self, offset: int, max_bytes: int, *, min_one: bool) -> bytes:
        """Whole batches from the one holding `offset`, within one segment, as many as fit in
        `max_bytes`; with `min_one` the first batch comes even when it alone is larger (KIP-74)."""
        if not self.log_start_offset <= offset < self.end_offset:
            return b""
        k = max(0, bisect.bisect_right([s.base_offset for s in self.segments], offset) - 1)
        for segment in self.segments[k:]:
            i = bisect.bisect_left(segment.lasts, offset)
            if i < len(segment.lasts):
                break
        else:
            return b""
        start = end = segment.positions[i]
        for j in range(i, len(segment.ends)):
            if segment.ends[j] - start > max_bytes and not (j == i and min_one):
                break
            end = segment.ends[j]
        return segment.read(start, end) if end > start else b""

    def offset_for_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        """(timestamp, offset) of the first record whose timestamp is at least `timestamp`, or None."""
        for segment in self.segments:
            if segment.largest_timestamp < timestamp:
                continue
            i = bisect.bisect_left(segment.running_max, timestamp)
            for record in segment.batch(i).records:
                if record.timestamp >= timestamp and record.offset >= self.log_start_offset:
                    return record.timestamp, record.offset
        return None

    def max_timestamp(self) -> tuple[int, int] | None:
        """(timestamp, offset) of the first record holding the log's largest timestamp (KIP-734), or None."""
        best: Segment | None = None
        for segment in self.segments:
            if segment.lasts and (best is None or segment.largest_timestamp > best.largest_timestamp):
                best = segment
        if best is None:
            return None
        largest = best.largest_timestamp
        i = bisect.bisect_left(best.running_max, largest)
        for record in best.batch(i).records:
            if record.timestamp == largest:
                return record.timestamp, record.offset
        return None


class PartitionStore:
    """Every partition log under `DIR/data/`, opened on start, created on first append.

    `end_offsets` is the local backend's table of log end offsets by topic: it gives a partition
    without a log its starting offset, and the store keeps it equal to the logs' end offsets.
    """

    def __init__(
        self, directory: Path, end_offsets: dict[str, list[int]], *, segment_bytes: int = SEGMENT_BYTES
    ) -> None:
        self.root = Path(directory) / DATA_DIR
        self.end_offsets = end_offsets
        self.segment_bytes = segment_bytes
        self.notices: list[str] = []
        self._logs: dict[tuple[str, int], PartitionLog] = {}
        if self.root.is_dir():
            for path in sorted(self.root.iterdir()):
                m = _PARTITION_DIR.match(path.name)
                if m and path.is_dir():
                    self._open(m.group(1), int(m.group(2)))

    def _open(self, topic: str, partition: int) -> PartitionLog:
        ends = self.end_offsets.get(topic, [])
        start = ends[partition] if partition < len(ends) else 0
        log = PartitionLog(topic, partition, self.root / f"{topic}-{partition}", start,
                           segment_bytes=self.segment_bytes, on_append=self._publish)
        if log.directory.is_dir():
            log.recover()
            self.notices.extend(log.notices)
            self._publish(log)
        self._logs[(topic, partition)] = log
        return log

    def _publish(self, log: PartitionLog) -> None:
        ends = self.end_offsets.setdefault(log.topic, [])
        if len(ends) <= log.partition:
            ends.extend([0] * (log.partition + 1 - len(ends)))
        ends[log.partition] = log.end_offset

    def log(self, topic: str, partition: int) -> PartitionLog:
        """The partition's log; one that was never written starts at the recorded log end offset."""
        log = self._logs.get((topic, partition))
        return log if log is not None else self._open(topic, partition)

    async def wait_for_append(self, logs: Iterable[PartitionLog], timeout_s: float) -> None:
        """Return when any of `logs` is appended to, or after `timeout_s` (a Fetch's long poll)."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        watched = list(logs)
        for log in watched:
            log.waiters.append(waiter)
        try:
            await asyncio.wait([waiter], timeout=max(0.0, timeout_s))
        finally:
            if not waiter.done():
                waiter.cancel()
            for log in watched:
                if waiter in log.waiters:
                    log.waiters.remove(waiter)

    def sync(self) -> None:
        """Fsync every log appended to since the last sync."""
        for log in self._logs.values():
            log.sync()

    def close(self) -> None:
        for log in self._logs.values():
            log.close()
        self._logs.clear()
