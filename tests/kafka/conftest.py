"""Test doubles for the wire client: a fake broker on 127.0.0.1, TLS material, kafka-python's encodings.

Tests reach these through fixtures (pytest runs with --import-mode=importlib, so a test module
cannot import this conftest by name):

* `fake_cluster(n, **options)` starts `n` fake brokers that know each other (Metadata lists them
  all) and stops them after the test. A fake answers ApiVersions, SaslHandshake/SaslAuthenticate
  (with `groupctl.sasl`'s server side), Metadata and FindCoordinator itself; a test adds handlers
  for the rest with `broker.on(api_key, handler)`. Every request is kept (`requests`, `raw`).
* `tls_files` is a CA, a server certificate for 127.0.0.1/localhost, a client certificate, and a
  second CA that signed nothing the server has, generated once per session with `cryptography`.
* `kp` builds kafka-python 3.0.12 requests and responses (the independent peer) as framed bytes.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib
import inspect
import ipaddress
import pkgutil
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from groupctl import sasl
from groupctl.kafka.config import ClientConfig
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
            body = {
                "errorCode": 35,
                "apiKeys": [] if own is None else [{"apiKey": 18, "minVersion": own[0], "maxVersion": own[1]}],
            }
            return framing.encode_response(18, 0, request.correlation_id, body)
        keys = [{"apiKey": k, "minVersion": lo, "maxVersion": hi} for k, (lo, hi) in sorted(self.api_versions.items())]
        return {"errorCode": 0, "apiKeys": keys}

    def _sasl_handshake(self, request: framing.Request, state: ConnState) -> Any:
        if self.sasl_users is None:
            return {"errorCode": 34, "mechanisms": []}
        mechanism = request.body["mechanism"]
        if mechanism not in self.sasl_mechanisms:
            return {"errorCode": 33, "mechanisms": list(self.sasl_mechanisms)}
        state.mechanism = mechanism
        if mechanism in sasl.SCRAM_HASHES:
            state.scram = sasl.ScramServer(mechanism, lambda user: self._credential(mechanism, user))
        return {"errorCode": 0, "mechanisms": list(self.sasl_mechanisms)}

    def _credential(self, mechanism: str, user: str) -> sasl.ScramCredential | None:
        assert self.sasl_users is not None
        if user not in self.sasl_users:
            return None
        if (mechanism, user) not in self._credentials:
            self._credentials[mechanism, user] = sasl.ScramCredential.derive(mechanism, self.sasl_users[user])
        return self._credentials[mechanism, user]

    def _sasl_authenticate(self, request: framing.Request, state: ConnState) -> Any:
        assert self.sasl_users is not None
        token = request.body["authBytes"]
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
                return {"errorCode": 34, "errorMessage": "no handshake", "authBytes": b""}
        except sasl.SaslAuthenticationFailed as exc:
            state.extra["close_after_reply"] = True
            return {"errorCode": 58, "errorMessage": exc.message, "authBytes": b""}
        if state.user is not None:
            state.authenticated = True
        return {"errorCode": 0, "errorMessage": None, "authBytes": reply, "sessionLifetimeMs": 0}

    def broker_entries(self) -> list[dict[str, Any]]:
        return [{"nodeId": b.node_id, "host": b.advertised_host, "port": b.port, "rack": None} for b in self.cluster]

    def _metadata(self, request: framing.Request, state: ConnState) -> Any:
        asked = request.body.get("topics")
        names = sorted(self.topics) if not asked else [t["name"] for t in asked]
        topics = []
        for name in names:
            parts = self.topics.get(name)
            if parts is None:
                topics.append({"errorCode": 3, "name": name, "partitions": []})
                continue
            topics.append(
                {
                    "errorCode": 0,
                    "name": name,
                    "partitions": [
                        {
                            "errorCode": 0,
                            "partitionIndex": p,
                            "leaderId": leader,
                            "replicaNodes": [leader],
                            "isrNodes": [leader],
                        }
                        for p, leader in sorted(parts.items())
                    ],
                }
            )
        return {
            "brokers": self.broker_entries(),
            "clusterId": "fake-cluster",
            "controllerId": self.cluster[0].node_id,
            "topics": topics,
        }

    def _find_coordinator(self, request: framing.Request, state: ConnState) -> Any:
        me = {"nodeId": self.node_id, "host": self.advertised_host, "port": self.port}
        if request.api_version >= 4:
            keys = request.body["coordinatorKeys"]
            return {"coordinators": [{"key": k, **me, "errorCode": 0, "errorMessage": None} for k in keys]}
        return {"errorCode": 0, "errorMessage": None, **me}


@pytest.fixture
def fake_cluster() -> Iterator[Callable[..., list[FakeBroker]]]:
    """`fake_cluster(n=1, **FakeBroker options)`: started brokers, node ids 0..n-1, stopped afterwards."""
    created: list[FakeBroker] = []

    def make(n: int = 1, **options: Any) -> list[FakeBroker]:
        brokers = [FakeBroker(node_id=i, **options) for i in range(n)]
        for b in brokers:
            b.cluster = brokers
        created.extend(brokers)
        for b in brokers:
            b.start()
        return brokers

    try:
        yield make
    finally:
        for b in created:
            b.stop()


@pytest.fixture
def config_for() -> Callable[..., ClientConfig]:
    """`config_for(broker_or_address, **properties)` with dots spelled as underscores in the keys."""

    def make(target: Any, **props: str) -> ClientConfig:
        address = target if isinstance(target, str) else target.address
        return ClientConfig.from_properties(
            {"bootstrap.servers": address, **{k.replace("_", "."): v for k, v in props.items()}}
        )

    return make


@pytest.fixture
def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A 127.0.0.1 port that accepts connections (the kernel's backlog) and never answers."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((HOST, 0))
    s.listen(8)
    try:
        yield int(s.getsockname()[1])
    finally:
        s.close()


# --- TLS material --------------------------------------------------------------------------------


def _certificates(directory: Path) -> SimpleNamespace:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    def ca(common: str) -> tuple[Any, Any]:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            x509.CertificateBuilder()
            .subject_name(name(common))
            .issuer_name(name(common))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        return key, cert

    def leaf(common: str, sans: list[x509.GeneralName], usage: Any, issuer: tuple[Any, Any]) -> tuple[Any, Any]:
        key = ec.generate_private_key(ec.SECP256R1())
        issuer_key, issuer_cert = issuer
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(common))
            .issuer_name(issuer_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
        )
        if sans:
            builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
        return key, builder.sign(issuer_key, hashes.SHA256())

    def write(stem: str, key: Any, cert: Any, password: bytes | None = None) -> tuple[Path, Path]:
        cert_path, key_path = directory / f"{stem}.crt", directory / f"{stem}.key"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
        key_path.write_bytes(
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
        )
        return cert_path, key_path

    root = ca("groupctl test CA")
    other = ca("some other CA")
    server = leaf(
        "broker",
        [x509.IPAddress(ipaddress.ip_address(HOST)), x509.DNSName("localhost")],
        ExtendedKeyUsageOID.SERVER_AUTH,
        root,
    )
    wrong_name = leaf("elsewhere", [x509.DNSName("elsewhere.example")], ExtendedKeyUsageOID.SERVER_AUTH, root)
    client = leaf("client", [], ExtendedKeyUsageOID.CLIENT_AUTH, root)
    ca_crt, _ = write("ca", *root)
    other_crt, _ = write("other-ca", *other)
    server_crt, server_key = write("server", *server)
    wrong_crt, wrong_key = write("wrong-name", *wrong_name)
    client_crt, client_key = write("client", *client, password=b"key-pass")
    bundle = directory / "client-bundle.pem"
    bundle.write_bytes(client_crt.read_bytes() + client_key.read_bytes())
    return SimpleNamespace(
        ca=ca_crt,
        other_ca=other_crt,
        server_crt=server_crt,
        server_key=server_key,
        wrong_name_crt=wrong_crt,
        wrong_name_key=wrong_key,
        client_crt=client_crt,
        client_key=client_key,
        client_key_password="key-pass",
        client_bundle=bundle,
    )


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    pytest.importorskip("cryptography")
    files = _certificates(tmp_path_factory.mktemp("tls"))

    def server_context(
        cert: Path | None = None, key: Path | None = None, require_client: bool = False
    ) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert or files.server_crt, key or files.server_key)
        if require_client:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(cafile=files.ca)
        return context

    files.server_context = server_context
    return files


# --- kafka-python, the independent peer ------------------------------------------------------------


def _kp_classes() -> dict[str, Any]:
    from kafka.protocol.api_message import ApiMessage

    modules = [importlib.import_module("kafka.protocol.sasl")]
    for package in ("admin", "consumer", "metadata"):
        pkg = importlib.import_module(f"kafka.protocol.{package}")
        modules += [importlib.import_module(f"{pkg.__name__}.{i.name}") for i in pkgutil.iter_modules(pkg.__path__)]
    found: dict[str, Any] = {}
    for module in modules:
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, ApiMessage) and obj is not ApiMessage:
                found[name] = obj
    return found


@pytest.fixture(scope="session")
def kp() -> SimpleNamespace:
    """`kp.cls[name]` is a kafka-python ApiMessage class; `kp.frame(name, version, correlation_id,
    client_id, **fields)` its size-prefixed encoding with header; `kp.response(...)` likewise."""
    classes = _kp_classes()

    def frame(name: str, version: int, correlation_id: int, client_id: str | None = None, **fields: Any) -> bytes:
        obj = classes[name][version](**fields)
        if name.endswith("Request"):
            obj.with_header(correlation_id=correlation_id, client_id=client_id)
        else:
            obj.with_header(correlation_id=correlation_id)
        return bytes(obj.encode(header=True, framed=True))

    return SimpleNamespace(cls=classes, frame=frame)
