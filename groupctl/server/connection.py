"""One client connection: cut the bytes it sends into requests and answer them in order.

Like a Kafka broker, the listener handles a connection's requests one at a time (a broker mutes the
channel while a request is in flight), so responses leave in request order and a JoinGroup that
waits for the rebalance holds that connection only. It is an `asyncio.Protocol`, not a stream
reader: the requests a read brings in are answered in one go, each handler run at once and given a
task only if it has to wait (`eager`), and their answers leave in one write; no timeout is armed per
request. Bad input never reaches a handler: a size prefix over the limit, a header that does not
parse, an unknown API key, or an unsupported version of anything but ApiVersions closes the
connection, as Kafka does; ApiVersions of an unknown version gets a v0 answer with
UNSUPPORTED_VERSION and the versions served, so the client can retry lower.
A handler may also ask for the connection to be closed once its answer is out (a failed SASL
exchange, as a broker's authenticator does). A client that stops reading its answers stops being
read once the transport holds more than its high-water mark (backpressure per connection: the
others are served meanwhile), and is dropped after the idle timeout rather than holding its
handler forever.

A client may vanish at any moment (reset, half-close, close while its answer is being written):
that ends its own connection and nothing else. Before a SASL client has authenticated, a frame
over Kafka's `sasl.server.max.receive.size` is refused from its size prefix alone, so unauthenticated
peers cannot make the server buffer large bodies; a failed authentication is answered only after
Kafka's `connection.failed.authentication.delay.ms`, without holding up other connections. Each
connection dropped for cause (garbage, an oversized prefix, a malformed request) is one
rate-limited line on stderr. Errors are turned into reason strings and raised outside the `except`
clause, never chained, and a handler's exception loses its traceback: either would keep the frame,
and with it the buffered bytes of an abandoned frame, alive in a reference cycle until the garbage
collector runs.
"""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import dataclass
from typing import Any, Final, Protocol, cast

from groupctl.errors import DecodeError
from groupctl.protocol.data.api_versions import ApiVersionsResponseData
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.dispatch import HANDLERS, RequestContext, Session, api_keys
from groupctl.server.eager import run_eagerly
from groupctl.server.peer_log import PeerLog

API_VERSIONS = 18
#: What a client may send before it has authenticated on a SASL listener.
_PRE_AUTH_APIS = frozenset({API_VERSIONS, 17, 36})
UNSUPPORTED_VERSION = 35
#: Set in `Session.extra` (to the reason) by a handler whose answer must be the connection's last.
CLOSE_AFTER_RESPONSE = "close_after_response"
#: Kafka's `sasl.server.max.receive.size` default: the largest frame read before authentication.
SASL_MAX_RECEIVE_SIZE = 524288
#: What a held connection buffers before it stops reading (what asyncio's StreamReader allowed: 2 x 64 KiB).
_HELD_BYTES: Final = 2**17
#: Answers gathered before they are handed to the transport, so a big one meets its backpressure at once.
_WRITE_BATCH_BYTES: Final = 2**16
_SIZE_AT: Final = framing.SIZE.unpack_from


@dataclass(frozen=True)
class Limits:
    """Kafka's `socket.request.max.bytes`, `max.connections`, `connections.max.idle.ms`,
    `sasl.server.max.receive.size` and `connection.failed.authentication.delay.ms`."""

    max_request_bytes: int = 100 * 1024 * 1024
    max_connections: int = 1000
    idle_timeout_s: float = 600.0
    max_pre_auth_bytes: int = SASL_MAX_RECEIVE_SIZE
    failed_auth_delay_s: float = 0.1


