"""Where the coordinator's records go: real v2 batches, read back through the segment reader.

Appending returns the records as the decoder reads them from the written bytes, and the state
applies exactly those, so the live coordinator and one rebuilt from the log see the same values.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from groupctl.log.decode import DecodedRecord, decode_record
from groupctl.log.segment import iter_batches
from groupctl.log.writer import SegmentWriter, SimpleRecord, build_batch

Record = tuple[bytes, bytes | None]


class RecordLog(Protocol):
    def append(self, records: Sequence[Record], timestamp: int) -> list[DecodedRecord]: ...

    def read(self) -> Iterator[DecodedRecord]: ...


def _decoded(data: bytes, what: str) -> list[DecodedRecord]:
    return [decode_record(batch, rec) for batch in iter_batches(data, path=what, strict=True) for rec in batch.records]


class MemoryLog:
    """A `__consumer_offsets` partition held in memory, in the real segment format."""

    def __init__(self) -> None:
        self._data = bytearray()
        self.next_offset = 0

    def append(self, records: Sequence[Record], timestamp: int) -> list[DecodedRecord]:
        if not records:
            return []
        data = build_batch([SimpleRecord(k, v, timestamp) for k, v in records], base_offset=self.next_offset)
        self._data += data
        self.next_offset += len(records)
        return _decoded(data, "coordinator log")

    def read(self) -> Iterator[DecodedRecord]:
        return iter(_decoded(bytes(self._data), "coordinator log"))

    def segment_bytes(self) -> bytes:
        """The whole log as a segment file would hold it (what `groupctl dump` reads)."""
        return bytes(self._data)


class SegmentLog:
    """A `__consumer_offsets` partition on disk: one segment file written through `SegmentWriter`."""

    def __init__(self, writer: SegmentWriter) -> None:
        self.writer = writer

    def append(self, records: Sequence[Record], timestamp: int) -> list[DecodedRecord]:
        if not records:
            return []
        data = build_batch([SimpleRecord(k, v, timestamp) for k, v in records], base_offset=self.writer.next_offset)
        self.writer.append_raw(data)
        return _decoded(data, str(self.writer.path))

    def read(self) -> Iterator[DecodedRecord]:
        return iter(_decoded(self.writer.path.read_bytes(), str(self.writer.path)))
