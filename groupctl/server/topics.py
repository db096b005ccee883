"""CreateTopics and CreatePartitions: topics made over the wire, checked as Kafka's controller checks them.

One node means one replica: a replication factor of 1 (or -1, the default) is all there is, and a
manual assignment may name broker 1 only. Every refusal carries the code and message a Kafka 4.x
controller gives. `validateOnly` runs every check and changes nothing. A change is saved to DIR
before the answer leaves (topics.json, and the topic's creation configs in topic-configs.json), so
a client that was told "created" finds the topic after a restart.

Kafka's controller refuses a request that would write more than 10,000 metadata records
("Unable to perform excessively large batch operation."); the same bound keeps a client asking for
two billion partitions from exhausting this process.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from groupctl.coordinator.topics import validate_topic_name
from groupctl.errors import KafkaError
from groupctl.protocol.data.topics import (
    CreatableTopic,
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreatePartitionsRequestData,
    CreatePartitionsResponseData,
    CreatePartitionsTopic,
    CreatePartitionsTopicResult,
    CreateTopicsRequestData,
    CreateTopicsResponseData,
)
from groupctl.protocol.primitives import ZERO_UUID
from groupctl.server.broker import Broker
from groupctl.server.config_catalog import (
    SOURCE_IDS,
    read_topic_overrides,
    save_topic_overrides,
    topic_entries,
    validate_topic_configs,
)
from groupctl.server.dispatch import RequestContext, handles

#: `QuorumController.MAX_RECORDS_PER_USER_OP`: metadata records one request may write.
MAX_RECORDS_PER_REQUEST = 10_000
TOO_LARGE = "Unable to perform excessively large batch operation."


def _normalized(name: str) -> str:
    """Kafka's collision rule: '.' and '_' look the same in metric names."""
    return name.replace(".", "_")


def check_replicas(broker_ids: list[int], expected: int | None, node_id: int) -> int:
    """`validateManualPartitionAssignment` on one partition's replica list; returns its length."""
    if not broker_ids:
        raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                         "The manual partition assignment includes an empty replica list.")
    seen: set[int] = set()
    for broker_id in sorted(broker_ids):
        if broker_id != node_id:
            raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                             f"The manual partition assignment includes broker {broker_id}, but no such broker is "
                             "registered.")
        if broker_id in seen:
            raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                             f"The manual partition assignment includes the broker {broker_id} more than once.")
        seen.add(broker_id)
    if expected is not None and len(broker_ids) != expected:
        raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                         f"The manual partition assignment includes a partition with {len(broker_ids)} replica(s), but "
                         f"this is not consistent with previous partitions, which have {expected} replica(s).")
    return len(broker_ids)


@dataclass
class TopicPlan:
    """What one CreatableTopic would create, once every check has passed."""

    name: str
    partitions: int
    configs: dict[str, str] = field(default_factory=dict)

    @property
    def records(self) -> int:
        return 1 + self.partitions + len(self.configs)


def plan_topic(broker: Broker, topic: CreatableTopic) -> TopicPlan:
    """Kafka's checks for one new topic, in its order; raises the KafkaError the topic is refused with."""
    name = topic.name
    validate_topic_name(name)
    existing = broker.topics
    if name in existing:
        raise KafkaError("TOPIC_ALREADY_EXISTS", f"Topic '{name}' already exists.")
    colliding = sorted(t for t in existing.names() if _normalized(t) == _normalized(name))
    if colliding:
        raise KafkaError("INVALID_TOPIC_EXCEPTION", f"Topic '{name}' collides with existing topic: {colliding[0]}")
    configs = validate_topic_configs([(c.name, c.value) for c in topic.configs])
    partitions, factor = topic.num_partitions, topic.replication_factor
    assignments = topic.assignments
    if assignments:
        if factor != -1:
            raise KafkaError("INVALID_REQUEST",
                             "A manual partition assignment was specified, but replication factor was not set to -1.")
        if partitions != -1:
            raise KafkaError("INVALID_REQUEST",
                             "A manual partition assignment was specified, but numPartitions was not set to -1.")
        indexes: set[int] = set()
        expected: int | None = None
        for assignment in assignments:
            index = assignment.partition_index
            if index in indexes:
                raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                                 f"Found multiple manual partition assignments for partition {index}")
            expected = check_replicas(assignment.broker_ids, expected, broker.node_id)
            indexes.add(index)
        if indexes != set(range(len(indexes))):
            raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                             "partitions should be a consecutive 0-based integer sequence")
        return TopicPlan(name, len(indexes), configs)
    if factor < -1 or factor == 0:
        raise KafkaError("INVALID_REPLICATION_FACTOR",
                         "Replication factor must be larger than 0, or -1 to use the default value.")
    if partitions < -1 or partitions == 0:
        raise KafkaError("INVALID_PARTITIONS", "Number of partitions was set to an invalid non-positive value.")
    if factor > 1:
        raise KafkaError("INVALID_REPLICATION_FACTOR",
                         f"Unable to replicate the partition {factor} time(s): The target replication factor of "
                         f"{factor} cannot be reached because only 1 broker(s) are registered.")
    return TopicPlan(name, 1 if partitions == -1 else partitions, configs)


def _result(name: str, error: KafkaError) -> CreatableTopicResult:
    return CreatableTopicResult(name=name, topic_id=ZERO_UUID, error_code=error.code, error_message=error.message)


