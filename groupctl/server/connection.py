"""One client connection: read a frame, answer it, read the next.

Like a Kafka broker, the listener handles a connection's requests one at a time (a broker mutes the
channel while a request is in flight), so responses leave in request order and a JoinGroup that
waits for the rebalance holds that connection only. Bad input never reaches a handler: a size
prefix over the limit, a header that does not parse, an unknown API key, or an unsupported version
of anything but ApiVersions closes the connection, as Kafka does; ApiVersions of an unknown version
gets a v0 answer with UNSUPPORTED_VERSION and the versions served, so the client can retry lower.
A handler may also ask for the connection to be closed once its answer is out (a failed SASL
exchange, as a broker's authenticator does), and a client that stops reading its answers is
dropped after the idle timeout rather than holding its handler forever.

A client may vanish at any moment (reset, half-close, close while its answer is being written):
that ends its own connection and nothing else. Before a SASL client has authenticated, a frame
over Kafka's `sasl.server.max.receive.size` is refused from its size prefix alone, so unauthenticated
peers cannot make the server buffer large bodies; a failed authentication is answered only after
Kafka's `connection.failed.authentication.delay.ms`, without holding up other connections. Each
connection dropped for cause (garbage, an oversized prefix, a malformed request) is one
rate-limited line on stderr. Errors are turned into reason strings and raised outside the `except`
clause, never chained: a chained exception's traceback keeps the frame, and with it the buffered
bytes of an abandoned frame, alive in a reference cycle until the garbage collector runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from groupctl.errors import DecodeError
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.dispatch import HANDLERS, RequestContext, Session, api_keys_body, load_handlers
from groupctl.server.peer_log import PeerLog

API_VERSIONS = 18
#: What a client may send before it has authenticated on a SASL listener.
_PRE_AUTH_APIS = frozenset({API_VERSIONS, 17, 36})
UNSUPPORTED_VERSION = 35
#: Set in `Session.extra` (to the reason) by a handler whose answer must be the connection's last.
CLOSE_AFTER_RESPONSE = "close_after_response"
#: Kafka's `sasl.server.max.receive.size` default: the largest frame read before authentication.
SASL_MAX_RECEIVE_SIZE = 524288


@dataclass(frozen=True)
class Limits:
    """Kafka's `socket.request.max.bytes`, `max.connections`, `connections.max.idle.ms`,
    `sasl.server.max.receive.size` and `connection.failed.authentication.delay.ms`."""

    max_request_bytes: int = 100 * 1024 * 1024
    max_connections: int = 1000
    idle_timeout_s: float = 600.0
    max_pre_auth_bytes: int = SASL_MAX_RECEIVE_SIZE
    failed_auth_delay_s: float = 0.1


class WatchedReader(asyncio.StreamReader):
    """A stream reader that says when the client has gone (end of stream, reset), even while no read is
    waiting: a request parked in a handler (a long-poll Fetch, a JoinGroup waiting for the rebalance)
    is then abandoned at once instead of holding the connection until its answer is due."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit=limit)
        #: Done once the client has gone; made in the loop that serves the connection.
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def feed_eof(self) -> None:
        super().feed_eof()
        self._went()

    def set_exception(self, exc: BaseException) -> None:
        super().set_exception(exc)
        self._went()

    def _went(self) -> None:
        if not self.gone.done():
            self.gone.set_result(None)


def stream_protocol(callback: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
                    limit: int) -> asyncio.StreamReaderProtocol:
    """What `asyncio.start_server` builds for each connection, with a `WatchedReader`."""
    return asyncio.StreamReaderProtocol(WatchedReader(limit), callback)


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


async def _read_exactly(reader: asyncio.StreamReader, n: int, timeout_s: float, what: str) -> bytes:
    reason = ""
    try:
        async with asyncio.timeout(timeout_s):
            return await reader.readexactly(n)
    except asyncio.IncompleteReadError as exc:
        got = len(exc.partial)
        reason = "closed by the client" if got == 0 and what == "size prefix" else (
            f"closed by the client after {got} of the {n} bytes of a {what}")
    except TimeoutError:
        reason = f"idle for {timeout_s:g} s (connections.max.idle.ms)"
    except (ConnectionError, OSError) as exc:
        reason = f"connection lost: {exc.strerror or type(exc).__name__}"
        _forget_frames(exc)
    raise ConnectionClosed(reason, quiet=True)


async def read_frame(reader: asyncio.StreamReader, limits: Limits, authenticated: bool = True) -> bytes:
    """The next request frame; before authentication a size over `max_pre_auth_bytes` is refused
    from its prefix alone, before any of the body is buffered."""
    prefix = await _read_exactly(reader, framing.SIZE.size, limits.idle_timeout_s, "size prefix")
    (size,) = framing.SIZE.unpack(prefix)
    limit = limits.max_request_bytes if authenticated else min(limits.max_pre_auth_bytes, limits.max_request_bytes)
    if size < 0 or size > limit:
        what = "--max-request-bytes" if authenticated else "the limit before SASL authentication"
        raise ConnectionClosed(f"size prefix {size} is over {what} ({limit}){_looks_like(prefix)}")
    return await _read_exactly(reader, size, limits.idle_timeout_s, "request")


