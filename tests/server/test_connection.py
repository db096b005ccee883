"""Bad clients and limits: each bad connection is answered or closed, and a healthy client is served throughout."""

from __future__ import annotations

import contextlib
import gc
import socket
import struct
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.auth import SaslAuthenticateRequestData, SaslHandshakeRequestData
from groupctl.protocol.data.metadata import MetadataRequestData, MetadataRequestTopic
from groupctl.protocol.messages import API_SCHEMAS, framing
from groupctl.protocol.schema import Field, default_value
from groupctl.sasl import plain_initial_response
from groupctl.server import event_loops
from groupctl.server.auth import User
from groupctl.server.connection import SASL_MAX_RECEIVE_SIZE, Limits
from groupctl.server.dispatch import supported_versions
from groupctl.server.peer_log import PeerLog
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.frames import (
    TIMEOUT_S,
    Wire,
    call,
    closed_by_server,
    connect,
    exchange,
    read_answer,
    read_exactly,
)
from tests.server.test_data import batch, fetch_body, list_offsets, produce_body
from tests.server.test_groups import TOPIC, join_body, joined_static, stable_static_member, sync_body
from tests.server.waits import OUTLASTS_S, wait_until

API_VERSIONS_V3 = ApiVersionsRequestData(client_software_name="healthy", client_software_version="1")
ALL_TOPICS = MetadataRequestData(topics=None)


def raw_request(api_key: int, version: int, correlation_id: int = 5, body: bytes = b"") -> bytes:
    """A v1 request header (int16 client id) for any key and version, schema or not, then `body`."""
    head = struct.pack(">hhih", api_key, version, correlation_id, 1) + b"t"
    return framing.frame(head + body)


@pytest.fixture
def healthy(served: ServerThread) -> Iterator[socket.socket]:
    """A well-behaved client connected before the bad one, checked after it."""
    with connect(served) as sock:
        assert exchange(sock, 18, 3, API_VERSIONS_V3, 1).error_code == 0
        yield sock
        assert exchange(sock, 3, 12, ALL_TOPICS, 2).brokers[0].node_id == 1
    with connect(served) as fresh:
        assert exchange(fresh, 18, 3, API_VERSIONS_V3, 3).error_code == 0


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
        assert closed_by_server(bad)  # a server waiting for the 2 GB would leave the read to time out


def test_a_request_cut_off_midway_closes_when_the_client_half_closes(served: ServerThread,
                                                                      healthy: socket.socket) -> None:
    frame = framing.encode_request(3, 12, 9, "cut", ALL_TOPICS)
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
        assert answer.body.error_code == 35
        versions = {k.api_key: (k.min_version, k.max_version) for k in answer.body.api_keys}
        assert versions[18] == (0, 4)
        assert exchange(client, 18, 0, ApiVersionsRequestData(), 42).error_code == 0


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
            assert exchange(sock, 18, 3, API_VERSIONS_V3, n).error_code == 0
        with connect(limited) as third:
            assert closed_by_server(third)
        assert exchange(first, 18, 3, API_VERSIONS_V3, 9).error_code == 0
    finally:
        second.close()
    wait_until(lambda: limited.server.connection_count <= 1, "the server lets go of the closed connection")
    with connect(limited) as again:
        assert exchange(again, 18, 3, API_VERSIONS_V3, 10).error_code == 0
    first.close()


def test_a_request_over_max_request_bytes_closes(limited: ServerThread) -> None:
    topics = [MetadataRequestTopic(name=f"t{i:05d}") for i in range(400)]
    with connect(limited) as big:
        big.sendall(framing.encode_request(3, 12, 1, "big", MetadataRequestData(topics=topics)))
        assert closed_by_server(big)
    with connect(limited) as small:
        assert exchange(small, 3, 12, MetadataRequestData(topics=topics[:5]), 2).topics[0].error_code == 3


def test_an_idle_connection_is_closed(limited: ServerThread) -> None:
    with connect(limited) as idle:
        assert exchange(idle, 18, 3, API_VERSIONS_V3, 1).error_code == 0
        started = time.monotonic()
        assert closed_by_server(idle)  # within the socket timeout (WAIT_S), far past the idle timeout (1 s)
        assert time.monotonic() - started >= 0.5  # not before its idle timeout


