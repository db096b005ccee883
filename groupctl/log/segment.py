"""Read Kafka log segments: every magic, every codec, CRCs checked, damage reported and skipped.

Entry points:

* `iter_batches(data, path=..., strict=..., problems=...)`: the batches in a bytes object.
* `read_segment(path, ...)`: the same over one `.log` file, memory-mapped when iteration starts
  (pages already read are handed back to the kernel as reading goes on, so memory does not grow
  with the segment); a pipe or other non-seekable file is first copied to an unnamed temporary file.
* `read_partition_dir(path, ...)` / `iter_path(path, ...)`: one reader per segment, segments in
  base-offset order, partitions by their numeric suffix; `segment_files(path)` lists them.

All of them return `BatchIterator`s. Iterating one yields `Batch`es in file order. Damage is
reported as `DecodeError(reason, path=..., position=byte)`: with `strict=True` the first one is
raised; otherwise it is appended to the iterator's `problems` list (the caller's list when one
is given) and reading goes on with the next batch, skipping by the length field when it is intact
and otherwise scanning forward for the next position holding a batch whose CRC checks. A batch
whose CRC does not match but whose structure parses is still yielded, with `crc_valid=False`,
after its problem is recorded. `BatchIterator.entries()` yields batches and problems interleaved
in file order. Bytes at the end of the file that do not make a whole batch (a torn last write)
are not a problem here: as in Kafka they are counted in `trailing_bytes` once iteration ends (the
dump commands report them, see `groupctl.log.decode.torn_tail`).

Nothing in the input can make the reader raise anything but `DecodeError`, loop forever or
allocate without bound: every length is checked against the bytes left before it is used,
decompression stops at `max_decompressed` bytes per batch, and record counts must fit the bytes.
Work per input byte is bounded too, against "record bombs" (a small compressed batch that expands
into millions of tiny records): a batch may claim at most `MAX_BATCH_RECORDS` records, a compressed
one at most `MAX_RECORDS_PER_COMPRESSED_BYTE` per compressed byte (plus a small allowance: beyond it
the batch is reported as suspicious, with the records it claims, and not decompressed), and it
may decompress to at most `MAX_EXPANSION` times its compressed size (plus `EXPANSION_ALLOWANCE`).
Legitimate batches stay far inside these: Kafka's default message.max.bytes (1 MiB) holds at most
about 150,000 of the smallest (7-byte) records.
"""

from __future__ import annotations

import contextlib
import functools
import mmap as _mmap
import os
import re
import stat
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterator
from mmap import mmap
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from crc32c import crc32c

from groupctl.errors import DecodeError, GroupctlError, UsageError
from groupctl.log import fast
from groupctl.log.batch import (
    MAX_BATCH_RECORDS,
    MAX_RECORDS_PER_COMPRESSED_BYTE,
    RECORD_ALLOWANCE,
    Batch,
    Record,
    increment_sequence,
    suspicious,
    wrap_long,
)
from groupctl.log.compression import (
    CODEC_NAMES,
    DEFAULT_MAX_DECOMPRESSED,
    EXPANSION_ALLOWANCE,
    MAX_EXPANSION,
    CompressionError,
    decompress,
    expansion_limit,
)
from groupctl.log.legacy import RECORD_OVERHEAD, decode_legacy
from groupctl.protocol.primitives import UNDERFLOW, WireError, read_varint, read_varlong

if TYPE_CHECKING:
    from groupctl.log.decode import DecodedRecord

__all__ = [
    "DEFAULT_MAX_DECOMPRESSED",
    "EXPANSION_ALLOWANCE",
    "MAX_BATCH_RECORDS",
    "MAX_EXPANSION",
    "MAX_RECORDS_PER_COMPRESSED_BYTE",
    "BatchIterator",
    "BatchObserver",
    "iter_batches",
    "iter_path",
    "map_file",
    "read_partition_dir",
    "read_segment",
    "segment_base_offset",
    "segment_files",
    "spool",
]

LOG_OVERHEAD = 12
HEADER_SIZE_UP_TO_MAGIC = 17  # Kafka stops reading when fewer bytes than this are left
V2_OVERHEAD = 61  # RECORD_BATCH_OVERHEAD
MIN_V2_LENGTH = V2_OVERHEAD - LOG_OVERHEAD
_INT32_MAX = 0x7FFFFFFF
_INT64_MAX = (1 << 63) - 1
_INT64_MIN = -(1 << 63)

_DROP_STEP = 32 << 20  # hand mapped pages back to the kernel every this many bytes read
_SPOOL_CHUNK = 1 << 20
_RUN_SPAN = 1 << 20  # the compiled loop reads plain batches starting within this many bytes per call

