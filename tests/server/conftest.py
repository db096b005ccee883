"""A `groupctl serve` on 127.0.0.1 (an ephemeral port) over a fresh DIR, stopped after each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from .polled import Polled, consumer_factory


@pytest.fixture
def consumers() -> Iterator[Callable[..., Polled]]:
    """`consumers(served, name, topics, on_change=None, **config)`: polled librdkafka consumers, all closed
    at the end, whatever the test did."""
    yield from consumer_factory()
