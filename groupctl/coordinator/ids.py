"""Seedable identifiers: member ids and topic ids in Kafka's form, reproducible in tests."""

from __future__ import annotations

import random
import uuid

from groupctl.protocol.primitives import uuid_to_kafka


class IdGenerator:
    """Random UUIDs from a seeded generator (`None`: the system's entropy)."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def uuid(self) -> uuid.UUID:
        """A random version-4 UUID that is never Kafka's reserved zero or one id."""
        while True:
            value = uuid.UUID(int=self._random.getrandbits(128), version=4)
            if value.int > 1:
                return value

    def member_id(self) -> str:
        """What Kafka's `Uuid.randomUuid().toString()` gives: 22 base64url characters."""
        return uuid_to_kafka(self.uuid())
