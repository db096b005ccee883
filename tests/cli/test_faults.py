"""The net under every command: faults of the machine or the input never read as "internal error"."""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from typing import Any

import pytest
import typer

from groupctl.cli import app as app_module
from groupctl.cli.faults import world_fault


def _command(body: Callable[[], None]) -> Any:
    """A one-command click tree built by typer (its own bundled click, as groupctl's app is)."""
    one = typer.Typer()
    one.command()(body)
    return typer.main.get_command(one)


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (PermissionError(errno.EACCES, "Permission denied", "/data/seg.log"),
         "/data/seg.log: Permission denied; check its permissions"),
        (NotADirectoryError(errno.ENOTDIR, "Not a directory", "f/x"), "f/x: Not a directory; a part of the path"),
        (FileExistsError(errno.EEXIST, "File exists", "out"), "out: File exists; remove it or choose another name"),
        (OSError(errno.ENOSPC, "No space left on device", "d/x"), "d/x: No space left on device; free some space"),
        (OSError(errno.EXDEV, "Invalid cross-device link", "a", None, "b"), "a -> b: Invalid cross-device link; check"),
        (OSError("disk full"), "a file or connection: disk full; check the path"),
        (OSError(), "a file or connection: OSError; check the path"),
        (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "network: Connection reset by peer"),
        (socket.gaierror(-2, "Name or service not known"), "network: Name or service not known"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid"),
         "text that is not valid UTF-8"),
        (MemoryError(), "ran out of memory"),
        (RecursionError(), "the input is nested too deeply"),
    ],
)
def test_each_fault_names_the_thing_and_a_way_on(exc: BaseException, expected: str) -> None:
    assert world_fault(exc).startswith(expected)


@pytest.mark.parametrize("exc", [PermissionError(errno.EACCES, "Permission denied", "seg.log"), MemoryError()])
def test_main_maps_an_escaped_fault_to_exit_1_without_internal_error(
    exc: BaseException, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing() -> None:
        raise exc

    command = _command(failing)
    monkeypatch.setattr(app_module.typer.main, "get_command", lambda _app: command)
    with pytest.raises(SystemExit) as done:
        app_module.main([])
    err = capsys.readouterr().err
    assert done.value.code == 1
    assert err.startswith("groupctl: error: ") and "internal error" not in err
    assert "Traceback" not in err


def test_a_bug_is_still_called_one(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def failing() -> None:
        raise KeyError("oops")

    command = _command(failing)
    monkeypatch.setattr(app_module.typer.main, "get_command", lambda _app: command)
    with pytest.raises(SystemExit) as done:
        app_module.main([])
    assert done.value.code == 1
    assert "internal error: KeyError" in capsys.readouterr().err
