"""The uniform assignor's homogeneous builder: every member subscribes to the same topics.

Kafka's `UniformHomogeneousAssignmentBuilder` rule: quota = total // members, `total % members` members one more;
each member keeps what it owns up to its quota, and the partitions given up or owned by nobody are dealt to the
members below quota. Kafka reuses a member's assignment when it keeps all of it; so does this builder (as a
shallow copy), which is what makes an incremental assignment cost little more than reading the assignments.

Python pays per object touched, and `uuid.UUID.__hash__` is Python code, so the builder avoids per-partition
work in Python and hashes a topic id as rarely as it can: one pass over the members' assignments collects each
topic's owned sets, one set difference per topic checks them all at once (in range, owned once) and gives the
free partitions, and each run of a topic nobody owned becomes a frozenset once, shared by every member that gets
that run of some topic (frozensets are immutable). A current assignment that fails the check (an unsubscribed or
missing topic, a partition out of range or owned twice, an empty entry, a set that is not a frozenset) is first
cleaned by `claim` in member order, the rule of every path, and then assigned the same way. The results are
those of the builder this one replaced (groupctl 4e3c6cc), input for input.

This is the reference: when built, `_uniformc.c` runs the same rule in C for the plain case (every current
assignment passes the check above) and hands everything else back here (`compiled.py` says which runs).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Mapping
from itertools import compress, repeat
from operator import attrgetter, gt, lt

from groupctl.coordinator.assignors import compiled
from groupctl.coordinator.assignors.common import (
    Assignment,
    AssignorError,
    claim,
    java_key,
    java_sorted,
    partition_run,
    unheld_partitions,
)

_UUID_INT = attrgetter("int")  # Kafka's Uuid order is that of the unsigned 128-bit value; ints compare in C


def assign_homogeneous(
    member_ids: list[str],
    assigned: list[Mapping[uuid.UUID, frozenset[int]]],
    subscribed: frozenset[uuid.UUID],
    topics: Mapping[uuid.UUID, int],
    into: dict[str, Assignment] | None = None,
) -> dict[str, Assignment]:
    """`member_ids[i]` currently owns `assigned[i]`; all subscribe to `subscribed` (known topics only, not
    empty). The result does not depend on the order of `member_ids`: every choice that could is made in Java
    string order of member id, as the other paths make it. The members' assignments are added to `into` when
    given (a group assigned part by part), else to a new dict; either is returned."""
    into = {} if into is None else into
    topic_ids = sorted(subscribed, key=_UUID_INT)
    counts = list(map(topics.__getitem__, topic_ids))
    native = compiled.module()
    if native is not None:
        done = native.homogeneous(member_ids, assigned, topic_ids, counts, into)
        if done is not None:  # None: not the plain case, the reference decides
            return done
    if not any(assigned):
        return _deal_everything(java_sorted(member_ids), topic_ids, counts, into)
    builder = _Builder(member_ids, topic_ids, counts)
    if not builder.read(assigned):
        builder.reset()
        if not builder.read(_cleaned(member_ids, assigned, subscribed, topics)):
            raise AssignorError("internal: a cleaned assignment failed the homogeneous builder's check")
    return builder.build(into)


def _deal_everything(
    order: list[str], topic_ids: list[uuid.UUID], counts: list[int], result: dict[str, Assignment]
) -> dict[str, Assignment]:
    """Nobody owns anything: lay the topics' partitions end to end (topics in Uuid order) and cut the line into
    the members' runs, in member order, the first `total % members` runs one longer."""
    quota, extra = divmod(sum(counts), len(order))
    line = _Line(topic_ids, counts)
    line.cut(order[:extra], quota + 1, result)
    line.cut(order[extra:], quota, result)
    return result


