"""One SparkSession (local[2]) for every Spark test (the `cli` fixture is the shared one in tests/conftest.py),
and a master that never answers.

Skipped with the reason when pyspark or a Java runtime is missing.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[dev]')")
    from groupctl.spark.session import java_available, spark_session

    if not java_available():
        pytest.skip("no Java runtime: pyspark needs Java 17+ (apt-get install default-jre-headless)")
    conf = {"spark.sql.shuffle.partitions": "2", "spark.default.parallelism": "2"}
    with spark_session("local[2]", conf) as run:
        yield run.spark


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A 127.0.0.1 port that takes connections (the kernel's backlog does) and never answers; closed after the test."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield int(server.getsockname()[1])