_PEEK = struct.Struct(">qi4xb")  # base offset, length, magic
_V2 = struct.Struct(">qiibIhiqqqhii")  # the 61-byte v2 header
_U32 = struct.Struct(">I")
_H16 = struct.Struct(">h")
_I32 = struct.Struct(">i")

SEGMENT_NAME = re.compile(r"^(\d+)\.log$")
_PARTITION_SUFFIX = re.compile(r"^(.*)-(\d+)$")


def _attribute_table() -> list[tuple[str, str, bool, bool, bool, bool, int] | None]:
    """Per low attribute byte: compression, timestamp type, transactional, control, delete horizon,
    LogAppendTime, codec id (None for codecs 5-7)."""
    table: list[tuple[str, str, bool, bool, bool, bool, int] | None] = []
    for a in range(256):
        codec = a & 0x07
        if codec >= len(CODEC_NAMES):
            table.append(None)
            continue
        lat = bool(a & 0x08)
        table.append(
            (CODEC_NAMES[codec], "LogAppendTime" if lat else "CreateTime", bool(a & 0x10), bool(a & 0x20),
             bool(a & 0x40), lat, codec)
        )
    return table


_ATTRS = _attribute_table()
_ZIGZAG = [(b >> 1) ^ -(b & 1) for b in range(128)]  # one-byte varints


class _VarintProblem(DecodeError):
    """A record-framing varint that is cut short, too long, or crosses the end of its record."""


def _varint_in(read: Callable[[Any, int], tuple[int, int]], buf: bytes | mmap, p: int, end: int) -> tuple[int, int]:
    """A zig-zag varint/varlong (the protocol codec's reader) that must end by `end`: the general
    path behind the reading loop's inlined one- and two-byte cases."""
    try:
        value, q = read(buf, p)
    except WireError as exc:
        why = "runs past the end of its buffer" if exc.reason == UNDERFLOW else exc.reason
        raise _VarintProblem(f"varint at byte {p}: {why}") from None
    if q > end:
        raise _VarintProblem(f"varint at byte {p} runs past the end of its record")
    return value, q


def decode_varint(buf: bytes | mmap, p: int, end: int) -> tuple[int, int]:
    return _varint_in(read_varint, buf, p, end)


def decode_varlong(buf: bytes | mmap, p: int, end: int) -> tuple[int, int]:
    return _varint_in(read_varlong, buf, p, end)


def _decode_headers(buf: bytes | mmap, p: int, rend: int, what: str) -> tuple[list[tuple[str, bytes | None]], int]:
    """The headers of one record at p (their count first); returns them and the position after."""
    n, p = decode_varint(buf, p, rend)
    if n < 0:
        raise DecodeError(f"{what}: invalid number of record headers {n}")
    if n > rend - p:
        raise DecodeError(f"{what}: {n} headers cannot fit in the {rend - p} bytes left in the record")
    headers: list[tuple[str, bytes | None]] = []
    for _ in range(n):
        klen, p = decode_varint(buf, p, rend)
        if klen < 0:
            raise DecodeError(f"{what}: invalid negative header key size {klen}")
        if klen > rend - p:
            raise DecodeError(f"{what}: header key length {klen} exceeds the record")
        hkey = buf[p : p + klen].decode("utf-8", "replace")
        p += klen
        vlen, p = decode_varint(buf, p, rend)
        if vlen < 0:
            hval = None
        elif vlen > rend - p:
            raise DecodeError(f"{what}: header value length {vlen} exceeds the record")
        else:
            hval = buf[p : p + vlen]
            p += vlen
        headers.append((hkey, hval))
    return headers, p


@functools.cache
def _candidates(top: int) -> re.Pattern[bytes]:
    """Positions whose length field is in [14, (top+1) << 24) and whose magic byte is 0, 1 or 2."""
    alternatives = [
        rb"\x00[\x01-\xff]..",
        rb"\x00\x00[\x01-\xff].",
        rb"\x00\x00\x00[\x0e-\xff]",
    ]
    if top:
        alternatives.insert(0, b"[\\x01-\\x%02x]..." % top)
    length = b"(?:" + b"|".join(alternatives) + b")"
    return re.compile(b"(?=.{8}" + length + b".{4}[\\x00-\\x02])", re.DOTALL)


