"""SASL PLAIN and SCRAM against a fake broker whose server side is `groupctl.sasl`: success, wrong
passwords with Kafka's texts, unknown mechanisms, non-SASL listeners, and the request bytes."""

from __future__ import annotations

from typing import Any

import pytest

from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import AuthenticationFailed, ConnectionFailed
from groupctl.protocol.data.metadata import MetadataRequestData
from groupctl.protocol.messages import framing
from tests.server.waits import WAIT_S

HOST = "127.0.0.1"
USERS = {"alice": "alice-secret", "bob": "b,o=b"}
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]


def sasl_config(config_for: Any, broker: Any, mechanism: str, user: str, password: str) -> Any:
    return config_for(
        broker,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism=mechanism,
        sasl_username=user,
        sasl_password=password,
    )


def open_conn(broker: Any, config: Any) -> BrokerConnection:
    return BrokerConnection(HOST, broker.port, config).open(Deadline(WAIT_S))


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("user", sorted(USERS))
def test_login_succeeds(fake_cluster: Any, config_for: Any, mechanism: str, user: str) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    with open_conn(broker, sasl_config(config_for, broker, mechanism, user, USERS[user])) as conn:
        assert conn.authenticated_as == user
        body = conn.request(3, 12, MetadataRequestData(topics=[]), Deadline(WAIT_S))
        assert body.cluster_id == "fake-cluster"
    keys = [r.api_key for r in broker.requests]
    rounds = 1 if mechanism == "PLAIN" else 2
    assert keys == [18, 17, *[36] * rounds, 3]
    assert broker.requests_for(17)[0].api_version == 1
    assert {r.api_version for r in broker.requests_for(36)} == {2}


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_wrong_password_is_explained(fake_cluster: Any, config_for: Any, mechanism: str) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    with pytest.raises(AuthenticationFailed) as err:
        open_conn(broker, sasl_config(config_for, broker, mechanism, "alice", "wrong"))
    broker_text = (
        "Authentication failed: Invalid username or password"
        if mechanism == "PLAIN"
        else f"Authentication failed during authentication due to invalid credentials with SASL mechanism {mechanism}"
    )
    assert str(err.value) == (
        f"authentication failed for user alice with {mechanism} on bootstrap server {broker.address} "
        f"(SASL_AUTHENTICATION_FAILED: {broker_text}); check sasl.username/sasl.password (or the credentials in "
        "sasl.jaas.config)"
    )
    assert "wrong" not in str(err.value)


def test_unknown_user_reads_like_a_wrong_password(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    expected = r"for user mallory with SCRAM-SHA-256 on .*\(SASL_AUTHENTICATION_FAILED: Authentication failed during"
    with pytest.raises(AuthenticationFailed, match=expected):
        open_conn(broker, sasl_config(config_for, broker, "SCRAM-SHA-256", "mallory", "x"))


@pytest.mark.parametrize("version", [0, 1])
def test_older_sasl_authenticate_versions(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    versions = {18: (0, 3), 17: (0, 1), 36: (0, version), 3: (0, 12)}
    (broker,) = fake_cluster(sasl_users=USERS, api_versions=versions)
    with open_conn(broker, sasl_config(config_for, broker, "SCRAM-SHA-512", "alice", USERS["alice"])) as conn:
        assert conn.authenticated_as == "alice"
    assert {r.api_version for r in broker.requests_for(36)} == {version}
    for request, raw in zip(broker.requests_for(36), broker.raw_for(36), strict=True):
        assert framing.frame(raw) == kp.frame(
            "SaslAuthenticateRequest", version, request.correlation_id, "groupctl", auth_bytes=request.body.auth_bytes
        )


def test_mechanism_not_enabled(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(sasl_users=USERS, sasl_mechanisms=("PLAIN",))
    with pytest.raises(AuthenticationFailed) as err:
        open_conn(broker, sasl_config(config_for, broker, "SCRAM-SHA-512", "alice", "x"))
    assert "does not enable SASL mechanism SCRAM-SHA-512 (it enables: PLAIN); set sasl.mechanism" in str(err.value)


def test_sasl_client_on_a_plaintext_listener(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    with pytest.raises(AuthenticationFailed, match=r"not a SASL listener; check security\.protocol=SASL_PLAINTEXT"):
        open_conn(broker, sasl_config(config_for, broker, "PLAIN", "alice", "x"))


def test_plaintext_client_on_a_sasl_listener(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    conn = open_conn(broker, config_for(broker))
    with pytest.raises(ConnectionFailed, match=r"closed the connection during Metadata v13 \(check security\.protocol"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S))


def test_broker_without_sasl_handshake_v1(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(sasl_users=USERS, api_versions={18: (0, 3), 17: (0, 0)})
    with pytest.raises(AuthenticationFailed, match=r"SaslHandshake \(API 17\) v0-0; .*Kafka 1\.0\+"):
        open_conn(broker, sasl_config(config_for, broker, "PLAIN", "alice", USERS["alice"]))


def test_forged_server_signature(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    real = broker.default_handlers()[36]

    def forge(request: Any, state: Any) -> Any:
        answer = real(request, state)
        if state.authenticated:
            answer.auth_bytes = b"v=" + b"A" * 86 + b"=="
        return answer

    broker.on(36, forge)
    with pytest.raises(AuthenticationFailed, match=r"SCRAM-SHA-512 exchange .* Invalid server signature"):
        open_conn(broker, sasl_config(config_for, broker, "SCRAM-SHA-512", "alice", USERS["alice"]))


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_sasl_request_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, mechanism: str) -> None:
    (broker,) = fake_cluster(sasl_users=USERS)
    open_conn(broker, sasl_config(config_for, broker, mechanism, "alice", USERS["alice"])).close()
    (handshake,) = broker.requests_for(17)
    assert framing.frame(broker.raw_for(17)[0]) == kp.frame(
        "SaslHandshakeRequest", 1, handshake.correlation_id, "groupctl", mechanism=mechanism
    )
    for request, raw in zip(broker.requests_for(36), broker.raw_for(36), strict=True):
        assert framing.frame(raw) == kp.frame(
            "SaslAuthenticateRequest", 2, request.correlation_id, "groupctl", auth_bytes=request.body.auth_bytes
        )
    if mechanism == "PLAIN":
        assert broker.requests_for(36)[0].body.auth_bytes == b"\0alice\0alice-secret"


@pytest.mark.parametrize("version", [0, 1, 2])
def test_sasl_authenticate_responses_encoded_by_kafka_python(
    fake_cluster: Any, config_for: Any, kp: Any, version: int
) -> None:
    (broker,) = fake_cluster(sasl_users=USERS, api_versions={18: (0, 3), 17: (0, 1), 36: (0, version)})
    broker.on(
        17,
        lambda r, s: kp.frame("SaslHandshakeResponse", 1, r.correlation_id, error_code=0, mechanisms=["PLAIN"]),
    )
    broker.on(
        36,
        lambda r, s: kp.frame(
            "SaslAuthenticateResponse", version, r.correlation_id, error_code=58, error_message="nope", auth_bytes=b""
        ),
    )
    expected = r"for user alice with PLAIN on .*\(SASL_AUTHENTICATION_FAILED: nope\); check"
    with pytest.raises(AuthenticationFailed, match=expected):
        open_conn(broker, sasl_config(config_for, broker, "PLAIN", "alice", "x"))
