"""Bootstrap, Metadata at every version (bytes against kafka-python), and connection caching."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from groupctl.errors import GroupctlError
from groupctl.kafka.cluster import Broker, Cluster, metadata_request, parse_metadata
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import ConnectionFailed, TlsFailed
from groupctl.protocol.data.metadata import MetadataRequestData, MetadataRequestTopic
from groupctl.protocol.messages import framing
from tests.server.waits import OUTLASTS_S, WAIT_S, promptly

HOST = "127.0.0.1"
TOPIC_ID = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")


def kp_topics(kp: Any, topics: Any, version: int) -> Any:
    if topics is None:
        return [] if version == 0 else None
    cls = kp.cls["MetadataRequest"].MetadataRequestTopic
    return [cls(name=t) for t in topics]


@pytest.mark.parametrize("version", range(14))
@pytest.mark.parametrize("topics", [None, (), ("orders", "payments")], ids=["all", "none", "named"])
def test_metadata_request_bytes_equal_kafka_python(
    fake_cluster: Any, config_for: Any, kp: Any, version: int, topics: Any
) -> None:
    (broker,) = fake_cluster(api_versions={18: (0, 3), 3: (0, version)})
    with Cluster(config_for(broker)) as cluster:
        cluster.metadata(cluster.deadline(WAIT_S), topics)
    (request,) = broker.requests_for(3)
    assert request.api_version == version
    expected = kp.frame(
        "MetadataRequest",
        version,
        request.correlation_id,
        "groupctl",
        topics=kp_topics(kp, topics, version),
        allow_auto_topic_creation=False,
    )
    assert framing.frame(broker.raw_for(3)[0]) == expected


@pytest.mark.parametrize("version", range(14))
def test_metadata_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    m = kp.cls["MetadataResponse"]
    partition = m.MetadataResponseTopic.MetadataResponsePartition(
        error_code=0, partition_index=2, leader_id=1, leader_epoch=7, replica_nodes=[1], isr_nodes=[1]
    )
    wire = kp.frame(
        "MetadataResponse",
        version,
        42,
        brokers=[m.MetadataResponseBroker(node_id=1, host="b1", port=9093, rack="rack-a")],
        cluster_id="cid",
        controller_id=1,
        topics=[
            m.MetadataResponseTopic(
                error_code=0, name="orders", topic_id=TOPIC_ID, is_internal=False, partitions=[partition]
            )
        ],
    )
    response = framing.decode_response(wire[4:], 3, version)
    assert response.correlation_id == 42
    result = parse_metadata(response.body)
    rack = "rack-a" if version >= 1 else None
    assert result.brokers == {1: Broker(1, "b1", 9093, rack)}
    assert result.cluster_id == ("cid" if version >= 2 else None)
    assert result.controller_id == (1 if version >= 1 else -1)
    topic = result.topics["orders"]
    assert topic.topic_id == (TOPIC_ID if version >= 10 else None)
    assert topic.partitions[2].leader_id == 1
    assert topic.partitions[2].leader_epoch == (7 if version >= 7 else -1)


def test_metadata_request_shapes() -> None:
    assert metadata_request(0, None) == MetadataRequestData(topics=[])
    assert metadata_request(1, None) == MetadataRequestData(topics=None)
    assert metadata_request(3, ()) == MetadataRequestData(topics=[])
    assert metadata_request(4, ["t"]) == MetadataRequestData(topics=[MetadataRequestTopic(name="t")],
                                                             allow_auto_topic_creation=False)


def test_bootstrap_skips_an_unreachable_server(fake_cluster: Any, config_for: Any, closed_port: int) -> None:
    (broker,) = fake_cluster()
    config = config_for(f"{HOST}:{closed_port},{broker.address}")
    with Cluster(config, timeout=5) as cluster:
        brokers = cluster.list_brokers(cluster.deadline())
        assert brokers == [Broker(0, HOST, broker.port)]
        assert cluster.bootstrap(cluster.deadline()).port == broker.port


def test_unreachable_bootstrap_names_every_server(config_for: Any, closed_port: int) -> None:
    config = config_for(f"{HOST}:{closed_port},localhost:{closed_port}")
    with promptly("refusals are answers, not the deadline waited out"), \
            Cluster(config, timeout=OUTLASTS_S) as cluster, pytest.raises(ConnectionFailed) as err:
        cluster.list_brokers(cluster.deadline())
    message = str(err.value)
    assert f"no bootstrap server answered ({HOST}:{closed_port}: connection refused; " in message
    assert f"localhost:{closed_port}:" in message
    assert "check bootstrap.servers / --bootstrap-server" in message


def test_bootstrap_stops_at_the_deadline(config_for: Any, silent_listener: int, closed_port: int) -> None:
    config = config_for(f"{HOST}:{silent_listener},{HOST}:{closed_port}")
    with promptly("the 0.5 s deadline"), \
            Cluster(config, timeout=0.5) as cluster, pytest.raises(ConnectionFailed) as err:
        cluster.list_brokers(cluster.deadline())
    assert f"no bootstrap server answered within 500 ms ({HOST}:{silent_listener}: ApiVersions v3 timed out after " \
        "500 ms" in str(err.value)
    assert f"{HOST}:{closed_port}: not tried, no time left" in str(err.value)
    assert "give more time with --timeout" in str(err.value)


def test_a_silent_bootstrap_server_costs_the_setup_bound_then_the_next_one_answers(
    fake_cluster: Any, config_for: Any, silent_listener: int
) -> None:
    (broker,) = fake_cluster()
    config = config_for(f"{HOST}:{silent_listener},{broker.address}", socket_connection_setup_timeout_ms="400")
    start = time.monotonic()
    with promptly("the 400 ms setup bound, not the deadline"), Cluster(config, timeout=OUTLASTS_S) as cluster:
        assert cluster.bootstrap(cluster.deadline()).port == broker.port
    assert time.monotonic() - start > 0.35  # the silent server had its 400 ms


def test_a_slow_server_gets_a_longer_bound_in_the_next_round(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()

    def slow_api_versions(request: Any, state: Any) -> Any:
        time.sleep(0.5)  # longer than the first bound (300 ms): only a bound that grows lets an answer in
        return broker._api_versions(request, state)

    broker.on(18, slow_api_versions)
    config = config_for(broker, socket_connection_setup_timeout_ms="300", socket_connection_setup_timeout_max_ms="9600")
    with Cluster(config, timeout=WAIT_S) as cluster:
        assert cluster.bootstrap(cluster.deadline()).is_open
    assert len(broker.requests_for(18)) >= 2  # timed out at 300 ms; answered within 600 ms (or a later, longer try)


def test_every_server_refusing_fails_at_once_with_each_cause(config_for: Any, closed_port: int) -> None:
    config = config_for(f"{HOST}:{closed_port}")
    with promptly("refusals are answers, not the deadline waited out"), \
            Cluster(config, timeout=OUTLASTS_S) as cluster, pytest.raises(ConnectionFailed) as err:
        cluster.bootstrap(cluster.deadline())
    assert str(err.value) == (
        f"cannot reach {HOST}:{closed_port}: no bootstrap server answered ({HOST}:{closed_port}: connection refused); "
        "check bootstrap.servers / --bootstrap-server and that the brokers run and are reachable"
    )
    assert not err.value.timed_out


def test_tls_failures_stop_the_bootstrap(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    first, second = fake_cluster(2, tls=tls_files.server_context())
    config = config_for(
        f"{first.address},{second.address}", security_protocol="SSL", ssl_ca_location=str(tls_files.other_ca)
    )
    with Cluster(config) as cluster, pytest.raises(TlsFailed):
        cluster.bootstrap(cluster.deadline(WAIT_S))
    assert second.requests == []


def test_connections_are_cached_per_node_and_the_bootstrap_one_is_reused(fake_cluster: Any, config_for: Any) -> None:
    b0, _ = fake_cluster(2)
    cluster = Cluster(config_for(b0))
    deadline = cluster.deadline(WAIT_S)
    brokers = cluster.list_brokers(deadline)
    assert [b.node_id for b in brokers] == [0, 1]
    first = cluster.connection(brokers[0], deadline)
    assert first.node_id == 0 and first.where == f"{b0.address} (node 0)"
    assert cluster.connection(brokers[0], deadline) is first
    second = cluster.connection(brokers[1], deadline)
    assert second is not first and cluster.any_connection(deadline) in (first, second)
    assert len(b0.requests_for(18)) == 1  # the bootstrap connection became node 0's
    assert cluster.broker(1, deadline) == brokers[1]
    cluster.drop(1)
    assert not second.is_open
    cluster.close()
    assert not first.is_open


def test_unknown_node(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    with Cluster(config_for(broker)) as cluster, pytest.raises(ConnectionFailed, match="does not list this broker"):
        cluster.broker(7, Deadline(WAIT_S))


def test_metadata_names_topics(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.topics = {"orders": {0: 0, 1: 0}}
    with Cluster(config_for(broker)) as cluster:
        result = cluster.metadata(cluster.deadline(WAIT_S), ["orders", "ghost"])
    assert sorted(result.topics["orders"].partitions) == [0, 1]
    assert result.topics["ghost"].error_code == 3


def test_tls_settings_are_checked_before_connecting(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    config = config_for(broker, security_protocol="SSL", ssl_truststore_location="client.truststore.jks")
    with Cluster(config) as cluster, pytest.raises(GroupctlError, match=r"ssl\.truststore\.type=JKS"):
        cluster.bootstrap(cluster.deadline(WAIT_S))
    assert broker.requests == []
