"""OffsetDelete (47) over the wire: KafkaApis' answers first (unknown topics and partitions), then the
coordinator's, a group-level error as the top-level ErrorCode with the unknown partitions still listed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.data.offsets import (
    OffsetDeleteRequestData,
    OffsetDeleteRequestPartition,
    OffsetDeleteRequestTopic,
    OffsetDeleteResponseData,
)
from groupctl.server.server import ServerThread
from tests.heartbeats import hb
from tests.server.frames import Wire


@pytest.fixture
def wire(served: ServerThread) -> Iterator[Wire]:
    def setup(broker) -> None:
        broker.backend.create_topic("orders", 2)
        broker.backend.create_topic("audit", 1)
        c = broker.coordinator
        c.commit_offsets("simple", "", -1, [CommitPartition("orders", 0, 5), CommitPartition("audit", 0, 6)])
        r = c.heartbeat(hb("cg", "m1", 0, rebalance_timeout_ms=5000, subscribed_topic_names=["orders"],
                                         topic_partitions=[]))
        c.commit_offsets("cg", "m1", r.member_epoch, [CommitPartition("audit", 0, 1)])

    served.call(setup)
    opened = Wire(served, "client-0")
    yield opened
    opened.close()


def request(group: str, topics: dict[str, list[int]]) -> OffsetDeleteRequestData:
    return OffsetDeleteRequestData(group_id=group, topics=[
        OffsetDeleteRequestTopic(name=t, partitions=[OffsetDeleteRequestPartition(partition_index=p) for p in ps])
        for t, ps in topics.items()])


def answers(body: OffsetDeleteResponseData) -> list[tuple[str, int, int]]:
    return sorted((t.name, p.partition_index, p.error_code) for t in body.topics for p in t.partitions)


def test_unknown_partitions_are_answered_before_the_coordinator(wire: Wire, served: ServerThread) -> None:
    body = wire.call(47, 0, request("simple", {"orders": [0, 7], "nope": [0], "audit": [0]}))
    assert body.error_code == 0
    assert answers(body) == [("audit", 0, 0), ("nope", 0, CODE["UNKNOWN_TOPIC_OR_PARTITION"]), ("orders", 0, 0),
                             ("orders", 7, CODE["UNKNOWN_TOPIC_OR_PARTITION"])]
    assert served.call(lambda b: dict(b.coordinator.runtime.state.offsets.get("simple", {}))) == {}


def test_a_subscribed_topic_per_partition_and_group_level_errors(wire: Wire, served: ServerThread) -> None:
    body = wire.call(47, 0, request("cg", {"orders": [0, 1], "audit": [0]}))
    subscribed = CODE["GROUP_SUBSCRIBED_TO_TOPIC"]
    assert (body.error_code, answers(body)) == (0, [("audit", 0, 0), ("orders", 0, subscribed),
                                                      ("orders", 1, subscribed)])
    missing = wire.call(47, 0, request("absent", {"orders": [0], "nope": [1]}))
    assert (missing.error_code, answers(missing)) == (
        CODE["GROUP_ID_NOT_FOUND"], [("nope", 1, CODE["UNKNOWN_TOPIC_OR_PARTITION"])])
    assert wire.call(47, 0, request("", {"orders": [0]})).to_dict() == {"errorCode": CODE["INVALID_GROUP_ID"],
                                                                      "throttleTimeMs": 0, "topics": []}
