"""The uniform assignor's homogeneous path as it was before issue 20 (groupctl 4e3c6cc), kept as the reference
the rewritten builder is compared with on random groups: balance and partitions moved, not the assignment."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from groupctl.coordinator.assignors.common import (
    Assignment,
    AssignorError,
    MemberSpec,
    claim,
    free_partitions,
    java_sorted,
)


def assign_before(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
    """A homogeneous group (every member's subscription resolves to the same known topics), as 4e3c6cc did it."""
    order = java_sorted(members)
    subscribed = frozenset(next(iter(members.values())).subscribed_topic_ids) & frozenset(topics)
    if not subscribed:
        return {member_id: {} for member_id in order}
    return _uniform_homogeneous(order, members, subscribed, topics)


def _uniform_homogeneous(
    order: list[str],
    members: Mapping[str, MemberSpec],
    subscribed: frozenset[uuid.UUID],
    topics: Mapping[uuid.UUID, int],
) -> dict[str, Assignment]:
    """Every member has the same subscription: each keeps its current partitions up to its quota, the rest
    are dealt in contiguous runs to the members below quota. Sizes differ by at most one."""
    topic_ids = sorted(subscribed)
    total = sum(topics[t] for t in topic_ids)
    quota, extra = divmod(total, len(order))

    claimed: dict[uuid.UUID, set[int]] = {}
    result: dict[str, Assignment] = {}
    counts: list[int] = []
    for member_id in order:
        kept, count = claim(members[member_id].assigned, subscribed, topics, claimed)
        result[member_id] = kept
        counts.append(count)

    # Kafka hands the `extra` larger quotas to the first members in hash order. Handing them first to the
    # members that already hold more than `quota` lets each of those keep one more of its own partitions;
    # only then to the others, in member order.
    caps = [quota] * len(order)
    if extra:
        for i, count in enumerate(counts):
            if count > quota:
                caps[i] += 1
                extra -= 1
                if not extra:
                    break
        i = 0
        while extra:
            if caps[i] == quota:
                caps[i] += 1
                extra -= 1
            i += 1

    given_up: dict[uuid.UUID, list[int]] = {}
    for i, member_id in enumerate(order):
        cap = caps[i]
        if counts[i] <= cap:
            continue
        kept = result[member_id]
        trimmed: Assignment = {}
        room = cap
        for topic_id in sorted(kept):
            parts = kept[topic_id]
            if room >= len(parts):
                trimmed[topic_id] = parts
                room -= len(parts)
                continue
            ascending = sorted(parts)
            if room:
                trimmed[topic_id] = frozenset(ascending[:room])
            given_up.setdefault(topic_id, []).extend(ascending[room:])
            room = 0
        result[member_id] = trimmed
        counts[i] = cap

    pool = [
        (topic_id, free)
        for topic_id in topic_ids
        if (free := free_partitions(topics[topic_id], claimed.get(topic_id), given_up.get(topic_id)))
    ]
    _deal_runs(order, caps, counts, result, pool)
    return result


def _deal_runs(
    order: list[str],
    caps: list[int],
    counts: list[int],
    result: dict[str, Assignment],
    pool: list[tuple[uuid.UUID, range | list[int]]],
) -> None:
    """Hand each member below its cap the next run of free partitions, topic by topic."""
    slot = 0
    pos = 0
    for i, member_id in enumerate(order):
        need = caps[i] - counts[i]
        if need <= 0:
            continue
        assignment = result[member_id]
        while need:
            if slot >= len(pool):
                raise AssignorError("internal: the free partitions ran out before every member met its quota")
            topic_id, free = pool[slot]
            run = free[pos : pos + need]
            got = frozenset(run)
            held = assignment.get(topic_id)
            assignment[topic_id] = got if held is None else held | got
            need -= len(run)
            pos += len(run)
            if pos >= len(free):
                slot += 1
                pos = 0
    if slot < len(pool):
        raise AssignorError("internal: partitions were left unassigned")
