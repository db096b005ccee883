"""The single-node cluster `groupctl serve` presents: node 1, also the controller.

`Broker` holds what every handler shares: the local backend over DIR (the coordinator on the wall
clock, topics, group configs), the partition logs that Produce and Fetch use, and the listener
addresses clients are told to connect to. All of it is touched from one asyncio thread only, so
requests for one group are handled in the order they arrive and no lock is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from groupctl.backends.local import SERVING_FILE, LocalBackend
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.topics import TopicImage
from groupctl.json_files import read_json, write_json_atomically
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.server.peer_log import PeerLog

if TYPE_CHECKING:
    from groupctl.server.partitions import PartitionStore
    from groupctl.server.producers import ProducerIds
    from groupctl.server.server import ServerOptions

NODE_ID = 1
CLUSTER_FILE = "cluster.json"


@dataclass(frozen=True)
class Listener:
    """Where clients reach the broker, and how (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)."""

    host: str
    port: int
    protocol: str = "PLAINTEXT"

    def __str__(self) -> str:
        return f"{self.protocol}://{self.host}:{self.port}"


class AnnouncingBackend(LocalBackend):
    """DIR as `groupctl serve` opens it: `serving.json` (pid, listener, bootstrap) is written as soon as
    the lock is taken, before the coordinator is loaded, so a command started while a big DIR loads
    fails at once naming the listener instead of waiting for the lock. If loading fails, the file
    goes with the lock; one left by a killed serve names a dead pid and the next command removes it.
    Every append was acknowledged to a client, so a save that fails never cuts the log back.
    """

    acknowledges_appends = True

    def __init__(self, directory: Path, listener: Listener,
                 broker_settings: Mapping[str, int | str] | None = None) -> None:
        self._announcement = {"pid": os.getpid(), "listeners": str(listener),
                              "bootstrap": f"{listener.host}:{listener.port}"}
        self._announced = False
        super().__init__(directory, create=True, wall_clock=True, broker_settings=broker_settings)

    def _take_lock(self) -> None:
        super()._take_lock()
        write_json_atomically(self.directory / SERVING_FILE, self._announcement)
        self._announced = True

    def _unlock(self) -> None:
        """Withdraw the announcement while still holding the lock: once it is released, the next serve
        may write its own."""
        try:
            if self._announced:
                (self.directory / SERVING_FILE).unlink(missing_ok=True)
                self._announced = False
        finally:
            super()._unlock()


class Broker:
    """The served DIR; open with `Broker.open(options, listener)`, always `close()`."""

    def __init__(self, backend: LocalBackend, options: ServerOptions) -> None:
        self.backend = backend
        self.options = options
        self.directory = backend.directory
        self.node_id = NODE_ID
        self.cluster_id = _cluster_id(backend.directory)
        self.listener = Listener("127.0.0.1", 0)
        #: The partition logs behind Produce/Fetch/ListOffsets, opened by `data` on first use.
        self.partitions: PartitionStore | None = None
        #: Producer ids for InitProducerId, reserved in DIR a block at a time (opened on first use).
        self.producer_ids: ProducerIds | None = None
        self.dirty = False
        #: One rate-limited stderr line per connection dropped for cause, or failed authentication.
        self.log = PeerLog()

    @classmethod
    def open(cls, options: ServerOptions, listener: Listener) -> Broker:
        """Lock DIR, announce `listener` in it, then load it (see `AnnouncingBackend`)."""
        broker = cls(AnnouncingBackend(options.directory, listener, options.broker_settings), options)
        broker.listener = listener
        return broker

    @property
    def coordinator(self) -> Coordinator:
        return self.backend.coordinator

    @property
    def topics(self) -> TopicImage:
        """The topics image the backend loaded from DIR and handed the coordinator (the same object)."""
        return self.backend.topics

    def after_request(self) -> None:
        """Fire the coordinator's due timers (join/sync answers waiting on them go out now)."""
        self.coordinator.fire_due()
        self.dirty = True

    def next_deadline_ms(self) -> int | None:
        return self.coordinator.next_timer_deadline()

    def save(self) -> None:
        """Persist what is not in a log yet (clock, timers, topics, configs, classic soft state).

        The partition logs are fsynced first, so the end offsets topics.json records are on disk.
        """
        if self.partitions is not None:
            self.partitions.sync()
        self.backend.save()
        self.dirty = False

    def close(self) -> None:
        try:
            if self.partitions is not None:
                self.partitions.close()
        finally:
            self.backend.close()


def _cluster_id(directory: Path) -> str:
    """A cluster id stable for DIR, in Kafka's form (a base64 UUID, 22 characters)."""
    path = directory / CLUSTER_FILE
    saved = read_json(path)
    if saved and isinstance(saved.get("clusterId"), str):
        return saved["clusterId"]
    cluster_id = uuid_to_kafka(uuid.uuid4())
    write_json_atomically(path, {"clusterId": cluster_id})
    return cluster_id


async def run_timers(broker: Broker, stop: asyncio.Event, tick_s: float = 0.05) -> None:
    """Fire coordinator timers on the wall clock until `stop` is set; saves DIR about once a second."""
    loop = asyncio.get_running_loop()
    last_save = loop.time()
    while not stop.is_set():
        broker.coordinator.fire_due()
        deadline = broker.next_deadline_ms()
        wait = tick_s
        if deadline is not None:
            wait = min(tick_s, max(0.0, (deadline - broker.backend.clock.now_ms()) / 1000))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=max(wait, 0.001))
        if broker.dirty and loop.time() - last_save >= 1.0:
            broker.save()
            last_save = loop.time()
