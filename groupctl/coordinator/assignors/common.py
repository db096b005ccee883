"""What both assignors share: the member spec, the result type, Java's string order, subscriptions
resolved against the topics, and claiming partitions that members already hold."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from types import MappingProxyType

Assignment = dict[uuid.UUID, frozenset[int]]

_NO_ASSIGNMENT: Mapping[uuid.UUID, frozenset[int]] = MappingProxyType({})


class AssignorError(Exception):
    """The input cannot be assigned at all (e.g. a negative partition count)."""


@dataclass(frozen=True, slots=True)
class MemberSpec:
    """What an assignor knows of one member: its subscription and its current target assignment."""

    instance_id: str | None
    rack_id: str | None
    subscribed_topic_ids: frozenset[uuid.UUID]
    assigned: Mapping[uuid.UUID, frozenset[int]] = field(default_factory=lambda: _NO_ASSIGNMENT)


def java_key(text: str) -> bytes:
    """Java compares strings by UTF-16 code unit; big-endian UTF-16 bytes compare the same way."""
    return text.encode("utf-16-be", "surrogatepass")


def java_sorted(strings: Iterable[str]) -> list[str]:
    """Sort like Java's `String.compareTo`; plain sorting agrees with it for ASCII, the common case."""
    items = list(strings)
    if "".join(items).isascii():  # one C pass over the text, not a call per string
        items.sort()
    else:
        items.sort(key=java_key)
    return items


def check_topics(topics: Mapping[uuid.UUID, int]) -> None:
    if not topics or min(topics.values()) >= 0:
        return
    for topic_id, count in topics.items():
        if count < 0:
            raise AssignorError(f"topic {topic_id} has a negative partition count ({count})")


def effective_subscriptions(
    members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]
) -> dict[str, frozenset[uuid.UUID]]:
    """Each member's subscription less unknown topics. Done once per distinct subscription (members usually
    share a few), with frozenset operations: they reuse the sets' stored hashes, where a lookup by topic id
    would run `uuid.UUID.__hash__`, which is Python code, once per subscribed topic."""
    known = frozenset(topics)
    cache: dict[frozenset[uuid.UUID], frozenset[uuid.UUID]] = {}
    result: dict[str, frozenset[uuid.UUID]] = {}
    for member_id, spec in members.items():
        subscribed = spec.subscribed_topic_ids
        if type(subscribed) is not frozenset:
            subscribed = frozenset(subscribed)
        effective = cache.get(subscribed)
        if effective is None:
            effective = cache[subscribed] = subscribed if subscribed <= known else subscribed & known
        result[member_id] = effective
    return result


def claim(
    assigned: Mapping[uuid.UUID, frozenset[int]],
    subscribed: frozenset[uuid.UUID],
    topics: Mapping[uuid.UUID, int],
    claimed: dict[uuid.UUID, set[int]],
) -> tuple[dict[uuid.UUID, frozenset[int]], int]:
    """The part of a current assignment a member may keep: subscribed, existing, in range, and not already
    kept by an earlier member. Records what it keeps in `claimed` (topic id -> partitions)."""
    kept: dict[uuid.UUID, frozenset[int]] = {}
    total = 0
    for topic_id, parts in assigned.items():
        if not parts or topic_id not in subscribed:
            continue
        if type(parts) is not frozenset:
            parts = frozenset(parts)
        count = topics[topic_id]
        if min(parts) < 0 or max(parts) >= count:
            parts = frozenset(p for p in parts if 0 <= p < count)
            if not parts:
                continue
        taken = claimed.get(topic_id)
        if taken is None:
            claimed[topic_id] = set(parts)
        elif taken.isdisjoint(parts):
            taken.update(parts)
        else:
            parts = parts - taken
            if not parts:
                continue
            taken.update(parts)
        kept[topic_id] = parts
        total += len(parts)
    return kept, total


def free_partitions(count: int, taken: set[int] | None, given_up: list[int] | None = None) -> range | list[int]:
    """The partitions of a topic that nobody keeps, ascending. A `range` when none is kept: slicing it
    later costs nothing per partition."""
    if not taken:
        return range(count)
    if given_up:
        if len(taken) == count:
            return sorted(given_up)
        return sorted(set(range(count)).difference(taken).union(given_up))
    if len(taken) == count:
        return []
    return sorted(set(range(count)).difference(taken))


def partition_run(
    free: range | list[int], pos: int, size: int, runs: dict[tuple[int, int], frozenset[int]]
) -> frozenset[int]:
    """`free[pos:pos + size]` as a frozenset. When `free` is a whole topic (a range), a run is its bounds:
    `runs` keeps one frozenset per (pos, size), shared by every topic and member that gets the same run."""
    if type(free) is range:
        got = runs.get((pos, size))
        if got is None:
            got = runs[(pos, size)] = frozenset(range(pos, pos + size))
        return got
    return frozenset(free[pos : pos + size])


def unheld_partitions(count: int, held: Sequence[Set[int]], every: dict[int, frozenset[int]]) -> list[int] | None:
    """The partitions of a topic of `count` that none of `held` (its owners' sets) holds, sorted; None when
    a held partition is out of range or held twice (removing it leaves too many). `every` keeps one
    frozenset of all partitions per count, shared by every topic of that count."""
    valid = every.get(count)
    if valid is None:
        valid = every[count] = frozenset(range(count))
    left = valid.difference(*held)
    if len(left) != count - sum(map(len, held)):
        return None
    return sorted(left)
