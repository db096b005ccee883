"""Run the CLI in-process through its real entry point, so the exit-code contract is what is tested."""

from __future__ import annotations

import io
import signal
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from groupctl.cli.app import main
from groupctl.log.synthetic import write_sample_dump


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli() -> Callable[..., Result]:
    """`cli("dump", "locate", "g")` -> Result(code, stdout, stderr)."""
    previous = signal.getsignal(signal.SIGPIPE)

    def run(*args: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(list(args))
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        return Result(code, out.getvalue(), err.getvalue())

    yield run
    signal.signal(signal.SIGPIPE, previous)


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """The Quick start's sample dump: a directory holding `__consumer_offsets-0`."""
    write_sample_dump(tmp_path / "dump")
    return tmp_path / "dump"


class _Stdin(io.StringIO):
    """Standard input with a chosen answer to "is this a terminal?"."""

    def __init__(self, text: str, tty: bool) -> None:
        super().__init__(text)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.fixture
def cli_input(cli, monkeypatch) -> Callable[..., Result]:
    """`cli_input(*args, input="y\\n", tty=True)`: like `cli`, with standard input given (and a terminal or not)."""

    def run(*args: str, input: str = "", tty: bool = False) -> Result:
        monkeypatch.setattr("sys.stdin", _Stdin(input, tty))
        return cli(*args)

    return run
