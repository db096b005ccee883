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
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from dataclasses import dataclass

from groupctl.errors import DecodeError
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.dispatch import HANDLERS, RequestContext, Session, api_keys_body, load_handlers

API_VERSIONS = 18
#: What a client may send before it has authenticated on a SASL listener.
_PRE_AUTH_APIS = frozenset({API_VERSIONS, 17, 36})
UNSUPPORTED_VERSION = 35
#: Set in `Session.extra` (to the reason) by a handler whose answer must be the connection's last.
CLOSE_AFTER_RESPONSE = "close_after_response"


@dataclass(frozen=True)
class Limits:
    """Kafka's `socket.request.max.bytes`, `max.connections` and `connections.max.idle.ms`."""

    max_request_bytes: int = 100 * 1024 * 1024
    max_connections: int = 1000
    idle_timeout_s: float = 600.0


class ConnectionClosed(Exception):
    """The client went away, or sent something that makes the broker hang up."""


async def read_frame(reader: asyncio.StreamReader, limits: Limits) -> bytes:
    try:
        prefix = await asyncio.wait_for(reader.readexactly(framing.SIZE.size), timeout=limits.idle_timeout_s)
        size = framing.frame_size(prefix, limits.max_request_bytes)
        return await asyncio.wait_for(reader.readexactly(size), timeout=limits.idle_timeout_s)
    except (asyncio.IncompleteReadError, TimeoutError, ConnectionError, DecodeError) as exc:
        raise ConnectionClosed(str(exc) or type(exc).__name__) from exc


def unsupported_api_versions_response(correlation_id: int) -> bytes:
    body = {
        "errorCode": UNSUPPORTED_VERSION,
        "apiKeys": api_keys_body(),
    }
    return framing.encode_response(API_VERSIONS, 0, correlation_id, body)


async def respond_to(payload: bytes, broker: Broker, session: Session) -> bytes | None:
    """The response frame for one request frame, None for none (acks=0), or ConnectionClosed."""
    try:
        api_key, api_version, correlation_id = framing.peek_request(payload)
    except DecodeError as exc:
        raise ConnectionClosed(str(exc)) from exc
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
        raise ConnectionClosed(f"malformed request (API {api_key} v{api_version}): {exc}") from exc
    context = RequestContext(broker, session, api_key, api_version, correlation_id, request.client_id)
    body = await registration.handler(context, request.body)
    if body is None:
        return None
    return framing.encode_response(api_key, api_version, correlation_id, body)


async def serve_connection(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, broker: Broker, session: Session, limits: Limits
) -> None:
    """Serve requests until the client leaves or misbehaves; never raises."""
    load_handlers()
    try:
        while True:
            payload = await read_frame(reader, limits)
            try:
                response = await respond_to(payload, broker, session)
            finally:
                broker.after_request()
            if response is not None:
                writer.write(response)
                await asyncio.wait_for(writer.drain(), timeout=limits.idle_timeout_s)
            if CLOSE_AFTER_RESPONSE in session.extra:
                break
    except ConnectionClosed:
        pass
    except (ConnectionError, TimeoutError, asyncio.CancelledError):
        pass
    except Exception as exc:  # a handler bug: drop this client, keep serving the others
        print(f"groupctl serve: closing {session.peer} after an internal error: {exc!r}", file=sys.stderr)
    finally:
        writer.close()
        with contextlib.suppress(TimeoutError, ConnectionError, OSError, asyncio.CancelledError):
            await asyncio.wait_for(writer.wait_closed(), timeout=1.0)
