"""The Kafka backend's DeleteGroups and OffsetDelete against fake brokers: the paths `groupctl serve`
does not take on demand (a moved coordinator, old versions, a broker without OffsetDelete)."""

from __future__ import annotations

from typing import Any

import pytest

from groupctl.backends.kafka import KafkaBackend
from groupctl.errors import GroupctlError, GroupNotFound, KafkaError
from groupctl.kafka.config import ClientConfig
from groupctl.model import TopicPartition
from groupctl.protocol.data.group_admin import (
    DeletableGroupResult,
    DeleteGroupsResponseData,
    FindCoordinatorResponseData,
)
from groupctl.protocol.data.offsets import (
    OffsetDeleteResponseData,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)
from tests.fake_broker import DEFAULT_VERSIONS, FakeBroker, coordinator_reply
from tests.server.waits import OUTLASTS_S, promptly

NOT_COORDINATOR = 16
NON_EMPTY_GROUP = 68
GROUP_ID_NOT_FOUND = 69
GROUP_SUBSCRIBED_TO_TOPIC = 86


def backend(broker: FakeBroker) -> KafkaBackend:
    """The wire backend on `broker`, with a timeout no test waits out (see `promptly`)."""
    return KafkaBackend(ClientConfig.from_properties({"bootstrap.servers": broker.address}), timeout=OUTLASTS_S)


def coordinator_is(broker: FakeBroker) -> Any:
    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        return coordinator_reply(request, broker.node_id, "127.0.0.1", broker.port)

    return find


def test_delete_groups_follows_a_moved_coordinator_and_keeps_each_answer(fake_cluster: Any) -> None:
    b0, b1 = fake_cluster(2)
    finds: list[int] = []

    def find(request: Any, state: Any) -> dict[str, Any]:
        finds.append(1)
        return (coordinator_is(b0) if len(finds) == 1 else coordinator_is(b1))(request, state)

    for b in (b0, b1):
        b.on(10, find)
    b0.on(42, lambda r, s: DeleteGroupsResponseData(results=[
        DeletableGroupResult(group_id=g, error_code=NOT_COORDINATOR) for g in r.body.groups_names]))
    answers = {"a": (0, None), "b": (NON_EMPTY_GROUP, None), "c": (GROUP_ID_NOT_FOUND, "Group c not found.")}
    b1.on(42, lambda r, s: DeleteGroupsResponseData(results=[
        DeletableGroupResult(group_id=g, error_code=answers[g][0], error_message=answers[g][1])
        for g in r.body.groups_names]))
    with promptly("NOT_COORDINATOR is an answer, not the timeout waited out"), backend(b0) as kafka:
        results = kafka.delete_groups(["a", "b", "c"])
    assert [(r.group_id, r.outcome, r.message) for r in results] == [
        ("a", "deleted", None), ("b", "NON_EMPTY_GROUP", "The group is not empty."),
        ("c", "GROUP_ID_NOT_FOUND", "Group c not found.")]
    assert [r.body.groups_names for r in b1.requests_for(42)] == [["a", "b", "c"]]  # one batch


def test_old_delete_groups_versions_are_spoken(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions={**DEFAULT_VERSIONS, 42: (0, 1)})
    broker.on(10, coordinator_is(broker))
    broker.on(42, lambda r, s: DeleteGroupsResponseData(results=[DeletableGroupResult(group_id="a", error_code=0)]))
    with backend(broker) as kafka:
        assert [r.outcome for r in kafka.delete_groups(["a"])] == ["deleted"]
    assert [r.api_version for r in broker.requests_for(42)] == [1]


def test_offset_delete_per_partition_and_group_level_errors(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(10, coordinator_is(broker))
    replies = iter([
        OffsetDeleteResponseData(error_code=0, topics=[OffsetDeleteResponseTopic(name="t", partitions=[
            OffsetDeleteResponsePartition(partition_index=1, error_code=GROUP_SUBSCRIBED_TO_TOPIC),
            OffsetDeleteResponsePartition(partition_index=0, error_code=0)])]),
        OffsetDeleteResponseData(error_code=GROUP_ID_NOT_FOUND, topics=[]),
        OffsetDeleteResponseData(error_code=NON_EMPTY_GROUP, topics=[]),
    ])
    broker.on(47, lambda r, s: next(replies))
    wanted = [TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 0)]
    with backend(broker) as kafka:
        results = kafka.delete_offsets("g", wanted)
        with pytest.raises(GroupNotFound):
            kafka.delete_offsets("g", wanted)
        with pytest.raises(KafkaError) as refused:
            kafka.delete_offsets("g", wanted)
    assert [(r.topic, r.partition, r.outcome) for r in results] == [
        ("t", 0, "deleted"), ("t", 1, "GROUP_SUBSCRIBED_TO_TOPIC"), ("u", 0, "UNKNOWN_SERVER_ERROR")]
    assert "forbidden while the consumer group is actively subscribed" in (results[1].message or "")
    assert "did not mention this partition" in (results[2].message or "")
    assert refused.value.name == "NON_EMPTY_GROUP" and "OffsetDelete for group 'g'" in str(refused.value)
    assert [t.to_dict() for t in broker.requests_for(47)[0].body.topics] == [
        {"name": "t", "partitions": [{"partitionIndex": 0}, {"partitionIndex": 1}]},
        {"name": "u", "partitions": [{"partitionIndex": 0}]}]


def test_a_broker_without_offset_delete_is_named(fake_cluster: Any) -> None:
    versions = {k: v for k, v in DEFAULT_VERSIONS.items() if k != 47}
    (broker,) = fake_cluster(api_versions=versions)
    broker.on(10, coordinator_is(broker))
    with backend(broker) as kafka, pytest.raises(GroupctlError, match=r"has no OffsetDelete \(API 47\)"):
        kafka.delete_offsets("g", [TopicPartition("t", 0)])
