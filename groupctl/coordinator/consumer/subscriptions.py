"""What a KIP-848 group subscribes to: topic names by member, regexes resolved, and the metadata hash
of those topics whose change means a new group epoch."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from groupctl.coordinator.state import GroupIndex
from groupctl.coordinator.topics import TopicImage
from groupctl.protocol.data.records import ConsumerGroupMemberMetadataValue, ConsumerGroupRegularExpressionValue

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState


def metadata_hash(topics: Iterable[tuple[str, uuid.UUID, int]]) -> int:
    """A signed 64-bit digest of the subscribed topics' names, ids and partition counts.

    It plays the part of Kafka 4.1's MetadataHash (a change means a rebalance); the bytes hashed are
    groupctl's own, so the value is not Kafka's.
    """
    items = sorted(topics)
    if not items:
        return 0
    digest = hashlib.blake2b(digest_size=8)
    for name, topic_id, partitions in items:
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(topic_id.bytes)
        digest.update(partitions.to_bytes(4, "big"))
    return int.from_bytes(digest.digest(), "big", signed=True)


def topic_facts(topics: TopicImage, names: Iterable[str]) -> list[tuple[str, uuid.UUID, int]]:
    """(name, id, partitions) of the named topics that exist."""
    out = []
    for name in names:
        topic = topics.get(name)
        if topic is not None:
            out.append((name, topic.topic_id, topic.partitions))
    return out


def topics_hash(topics: TopicImage, names: Iterable[str]) -> int:
    return metadata_hash(topic_facts(topics, names))


def stored_facts(group: ConsumerGroupState) -> list[tuple[str, uuid.UUID, int]]:
    """The subscribed topics as Kafka 4.0's type 4 gives them (none without one)."""
    if group.partition_metadata is None:
        return []
    return sorted((t.topic_name, t.topic_id, t.num_partitions) for t in group.partition_metadata.topics)


def metadata_changed(group: ConsumerGroupState | None, facts: list[tuple[str, uuid.UUID, int]],
                     kafka_40: bool) -> bool:
    """Whether the subscribed topics moved, as the configured Kafka decides it: 4.0 compares them with its
    type 4, 4.1+ compares their hash with type 3's MetadataHash. A log the other layout wrote therefore
    rebalances once when the broker changes version, as a real upgrade (or rollback) does."""
    if group is None:
        return True
    if kafka_40:
        return stored_facts(group) != sorted(facts)
    return metadata_hash(facts) != group.metadata_hash


def subscribed_names(regexes_resolved: Mapping[str, ConsumerGroupRegularExpressionValue], idx: GroupIndex,
                     old: ConsumerGroupMemberMetadataValue, updated: ConsumerGroupMemberMetadataValue) -> set[str]:
    """`computeSubscribedTopicNames(member, updatedMember)`: the group's topics after this member's change."""
    names = dict(idx.names)
    for name in old.subscribed_topic_names:
        names[name] = names.get(name, 0) - 1
    for name in updated.subscribed_topic_names:
        names[name] = names.get(name, 0) + 1
    regexes = dict(idx.regex_members)
    if old.subscribed_topic_regex:
        regexes[old.subscribed_topic_regex] = regexes.get(old.subscribed_topic_regex, 0) - 1
    if updated.subscribed_topic_regex:
        regexes[updated.subscribed_topic_regex] = regexes.get(updated.subscribed_topic_regex, 0) + 1
    out = {n for n, k in names.items() if k > 0}
    for regex, resolved in regexes_resolved.items():
        if regexes.get(regex, 0) > 0:
            out.update(resolved.topics)
    return out


def subscribed_ids(topics: TopicImage, regexes_resolved: Mapping[str, ConsumerGroupRegularExpressionValue],
                   member: ConsumerGroupMemberMetadataValue) -> frozenset[uuid.UUID]:
    """The topic ids one member subscribes to: by name, or through its regex as last resolved."""
    names = set(member.subscribed_topic_names)
    regex = member.subscribed_topic_regex
    if regex:
        resolved = regexes_resolved.get(regex)
        if resolved is not None:
            names.update(resolved.topics)
    out = set()
    for name in names:
        topic = topics.get(name)
        if topic is not None:
            out.add(topic.topic_id)
    return frozenset(out)
