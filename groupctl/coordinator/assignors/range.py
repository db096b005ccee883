"""Kafka's `RangeAssignor`: per topic, contiguous ranges of partitions, static members first."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import ClassVar

from groupctl.coordinator.assignors.common import (
    Assignment,
    MemberSpec,
    check_topics,
    effective_subscriptions,
    java_key,
    java_sorted,
)


class RangeAssignor:
    """Contiguous partition ranges per topic; co-partitions topics with equal partition counts and subscribers.

    Not sticky, as in Kafka 4.x: the current assignment is not read at all. The result depends only on the
    member order (static members first by instance id, then dynamic members by member id), so a static member
    that rejoins under a new member id gets its old ranges back. Among a topic's N subscribers in that order,
    member i gets P // N partitions, the first P % N one more.
    """

    name: ClassVar[str] = "range"

    def assign(self, members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
        check_topics(topics)
        if not members:
            return {}
        order = _range_order(members)
        effective = effective_subscriptions(members, topics)
        result: dict[str, Assignment] = {member_id: {} for member_id in order}

        classes: dict[frozenset[uuid.UUID], list[str]] = {}
        for member_id in order:
            classes.setdefault(effective[member_id], []).append(member_id)
        class_lists = list(classes.values())
        classes_of_topic: dict[uuid.UUID, list[int]] = {}
        for c, subscribed in enumerate(classes):
            for topic_id in subscribed:
                classes_of_topic.setdefault(topic_id, []).append(c)

        rank = {member_id: i for i, member_id in enumerate(order)} if len(class_lists) > 1 else {}
        subscriber_lists: dict[tuple[int, ...], list[str]] = {}
        ranges: dict[tuple[int, int], list[frozenset[int]]] = {}
        for topic_id, class_ids in classes_of_topic.items():
            count = topics[topic_id]
            if not count:
                continue
            key = tuple(class_ids)
            subscribers = subscriber_lists.get(key)
            if subscribers is None:
                if len(key) == 1:
                    subscribers = class_lists[key[0]]
                else:
                    subscribers = sorted((m for c in key for m in class_lists[c]), key=rank.__getitem__)
                subscriber_lists[key] = subscribers
            shape = (count, len(subscribers))
            runs = ranges.get(shape)
            if runs is None:
                runs = ranges[shape] = _range_runs(count, len(subscribers))
            for member_id, run in zip(subscribers, runs, strict=False):  # members past P get nothing
                result[member_id][topic_id] = run
        return result


def _range_order(members: Mapping[str, MemberSpec]) -> list[str]:
    """Kafka's RangeAssignor order: static members by instance id (member id breaks a tie Kafka leaves to
    hash order), then dynamic members by member id; both in Java string order."""
    static: list[tuple[str, str]] = []
    dynamic: list[str] = []
    for member_id, spec in members.items():
        if spec.instance_id is None:
            dynamic.append(member_id)
        else:
            static.append((spec.instance_id, member_id))
    if all(i.isascii() and m.isascii() for i, m in static):
        static.sort()
    else:
        static.sort(key=lambda pair: (java_key(pair[0]), java_key(pair[1])))
    return [member_id for _, member_id in static] + java_sorted(dynamic)


def _range_runs(count: int, subscribers: int) -> list[frozenset[int]]:
    """The non-empty ranges of a topic with `count` partitions over `subscribers` members, in member order.
    Topics of the same shape share them: frozensets are immutable."""
    quota, extra = divmod(count, subscribers)
    runs = []
    start = 0
    for i in range(min(count, subscribers)):
        end = start + quota + (i < extra)
        runs.append(frozenset(range(start, end)))
        start = end
    return runs