def _walk_records(records: list[Record], buf: bytes | mmap, p: int, stop: int, count: int, base_offset: int,
                  base_ts: int, max_ts: int, lat: bool, bseq: int) -> None:
    """The reference record walk of a v2 batch's (decompressed) record data in `buf[p:stop]`, appending to
    `records`: the hot path of the pure-Python reader, so one- and two-byte varints are read inline and the
    rest through decode_varint/varlong. Damage raises DecodeError, or _VarintProblem or IndexError for the
    record after the last one appended (no try block here: one around the loop costs the walk ~10%)."""
    zz = _ZIGZAG
    new_record = Record
    varint = decode_varint
    for i in range(count):
        # One- and two-byte varints inline; longer ones through decode_varint/varlong.
        b = buf[p]
        if b < 0x80:
            size = zz[b]
            p += 1
        elif buf[p + 1] < 0x80:
            size = (b & 0x7F) | (buf[p + 1] << 7)
            size = (size >> 1) ^ -(size & 1)
            p += 2
        else:
            size, p = varint(buf, p, stop)
        rend = p + size
        if size < 6 or rend > stop:
            raise DecodeError(
                f"record {i + 1} of {count}: size {size} does not fit the {stop - p} bytes left"
            )
        # buf[p] is the record's attributes byte (unused)
        b = buf[p + 1]
        if b < 0x80:
            ts_delta = zz[b]
            p += 2
        elif buf[p + 2] < 0x80:
            ts_delta = (b & 0x7F) | (buf[p + 2] << 7)
            ts_delta = (ts_delta >> 1) ^ -(ts_delta & 1)
            p += 3
        else:
            ts_delta, p = decode_varlong(buf, p + 1, rend)
        b = buf[p]
        if b < 0x80:
            delta = zz[b]
            p += 1
        else:
            delta, p = varint(buf, p, rend)
        b = buf[p]
        if b < 0x80:
            ksize = zz[b]
            p += 1
        elif buf[p + 1] < 0x80:
            ksize = (b & 0x7F) | (buf[p + 1] << 7)
            ksize = (ksize >> 1) ^ -(ksize & 1)
            p += 2
        else:
            ksize, p = varint(buf, p, rend)
        if ksize < 0:
            key = None
            ksize = -1
        elif ksize > rend - p:
            raise DecodeError(f"record {i + 1} of {count}: key length {ksize} exceeds the record")
        else:
            key = buf[p : p + ksize]
            p += ksize
        b = buf[p]
        if b < 0x80:
            vsize = zz[b]
            p += 1
        elif buf[p + 1] < 0x80:
            vsize = (b & 0x7F) | (buf[p + 1] << 7)
            vsize = (vsize >> 1) ^ -(vsize & 1)
            p += 2
        else:
            vsize, p = varint(buf, p, rend)
        if vsize < 0:
            value = None
            vsize = -1
        elif vsize > rend - p:
            raise DecodeError(f"record {i + 1} of {count}: value length {vsize} exceeds the record")
        else:
            value = buf[p : p + vsize]
            p += vsize
        if buf[p] == 0:
            headers: list[tuple[str, bytes | None]] = []
            p += 1
        else:
            headers, p = _decode_headers(buf, p, rend, f"record {i + 1} of {count}")
        if p != rend:
            raise DecodeError(
                f"record {i + 1} of {count}: expected to read {size} bytes in record payload, "
                f"but read {p - rend + size}"
            )
        if bseq < 0:
            seq = -1
        else:
            seq = bseq + delta
            if delta < 0 or seq > _INT32_MAX:
                seq = increment_sequence(bseq, delta)
        offset = base_offset + delta
        if not _INT64_MIN <= offset <= _INT64_MAX:
            offset = wrap_long(offset)
        if lat:
            ts = max_ts
        else:
            ts = base_ts + ts_delta
            if not _INT64_MIN <= ts <= _INT64_MAX:
                ts = wrap_long(ts)
        records.append(new_record(offset, ts, key, value, headers, seq, ksize, vsize, None, True))
    if count and p != stop:
        raise DecodeError(f"{stop - p} bytes remain after the last of {count} records")


class BatchObserver(Protocol):
    """What a reader offers its plain batches before building them, so they can be taken from the bytes.

    The audit's compiled path (`Auditor.attach`) is one: it observes batches of offset commits straight
    from the segment's (or the decompressed) bytes, with no `Batch` or `Record` built; whatever it does not
    take the reader reads and yields as usual. Attach one with `BatchIterator(..., observer=...)` or
    `BatchIterator.attach` before reading starts.
    """

    def take_batches(self, data: bytes | mmap, pos: int) -> int | None:
        """Take the batches starting at `pos`: the end of those taken, or None to let the reader read the
        batch at `pos` (the reader asks again at the next batch's position)."""

    def take_records(self, buf: bytes | mmap, start: int, stop: int, count: int, base_offset: int,
                     base_timestamp: int, max_timestamp: int, log_append_time: bool) -> bool:
        """Take the `count` records in `buf[start:stop]` of a decompressed batch, whose header the reader
        has checked: True when taken (the batch is then not yielded). Offered only batches with a good
        CRC, no producer id or sequence, neither transactional nor control."""


