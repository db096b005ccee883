"""Log end offsets of serve's partition logs, read without writing, as serve's recovery finds them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from groupctl.log.partition_ends import partition_log_ends
from groupctl.log.writer import SimpleRecord, build_batch, segment_file_name
from groupctl.server.partitions import PartitionLog

RECORDS = [SimpleRecord(b"k%d" % i, b"v%d" % i, 1_700_000_000_000 + i) for i in range(4)]


def _write(directory: Path, base: int, data: bytes) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / segment_file_name(base)
    path.write_bytes(data)
    return path


def _layouts(root: Path) -> None:
    """orders-0: two clean segments; orders-1: a torn tail then a later segment; empty-3: one empty segment."""
    _write(root / "orders-0", 5, build_batch(RECORDS, base_offset=5) + build_batch(RECORDS, base_offset=9))
    _write(root / "orders-0", 13, build_batch(RECORDS, base_offset=13))
    _write(root / "orders-1", 0, build_batch(RECORDS) + build_batch(RECORDS, base_offset=4)[:-7])
    _write(root / "orders-1", 8, build_batch(RECORDS, base_offset=8))
    _write(root / "empty-3", 40, b"")
    (root / "not-a-partition").mkdir()
    (root / "stray.txt").write_text("x")


def test_ends_are_read_without_touching_the_files(tmp_path: Path) -> None:
    root = tmp_path / "data"
    _layouts(root)
    before = {p: p.read_bytes() for p in root.rglob("*.log")}
    found = partition_log_ends(root)
    assert found.ends == {("orders", 0): 17, ("orders", 1): 4, ("empty", 3): 40}
    assert {p: p.read_bytes() for p in root.rglob("*.log")} == before
    (note,) = found.notes
    assert note.startswith(f"{root / 'orders-1' / segment_file_name(0)}: the log ends at offset 4, before ")
    assert "1 later segment follows the damage" in note and "`groupctl serve` cuts it off" in note


@pytest.mark.parametrize("partition", ["orders-0", "orders-1", "empty-3"])
def test_the_end_is_the_one_serves_recovery_finds(tmp_path: Path, partition: str) -> None:
    root = tmp_path / "data"
    _layouts(root)
    expected = partition_log_ends(root).ends[(partition.rsplit("-", 1)[0], int(partition.rsplit("-", 1)[1]))]
    copy = tmp_path / "copy"
    shutil.copytree(root / partition, copy)
    log = PartitionLog("t", 0, copy, 0)
    log.recover()
    log.close()
    assert log.end_offset == expected


def test_no_data_directory_means_no_ends(tmp_path: Path) -> None:
    assert partition_log_ends(tmp_path / "data") == ({}, [])
