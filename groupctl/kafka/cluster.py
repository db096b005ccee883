"""A cluster as the wire client sees it: bootstrap, Metadata, and one cached connection per broker.

Bootstrap tries each server of `bootstrap.servers` in order, each attempt bounded by the connection
setup bound (`socket.connection.setup.timeout.ms`), so a server that accepts connections and never
answers costs that bound, not the whole deadline, before the next one is tried. Servers that were
silent are tried again while the deadline allows, each with its bound doubled up to
`socket.connection.setup.timeout.max.ms` (as Kafka's clients grow theirs). The bound is kept per
address, so connections to the brokers Metadata and FindCoordinator name grow theirs the same way
when they are retried. Servers that refused, or whose name does not resolve, are not tried again:
when every server said no, bootstrap fails at once with each one's cause. TLS and SASL failures
stop it at once too (another broker would refuse the same settings). Metadata names the brokers;
after it, connections are by node id and reused until `close()`.
"""

from __future__ import annotations

import ssl
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from groupctl.kafka.config import ClientConfig, format_address
from groupctl.kafka.connection import DEFAULT_MAX_RESPONSE_BYTES, BrokerConnection
from groupctl.kafka.deadline import Deadline, seconds_text
from groupctl.kafka.errors import ConnectionFailed, broker_error
from groupctl.kafka.tls import client_context
from groupctl.protocol.data.metadata import MetadataRequestData, MetadataRequestTopic, MetadataResponseData

METADATA: Final = 3
METADATA_VERSIONS: Final = range(0, 14)
DEFAULT_TIMEOUT_S: Final = 30.0


@dataclass(frozen=True)
class Broker:
    """A broker as Metadata (or FindCoordinator) names it."""

    node_id: int
    host: str
    port: int
    rack: str | None = None

    @property
    def address(self) -> str:
        return format_address(self.host, self.port)

    def __str__(self) -> str:
        return f"{self.address} (node {self.node_id})"


@dataclass(frozen=True)
class PartitionMetadata:
    partition: int
    leader_id: int
    leader_epoch: int
    error_code: int


@dataclass(frozen=True)
class TopicMetadata:
    name: str
    topic_id: uuid.UUID | None
    error_code: int
    is_internal: bool
    partitions: dict[int, PartitionMetadata] = field(default_factory=dict)


@dataclass(frozen=True)
class ClusterMetadata:
    cluster_id: str | None
    controller_id: int
    brokers: dict[int, Broker]
    topics: dict[str, TopicMetadata]


def metadata_request(version: int, topics: Sequence[str] | None) -> MetadataRequestData:
    """Topic names, or None for every topic. v0 cannot ask for no topics (its empty list means all)."""
    wanted = None if topics is None else [MetadataRequestTopic(name=t) for t in topics]
    request = MetadataRequestData(topics=(wanted or []) if version == 0 else wanted)
    if version >= 4:
        request.allow_auto_topic_creation = False
    return request


def parse_metadata(body: MetadataResponseData) -> ClusterMetadata:
    brokers = {b.node_id: Broker(b.node_id, b.host, b.port, b.rack) for b in body.brokers}
    topics: dict[str, TopicMetadata] = {}
    for t in body.topics:
        if t.name is None:
            continue
        partitions = {
            p.partition_index: PartitionMetadata(p.partition_index, p.leader_id, p.leader_epoch, p.error_code)
            for p in t.partitions
        }
        topic_id = t.topic_id
        topics[t.name] = TopicMetadata(
            t.name,
            topic_id if topic_id.int else None,
            t.error_code,
            t.is_internal,
            partitions,
        )
    return ClusterMetadata(body.cluster_id, body.controller_id, brokers, topics)