def test_stop_closes_open_connections_and_saves(tmp_path: Path) -> None:
    served = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    served.start()
    served.call(lambda b: b.backend.create_topic("orders", 1))
    with connect(served) as open_client:
        assert exchange(open_client, 18, 3, API_VERSIONS_V3, 1).error_code == 0
        served.stop()  # bounded by the thread's own timeout: a stop that hung would raise
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


def test_a_client_that_connects_while_dir_loads_waits_and_is_answered(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """serving.json names the port before DIR has loaded: a client that read it is queued, not refused."""
    import json
    import threading

    from groupctl.server import server as server_module

    loading, release = threading.Event(), threading.Event()

    def slow_recovery(broker):  # type: ignore[no-untyped-def]
        loading.set()
        assert release.wait(TIMEOUT_S)
        return recover(broker)

    recover = server_module.partition_store
    monkeypatch.setattr(server_module, "partition_store", slow_recovery)
    served = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    starting = threading.Thread(target=served.start, daemon=True)
    starting.start()
    try:
        assert loading.wait(TIMEOUT_S)
        bootstrap = json.loads((tmp_path / "cluster" / "serving.json").read_text())["bootstrap"]
        host, port = bootstrap.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=TIMEOUT_S) as early:
            early.sendall(framing.encode_request(18, 3, 1, "early", API_VERSIONS_V3))
            release.set()
            assert read_answer(early, 18, 3, 1).error_code == 0
    finally:
        release.set()
        starting.join(TIMEOUT_S)
        served.stop()


# -- clients that vanish, unauthenticated memory, what the log says ------------------------------------------------

def _reset(sock: socket.socket) -> None:
    """Close with an RST (SO_LINGER 0), as a killed client's kernel does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _traced_bytes() -> int:
    return tracemalloc.get_traced_memory()[0]


def _assert_freed(baseline: int) -> None:
    """No more than 2 MB traced beyond `baseline`, once the closed transports' last callbacks have run on the
    server's loop (waited for, bounded)."""
    with contextlib.suppress(AssertionError):
        wait_until(lambda: _traced_bytes() - baseline < 2 << 20, "the closed connections' buffers are freed")
    assert _traced_bytes() - baseline < 2 << 20, f"{(_traced_bytes() - baseline) >> 20} MB still held"


@pytest.fixture
def no_gc() -> Iterator[None]:
    """Memory traced and the cycle collector off: what is freed is freed by reference counting alone."""
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()
        gc.enable()


def test_abandoned_partial_frames_are_freed_without_the_garbage_collector(
    served: ServerThread, healthy: socket.socket, no_gc: None
) -> None:
    chunk = b"\0" * (1 << 20)
    baseline = _traced_bytes()
    for n in range(12):
        bad = connect(served)
        bad.sendall(struct.pack(">i", 8 << 20) + chunk * 3)
        if n % 3 == 0:
            _reset(bad)
        elif n % 3 == 1:
            bad.shutdown(socket.SHUT_WR)
            assert closed_by_server(bad)
            bad.close()
        else:
            bad.close()
    wait_until(lambda: served.server.connection_count == 1, "the server lets go of the abandoned connections")
    _assert_freed(baseline)


def test_malformed_large_requests_are_freed_without_the_garbage_collector(
    served: ServerThread, healthy: socket.socket, no_gc: None
) -> None:
    garbage = raw_request(19, 4, body=b"\xff" * (4 << 20))
    baseline = _traced_bytes()
    for _ in range(8):
        with connect(served) as bad:
            bad.sendall(garbage)
            assert closed_by_server(bad)
    wait_until(lambda: served.server.connection_count == 1, "the server lets go of the malformed requests")
    _assert_freed(baseline)


