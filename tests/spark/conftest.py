"""One SparkSession (local[2]) for every Spark test, and the CLI run in-process against it.

Skipped with the reason when pyspark or a Java runtime is missing.
"""

from __future__ import annotations

import io
import json
import signal
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Any

import pytest

from groupctl.cli.app import main


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[dev]')")
    from groupctl.spark.session import java_available, spark_session

    if not java_available():
        pytest.skip("no Java runtime: pyspark needs Java 17+ (apt-get install default-jre-headless)")
    conf = {"spark.sql.shuffle.partitions": "2", "spark.default.parallelism": "2"}
    with spark_session("local[2]", conf) as run:
        yield run.spark


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli() -> Iterator[Callable[..., Result]]:
    """`cli("spark", "audit", PATH)` -> Result(code, stdout, stderr), through the real entry point."""
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
