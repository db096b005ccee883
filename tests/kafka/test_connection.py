"""One broker connection against a fake broker: ApiVersions negotiation and fallback, framing,
correlation ids, timeouts, size guard and broken connections."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

import groupctl
from groupctl.errors import KafkaError
from groupctl.kafka import connection
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import ConnectionFailed, ProtocolFailure, RequestTimedOut, UnsupportedApi
from groupctl.protocol.data.api_versions import ApiVersion, ApiVersionsResponseData
from groupctl.protocol.data.metadata import MetadataRequestData, MetadataResponseData
from groupctl.protocol.messages import framing
from tests.server.waits import OUTLASTS_S, WAIT_S, promptly

HOST = "127.0.0.1"


def connect(broker: Any, config: Any, seconds: float = 5.0, **kw: Any) -> BrokerConnection:
    return BrokerConnection(HOST, broker.port, config, **kw).open(Deadline(seconds))


def test_api_versions_v3_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any) -> None:
    (broker,) = fake_cluster()
    with connect(broker, config_for(broker, client_id="ops-tool")) as conn:
        assert conn.version_for(16, range(0, 6)) == 5
    (request,) = broker.requests_for(18)
    assert (request.api_version, request.client_id) == (3, "ops-tool")
    assert framing.frame(broker.raw_for(18)[0]) == kp.frame(
        "ApiVersionsRequest",
        3,
        request.correlation_id,
        "ops-tool",
        client_software_name="groupctl",
        client_software_version=groupctl.__version__,
    )


@pytest.mark.parametrize("broker_max", [0, 1, 2])
def test_api_versions_falls_back_to_the_version_the_broker_names(
    fake_cluster: Any, config_for: Any, kp: Any, broker_max: int
) -> None:
    # Kafka 2.4+: UNSUPPORTED_VERSION with the broker's own ApiVersions range in a v0 body
    (broker,) = fake_cluster(api_versions={18: (0, broker_max), 16: (0, 3), 13: (0, 2)})
    with connect(broker, config_for(broker)) as conn:
        assert conn.api_versions.ranges == {18: (0, broker_max), 16: (0, 3), 13: (0, 2)}
        with pytest.raises(UnsupportedApi, match=r"LeaveGroup \(API 13\) v0-2; groupctl speaks v3-5"):
            conn.version_for(13, range(3, 6))
    first, retry = broker.requests_for(18)
    assert (first.api_version, retry.api_version) == (3, broker_max)
    assert framing.frame(broker.raw_for(18)[1]) == kp.frame(
        "ApiVersionsRequest", broker_max, retry.correlation_id, "groupctl"
    )


def test_api_versions_falls_back_to_v0_when_the_broker_names_nothing(fake_cluster: Any, config_for: Any) -> None:
    # brokers before Kafka 2.4 answer an unknown version with UNSUPPORTED_VERSION and no ranges
    (broker,) = fake_cluster()

    def old_broker(request: Any, state: Any) -> Any:
        if request.api_version > 0:
            return framing.encode_response(18, 0, request.correlation_id, ApiVersionsResponseData(error_code=35))
        return ApiVersionsResponseData(error_code=0, api_keys=[ApiVersion(api_key=16, min_version=0, max_version=2)])

    broker.on(18, old_broker)
    with connect(broker, config_for(broker)) as conn:
        assert conn.version_for(16, range(0, 6)) == 2
    assert [r.api_version for r in broker.requests_for(18)] == [3, 0]


@pytest.mark.parametrize("version", range(4))
def test_api_versions_response_encoded_by_kafka_python(
    fake_cluster: Any, config_for: Any, kp: Any, version: int
) -> None:
    (broker,) = fake_cluster(api_versions={18: (0, version)})
    api = kp.cls["ApiVersionsResponse"].ApiVersion

    def reply(request: Any, state: Any) -> bytes:
        if request.api_version > version:  # as a broker that does not know v3 answers
            keys = [api(api_key=18, min_version=0, max_version=version)]
            return kp.frame("ApiVersionsResponse", 0, request.correlation_id, error_code=35, api_keys=keys)
        keys = [api(api_key=10, min_version=0, max_version=6), api(api_key=69, min_version=0, max_version=1)]
        return kp.frame("ApiVersionsResponse", version, request.correlation_id, error_code=0, api_keys=keys)

    broker.on(18, reply)
    with connect(broker, config_for(broker)) as conn:
        assert conn.api_versions.ranges == {10: (0, 6), 69: (0, 1)}


def test_api_versions_other_errors_fail(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(18, lambda request, state: ApiVersionsResponseData(error_code=31, api_keys=[]))
    with pytest.raises(KafkaError, match=r"ApiVersions v3 on bootstrap server .* CLUSTER_AUTHORIZATION_FAILED"):
        connect(broker, config_for(broker))


def test_request_round_trip_and_correlation_ids(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    with connect(broker, config_for(broker), node_id=0) as conn:
        assert conn.where == f"{HOST}:{broker.port} (node 0)"
        for _ in range(3):
            version, body = conn.call(3, range(0, 14), lambda v: MetadataRequestData(topics=[]), Deadline(WAIT_S))
            assert version == 13 and body.cluster_id == "fake-cluster"
    ids = [r.correlation_id for r in broker.requests]
    assert ids == sorted(set(ids)) and len(ids) == 4


def test_a_silent_broker_times_out_within_the_deadline(fake_cluster: Any, config_for: Any, kp: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(3, lambda request, state: broker.NO_REPLY)
    conn = connect(broker, config_for(broker))
    with promptly("the 0.4 s deadline"), \
            pytest.raises(RequestTimedOut, match=r"Metadata v13 to bootstrap server .* timed out after (3\d\d|400) ms"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(0.4))
    assert not conn.is_open


def test_request_timeout_ms_cuts_a_long_deadline(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(3, lambda request, state: broker.NO_REPLY)
    conn = connect(broker, config_for(broker, request_timeout_ms="300"))
    with promptly("request.timeout.ms, not the deadline"), \
            pytest.raises(RequestTimedOut, match=r"timed out after 300 ms"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(OUTLASTS_S))


def test_wrong_correlation_id_closes_the_connection(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(3, lambda r, s: framing.encode_response(3, r.api_version, r.correlation_id + 7, MetadataResponseData()))
    conn = connect(broker, config_for(broker))
    with pytest.raises(ProtocolFailure, match=r"answered correlation id .* the connection was closed"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S))
    assert not conn.is_open
    with pytest.raises(ConnectionFailed, match="the connection is closed"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S))


def test_response_size_guard(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    conn = connect(broker, config_for(broker))
    conn.max_response_bytes = 20
    with pytest.raises(
        ProtocolFailure, match=r"invalid Metadata v13 response: invalid frame size \d+ \(the limit is 20\)"
    ):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S))
    assert not conn.is_open


def test_undecodable_response(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(3, lambda r, s: framing.frame(r.correlation_id.to_bytes(4, "big") + b"\x00\x01"))
    conn = connect(broker, config_for(broker))
    with pytest.raises(ProtocolFailure, match="does not decode"):
        conn.request(3, 1, MetadataRequestData(topics=[]), Deadline(WAIT_S))


def test_broker_closing_the_connection(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(3, lambda r, s: None)
    conn = connect(broker, config_for(broker))
    with pytest.raises(ConnectionFailed, match="the broker closed the connection during Metadata v13"):
        conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S))


def test_connection_refused(closed_port: int, config_for: Any) -> None:
    conn = BrokerConnection(HOST, closed_port, config_for(f"{HOST}:{closed_port}"))
    with pytest.raises(ConnectionFailed, match=f"cannot reach {HOST}:{closed_port}: connection refused"):
        conn.open(Deadline(WAIT_S))
    assert not conn.is_open


def test_no_time_left_to_connect(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    with pytest.raises(ConnectionFailed, match="no time left"):
        BrokerConnection(HOST, broker.port, config_for(broker)).open(Deadline(0))


def test_silent_listener_times_out(silent_listener: int, config_for: Any) -> None:
    conn = BrokerConnection(HOST, silent_listener, config_for(f"{HOST}:{silent_listener}"))
    with promptly("the 0.3 s deadline"), pytest.raises(RequestTimedOut, match="ApiVersions v3"):
        conn.open(Deadline(0.3))


def test_the_whole_setup_is_bounded_by_socket_connection_setup_timeout_ms(
    silent_listener: int, config_for: Any
) -> None:
    conn = BrokerConnection(HOST, silent_listener, config_for(f"{HOST}:{silent_listener}",
                                                             socket_connection_setup_timeout_ms="300"))
    timed_out = r"ApiVersions v3 to bootstrap server .* timed out after (29\d|300) ms"
    with promptly("the 300 ms setup bound, not the deadline"), pytest.raises(RequestTimedOut, match=timed_out) as err:
        conn.open(Deadline(OUTLASTS_S))
    assert err.value.timed_out and not conn.is_open


def test_an_explicit_setup_bound_wins_and_the_deadline_caps_it(silent_listener: int, config_for: Any) -> None:
    config = config_for(f"{HOST}:{silent_listener}")
    with pytest.raises(RequestTimedOut, match=r"timed out after (1\d\d|200) ms"):
        BrokerConnection(HOST, silent_listener, config).open(Deadline(OUTLASTS_S), setup_s=0.2)
    with pytest.raises(RequestTimedOut, match=r"timed out after (\d\d(\.\d)?|100) ms"):
        BrokerConnection(HOST, silent_listener, config).open(Deadline(0.1), setup_s=20)


def test_an_unresolvable_host_is_named(monkeypatch: pytest.MonkeyPatch, config_for: Any) -> None:
    def no_such_host(host: str, *args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(connection.socket, "getaddrinfo", no_such_host)
    conn = BrokerConnection("kafka-9.example", 9092, config_for("kafka-9.example:9092"))
    with pytest.raises(ConnectionFailed) as err:
        conn.open(Deadline(WAIT_S))
    assert str(err.value) == ("cannot reach kafka-9.example:9092: cannot resolve the host name 'kafka-9.example' "
                              "(Name or service not known)")
    assert not err.value.timed_out


def test_a_hung_host_name_lookup_is_bounded(monkeypatch: pytest.MonkeyPatch, config_for: Any) -> None:
    release = threading.Event()
    real = socket.getaddrinfo

    def hung(host: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("flags") == socket.AI_NUMERICHOST:
            return real(host, *args, **kwargs)
        release.wait(OUTLASTS_S)  # a resolver that does not answer (released when the test ends)
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(connection.socket, "getaddrinfo", hung)
    conn = BrokerConnection("kafka-9.example", 9092, config_for("kafka-9.example:9092"))
    try:
        with promptly("the 0.3 s deadline, not the resolver"), pytest.raises(ConnectionFailed) as err:
            conn.open(Deadline(0.3))
    finally:
        release.set()
    assert "the host name lookup of 'kafka-9.example' took more than 300 ms (check DNS)" in str(err.value)
    assert err.value.timed_out
