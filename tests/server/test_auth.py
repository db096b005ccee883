"""SASL PLAIN and SCRAM with real clients and raw frames, the users file, and TLS with a test CA."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from confluent_kafka import KafkaError
from confluent_kafka.admin import AdminClient

from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.errors import GroupctlError, UsageError
from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.auth import (
    SaslAuthenticateRequestData,
    SaslAuthenticateResponseData,
    SaslHandshakeRequestData,
)
from groupctl.protocol.data.metadata import MetadataRequestData
from groupctl.protocol.messages import framing
from groupctl.sasl import ScramClient, plain_initial_response
from groupctl.server.auth import (
    User,
    parse_mechanisms,
    read_users,
    sasl_authenticate,
    sasl_handshake,
    tls_context,
)
from groupctl.server.connection import CLOSE_AFTER_RESPONSE, ConnectionClosed, Limits
from groupctl.server.dispatch import RequestContext, Session
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.frames import call, closed_by_server, connect, exchange, read_answer
from tests.server.waits import OUTLASTS_S, WAIT_S, wait_until

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
PASSWORD = "pa:ss w0rd"


@pytest.fixture
def secured(tmp_path: Path) -> Iterator[ServerThread]:
    """A SASL_PLAINTEXT server with users alice and bob, and a topic to list."""
    users_file = tmp_path / "users"
    users_file.write_text(f"# who may connect\nalice:{PASSWORD}\n\nbob:other\n")
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0, sasl_mechanisms=MECHANISMS,
                                        users=read_users(users_file, MECHANISMS)))
    server.start()
    server.call(lambda b: b.backend.create_topic("orders", 2))
    try:
        yield server
    finally:
        server.stop()


def admin(served: ServerThread, mechanism: str, password: str, errors: list[KafkaError] | None = None) -> AdminClient:
    config = {"bootstrap.servers": served.bootstrap, "security.protocol": "SASL_PLAINTEXT",
              "sasl.mechanism": mechanism, "sasl.username": "alice", "sasl.password": password}
    if errors is not None:
        config["error_cb"] = errors.append
    return AdminClient(config)


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_confluent_kafka_authenticates_and_lists_topics(secured: ServerThread, mechanism: str) -> None:
    assert list(admin(secured, mechanism, PASSWORD).list_topics(timeout=WAIT_S).topics) == ["orders"]


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_a_wrong_password_is_an_authentication_error_and_the_server_carries_on(
    secured: ServerThread, mechanism: str
) -> None:
    errors: list[KafkaError] = []
    client = admin(secured, mechanism, "wrong", errors)
    with pytest.raises(Exception, match=r"transport|Timed out|uthentication"):
        client.list_topics(timeout=3)
    wait_until(lambda: client.poll(0.1) >= 0 and any(e.code() == KafkaError._AUTHENTICATION for e in errors),
               "librdkafka reports the authentication error")
    assert any(f"SASL mechanism {mechanism}" in e.str() or "Invalid username or password" in e.str() for e in errors)
    assert list(admin(secured, mechanism, PASSWORD).list_topics(timeout=WAIT_S).topics) == ["orders"]


def authenticate(sock, token: bytes, correlation_id: int = 2) -> SaslAuthenticateResponseData:  # type: ignore[no-untyped-def]
    return exchange(sock, 36, 2, SaslAuthenticateRequestData(auth_bytes=token), correlation_id)


def test_plain_over_raw_frames_sets_the_principal(secured: ServerThread) -> None:
    with connect(secured) as sock:
        handshake = exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN"), 1)
        assert (handshake.error_code, handshake.mechanisms) == (0, list(MECHANISMS))
        answer = authenticate(sock, plain_initial_response("alice", PASSWORD))
        assert (answer.error_code, answer.error_message, answer.session_lifetime_ms) == (0, None, 0)
        assert exchange(sock, 3, 12, MetadataRequestData(topics=None), 3).topics[0].name == "orders"
        again = authenticate(sock, b"", 4)
        assert (again.error_code, again.error_message) == (
            CODE["ILLEGAL_SASL_STATE"], "SaslAuthenticate request received after successful authentication")
        second = exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN"), 5)
        assert second.error_code == CODE["ILLEGAL_SASL_STATE"]


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_over_raw_frames_verifies_both_ways(secured: ServerThread, mechanism: str) -> None:
    client = ScramClient(mechanism, "alice", PASSWORD)
    with connect(secured) as sock:
        assert exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism=mechanism), 1).error_code == 0
        first = authenticate(sock, client.first_message())
        final = authenticate(sock, client.final_message(first.auth_bytes), 3)
        assert final.error_code == 0
        client.verify_server_final(final.auth_bytes)
        assert exchange(sock, 3, 12, MetadataRequestData(topics=None), 4).topics[0].name == "orders"


@pytest.mark.parametrize(("mechanism", "token", "message"), [
    ("PLAIN", plain_initial_response("alice", "wrong"), "Authentication failed: Invalid username or password"),
    ("PLAIN", plain_initial_response("nobody", "x"), "Authentication failed: Invalid username or password"),
    ("PLAIN", b"no separators", "Authentication failed during authentication due to invalid credentials with SASL "
                                "mechanism PLAIN"),
    ("PLAIN", plain_initial_response("alice", PASSWORD, authzid="bob"),
     "Authentication failed: Client requested an authorization id that is different from username"),
])
def test_a_failed_plain_exchange_is_answered_then_closed(secured: ServerThread, mechanism: str, token: bytes,
                                                         message: str) -> None:
    with connect(secured) as sock:
        exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism=mechanism), 1)
        answer = authenticate(sock, token)
        assert (answer.error_code, answer.error_message, answer.auth_bytes) == (
            CODE["SASL_AUTHENTICATION_FAILED"], message, b"")
        assert closed_by_server(sock)


def test_a_wrong_scram_proof_is_answered_with_kafkas_text_then_closed(secured: ServerThread) -> None:
    client = ScramClient("SCRAM-SHA-256", "alice", "wrong")
    with connect(secured) as sock:
        exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="SCRAM-SHA-256"), 1)
        first = authenticate(sock, client.first_message())
        answer = authenticate(sock, client.final_message(first.auth_bytes), 3)
        assert (answer.error_code, answer.error_message) == (
            CODE["SASL_AUTHENTICATION_FAILED"],
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256")
        assert closed_by_server(sock)


def test_an_unknown_mechanism_gets_the_enabled_list_then_the_connection_closes(secured: ServerThread) -> None:
    with connect(secured) as sock:
        answer = exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="GSSAPI"), 1)
        assert (answer.error_code, answer.mechanisms) == (CODE["UNSUPPORTED_SASL_MECHANISM"], list(MECHANISMS))
        assert closed_by_server(sock)


@pytest.mark.parametrize(("api_key", "version", "body"), [
    (3, 12, MetadataRequestData(topics=None)),
    (36, 2, SaslAuthenticateRequestData(auth_bytes=b"x")),
    (17, 0, SaslHandshakeRequestData(mechanism="PLAIN")),
])
def test_only_the_handshake_apis_before_authentication(secured: ServerThread, api_key: int, version: int,
                                                       body: Any) -> None:
    with connect(secured) as sock:
        hello = ApiVersionsRequestData(client_software_name="t", client_software_version="1")
        assert exchange(sock, 18, 3, hello, 1).error_code == 0
        sock.sendall(framing.encode_request(api_key, version, 2, "test", body))
        assert closed_by_server(sock)


def _context(tmp_path: Path, session: Session, api_key: int, version: int) -> RequestContext:
    users_file = tmp_path / "users"
    users_file.write_text(f"alice:{PASSWORD}\n")
    options = ServerOptions(tmp_path, sasl_mechanisms=MECHANISMS, users=read_users(users_file, ("SCRAM-SHA-256",)))
    return RequestContext(SimpleNamespace(options=options), session, api_key, version, 1, "t")  # type: ignore[arg-type]


def test_a_successful_login_authenticates_the_session_as_user_name(tmp_path: Path) -> None:
    session = Session(peer="test", authenticated=False)
    handshake = asyncio.run(sasl_handshake(_context(tmp_path, session, 17, 1),
                                           SaslHandshakeRequestData(mechanism="PLAIN")))
    assert (handshake.error_code, session.mechanism, session.authenticated) == (0, "PLAIN", False)
    token = plain_initial_response("alice", PASSWORD)
    answer = asyncio.run(sasl_authenticate(_context(tmp_path, session, 36, 2),
                                           SaslAuthenticateRequestData(auth_bytes=token)))
    assert answer.error_code == 0
    assert (session.authenticated, session.principal) == (True, "User:alice")
    assert CLOSE_AFTER_RESPONSE not in session.extra


def test_a_second_handshake_is_illegal_and_closes(tmp_path: Path) -> None:
    session = Session(peer="test", authenticated=False)
    asyncio.run(sasl_handshake(_context(tmp_path, session, 17, 1), SaslHandshakeRequestData(mechanism="SCRAM-SHA-256")))
    again = asyncio.run(sasl_handshake(_context(tmp_path, session, 17, 1), SaslHandshakeRequestData(mechanism="PLAIN")))
    assert again.error_code == CODE["ILLEGAL_SASL_STATE"]
    assert CLOSE_AFTER_RESPONSE in session.extra and not session.authenticated


def test_authenticate_before_handshake_closes_without_an_answer(tmp_path: Path) -> None:
    session = Session(peer="test", authenticated=False)
    with pytest.raises(ConnectionClosed):
        asyncio.run(sasl_authenticate(_context(tmp_path, session, 36, 2), SaslAuthenticateRequestData(auth_bytes=b"x")))


def test_handshake_on_a_plaintext_listener_is_illegal(served: ServerThread) -> None:
    assert call(served, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN")).to_dict() == {
        "errorCode": CODE["ILLEGAL_SASL_STATE"], "mechanisms": []}


def test_users_file_comments_blank_lines_and_colons_in_passwords(tmp_path: Path) -> None:
    path = tmp_path / "users"
    path.write_text("# comment\n\nalice:a:b:c\n  # indented comment\nbob:x\n")
    users = read_users(path, ("PLAIN", "SCRAM-SHA-512"))
    assert sorted(users) == ["alice", "bob"]
    assert users["alice"].password == "a:b:c"
    assert sorted(users["alice"].scram) == ["SCRAM-SHA-512"]
    assert users["alice"].scram["SCRAM-SHA-512"].iterations == 4096
    assert "a:b:c" not in repr(users)


@pytest.mark.parametrize(("text", "error"), [
    ("alice\n", "line 1: expected user:password"),
    ("alice:\n", "line 1: expected user:password"),
    ("# only\n:secret-password\n", "line 2: expected user:password"),
    ("alice:one\nalice:secret-password\n", "line 2: user 'alice' is listed twice"),
    ("# nobody\n", "lists no users"),
])
def test_users_file_errors_name_the_line_never_the_password(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "users"
    path.write_text(text)
    with pytest.raises(GroupctlError, match=error) as caught:
        read_users(path, MECHANISMS)
    assert "secret-password" not in str(caught.value)


def test_users_file_missing_or_a_directory_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        read_users(tmp_path / "missing", MECHANISMS)
    with pytest.raises(UsageError, match="is a directory"):
        read_users(tmp_path, MECHANISMS)


def test_mechanism_names(tmp_path: Path) -> None:
    assert parse_mechanisms("scram-sha-512, PLAIN,PLAIN") == ("SCRAM-SHA-512", "PLAIN")
    with pytest.raises(UsageError, match="GSSAPI is not a mechanism"):
        parse_mechanisms("PLAIN,GSSAPI")


# -- TLS ----------------------------------------------------------------------------------------------


@pytest.fixture
def certificates(tls_files: SimpleNamespace) -> SimpleNamespace:
    """The shared test CA and a server certificate for localhost/127.0.0.1 it signed."""
    return tls_files


def test_confluent_kafka_over_ssl_with_the_test_ca(tmp_path: Path, certificates: SimpleNamespace) -> None:
    context = tls_context(certificates.server_crt, certificates.server_key)
    with ServerThread(ServerOptions(tmp_path / "cluster", port=0, tls=context)) as served:
        assert str(served.listener).startswith("SSL://127.0.0.1:")
        served.call(lambda b: b.backend.create_topic("orders", 1))
        client = AdminClient({"bootstrap.servers": served.bootstrap, "security.protocol": "SSL",
                              "ssl.ca.location": str(certificates.ca)})
        assert list(client.list_topics(timeout=WAIT_S).topics) == ["orders"]


def test_sasl_ssl_listener(tmp_path: Path, certificates: SimpleNamespace) -> None:
    users = tmp_path / "users"
    users.write_text(f"alice:{PASSWORD}\n")
    options = ServerOptions(tmp_path / "cluster", port=0, sasl_mechanisms=("SCRAM-SHA-256",),
                            tls=tls_context(certificates.server_crt, certificates.server_key),
                            users=read_users(users, ("SCRAM-SHA-256",)))
    with ServerThread(options) as served:
        assert served.listener is not None and served.listener.protocol == "SASL_SSL"
        client = AdminClient({"bootstrap.servers": served.bootstrap, "security.protocol": "SASL_SSL",
                              "ssl.ca.location": str(certificates.ca), "sasl.mechanism": "SCRAM-SHA-256",
                              "sasl.username": "alice", "sasl.password": PASSWORD})
        assert client.list_topics(timeout=WAIT_S).brokers[1].port == served.listener.port


def test_a_key_that_does_not_match_is_a_clear_error(tmp_path: Path, certificates: SimpleNamespace) -> None:
    with pytest.raises(GroupctlError, match="cannot use --tls-cert"):
        tls_context(certificates.ca, certificates.server_key)
    with pytest.raises(UsageError, match="does not exist"):
        tls_context(certificates.ca.parent / "missing.pem", certificates.server_key)


def test_a_plaintext_client_on_a_tls_listener_does_not_stop_the_server(
    tmp_path: Path, certificates: SimpleNamespace
) -> None:
    context = tls_context(certificates.server_crt, certificates.server_key)
    with ServerThread(ServerOptions(tmp_path / "cluster", port=0, tls=context)) as served:
        with connect(served) as sock:
            sock.sendall(framing.encode_request(18, 3, 1, "t", ApiVersionsRequestData()))
            assert closed_by_server(sock)
        client = AdminClient({"bootstrap.servers": served.bootstrap, "security.protocol": "SSL",
                              "ssl.ca.location": str(certificates.ca)})
        assert client.list_topics(timeout=WAIT_S).brokers


# -- connection.failed.authentication.delay.ms ----------------------------------------------------------------------

def _plain_attempt(sock, password: str, correlation_id: int = 2) -> None:  # type: ignore[no-untyped-def]
    assert exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="PLAIN"), correlation_id - 1).error_code == 0
    token = plain_initial_response("alice", password)
    sock.sendall(framing.encode_request(36, 2, correlation_id, "t", SaslAuthenticateRequestData(auth_bytes=token)))


def test_failed_authentications_are_answered_after_100_ms_by_default(secured: ServerThread) -> None:
    started = time.monotonic()
    for _ in range(5):
        with connect(secured) as sock:
            _plain_attempt(sock, "wrong")
            assert read_answer(sock, 36, 2, 2).error_code == CODE["SASL_AUTHENTICATION_FAILED"]
            assert closed_by_server(sock)
    assert time.monotonic() - started >= 0.5


@pytest.fixture
def slow_to_refuse(tmp_path: Path) -> Iterator[ServerThread]:
    """A SASL listener whose failed authentications wait a whole second."""
    users = {"alice": User("alice", PASSWORD)}
    server = ServerThread(ServerOptions(tmp_path / "slow", port=0, sasl_mechanisms=("PLAIN",), users=users,
                                        limits=Limits(failed_auth_delay_s=1.0)))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_delay_holds_only_the_failed_connection(tmp_path: Path) -> None:
    """While a failed authentication waits out its delay (longer than this test runs), another client
    authenticates and is served, and the failed connection has had no answer."""
    users = {"alice": User("alice", PASSWORD)}
    options = ServerOptions(tmp_path / "held", port=0, sasl_mechanisms=("PLAIN",), users=users,
                            limits=Limits(failed_auth_delay_s=OUTLASTS_S))
    with ServerThread(options) as held, connect(held) as failing, connect(held) as other:
        _plain_attempt(failing, "wrong")
        wait_until(lambda: _delayed(held), "the server holds the failed login's answer")
        _plain_attempt(other, PASSWORD)
        assert read_answer(other, 36, 2, 2).error_code == 0
        assert exchange(other, 3, 12, MetadataRequestData(topics=None), 3).brokers[0].node_id == 1
        failing.setblocking(False)
        with pytest.raises(BlockingIOError):
            failing.recv(1, socket.MSG_PEEK)


def _delayed(served: ServerThread) -> bool:
    """True when one of the server's connections holds its last answer back (read on the server's loop)."""
    return bool(served.call(lambda _: any(c._delay is not None for c in served.server._connections)))


def test_an_unsupported_mechanism_is_delayed_too(slow_to_refuse: ServerThread) -> None:
    with connect(slow_to_refuse) as sock:
        started = time.monotonic()
        answer = exchange(sock, 17, 1, SaslHandshakeRequestData(mechanism="GSSAPI"), 1)
        assert answer.error_code == CODE["UNSUPPORTED_SASL_MECHANISM"]
        assert time.monotonic() - started >= 1.0
