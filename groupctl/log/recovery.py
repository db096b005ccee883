"""Find where a segment's valid batches end, as Kafka's log recovery does, and say what lies beyond.

Kafka's `LogSegment.recover` reads a segment's batches from the start, checking each one's size,
magic and CRC, and truncates the segment at the first that fails: a torn write, zeros a crash left
behind, a bad CRC, or anything else. Whatever follows that point is cut too, even bytes that read
as a whole valid batch, since the log must be one unbroken run of batches. `scan_segment` finds
that point without changing the file; the caller decides whether to truncate, and
`Recovery.describe` says truthfully what the cut bytes held, so an operator knows whether records
were lost or only garbage went.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import NamedTuple

from groupctl.errors import DecodeError, GroupctlError
from groupctl.log.legacy import RECORD_OVERHEAD
from groupctl.log.segment import HEADER_SIZE_UP_TO_MAGIC, LOG_OVERHEAD, MIN_V2_LENGTH, iter_batches
from groupctl.plurals import counted

__all__ = ["Recovery", "scan_segment"]

#: Kafka's smallest size field (`LegacyRecord.RECORD_OVERHEAD_V0`): anything below is corrupt.
MIN_SIZE_FIELD = 14
_PEEK = struct.Struct(">qi4xb")  # base offset, size field, magic
#: How the reader goes on after damage; recovery stops there, so that part of its reason is left out.
_RESYNC_WORDS = ("; skipped ", "; no valid batch follows", "; gave up ")
#: The reader's own lead-in for a damaged batch's reason.
_DAMAGED_AT = re.compile(r"^damaged batch at offset -?[0-9]+: ")


class LaterBatch(NamedTuple):
    """A whole batch with a valid CRC found in the bytes recovery cuts (it followed the damage)."""

    position: int
    base_offset: int
    last_offset: int


class Recovery(NamedTuple):
    """Where a segment's valid batches end (`valid_bytes`) and why reading stopped there (`reason`)."""

    path: Path
    size: int
    valid_bytes: int
    next_offset: int
    batches: int
    reason: str | None
    zeros: bool
    later: tuple[LaterBatch, ...]

    @property
    def cut_bytes(self) -> int:
        return self.size - self.valid_bytes

    def describe(self) -> str:
        """One line: how many bytes from which byte, why, and what they held."""
        text = f"{self.cut_bytes} bytes from byte {self.valid_bytes} of {self.size}: {self.reason}"
        if self.zeros:
            return text + "; the cut bytes are all zeros (space a crash left unwritten), no record was in them"
        if self.later:
            first, last = self.later[0], self.later[-1]
            held = counted(len(self.later), "whole batch", "whole batches")
            return (text + f"; the cut bytes held {held} with a valid CRC "
                    f"(offsets {first.base_offset}..{last.last_offset}, from byte {first.position}), cut as well "
                    "because a log cannot go on past an invalid batch (Kafka's log recovery does the same): "
                    "those records are lost")
        return text + "; no whole valid batch was in the cut bytes"


def _reason_at(data: bytes, pos: int, expected: int, magic2_only: bool) -> tuple[str | None, int, int]:
    """Check the batch at `pos`: (None, its size, its last offset + 1) when valid, else (reason, 0, 0)."""
    left = len(data) - pos
    if left < HEADER_SIZE_UP_TO_MAGIC:
        return f"{left} bytes at byte {pos} are too few for a batch header (a write cut short)", 0, 0
    _, size_field, magic = _PEEK.unpack_from(data, pos)
    if size_field < MIN_SIZE_FIELD:
        return (f"invalid batch size {size_field} at byte {pos} (Kafka's minimum is {MIN_SIZE_FIELD})", 0, 0)
    if size_field > left - LOG_OVERHEAD:
        return (f"the batch at byte {pos} claims {size_field + LOG_OVERHEAD} bytes but only {left} are left "
                "(a write cut short, or a damaged size field)", 0, 0)
    if magic not in (0, 1, 2) or (magic2_only and magic != 2):
        return f"bad magic {magic} at byte {pos}", 0, 0
    minimum = MIN_V2_LENGTH if magic == 2 else RECORD_OVERHEAD[magic]
    if size_field < minimum:
        return f"batch size {size_field} at byte {pos} is below the {minimum} a magic {magic} header needs", 0, 0
    end = pos + LOG_OVERHEAD + size_field
    try:
        found = list(iter_batches(memoryview(data)[pos:end], strict=True))
    except DecodeError as exc:
        reason = _DAMAGED_AT.sub("", exc.reason, count=1)  # recovery says where, in bytes
        for words in _RESYNC_WORDS:
            reason = reason.split(words)[0]
        if reason.startswith("CRC mismatch"):
            return f"bad CRC at byte {pos} ({reason})", 0, 0
        return f"an invalid batch at byte {pos} ({reason})", 0, 0
    if not found or sum(b.size for b in found) != end - pos:
        return f"an invalid batch at byte {pos} (its size field does not frame whole batches)", 0, 0
    if found[0].base_offset < expected:
        return (f"the batch at byte {pos} starts at offset {found[0].base_offset}, below the {expected} "
                "its predecessor ended at (offsets must grow)", 0, 0)
    return None, end - pos, max(b.last_offset for b in found) + 1


def _later_batches(data: bytes, start: int) -> tuple[LaterBatch, ...]:
    """Whole CRC-valid batches in data[start:]: they were cut, and the note must say so."""
    rest = iter_batches(memoryview(data)[start:], path="<cut bytes>", strict=False)
    return tuple(LaterBatch(start + b.position, b.base_offset, b.last_offset) for b in rest if b.crc_valid)


def scan_segment(path: Path, base_offset: int, *, magic2_only: bool = False) -> Recovery:
    """Read `path` as Kafka's recovery does and return where its valid batches end; never writes.

    `magic2_only` refuses legacy entries as well (a partition log `groupctl serve` wrote holds only v2).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GroupctlError(f"cannot read {path}: {exc.strerror or exc}") from None
    pos, next_offset, batches, reason = 0, base_offset, 0, None
    for entry in iter_batches(data, path=str(path)).entries():  # one pass on the reader's fast path
        if (isinstance(entry, DecodeError) or entry.position != pos or not entry.crc_valid
                or (magic2_only and entry.magic != 2) or entry.base_offset < next_offset):
            break
        pos += entry.size
        next_offset = max(next_offset, entry.last_offset + 1)
        batches += 1
    if pos < len(data):  # say why in Kafka's terms, looking at that one batch again
        reason = _reason_at(data, pos, next_offset, magic2_only)[0] or f"an invalid batch at byte {pos}"
    zeros = pos < len(data) and data.count(0, pos) == len(data) - pos
    later = () if zeros or reason is None else _later_batches(data, pos)
    return Recovery(path, len(data), pos, next_offset, batches, reason, zeros, later)