class _Line:
    """The subscribed topics' partitions end to end, cut into consecutive runs.

    A run inside one topic (nearly every run) shares the frozenset of its bounds within the topic with every
    other run of those bounds, and the member's dict is built from a one-topic frozenset, whose stored hash
    spares hashing the topic id again."""

    def __init__(self, topic_ids: list[uuid.UUID], counts: list[int]) -> None:
        self.topic_ids = topic_ids
        self.counts = counts
        self.index, self.start, self.end, self.lo = -1, 0, 0, 0  # the topic, its bounds, the next partition

    def cut(self, members: list[str], size: int, result: dict[str, Assignment]) -> None:
        """Give each member the next `size` partitions."""
        if not size:
            result.update((member_id, {}) for member_id in members)
            return
        topic_ids, counts = self.topic_ids, self.counts
        index, start, end, lo = self.index, self.start, self.end, self.lo
        runs: dict[int, frozenset[int]] = {}  # by first partition
        runs_get, from_keys = runs.get, dict.fromkeys
        single = frozenset((topic_ids[index],)) if index >= 0 else None
        for member_id in members:
            hi = lo + size
            while lo >= end:
                index += 1
                start, end, single = end, end + counts[index], None
            if hi <= end:
                first = lo - start
                got = runs_get(first)
                if got is None:
                    got = runs[first] = frozenset(range(first, first + size))
                if single is None:
                    single = frozenset((topic_ids[index],))
                result[member_id] = from_keys(single, got)
                lo = hi
                continue
            assignment = result[member_id] = {}
            while lo < hi:
                while lo >= end:
                    index += 1
                    start, end, single = end, end + counts[index], None
                top = min(hi, end)
                assignment[topic_ids[index]] = frozenset(range(lo - start, top - start))
                lo = top
        self.index, self.start, self.end, self.lo = index, start, end, lo


def _cleaned(
    member_ids: list[str],
    assigned: list[Mapping[uuid.UUID, frozenset[int]]],
    subscribed: frozenset[uuid.UUID],
    topics: Mapping[uuid.UUID, int],
) -> list[Mapping[uuid.UUID, frozenset[int]]]:
    """The assignments as `claim` keeps them, members in Java order: the first claimant of a partition keeps
    it, and only subscribed, existing partitions stay."""
    claimed: dict[uuid.UUID, set[int]] = {}
    by_member = dict(zip(member_ids, assigned, strict=True))
    kept = {m: claim(by_member[m], subscribed, topics, claimed)[0] for m in java_sorted(member_ids)}
    return [kept[m] for m in member_ids]


