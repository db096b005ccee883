"""Share groups' `simple` assignor (Kafka 4.1's SimpleAssignor, its homogeneous builder), as a pure function.

A share-partition may be given to several members at once, so the target is not a partition of the
partitions: every assignable partition goes to `ceil(members / partitions)` members (the desired sharing),
and member i of M gets `ceil(p * (i + 1)) - ceil(p * i)` of them, p being `sharing * partitions / M`.
Balance comes first, then stickiness: a member keeps what it had (subscribed, assignable, not shared more
than desired, within its count) and the rest is handed round the members still short, partition by
partition. Kafka walks HashMaps where this walks sorted members (Java string order) and partitions
(topic id, then partition): the counts and sharing are Kafka's, the member each partition lands on may
differ. A member is only given partitions of topics it subscribes to, which is what Kafka's heterogeneous
builder guarantees as well.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping

from groupctl.coordinator.assignors.common import Assignment, MemberSpec, java_sorted

NAME = "simple"


def assign(members: Mapping[str, MemberSpec], assignable: Mapping[uuid.UUID, frozenset[int]]) -> dict[str, Assignment]:
    """The new target of every member; `assignable` holds each topic's initialized share-partitions."""
    order = java_sorted(members)
    subscribed = {m: members[m].subscribed_topic_ids & assignable.keys() for m in order}
    topics = sorted(set().union(*subscribed.values()) if subscribed else set())
    targets = [(t, p) for t in topics for p in sorted(assignable[t])]
    result: dict[str, dict[uuid.UUID, set[int]]] = {m: {} for m in order}
    if not order or not targets:
        return {m: {} for m in order}
    sharing = (len(order) + len(targets) - 1) // len(targets)
    precise = sharing * len(targets) / len(order)
    desired = {m: math.ceil(precise * (i + 1)) - math.ceil(precise * i) for i, m in enumerate(order)}
    holders: dict[tuple[uuid.UUID, int], set[str]] = {tp: set() for tp in targets}
    counts = dict.fromkeys(order, 0)
    for member_id in order:
        for topic_id, parts in sorted(members[member_id].assigned.items(), key=lambda kv: kv[0].bytes):
            if topic_id not in subscribed[member_id]:
                continue
            for p in sorted(parts):
                tp = (topic_id, p)
                if tp in holders and counts[member_id] < desired[member_id] and len(holders[tp]) < sharing:
                    holders[tp].add(member_id)
                    result[member_id].setdefault(topic_id, set()).add(p)
                    counts[member_id] += 1
    short = [m for m in order if counts[m] < desired[m]]
    cursor = 0
    for tp in targets:
        tried = 0
        while len(holders[tp]) < sharing and short and tried < len(short):
            member_id = short[cursor % len(short)]
            if member_id not in holders[tp] and tp[0] in subscribed[member_id]:
                holders[tp].add(member_id)
                result[member_id].setdefault(tp[0], set()).add(tp[1])
                counts[member_id] += 1
                if counts[member_id] >= desired[member_id]:
                    short.remove(member_id)
                    tried = 0
                    continue
                tried = 0
            else:
                tried += 1
            cursor += 1
    return {m: {t: frozenset(ps) for t, ps in result[m].items()} for m in order}