def _created(plan: TopicPlan, topic_id: uuid.UUID) -> CreatableTopicResult:
    return CreatableTopicResult(
        name=plan.name, topic_id=topic_id, error_code=0, error_message=None, topic_config_error_code=0,
        num_partitions=plan.partitions, replication_factor=1,
        configs=[
            CreatableTopicConfigs(name=e.name, value=e.value, read_only=e.read_only,
                                  config_source=SOURCE_IDS[e.source], is_sensitive=False)
            for e in topic_entries(plan.configs)
        ],
    )


Entry = TypeVar("Entry", CreatableTopic, CreatePartitionsTopic)
Plan = TypeVar("Plan")
Answer = TypeVar("Answer", CreatableTopicResult, CreatePartitionsTopicResult)


def plan_each(
    requested: list[Entry], plan: Callable[[Entry], Plan], failed: Callable[[str, KafkaError], Answer]
) -> tuple[list[Plan], dict[str, Answer]]:
    """Kafka's first pass over a CreateTopics/CreatePartitions request: a name given twice is
    INVALID_REQUEST "Duplicate topic name." (answered once), every other name is checked by `plan`.
    Returns the plans of the names that passed, and the answers of those that did not."""
    duplicates = {name for name, count in Counter(t.name for t in requested).items() if count > 1}
    plans: list[Plan] = []
    results: dict[str, Answer] = {}
    seen: set[str] = set()
    for entry in requested:
        name = entry.name
        if name in seen:
            continue
        seen.add(name)
        if name in duplicates:
            results[name] = failed(name, KafkaError("INVALID_REQUEST", "Duplicate topic name."))
            continue
        try:
            plans.append(plan(entry))
        except KafkaError as exc:
            results[name] = failed(name, exc)
    return plans, results


@handles(19)
async def create_topics(ctx: RequestContext, body: CreateTopicsRequestData) -> CreateTopicsResponseData:
    broker = ctx.broker
    validate_only = body.validate_only
    requested = body.topics
    plans, results = plan_each(requested, lambda topic: plan_topic(broker, topic), _result)
    if sum(p.records for p in plans) > MAX_RECORDS_PER_REQUEST:
        for plan in plans:
            results[plan.name] = _result(plan.name, KafkaError("POLICY_VIOLATION", TOO_LARGE))
        plans = []
    created = False
    overrides = read_topic_overrides(broker.directory) if plans and not validate_only else {}
    for plan in plans:
        if validate_only:
            results[plan.name] = _created(plan, ZERO_UUID)
            continue
        try:
            topic = broker.backend.create_topic(plan.name, plan.partitions)
        except KafkaError as exc:
            results[plan.name] = _result(plan.name, exc)
            continue
        created = True
        if plan.configs:
            overrides[plan.name] = plan.configs
        results[plan.name] = _created(plan, topic.topic_id)
    if created:
        save_topic_overrides(broker.directory, overrides)
        broker.save()
    return CreateTopicsResponseData(throttle_time_ms=0,
                                    topics=[results[name] for name in dict.fromkeys(t.name for t in requested)])


class Growth(NamedTuple):
    """A topic CreatePartitions will grow: to `partitions` partitions, `added` more."""

    name: str
    partitions: int
    added: int


def plan_partitions(broker: Broker, request: CreatePartitionsTopic) -> int:
    """Kafka's checks for growing one topic; returns how many partitions it would add."""
    name, count = request.name, request.count
    topic = broker.topics.get(name)
    if topic is None:
        raise KafkaError("UNKNOWN_TOPIC_OR_PARTITION", None)
    if count == topic.partitions:
        raise KafkaError("INVALID_PARTITIONS", f"Topic already has {topic.partitions} partition(s).")
    if count < topic.partitions:
        raise KafkaError("INVALID_PARTITIONS",
                         f"The topic {name} currently has {topic.partitions} partition(s); {count} would not be an "
                         "increase.")
    additional = count - topic.partitions
    assignments = request.assignments
    if assignments is not None:
        if len(assignments) != additional:
            raise KafkaError("INVALID_REPLICA_ASSIGNMENT",
                             f"Attempted to add {additional} additional partition(s), but only {len(assignments)} "
                             "assignment(s) were specified.")
        for assignment in assignments:
            check_replicas(assignment.broker_ids, 1, broker.node_id)
    return additional


@handles(37)
async def create_partitions(ctx: RequestContext, body: CreatePartitionsRequestData) -> CreatePartitionsResponseData:
    broker = ctx.broker
    validate_only = body.validate_only
    requested = body.topics
    growing, results = plan_each(
        requested, lambda entry: Growth(entry.name, entry.count, plan_partitions(broker, entry)),
        _partitions_result,
    )
    if sum(g.added for g in growing) > MAX_RECORDS_PER_REQUEST:
        for g in growing:
            results[g.name] = _partitions_result(g.name, KafkaError("POLICY_VIOLATION", TOO_LARGE))
        growing = []
    changed = False
    for name, count, _ in growing:
        try:
            if not validate_only:
                broker.backend.add_partitions(name, count)
                changed = True
            results[name] = CreatePartitionsTopicResult(name=name, error_code=0, error_message=None)
        except KafkaError as exc:
            results[name] = _partitions_result(name, exc)
    if changed:
        broker.save()
    return CreatePartitionsResponseData(throttle_time_ms=0,
                                        results=[results[name] for name in dict.fromkeys(t.name for t in requested)])


def _partitions_result(name: str, error: KafkaError) -> CreatePartitionsTopicResult:
    return CreatePartitionsTopicResult(name=name, error_code=error.code, error_message=error.message)