class _Builder:
    """One homogeneous assignment. Members are indexes into the caller's `member_ids`, topics indexes into
    `topic_ids` (Uuid order); `result[i]` is member i's assignment as it is built."""

    def __init__(self, member_ids: list[str], topic_ids: list[uuid.UUID], counts: list[int]) -> None:
        self.member_ids = member_ids
        self.topic_ids = topic_ids
        self.counts = counts
        self.quota, self.extra = divmod(sum(counts), len(member_ids))
        self.reset()

    def reset(self) -> None:
        self._order: list[int] | None = None
        self._ascii: bool | None = None
        self._topic_index: dict[uuid.UUID, int] | None = None
        self.result: list[dict[uuid.UUID, frozenset[int]]] = []
        self.held: list[int] = []  # what each member keeps, in partitions
        self.free: list[range | list[int]] = []  # per topic, ascending: the partitions nobody keeps

    def read(self, assigned: list[Mapping[uuid.UUID, frozenset[int]]]) -> bool:
        """Keep the current assignments as they are; False if one fails the check (the state is then unusable)."""
        slots: list[list[frozenset[int]]] = [[] for _ in self.topic_ids]
        where = dict(zip(self.topic_ids, slots, strict=True))
        held = self.held
        for assignment in assigned:
            count = 0
            for topic_id, parts in assignment.items():
                slot = where.get(topic_id)
                if slot is None or type(parts) is not frozenset or not parts:
                    return False
                slot.append(parts)
                count += len(parts)
            held.append(count)
        # Per topic, what its owners hold must be in range and held once: removed from the topic's partitions,
        # it must leave exactly as many as were not held (an out-of-range or second copy removes nothing). One
        # frozenset of all partitions per distinct partition count serves every topic of that count.
        every: dict[int, frozenset[int]] = {}
        for slot, count in zip(slots, self.counts, strict=True):
            if not slot:
                self.free.append(range(count))
                continue
            left = unheld_partitions(count, slot, every)
            if left is None:
                return False
            self.free.append(left)
        self.result = list(map(dict, assigned))
        return True

    def java_order(self, members: Collection[int]) -> list[int]:
        """Member indexes sorted as their ids sort in Java (all of them sorted once at most)."""
        everyone = len(members) == len(self.member_ids)
        if everyone and self._order is not None:
            return self._order
        ids = self.member_ids
        if self._ascii is None:
            self._ascii = "".join(ids).isascii()
        key: Callable[[int], str | bytes] = ids.__getitem__
        if not self._ascii:
            key = lambda i: java_key(ids[i])  # noqa: E731
        order = sorted(members, key=key)
        if everyone:
            self._order = order
        return order

    def topic_index(self, topic_id: uuid.UUID) -> int:
        if self._topic_index is None:
            self._topic_index = {t: i for i, t in enumerate(self.topic_ids)}
        return self._topic_index[topic_id]

    def build(self, into: dict[str, Assignment]) -> dict[str, Assignment]:
        quota, held = self.quota, self.held
        everyone = range(len(held))
        over = list(compress(everyone, map(gt, held, repeat(quota))))
        # The `extra` quota + 1 slots (Kafka: the first members in hash order) go first to members holding more
        # than the quota, so each keeps one more of its own partitions; then to the others, in member order.
        plus: set[int] = set()
        if self.extra:
            plus.update(self.java_order(over)[: self.extra])
            if len(plus) < self.extra:
                others = (i for i in self.java_order(everyone) if i not in plus)
                plus.update(next(others) for _ in range(self.extra - len(plus)))
        given: dict[int, list[int]] = {}
        for member in over:
            cap = quota + (member in plus)
            if held[member] > cap:
                self.trim(member, cap, given)
        for index, parts in given.items():
            self.free[index] = sorted([*self.free[index], *parts])
        below = set(compress(everyone, map(lt, held, repeat(quota))))
        below.update(m for m in plus if held[m] <= quota)
        unfilled = self.java_order(below)
        self.deal(unfilled, [quota + (m in plus) - held[m] for m in unfilled])
        into.update(zip(self.member_ids, self.result, strict=True))
        return into

    def trim(self, member: int, cap: int, given: dict[int, list[int]]) -> None:
        """Keep the member's first `cap` partitions (topics in Uuid order, partitions ascending); the rest go
        back to the free partitions."""
        kept = self.result[member]
        trimmed: Assignment = {}
        room = cap
        for topic_id in sorted(kept, key=_UUID_INT):
            parts = kept[topic_id]
            if room >= len(parts):
                trimmed[topic_id] = parts
                room -= len(parts)
                continue
            ascending = sorted(parts)
            if room:
                trimmed[topic_id] = frozenset(ascending[:room])
            given.setdefault(self.topic_index(topic_id), []).extend(ascending[room:])
            room = 0
        self.result[member] = trimmed
        self.held[member] = cap

    def deal(self, members: list[int], needs: list[int]) -> None:
        """Hand each member in turn the next `need` free partitions, topic by topic, as contiguous runs.

        A member that had nothing (one that joined) and whose run lies in one topic gets a dict built from a
        one-topic frozenset, which carries the topic id's hash; a run of a topic nobody held is made a frozenset
        once and shared."""
        pool = [index for index, free in enumerate(self.free) if free]
        topic_ids, result = self.topic_ids, self.result
        runs: dict[tuple[int, int], frozenset[int]] = {}
        one_topic: dict[int, frozenset[uuid.UUID]] = {}
        slot = pos = 0
        index = pool[0] if pool else -1
        free = self.free[index] if pool else []
        for member, need in zip(members, needs, strict=True):
            while need > 0:
                if index < 0:
                    raise AssignorError("internal: the free partitions ran out before every member met its quota")
                take = min(need, len(free) - pos)
                got = partition_run(free, pos, take, runs)
                assignment = result[member]
                if not assignment:
                    topic = one_topic.get(index)
                    if topic is None:
                        topic = one_topic[index] = frozenset((topic_ids[index],))
                    result[member] = dict.fromkeys(topic, got)
                else:
                    topic_id = topic_ids[index]
                    owned = assignment.get(topic_id)
                    assignment[topic_id] = got if owned is None else owned | got
                need -= take
                pos += take
                if pos == len(free):
                    slot += 1
                    pos = 0
                    index = pool[slot] if slot < len(pool) else -1
                    free = self.free[index] if index >= 0 else []
        if index >= 0:
            raise AssignorError("internal: partitions were left unassigned")
