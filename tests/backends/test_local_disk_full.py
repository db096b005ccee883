"""A local DIR under write failures: every mutating `--local` command, failed at each of its writes in turn.

A command is applied and says so (exit 0), or none of it is applied (exit 1, naming the file that
could not be written), and the next command finds DIR consistent: no member the coordinator holds
that members.json does not know (a "ghost"), the classic state taken at the log's end.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.backends.local_members import LocalMembers

from ..conftest import Result

#: Each mutating --local command, run on the scenario `lab` builds.
COMMANDS = [
    ("local", "topics", "create", "payments", "-p", "2", "-m", "5"),
    ("local", "topics", "add-partitions", "orders", "-p", "6"),
    ("local", "member", "join", "c", "--group", "g", "--topics", "orders"),
    ("local", "member", "heartbeat", "a"),
    ("local", "member", "leave", "a"),
    ("local", "member", "crash", "a"),
    ("local", "member", "start", "z"),
    ("local", "member", "bounce", "a", "--down", "2s"),
    ("local", "member", "commit", "a", "--lag", "3"),
    ("local", "tick", "50s"),
    ("local", "settings", "group.max.size=5"),
    ("group", "remove-members", "g", "--instance-id", "pod-b", "--verify-after", "0", "--yes"),
    ("group", "offsets", "reset", "old", "--to-earliest", "--topic", "orders", "--yes"),
    ("group", "offsets", "delete", "old", "--topic", "orders", "--yes"),
    ("group", "delete", "old", "--yes"),
    ("group", "config", "set", "g", "consumer.session.timeout.ms=50000"),
    ("group", "config", "unset", "g", "consumer.session.timeout.ms"),
]


def _ids(command: tuple[str, ...]) -> str:
    return "-".join(command[:3])


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two classic groups (g: a and static pod-b; h: z, crashed), and an empty group `old` with offsets."""
    from groupctl.cli.app import main

    directory = tmp_path_factory.mktemp("lab") / "lab"
    for command in (
        ("local", "topics", "create", "orders", "-p", "4", "-m", "100"),
        ("local", "member", "join", "a", "--group", "g", "--topics", "orders"),
        ("local", "member", "join", "b", "--group", "g", "--topics", "orders", "--instance-id", "pod-b"),
        ("local", "member", "join", "z", "--group", "h", "--topics", "orders"),
        ("local", "member", "crash", "z"),
        ("group", "offsets", "reset", "old", "--to-latest", "--topic", "orders", "--yes"),
        ("local", "member", "commit", "a"),
    ):
        with pytest.raises(SystemExit) as done:
            main([*command, "--local", str(directory)])
        assert done.value.code == 0, command
    return directory


def _files(directory: Path) -> dict[str, bytes]:
    """Every file of DIR but its lock, by relative path: what "nothing applied" compares."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and p.name != ".lock"}


@contextmanager
def _failing(directory: Path, monkeypatch: pytest.MonkeyPatch, call: str, nth: int | None) -> Iterator[list[int]]:
    """`os.write` (ENOSPC) or `os.fsync` (EIO) fails at its `nth` call on a file under `directory`
    (None: counts them only); yields the count so far."""
    real = getattr(os, call)
    seen = [0]
    inside = str(directory.resolve())

    def fake(fd: int, *args: object) -> object:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if target.startswith(inside):
            seen[0] += 1
            if seen[0] == nth:
                code = errno.ENOSPC if call == "write" else errno.EIO
                raise OSError(code, os.strerror(code))
        return real(fd, *args)

    monkeypatch.setattr(os, call, fake)
    try:
        yield seen
    finally:
        monkeypatch.setattr(os, call, real)


def _consistent(directory: Path) -> None:
    """What the next command finds: no ghost member, the classic state at the log's end, no temp files."""
    assert not [p for p in directory.rglob("*.tmp")], "a temporary state file was left behind"
    with LocalBackend(directory) as backend:
        assert not [n for n in backend.notices if "older than the log" in n], backend.notices
        members = LocalMembers(backend)
        known = {v.member_id for v in members.views() if v.member_id}
        coordinator = backend.coordinator
        held = {m for g in coordinator.classic.groups.values() for m in g.members}
        held |= {m for c in coordinator.runtime.state.consumer.values() for m in c.member_ids()}
        assert held <= known, f"ghost members: {sorted(held - known)}"


def _run(cli, command: tuple[str, ...], directory: Path) -> Result:
    return cli(*command, "--local", str(directory))


@pytest.mark.parametrize("call", ["write", "fsync"])
@pytest.mark.parametrize("command", COMMANDS, ids=_ids)
def test_a_write_failing_at_any_point_applies_all_or_nothing_and_names_the_file(
        command, call, lab, tmp_path, cli, monkeypatch):
    clean = tmp_path / "clean"
    shutil.copytree(lab, clean)
    with _failing(clean, monkeypatch, call, None) as seen:
        done = _run(cli, command, clean)
    assert done.code == 0, done.err
    total = seen[0]
    before = _files(lab)
    assert (_files(clean) != before) == (total > 0)  # a heartbeat that changed nothing writes nothing
    for nth in range(1, total + 1):
        directory = tmp_path / f"{call}-{nth}"
        shutil.copytree(lab, directory)
        with _failing(directory, monkeypatch, call, nth):
            result = _run(cli, command, directory)
        if result.code == 0:  # applied: it says so, and only a directory fsync may have failed
            assert _files(directory) != before
            assert call == "fsync" and "a power cut now may lose it" in result.err, result.err
        else:
            assert result.code == 1, (nth, result)
            reason = "No space left on device" if call == "write" else "Input/output error"
            assert reason in result.err and f"{directory}/" in result.err, (nth, result.err)
            assert "nothing of this command was applied" in result.err, (nth, result.err)
            assert "internal error" not in result.err
            assert _files(directory) == before, f"write {nth} of {total} failed, yet DIR changed"
        _consistent(directory)
        shutil.rmtree(directory)


def test_a_read_only_command_works_on_a_full_disk(lab, tmp_path, cli, monkeypatch):
    directory = tmp_path / "full"
    shutil.copytree(lab, directory)
    with _failing(directory, monkeypatch, "write", 1) as seen:
        for command in (("group", "describe", "g", "--offsets"), ("group", "list"), ("local", "member", "list"),
                        ("local", "topics", "list"), ("local", "settings")):
            result = _run(cli, command, directory)
            assert result.code == 0, (command, result.err)
    assert seen[0] == 0
    assert _files(directory) == _files(lab)