def unsupported_api_versions_response(correlation_id: int) -> bytes:
    body = {
        "errorCode": UNSUPPORTED_VERSION,
        "apiKeys": api_keys_body(),
    }
    return framing.encode_response(API_VERSIONS, 0, correlation_id, body)


async def respond_to(payload: bytes, broker: Broker, session: Session) -> bytes | None:
    """The response frame for one request frame, None for none (acks=0), or ConnectionClosed."""
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
            return unsupported_api_versions_response(correlation_id)
        raise ConnectionClosed(f"unsupported request: API {api_key} version {api_version}")
    if not session.authenticated and api_key not in _PRE_AUTH_APIS:
        raise ConnectionClosed(f"API {api_key} sent before SASL authentication completed")
    try:
        request = framing.decode_request(payload)
    except DecodeError as exc:
        reason = f"malformed request (API {api_key} v{api_version}): {exc}"
    if reason:
        raise ConnectionClosed(reason)
    context = RequestContext(broker, session, api_key, api_version, correlation_id, request.client_id)
    body = await registration.handler(context, request.body)
    if body is None:
        return None
    return framing.encode_response(api_key, api_version, correlation_id, body)


async def serve_connection(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, broker: Broker, session: Session, limits: Limits,
    log: PeerLog | None = None,
) -> None:
    """Serve requests until the client leaves or misbehaves; never raises."""
    load_handlers()
    log = log if log is not None else PeerLog()
    try:
        await _serve(reader, writer, broker, session, limits)
    except ConnectionClosed as closed:
        if not closed.quiet:
            log.line(session.peer, f"closing {session.peer}: {closed.reason}")
    except (ConnectionError, OSError, TimeoutError, asyncio.CancelledError) as exc:
        _forget_frames(exc)
    except Exception as exc:  # a handler bug: drop this client, keep serving the others
        log.line(session.peer, f"closing {session.peer} after an internal error: {type(exc).__name__}: {exc}")
        _forget_frames(exc)
    finally:
        writer.close()
        try:
            async with asyncio.timeout(1.0):
                await writer.wait_closed()
        except (TimeoutError, ConnectionError, OSError, asyncio.CancelledError) as exc:
            _forget_frames(exc)


def _forget_frames(exc: BaseException) -> None:
    """Drop `exc`'s traceback. The stream keeps a connection-lost exception to raise again (from reads,
    drain and wait_closed); its traceback holds the frames that hold the stream: a reference cycle
    that would keep an abandoned frame's buffered bytes alive until the garbage collector runs."""
    exc.__traceback__ = None


async def _serve(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, broker: Broker, session: Session, limits: Limits
) -> None:
    while True:
        payload = await read_frame(reader, limits, session.authenticated)
        try:
            response = await _unless_gone(respond_to(payload, broker, session), reader)
        finally:
            broker.after_request()
        del payload
        closing = CLOSE_AFTER_RESPONSE in session.extra
        if closing and not session.authenticated:
            await asyncio.sleep(limits.failed_auth_delay_s)
        if response is not None:
            if writer.transport.is_closing():
                raise ConnectionClosed("closed by the client before its answer", quiet=True)
            writer.write(response)
            del response
            async with asyncio.timeout(limits.idle_timeout_s):
                await writer.drain()
        if closing:
            return


async def _unless_gone(answer: Coroutine[Any, Any, bytes | None], reader: asyncio.StreamReader) -> bytes | None:
    """`answer`, or ConnectionClosed as soon as the client goes away while it is pending (its handler
    is cancelled; a parked JoinGroup or Fetch gives its answer to no one, as on a broker).

    A request the client sent before it closed is still carried out as far as it goes without waiting
    (an acks=0 Produce, an OffsetCommit), as a broker processes the requests it had received.
    A handler's exception is raised with the task let go first: the task holds the exception, whose
    traceback would hold this frame and so the task, a cycle keeping the request's bytes alive."""
    if not isinstance(reader, WatchedReader):
        return await answer
    handler = asyncio.ensure_future(answer)
    try:
        if reader.gone.done():
            await asyncio.sleep(0)
        else:
            await asyncio.wait((handler, reader.gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        abandoned = not handler.done()
        if abandoned:
            handler.cancel()
    if abandoned:
        raise ConnectionClosed("closed by the client while its request was pending", quiet=True)
    error = handler.exception()
    result = None if error is not None else handler.result()
    del handler
    if error is None:
        return result
    try:
        raise error
    finally:
        del error
