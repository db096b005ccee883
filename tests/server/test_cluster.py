"""ApiVersions, Metadata and FindCoordinator over loopback, with raw frames and with real clients."""

from __future__ import annotations

import socket

from confluent_kafka.admin import AdminClient

from groupctl.protocol.messages import framing
from groupctl.server.server import ServerThread


def roundtrip(served: ServerThread, api_key: int, version: int, body: dict) -> dict:
    host, port = served.bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(framing.encode_request(api_key, version, 7, "test", body))
        size = framing.frame_size(_read(sock, 4), 1 << 20)
        response = framing.decode_response(_read(sock, size), api_key, version)
    assert response.correlation_id == 7
    return response.body


def _read(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        assert chunk, "connection closed"
        out += chunk
    return out


def test_api_versions_lists_every_handled_api(served: ServerThread) -> None:
    body = roundtrip(served, 18, 3, {"clientSoftwareName": "t", "clientSoftwareVersion": "1"})
    keys = {k["apiKey"]: (k["minVersion"], k["maxVersion"]) for k in body["apiKeys"]}
    assert keys[18] == (0, 4)
    assert keys[3] == (0, 13)
    assert keys[10] == (0, 6)
    assert body["finalizedFeatures"] == [{"name": "group.version", "maxVersionLevel": 1, "minVersionLevel": 1}]


def test_metadata_names_the_node_and_the_topics(served: ServerThread) -> None:
    topic = served.call(lambda b: b.backend.create_topic("orders", 3))
    _host, port = served.bootstrap.rsplit(":", 1)
    body = roundtrip(served, 3, 12, {"topics": [{"name": "orders"}, {"name": "missing"}]})
    assert body["brokers"][0]["nodeId"] == 1 and body["brokers"][0]["port"] == int(port)
    orders, missing = body["topics"]
    assert orders["topicId"] == topic.topic_id and [p["leaderId"] for p in orders["partitions"]] == [1, 1, 1]
    assert missing["errorCode"] == 3
    by_id = roundtrip(served, 3, 12, {"topics": [{"name": None, "topicId": topic.topic_id}]})
    assert by_id["topics"][0]["name"] == "orders"


def test_find_coordinator_batched_and_single(served: ServerThread) -> None:
    port = int(served.bootstrap.rsplit(":", 1)[1])
    batched = roundtrip(served, 10, 4, {"keyType": 0, "coordinatorKeys": ["a", "b"]})
    assert [(c["key"], c["nodeId"], c["port"], c["errorCode"]) for c in batched["coordinators"]] == [
        ("a", 1, port, 0), ("b", 1, port, 0)]
    single = roundtrip(served, 10, 1, {"key": "a", "keyType": 0})
    assert (single["nodeId"], single["port"], single["errorCode"]) == (1, port, 0)
    txn = roundtrip(served, 10, 4, {"keyType": 1, "coordinatorKeys": ["t"]})
    assert txn["coordinators"][0]["errorCode"] == 15


def test_confluent_kafka_sees_the_cluster(served: ServerThread) -> None:
    served.call(lambda b: b.backend.create_topic("orders", 2))
    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    md = admin.list_topics(timeout=10)
    assert list(md.brokers) == [1]
    assert len(md.topics["orders"].partitions) == 2
