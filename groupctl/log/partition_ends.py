"""The log end offsets of the partition logs `groupctl serve` keeps in `DIR/data/`, read without writing.

serve records each partition's end offset in topics.json only when it saves DIR (about once a
second, and at a clean stop), so after a `kill -9` topics.json can be behind its logs and lag would
come out wrong, even negative. The logs themselves are the truth: this module finds each one's end
as serve's own recovery will when it next starts (segments in base-offset order, v2 batches only,
the first invalid batch ending the log), but leaves the files alone: they are serve's to repair.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from groupctl.errors import GroupctlError
from groupctl.log.recovery import scan_segment
from groupctl.log.segment import SEGMENT_NAME
from groupctl.plurals import counted, plural

__all__ = ["PartitionEnds", "partition_log_ends"]

_PARTITION_DIR = re.compile(r"^(.+)-(\d+)$")


class PartitionEnds(NamedTuple):
    """Each partition log's end offset by (topic, partition), and notes on damage serve will cut."""

    ends: dict[tuple[str, int], int]
    notes: list[str]


def _log_end(directory: Path, notes: list[str]) -> int | None:
    found = sorted((int(m.group(1)), p) for p in directory.iterdir()
                   if (m := SEGMENT_NAME.match(p.name)) and p.is_file())
    if not found:
        return None
    end = found[0][0]
    for k, (base, path) in enumerate(found):
        end = max(end, base)
        recovery = scan_segment(path, end, magic2_only=True)
        end = recovery.next_offset
        if recovery.cut_bytes:
            later = len(found) - k - 1
            notes.append(
                f"{path}: the log ends at offset {end}, before {recovery.describe()}"
                + (f"; {counted(later, 'later segment')} {plural(later, 'follows', 'follow')} the damage"
                   if later else "")
                + " (left as it is: `groupctl serve` cuts it off when it next starts)"
            )
            break
    return end


def partition_log_ends(data_dir: Path) -> PartitionEnds:
    """Every `<topic>-<partition>/` under `data_dir` holding segments: its log end offset."""
    ends: dict[tuple[str, int], int] = {}
    notes: list[str] = []
    if not data_dir.is_dir():
        return PartitionEnds(ends, notes)
    try:
        for path in sorted(data_dir.iterdir()):
            m = _PARTITION_DIR.match(path.name)
            if m is None or not path.is_dir():
                continue
            end = _log_end(path, notes)
            if end is not None:
                ends[(m.group(1), int(m.group(2)))] = end
    except OSError as exc:
        raise GroupctlError(f"cannot read the partition logs in {data_dir}: {exc.strerror or exc}; fix the "
                            "permissions, or move the directory away to drop the logs") from None
    return PartitionEnds(ends, notes)
