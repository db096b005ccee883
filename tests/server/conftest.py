"""A `groupctl serve` on 127.0.0.1 (an ephemeral port) over a fresh DIR, stopped after each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from groupctl.server.server import ServerOptions, ServerThread

from .polled import Polled, consumer_factory


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    """A running server; `served.bootstrap` is its `host:port`, `served.call(fn)` runs `fn(broker)`."""
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def consumers() -> Iterator[Callable[..., Polled]]:
    """`consumers(served, name, topics, on_change=None, **config)`: polled librdkafka consumers, all closed
    at the end, whatever the test did."""
    yield from consumer_factory()
