"""The heterogeneous builder's compiled steps (`keep`, `deal`, `balance` in `assignors/_uniformc.c`) against the
pure-Python `_Heterogeneous`: the same result, down to the order of members and entries, on generated group
histories whose subscriptions differ and overlap; each step's state the same as the Python step's; anything
that is not the plain case handed back untouched for the Python step to decide."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.coordinator.assignors import MemberSpec, UniformAssignor, compiled
from groupctl.coordinator.assignors.common import java_sorted
from groupctl.coordinator.assignors.uniform import _Heterogeneous
from tests.coordinator.assignors.test_compiled import Rehashing, both, exactly
from tests.coordinator.test_assignors import check_balanced_for_subscriptions, groups

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="the compiled uniform assignor (assignors/_uniformc.c) is not built"
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

POOL = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15 % 2**64) << 64 | i) for i in range(1, 7)]
FOO, BAR, BAZ = uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)

uniform = UniformAssignor()
member_ids = st.text("abxy\u00e9\u4e2d", min_size=1, max_size=3) | st.text("a\U0001f600", min_size=1, max_size=2)


@st.composite
def histories(draw):
    """(members, topics) for a heterogeneous group's next assignment: a few distinct subscriptions that share
    topics, assigned once; then members left, joined or changed subscription, and topics gained or lost
    partitions (an owner may still name partitions past a topic's new end)."""
    topic_ids = POOL[: draw(st.integers(2, len(POOL)))]
    before = {t: draw(st.integers(0, 30)) for t in topic_ids}
    choices = draw(st.lists(st.frozensets(st.sampled_from(topic_ids), min_size=1), min_size=2, max_size=4))
    old = draw(st.lists(member_ids, min_size=2, max_size=30, unique=True))
    subscription = {m: draw(st.sampled_from(choices)) for m in old}
    first = uniform.assign({m: MemberSpec(None, None, subscription[m]) for m in old}, before)
    leaving = draw(st.sets(st.sampled_from(old)))
    joining = [m for m in draw(st.lists(member_ids, max_size=8, unique=True)) if m not in old]
    after = {t: draw(st.sampled_from([count, count, 0, count // 2, count + 7])) for t, count in before.items()}
    members = {}
    for m in old:
        if m not in leaving:
            changed = draw(st.integers(0, 5)) == 0
            subscribed = draw(st.sampled_from(choices)) if changed else subscription[m]
            members[m] = MemberSpec(None, None, subscribed, first[m])
    members.update((m, MemberSpec(None, None, draw(st.sampled_from(choices)))) for m in joining)
    if not members:
        members[old[0]] = MemberSpec(None, None, subscription[old[0]], first[old[0]])
    return members, after


@st.composite
def odd_histories(draw):
    """A history whose current assignments are anything a caller could hand over: mapping proxies, sets
    instead of frozensets, bools, topic ids equal to ours but other objects, empty entries."""
    members, topics = draw(histories())
    odd = {}
    for member_id, spec in members.items():
        current: dict = {}
        for t, parts in spec.assigned.items():
            key = uuid.UUID(int=t.int) if draw(st.booleans()) else t
            shape = draw(st.integers(0, 9))
            current[key] = set(parts) if shape == 0 else frozenset() if shape == 1 else parts
            if shape == 2 and parts:
                current[key] = parts | {True}
        wrap = draw(st.sampled_from([dict, dict, dict, MappingProxyType]))
        odd[member_id] = MemberSpec(None, None, spec.subscribed_topic_ids, wrap(current))
    return odd, topics


@SETTINGS
@given(group=st.one_of(histories(), odd_histories(), groups()))
def test_same_result_as_the_reference(group):
    members, topics = group
    reference, fast = both(members, topics)
    assert exactly(fast) == exactly(reference)


def split_members(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]):
    """What `_uniform_heterogeneous` hands `_Heterogeneous`: the member order and effective subscriptions."""
    order = java_sorted(members)
    effective = {m: s.subscribed_topic_ids.intersection(topics) for m, s in members.items()}
    return order, effective


def state(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int], pure: bool) -> _Heterogeneous:
    order, effective = split_members(members, topics)
    with compiled.forced(pure):
        return _Heterogeneous(order, members, effective, topics)


def plain(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> bool:
    """Every current assignment may be kept as it is: subscribed, in range, owned once."""
    seen: set[tuple[uuid.UUID, int]] = set()
    for spec in members.values():
        for t, parts in spec.assigned.items():
            if t not in spec.subscribed_topic_ids or not parts or any(p >= topics[t] for p in parts):
                return False
            owned = {(t, p) for p in parts}
            if seen & owned:
                return False
            seen |= owned
    return True


@SETTINGS
@given(history=histories())
def test_each_step_leaves_the_python_steps_state(history):
    """`keep` gives keep_all's work, counts, holders and free partitions when all may be kept (None
    otherwise); `deal` leaves the work dicts, holders and counts as dealing topic by topic does, and `balance`
    (taken after the compiled keep only) as balancing does."""
    members, topics = history
    reference, fast = state(members, topics, pure=True), state(members, topics, pure=False)
    order, effective = split_members(members, topics)
    classes = [effective[order[cm[0]]] for cm in reference.class_members]
    kept = compiled.built().keep([members[m].assigned for m in order], reference.class_of, classes, topics)
    assert (kept is not None) == plain(members, topics)
    assert exactly(dict(enumerate(fast.work))) == exactly(dict(enumerate(reference.work)))
    assert (fast.counts, fast.holders, fast.free_of) == (reference.counts, reference.holders, reference.free_of)

    ordered = reference.sorted_topics()
    reference.make_heaps()
    for topic_id in ordered:
        free = reference.free(topic_id)
        if free:
            reference.deal(topic_id, free)
    assert fast.deal_compiled(compiled.built(), ordered)
    assert exactly(dict(enumerate(fast.work))) == exactly(dict(enumerate(reference.work)))
    assert fast.counts == reference.counts
    assert fast.holders == reference.holders

    reference.balance(ordered)
    took = fast.balance_compiled(compiled.built(), ordered)
    assert took == fast.kept_compiled  # only after the compiled keep (every partition an int)
    if took:
        assert exactly(dict(enumerate(fast.work))) == exactly(dict(enumerate(reference.work)))
        assert fast.counts == reference.counts
        assert fast.holders == reference.holders


@pytest.mark.parametrize(
    "assigned",
    [
        {FOO: frozenset({4})},  # out of range
        {FOO: frozenset({-1})},
        {FOO: frozenset({2**64})},
        {FOO: frozenset({True})},  # equal to 1, not an int
        {FOO: {1}},  # a set
        {FOO: frozenset()},  # an empty entry
        {BAZ: frozenset({0})},  # not subscribed
        MappingProxyType({FOO: frozenset({1})}),
    ],
)
def test_keep_declines_what_is_not_the_plain_case(assigned):
    members = {
        "a": MemberSpec(None, None, frozenset({FOO, BAR}), assigned),
        "b": MemberSpec(None, None, frozenset({BAR}), {BAR: frozenset({0})}),
    }
    topics = {FOO: 4, BAR: 2, BAZ: 1}
    assert compiled.built().keep([s.assigned for s in members.values()], [0, 1], [
        frozenset({FOO, BAR}), frozenset({BAR})], topics) is None
    reference, fast = both(members, topics)
    assert exactly(fast) == exactly(reference)


def test_keep_declines_a_partition_owned_twice():
    assigned = [{FOO: frozenset({0})}, {FOO: frozenset({0, 1})}]
    assert compiled.built().keep(assigned, [0, 1], [frozenset({FOO}), frozenset({FOO, BAR})], {FOO: 2, BAR: 1}) is None


def test_keep_takes_equal_topic_ids_that_are_other_objects():
    assigned = [{uuid.UUID(int=1): frozenset({0, 2})}, MappingProxyType({})]
    work, counts, holders, free = compiled.built().keep(
        assigned, [0, 1], [frozenset({FOO}), frozenset({FOO, BAR})], {FOO: 4, BAR: 1}
    )
    assert work == [{FOO: frozenset({0, 2})}, {}] and counts == [2, 0]
    assert holders == {FOO: {0}} and free == {FOO: [1, 3]}


def test_deal_declines_frees_it_does_not_take_and_changes_nothing():
    """A free range that does not start at 0, or another kind of sequence: the Python step deals."""
    deal = compiled.built().deal
    for free in (range(1, 3), range(0, 4, 2), (0, 1)):
        work: list[dict] = [{}, {}]
        holders: dict = {}
        assert deal([FOO], [free], [[0, 1]], [0, 1], [0, 0], work, holders) is None
        assert work == [{}, {}] and holders == {}


def test_deal_example():
    """FOO (5 free) is shared by member 0 (class 0, holding 2 of BAR) and members 1 and 2 (class 1, nothing):
    1 and 2 are raised to a common level, the first one above it, each taking one run; member 0 stays out.
    Then BAR's free partition goes to its only subscriber and joins what it holds."""
    work: list[dict] = [{BAR: frozenset({0, 1})}, {}, {}]
    holders = {BAR: {0}}
    counts = compiled.built().deal([FOO, BAR], [range(5), [2]], [[0, 1], [0]], [0, 1, 1], [2, 0, 0], work, holders)
    assert counts == [3, 3, 2]
    assert work == [{BAR: frozenset({0, 1, 2})}, {FOO: frozenset({0, 1, 2})}, {FOO: frozenset({3, 4})}]
    assert holders == {BAR: {0}, FOO: {1, 2}}


def test_a_giver_hands_over_what_it_was_just_dealt_before_what_it_held():
    """BAZ grows from 4 to 8 partitions: dealing gives m1 4, 5 and 6 (and FOO's two), balancing then moves one
    BAZ partition from m1 to m0, and it is 6, dealt a moment ago, not 2 or 3, which m1 held."""
    members = {
        "m0": MemberSpec(None, None, frozenset({BAR, BAZ}), {BAZ: frozenset({0, 1}), BAR: frozenset({0})}),
        "m1": MemberSpec(None, None, frozenset({FOO, BAZ}), {BAZ: frozenset({2, 3})}),
    }
    reference, fast = both(members, {FOO: 2, BAR: 1, BAZ: 8})
    assert exactly(fast) == exactly(reference)
    assert fast["m0"][BAZ] == {0, 1, 6, 7} and fast["m1"][BAZ] == {2, 3, 4, 5}


def test_balancing_sees_a_class_whose_most_loaded_member_grew():
    """A taker that rises above its class's largest count at the start of a round raises that bound at once:
    the next topic's skip test (every subscriber class within one partition) reads the raised bound."""
    members = {
        "m1": MemberSpec(None, None, frozenset({BAZ}), {BAZ: frozenset({1})}),
        "m2": MemberSpec(None, None, frozenset({BAR, BAZ}), {BAZ: frozenset({2})}),
        "m3": MemberSpec(None, None, frozenset({BAR, BAZ}), {BAZ: frozenset({3})}),
        "m5": MemberSpec(None, None, frozenset({BAR, BAZ}), {BAZ: frozenset({4})}),
        "m6": MemberSpec(None, None, frozenset({FOO, BAR}), {BAR: frozenset({2, 3})}),
    }
    topics = {FOO: 4, BAR: 7, BAZ: 5}
    reference, fast = both(members, topics)
    assert exactly(fast) == exactly(reference)
    check_balanced_for_subscriptions(members, fast)


@pytest.mark.parametrize("mutate", [True, False])
def test_keep_with_a_topic_id_whose_hash_changes_the_assignment(mutate):
    """keep holds each entry across a topic id's __hash__, and declines when the hash changed a current
    assignment (the Python step keeps then); a subclass id that changes nothing is kept in C."""

    def group():
        current = {Rehashing(int=FOO.int): frozenset({0, 1, 2}), Rehashing(int=BAR.int): frozenset({0})}
        Rehashing.victims = [current] if mutate else []
        return {
            "a": MemberSpec(None, None, frozenset({FOO, BAR}), current),
            "b": MemberSpec(None, None, frozenset({BAR, BAZ})),
        }, {FOO: 4, BAR: 2, BAZ: 3}

    try:
        with compiled.forced(True):
            reference = exactly(uniform.assign(*group()))
        with compiled.forced(False):
            assert exactly(uniform.assign(*group())) == reference
        members, topics = group()
        kept = compiled.built().keep(
            [s.assigned for s in members.values()], [0, 1], [frozenset({FOO, BAR}), frozenset({BAR, BAZ})], topics
        )
        assert (kept is None) == mutate
    finally:
        Rehashing.victims = []
