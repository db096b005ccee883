"""Where a segment's valid batches end, found as Kafka's log recovery finds it, without writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.log.recovery import scan_segment
from groupctl.log.writer import SimpleRecord, build_batch, build_message_set, segment_file_name

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

RECORDS = [SimpleRecord(b"k%d" % i, b"v%d" % i, 1_700_000_000_000 + i) for i in range(3)]


def _segment(tmp_path: Path, data: bytes, base: int = 0) -> Path:
    path = tmp_path / segment_file_name(base)
    path.write_bytes(data)
    return path


def test_a_clean_segment_ends_at_its_size_and_its_last_offset(tmp_path: Path) -> None:
    data = build_batch(RECORDS, base_offset=10) + build_batch(RECORDS, base_offset=20)
    found = scan_segment(_segment(tmp_path, data, 10), 10)
    assert (found.valid_bytes, found.cut_bytes, found.next_offset, found.batches, found.reason) == (
        len(data), 0, 23, 2, None)


def test_an_empty_segment_ends_at_its_base_offset(tmp_path: Path) -> None:
    found = scan_segment(_segment(tmp_path, b"", 7), 7)
    assert (found.valid_bytes, found.next_offset, found.reason) == (0, 7, None)


def test_damage_is_found_and_the_file_left_alone(tmp_path: Path) -> None:
    good = build_batch(RECORDS)
    later = build_batch(RECORDS, base_offset=9)
    bad = bytearray(build_batch(RECORDS, base_offset=3))
    bad[-1] ^= 1
    path = _segment(tmp_path, good + bytes(bad) + later)
    before = path.read_bytes()
    found = scan_segment(path, 0)
    assert path.read_bytes() == before
    assert (found.valid_bytes, found.next_offset, found.cut_bytes) == (len(good), 3, len(bad) + len(later))
    assert found.reason is not None and found.reason.startswith(f"bad CRC at byte {len(good)} (CRC mismatch: stored")
    assert [(b.position, b.base_offset, b.last_offset) for b in found.later] == [(len(good) + len(bad), 9, 11)]
    assert "held 1 whole batch with a valid CRC (offsets 9..11" in found.describe()


def test_legacy_entries_are_valid_unless_only_v2_is(tmp_path: Path) -> None:
    legacy = build_message_set(RECORDS, magic=1)
    path = _segment(tmp_path, legacy)
    assert (scan_segment(path, 0).next_offset, scan_segment(path, 0).reason) == (3, None)
    strict = scan_segment(path, 0, magic2_only=True)
    assert (strict.valid_bytes, strict.reason) == (0, "bad magic 1 at byte 0")
