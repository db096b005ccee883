"""A librdkafka (confluent-kafka) consumer polled in a thread of its own, keeping what its rebalance
callbacks said; the `consumers` fixture (tests/server/conftest.py) makes them and closes them all."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from confluent_kafka import Consumer, KafkaError, TopicPartition

from groupctl.server.server import ServerThread

from .waits import WAIT_S

Partitions = frozenset[tuple[str, int]]


#: Told of every assignment and revocation a consumer's callbacks see: (name, "assign"|"revoke", partitions).
ChangeHook = Callable[[str, str, "Partitions"], None]


class Polled:
    """A consumer polled in a thread of its own; `owned` is what its callbacks say it holds now."""

    def __init__(self, served: ServerThread, name: str, subscription: list[str], *,
                 on_change: ChangeHook | None = None, **config: object) -> None:
        self.name = name
        self._on_change = on_change
        self.events: list[tuple[str, Partitions]] = []
        #: The errors poll() returned (librdkafka's fatal ones among them), in order.
        self.errors: list[KafkaError] = []
        self._owned: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._consumer = Consumer({"bootstrap.servers": served.bootstrap, "client.id": name,
                                   "enable.auto.commit": False, "log_level": 3, **config})
        self._consumer.subscribe(subscription, on_assign=self._assigned, on_revoke=self._revoked,
                                 on_lost=self._revoked)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _assigned(self, _consumer: Consumer, partitions: list[TopicPartition]) -> None:
        got = frozenset((p.topic, p.partition) for p in partitions)
        with self._lock:
            self.events.append(("assign", got))
            self._owned |= got
        if self._on_change is not None:
            self._on_change(self.name, "assign", got)

    def _revoked(self, _consumer: Consumer, partitions: list[TopicPartition]) -> None:
        gone = frozenset((p.topic, p.partition) for p in partitions)
        if self._on_change is not None:
            self._on_change(self.name, "revoke", gone)
        with self._lock:
            self.events.append(("revoke", gone))
            self._owned -= gone

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                message = self._consumer.poll(0.1)
                if message is not None and message.error() is not None:
                    with self._lock:
                        self.errors.append(message.error())
        finally:
            self._consumer.close()

    @property
    def owned(self) -> Partitions:
        with self._lock:
            return frozenset(self._owned)

    def revocations(self) -> int:
        with self._lock:
            return sum(1 for kind, parts in self.events if kind == "revoke" and parts)

    def close(self) -> None:
        """Stop polling and close the consumer (a static member sends no LeaveGroup)."""
        self._stop.set()
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), f"{self.name} did not close"


def consumer_factory() -> Iterator[Callable[..., Polled]]:
    """Make polled consumers; every one still open is closed at the end."""
    made: list[Polled] = []

    def make(served: ServerThread, name: str, subscription: list[str], *, on_change: ChangeHook | None = None,
             **config: object) -> Polled:
        polled = Polled(served, name, subscription, on_change=on_change, **config)
        made.append(polled)
        return polled

    yield make
    for polled in made:
        with contextlib.suppress(AssertionError):
            polled.close()


def partitions(topic: str, count: int) -> Partitions:
    return frozenset((topic, p) for p in range(count))


