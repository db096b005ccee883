"""Log start offsets and offsets by timestamp for a local DIR, read from serve's partition logs.

`groupctl serve` keeps the records produced to it under `DIR/data/<topic>-<partition>/`; a
partition without such a log has had no records produced through serve (its log end offset is
only a number in topics.json), so its log starts at 0 and no record has a timestamp. Reading
never writes: a damaged tail is serve's to cut, and reading stops before it as Kafka's would.
"""

from __future__ import annotations

from pathlib import Path

from groupctl.errors import DecodeError, GroupctlError
from groupctl.log.segment import SEGMENT_NAME, iter_batches
from groupctl.model import TopicPartition

__all__ = ["log_start", "offset_for_time"]


def _segments(data_dir: Path, tp: TopicPartition) -> list[tuple[int, Path]]:
    directory = data_dir / f"{tp.topic}-{tp.partition}"
    if not directory.is_dir():
        return []
    try:
        return sorted((int(m.group(1)), p) for p in directory.iterdir()
                      if (m := SEGMENT_NAME.match(p.name)) and p.is_file())
    except OSError as exc:
        raise GroupctlError(f"cannot read the partition log {directory}: {exc.strerror or exc}; fix its "
                            "permissions") from None


def log_start(data_dir: Path, tp: TopicPartition) -> int | None:
    """The first segment's base offset, or None when the partition has no log in `data_dir`."""
    found = _segments(data_dir, tp)
    return found[0][0] if found else None


def offset_for_time(data_dir: Path, tp: TopicPartition, timestamp_ms: int) -> int | None:
    """The offset of the first record whose timestamp is at least `timestamp_ms` (Kafka's
    ListOffsets by timestamp), or None when no record is that recent or there is no log."""
    for _base, path in _segments(data_dir, tp):
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise GroupctlError(f"cannot read {path}: {exc.strerror or exc}; fix its permissions") from None
        try:
            for batch in iter_batches(data, path=str(path), strict=True):
                for record in batch.records:
                    if record.timestamp >= timestamp_ms:
                        return record.offset
        except DecodeError:
            return None  # the log ends at the damage, as serve will cut it
    return None
