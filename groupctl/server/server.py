"""The listener: accept connections, run the coordinator's timers, shut down cleanly.

`Server` runs on an asyncio loop it is given (the CLI's, or a test's background thread via
`ServerThread`); `stop()` stops accepting, closes every connection, and saves DIR, so everything
the coordinator acknowledged is on disk when it returns. The port is bound before DIR is opened,
so a port already in use leaves DIR untouched (not even created). `serve_until_signalled` is the
CLI's loop: it stops on SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import signal
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from groupctl.errors import GroupctlError
from groupctl.server.broker import Broker, Listener, run_timers
from groupctl.server.connection import Connection, Limits
from groupctl.server.data import partition_store
from groupctl.server.dispatch import Session, load_handlers
from groupctl.server.event_loops import new_event_loop
from groupctl.server.peer_log import PeerLog, to_stderr

if TYPE_CHECKING:
    from groupctl.server.auth import User

#: Connections the kernel queues while DIR loads or the loop is busy (asyncio's default).
_BACKLOG = 100

T = TypeVar("T")


class ListenError(GroupctlError):
    """The listener could not bind its address (nothing in DIR was touched)."""

    def __init__(self, host: str, port: int, error: OSError) -> None:
        hint = ""
        if error.errno == errno.EADDRINUSE:
            hint = ("; another groupctl serve or a Kafka broker may be using it: choose another --port, or --port 0 "
                    "for any free one")
        super().__init__(f"cannot listen on {host}:{port}: {error.strerror or error}{hint}")


@dataclass
class ServerOptions:
    directory: Path
    host: str = "127.0.0.1"
    port: int = 9092
    #: The address clients are told to use; defaults to host:port (the bound port when port is 0).
    advertised_host: str | None = None
    tls: ssl.SSLContext | None = None
    #: SASL mechanisms offered (empty: no SASL); the credentials live in `users`.
    sasl_mechanisms: tuple[str, ...] = ()
    users: dict[str, User] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    #: Broker settings over DIR's saved ones for this run (`--broker-config`), checked by `local_settings`.
    broker_settings: dict[str, int | str] = field(default_factory=dict)


class Server:
    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self.broker: Broker | None = None
        self._server: asyncio.Server | None = None
        self._stop = asyncio.Event()
        #: The connections being served (aborted on stop).
        self._connections: set[Connection] = set()
        self._timers: asyncio.Task[None] | None = None

    @property
    def protocol(self) -> str:
        secure = self.options.tls is not None
        if self.options.sasl_mechanisms:
            return "SASL_SSL" if secure else "SASL_PLAINTEXT"
        return "SSL" if secure else "PLAINTEXT"

    async def start(self) -> Listener:
        """Bind, open DIR, and start serving; returns the listener clients are told about.

        A ListenError means the address could not be bound (DIR untouched); a GroupctlError or
        OSError that DIR could not be opened (for example, another `groupctl serve` holds it).
        """
        load_handlers()
        try:
            server = await asyncio.get_running_loop().create_server(
                self._connection, self.options.host, self.options.port,
                ssl=self.options.tls, reuse_address=True, start_serving=False, backlog=_BACKLOG,
            )
        except OSError as exc:
            raise ListenError(self.options.host, self.options.port, exc) from exc
        _listen_now(server)
        port = server.sockets[0].getsockname()[1]
        listener = Listener(self.options.advertised_host or self.options.host, port, self.protocol)
        try:
            self.broker = Broker.open(self.options, listener)
            # Recover the partition logs now, as a broker does at start-up: the end offsets DIR records
            # (and the lag offline commands show) are right from the first save, not from the first fetch.
            partition_store(self.broker)
            for notice in self.broker.backend.notices:
                to_stderr(f"groupctl serve: note: {notice}")
            changed = _changed_settings(self.broker.backend.broker_settings, self.options.broker_settings)
            if changed:
                to_stderr(f"groupctl serve: note: broker settings: {changed}")
        except BaseException:
            if self.broker is not None:
                self.broker.close()
                self.broker = None
            server.close()
            raise
        self._server = server
        self._timers = asyncio.create_task(run_timers(self.broker, self._stop))
        await server.start_serving()
        return listener

    def _connection(self) -> Connection:
        log = self.broker.log if self.broker is not None else PeerLog()
        return Connection(self, self.options.limits, log)

    def admit(self, connection: Connection, peer: str) -> Session | None:
        """A session for a new connection, or None to refuse it (stopping, or --max-connections reached)."""
        if self._stop.is_set() or self.broker is None:
            return None
        if len(self._connections) >= self.options.limits.max_connections:
            self.broker.log.line(peer, f"refusing a connection from {peer}: "
                                 f"{self.options.limits.max_connections} connections are open (--max-connections)")
            return None
        self._connections.add(connection)
        return Session(peer=peer, listener=self.protocol, authenticated=not self.options.sasl_mechanisms)

    def release(self, connection: Connection) -> None:
        self._connections.discard(connection)

    @property
    def connection_count(self) -> int:
        return len(self._connections)

    async def wait_stopped(self) -> None:
        await self._stop.wait()

    def request_stop(self) -> None:
        self._stop.set()

    async def stop(self) -> None:
        """Stop accepting, close every connection, flush DIR."""
        self._stop.set()
        if self._server is not None:
            self._server.close()
        closing = [connection.closed for connection in self._connections]
        for connection in list(self._connections):
            connection.abort()
        if closing:
            await asyncio.wait(closing, timeout=5.0)
        if self._timers is not None:
            await asyncio.wait([self._timers], timeout=5.0)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), timeout=5.0)
        if self.broker is not None:
            self.broker.log.flush()
            self.broker.close()
            self.broker = None


def _changed_settings(values: dict[str, int | str], given: dict[str, int | str]) -> str:
    """The settings this run differs from Kafka's defaults in, each with where it comes from."""
    from groupctl.backends.local_settings import SETTINGS

    return ", ".join(f"{name}={values[name]} ({'--broker-config' if name in given else 'DIR'})"
                     for name in SETTINGS if name in values and values[name] != SETTINGS[name].default)


