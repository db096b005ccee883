"""Kafka's `UniformAssignor`: its homogeneous builder (every member subscribes alike) and its
heterogeneous one, with sticky claims and balanced counts."""

from __future__ import annotations

import heapq
import uuid
from collections.abc import Mapping
from operator import attrgetter
from types import ModuleType
from typing import ClassVar

from groupctl.coordinator.assignors import compiled
from groupctl.coordinator.assignors.common import (
    Assignment,
    MemberSpec,
    check_topics,
    claim,
    free_partitions,
    java_sorted,
    partition_run,
    unheld_partitions,
)
from groupctl.coordinator.assignors.homogeneous import assign_homogeneous

_SUBSCRIBED = attrgetter("subscribed_topic_ids")
_ASSIGNED = attrgetter("assigned")


class UniformAssignor:
    """Kafka's default server-side assignor: balance first, then stickiness.

    All members with the same subscription: the homogeneous path (`homogeneous.py`: quota = total // members,
    `total % members` members one more). Otherwise the heterogeneous path: keep what is still subscribed, deal the
    rest to the least loaded subscribers, then move partitions from the most to the least loaded subscriber of
    each topic until no partition can move from a member to a subscriber of its topic that has at least 2 fewer.

    Unlike Kafka, a group whose subscriptions fall apart into parts sharing no topic is assigned part by part,
    and a part whose members all have the same subscription takes the homogeneous path. The parts are
    independent problems, the guarantees are the same, and the homogeneous path gives each member contiguous
    runs instead of one partition from many topics (which also keeps the next assignment cheap).
    """

    name: ClassVar[str] = "uniform"

    def assign(self, members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
        check_topics(topics)
        if not members:
            return {}
        # Members by subscription, in their given order: a group has few distinct subscriptions, so resolving
        # them against `topics` is done once per subscription, not once per member.
        member_ids = list(members)
        native = compiled.module()
        if native is not None:
            # The usual group, every member with the same subscription object, is read and assigned in one
            # compiled call; None when it is not that group or not the plain case.
            done = native.alike(members if type(members) is dict else dict(members), topics)
            if done is not None:
                return done
        subscriptions = list(map(_SUBSCRIBED, members.values()))
        first = subscriptions[0]
        if type(first) is frozenset and subscriptions.count(first) == len(subscriptions):
            by_subscription = {first: member_ids}  # the usual group; count() compares by identity first
        else:
            by_subscription = _by_subscription(member_ids, subscriptions)
        classes: dict[frozenset[uuid.UUID], list[str]] = {}
        for subscribed, member_ids in by_subscription.items():
            effective = subscribed if subscribed.issubset(topics) else subscribed.intersection(topics)
            same = classes.get(effective)
            classes[effective] = member_ids if same is None else same + member_ids

        if len(classes) == 1:  # every member alike: no per-member lookups, and the result is the builder's
            (subscribed,) = classes
            if not subscribed:
                return {member_id: {} for member_id in members}
            return assign_homogeneous(list(members), list(map(_ASSIGNED, members.values())), subscribed, topics)

        result: dict[str, Assignment] = {}
        for part in _disjoint_parts(list(classes)):
            if len(part) == 1:
                subscribed = part[0]
                member_ids = classes[subscribed]
                if subscribed:
                    assigned = [members[member_id].assigned for member_id in member_ids]
                    assign_homogeneous(member_ids, assigned, subscribed, topics, into=result)
                else:
                    result.update((member_id, {}) for member_id in member_ids)
            else:
                subscribed_by = {member_id: s for s in part for member_id in classes[s]}
                part_order = java_sorted(subscribed_by)
                result.update(_uniform_heterogeneous(part_order, members, subscribed_by, topics))
        return result


def _by_subscription(member_ids: list[str], subscriptions: list[frozenset[uuid.UUID]]) -> dict[frozenset, list[str]]:
    """Member ids by subscription, each subscription a frozenset (a caller may have given a set)."""
    groups: dict[frozenset[uuid.UUID], list[str]] = {}
    try:
        for member_id, subscribed in zip(member_ids, subscriptions, strict=True):
            same = groups.get(subscribed)
            if same is None:
                groups[subscribed] = [member_id]
            else:
                same.append(member_id)
    except TypeError:  # unhashable: a set
        pass
    else:
        if all(type(subscribed) is frozenset for subscribed in groups):
            return groups
    return _by_subscription(member_ids, [frozenset(subscribed) for subscribed in subscriptions])


def _disjoint_parts(subscriptions: list[frozenset[uuid.UUID]]) -> list[list[frozenset[uuid.UUID]]]:
    """Group the distinct subscriptions into parts that share no topic.

    Set operations only where possible (they reuse stored hashes): a subscription disjoint from all topics
    seen so far starts a part; one that overlaps is merged into the parts it meets, found by testing each
    part's topics while there are few parts, else through a topic -> part index of the topics it shares.
    """
    parent: list[int] = []
    part_topics: dict[int, set[uuid.UUID]] = {}  # the topics of each part, by its root
    topic_part: dict[uuid.UUID, int] = {}
    seen: set[uuid.UUID] = set()

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, subscribed in enumerate(subscriptions):
        parent.append(i)
        if subscribed.isdisjoint(seen):
            met: list[int] = []
        elif len(part_topics) <= 32:
            met = [r for r, topics in part_topics.items() if not subscribed.isdisjoint(topics)]
        else:
            met = list({root(topic_part[topic_id]) for topic_id in subscribed & seen})
        new = subscribed - seen
        for topic_id in new:
            topic_part[topic_id] = i
        seen.update(new)
        if not met:
            part_topics[i] = set(subscribed)
            continue
        met.sort(key=lambda r: -len(part_topics[r]))
        keep = met[0]
        merged = part_topics[keep]
        for r in met[1:]:
            merged.update(part_topics.pop(r))
            parent[r] = keep
        merged.update(subscribed)
        parent[i] = keep

    parts: dict[int, list[frozenset[uuid.UUID]]] = {}
    for i, subscribed in enumerate(subscriptions):
        parts.setdefault(root(i), []).append(subscribed)
    return list(parts.values())


class _Heterogeneous:
    """State of one heterogeneous uniform assignment.

    Members are numbered in member order. Members with the same subscription form a class; each class keeps a
    lazy min-heap of (count, member, version) whose stale entries (version behind) are dropped when seen. The
    least loaded subscriber of a topic is then the least of its classes' heads: a pick costs a few heap
    operations, not a scan of the topic's subscribers, which matters when thousands of members share topics.
    """

    def __init__(
        self,
        order: list[str],
        members: Mapping[str, MemberSpec],
        effective: Mapping[str, frozenset[uuid.UUID]],
        topics: Mapping[uuid.UUID, int],
    ) -> None:
        self.topics = topics
        class_index: dict[frozenset[uuid.UUID], int] = {}
        self.class_of: list[int] = []
        self.class_members: list[list[int]] = []
        class_topics: list[frozenset[uuid.UUID]] = []
        self.work: list[Assignment] = []
        self.counts: list[int] = []
        self.holders: dict[uuid.UUID, set[int]] = {}
        self.free_of: dict[uuid.UUID, range | list[int]] = {}
        self.runs: dict[tuple[int, int], frozenset[int]] = {}  # runs of a whole topic, by (first, size)
        for i, member_id in enumerate(order):
            subscribed = effective[member_id]
            c = class_index.get(subscribed)
            if c is None:
                c = class_index[subscribed] = len(class_topics)
                class_topics.append(subscribed)
                self.class_members.append([])
            self.class_of.append(c)
            self.class_members[c].append(i)
        assigned = [members[member_id].assigned for member_id in order]
        native = compiled.module()
        kept = None
        if native is not None and type(topics) is dict:
            kept = native.keep(assigned, self.class_of, class_topics, topics)
        # What each member held when the assignment started: the current assignments themselves when all are
        # kept (the work dicts are copies of them), else copies of what each kept, before dealing adds to them.
        self.initial: list[Mapping[uuid.UUID, frozenset[int]]] = assigned
        self.kept_compiled = kept is not None  # then every partition held is an int in range
        if kept is not None:  # what keep_all gives, from the compiled step
            self.work, self.counts, self.holders, self.free_of = kept
        elif not self.keep_all(order, assigned, effective):
            self.claim_each(order, assigned, effective)
            self.initial = [dict(kept) for kept in self.work]

        self.topic_classes: dict[uuid.UUID, list[int]] = {}
        for c, subscribed in enumerate(class_topics):
            for topic_id in subscribed:
                self.topic_classes.setdefault(topic_id, []).append(c)
        class_size = list(map(len, self.class_members))
        self.subscriber_count = {
            topic_id: sum(map(class_size.__getitem__, classes)) for topic_id, classes in self.topic_classes.items()
        }
        self.class_max: list[int] = []
        self.version: list[int] = []
        self.heaps: list[list[tuple[int, int, int]]] = []

    def make_heaps(self) -> None:
        """The class heaps, made from the counts as they are (before dealing, or after the compiled deal)."""
        self.version = [0] * len(self.counts)
        self.heaps = [[(self.counts[i], i, 0) for i in cm] for cm in self.class_members]
        for heap in self.heaps:
            heapq.heapify(heap)

    def keep_all(
        self,
        order: list[str],
        assigned: list[Mapping[uuid.UUID, frozenset[int]]],
        effective: Mapping[str, frozenset[uuid.UUID]],
    ) -> bool:
        """Keep every member's current assignment as it is, if all of it may be kept (subscribed, in range,
        owned once); False otherwise, and `claim_each` decides member by member.

        The check costs one topic id hash per assignment entry and one set difference per topic (what is held
        must remove exactly its own size from the topic's partitions), where `claim` hashes each id several
        times: a heterogeneous assignment gives members a few partitions of many topics, so entries abound."""
        self.work, self.counts, self.holders = [], [], {}
        slots: dict[uuid.UUID, tuple[list[frozenset[int]], list[int]]] = {}
        counts = self.counts
        for i, member_id in enumerate(order):
            assignment = assigned[i]
            count = 0
            if assignment:
                if not effective[member_id].issuperset(assignment):
                    return False
                for topic_id, parts in assignment.items():
                    if type(parts) is not frozenset or not parts:
                        return False
                    slot = slots.get(topic_id)
                    if slot is None:
                        slots[topic_id] = ([parts], [i])
                    else:
                        slot[0].append(parts)
                        slot[1].append(i)
                    count += len(parts)
            counts.append(count)
        free: dict[uuid.UUID, range | list[int]] = {}
        every: dict[int, frozenset[int]] = {}
        for topic_id, (held, owners) in slots.items():
            left = unheld_partitions(self.topics[topic_id], held, every)
            if left is None:
                return False
            free[topic_id] = left
            self.holders[topic_id] = set(owners)
        self.work = list(map(dict, assigned))
        self.free_of = free
        return True

    def claim_each(
        self,
        order: list[str],
        assigned: list[Mapping[uuid.UUID, frozenset[int]]],
        effective: Mapping[str, frozenset[uuid.UUID]],
    ) -> None:
        """Each member keeps what `claim` lets it keep, in member order."""
        self.work, self.counts, self.holders = [], [], {}
        claimed: dict[uuid.UUID, set[int]] = {}
        for i, member_id in enumerate(order):
            kept, count = claim(assigned[i], effective[member_id], self.topics, claimed)
            for topic_id in kept:
                held = self.holders.get(topic_id)
                if held is None:
                    self.holders[topic_id] = {i}
                else:
                    held.add(i)
            self.work.append(kept)
            self.counts.append(count)
        self.free_of = {
            topic_id: free_partitions(self.topics[topic_id], taken) for topic_id, taken in claimed.items()
        }

    def free(self, topic_id: uuid.UUID) -> range | list[int]:
        """The topic's partitions nobody keeps, ascending."""
        free = self.free_of.get(topic_id)
        return range(self.topics[topic_id]) if free is None else free

    def sorted_topics(self) -> list[uuid.UUID]:
        """Kafka's topic order: partitions per subscriber descending, then subscriber count ascending, then
        topic id; the topics hardest to balance go first."""
        topics, subscribers = self.topics, self.subscriber_count
        return sorted(
            (t for t in self.topic_classes if topics[t]),
            key=lambda t: (-topics[t] / subscribers[t], subscribers[t], t),
        )

    def touch(self, member: int) -> None:
        """Record a count change: a fresh heap entry, and the old ones become stale."""
        version = self.version[member] + 1
        self.version[member] = version
        heapq.heappush(self.heaps[self.class_of[member]], (self.counts[member], member, version))

    def head(self, c: int) -> tuple[int, int, int]:
        """The least loaded member of class `c` as (count, member, version), stale entries dropped."""
        heap, version = self.heaps[c], self.version
        while heap[0][2] != version[heap[0][1]]:
            heapq.heappop(heap)
        return heap[0]

    def heads(self, topic_id: uuid.UUID) -> list[tuple[int, int, int, int]]:
        """A heap of the topic's subscriber classes by their least loaded member: picking the least loaded
        subscriber then costs log(classes), whatever the number of subscribers."""
        heads = [(*self.head(c), c) for c in self.topic_classes[topic_id]]
        heapq.heapify(heads)
        return heads

    def deal(self, topic_id: uuid.UUID, free: range | list[int]) -> None:
        """Water-fill: raise the least loaded subscribers to a common level (the first in (count, member)
        order one above it), each taking its share as one contiguous run of `free`. Only members that gain
        are picked, so dealing a topic costs its free partitions, not its subscribers."""
        counts, version, heaps = self.counts, self.version, self.heaps
        heads = self.heads(topic_id)
        left = len(free)
        taken: list[int] = []
        level_sum = 0
        while heads:
            count, member, _, c = heads[0]
            # Members come in (count, member) order; the next one gets a partition only if raising those taken
            # so far to its count leaves at least one partition for each of them and one for it.
            if len(taken) * (count + 1) - level_sum >= left:
                break
            taken.append(member)
            level_sum += count
            heap = heaps[c]
            heapq.heappop(heap)  # this member's entry: nothing has changed since it became the head
            while heap and heap[0][2] != version[heap[0][1]]:
                heapq.heappop(heap)
            if heap:
                heapq.heapreplace(heads, (*heap[0], c))
            else:
                heapq.heappop(heads)

        level, plus_one = divmod(level_sum + left, len(taken))
        holders = self.holders.setdefault(topic_id, set())
        work, class_of, runs = self.work, self.class_of, self.runs
        pos = 0
        for rank, member in enumerate(taken):
            gain = level + (rank < plus_one) - counts[member]
            got = partition_run(free, pos, gain, runs)
            pos += gain
            if member in holders:
                assignment = work[member]
                assignment[topic_id] = assignment[topic_id] | got
            else:
                work[member][topic_id] = got
                holders.add(member)
            count = counts[member] = counts[member] + gain
            touched = version[member] = version[member] + 1  # what touch() does, without the call
            heapq.heappush(heaps[class_of[member]], (count, member, touched))

    def deal_compiled(self, native: ModuleType, ordered: list[uuid.UUID]) -> bool:
        """`deal` for every topic of `ordered` in turn, in C (`_uniformc.deal`): the same work dicts, holders and
        counts; False, with nothing changed, when it does not take the input. The class heaps are made after it
        (`make_heaps`): a heap's least live entry is all that is ever read of it, and that depends on the counts
        alone."""
        frees = [self.free(topic_id) for topic_id in ordered]
        if not any(frees):
            return True
        classes = [self.topic_classes[topic_id] for topic_id in ordered]
        counts = native.deal(ordered, frees, classes, self.class_of, self.counts, self.work, self.holders)
        if counts is None:
            return False
        self.counts = counts
        return True

    def balance_compiled(self, native: ModuleType, ordered: list[uuid.UUID]) -> bool:
        """`balance` in C (`_uniformc.balance`), after the compiled keep and deal: the same work dicts, holders
        and counts; False, with nothing changed, when it does not take the input."""
        if not self.kept_compiled:
            return False
        candidates = [t for t in ordered if self.subscriber_count[t] >= 2]
        if not candidates:
            return True
        classes = [self.topic_classes[topic_id] for topic_id in candidates]
        counts = native.balance(candidates, classes, self.class_of, self.counts, self.work, self.holders, self.initial)
        if counts is None:
            return False
        self.counts = counts
        return True

    def balance_topic(self, topic_id: uuid.UUID) -> int:
        """Move partitions of one topic from its most loaded holder to its least loaded subscriber while they
        differ by 2 or more (each move lowers the sum of squared counts, so this ends). Returns the moves."""
        counts, work, version, class_of = self.counts, self.work, self.version, self.class_of
        holders = self.holders.get(topic_id)
        if not holders:
            return 0
        # `takers` holds, for each class, an entry no larger than its least loaded member: stale entries are
        # replaced by the class's current head when they come up, and a giver's new, lower count is pushed.
        takers = self.heads(topic_id)
        givers = [(-counts[i], -i) for i in holders]
        heapq.heapify(givers)
        live: dict[int, set[int]] = {}  # this topic's partitions of the members touched so far
        descending: dict[int, list[int]] = {}
        moves = 0
        while givers:
            neg_count, neg_member = givers[0]
            giver = -neg_member
            if counts[giver] != -neg_count or giver not in holders:
                heapq.heappop(givers)
                continue
            while version[takers[0][1]] != takers[0][2]:
                heapq.heapreplace(takers, (*self.head(takers[0][3]), takers[0][3]))
            low, taker = takers[0][0], takers[0][1]
            if -neg_count - low <= 1:
                break

            given = live.get(giver)
            if given is None:
                given = live[giver] = set(work[giver][topic_id])
            order = descending.get(giver)
            if not order:
                # Kafka gives the highest partition away. Partitions the giver did not hold when the assignment
                # started go first, though: they are moving anyway, so moving them on costs no stickiness.
                own = self.initial[giver].get(topic_id, frozenset())
                order = descending[giver] = sorted(given, key=lambda p: (p not in own, p))
            partition = order.pop()
            given.discard(partition)
            if not given:
                holders.discard(giver)
                descending.pop(giver, None)
            received = live.get(taker)
            if received is None:
                received = live[taker] = set(work[taker].get(topic_id, ()))
            received.add(partition)
            holders.add(taker)

            counts[giver] -= 1
            counts[taker] += 1
            self.touch(giver)
            self.touch(taker)
            heapq.heappush(takers, (counts[giver], giver, version[giver], class_of[giver]))
            heapq.heappop(givers)
            if giver in holders:
                heapq.heappush(givers, (-counts[giver], -giver))
            heapq.heappush(givers, (-counts[taker], -taker))
            taker_class = class_of[taker]
            if counts[taker] > self.class_max[taker_class]:
                self.class_max[taker_class] = counts[taker]
            moves += 1

        for member, parts in live.items():
            if parts:
                work[member][topic_id] = frozenset(parts)
            else:
                del work[member][topic_id]
        return moves

    def balance(self, ordered: list[uuid.UUID]) -> None:
        """Balance topic after topic, round and round, until a whole round moves nothing. A topic whose
        subscriber classes lie within one partition of each other (by an upper bound of each class's largest
        count, refreshed every round) is skipped without a look at its members."""
        candidates = [t for t in ordered if self.subscriber_count[t] >= 2]
        quiet = 0
        index = 0
        while quiet < len(candidates):
            if index == 0:
                self.class_max = [max(map(self.counts.__getitem__, cm)) for cm in self.class_members]
            topic_id = candidates[index]
            index = (index + 1) % len(candidates)
            classes = self.topic_classes[topic_id]
            low = min(self.head(c)[0] for c in classes)
            high = max(self.class_max[c] for c in classes)
            if high - low <= 1 or not self.balance_topic(topic_id):
                quiet += 1
            else:
                quiet = 1

    def result(self, order: list[str]) -> dict[str, Assignment]:
        return dict(zip(order, self.work, strict=True))


def _uniform_heterogeneous(
    order: list[str],
    members: Mapping[str, MemberSpec],
    effective: Mapping[str, frozenset[uuid.UUID]],
    topics: Mapping[uuid.UUID, int],
) -> dict[str, Assignment]:
    """Subscriptions differ: keep every still-subscribed partition, deal the free ones to the least loaded
    subscribers (hardest topics first), then balance topic by topic."""
    state = _Heterogeneous(order, members, effective, topics)
    ordered = state.sorted_topics()
    native = compiled.module()
    if native is not None and state.deal_compiled(native, ordered):
        if not state.balance_compiled(native, ordered):
            state.make_heaps()
            state.balance(ordered)
    else:
        state.make_heaps()
        for topic_id in ordered:
            free = state.free(topic_id)
            if free:
                state.deal(topic_id, free)
        state.balance(ordered)
    return state.result(order)
