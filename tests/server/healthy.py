"""A client that keeps working while others misbehave: the server must serve it throughout."""

from __future__ import annotations

import threading
import time

from confluent_kafka import Consumer, Producer, TopicPartition

from tests.server.waits import WAIT_S


class Healthy:
    """A client that keeps working throughout: produce one message, read it, commit it, read the commit back."""

    def __init__(self, bootstrap: str, topic: str = "orders") -> None:
        self.topic = topic
        self.rounds = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        config = {"bootstrap.servers": bootstrap, "log_level": 3}
        self._producer = Producer({**config, "linger.ms": 0, "message.timeout.ms": int(WAIT_S * 1000)})
        self._consumer = Consumer({**config, "group.id": "healthy", "enable.auto.commit": False,
                                   "fetch.wait.max.ms": 100})
        self._consumer.assign([TopicPartition(self.topic, 0, 0)])
        self._thread = threading.Thread(target=self._run, name="healthy", daemon=True)
        self._thread.start()

    def _round(self, n: int) -> None:
        self._producer.produce(self.topic, value=f"m{n}".encode(), partition=0)
        assert self._producer.flush(WAIT_S) == 0, "produce not delivered"
        deadline = time.monotonic() + WAIT_S
        message = None
        while message is None and time.monotonic() < deadline:
            message = self._consumer.poll(0.2)
        assert message is not None and message.error() is None, f"read back: {message and message.error()}"
        assert message.value() == f"m{n}".encode()
        self._consumer.commit(message=message, asynchronous=False)
        (committed,) = self._consumer.committed([TopicPartition(self.topic, 0)], timeout=WAIT_S)
        assert committed.offset == message.offset() + 1, (committed.offset, message.offset())

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._round(self.rounds)
                self.rounds += 1
        except Exception as exc:  # reported by stop()
            self.errors.append(f"round {self.rounds}: {type(exc).__name__}: {exc}")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2 * WAIT_S)  # a round in progress may take WAIT_S to fail
        assert not self._thread.is_alive(), "the healthy client hung"
        self._consumer.close()
