"""The coordinator's view of the cluster's topics (Kafka's metadata image, reduced to what groups use).

Topic metadata is not in `__consumer_offsets`; Kafka keeps it in the metadata log. Here it is a
small object the coordinator is given, which the local backend persists beside the log.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from groupctl.errors import KafkaError
from groupctl.protocol.primitives import uuid_to_kafka

#: Kafka's topic name rule (`Topic.validate`): legal characters and length.
_LEGAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
MAX_NAME_LENGTH = 249


@dataclass(frozen=True, slots=True)
class Topic:
    name: str
    topic_id: uuid.UUID
    partitions: int


def validate_topic_name(name: str) -> None:
    """Kafka's `Topic.validate`, with its messages (INVALID_TOPIC_EXCEPTION)."""
    if not name:
        raise KafkaError("INVALID_TOPIC_EXCEPTION", "Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise KafkaError("INVALID_TOPIC_EXCEPTION", "Topic name cannot be \".\" or \"..\"")
    if len(name) > MAX_NAME_LENGTH:
        raise KafkaError(
            "INVALID_TOPIC_EXCEPTION",
            f"Topic name is illegal, it can't be longer than {MAX_NAME_LENGTH} characters, topic name: {name}",
        )
    if not set(name) <= _LEGAL:
        raise KafkaError(
            "INVALID_TOPIC_EXCEPTION",
            f"Topic name \"{name}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' "
            "and '-'",
        )


class TopicImage:
    """Topics by name and by id, and a version that moves with every change.

    `version` plays the part of the metadata image offset Kafka records in a resolved regex;
    `new_topics_version` is the version at which a topic was last created (regexes re-resolve then).
    """

    def __init__(self) -> None:
        self._by_name: dict[str, Topic] = {}
        self._by_id: dict[uuid.UUID, Topic] = {}
        self.version = 0
        self.new_topics_version = 0

    def __iter__(self) -> Iterator[Topic]:
        return iter(sorted(self._by_name.values(), key=lambda t: t.name))

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def get(self, name: str) -> Topic | None:
        return self._by_name.get(name)

    def by_id(self, topic_id: uuid.UUID) -> Topic | None:
        return self._by_id.get(topic_id)

    def create(self, name: str, partitions: int, topic_id: uuid.UUID) -> Topic:
        """CreateTopics for one topic, with Kafka's validation errors."""
        validate_topic_name(name)
        if name in self._by_name:
            raise KafkaError("TOPIC_ALREADY_EXISTS", f"Topic '{name}' already exists.")
        if partitions <= 0:
            raise KafkaError("INVALID_PARTITIONS", "Number of partitions was set to an invalid non-positive value.")
        if topic_id in self._by_id:
            raise KafkaError("INCONSISTENT_TOPIC_ID", f"Topic id {uuid_to_kafka(topic_id)} is already in use.")
        topic = Topic(name, topic_id, partitions)
        self._by_name[name] = topic
        self._by_id[topic_id] = topic
        self.version += 1
        self.new_topics_version = self.version
        return topic

    def add_partitions(self, name: str, total: int) -> Topic:
        """CreatePartitions: grow `name` to `total` partitions (Kafka cannot shrink a topic)."""
        topic = self._by_name.get(name)
        if topic is None:
            raise KafkaError("UNKNOWN_TOPIC_OR_PARTITION", f"The topic '{name}' does not exist.")
        if total < topic.partitions:
            raise KafkaError(
                "INVALID_PARTITIONS",
                f"Topic currently has {topic.partitions} partitions, which is higher than the requested {total}.",
            )
        if total == topic.partitions:
            raise KafkaError("INVALID_PARTITIONS", f"Topic already has {topic.partitions} partitions.")
        grown = Topic(name, topic.topic_id, total)
        self._by_name[name] = grown
        self._by_id[topic.topic_id] = grown
        self.version += 1
        return grown

    def to_jsonable(self) -> dict:
        """For persistence beside the log: plain values only."""
        return {
            "version": self.version,
            "newTopicsVersion": self.new_topics_version,
            "topics": [
                {"name": t.name, "topicId": uuid_to_kafka(t.topic_id), "partitions": t.partitions} for t in self
            ],
        }

    @classmethod
    def from_jsonable(cls, data: dict) -> TopicImage:
        from groupctl.protocol.primitives import uuid_from_kafka

        image = cls()
        for t in data.get("topics", ()):
            topic = Topic(t["name"], uuid_from_kafka(t["topicId"]), int(t["partitions"]))
            image._by_name[topic.name] = topic
            image._by_id[topic.topic_id] = topic
        image.version = int(data.get("version", 0))
        image.new_topics_version = int(data.get("newTopicsVersion", 0))
        return image

    def copy(self) -> TopicImage:
        return TopicImage.from_jsonable(self.to_jsonable())