def _listen_now(server: asyncio.Server) -> None:
    """Put the bound sockets in the listening state before DIR loads and `serving.json` names them: a
    client that read the file waits in the backlog until serving starts instead of being refused.
    (asyncio's `start_serving=False` leaves them bound but not listening; a dup shares the socket.)"""
    for sock in server.sockets:
        with sock.dup() as same:
            same.listen(_BACKLOG)


async def _serve(server: Server, ready: Callable[[Listener], None]) -> None:
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        loop.add_signal_handler(signum, server.request_stop)
    try:
        try:
            ready(await server.start())
        except BaseException:
            await server.stop()
            raise
        await server.wait_stopped()
        await server.stop()
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)


def serve_until_signalled(options: ServerOptions, ready: Callable[[Listener], None]) -> None:
    """Serve on this thread until SIGINT or SIGTERM, then shut down and save DIR.

    `ready(listener)` is called once the port is bound and DIR is open. SIGPIPE is ignored meanwhile
    (the CLI restores its default action for `| head`): a client that closes while its answer is
    being written must cost the server that connection (EPIPE), not the process.
    """
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN) if hasattr(signal, "SIGPIPE") else None
    try:
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            runner.run(_serve(Server(options), ready))
    finally:
        if previous is not None:
            signal.signal(signal.SIGPIPE, previous)


class ServerThread:
    """A server on its own event loop in a background thread (tests, benchmarks, the demo).

    `start()` returns the listener; `stop()` shuts down and joins, bounded by `timeout_s`.
    `call(fn)` runs `fn(broker)` on the server's loop, for tests that look inside.
    """

    def __init__(self, options: ServerOptions, timeout_s: float = 10.0, loop: str | None = None) -> None:
        self.server = Server(options)
        self.timeout_s = timeout_s
        #: uvloop's when installed, unless `loop` (or $GROUPCTL_EVENT_LOOP) says "asyncio" (see event_loops).
        self.loop = new_event_loop(loop)
        self._thread = threading.Thread(target=self.loop.run_forever, name="groupctl-serve", daemon=True)
        self.listener: Listener | None = None

    def start(self) -> Listener:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self.server.start(), self.loop)
        try:
            self.listener = future.result(self.timeout_s)
        except BaseException:
            self._shutdown_loop()
            raise
        return self.listener

    @property
    def bootstrap(self) -> str:
        assert self.listener is not None
        return f"{self.listener.host}:{self.listener.port}"

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(broker, *args)` on the server's loop, from another thread; its result."""

        async def run() -> T:
            return fn(self.server.broker, *args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(self.timeout_s)

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(self.timeout_s)
        finally:
            self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(self.timeout_s)
        if not self._thread.is_alive():
            self.loop.close()

    def __enter__(self) -> ServerThread:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