@pytest.fixture
def sasl(tmp_path: Path) -> Iterator[ServerThread]:
    users = {"alice": User("alice", "secret")}
    server = ServerThread(ServerOptions(tmp_path / "sasl", port=0, sasl_mechanisms=("PLAIN",), users=users))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_before_authentication_a_frame_over_sasl_max_receive_size_is_refused_from_its_prefix(
    sasl: ServerThread, no_gc: None
) -> None:
    baseline = _traced_bytes()
    bad = [connect(sasl) for _ in range(6)]
    for sock in bad:
        sock.sendall(struct.pack(">i", 100 << 20))
    for sock in bad:
        assert closed_by_server(sock)  # from the prefix alone: the 100 MB it announces never comes
        with contextlib.suppress(OSError):
            sock.sendall(b"\0" * (1 << 20))
        sock.close()
    assert _traced_bytes() - baseline < 2 << 20
    with connect(sasl) as just_over:
        assert exchange(just_over, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN"), 1).error_code == 0
        too_big = SaslAuthenticateRequestData(auth_bytes=b"\0" * SASL_MAX_RECEIVE_SIZE)
        just_over.sendall(framing.encode_request(36, 2, 2, "t", too_big))
        assert closed_by_server(just_over)


def test_after_authentication_large_requests_are_served(sasl: ServerThread) -> None:
    topics = [MetadataRequestTopic(name=f"{'t' * 200}{i:05d}") for i in range(3000)]
    with connect(sasl) as client:
        assert exchange(client, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN"), 1).error_code == 0
        token = SaslAuthenticateRequestData(auth_bytes=plain_initial_response("alice", "secret"))
        assert exchange(client, 36, 2, token, 2).error_code == 0
        request = framing.encode_request(3, 12, 3, "big", MetadataRequestData(topics=topics))
        assert len(request) > SASL_MAX_RECEIVE_SIZE
        client.sendall(request)
        assert len(read_answer(client, 3, 12, 3).topics) == 3000


@pytest.fixture
def log_lines(served: ServerThread) -> list[str]:
    """What the server writes to stderr about its peers from now on."""
    lines: list[str] = []
    served.call(lambda broker: setattr(broker.log, "write", lines.append))
    return lines


def test_garbage_oversized_and_malformed_each_log_one_line_naming_the_peer(
    served: ServerThread, healthy: socket.socket, log_lines: list[str]
) -> None:
    cases = [
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "size prefix 1195725856 is over --max-request-bytes (104857600) "
         "(an HTTP request: this is a Kafka listener)"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "(a TLS handshake: the client uses SSL"),
        (raw_request(19, 4, body=b"\x00\x00\x00\x05short"), "malformed request (API 19 v4)"),
        (raw_request(9999, 0), "unsupported request: API 9999 version 0"),
        (struct.pack(">i", 3) + b"\x00\x01\x02", "unreadable request header"),
    ]
    for garbage, reason in cases:
        with connect(served) as bad:
            port = bad.getsockname()[1]
            bad.sendall(garbage)
            assert closed_by_server(bad)
        wait_until(lambda: len(log_lines) == 1, f"one line about {garbage[:8]!r}", 5)
        (line,) = log_lines
        assert line.startswith(f"groupctl serve: closing 127.0.0.1:{port}: ") and reason in line, line
        log_lines.clear()


def test_clients_that_just_leave_log_nothing(served: ServerThread, healthy: socket.socket,
                                             log_lines: list[str]) -> None:
    frame = framing.encode_request(3, 12, 9, "cut", ALL_TOPICS)
    for n in range(6):
        with connect(served) as client:
            client.sendall(frame[: n * 7])
            if n % 2:
                _reset(client)
    wait_until(lambda: served.server.connection_count == 1, "the clients are gone", 5)
    assert log_lines == []


def test_one_retrying_client_cannot_fill_the_log(served: ServerThread, healthy: socket.socket,
                                                 log_lines: list[str]) -> None:
    for _ in range(40):
        with connect(served) as bad:
            bad.sendall(b"GET / HTTP/1.1\r\n\r\n")
            assert closed_by_server(bad)
    wait_until(lambda: served.server.connection_count == 1, "the clients are gone", 5)
    assert len(log_lines) == PeerLog().per_interval
    served.call(lambda broker: broker.log.flush())
    assert log_lines[-1] == f"groupctl serve: {40 - PeerLog().per_interval} more lines about 127.0.0.1 suppressed"


def _body(fields: tuple[Field, ...], version: int, shape: str, depth: int = 0) -> dict:
    """A request body the schema accepts: every struct array with one element (two for "twice"), and every
    nullable field nested in them null ("nulls"), or strings empty ("empty")."""
    out: dict = {}
    for f in fields:
        if not f.present(version):
            continue
        if f.nullable_at(version) and shape == "nulls" and depth > 0:
            out[f.json_name] = None
        elif f.is_struct_array:
            element = _body(f.fields or (), version, shape, depth + 1)
            out[f.json_name] = [element, element] if shape == "twice" else [element]
        elif f.is_struct:
            out[f.json_name] = _body(f.fields or (), version, shape, depth + 1)
        elif f.type == "string":
            out[f.json_name] = "" if shape == "empty" else "orders"
        else:
            out[f.json_name] = default_value(f, version)
    return out


def test_every_request_that_decodes_is_answered(served: ServerThread, log_lines: list[str]) -> None:
    served.call(lambda b: b.backend.create_topic("orders", 2))
    unanswered = []
    for api_key, versions in supported_versions().items():
        if api_key in (0, 17, 36):  # Produce may be acks=0 (no answer); SASL needs a SASL listener
            continue
        for version in versions:
            for shape in ("nulls", "twice", "empty"):
                request = API_SCHEMAS[api_key][0]
                body = request.data_class.from_dict(_body(request.fields, version, shape))
                with connect(served) as sock:
                    try:
                        exchange(sock, api_key, version, body, 1)
                    except (AssertionError, OSError) as exc:
                        unanswered.append((api_key, version, shape, str(exc), log_lines[-1:]))
    assert unanswered == []
    assert not [line for line in log_lines if "internal error" in line]


HOLD_MS = int(OUTLASTS_S * 1000)
"""How long a parked request would hold its connection: longer than a test waits for anything."""


def _park(served: ServerThread, what: str, leader: Wire, parked: Wire) -> None:
    """Leave `parked` with a request the server holds for HOLD_MS: a long-poll Fetch, a JoinGroup waiting for
    the rebalance, or a follower's SyncGroup waiting for the leader's assignment."""
    served.call(lambda b: setattr(b.coordinator.classic, "initial_delay_ms", 0))
    served.call(lambda b: b.backend.create_topic(TOPIC, 4))
    if what == "fetch":
        parked.send(1, 12, fetch_body(0, topic=TOPIC, max_wait_ms=HOLD_MS, min_bytes=1))
        assert parked.waiting(0.3)
        return
    held = {"session_ms": HOLD_MS, "rebalance_ms": HOLD_MS}
    first = stable_static_member(leader, **held)
    parked.send_carried(11, 9, join_body("g", instance="pod-b", **held))
    wait_until(lambda: served.call(joined_static("pod-b")), "the server has pod-b's join")  # before pod-a rejoins
    assert parked.waiting(0.3)
    if what == "join":
        return
    rejoined = leader.call_carried(11, 9, join_body("g", first["memberId"], "pod-a", **held))
    joined = parked.receive_carried()
    assert (rejoined["errorCode"], joined["errorCode"]) == (0, 0)
    parked.send_carried(14, 5, sync_body("g", joined, "pod-b"))
    assert parked.waiting(0.3)


@pytest.mark.parametrize("close", ["fin", "rst"])
@pytest.mark.parametrize("what", ["fetch", "join", "sync"])
def test_a_client_that_goes_away_while_its_request_is_parked_is_let_go_at_once(
    served: ServerThread, healthy: socket.socket, what: str, close: str
) -> None:
    """Let go long before the parked request would have ended (HOLD_MS): the wait below is shorter."""
    with Wire(served, "leader") as leader:
        assert leader.call(18, 0, ApiVersionsRequestData()).error_code == 0  # accepted: counted
        before = served.server.connection_count
        parked = Wire(served, "parked")
        _park(served, what, leader, parked)
        wait_until(lambda: served.server.connection_count == before + 1, "the parked connection is counted")
        if close == "rst":
            _reset(parked.sock)
        else:
            parked.close()
        wait_until(lambda: served.server.connection_count == before, "the parked connection is let go")
        assert leader.call(18, 0, ApiVersionsRequestData()).error_code == 0


def test_requests_sent_just_before_a_close_are_still_carried_out(served: ServerThread,
                                                                 healthy: socket.socket) -> None:
    served.call(lambda b: b.backend.create_topic(TOPIC, 1))
    requests = b"".join(framing.encode_request(0, 9, n, "fire-and-forget", produce_body(batch(2), topic=TOPIC, acks=0))
                        for n in range(20))
    for _ in range(3):
        with connect(served) as client:
            client.sendall(requests)
            client.shutdown(socket.SHUT_WR)
            assert closed_by_server(client)
    with Wire(served) as reader:
        assert list_offsets(reader, 7, -1, topic=TOPIC).offset == 3 * 20 * 2


# -- pipelining, held requests, backpressure, on each event loop --------------------------------------------------

@pytest.fixture(params=event_loops.available())
def on_each_loop(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerThread]:
    """A server on each event loop this interpreter has (uvloop's and asyncio's), idle timeout 1 s."""
    limits = Limits(idle_timeout_s=1.0)
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0, limits=limits), loop=request.param)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_event_loop_is_the_one_asked_for(on_each_loop: ServerThread, request: pytest.FixtureRequest) -> None:
    expected = {"uvloop": "uvloop", "asyncio": "asyncio"}[request.node.callspec.params["on_each_loop"]]
    assert type(on_each_loop.loop).__module__.split(".")[0] == expected


