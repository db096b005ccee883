"""The uniform assignor's homogeneous builder: balance and stickiness over random group histories, the same
quality as the builder it replaced (issue 20), and the shapes its bulk paths treat apart."""

from __future__ import annotations

import uuid
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.coordinator.assignors import Assignment, MemberSpec, UniformAssignor, compiled
from tests.coordinator.assignors.homogeneous_before import assign_before
from tests.coordinator.conftest import COMPILED_BUILDERS_ONLY
from tests.coordinator.test_assignors import check_valid, groups, shuffled, sizes

pytestmark = pytest.mark.usefixtures("homogeneous_builder")  # each test on both homogeneous builders

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

POOL = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15 % 2**64) << 64 | i) for i in range(1, 7)]  # ids not in index order
FOO, BAR, BAZ = uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)

uniform = UniformAssignor()
member_ids = st.text("abcdefgh", min_size=1, max_size=3)


@st.composite
def histories(draw):
    """(members, topics) for a group's next assignment: it was assigned once, then members left and joined
    and topics gained or lost partitions (an owner still names partitions past a topic's new end)."""
    topic_ids = POOL[: draw(st.integers(1, len(POOL)))]
    before = {t: draw(st.integers(0, 40)) for t in topic_ids}
    subscribed = frozenset(topic_ids)
    old = draw(st.lists(member_ids, min_size=1, max_size=40, unique=True))
    first = uniform.assign({m: MemberSpec(None, None, subscribed) for m in old}, before)
    leaving = draw(st.sets(st.sampled_from(old)))
    joining = [m for m in draw(st.lists(member_ids, max_size=10, unique=True)) if m not in old]
    after = {t: draw(st.sampled_from([count, count, 0, count // 2, count + 7])) for t, count in before.items()}
    members = {m: MemberSpec(None, None, subscribed, first[m]) for m in old if m not in leaving}
    members.update((m, MemberSpec(None, None, subscribed)) for m in joining)
    if not members:
        members[old[0]] = MemberSpec(None, None, subscribed, first[old[0]])
    return members, after


def still_valid(spec: MemberSpec, topics: Mapping[uuid.UUID, int]) -> int:
    """Partitions of a member's current assignment it may keep (the histories never assign one twice)."""
    return sum(
        len([p for p in parts if 0 <= p < topics[t]])
        for t, parts in spec.assigned.items()
        if t in topics and t in spec.subscribed_topic_ids
    )


def kept(members: Mapping[str, MemberSpec], result: Mapping[str, Assignment]) -> dict[str, int]:
    """Partitions each member owned before and still owns."""
    return {
        m: sum(len(frozenset(parts) & result[m].get(t, frozenset())) for t, parts in spec.assigned.items())
        for m, spec in members.items()
    }


@SETTINGS
@given(history=histories())
def test_balanced(history):
    members, topics = history
    result = uniform.assign(members, topics)
    check_valid(members, topics, result)
    count = sizes(result)
    assert max(count.values()) - min(count.values()) <= 1


@SETTINGS
@given(history=histories())
def test_keeps_all_that_balance_allows(history):
    """A member holding no more than the quota keeps everything it still may; one holding more keeps at least
    the quota; and in all exactly as many stay put as the best balanced assignment keeps: every member up to
    the quota, plus one each for as many members above it as there are quota + 1 slots."""
    members, topics = history
    result = uniform.assign(members, topics)
    total = sum(topics.values())
    quota, extra = divmod(total, len(members))
    held = {m: still_valid(spec, topics) for m, spec in members.items()}
    stayed = kept(members, result)
    for m, count in held.items():
        assert stayed[m] >= min(count, quota)
        if count <= quota:
            assert stayed[m] == count
    over = sum(count > quota for count in held.values())
    assert sum(stayed.values()) == sum(min(c, quota) for c in held.values()) + min(extra, over)


@SETTINGS
@given(history=histories(), seed=st.integers(0, 2**32))
def test_same_result_whatever_the_insertion_order(history, seed):
    members, topics = history
    assert uniform.assign(*shuffled(members, topics, seed)) == uniform.assign(members, topics)


@SETTINGS
@given(group=st.one_of(histories(), groups(homogeneous=True)))
def test_as_balanced_and_as_sticky_as_before(group):
    """Against the builder before issue 20, on histories and on current assignments naming anything (missing
    and unsubscribed topics, partitions out of range or claimed twice): the same spread of sizes, and no
    fewer partitions left where they were."""
    members, topics = group
    new, old = uniform.assign(members, topics), assign_before(members, topics)
    check_valid(members, topics, new)
    new_sizes, old_sizes = sizes(new).values(), sizes(old).values()
    assert max(new_sizes) - min(new_sizes) == max(old_sizes) - min(old_sizes)
    assert sum(kept(members, new).values()) >= sum(kept(members, old).values())


def test_result_does_not_share_the_callers_dicts():
    """Kept assignments are copies: the caller may change a result without changing its input."""
    members = {"a": MemberSpec(None, None, frozenset({FOO}), {FOO: frozenset({0, 1})}), "b": MemberSpec(
        None, None, frozenset({FOO}), {FOO: frozenset({2, 3})})}
    result = uniform.assign(members, {FOO: 4})
    assert result == {"a": {FOO: frozenset({0, 1})}, "b": {FOO: frozenset({2, 3})}}
    assert all(result[m] is not members[m].assigned for m in members)


def spec(*topic_ids: uuid.UUID) -> MemberSpec:
    return MemberSpec(None, None, frozenset(topic_ids))


def test_runs_cross_topics_and_skip_empty_ones():
    """Nobody owns anything: partitions laid end to end in Uuid order (FOO, BAR, BAZ), cut into runs in member
    order, the first `total % members` one longer; an empty topic takes no part and a run goes on into the
    next topic."""
    members = {m: spec(FOO, BAR, BAZ) for m in "abc"}
    result = uniform.assign(members, {FOO: 3, BAR: 0, BAZ: 4})
    assert result == {
        "a": {FOO: frozenset({0, 1, 2})},
        "b": {BAZ: frozenset({0, 1})},
        "c": {BAZ: frozenset({2, 3})},
    }
    result = uniform.assign({m: spec(FOO, BAR) for m in "ab"}, {FOO: 3, BAR: 1})
    assert result == {"a": {FOO: frozenset({0, 1})}, "b": {FOO: frozenset({2}), BAR: frozenset({0})}}


def test_more_members_than_partitions():
    """Quota 0: the first members in member order get one partition each, the others nothing."""
    members = {m: spec(FOO) for m in "dcba"}
    assert uniform.assign(members, {FOO: 2}) == {
        "a": {FOO: frozenset({0})},
        "b": {FOO: frozenset({1})},
        "c": {},
        "d": {},
    }


def test_member_order_is_javas():
    """Java compares UTF-16 code units: U+10000 (surrogates D800 DC00) sorts before U+FFFF, unlike Python."""
    low, high = "\U00010000", "\uffff"
    result = uniform.assign({high: spec(FOO), low: spec(FOO)}, {FOO: 3})
    assert result == {low: {FOO: frozenset({0, 1})}, high: {FOO: frozenset({2})}}


@COMPILED_BUILDERS_ONLY
def test_groups_alike_does_not_take_are_built_in_c(compiled_calls):
    """Equal subscriptions that are other objects (as members read one by one have them), and a group whose two
    parts share no topic: `alike` declines both, and each homogeneous group or part is built in C
    (`homogeneous`), with the reference's result."""
    from tests.coordinator.assignors.test_compiled import exactly  # here: that module imports this one

    before = uniform.assign({m: spec(FOO, BAR) for m in "abcd"}, {FOO: 5, BAR: 3})
    equal = {m: MemberSpec(None, None, frozenset({FOO, BAR}), before.get(m, {})) for m in "bcde"}
    parts = {"a": spec(FOO), "b": spec(FOO), "c": spec(BAR, BAZ), "d": spec(BAR, BAZ), "e": spec(BAR, BAZ)}
    cases = [(equal, {FOO: 6, BAR: 3}, 1), (parts, {FOO: 3, BAR: 2, BAZ: 4}, 2)]
    with compiled.forced(True):
        references = [uniform.assign(members, topics) for members, topics, _ in cases]
    calls = compiled_calls(compiled.built(), "alike", "homogeneous")
    for (members, topics, builds), reference in zip(cases, references, strict=True):
        for made in calls.values():
            made.clear()
        got = uniform.assign(members, topics)
        assert exactly(got) == exactly(reference)
        assert [call.answer for call in calls["alike"]] == [None]
        assert [call.answer is not None for call in calls["homogeneous"]] == [True] * builds, "not built in C"
