"""Shared fixtures: where the real broker-written vectors live (read in place, never copied), and the
CLI run in-process."""

from __future__ import annotations

import io
import json
import signal
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from groupctl.cli.app import main

from .audit_dumps import write_every_finding

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "kafka-consumer-offsets-vectors"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """The shared vectors folder; tests that need it are skipped when it is absent."""
    if not VECTORS.is_dir():
        pytest.skip(f"real vectors not present at ../shared/kafka-consumer-offsets-vectors ({VECTORS})")
    return VECTORS


@pytest.fixture(scope="session")
def real_segments(vectors_dir: Path) -> list[Path]:
    """Every broker-written .log segment in the shared vectors."""
    segs = sorted((vectors_dir / "real-broker-segments").rglob("*.log"))
    if not segs:
        pytest.skip("no real broker segments found")
    return segs


@pytest.fixture(scope="session")
def every_finding(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A dump raising every audit finding kind over partition directories: [log dir, dump-log text file]."""
    return write_every_finding(tmp_path_factory.mktemp("every-finding"))


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli() -> Iterator[Callable[..., Result]]:
    """`cli("dump", "locate", "g")` -> Result(code, stdout, stderr), through the real entry point, so the
    exit-code contract is what is tested."""
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