def test_pipelined_requests_are_answered_in_order(on_each_loop: ServerThread) -> None:
    on_each_loop.call(lambda b: b.backend.create_topic(TOPIC, 3))
    asked = [(18, 3, API_VERSIONS_V3), (3, 12, ALL_TOPICS), (18, 0, ApiVersionsRequestData()),
             (3, 12, MetadataRequestData(topics=[MetadataRequestTopic(name=TOPIC)]))]
    requests = [asked[n % len(asked)] for n in range(200)]
    with connect(on_each_loop) as client:
        client.sendall(b"".join(framing.encode_request(key, version, n, "pipelined", body)
                                for n, (key, version, body) in enumerate(requests)))
        for n, (key, version, _) in enumerate(requests):
            answer = read_answer(client, key, version, n)
            if key == 18:
                assert answer.error_code == 0
            else:
                assert answer.brokers[0].node_id == 1
        assert exchange(client, 18, 3, API_VERSIONS_V3, 999).error_code == 0


def test_a_request_that_waits_holds_the_ones_behind_it(on_each_loop: ServerThread) -> None:
    """A long-poll Fetch is answered when its wait is over, and only then the ApiVersions sent behind it."""
    on_each_loop.call(lambda b: b.backend.create_topic(TOPIC, 1))
    fetch = fetch_body(0, topic=TOPIC, max_wait_ms=400, min_bytes=1)
    with connect(on_each_loop) as client:
        started = time.monotonic()
        client.sendall(framing.encode_request(1, 12, 1, "held", fetch)
                       + framing.encode_request(18, 3, 2, "held", API_VERSIONS_V3))
        assert read_answer(client, 1, 12, 1).responses[0].partitions[0].error_code == 0
        assert time.monotonic() - started >= 0.3
        assert read_answer(client, 18, 3, 2).error_code == 0


