"""Bad clients and limits: each bad connection is answered or closed, and a healthy client is served throughout."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from groupctl.protocol.messages import framing
from groupctl.server.connection import Limits
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.frames import closed_by_server, connect, exchange, read_exactly
from tests.server.waits import wait_until

API_VERSIONS_V3 = {"clientSoftwareName": "healthy", "clientSoftwareVersion": "1"}


def raw_request(api_key: int, version: int, correlation_id: int = 5, body: bytes = b"") -> bytes:
    """A v1 request header (int16 client id) for any key and version, schema or not, then `body`."""
    head = struct.pack(">hhih", api_key, version, correlation_id, 1) + b"t"
    return framing.frame(head + body)


@pytest.fixture
def healthy(served: ServerThread) -> Iterator[socket.socket]:
    """A well-behaved client connected before the bad one, checked after it."""
    with connect(served) as sock:
        assert exchange(sock, 18, 3, API_VERSIONS_V3, 1)["errorCode"] == 0
        yield sock
        assert exchange(sock, 3, 12, {"topics": None}, 2)["brokers"][0]["nodeId"] == 1
    with connect(served) as fresh:
        assert exchange(fresh, 18, 3, API_VERSIONS_V3, 3)["errorCode"] == 0


@pytest.mark.parametrize("garbage", [
    b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
    struct.pack(">i", 3) + b"\x00\x01\x02",
    struct.pack(">i", 9) + b"\xff" * 9,
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
])
def test_garbage_closes_only_that_connection(served: ServerThread, healthy: socket.socket, garbage: bytes) -> None:
    with connect(served) as bad:
        bad.sendall(garbage)
        assert closed_by_server(bad)


def test_a_2gb_length_prefix_is_refused_without_waiting_for_it(served: ServerThread, healthy: socket.socket) -> None:
    with connect(served) as bad:
        bad.sendall(struct.pack(">i", 2**31 - 1) + b"\x00\x12")
        started = time.monotonic()
        assert closed_by_server(bad)
        assert time.monotonic() - started < 5


def test_a_request_cut_off_midway_closes_when_the_client_half_closes(served: ServerThread,
                                                                      healthy: socket.socket) -> None:
    frame = framing.encode_request(3, 12, 9, "cut", {"topics": None})
    with connect(served) as bad:
        bad.sendall(frame[: len(frame) // 2])
        bad.shutdown(socket.SHUT_WR)
        assert closed_by_server(bad)


def test_an_unknown_api_key_closes_the_connection(served: ServerThread, healthy: socket.socket) -> None:
    with connect(served) as bad:
        bad.sendall(raw_request(9999, 0))
        assert closed_by_server(bad)


def test_an_unsupported_api_versions_version_is_answered_with_v0(served: ServerThread,
                                                                  healthy: socket.socket) -> None:
    with connect(served) as client:
        client.sendall(raw_request(18, 99, correlation_id=41))
        size = framing.frame_size(read_exactly(client, 4), 1 << 20)
        answer = framing.decode_response(read_exactly(client, size), 18, 0)
        assert answer.correlation_id == 41
        assert answer.body["errorCode"] == 35
        versions = {k["apiKey"]: (k["minVersion"], k["maxVersion"]) for k in answer.body["apiKeys"]}
        assert versions[18] == (0, 4)
        assert exchange(client, 18, 0, {}, 42)["errorCode"] == 0


def test_an_unsupported_version_of_another_api_closes(served: ServerThread, healthy: socket.socket) -> None:
    with connect(served) as bad:
        bad.sendall(raw_request(3, 99))
        assert closed_by_server(bad)


def test_a_body_that_does_not_decode_closes(served: ServerThread, healthy: socket.socket) -> None:
    with connect(served) as bad:
        bad.sendall(raw_request(19, 4, body=b"\x00\x00\x00\x05short"))
        assert closed_by_server(bad)


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ServerThread]:
    limits = Limits(max_request_bytes=4096, max_connections=2, idle_timeout_s=1.0)
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0, limits=limits))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_max_connections_is_enforced_and_frees_up(limited: ServerThread) -> None:
    first, second = connect(limited), connect(limited)
    try:
        for n, sock in enumerate((first, second)):
            assert exchange(sock, 18, 3, API_VERSIONS_V3, n)["errorCode"] == 0
        with connect(limited) as third:
            assert closed_by_server(third)
        assert exchange(first, 18, 3, API_VERSIONS_V3, 9)["errorCode"] == 0
    finally:
        second.close()
    wait_until(lambda: limited.server.connection_count <= 1, "the server lets go of the closed connection", 5)
    with connect(limited) as again:
        assert exchange(again, 18, 3, API_VERSIONS_V3, 10)["errorCode"] == 0
    first.close()


def test_a_request_over_max_request_bytes_closes(limited: ServerThread) -> None:
    topics = [{"name": f"t{i:05d}"} for i in range(400)]
    with connect(limited) as big:
        big.sendall(framing.encode_request(3, 12, 1, "big", {"topics": topics}))
        assert closed_by_server(big)
    with connect(limited) as small:
        assert exchange(small, 3, 12, {"topics": topics[:5]}, 2)["topics"][0]["errorCode"] == 3


def test_an_idle_connection_is_closed(limited: ServerThread) -> None:
    with connect(limited) as idle:
        assert exchange(idle, 18, 3, API_VERSIONS_V3, 1)["errorCode"] == 0
        started = time.monotonic()
        assert closed_by_server(idle)
        assert 0.5 < time.monotonic() - started < 5


def test_stop_closes_open_connections_and_saves(tmp_path: Path) -> None:
    served = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    served.start()
    served.call(lambda b: b.backend.create_topic("orders", 1))
    with connect(served) as open_client:
        assert exchange(open_client, 18, 3, API_VERSIONS_V3, 1)["errorCode"] == 0
        started = time.monotonic()
        served.stop()
        assert time.monotonic() - started < 5
        assert closed_by_server(open_client)
    assert "orders" in (tmp_path / "cluster" / "topics.json").read_text()
    assert not (tmp_path / "cluster" / "serving.json").exists()


def test_a_port_in_use_leaves_the_directory_untouched(tmp_path: Path, served: ServerThread) -> None:
    from groupctl.server.server import ListenError

    port = int(served.bootstrap.rsplit(":", 1)[1])
    second = ServerThread(ServerOptions(tmp_path / "second", port=port))
    with pytest.raises(ListenError, match=f"cannot listen on 127.0.0.1:{port}: .*choose another --port"):
        second.start()
    assert not (tmp_path / "second").exists()
