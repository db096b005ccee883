"""State files are read with one message for a damaged one, and reach the disk whole and durably: the
directory is fsynced after the rename."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from groupctl.errors import GroupctlError
from groupctl.json_files import StateNotWritten, json_bytes, read_json, write_files, write_json_atomically


def disk_events(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """Every os.replace and every fsync of a directory, in order."""
    events: list[tuple[str, object]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            events.append(("fsync-dir", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src: object, dst: object) -> None:
        events.append(("replace", str(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return events


def test_a_missing_file_reads_as_none_and_a_damaged_one_says_what_to_do(tmp_path):
    assert read_json(tmp_path / "absent.json") is None
    (tmp_path / "clock.json").write_text('{"nowMs": 1}')
    assert read_json(tmp_path / "clock.json") == {"nowMs": 1}
    (tmp_path / "topics.json").write_text("{torn")
    with pytest.raises(GroupctlError, match=r"topics\.json is unreadable \(.+\); restore it or start a new --local"):
        read_json(tmp_path / "topics.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(GroupctlError, match=r"dir\.json is unreadable"):
        read_json(tmp_path / "dir.json")


def test_write_json_atomically_fsyncs_the_directory_after_the_rename(tmp_path, monkeypatch):
    events = disk_events(monkeypatch)
    write_json_atomically(tmp_path / "clock.json", {"nowMs": 1})
    assert events == [("replace", str(tmp_path / "clock.json")), ("fsync-dir", str(tmp_path))]
    assert (tmp_path / "clock.json").read_bytes() == json_bytes({"nowMs": 1})


def test_a_file_that_cannot_be_written_leaves_every_file_as_it_was(tmp_path, monkeypatch):
    (tmp_path / "a.json").write_text("old a")
    (tmp_path / "b.json").write_text("old b")
    real = os.write
    calls = [0]

    def write(fd: int, data: object) -> int:
        calls[0] += 1
        if calls[0] == 2:
            raise OSError(28, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    with pytest.raises(StateNotWritten, match=r"b\.json: No space left on device") as failed:
        write_files({tmp_path / "a.json": b"new a", tmp_path / "b.json": b"new b"})
    assert failed.value.path == tmp_path / "b.json"
    assert [p.name for p in sorted(tmp_path.iterdir())] == ["a.json", "b.json"]
    assert (tmp_path / "a.json").read_text() == "old a" and (tmp_path / "b.json").read_text() == "old b"


def test_a_directory_that_will_not_fsync_is_a_warning_once_the_files_are_replaced(tmp_path, monkeypatch):
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    warnings = write_files({tmp_path / "a.json": b"new"})
    assert (tmp_path / "a.json").read_bytes() == b"new"
    assert len(warnings) == 1 and "Input/output error" in warnings[0] and str(tmp_path) in warnings[0]


def test_removing_a_file_is_part_of_the_set(tmp_path: Path):
    (tmp_path / "gone.json").write_text("x")
    write_files({tmp_path / "gone.json": None, tmp_path / "new.json": b"y"})
    assert [p.name for p in tmp_path.iterdir()] == ["new.json"]