Pair = tuple[Batch, "list[DecodedRecord] | None"]


class BatchIterator:
    """The batches of one segment (or any bytes in segment format), with the problems met on the way.

    Iterate it for `Batch`es, or iterate `decoded()` for each batch with its records decoded (the plain
    batches the compiled loop reads come decoded in C). `problems` collects `DecodeError`s (non-strict
    mode) in file order; `trailing_bytes` counts the bytes at the end that do not make a whole batch,
    once iteration has finished (`finished` is then True). `entries()` yields batches and problems
    interleaved. An `observer` (see `BatchObserver`) may take plain batches before they are built.

    There is one reading loop (`_run`), yielding one item: a batch and its decoded records, or None when
    the loop did not decode them. Whichever of `__iter__`/`__next__`/`entries()` or `decoded()` comes first
    starts it, asking for decoded records or not; the other views of the same reader go on from there.
    """

    def __init__(
        self,
        data: bytes | bytearray | memoryview | mmap | None = None,
        *,
        path: str = "<bytes>",
        strict: bool = False,
        problems: list[DecodeError] | None = None,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        file: Path | BinaryIO | None = None,
        observer: BatchObserver | None = None,
    ) -> None:
        self.path = path
        self.strict = strict
        self.problems: list[DecodeError] = [] if problems is None else problems
        self.max_decompressed = max_decompressed
        self.trailing_bytes = 0
        self.size = 0  # bytes in the input, known once iteration starts
        self.finished = False
        self._data = data
        self._file = file
        self._buf: bytes | mmap = b""
        self._mv = memoryview(b"")
        self._n = 0
        self._crc_budget = 0
        self._weak_budget = 0
        self._gave_up = False
        self._observer = observer
        self._gen: Iterator[Pair] | None = None

    def attach(self, observer: BatchObserver) -> None:
        """Have `observer` offered the plain batches (see `BatchObserver`); only before reading starts, and
        only one observer per reader."""
        if self._gen is not None:
            raise ValueError("attach an observer before the reader is iterated")
        if self._observer is not None and self._observer is not observer:
            raise ValueError("this reader has an observer already")
        self._observer = observer

    @property
    def started(self) -> bool:
        """Whether reading has started (an observer can no longer be attached)."""
        return self._gen is not None

    def _pairs(self, decode: bool) -> Iterator[Pair]:
        if self._gen is None:
            self._gen = self._run(decode)
        return self._gen

    def __iter__(self) -> Iterator[Batch]:
        return (batch for batch, _ in self._pairs(False))

    def __next__(self) -> Batch:
        return next(self._pairs(False))[0]

    def decoded(self) -> Iterator[tuple[Batch, list[DecodedRecord]]]:
        """Each batch with its records decoded (`groupctl.log.decode.decode_record`'s DecodedRecords)."""
        from groupctl.log.decode import decode_record

        native = fast.module()
        decode = None if native is None else native.decode
        for pair in self._pairs(True):
            if pair[1] is None:
                batch = pair[0]
                pair = batch, (decode(batch, batch.records) if decode is not None
                               else [decode_record(batch, r) for r in batch.records])
            yield pair  # type: ignore[misc]  # its records are decoded now: None was replaced just above

    def entries(self) -> Iterator[Batch | DecodeError]:
        """Batches and problems in file order (a CRC-mismatch problem comes just before its batch)."""
        seen = len(self.problems)
        for batch, _ in self._pairs(False):
            while seen < len(self.problems):
                yield self.problems[seen]
                seen += 1
            yield batch
        while seen < len(self.problems):
            yield self.problems[seen]
            seen += 1

    # ----------------------------------------------------------------------------------------

    def _problem(self, reason: str, position: int) -> None:
        err = DecodeError(reason, path=self.path, position=position)
        if self.strict:
            raise err
        self.problems.append(err)

    def _load(self) -> bytes | mmap:
        data = self._data
        self._data = None
        if data is None and self._file is not None:
            data = map_file(self._file, self.path)
        if data is None:
            return b""
        if not isinstance(data, bytes | mmap):
            data = bytes(data)
        return data

    def _run(self, decode: bool) -> Iterator[Pair]:
        """The reading loop: the observer's batches skipped, runs of plain batches read in C (decoded with
        `decode`), every other whole v2 batch by `_v2`, legacy entries and damage by `_slow`."""
        data = self._load()
        mv = memoryview(data)
        n = len(data)
        self.size = n
        self._buf, self._mv, self._n = data, mv, n
        self._crc_budget = 16 * n + (64 << 20)
        self._weak_budget = 4 * n + (16 << 20)
        native = fast.module()
        walk = None if native is None else native.walk
        next_batches = None if native is None else native.next_batches
        observer = self._observer
        take_batches = None if observer is None else observer.take_batches
        take_records = None if observer is None else observer.take_records
        v2 = self._v2
        pos = 0
        mapped = data if isinstance(data, mmap) else None
        next_drop = _DROP_STEP
        try:
            while n - pos >= HEADER_SIZE_UP_TO_MAGIC:
                if mapped is not None and pos >= next_drop:
                    # Pages behind us are never read again: give them back so memory stays flat.
                    mapped.madvise(_mmap.MADV_DONTNEED, 0, pos - pos % _mmap.PAGESIZE)
                    next_drop = pos + _DROP_STEP
                if take_batches is not None:
                    end = take_batches(data, pos)
                    if end is not None:
                        pos = end
                        continue
                if next_batches is not None:  # plain batches whole in C, a run per call; anything else below
                    # with an observer, one batch per call: it must be offered the position of every batch
                    until = pos + 1 if take_batches is not None else min(n, pos + _RUN_SPAN)
                    got = next_batches(data, pos, until, decode)
                    if got is not None:
                        items, pos = got
                        if decode:
                            yield from items
                        else:
                            for batch in items:
                                yield batch, None
                        continue
                batch, pos = v2(pos, take_records, walk)
                if batch is not None:
                    yield batch, None
                elif pos < 0:
                    break
            else:
                self.trailing_bytes = n - pos
        finally:
            self.finished = True
            self._buf = b""
            self._mv = memoryview(b"")
            if mapped is not None:
                with contextlib.suppress(BufferError):  # a view still held elsewhere keeps the map alive
                    mv.release()
                    mapped.close()

    def _v2(self, pos: int, take_records: Callable[..., bool] | None,
            walk: Callable[..., list[Record] | None] | None) -> tuple[Batch | None, int]:
        """The batch at pos when it is a whole v2 batch (anything else goes to `_slow`): (the batch or None
        when it was taken or is damaged, the next position; -1 = stop)."""
        data, mv, n = self._buf, self._mv, self._n
        if n - pos < V2_OVERHEAD:
            return self._slow(pos)
        (base_offset, length, ple, magic, crc, attrs, lod, base_ts, max_ts, pid, pep, bseq, count) = (
            _V2.unpack_from(data, pos)
        )
        end = pos + LOG_OVERHEAD + length
        if magic != 2 or length < MIN_V2_LENGTH or end > n:
            return self._slow(pos)
        computed = crc32c(mv[pos + 21 : end])
        crc_ok = computed == crc
        if not crc_ok:
            resume = self._length_damaged(pos, end, f"CRC mismatch: stored {crc}, computed {computed}")
            if resume is not None:
                return None, resume
        records: list[Record] = []
        try:
            info = _ATTRS[attrs & 0xFF]
            if info is None:
                raise DecodeError(f"unknown compression codec id {attrs & 0x07}")
            comp, ts_type, txn, ctl, horizon, lat, codec = info
            if count < 0:
                raise DecodeError(f"invalid record count {count}")
            if count > MAX_BATCH_RECORDS:
                raise DecodeError(
                    f"record count {count} exceeds the limit of {MAX_BATCH_RECORDS} records per batch "
                    "(a record bomb, or a damaged header)"
                )
            warning = None
            buf: bytes | mmap = data
            p = pos + V2_OVERHEAD
            stop = end
            if count == 0:
                if codec == 0 and end > p:
                    warning = f"record count is 0 but {end - p} bytes of record data follow (ignored, as Kafka does)"
                stop = p
            elif codec:
                clen = end - p
                if count > MAX_RECORDS_PER_COMPRESSED_BYTE * clen + RECORD_ALLOWANCE:
                    raise DecodeError(suspicious(comp, "batch", count, clen))
                try:
                    buf = decompress(codec, mv[p:end], limit=expansion_limit(clen, self.max_decompressed), magic=2)
                except CompressionError as exc:
                    raise DecodeError(f"{comp} batch: {exc}") from None
                p = 0
                stop = len(buf)
            # A record takes at least 7 bytes: size, attributes, timestamp and offset deltas, key
            # length, value length and header count of one byte each.
            if count > (stop - p) // 7:
                raise DecodeError(f"record count {count} cannot fit in the {stop - p} bytes of record data")
            if (take_records is not None and codec and crc_ok and pid == -1 and bseq < 0 and not txn
                    and not ctl and take_records(buf, p, stop, count, base_offset, base_ts, max_ts, lat)):
                return None, end
            walked = None if walk is None else walk(buf, p, stop, count, base_offset, base_ts, max_ts, lat, bseq)
            if walked is not None:
                records = walked
            else:  # the reference: every batch without the compiled loop, and any it declines
                _walk_records(records, buf, p, stop, count, base_offset, base_ts, max_ts, lat, bseq)
        except (DecodeError, IndexError) as exc:
            if isinstance(exc, _VarintProblem):
                reason = f"record {len(records) + 1} of {count}: {exc.reason}"
            elif isinstance(exc, DecodeError):
                reason = exc.reason
            else:  # an index past the end of the (decompressed) record data
                reason = f"record {len(records) + 1} of {count}: runs past the end of the record data"
            if not crc_ok:
                reason = f"CRC mismatch: stored {crc}, computed {computed}; {reason}"
            self._problem(f"damaged batch at offset {base_offset}: {reason}", pos)
            return None, end
        if not crc_ok:
            self._problem(f"CRC mismatch: stored {crc}, computed {computed}", pos)
        if warning is not None:
            self._problem(warning, pos)
        if bseq < 0:
            last_seq = -1
        else:
            last_seq = bseq + lod
            if lod < 0 or last_seq > _INT32_MAX:
                last_seq = increment_sequence(bseq, lod)
        return Batch(
            base_offset, wrap_long(base_offset + lod), count, bseq, last_seq, pid, pep, ple, txn, ctl,
            base_ts if horizon else None, pos, length + LOG_OVERHEAD, 2, comp, ts_type, max_ts, crc, crc_ok,
            records,
        ), end

    def _slow(self, pos: int) -> tuple[Batch | None, int]:
        """Legacy entries and damaged headers. Returns (batch or None, next position; -1 = stop)."""
        data, mv, n = self._buf, self._mv, self._n
        left = n - pos
        _, length, magic = _PEEK.unpack_from(data, pos)
        if magic not in (0, 1, 2):
            return None, self._resync(pos, f"unknown magic {magic}")
        minimum = MIN_V2_LENGTH if magic == 2 else RECORD_OVERHEAD[magic]
        if length < minimum:
            reason = f"batch length {length} is below the minimum of {minimum} bytes for magic {magic}"
            return None, self._resync(pos, reason)
        if length > left - LOG_OVERHEAD:
            nxt = self._find_next(pos + 1)
            if nxt is None:
                self.trailing_bytes = left  # a torn tail, as Kafka counts it
                return None, -1
            self._problem(
                f"batch length {length} exceeds the {left - LOG_OVERHEAD} bytes left in the file; "
                f"skipped {nxt - pos} bytes to the next valid batch at byte {nxt}",
                pos,
            )
            return None, nxt
        # Only legacy entries reach this point: _run handles every whole v2 batch.
        end = pos + LOG_OVERHEAD + length
        stored = _U32.unpack_from(data, pos + 12)[0]
        computed = zlib.crc32(mv[pos + 16 : end])
        crc_valid = stored == computed
        mismatch = f"CRC mismatch: stored {stored}, computed {computed}"
        if not crc_valid:
            resume = self._length_damaged(pos, end, mismatch)
            if resume is not None:
                return None, resume
        try:
            batch, warnings = decode_legacy(data, pos, end, crc_valid, self.max_decompressed)  # type: ignore[arg-type]  # an mmap reads as bytes do (index, slice, struct)
        except DecodeError as exc:
            reason = exc.reason if crc_valid else f"{mismatch}; {exc.reason}"
            self._problem(f"damaged batch at offset {_PEEK.unpack_from(data, pos)[0]}: {reason}", pos)
            return None, end
        if not crc_valid:
            self._problem(mismatch, pos)
        for reason in warnings:
            self._problem(reason, pos)
        return batch, end

    def _length_damaged(self, pos: int, end: int, mismatch: str) -> int | None:
        """After a CRC mismatch, decide whether the (unprotected) length field is what broke.

        It is when a valid batch starts inside the claimed range, or when nothing batch-like starts
        where the length points. Then the problem is recorded and the position to resume at is
        returned (-1: nothing follows); None means the length looks intact and the batch is decoded.
        """
        inner = self._find_next(pos + 1, until=end)
        if inner is not None:
            self._problem(
                f"{mismatch}, and a valid batch starts inside its claimed length at byte {inner}; "
                f"skipped {inner - pos} bytes to it",
                pos,
            )
            return inner
        if self._plausible_end(end):
            return None
        return self._resync(pos, f"{mismatch}, and no batch starts where its length points (byte {end})", end)

    def _plausible_end(self, end: int) -> bool:
        """Whether `end` is the end of the data, a short tail, or the start of something batch-like."""
        if self._n - end < HEADER_SIZE_UP_TO_MAGIC:
            return True
        _, length, magic = _PEEK.unpack_from(self._buf, end)
        return magic in (0, 1, 2) and length >= RECORD_OVERHEAD[0]

    def _resync(self, pos: int, reason: str, start: int | None = None) -> int:
        """Record `reason` for the damage at pos; return where the next valid batch starts (-1: none).

        The search starts at `start` (default pos + 1) and no valid batch is known to exist before it.
        """
        nxt = self._find_next(pos + 1 if start is None else start)
        if nxt is None:
            left = self._n - pos
            if self._gave_up:
                self._problem(f"{reason}; gave up looking for a valid batch in the remaining {left} bytes", pos)
            else:
                self._problem(f"{reason}; no valid batch follows (the remaining {left} bytes were skipped)", pos)
            return -1
        self._problem(f"{reason}; skipped {nxt - pos} bytes to the next valid batch at byte {nxt}", pos)
        return nxt

    def _find_next(self, start: int, until: int | None = None) -> int | None:
        """The first position >= start (and < until) holding a whole batch whose CRC checks.

        Candidates come from a regex scan (a length field that fits, a magic byte of 0-2), then cheap
        header checks, then the CRC. The CRC work is budgeted so hostile input cannot make this
        quadratic: candidates whose end is followed by another plausible batch (or the end of the
        data) share a budget of 16 bytes per input byte, and when it runs out the search gives up;
        other candidates get a smaller budget of their own and are skipped once it is spent.
        """
        data, mv, n = self._buf, self._mv, self._n
        if n - start < HEADER_SIZE_UP_TO_MAGIC or self._gave_up:
            return None
        search = _candidates(min(0x7F, (n - start - LOG_OVERHEAD) >> 24)).search
        stop = n if until is None else min(n, until + HEADER_SIZE_UP_TO_MAGIC - 1)
        pos = start
        while (m := search(data, pos, stop)) is not None:
            q = m.start()
            pos = q + 1
            _, length, magic = _PEEK.unpack_from(data, q)
            end = q + LOG_OVERHEAD + length
            if end > n:
                continue
            if magic == 2:
                if length < MIN_V2_LENGTH:
                    continue
                (attrs,) = _H16.unpack_from(data, q + 21)
                if attrs & ~0x7F or (attrs & 0x07) >= len(CODEC_NAMES) or _I32.unpack_from(data, q + 57)[0] < 0:
                    continue
            elif length < RECORD_OVERHEAD[magic] or (data[q + 17] & 0x07) > 3:
                continue
            if self._chained(end):
                self._crc_budget -= length
                if self._crc_budget < 0:
                    self._gave_up = True
                    return None
            else:
                if self._weak_budget < length:
                    continue
                self._weak_budget -= length
            if magic == 2:
                if crc32c(mv[q + 21 : end]) == _U32.unpack_from(data, q + 17)[0]:
                    return q
            elif zlib.crc32(mv[q + 16 : end]) == _U32.unpack_from(data, q + 12)[0]:
                return q
        return None

    def _chained(self, end: int) -> bool:
        """Whether `end` is the end of the data, a short tail, or a header whose length fits the data."""
        left = self._n - end
        if left < HEADER_SIZE_UP_TO_MAGIC:
            return True
        _, length, magic = _PEEK.unpack_from(self._buf, end)
        return magic in (0, 1, 2) and RECORD_OVERHEAD[0] <= length <= left - LOG_OVERHEAD


