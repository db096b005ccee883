"""How a local DIR's JSON state files are read, and how they reach the disk: whole, durable, and as one set.

The local backend and `groupctl serve` both keep their state in DIR as JSON files, so the helpers
live here, beside neither. A command's state files (topics.json, members.json, ...) are written in two phases: every new
content goes to a fsynced temporary file first, and only when all of them are on disk are they
renamed over the old ones, then the directory is fsynced (a rename lives in the directory, and a
power cut can otherwise lose it). A full disk or any other write failure can only strike in the
first phase, which leaves every old file as it was; `StateNotWritten` names the file that failed.
Data goes through `os.write` in a loop, so a short write is carried on and a failed one has left
nothing buffered in the process to be written later by accident.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from groupctl.errors import GroupctlError


class StateNotWritten(GroupctlError):
    """A state file (or the log) of DIR could not be written; `path` is the one that failed."""

    def __init__(self, message: str, path: Path, cause: OSError) -> None:
        super().__init__(message)
        self.path = path
        self.cause = cause


def read_json(path: Path) -> Any:
    """A state file's content; None when there is no such file, and one message, saying what to do, when
    it cannot be read or is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise GroupctlError(f"{path} is unreadable ({exc}); restore it or start a new --local directory") from exc


def json_bytes(data: Any) -> bytes:
    """A state file's content as every writer of DIR lays it out (so unchanged state is byte-equal)."""
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")


def write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    """Write every byte of `data` to `fd`, carrying on after a short write."""
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


def fsync_directory(directory: Path) -> None:
    """Make the names in `directory` (a rename, a new file) durable. A file system that cannot fsync a
    directory (some network ones) has nothing more to offer, so only opening it may fail loudly."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _CANNOT_SYNC_DIRECTORY:
            raise
    finally:
        os.close(fd)


_CANNOT_SYNC_DIRECTORY = frozenset({22, 95})  # EINVAL, EOPNOTSUPP


def _temporary(path: Path, data: bytes) -> Path:
    """`data` in a fsynced temporary file next to `path`, mode 0644; removed again if anything fails."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
            os.fchmod(fd, 0o644)
        finally:
            os.close(fd)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_files(files: Mapping[Path, bytes | None]) -> list[str]:
    """Replace each file with its bytes (None removes it), all or none of them; see the module doc.

    Raises `StateNotWritten` naming the first file whose new content could not be written; every
    file is then as it was. Once they are renamed the change is made: a directory that then fails
    to fsync is said in the returned warnings (the change may not survive a power cut).
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files.items():
            if data is None:
                continue
            try:
                staged.append((_temporary(path, data), path))
            except OSError as exc:
                raise StateNotWritten(f"cannot write {path}: {exc.strerror or exc}", path, exc) from exc
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, path in staged:
        os.replace(tmp, path)
    for path, data in files.items():
        if data is None:
            path.unlink(missing_ok=True)
    warnings = []
    for directory in sorted({path.parent for path in files}):
        try:
            fsync_directory(directory)
        except OSError as exc:
            warnings.append(f"{directory}: fsync failed ({exc.strerror or exc}) after its state files were "
                            "replaced: the change is made, but a power cut now may lose it")
    return warnings


def write_json_atomically(path: Path, data: Any) -> list[str]:
    """Write, fsync, rename, fsync the directory: a reader sees the old file or the new one, never half
    of one, and a power cut after this returns keeps the new one (barring the warning it returns)."""
    return write_files({path: json_bytes(data)})
