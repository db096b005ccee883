"""The Kafka backend's part of `group offsets reset`, through confluent-kafka's AdminClient.

ListOffsets (earliest, by timestamp, latest) and the admin OffsetCommit
(`alter_consumer_group_offsets`: generation -1, no member id, one request per group), on the
command's `AdminSession`, so its deadline and its reading of librdkafka's reports apply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from groupctl.backends.kafka_admin import AdminCallFailed, AdminSession
from groupctl.errors import KAFKA_ERROR_NAMES
from groupctl.kafka.deadline import Deadline
from groupctl.model import TopicPartition

__all__ = ["alter_offsets", "list_offsets", "partition_counts"]


def list_offsets(
    admin: AdminSession, partitions: Iterable[TopicPartition], spec: Callable[[], Any], deadline: Deadline
) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
    """ListOffsets with one OffsetSpec for every partition: offsets (-1 where the broker found none)
    and the error name of each partition without an answer."""
    from confluent_kafka import TopicPartition as LibrdkafkaPartition

    wanted = sorted(set(partitions))
    if not wanted:
        return {}, {}
    request = {LibrdkafkaPartition(tp.topic, tp.partition): spec() for tp in wanted}
    futures = admin.client().list_offsets(request, request_timeout=admin.request_timeout(deadline))
    offsets: dict[TopicPartition, int] = {}
    errors: dict[TopicPartition, str] = {}
    for asked, future in futures.items():
        tp = TopicPartition(asked.topic, asked.partition)
        try:
            offsets[tp] = admin.wait_for(future, deadline, "ListOffsets").offset
        except AdminCallFailed as exc:
            errors[tp] = exc.name
    return offsets, errors


def partition_counts(admin: AdminSession, topics: Iterable[str], deadline: Deadline) -> dict[str, int]:
    """Each named topic's partition count from the cluster's Metadata; topics it lacks are left out."""
    wanted = set(topics)
    metadata = admin.metadata(deadline)  # a broker failing it is an error said in words, not a KafkaException
    return {name: len(t.partitions) for name, t in metadata.topics.items() if name in wanted and t.error is None}


def alter_offsets(
    admin: AdminSession, group_id: str, offsets: Mapping[TopicPartition, int], deadline: Deadline
) -> dict[TopicPartition, str | None]:
    """One admin OffsetCommit for the group; the error name per partition (None: committed).

    librdkafka fails the whole future when any partition failed; every partition then carries the
    error it reports (the broker answers a group with members UNKNOWN_MEMBER_ID for each)."""
    from confluent_kafka import ConsumerGroupTopicPartitions
    from confluent_kafka import TopicPartition as LibrdkafkaPartition

    request = ConsumerGroupTopicPartitions(
        group_id, [LibrdkafkaPartition(tp.topic, tp.partition, offset) for tp, offset in sorted(offsets.items())]
    )
    futures = admin.client().alter_consumer_group_offsets([request], request_timeout=admin.request_timeout(deadline))
    try:
        answer = admin.wait_for(futures[group_id], deadline, f"OffsetCommit for group '{group_id}'")
    except AdminCallFailed as exc:
        return {tp: exc.name for tp in offsets}
    out: dict[TopicPartition, str | None] = {tp: None for tp in offsets}
    for tp in answer.topic_partitions:
        key = TopicPartition(tp.topic, tp.partition)
        if tp.error is not None:
            code = tp.error.code()
            out[key] = KAFKA_ERROR_NAMES.get(code, tp.error.name())
    return out