def spool(source: BinaryIO, name: str) -> BinaryIO:
    """Copy a non-seekable input (a pipe, /dev/stdin, `<(...)`) into an unnamed temporary file,
    chunk by chunk, so it can be detected, mapped and re-read like a regular file."""
    out = tempfile.TemporaryFile(prefix="groupctl-")  # noqa: SIM115 (returned open, closed by the caller)
    try:
        while chunk := source.read(_SPOOL_CHUNK):
            out.write(chunk)
        out.flush()
        out.seek(0)
    except OSError as exc:
        out.close()
        raise GroupctlError(f"cannot read {name}: {exc.strerror or exc}") from None
    return out


def map_file(file: Path | BinaryIO, name: str | None = None) -> bytes | mmap:
    """A segment's bytes without reading them into memory: a read-only map of a regular file
    (b"" when it is empty); other files (pipes, character devices) are spooled first."""
    name = str(file) if name is None else name
    try:
        fh = file.open("rb") if isinstance(file, Path) else file
    except OSError as exc:
        why = exc.strerror or exc
        raise GroupctlError(f"cannot read {name}: {why}; check that it exists and is readable") from None
    try:
        st = os.fstat(fh.fileno())
        if stat.S_ISDIR(st.st_mode):
            raise GroupctlError(f"cannot read {name}: it is a directory; give a segment file or pass the directory "
                                "itself as the PATH")
        if not stat.S_ISREG(st.st_mode):
            spooled = spool(fh, name)
            try:
                return map_file(spooled, name)
            finally:
                spooled.close()
        if st.st_size == 0:
            return b""
        return _mmap.mmap(fh.fileno(), 0, access=_mmap.ACCESS_READ)
    except OSError as exc:
        raise GroupctlError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        if isinstance(file, Path):
            fh.close()


