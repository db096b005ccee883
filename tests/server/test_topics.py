"""CreateTopics and CreatePartitions over loopback: Kafka's checks and messages, validateOnly, persistence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic

from groupctl.backends.local import LocalBackend
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.data.topics import (
    CreatableReplicaAssignment,
    CreatableTopic,
    CreatableTopicConfig,
    CreatableTopicResult,
    CreatePartitionsAssignment,
    CreatePartitionsRequestData,
    CreatePartitionsTopic,
    CreatePartitionsTopicResult,
    CreateTopicsRequestData,
)
from groupctl.protocol.primitives import ZERO_UUID
from groupctl.server.server import ServerThread
from tests.server.frames import call
from tests.server.waits import WAIT_S


def directory(served: ServerThread) -> Path:
    return served.server.options.directory


def topic(name: str, partitions: int = 1, factor: int = -1, *, assignments: dict[int, list[int]] | None = None,
          configs: dict[str, str | None] | None = None) -> CreatableTopic:
    """A CreatableTopic; `assignments` maps partition index to broker ids, in request order."""
    return CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=factor,
        assignments=[CreatableReplicaAssignment(partition_index=i, broker_ids=ids)
                     for i, ids in (assignments or {}).items()],
        configs=[CreatableTopicConfig(name=n, value=v) for n, v in (configs or {}).items()])


def create(served: ServerThread, *topics: CreatableTopic, version: int = 7,
           validate_only: bool = False) -> list[CreatableTopicResult]:
    body = call(served, 19, version, CreateTopicsRequestData(topics=list(topics), timeout_ms=5000,
                                                             validate_only=validate_only))
    return body.topics


def grow(served: ServerThread, *requests: tuple[str, int, list[list[int]] | None],
         validate_only: bool = False) -> list[CreatePartitionsTopicResult]:
    """CreatePartitions of `(name, count, broker ids per new partition or None)`."""
    topics = [CreatePartitionsTopic(name=n, count=c, assignments=None if a is None else [
        CreatePartitionsAssignment(broker_ids=ids) for ids in a]) for n, c, a in requests]
    return call(served, 37, 3, CreatePartitionsRequestData(topics=topics, timeout_ms=5000,
                                                           validate_only=validate_only)).results


def test_create_topics_v7_answers_ids_counts_and_configs(served: ServerThread) -> None:
    orders, default, tuned = create(
        served, topic("orders", 3), topic("default"),
        topic("tuned", 2, 1, configs={"retention.ms": "1000", "cleanup.policy": "compact, delete"}),
    )
    ids = served.call(lambda b: {t.name: t.topic_id for t in b.coordinator.topics})
    assert (orders.error_code, orders.topic_id, orders.num_partitions, orders.replication_factor) == (
        0, ids["orders"], 3, 1)
    assert default.num_partitions == 1 and default.topic_id == ids["default"]
    assert tuned.configs is not None
    configs = {c.name: (c.value, c.config_source) for c in tuned.configs}
    assert configs["retention.ms"] == ("1000", 1)
    assert configs["cleanup.policy"] == ("compact,delete", 1)
    assert configs["segment.bytes"] == ("1073741824", 5)
    assert [c.name for c in tuned.configs] == sorted(configs)


def test_created_topics_are_saved_before_the_answer(served: ServerThread) -> None:
    create(served, topic("orders", 2, configs={"retention.ms": "5000"}))
    saved = json.loads((directory(served) / "topics.json").read_text())
    assert [(t["name"], t["partitions"]) for t in saved["topics"]] == [("orders", 2)]
    grow(served, ("orders", 5, None))
    saved = json.loads((directory(served) / "topics.json").read_text())
    assert saved["topics"][0]["partitions"] == 5
    assert json.loads((directory(served) / "topic-configs.json").read_text()) == {
        "topics": {"orders": {"retention.ms": "5000"}}}


@pytest.mark.parametrize(("request_topic", "error", "message"), [
    (topic("bad name"), "INVALID_TOPIC_EXCEPTION",
     "Topic name \"bad name\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"),
    (topic(".."), "INVALID_TOPIC_EXCEPTION", "Topic name cannot be \".\" or \"..\""),
    (topic("orders"), "TOPIC_ALREADY_EXISTS", "Topic 'orders' already exists."),
    (topic("my_topic"), "INVALID_TOPIC_EXCEPTION", "Topic 'my_topic' collides with existing topic: my.topic"),
    (topic("t", 1, 3), "INVALID_REPLICATION_FACTOR",
     "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because "
     "only 1 broker(s) are registered."),
    (topic("t", 1, 0), "INVALID_REPLICATION_FACTOR",
     "Replication factor must be larger than 0, or -1 to use the default value."),
    (topic("t", 0), "INVALID_PARTITIONS", "Number of partitions was set to an invalid non-positive value."),
    (topic("t", -2), "INVALID_PARTITIONS", "Number of partitions was set to an invalid non-positive value."),
    (topic("t", 1, -1, assignments={0: [1]}), "INVALID_REQUEST",
     "A manual partition assignment was specified, but numPartitions was not set to -1."),
    (topic("t", -1, 1, assignments={0: [1]}), "INVALID_REQUEST",
     "A manual partition assignment was specified, but replication factor was not set to -1."),
    (topic("t", -1, -1, assignments={0: [2]}), "INVALID_REPLICA_ASSIGNMENT",
     "The manual partition assignment includes broker 2, but no such broker is registered."),
    (topic("t", -1, -1, assignments={0: []}), "INVALID_REPLICA_ASSIGNMENT",
     "The manual partition assignment includes an empty replica list."),
    (topic("t", -1, -1, assignments={1: [1]}), "INVALID_REPLICA_ASSIGNMENT",
     "partitions should be a consecutive 0-based integer sequence"),
    (topic("t", configs={"no.such.config": "1"}), "INVALID_CONFIG",
     "Unknown topic config name: no.such.config"),
    (topic("t", configs={"retention.ms": None}), "INVALID_CONFIG",
     "Null value not supported for topic configs: retention.ms"),
    (topic("t", configs={"retention.ms": "soon"}), "INVALID_CONFIG",
     "Invalid value soon for configuration retention.ms: Not a number of type LONG"),
    (topic("t", 20_000), "POLICY_VIOLATION", "Unable to perform excessively large batch operation."),
])
def test_create_topics_refuses_as_kafka(
    served: ServerThread, request_topic: CreatableTopic, error: str, message: str
) -> None:
    served.call(lambda b: (b.backend.create_topic("orders", 1), b.backend.create_topic("my.topic", 1)))
    (result,) = create(served, request_topic)
    assert (result.error_code, result.error_message) == (CODE[error], message)
    assert result.topic_id == ZERO_UUID
    assert served.call(lambda b: b.coordinator.topics.names()) == ["my.topic", "orders"]


def test_manual_assignment_on_node_1_creates(served: ServerThread) -> None:
    (result,) = create(served, topic("t", -1, -1, assignments={1: [1], 0: [1]}))
    assert (result.error_code, result.num_partitions) == (0, 2)


def test_duplicate_names_are_answered_once_and_not_created(served: ServerThread) -> None:
    results = create(served, topic("a"), topic("b"), topic("a"))
    assert [(r.name, r.error_code, r.error_message) for r in results] == [
        ("a", CODE["INVALID_REQUEST"], "Duplicate topic name."), ("b", 0, None)]
    assert served.call(lambda b: b.coordinator.topics.names()) == ["b"]


def test_validate_only_checks_and_changes_nothing(served: ServerThread) -> None:
    ok, bad = create(served, topic("orders", 4), topic("x", 1, 2), validate_only=True)
    assert (ok.error_code, ok.num_partitions, ok.topic_id) == (0, 4, ZERO_UUID)
    assert bad.error_code == CODE["INVALID_REPLICATION_FACTOR"]
    served.call(lambda b: b.backend.create_topic("orders", 2))
    (grown,) = grow(served, ("orders", 6, None), validate_only=True)
    assert grown.error_code == 0
    assert served.call(lambda b: b.coordinator.topics.get("orders").partitions) == 2
    assert not (directory(served) / "topic-configs.json").exists()


def test_create_topics_v2_and_v4_without_the_v5_fields(served: ServerThread) -> None:
    (v2,) = create(served, topic("v2", 2), version=2)
    (v4,) = create(served, topic("v4", 2), version=4)
    # before v5 the answer carries only these three fields: every other one stays at its default
    assert v2 == CreatableTopicResult(name="v2", error_code=0, error_message=None)
    assert v4 == CreatableTopicResult(name="v4", error_code=0, error_message=None)


@pytest.mark.parametrize(("request_grow", "error", "message"), [
    (("orders", 3, None), "INVALID_PARTITIONS", "Topic already has 3 partition(s)."),
    (("orders", 2, None), "INVALID_PARTITIONS", "The topic orders currently has 3 partition(s); 2 would not be an "
                                                "increase."),
    (("missing", 4, None), "UNKNOWN_TOPIC_OR_PARTITION", None),
    (("orders", 5, [[1]]), "INVALID_REPLICA_ASSIGNMENT",
     "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified."),
    (("orders", 4, [[1, 1]]), "INVALID_REPLICA_ASSIGNMENT",
     "The manual partition assignment includes the broker 1 more than once."),
    (("orders", 30_000, None), "POLICY_VIOLATION", "Unable to perform excessively large batch operation."),
])
def test_create_partitions_refuses_as_kafka(served: ServerThread, request_grow: tuple, error: str,
                                            message: str | None) -> None:
    served.call(lambda b: b.backend.create_topic("orders", 3))
    (result,) = grow(served, request_grow)
    assert (result.error_code, result.error_message) == (CODE[error], message)
    assert served.call(lambda b: b.coordinator.topics.get("orders").partitions) == 3


def test_create_partitions_with_assignments_and_duplicates(served: ServerThread) -> None:
    served.call(lambda b: (b.backend.create_topic("a", 1), b.backend.create_topic("b", 1)))
    results = grow(served, ("a", 3, [[1], [1]]), ("b", 2, None), ("b", 3, None))
    assert [(r.name, r.error_code) for r in results] == [("a", 0), ("b", CODE["INVALID_REQUEST"])]
    assert served.call(lambda b: [t.partitions for t in b.coordinator.topics]) == [3, 1]


def test_confluent_admin_creates_and_grows_like_the_local_backend(served: ServerThread) -> None:
    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    futures = admin.create_topics([NewTopic("orders", 3, 1), NewTopic("payments", 1, -1), NewTopic("bad", 1, 2)],
                                  request_timeout=WAIT_S)
    assert futures["orders"].result(WAIT_S) is None and futures["payments"].result(WAIT_S) is None
    with pytest.raises(Exception, match="INVALID_REPLICATION_FACTOR"):
        futures["bad"].result(WAIT_S)
    dry = admin.create_topics([NewTopic("dry", 2, 1)], validate_only=True, request_timeout=WAIT_S)
    assert dry["dry"].result(WAIT_S) is None
    grown = admin.create_partitions([NewPartitions("orders", 5), NewPartitions("payments", 1)], request_timeout=WAIT_S)
    assert grown["orders"].result(WAIT_S) is None
    with pytest.raises(Exception, match="Topic already has 1 partition"):
        grown["payments"].result(WAIT_S)
    dry_grow = admin.create_partitions([NewPartitions("payments", 4)], validate_only=True, request_timeout=WAIT_S)
    assert dry_grow["payments"].result(WAIT_S) is None
    described = admin.list_topics(timeout=WAIT_S).topics
    over_the_wire = {name: len(t.partitions) for name, t in described.items()}
    ids = served.call(lambda b: {t.name: t.topic_id for t in b.coordinator.topics})
    served.stop()
    with LocalBackend(directory(served)) as local:
        assert {t.name: t.partitions for t in local.topics} == over_the_wire == {"orders": 5, "payments": 1}
        assert {t.name: t.topic_id for t in local.topics} == ids
        assert local.end_offsets_by_topic["orders"] == [0] * 5