class Cluster:
    """Connections to one cluster, opened on demand and closed together."""

    def __init__(
        self,
        config: ClientConfig,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self.config = config
        self.timeout = timeout
        self.max_response_bytes = max_response_bytes
        self._ssl_context: ssl.SSLContext | None = None
        self._bootstrap: BrokerConnection | None = None
        self._connections: dict[int, BrokerConnection] = {}
        self._setup_bounds: dict[str, float] = {}
        """host:port -> the connection setup bound for the next attempt there (see `_open`)."""
        self.brokers: dict[int, Broker] = {}
        self.coordinators: dict[str, Broker] = {}
        """group id -> its coordinator, as last found; `forget_coordinator` drops a stale entry."""

    def deadline(self, seconds: float | None = None) -> Deadline:
        """A fresh deadline of `seconds` (the cluster's timeout by default)."""
        return Deadline(self.timeout if seconds is None else seconds)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for conn in [self._bootstrap, *self._connections.values()]:
            if conn is not None:
                conn.close()
        self._bootstrap = None
        self._connections.clear()

    # --- connections --------------------------------------------------------------------------------

    def _context(self) -> ssl.SSLContext | None:
        if self._ssl_context is None and self.config.uses_tls:
            settings = self.config.tls()
            assert settings is not None
            self._ssl_context = client_context(settings)
        return self._ssl_context

    def _open(self, host: str, port: int, node_id: int | None, deadline: Deadline) -> BrokerConnection:
        """A new connection within this address's setup bound, which doubles (up to the `.max.ms`
        setting) each time a setup at that address times out."""
        address = format_address(host, port)
        conn = BrokerConnection(
            host,
            port,
            self.config,
            node_id=node_id,
            ssl_context=self._context(),
            max_response_bytes=self.max_response_bytes,
        )
        bound = self._setup_bounds.get(address, self.config.connect_timeout_ms / 1000)
        try:
            return conn.open(deadline, bound)
        except ConnectionFailed as exc:
            if exc.timed_out:
                ceiling = max(self.config.connect_timeout_max_ms / 1000, bound)
                self._setup_bounds[address] = min(bound * 2, ceiling)
            raise

    def bootstrap(self, deadline: Deadline) -> BrokerConnection:
        """An open connection to the first bootstrap server that answers (see the module docstring)."""
        if self._bootstrap is not None and self._bootstrap.is_open:
            return self._bootstrap
        last: dict[str, str] = {}
        pending = list(self.config.bootstrap_servers)
        while pending:
            silent = []
            for host, port in pending:
                address = format_address(host, port)
                if deadline.expired:
                    last.setdefault(address, "not tried, no time left")
                    continue
                try:
                    self._bootstrap = self._open(host, port, None, deadline)
                    return self._bootstrap
                except ConnectionFailed as exc:
                    last[address] = exc.reason
                    if exc.timed_out:
                        silent.append((host, port))
            pending = silent if not deadline.expired else []
        causes = "; ".join(f"{address}: {reason}" for address, reason in last.items())
        if deadline.expired:
            reason = (f"no bootstrap server answered within {seconds_text(deadline.total)} ({causes}); check "
                      "bootstrap.servers / --bootstrap-server and that the brokers run and are reachable, or give "
                      "more time with --timeout")
        else:
            reason = (f"no bootstrap server answered ({causes}); check bootstrap.servers / --bootstrap-server and "
                      "that the brokers run and are reachable")
        raise ConnectionFailed(self.config.bootstrap_text, reason, timed_out=deadline.expired)

    def any_connection(self, deadline: Deadline) -> BrokerConnection:
        """Some open connection (for cluster-wide requests such as Metadata and FindCoordinator)."""
        for conn in self._connections.values():
            if conn.is_open:
                return conn
        return self.bootstrap(deadline)

    def connection(self, broker: Broker, deadline: Deadline) -> BrokerConnection:
        """The connection to `broker`, reused while it stays open at the same address."""
        conn = self._connections.get(broker.node_id)
        if conn is not None and conn.is_open and (conn.host, conn.port) == (broker.host, broker.port):
            return conn
        if conn is not None:
            conn.close()
        boot = self._bootstrap
        if boot is not None and boot.is_open and (boot.host, boot.port) == (broker.host, broker.port):
            boot.node_id = broker.node_id
            self._bootstrap = None
            conn = boot
        else:
            conn = self._open(broker.host, broker.port, broker.node_id, deadline)
        self._connections[broker.node_id] = conn
        return conn

    def drop(self, node_id: int) -> None:
        """Close and forget the connection to `node_id` (after it failed)."""
        conn = self._connections.pop(node_id, None)
        if conn is not None:
            conn.close()

    def forget_coordinator(self, group_id: str) -> None:
        self.coordinators.pop(group_id, None)

    # --- metadata -----------------------------------------------------------------------------------

    def metadata(self, deadline: Deadline, topics: Sequence[str] | None = ()) -> ClusterMetadata:
        """Brokers and the named topics (`None`: every topic; `()`: none, except on Metadata v0)."""
        conn = self.any_connection(deadline)
        _, body = conn.call(METADATA, METADATA_VERSIONS, lambda v: metadata_request(v, topics), deadline)
        if body.error_code:
            raise broker_error(body.error_code, None, f"Metadata on {conn.where}")
        result = parse_metadata(body)
        self.brokers = dict(result.brokers)
        return result

    def list_brokers(self, deadline: Deadline) -> list[Broker]:
        """Every broker of the cluster, by node id."""
        return sorted(self.metadata(deadline).brokers.values(), key=lambda b: b.node_id)

    def broker(self, node_id: int, deadline: Deadline) -> Broker:
        """A broker by node id, refreshing Metadata once when it is not known yet."""
        if node_id not in self.brokers:
            self.metadata(deadline)
        try:
            return self.brokers[node_id]
        except KeyError:
            raise ConnectionFailed(f"node {node_id}", "the cluster's Metadata does not list this broker") from None
