"""One broker connection: TCP, TLS, ApiVersions, SASL, then request/response with correlation ids.

Blocking sockets with a timeout per call: every send and receive gets the time left before the
request's deadline (the command's deadline, cut to `request.timeout.ms`), so a silent broker costs
at most that. Opening a connection (the host name lookup, TCP, TLS, ApiVersions, SASL) is bounded as
a whole by the setup bound the caller gives (`socket.connection.setup.timeout.ms`, 5 s by default),
so a server that accepts connections but never answers costs seconds, not the command's --timeout,
and the next server can be tried. The lookup runs in a worker thread: `getaddrinfo` takes no timeout.

One request is in flight at a time; a response whose correlation id is not the one
expected, a frame above `max_response_bytes`, or a timeout closes the connection, since what is
left on the socket can no longer be trusted.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Callable
from typing import Any, Final

import groupctl
from groupctl.errors import DecodeError
from groupctl.kafka.authentication import authenticate
from groupctl.kafka.config import ClientConfig, format_address
from groupctl.kafka.deadline import Deadline, seconds_text
from groupctl.kafka.errors import (
    REFUSED,
    UNSUPPORTED_VERSION,
    ConnectionFailed,
    ProtocolFailure,
    RequestTimedOut,
    TlsFailed,
    broker_error,
)
from groupctl.kafka.tls import explain_handshake_failure
from groupctl.kafka.versions import ApiVersionTable
from groupctl.protocol.data.api_versions import ApiVersionsRequestData, ApiVersionsResponseData
from groupctl.protocol.messages import API_NAMES, framing

API_VERSIONS: Final = 18
API_VERSIONS_FIRST: Final = 3
"""The ApiVersions version sent first; brokers that do not know it say which one they do know."""
DEFAULT_MAX_RESPONSE_BYTES: Final = 100 * 1024 * 1024
CLIENT_SOFTWARE_NAME: Final = "groupctl"
_MAX_CORRELATION_ID: Final = 2**31 - 1
_CHECK_LISTENER: Final = "check security.protocol, the SASL settings and the broker log"
_TLS_RECORD_TYPES: Final = (0x15, 0x16)  # a TLS alert or handshake record where a size was expected


class BrokerConnection:
    """A connected, negotiated and (with SASL) authenticated link to one broker."""

    def __init__(
        self,
        host: str,
        port: int,
        config: ClientConfig,
        *,
        node_id: int | None = None,
        ssl_context: ssl.SSLContext | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ) -> None:
        self.host = host
        self.port = port
        self.node_id = node_id
        self.config = config
        self.address = format_address(host, port)
        self.max_response_bytes = max_response_bytes
        self._ssl_context = ssl_context
        self._sock: socket.socket | None = None
        self._correlation_id = 0
        self.api_versions = ApiVersionTable()
        self.authenticated_as: str | None = None

    @property
    def where(self) -> str:
        """How messages name this broker: `host:port (node 1)` or `bootstrap server host:port`."""
        if self.node_id is None:
            return f"bootstrap server {self.address}"
        return f"{self.address} (node {self.node_id})"

    @property
    def is_open(self) -> bool:
        return self._sock is not None

    def open(self, deadline: Deadline, setup_s: float | None = None) -> BrokerConnection:
        """Connect, then TLS, ApiVersions and SASL as configured, all within `setup_s` (the
        configured setup bound by default) and the deadline; on failure nothing stays open."""
        bound = self.config.connect_timeout_ms / 1000 if setup_s is None else setup_s
        setup = deadline.sooner(bound)
        try:
            self._connect(setup)
            self._negotiate(setup)
            settings = self.config.sasl()
            if settings is not None:
                self.authenticated_as = authenticate(self, settings, setup)
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def __enter__(self) -> BrokerConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def version_for(self, api_key: int, ours: range) -> int:
        """The highest version of `api_key` in `ours` the broker speaks; `UnsupportedApi` if none."""
        return self.api_versions.version_for(api_key, ours, self.where)

    def call(self, api_key: int, ours: range, build: Callable[[int], Any], deadline: Deadline) -> tuple[int, Any]:
        """Pick the version, build the body for it, send, and return `(version, response body)`; the
        bodies are the API's generated classes."""
        version = self.version_for(api_key, ours)
        return version, self.request(api_key, version, build(version), deadline)

    def request(self, api_key: int, version: int, body: Any, deadline: Deadline) -> Any:
        """Send one request and wait for its response body: the API's generated classes both ways
        (a request and a response class have no common type to name here)."""
        return self._round_trip(api_key, version, body, deadline).body

    # --- internals ----------------------------------------------------------------------------------

    def _connect(self, deadline: Deadline) -> None:
        if deadline.remaining() <= 0:
            raise ConnectionFailed(self.address, "no time left to connect", timed_out=True)
        addresses = resolve(self.host, self.port, deadline)
        sock: socket.socket | None = None
        failure: OSError | None = None
        for family, kind, proto, _, sockaddr in addresses:
            budget = deadline.remaining()
            if budget <= 0:
                break
            candidate = socket.socket(family, kind, proto)
            candidate.settimeout(budget)
            try:
                candidate.connect(sockaddr)
            except TimeoutError as exc:
                candidate.close()
                raise self._timed_out("connect", deadline.total) from exc
            except OSError as exc:
                candidate.close()
                failure = exc
                continue
            sock = candidate
            break
        if sock is None:
            if failure is None:
                raise self._timed_out("connect", deadline.total)
            raise ConnectionFailed(self.address, _os_reason(failure)) from failure
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self._ssl_context is None:
            self._sock = sock
            return
        try:
            sock.settimeout(max(deadline.remaining(), 0.001))
            self._sock = self._ssl_context.wrap_socket(sock, server_hostname=self.host)
        except ssl.SSLError as exc:
            sock.close()
            raise explain_handshake_failure(exc, self.address) from exc
        except TimeoutError as exc:
            sock.close()
            raise self._timed_out("TLS handshake", deadline.total) from exc
        except OSError as exc:
            sock.close()
            raise TlsFailed(f"TLS handshake with {self.address} failed: {_os_reason(exc)}") from exc

    def _timed_out(self, step: str, total_s: float) -> ConnectionFailed:
        """A setup step that used up its bound: marked as a timeout, so the next server is tried."""
        return ConnectionFailed(self.address, f"{step} timed out after {seconds_text(total_s)}", timed_out=True)

    def _negotiate(self, deadline: Deadline) -> None:
        """ApiVersions v3; a broker that does not know v3 answers UNSUPPORTED_VERSION with its own
        ApiVersions range (Kafka 2.4+) or none, and is asked again at that version or v0, as Kafka's
        NetworkClient does."""
        version = API_VERSIONS_FIRST
        for _ in range(API_VERSIONS_FIRST + 1):
            body = (
                ApiVersionsRequestData(client_software_name=CLIENT_SOFTWARE_NAME,
                                       client_software_version=groupctl.__version__)
                if version >= 3
                else ApiVersionsRequestData()
            )
            answer: ApiVersionsResponseData = self._round_trip(API_VERSIONS, version, body, deadline).body
            code = answer.error_code
            if code == 0:
                self.api_versions = ApiVersionTable.from_response(answer)
                return
            if code != UNSUPPORTED_VERSION or version == 0:
                raise broker_error(code, None, f"ApiVersions v{version} on {self.where}")
            advertised = {k.api_key: k.max_version for k in answer.api_keys}.get(API_VERSIONS, 0)
            version = max(0, min(advertised, version - 1))
        raise ProtocolFailure(f"{self.where} refused every ApiVersions version")

    def _next_correlation_id(self) -> int:
        self._correlation_id = self._correlation_id + 1 if self._correlation_id < _MAX_CORRELATION_ID else 0
        return self._correlation_id

    def _round_trip(self, api_key: int, version: int, body: Any, deadline: Deadline) -> framing.Response:
        if self._sock is None:
            raise ConnectionFailed(self.address, "the connection is closed")
        name = f"{API_NAMES.get(api_key, f'API {api_key}')} v{version}"
        correlation_id = self._next_correlation_id()
        frame = framing.encode_request(api_key, version, correlation_id, self.config.client_id, body)
        limit = deadline.sooner(self.config.request_timeout_ms / 1000)
        self._send(frame, limit, name)
        payload = self._receive(limit, name)
        try:
            response = framing.decode_response(payload, api_key, version)
        except DecodeError as exc:
            self.close()
            raise ProtocolFailure(f"{self.where} sent a {name} response that does not decode: {exc}") from exc
        if response.correlation_id != correlation_id:
            self.close()
            raise ProtocolFailure(
                f"{self.where} answered correlation id {response.correlation_id} to {name} "
                f"(expected {correlation_id}); the connection was closed"
            )
        return response

    def _send(self, frame: bytes, deadline: Deadline, name: str) -> None:
        sock = self._sock
        assert sock is not None
        view = memoryview(frame)
        sent = 0
        while sent < len(frame):
            self._arm(sock, deadline, name)
            try:
                sent += sock.send(view[sent:])
            except TimeoutError as exc:
                self.close()
                raise RequestTimedOut(self.where, name, deadline.total) from exc
            except OSError as exc:
                self.close()
                raise ConnectionFailed(self.address, f"connection lost sending {name}: {_os_reason(exc)}") from exc

    def _receive(self, deadline: Deadline, name: str) -> bytes:
        prefix = self._read_exactly(framing.SIZE.size, deadline, name)
        try:
            size = framing.frame_size(prefix, self.max_response_bytes)
        except DecodeError as exc:
            self.close()
            hint = ""
            if prefix[0] in _TLS_RECORD_TYPES and prefix[1] == 0x03:
                hint = "; it answered with TLS: set security.protocol=SSL or SASL_SSL"
            raise ProtocolFailure(f"{self.where} sent an invalid {name} response: {exc}{hint}") from exc
        return self._read_exactly(size, deadline, name)

    def _read_exactly(self, size: int, deadline: Deadline, name: str) -> bytes:
        sock = self._sock
        assert sock is not None
        buf = bytearray(size)
        view = memoryview(buf)
        got = 0
        while got < size:
            self._arm(sock, deadline, name)
            try:
                n = sock.recv_into(view[got:], size - got)
            except TimeoutError as exc:
                self.close()
                raise RequestTimedOut(self.where, name, deadline.total) from exc
            except OSError as exc:
                self.close()
                raise ConnectionFailed(
                    self.address, f"connection lost waiting for {name}: {_os_reason(exc)} ({_CHECK_LISTENER})"
                ) from exc
            if n == 0:
                self.close()
                raise ConnectionFailed(
                    self.address, f"the broker closed the connection during {name} ({_CHECK_LISTENER})"
                )
            got += n
        return bytes(buf)

    def _arm(self, sock: socket.socket, deadline: Deadline, name: str) -> None:
        remaining = deadline.remaining()
        if remaining <= 0:
            self.close()
            raise RequestTimedOut(self.where, name, deadline.total)
        sock.settimeout(remaining)


