"""A DIR that can only be read: reading commands work, changing ones say so and change nothing."""

from __future__ import annotations

import builtins
import errno
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from groupctl.cli.app import main

READING = [("group", "describe", "g", "--offsets"), ("group", "list"), ("local", "member", "list"),
           ("local", "topics", "list"), ("local", "settings")]
CHANGING = [("local", "member", "join", "c", "--group", "g", "--topics", "orders"),
            ("local", "tick", "5s"),
            ("local", "topics", "create", "payments", "-p", "1"), ("local", "settings", "group.max.size=4"),
            ("group", "config", "set", "g", "consumer.session.timeout.ms=50000"), ("local", "member", "leave", "a")]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("ro") / "lab"
    for command in (("local", "topics", "create", "orders", "-p", "2", "-m", "10"),
                    ("local", "member", "join", "a", "--group", "g", "--topics", "orders")):
        with pytest.raises(SystemExit) as done:
            main([*command, "--local", str(directory)])
        assert done.value.code == 0
    return directory


def _files(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def _check(cli, directory: Path, before: dict[str, bytes]) -> None:
    for command in READING:
        result = cli(*command, "--local", str(directory))
        assert result.code == 0, (command, result.err)
    for command in CHANGING:
        result = cli(*command, "--local", str(directory))
        assert result.code == 1, (command, result)
        assert f"{directory} is read-only" in result.err and "nothing was done" in result.err, (command, result.err)
    assert _files(directory) == before


def test_a_dir_whose_lock_cannot_be_opened_for_writing_is_read(lab, tmp_path, cli, monkeypatch):
    directory = tmp_path / "lab"
    shutil.copytree(lab, directory)
    before = _files(directory)
    real = builtins.open

    def refusing(path, mode="r", *args, **kwargs):
        if str(path).startswith(str(directory)) and any(c in mode for c in "wa+x"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing)
    _check(cli, directory, before)


def test_a_read_only_bind_mount_is_read(lab, tmp_path, cli):
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    source, mounted = tmp_path / "source", tmp_path / "mounted"
    shutil.copytree(lab, source)
    mounted.mkdir()
    if subprocess.run(["mount", "--bind", "-o", "ro", str(source), str(mounted)], capture_output=True).returncode:
        pytest.skip("cannot make a read-only bind mount here")
    try:
        _check(cli, mounted, _files(source))
    finally:
        subprocess.run(["umount", str(mounted)], check=True)
