"""A fake Kafka broker on 127.0.0.1, for the failure paths a real server does not take on demand.

A fake answers ApiVersions, SaslHandshake/SaslAuthenticate (with `groupctl.sasl`'s server side),
Metadata and FindCoordinator itself; a test adds handlers for the rest with `broker.on(api_key,
handler)`, and every request is kept (`requests`, `raw`). A handler may answer with the API's generated
response class or with a dict in Kafka's JSON names; the request it gets is the generated class. Tests
get started brokers from the `fake_cluster` fixture (tests/conftest.py), which stops them afterwards.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from groupctl import sasl
from groupctl.protocol.data.api_versions import ApiVersion, ApiVersionsResponseData
from groupctl.protocol.data.auth import SaslAuthenticateResponseData, SaslHandshakeResponseData
from groupctl.protocol.data.group_admin import Coordinator, FindCoordinatorResponseData
from groupctl.protocol.data.metadata import (
    MetadataResponseBroker,
    MetadataResponseData,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from groupctl.protocol.messages import API_SCHEMAS, framing

HOST = "127.0.0.1"
LIFETIME_S = 60.0  # no fake outlives this, even when a test forgets to stop it
POLL_S = 0.05
DEFAULT_VERSIONS = {key: (req.valid_versions.low, req.valid_versions.high) for key, (req, _) in API_SCHEMAS.items()}

NO_REPLY = object()
"""A handler result: read the request, never answer (a hung broker)."""


@dataclass
class ConnState:
    """Per-connection state a handler may use."""

    authenticated: bool = False
    mechanism: str | None = None
    scram: sasl.ScramServer | None = None
    user: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[framing.Request, ConnState], Any]


class FakeBroker:
    """One broker stand-in; see the module docstring."""

    NO_REPLY = NO_REPLY

    def __init__(
        self,
        node_id: int = 0,
        *,
        api_versions: dict[int, tuple[int, int]] | None = None,
        tls: ssl.SSLContext | None = None,
        sasl_users: dict[str, str] | None = None,
        sasl_mechanisms: tuple[str, ...] = sasl.SUPPORTED_MECHANISMS,
        advertised_host: str = HOST,
    ) -> None:
        self.node_id = node_id
        self.api_versions = dict(DEFAULT_VERSIONS if api_versions is None else api_versions)
        self.tls = tls
        self.sasl_users = sasl_users
        self.sasl_mechanisms = sasl_mechanisms
        self.advertised_host = advertised_host
        self.cluster: list[FakeBroker] = [self]
        self.topics: dict[str, dict[int, int]] = {}  # topic -> partition -> leader node id
        self.handlers: dict[int, Handler] = {}
        self.requests: list[framing.Request] = []
        self.raw: list[bytes] = []
        self.errors: list[str] = []
        self._credentials: dict[tuple[str, str], sasl.ScramCredential] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((HOST, 0))
        self._listener.listen(16)
        self._listener.settimeout(POLL_S)
        self.port = self._listener.getsockname()[1]
        self._born = time.monotonic()

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    def on(self, api_key: int, handler: Handler) -> None:
        self.handlers[api_key] = handler

    def requests_for(self, api_key: int) -> list[framing.Request]:
        return [r for r in self.requests if r.api_key == api_key]

    def raw_for(self, api_key: int) -> list[bytes]:
        return [raw for raw, r in zip(self.raw, self.requests, strict=True) if r.api_key == api_key]

    # --- lifecycle --------------------------------------------------------------------------------

    def start(self) -> FakeBroker:
        thread = threading.Thread(target=self._accept_loop, name=f"fake-broker-{self.node_id}", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        for thread in list(self._threads):
            thread.join(timeout=2.0)

    def _alive(self) -> bool:
        return not self._stop.is_set() and time.monotonic() - self._born < LIFETIME_S

    def _accept_loop(self) -> None:
        while self._alive():
            try:
                conn, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            thread.start()
            self._threads.append(thread)

    # --- one connection ---------------------------------------------------------------------------

    def _serve(self, conn: socket.socket) -> None:
        state = ConnState()
        try:
            if self.tls is not None:
                conn.settimeout(5.0)
                conn = self.tls.wrap_socket(conn, server_side=True)
            conn.settimeout(POLL_S)
            while self._alive():
                payload = self._read_frame(conn)
                if payload is None:
                    return
                request = framing.decode_request(payload)
                self.raw.append(payload)
                self.requests.append(request)
                reply = self._answer(request, state)
                if reply is NO_REPLY:
                    continue
                if reply is None:
                    return
                conn.sendall(reply)
                if state.extra.pop("close_after_reply", False):
                    return
        except (OSError, ssl.SSLError, framing.DecodeError) as exc:
            self.errors.append(repr(exc))
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    def _read_exactly(self, conn: socket.socket, size: int) -> bytes | None:
        buf = b""
        while len(buf) < size and self._alive():
            try:
                chunk = conn.recv(size - len(buf))
            except TimeoutError:
                continue
            if not chunk:
                return None
            buf += chunk
        return buf if len(buf) == size else None

    def _read_frame(self, conn: socket.socket) -> bytes | None:
        prefix = self._read_exactly(conn, 4)
        if prefix is None:
            return None
        return self._read_exactly(conn, framing.frame_size(prefix, 1 << 24))

    def _answer(self, request: framing.Request, state: ConnState) -> Any:
        key = request.api_key
        if self.sasl_users is not None and not state.authenticated and key not in (17, 18, 36):
            return None  # Kafka closes a connection that skips authentication
        handler = self.handlers.get(key) or self.default_handlers().get(key)
        if handler is None:
            self.errors.append(f"no handler for API {key}")
            return None
        result = handler(request, state)
        if result is None or result is NO_REPLY or isinstance(result, bytes):
            return result
        if isinstance(result, dict):
            result = API_SCHEMAS[key][1].data_class.from_dict(result)  # a body written in Kafka's JSON names
        return framing.encode_response(key, request.api_version, request.correlation_id, result)

    def default_handlers(self) -> dict[int, Handler]:
        return {
            18: self._api_versions,
            17: self._sasl_handshake,
            36: self._sasl_authenticate,
            3: self._metadata,
            10: self._find_coordinator,
        }

    # --- default handlers ---------------------------------------------------------------------------

    def _api_versions(self, request: framing.Request, state: ConnState) -> Any:
        own = self.api_versions.get(18)
        if own is None or request.api_version > own[1]:
            body = ApiVersionsResponseData(
                error_code=35,
                api_keys=[] if own is None else [ApiVersion(api_key=18, min_version=own[0], max_version=own[1])],
            )
            return framing.encode_response(18, 0, request.correlation_id, body)
        keys = [ApiVersion(api_key=k, min_version=lo, max_version=hi)
                for k, (lo, hi) in sorted(self.api_versions.items())]
        return ApiVersionsResponseData(error_code=0, api_keys=keys)

    def _sasl_handshake(self, request: framing.Request, state: ConnState) -> Any:
        if self.sasl_users is None:
            return SaslHandshakeResponseData(error_code=34, mechanisms=[])
        mechanism = request.body.mechanism
        if mechanism not in self.sasl_mechanisms:
            return SaslHandshakeResponseData(error_code=33, mechanisms=list(self.sasl_mechanisms))
        state.mechanism = mechanism
        if mechanism in sasl.SCRAM_HASHES:
            state.scram = sasl.ScramServer(mechanism, lambda user: self._credential(mechanism, user))
        return SaslHandshakeResponseData(error_code=0, mechanisms=list(self.sasl_mechanisms))

    def _credential(self, mechanism: str, user: str) -> sasl.ScramCredential | None:
        assert self.sasl_users is not None
        if user not in self.sasl_users:
            return None
        if (mechanism, user) not in self._credentials:
            self._credentials[mechanism, user] = sasl.ScramCredential.derive(mechanism, self.sasl_users[user])
        return self._credentials[mechanism, user]

    def _sasl_authenticate(self, request: framing.Request, state: ConnState) -> Any:
        assert self.sasl_users is not None
        token = request.body.auth_bytes
        try:
            if state.mechanism == sasl.PLAIN:
                state.user = sasl.verify_plain(token, self.sasl_users.get)
                reply = b""
            elif state.scram is not None and not state.extra.get("scram_started"):
                state.extra["scram_started"] = True
                reply = state.scram.handle_client_first(token)
            elif state.scram is not None:
                reply = state.scram.handle_client_final(token)
                state.user = state.scram.username
            else:
                return SaslAuthenticateResponseData(error_code=34, error_message="no handshake")
        except sasl.SaslAuthenticationFailed as exc:
            state.extra["close_after_reply"] = True
            return SaslAuthenticateResponseData(error_code=58, error_message=exc.message)
        if state.user is not None:
            state.authenticated = True
        return SaslAuthenticateResponseData(error_code=0, error_message=None, auth_bytes=reply, session_lifetime_ms=0)

    def broker_entries(self) -> list[MetadataResponseBroker]:
        return [MetadataResponseBroker(node_id=b.node_id, host=b.advertised_host, port=b.port, rack=None)
                for b in self.cluster]

    def _metadata(self, request: framing.Request, state: ConnState) -> Any:
        asked = request.body.topics
        names = sorted(self.topics) if not asked else [t.name for t in asked]
        topics = []
        for name in names:
            parts = self.topics.get(name)
            if parts is None:
                topics.append(MetadataResponseTopic(error_code=3, name=name, partitions=[]))
                continue
            topics.append(
                MetadataResponseTopic(
                    error_code=0,
                    name=name,
                    partitions=[
                        MetadataResponsePartition(
                            error_code=0,
                            partition_index=p,
                            leader_id=leader,
                            replica_nodes=[leader],
                            isr_nodes=[leader],
                        )
                        for p, leader in sorted(parts.items())
                    ],
                )
            )
        return MetadataResponseData(
            brokers=self.broker_entries(),
            cluster_id="fake-cluster",
            controller_id=self.cluster[0].node_id,
            topics=topics,
        )

    def _find_coordinator(self, request: framing.Request, state: ConnState) -> Any:
        return coordinator_reply(request, self.node_id, self.advertised_host, self.port)


def coordinator_reply(
    request: framing.Request, node_id: int, host: str, port: int, error_code: int = 0
) -> FindCoordinatorResponseData:
    """FindCoordinator's answer naming `node_id` at `host:port` (or `error_code`) for every key asked: one
    `Coordinator` per key from v4, the top-level fields before."""
    if request.api_version >= 4:
        return FindCoordinatorResponseData(coordinators=[
            Coordinator(key=k, node_id=node_id, host=host, port=port, error_code=error_code, error_message=None)
            for k in request.body.coordinator_keys
        ])
    return FindCoordinatorResponseData(error_code=error_code, error_message=None, node_id=node_id, host=host,
                                       port=port)
