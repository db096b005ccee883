"""ApiVersions, Metadata and FindCoordinator over loopback, with raw frames and with real clients."""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka.admin import AdminClient

from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.group_admin import FindCoordinatorRequestData
from groupctl.protocol.data.metadata import DescribeClusterRequestData, MetadataRequestData, MetadataRequestTopic
from groupctl.server.server import ServerThread
from tests.server.frames import Wire, call
from tests.server.waits import WAIT_S


def test_api_versions_lists_every_handled_api(served: ServerThread) -> None:
    body = call(served, 18, 3, ApiVersionsRequestData(client_software_name="t", client_software_version="1"))
    keys = {k.api_key: (k.min_version, k.max_version) for k in body.api_keys}
    assert keys[18] == (0, 4)
    assert keys[3] == (0, 13)
    assert keys[10] == (0, 6)
    assert {k: keys[k] for k in (17, 19, 32, 36, 37, 44, 60)} == {
        17: (1, 1), 19: (2, 7), 32: (1, 4), 36: (0, 2), 37: (0, 3), 44: (0, 1), 60: (0, 2)}
    assert [f.to_dict() for f in body.finalized_features] == [
        {"name": "group.version", "maxVersionLevel": 1, "minVersionLevel": 1}]


def test_metadata_names_the_node_and_the_topics(served: ServerThread) -> None:
    topic = served.call(lambda b: b.backend.create_topic("orders", 3))
    _host, port = served.bootstrap.rsplit(":", 1)
    body = call(served, 3, 12, MetadataRequestData(topics=[MetadataRequestTopic(name="orders"),
                                                           MetadataRequestTopic(name="missing")]))
    assert body.brokers[0].node_id == 1 and body.brokers[0].port == int(port)
    orders, missing = body.topics
    assert orders.topic_id == topic.topic_id and [p.leader_id for p in orders.partitions] == [1, 1, 1]
    assert missing.error_code == 3
    by_id = call(served, 3, 12, MetadataRequestData(topics=[MetadataRequestTopic(name=None, topic_id=topic.topic_id)]))
    assert by_id.topics[0].name == "orders"


def test_find_coordinator_batched_and_single(served: ServerThread) -> None:
    port = int(served.bootstrap.rsplit(":", 1)[1])
    batched = call(served, 10, 4, FindCoordinatorRequestData(key_type=0, coordinator_keys=["a", "b"]))
    assert [(c.key, c.node_id, c.port, c.error_code) for c in batched.coordinators] == [
        ("a", 1, port, 0), ("b", 1, port, 0)]
    single = call(served, 10, 1, FindCoordinatorRequestData(key="a", key_type=0))
    assert (single.node_id, single.port, single.error_code) == (1, port, 0)
    txn = call(served, 10, 4, FindCoordinatorRequestData(key_type=1, coordinator_keys=["t"]))
    assert txn.coordinators[0].error_code == 15


def test_confluent_kafka_sees_the_cluster(served: ServerThread) -> None:
    served.call(lambda b: b.backend.create_topic("orders", 2))
    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    md = admin.list_topics(timeout=WAIT_S)
    assert list(md.brokers) == [1]
    assert len(md.topics["orders"].partitions) == 2


def test_describe_cluster_names_node_1_as_broker_and_controller(served: ServerThread) -> None:
    port = int(served.bootstrap.rsplit(":", 1)[1])
    cluster_id = served.call(lambda b: b.cluster_id)
    for version in (0, 1, 2):
        body = call(served, 60, version, DescribeClusterRequestData(include_cluster_authorized_operations=True,
                                                                    endpoint_type=1, include_fenced_brokers=False))
        assert (body.error_code, body.cluster_id, body.controller_id) == (0, cluster_id, 1)
        assert [(b.broker_id, b.host, b.port) for b in body.brokers] == [(1, "127.0.0.1", port)]
        assert body.cluster_authorized_operations & (1 << 8)
    without = call(served, 60, 2, DescribeClusterRequestData(include_cluster_authorized_operations=False))
    assert without.cluster_authorized_operations == -2147483648


def test_describe_cluster_refuses_other_endpoint_types_as_a_broker_does(served: ServerThread) -> None:
    controller = call(served, 60, 1, DescribeClusterRequestData(endpoint_type=2))
    assert (controller.error_code, controller.error_message) == (
        114, "The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER")
    assert controller.brokers == [] and controller.cluster_id == ""
    unknown = call(served, 60, 1, DescribeClusterRequestData(endpoint_type=7))
    assert (unknown.error_code, unknown.error_message) == (115, "Unsupported endpoint type 7")


def test_confluent_admin_describe_cluster(served: ServerThread) -> None:
    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    described = admin.describe_cluster(request_timeout=WAIT_S).result(WAIT_S)
    assert described.cluster_id == served.call(lambda b: b.cluster_id)
    assert described.controller.id == 1
    assert [(n.id, n.port) for n in described.nodes] == [(1, int(served.bootstrap.rsplit(":", 1)[1]))]


@pytest.mark.parametrize("version", [10, 11])
def test_metadata_v10_v11_naming_topics_by_id_is_invalid_request_and_the_connection_stays(
    served: ServerThread, version: int
) -> None:
    topic = served.call(lambda b: b.backend.create_topic("orders", 1))
    unknown = uuid.uuid4()
    with Wire(served) as wire:
        body = wire.call(3, version, MetadataRequestData(topics=[
            MetadataRequestTopic(name=None, topic_id=topic.topic_id),
            MetadataRequestTopic(name=None, topic_id=unknown),
            MetadataRequestTopic(name="orders", topic_id=topic.topic_id)]))
        assert [(t.error_code, t.name, t.topic_id, t.partitions) for t in body.topics] == [
            (42, "", topic.topic_id, []), (42, "", unknown, []), (42, "orders", topic.topic_id, [])]
        by_name = wire.call(3, version, MetadataRequestData(topics=[MetadataRequestTopic(name="orders")]))
        assert by_name.topics[0].error_code == 0 and by_name.topics[0].topic_id == topic.topic_id


def test_metadata_v12_answers_by_id_and_unknown_ids_with_unknown_topic_id(served: ServerThread) -> None:
    topic = served.call(lambda b: b.backend.create_topic("orders", 1))
    unknown = uuid.uuid4()
    wanted = [MetadataRequestTopic(name=None, topic_id=unknown),
              MetadataRequestTopic(name=None, topic_id=topic.topic_id)]
    body = call(served, 3, 12, MetadataRequestData(topics=wanted))
    assert {t.topic_id: (t.error_code, t.name) for t in body.topics} == {
        unknown: (100, None), topic.topic_id: (0, "orders")}
