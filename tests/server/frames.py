"""Raw Kafka frames over a socket, for tests that must see exactly what the server answers."""

from __future__ import annotations

import socket

from groupctl.protocol.messages import framing
from groupctl.server.server import ServerThread

TIMEOUT_S = 10.0


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


def exchange(sock: socket.socket, api_key: int, version: int, body: dict, correlation_id: int = 7) -> dict:
    """Send one request on `sock` and decode its answer."""
    sock.sendall(framing.encode_request(api_key, version, correlation_id, "test", body))
    size = framing.frame_size(read_exactly(sock, 4), 1 << 26)
    response = framing.decode_response(read_exactly(sock, size), api_key, version)
    assert response.correlation_id == correlation_id
    return response.body


def call(served: ServerThread, api_key: int, version: int, body: dict) -> dict:
    """One request on a fresh connection."""
    with connect(served) as sock:
        return exchange(sock, api_key, version, body)


def closed_by_server(sock: socket.socket) -> bool:
    """True when the server has closed the connection (EOF or reset) within the socket timeout."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
