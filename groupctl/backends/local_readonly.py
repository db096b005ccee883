"""A local DIR that can only be read (a read-only mount, a DIR of another user): its log, read in place.

Reading needs no write: the segment is recovered in memory only (a torn tail is left on disk for
the next writer to cut, and not read), and an append, the first thing a command that changes DIR
does, fails with `ReadOnlyDir` before anything is applied.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from groupctl.errors import GroupctlError
from groupctl.log.decode import DecodedRecord, decode_record
from groupctl.log.segment import iter_batches
from groupctl.log.writer import segment_file_name


class ReadOnlyDir(GroupctlError):
    """A command that changes DIR was run on a DIR that can only be read."""


class ReadOnlySegment:
    """The parts of `SegmentWriter` the local backend uses, over a segment it may not write."""

    def __init__(self, directory: Path, refusal: str) -> None:
        from groupctl.log.recovery import scan_segment

        self.path = directory / segment_file_name(0)
        self.refusal = refusal
        self.truncation: str | None = None
        self.next_offset = self.position = 0
        if self.path.exists() and self.path.stat().st_size:
            recovery = scan_segment(self.path, 0)
            self.next_offset, self.position = recovery.next_offset, recovery.valid_bytes
            if recovery.cut_bytes:
                self.truncation = f"{recovery.describe()} (in memory only: {directory} is read-only)"

    def read(self) -> Iterator[DecodedRecord]:
        data = self.path.read_bytes()[: self.position] if self.position else b""
        return iter([decode_record(batch, rec) for batch in iter_batches(data, path=str(self.path), strict=True)
                     for rec in batch.records])

    def append(self, records: Sequence[tuple[bytes, bytes | None]], timestamp: int) -> list[DecodedRecord]:
        if not records:
            return []
        raise ReadOnlyDir(self.refusal)

    def close(self) -> None:
        """Nothing was opened for writing."""