def resolve(host: str, port: int, deadline: Deadline) -> list[tuple[Any, ...]]:
    """`getaddrinfo` for a TCP connection, within the deadline. A numeric address needs no lookup; a
    name is looked up in a daemon thread, which is left behind (and ends with the lookup) when the
    deadline comes first."""
    address = format_address(host, port)
    try:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except socket.gaierror:
        pass
    except UnicodeError as exc:  # the IDNA encoding of the name: an empty label (a..b), one over 63 characters
        raise ConnectionFailed(address, f"'{host}' is not a valid host name ({exc})") from None
    answer: list[Any] = []
    done = threading.Event()

    def look_up() -> None:
        try:
            answer.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            answer.append(exc)
        finally:
            done.set()

    threading.Thread(target=look_up, name=f"resolve {host}", daemon=True).start()
    if not done.wait(deadline.remaining()):
        raise ConnectionFailed(
            address, f"the host name lookup of '{host}' took more than {seconds_text(deadline.total)} (check DNS)",
            timed_out=True,
        )
    (result,) = answer
    if isinstance(result, UnicodeError):
        raise ConnectionFailed(address, f"'{host}' is not a valid host name ({result})") from None
    if isinstance(result, OSError):
        raise ConnectionFailed(address, _os_reason(result, host)) from result
    if not result:
        raise ConnectionFailed(address, f"the host name '{host}' has no address")
    return list(result)


def _os_reason(exc: OSError, host: str | None = None) -> str:
    if isinstance(exc, socket.gaierror):
        named = f" '{host}'" if host else ""
        return f"cannot resolve the host name{named} ({exc.strerror})"
    if isinstance(exc, ConnectionRefusedError):
        return REFUSED
    return exc.strerror or str(exc) or type(exc).__name__
