"""A `groupctl serve` on 127.0.0.1 (an ephemeral port) over a fresh DIR, stopped after each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from groupctl.server.server import ServerOptions, ServerThread


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    """A running server; `served.bootstrap` is its `host:port`, `served.call(fn)` runs `fn(broker)`."""
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    server.start()
    try:
        yield server
    finally:
        server.stop()