def test_a_client_that_does_not_read_is_stopped_alone_then_dropped(on_each_loop: ServerThread) -> None:
    """Answers a client leaves unread fill the server's transport: the server stops reading that client
    (its sends block, well before it has sent all it wanted), serves the others meanwhile, and drops it after
    the idle timeout."""
    burst = b"".join(framing.encode_request(18, 3, n, "stuck", API_VERSIONS_V3) for n in range(1000))
    wanted = 256 << 20
    with connect(on_each_loop) as stuck:
        stuck.setblocking(False)
        sender = _Sender(stuck, burst)
        blocked, started = False, time.monotonic()
        while sender.sent < wanted and time.monotonic() - started < TIMEOUT_S:
            if sender.send():
                continue
            assert call(on_each_loop, 18, 3, API_VERSIONS_V3).error_code == 0
            time.sleep(0.2)
            if not sender.send():
                blocked = True
                break
        assert blocked, f"the server kept reading: {sender.sent >> 20} MB taken"
        assert call(on_each_loop, 3, 12, ALL_TOPICS).brokers[0].node_id == 1
        wait_until(lambda: on_each_loop.server.connection_count == 0, "the stuck client is dropped")
        assert call(on_each_loop, 18, 3, API_VERSIONS_V3).error_code == 0


class _Sender:
    """Sends the same burst of whole requests again and again on a non-blocking socket, never cutting one."""

    def __init__(self, sock: socket.socket, burst: bytes) -> None:
        self.sock, self.burst = sock, burst
        self.pending = memoryview(burst)
        self.sent = 0

    def send(self) -> bool:
        """False when the socket takes nothing now."""
        try:
            n = self.sock.send(self.pending)
        except BlockingIOError:
            return False
        self.sent += n
        self.pending = self.pending[n:] if n < len(self.pending) else memoryview(self.burst)
        return True