def iter_batches(
    data: bytes | bytearray | memoryview | mmap,
    *,
    path: str = "<bytes>",
    strict: bool = False,
    problems: list[DecodeError] | None = None,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> BatchIterator:
    """The batches in `data` (segment format), in order; see `BatchIterator` for problems and trailing bytes."""
    return BatchIterator(data, path=path, strict=strict, problems=problems, max_decompressed=max_decompressed)


def read_segment(
    path: str | Path | BinaryIO,
    *,
    strict: bool = False,
    problems: list[DecodeError] | None = None,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> BatchIterator:
    """The batches of one segment file (memory-mapped when iteration starts), or of an open binary file."""
    if not isinstance(path, str | Path):
        name = str(getattr(path, "name", "<file>"))
        return BatchIterator(
            None, path=name, strict=strict, problems=problems, max_decompressed=max_decompressed, file=path
        )
    file = Path(path)
    if not file.exists() or file.is_dir():
        raise UsageError(f"'{file}' is not a file")
    return BatchIterator(
        None, path=str(file), strict=strict, problems=problems, max_decompressed=max_decompressed, file=file
    )


def segment_base_offset(path: str | Path) -> int | None:
    """The base offset in a segment file's name (`00000000000000000042.log` -> 42), or None."""
    m = SEGMENT_NAME.match(Path(path).name)
    return int(m.group(1)) if m else None


def _own_segments(directory: Path) -> list[Path]:
    found = [(int(m.group(1)), p) for p in directory.iterdir() if (m := SEGMENT_NAME.match(p.name)) and p.is_file()]
    return [p for _, p in sorted(found)]


def _partition_key(directory: Path) -> tuple[str, int, str]:
    m = _PARTITION_SUFFIX.match(directory.name)
    if m:
        return m.group(1), int(m.group(2)), directory.name
    return directory.name, -1, directory.name


def segment_files(path: str | Path) -> list[Path]:
    """The segment files PATH stands for, in reading order.

    A file is itself. A directory holding `NNNNNNNNNNNNNNNNNNNN.log` files is a partition: its
    segments in base-offset order. Otherwise each subdirectory holding segments is a partition,
    taken in order of topic name then numeric partition suffix (`__consumer_offsets-2` before
    `-10`); directories Kafka marks for deletion or moves (`-delete`, `-future`) are skipped.
    Returns [] when there are none.
    """
    root = Path(path)
    if root.is_file():
        return [root]
    if not root.is_dir():
        return []
    own = _own_segments(root)
    if own:
        return own
    files: list[Path] = []
    subdirs = [d for d in root.iterdir() if d.is_dir() and not d.name.endswith(("-delete", "-future"))]
    for sub in sorted(subdirs, key=_partition_key):
        files.extend(_own_segments(sub))
    return files


def read_partition_dir(
    path: str | Path,
    *,
    strict: bool = False,
    problems: list[DecodeError] | None = None,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> Iterator[BatchIterator]:
    """One reader per segment of a partition directory, in base-offset order (each file read when reached)."""
    directory = Path(path)
    if not directory.is_dir():
        raise UsageError(f"'{directory}' is not a directory")
    files = _own_segments(directory)
    return (read_segment(f, strict=strict, problems=problems, max_decompressed=max_decompressed) for f in files)


def iter_path(
    path: str | Path,
    *,
    strict: bool = False,
    problems: list[DecodeError] | None = None,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> Iterator[BatchIterator]:
    """One reader per segment: of a file, a partition directory, or a directory of partition directories."""
    root = Path(path)
    if not root.exists():
        raise UsageError(f"'{root}' does not exist")
    files = segment_files(root)
    if not files:
        raise UsageError(f"'{root}' holds no .log segment files (nor partition directories with them)")
    return (read_segment(f, strict=strict, problems=problems, max_decompressed=max_decompressed) for f in files)
