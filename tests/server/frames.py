"""Raw Kafka frames over a socket, for tests that must see exactly what the server answers."""

from __future__ import annotations

import socket
from types import TracebackType
from typing import Any

from groupctl.protocol.messages import API_SCHEMAS, framing
from groupctl.server.server import ServerThread
from tests.server.waits import WAIT_S

TIMEOUT_S = WAIT_S  # every socket read: only a server that never answers gets this far
MAX_FRAME = 1 << 26  # a larger size prefix is a broken answer, not one to wait for


def connect(served: ServerThread) -> socket.socket:
    host, port = served.bootstrap.rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=TIMEOUT_S)


def read_exactly(sock: socket.socket, n: int) -> bytes:
    """`n` bytes, or AssertionError when the server closes first."""
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        assert chunk, "connection closed"
        out += chunk
    return out


def read_answer(sock: socket.socket, api_key: int, version: int, correlation_id: int) -> Any:
    """The next answer on `sock`, decoded as its generated class; it must be the one to `correlation_id`
    (answers come in order)."""
    size = framing.frame_size(read_exactly(sock, 4), MAX_FRAME)
    response = framing.decode_response(read_exactly(sock, size), api_key, version)
    assert response.correlation_id == correlation_id
    return response.body


def exchange(sock: socket.socket, api_key: int, version: int, body: Any, correlation_id: int = 7) -> Any:
    """Send one request on `sock` and decode its answer."""
    sock.sendall(framing.encode_request(api_key, version, correlation_id, "test", body))
    return read_answer(sock, api_key, version, correlation_id)


def call(served: ServerThread, api_key: int, version: int, body: Any) -> Any:
    """One request on a fresh connection."""
    with connect(served) as sock:
        return exchange(sock, api_key, version, body)


def carried(api_key: int, version: int, body: Any) -> dict[str, Any]:
    """A response of an API that travels as a generated class, as the dict of the fields `version` carries
    (the schema decoder's view of the same bytes), for tests that check which fields a version has."""
    response = API_SCHEMAS[api_key][1]
    return response.decode(response.write(body, version), version)


def typed(api_key: int, body: dict[str, Any]) -> Any:
    """An API's generated request class from Kafka's JSON names (the schema decoder's dict), for tests
    that spell a request's fields per version as the wire names them."""
    return API_SCHEMAS[api_key][0].data_class.from_dict(body)


def closed_by_server(sock: socket.socket) -> bool:
    """True when the server has closed the connection (EOF or reset) within the socket timeout."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


class Wire:
    """One client connection kept open, as a real client keeps it: a request may be sent now and its answer
    read later (a parked JoinGroup, a long-poll Fetch), and answers must come in the order asked."""

    def __init__(self, served: ServerThread, client_id: str = "test") -> None:
        self.sock = connect(served)
        self.client_id = client_id
        self.correlation_id = 0
        self.unanswered: list[tuple[int, int, int]] = []

    def send(self, api_key: int, version: int, body: Any, answered: bool = True) -> None:
        """Send a request; `answered=False` for one the server must not answer (Produce with acks=0)."""
        self.correlation_id += 1
        self.sock.sendall(framing.encode_request(api_key, version, self.correlation_id, self.client_id, body))
        if answered:
            self.unanswered.append((api_key, version, self.correlation_id))

    def receive(self) -> Any:
        """The answer to the oldest request sent and not yet answered."""
        api_key, version, correlation_id = self.unanswered.pop(0)
        return read_answer(self.sock, api_key, version, correlation_id)

    def call(self, api_key: int, version: int, body: Any) -> Any:
        self.send(api_key, version, body)
        return self.receive()

    def send_carried(self, api_key: int, version: int, body: dict[str, Any]) -> None:
        """`send` of a request spelled in Kafka's JSON names (`typed`)."""
        self.send(api_key, version, typed(api_key, body))

    def receive_carried(self) -> dict[str, Any]:
        """`receive`, the answer as the dict of the fields its version carries (`carried`)."""
        api_key, version, _ = self.unanswered[0]
        return carried(api_key, version, self.receive())

    def call_carried(self, api_key: int, version: int, body: dict[str, Any]) -> dict[str, Any]:
        """`call` for a request and answer spelled in Kafka's JSON names, field by field as `version` carries them."""
        self.send_carried(api_key, version, body)
        return self.receive_carried()

    def waiting(self, seconds: float) -> bool:
        """True when no answer arrives within `seconds` (the request is parked)."""
        self.sock.settimeout(seconds)
        try:
            return not self.sock.recv(1, socket.MSG_PEEK)
        except TimeoutError:
            return True
        finally:
            self.sock.settimeout(TIMEOUT_S)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Wire:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