class ConnectionClosed(Exception):
    """The client went away, or sent something that makes the broker hang up.

    `quiet` for a client that simply left (end of stream, reset, idle): nothing worth a log line.
    """

    def __init__(self, reason: str, *, quiet: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.quiet = quiet


def _looks_like(prefix: bytes) -> str:
    """What a size prefix that is not one probably is, so the log line says who is knocking."""
    if prefix[:1] == b"\x16" and prefix[1:2] == b"\x03":
        return " (a TLS handshake: the client uses SSL, this listener does not)"
    if prefix[:4] in (b"GET ", b"POST", b"HEAD", b"PUT ", b"OPTI", b"PRI "):
        return " (an HTTP request: this is a Kafka listener)"
    return ""



def unsupported_api_versions_response(correlation_id: int) -> bytes:
    """The v0 answer to an ApiVersions of a version not served: UNSUPPORTED_VERSION and what is served."""
    body = ApiVersionsResponseData(error_code=UNSUPPORTED_VERSION, api_keys=api_keys())
    return framing.encode_response(API_VERSIONS, 0, correlation_id, body)


class Owner(Protocol):
    """What a connection needs from the listener that accepted it."""

    broker: Broker | None

    def admit(self, connection: Connection, peer: str) -> Session | None:
        """The new connection's session, or None to refuse it (stopping, --max-connections)."""

    def release(self, connection: Connection) -> None:
        """The connection is gone (called once, also for a refused one)."""


class Connection(asyncio.Protocol):
    """One client connection: the bytes it sends are cut into requests and answered in order.

    Every whole request buffered is answered as it is cut out, and the answers to what one read
    brought in leave in one write (a client pipelining heartbeats gets them back in one segment). A
    request whose handler has to wait, or answers the client does not read (the transport's buffer
    over its high-water mark), hold the requests behind it; while held, at most `_HELD_BYTES` more are
    buffered before reading pauses. One timer per connection enforces the idle timeout: it is
    re-armed when it fires, not on every request.
    """

    def __init__(self, owner: Owner, limits: Limits, log: PeerLog) -> None:
        self._owner = owner
        self._limits = limits
        self._log = log
        self._loop = asyncio.get_running_loop()
        self._transport: asyncio.Transport | None = None
        self.session = Session(peer="?")
        #: Bytes received and not yet cut into requests, and how many there are.
        self._chunks: list[bytes] = []
        self._buffered = 0
        #: How many buffered bytes the next request (or its size prefix) needs before it can be cut out.
        self._need = framing.SIZE.size
        #: Answers not yet handed to the transport, and their size.
        self._out: list[bytes] = []
        self._out_bytes = 0
        #: A handler that had to wait, finishing in a task; or the failed-authentication delay.
        self._task: asyncio.Task[Any] | None = None
        self._delay: asyncio.TimerHandle | None = None
        self._write_paused = False
        self._read_paused = False
        self._gone = False
        self._closing = False
        #: Since when the connection has waited for a request (or for the rest of one); since when its
        #: answers have been stuck in the transport.
        self._since = self._loop.time()
        self._paused_since = 0.0
        self._idle_timer: asyncio.TimerHandle | None = None
        #: Done when the connection is gone (the listener waits for it on stop).
        self.closed: asyncio.Future[None] = self._loop.create_future()

    # -- transport callbacks -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses
        peer = transport.get_extra_info("peername")
        session = self._owner.admit(self, f"{peer[0]}:{peer[1]}" if peer else "?")
        if session is None:
            self._closing = True
            transport.close()
            return
        self.session = session
        self._since = self._loop.time()
        self._idle_timer = self._loop.call_at(self._since + self._limits.idle_timeout_s, self._check_idle)

    def data_received(self, data: bytes) -> None:
        if self._closing:
            return
        self._chunks.append(data)
        self._buffered += len(data)
        if self._held:
            if self._buffered > _HELD_BYTES and not self._read_paused:
                self._read_paused = True
                transport = self._transport
                assert transport is not None  # data arrives only after connection_made
                transport.pause_reading()
        elif self._buffered >= self._need:
            self._process()

    def eof_received(self) -> bool:
        """The client has closed its side: what it sent before was answered as far as it goes without
        waiting; a request still waiting gives its answer to no one, as on a broker."""
        self._gone = True
        if self._task is not None:
            self._task.cancel()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = self._closing = True
        self._stop_waiting()
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        self._chunks.clear()
        self._buffered = 0
        self._out.clear()
        self._owner.release(self)
        if not self.closed.done():
            self.closed.set_result(None)

    def pause_writing(self) -> None:
        self._write_paused = True
        self._paused_since = self._loop.time()

    def resume_writing(self) -> None:
        self._write_paused = False
        if not self._held and not self._closing:
            self._process()

    # -- requests and answers ----------------------------------------------------------------------

    @property
    def _held(self) -> bool:
        return self._write_paused or self._task is not None or self._delay is not None

    def _process(self) -> None:
        """Answer the whole requests buffered, in order, until one has to wait or answers back up."""
        chunks = self._chunks
        data = b"" if not chunks else chunks[0] if len(chunks) == 1 else b"".join(chunks)
        chunks.clear()
        pos, end = 0, len(data)
        need = framing.SIZE.size
        reason = ""
        quiet = False
        answered = 0
        try:
            while not (self._closing or self._held):
                if end - pos < 4:
                    need = 4
                    break
                (size,) = _SIZE_AT(data, pos)
                authenticated = self.session.authenticated
                limit = self._limits.max_request_bytes
                if not authenticated:
                    limit = min(self._limits.max_pre_auth_bytes, limit)
                if size < 0 or size > limit:
                    what = "--max-request-bytes" if authenticated else "the limit before SASL authentication"
                    raise ConnectionClosed(
                        f"size prefix {size} is over {what} ({limit}){_looks_like(data[pos:pos + 4])}")
                if end - pos - 4 < size:
                    need = 4 + size
                    break
                payload = data[pos + 4:pos + 4 + size]
                pos += 4 + size
                answered += 1
                self._answer(payload)
            if not self._closing:
                self._flush()
        except ConnectionClosed as closed:
            reason, quiet = closed.reason, closed.quiet
        except Exception as exc:  # a handler bug: drop this client, keep serving the others
            reason = f"after an internal error: {type(exc).__name__}: {exc}"
            exc.__traceback__ = None
        finally:
            if answered and self._owner.broker is not None:
                self._owner.broker.after_request()
        if reason:
            self._close(reason, quiet)
            return
        if self._closing:
            return
        if pos < end:
            chunks.append(data[pos:] if pos else data)
        self._buffered = end - pos
        self._need = need
        if not self._held:
            self._since = self._loop.time()
            if self._read_paused:
                self._read_paused = False
                transport = self._transport
                assert transport is not None  # data arrives only after connection_made
                transport.resume_reading()

    def _answer(self, payload: bytes) -> None:
        """Answer one request now, or leave its handler to finish in a task (the connection is then held)."""
        reason = ""
        try:
            api_key, api_version, correlation_id = framing.peek_request(payload)
        except DecodeError as exc:
            reason = f"unreadable request header: {exc}"
        if reason:
            raise ConnectionClosed(reason)
        registration = HANDLERS.get(api_key)
        if registration is None or api_version not in registration.versions:
            if api_key == API_VERSIONS:
                self._send(unsupported_api_versions_response(correlation_id))
                return
            raise ConnectionClosed(f"unsupported request: API {api_key} version {api_version}")
        session = self.session
        if not session.authenticated and api_key not in _PRE_AUTH_APIS:
            raise ConnectionClosed(f"API {api_key} sent before SASL authentication completed")
        try:
            request = framing.decode_peeked_request(payload, api_key, api_version, correlation_id)
        except DecodeError as exc:
            reason = f"malformed request (API {api_key} v{api_version}): {exc}"
        if reason:
            raise ConnectionClosed(reason)
        del payload
        broker = self._owner.broker
        assert broker is not None
        context = RequestContext(broker, session, api_key, api_version, correlation_id, request.client_id)
        body, task = run_eagerly(registration.handler(context, request.body), self._loop)
        if task is None:
            self._respond(api_key, api_version, correlation_id, body)
            return
        if self._gone:
            task.cancel()
            raise ConnectionClosed("closed by the client while its request was pending", quiet=True)
        self._task = task
        task.add_done_callback(functools.partial(self._finished, api_key, api_version, correlation_id))

    def _finished(self, api_key: int, api_version: int, correlation_id: int, task: asyncio.Task[Any]) -> None:
        """A handler that had to wait is done: send its answer, then carry on with what is buffered."""
        if task is not self._task:
            return
        self._task = None
        broker = self._owner.broker
        if broker is not None:
            broker.after_request()
        if self._closing or task.cancelled():
            return
        error = task.exception()
        reason, quiet = "", False
        if error is None:
            try:
                self._respond(api_key, api_version, correlation_id, task.result())
            except ConnectionClosed as closed:
                reason, quiet = closed.reason, closed.quiet
        elif isinstance(error, ConnectionClosed):
            reason, quiet = error.reason, error.quiet
        else:
            reason = f"after an internal error: {type(error).__name__}: {error}"
        if error is not None:
            error.__traceback__ = None
        del error, task
        if reason:
            self._close(reason, quiet)
        elif not self._held and not self._closing:
            self._process()

    def _respond(self, api_key: int, api_version: int, correlation_id: int, body: Any) -> None:
        """Queue a handler's answer (None: none, as for acks=0); a handler that asked for the connection
        to end gets its answer out first, after the failed-authentication delay if it failed one."""
        frame = None if body is None else framing.encode_response(api_key, api_version, correlation_id, body)
        if CLOSE_AFTER_RESPONSE not in self.session.extra:
            if frame is not None:
                self._send(frame)
            return
        self._flush()
        if self.session.authenticated:
            self._last(frame)
        else:
            delay = self._limits.failed_auth_delay_s
            self._delay = self._loop.call_later(delay, self._last, frame, time.monotonic() + delay)

    def _last(self, frame: bytes | None, not_before: float = 0.0) -> None:
        """The connection's last answer, then close; not before `not_before` (uvloop's timers count whole
        milliseconds and may fire up to one early)."""
        self._delay = None
        if self._closing:
            return
        early = not_before - time.monotonic()
        if early > 0:
            self._delay = self._loop.call_later(early, self._last, frame, not_before)
            return
        if frame is not None:
            self._out.append(frame)
        self._close("", quiet=True)

    def _send(self, frame: bytes) -> None:
        self._out.append(frame)
        self._out_bytes += len(frame)
        if self._out_bytes >= _WRITE_BATCH_BYTES:
            self._flush()

    def _flush(self) -> None:
        """Hand the queued answers to the transport in one write."""
        out = self._out
        if not out:
            return
        data = out[0] if len(out) == 1 else b"".join(out)
        out.clear()
        self._out_bytes = 0
        transport = self._transport
        assert transport is not None
        if transport.is_closing():
            raise ConnectionClosed("closed by the client before its answer", quiet=True)
        transport.write(data)

    # -- timeouts and closing ----------------------------------------------------------------------

    def _check_idle(self) -> None:
        """Close a connection that sent no request, or did not read its answers, for the idle timeout."""
        self._idle_timer = None
        if self._closing:
            return
        now = self._loop.time()
        idle = self._limits.idle_timeout_s
        if self._write_paused:
            deadline = self._paused_since + idle
        elif self._task is not None or self._delay is not None:
            deadline = now + idle  # a request in hand is not idleness; look again later
        else:
            deadline = self._since + idle
        if deadline <= now:
            self._close(f"idle for {idle:g} s (connections.max.idle.ms)", quiet=True, abort=self._write_paused)
            return
        self._idle_timer = self._loop.call_at(deadline, self._check_idle)

    def _stop_waiting(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._delay is not None:
            self._delay.cancel()
            self._delay = None

    def _close(self, reason: str, quiet: bool, abort: bool = False) -> None:
        """Close for `reason` (one log line unless `quiet`); answers already queued still go out unless
        `abort`."""
        if self._closing:
            return
        self._closing = True
        if not quiet:
            self._log.line(self.session.peer, f"closing {self.session.peer}: {reason}")
        self._stop_waiting()
        self._chunks.clear()
        self._buffered = 0
        transport = self._transport
        if transport is None:
            return
        if self._out and not abort and not transport.is_closing():
            transport.write(b"".join(self._out))
        self._out.clear()
        if abort:
            transport.abort()
        else:
            transport.close()

    def abort(self) -> None:
        """Drop the connection now (the listener is stopping)."""
        self._close("", quiet=True, abort=True)
        if self._transport is not None and not self._transport.is_closing():
            self._transport.abort()
