"""The KIP-848 server-side assignors: properties over random groups, and concrete assignments."""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.coordinator.assignors import (
    ASSIGNORS,
    Assignment,
    AssignorError,
    MemberSpec,
    RangeAssignor,
    UniformAssignor,
)

pytestmark = pytest.mark.usefixtures("homogeneous_builder")  # each test on both homogeneous builders

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

POOL = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15 % 2**64) << 64 | i) for i in range(1, 7)]  # ids not in index order
MISSING = uuid.UUID(int=0xDEAD)  # subscribed to or assigned, never in `topics`

FOO, BAR = uuid.UUID(int=1), uuid.UUID(int=2)


def spec(subscribed, assigned=None, instance_id=None) -> MemberSpec:
    return MemberSpec(instance_id, None, frozenset(subscribed), assigned or {})


def names(result: Mapping[str, Assignment]) -> dict[str, dict[str, list[int]]]:
    """FOO/BAR results in a form that reads well in an assertion."""
    label = {FOO: "foo", BAR: "bar"}
    return {m: {label[t]: sorted(ps) for t, ps in a.items()} for m, a in result.items()}


def sizes(result: Mapping[str, Assignment]) -> dict[str, int]:
    return {m: sum(map(len, a.values())) for m, a in result.items()}


@st.composite
def groups(draw, homogeneous: bool = False, assigned: bool = True):
    """Members and topics. Subscriptions may name a missing topic; current assignments may name missing or
    unsubscribed topics, partitions out of range, and partitions claimed by several members."""
    topic_ids = POOL[: draw(st.integers(1, len(POOL)))]
    topics = {t: draw(st.integers(0, 12)) for t in topic_ids}
    choices = [*topic_ids, MISSING]
    member_ids = draw(st.lists(st.text("abcxyz", min_size=1, max_size=3), min_size=1, max_size=8, unique=True))
    common = frozenset(draw(st.sets(st.sampled_from(choices), min_size=1)))
    members = {}
    for member_id in member_ids:
        subscribed = common if homogeneous else frozenset(draw(st.sets(st.sampled_from(choices))))
        current = {}
        if assigned:
            for t in draw(st.sets(st.sampled_from(choices), max_size=3)):
                current[t] = frozenset(draw(st.sets(st.integers(-1, 14), max_size=6)))
        instance_id = draw(st.none() | st.text("ijk", min_size=1, max_size=2))
        members[member_id] = MemberSpec(instance_id, None, subscribed, current)
    return members, topics


def shuffled(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int], seed: int):
    """The same group with every mapping in another insertion order."""
    rng = random.Random(seed)

    def mix(mapping):
        items = list(mapping.items())
        rng.shuffle(items)
        return dict(items)

    return (
        mix(
            {
                m: MemberSpec(s.instance_id, s.rack_id, s.subscribed_topic_ids, mix(s.assigned))
                for m, s in members.items()
            }
        ),
        mix(topics),
    )


def check_valid(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int], result) -> None:
    """Every member present; every partition of a subscribed topic owned exactly once, by a subscriber;
    nothing else assigned; no empty entries."""
    assert set(result) == set(members)
    owners: dict[tuple[uuid.UUID, int], str] = {}
    for member_id, assignment in result.items():
        for t, parts in assignment.items():
            assert isinstance(parts, frozenset)
            assert parts, f"{member_id} has an empty entry for {t}"
            assert t in topics
            assert t in members[member_id].subscribed_topic_ids
            for p in parts:
                assert 0 <= p < topics[t]
                assert (t, p) not in owners, f"{t}-{p} owned by {owners[(t, p)]} and {member_id}"
                owners[(t, p)] = member_id
    subscribed = {t for s in members.values() for t in s.subscribed_topic_ids if t in topics}
    assert set(owners) == {(t, p) for t in subscribed for p in range(topics[t])}


def check_balanced_for_subscriptions(members, result) -> None:
    """No partition could move from its owner to a subscriber of its topic with at least 2 fewer."""
    count = sizes(result)
    for owner, assignment in result.items():
        for t in assignment:
            for other, s in members.items():
                if t in s.subscribed_topic_ids:
                    assert count[owner] - count[other] <= 1, (owner, other, t, count)


# --- properties common to both assignors -------------------------------------------------------------------


@pytest.mark.parametrize("assignor", list(ASSIGNORS.values()), ids=list(ASSIGNORS))
@FAST
@given(group=groups(), seed=st.integers(0, 2**32))
def test_every_subscribed_partition_once_and_deterministic(assignor, group, seed):
    members, topics = group
    result = assignor.assign(members, topics)
    check_valid(members, topics, result)
    assert assignor.assign(*shuffled(members, topics, seed)) == result


@pytest.mark.parametrize("assignor", list(ASSIGNORS.values()), ids=list(ASSIGNORS))
def test_no_members(assignor):
    assert assignor.assign({}, {FOO: 3}) == {}


@pytest.mark.parametrize("assignor", list(ASSIGNORS.values()), ids=list(ASSIGNORS))
def test_negative_partition_count_is_an_error(assignor):
    with pytest.raises(AssignorError):
        assignor.assign({"a": spec({FOO})}, {FOO: -1})


@pytest.mark.parametrize("assignor", list(ASSIGNORS.values()), ids=list(ASSIGNORS))
def test_missing_topics_are_skipped_and_unsubscribed_topics_left_alone(assignor):
    members = {"a": spec({FOO, MISSING}, {MISSING: frozenset({0})}), "b": spec({FOO})}
    result = assignor.assign(members, {FOO: 4, BAR: 5})
    check_valid(members, {FOO: 4, BAR: 5}, result)
    assert sizes(result) == {"a": 2, "b": 2}


def test_registry_order_and_names():
    assert list(ASSIGNORS) == ["uniform", "range"]  # the first is the default
    assert all(a.name == name for name, a in ASSIGNORS.items())
    assert isinstance(ASSIGNORS["uniform"], UniformAssignor)
    assert isinstance(ASSIGNORS["range"], RangeAssignor)


# --- uniform ------------------------------------------------------------------------------------------------

uniform = UniformAssignor()


@FAST
@given(group=groups(homogeneous=True))
def test_uniform_homogeneous_sizes_differ_by_at_most_one(group):
    members, topics = group
    result = uniform.assign(members, topics)
    count = sizes(result)
    assert max(count.values()) - min(count.values()) <= 1


@FAST
@given(group=groups())
def test_uniform_heterogeneous_is_balanced_as_far_as_subscriptions_allow(group):
    members, topics = group
    check_balanced_for_subscriptions(members, uniform.assign(members, topics))


@FAST
@given(group=groups())
def test_uniform_result_is_a_fixed_point(group):
    """Fed its own output as the current assignment, the assignor changes nothing."""
    members, topics = group
    first = uniform.assign(members, topics)
    again = {m: MemberSpec(s.instance_id, s.rack_id, s.subscribed_topic_ids, first[m]) for m, s in members.items()}
    assert uniform.assign(again, topics) == first


@FAST
@given(group=groups(homogeneous=True))
def test_uniform_join_moves_only_the_minimum(group):
    """One member joins a balanced homogeneous group: each old member keeps min(old, new quota) of its
    partitions at least, and in all only as many partitions move as balance requires."""
    members, topics = group
    before = uniform.assign(members, topics)
    subscribed = next(iter(members.values())).subscribed_topic_ids
    joined = {m: MemberSpec(s.instance_id, s.rack_id, s.subscribed_topic_ids, before[m]) for m, s in members.items()}
    joined["0new"] = MemberSpec(None, None, subscribed, {})  # sorts first: it must not take the extra slots
    after = uniform.assign(joined, topics)
    check_valid(joined, topics, after)

    total = sum(topics[t] for t in subscribed if t in topics)
    quota, extra = divmod(total, len(joined))
    old = sizes(before)
    kept_total = 0
    for m, assignment in before.items():
        kept = sum(len(ps & after[m].get(t, frozenset())) for t, ps in assignment.items())
        assert kept >= min(old[m], quota)
        kept_total += kept
    most_keepable = sum(min(c, quota) for c in old.values()) + min(extra, sum(c > quota for c in old.values()))
    assert kept_total == most_keepable


def test_uniform_homogeneous_example():
    members = {m: spec({FOO}) for m in "abc"}
    assert names(uniform.assign(members, {FOO: 7})) == {
        "a": {"foo": [0, 1, 2]},
        "b": {"foo": [3, 4]},
        "c": {"foo": [5, 6]},
    }


def test_uniform_homogeneous_join_example():
    """c joins a and b on 4 partitions: quota 1, one extra slot. Both old members are above quota; the
    extra goes to the first (a), b gives up its highest partition, and only that partition moves."""
    members = {
        "a": spec({FOO}, {FOO: frozenset({0, 1})}),
        "b": spec({FOO}, {FOO: frozenset({2, 3})}),
        "c": spec({FOO}),
    }
    assert names(uniform.assign(members, {FOO: 4})) == {
        "a": {"foo": [0, 1]},
        "b": {"foo": [2]},
        "c": {"foo": [3]},
    }


def test_uniform_extra_slot_goes_to_a_member_that_can_use_it_to_stay_put():
    """Quota 2 with one extra slot: the member holding 3 keeps all 3 rather than a member holding 0 taking
    the extra slot (Kafka would give it by hash order and move one more partition)."""
    members = {
        "a": spec({FOO}),
        "b": spec({FOO}),
        "c": spec({FOO}, {FOO: frozenset({4, 5, 6})}),
    }
    result = uniform.assign(members, {FOO: 7})
    assert result["c"] == {FOO: frozenset({4, 5, 6})}
    assert sizes(result) == {"a": 2, "b": 2, "c": 3}


def test_uniform_drops_unsubscribed_missing_and_out_of_range_partitions():
    members = {
        "a": spec({FOO}, {FOO: frozenset({0, 9}), BAR: frozenset({0}), MISSING: frozenset({1})}),
        "b": spec({FOO}, {FOO: frozenset({1})}),
    }
    assert names(uniform.assign(members, {FOO: 4, BAR: 2})) == {
        "a": {"foo": [0, 2]},
        "b": {"foo": [1, 3]},
    }


def test_uniform_duplicate_claim_goes_to_the_first_member():
    members = {"b": spec({FOO}, {FOO: frozenset({0})}), "a": spec({FOO}, {FOO: frozenset({0})})}
    assert names(uniform.assign(members, {FOO: 2})) == {"a": {"foo": [0]}, "b": {"foo": [1]}}


def test_uniform_heterogeneous_example():
    """foo is subscribed by a and b, bar by b and c. foo (3 per subscriber) is dealt first."""
    members = {"a": spec({FOO}), "b": spec({FOO, BAR}), "c": spec({BAR})}
    assert names(uniform.assign(members, {FOO: 6, BAR: 3})) == {
        "a": {"foo": [0, 1, 2]},
        "b": {"foo": [3, 4, 5]},
        "c": {"bar": [0, 1, 2]},
    }


def test_uniform_heterogeneous_rebalances_a_hoarder():
    """One member holds everything; the others join with different subscriptions. The hoarder gives away
    partitions until no subscriber is 2 behind, and keeps its share."""
    hoard = {FOO: frozenset(range(12)), BAR: frozenset(range(6))}
    members = {"a": spec({FOO, BAR}, hoard), "b": spec({FOO}), "c": spec({FOO, BAR}), "d": spec({BAR})}
    topics = {FOO: 12, BAR: 6}
    result = uniform.assign(members, topics)
    check_valid(members, topics, result)
    check_balanced_for_subscriptions(members, result)
    assert max(sizes(result).values()) - min(sizes(result).values()) <= 1
    assert sizes(result)["a"] >= 18 // 4


def test_uniform_uses_the_heterogeneous_path_only_when_subscriptions_differ():
    """A member subscribed to an extra, missing topic still counts as homogeneous: contiguous runs."""
    members = {"a": spec({FOO, MISSING}), "b": spec({FOO})}
    assert names(uniform.assign(members, {FOO: 4})) == {"a": {"foo": [0, 1]}, "b": {"foo": [2, 3]}}


def test_uniform_assigns_parts_that_share_no_topic_separately():
    """a and b share foo, c alone has bar: two independent homogeneous parts, contiguous runs in each."""
    members = {"a": spec({FOO}), "b": spec({FOO}), "c": spec({BAR}), "d": spec(set())}
    assert names(uniform.assign(members, {FOO: 5, BAR: 2})) == {
        "a": {"foo": [0, 1, 2]},
        "b": {"foo": [3, 4]},
        "c": {"bar": [0, 1]},
        "d": {},
    }


@pytest.mark.parametrize("seed", range(6))
def test_uniform_large_group_with_many_overlapping_parts(seed):
    """More subscription classes and parts than the random groups above reach (many small, partly
    overlapping subscriptions), then a second round fed the first's result with a few members gone."""
    rng = random.Random(seed)
    topic_ids = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(120)]
    topics = {t: rng.randint(0, 9) for t in topic_ids}
    members = {f"m{i:03}": spec(rng.sample(topic_ids, rng.choice((1, 1, 2, 3))), instance_id=None) for i in range(150)}
    first = uniform.assign(members, topics)
    check_valid(members, topics, first)
    check_balanced_for_subscriptions(members, first)
    assert uniform.assign(*shuffled(members, topics, seed)) == first

    survivors = {m: MemberSpec(None, None, s.subscribed_topic_ids, first[m]) for m, s in members.items()}
    for gone in rng.sample(sorted(survivors), 15):
        del survivors[gone]
    second = uniform.assign(survivors, topics)
    check_valid(survivors, topics, second)
    check_balanced_for_subscriptions(survivors, second)


# --- range --------------------------------------------------------------------------------------------------

range_assignor = RangeAssignor()


def reference_range(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
    """A direct reading of the rule, for ASCII ids: static members by instance id then dynamic ones by member
    id; per topic, subscriber i of N gets the i-th contiguous run, the first P % N one partition longer."""
    static = sorted((s.instance_id, m) for m, s in members.items() if s.instance_id is not None)
    order = [m for _, m in static] + sorted(m for m, s in members.items() if s.instance_id is None)
    result: dict[str, Assignment] = {m: {} for m in order}
    for t, count in topics.items():
        subscribers = [m for m in order if t in members[m].subscribed_topic_ids]
        start = 0
        for i, m in enumerate(subscribers):
            length = count // len(subscribers) + (i < count % len(subscribers))
            if length:
                result[m][t] = frozenset(range(start, start + length))
            start += length
    return result


@FAST
@given(group=groups())
def test_range_matches_the_reference_rule(group):
    members, topics = group
    assert range_assignor.assign(members, topics) == reference_range(members, topics)


@FAST
@given(group=groups())
def test_range_is_not_sticky(group):
    """Kafka 4.x's RangeAssignor does not read the current assignment."""
    members, topics = group
    bare = {m: MemberSpec(s.instance_id, s.rack_id, s.subscribed_topic_ids, {}) for m, s in members.items()}
    assert range_assignor.assign(members, topics) == range_assignor.assign(bare, topics)


@FAST
@given(group=groups(homogeneous=True, assigned=False), count=st.integers(1, 12))
def test_range_co_partitions_topics_of_equal_size(group, count):
    members, _ = group
    subscribed = sorted(next(iter(members.values())).subscribed_topic_ids - {MISSING})
    topics = dict.fromkeys(subscribed, count)
    for assignment in range_assignor.assign(members, topics).values():
        per_topic = [assignment.get(t, frozenset()) for t in subscribed]
        assert all(ps == per_topic[0] for ps in per_topic)


def test_range_kip_848_case_study():
    """Two members on foo (6 partitions) and bar (3): co-partitioned, the first member takes bar's extra."""
    members = {"m1": spec({FOO, BAR}), "m2": spec({FOO, BAR})}
    assert names(range_assignor.assign(members, {FOO: 6, BAR: 3})) == {
        "m1": {"foo": [0, 1, 2], "bar": [0, 1]},
        "m2": {"foo": [3, 4, 5], "bar": [2]},
    }


def test_range_static_members_first_by_instance_id():
    members = {
        "a-dynamic": spec({FOO}),
        "b-static": spec({FOO}, instance_id="instance-2"),
        "c-static": spec({FOO}, instance_id="instance-1"),
        "0-dynamic": spec({FOO}),
    }
    assert names(range_assignor.assign(members, {FOO: 6})) == {
        "c-static": {"foo": [0, 1]},
        "b-static": {"foo": [2, 3]},
        "0-dynamic": {"foo": [4]},
        "a-dynamic": {"foo": [5]},
    }


def test_range_static_member_keeps_its_range_under_a_new_member_id():
    before = {"m-1": spec({FOO}, instance_id="i0"), "m-2": spec({FOO}, instance_id="i1")}
    after = {"m-9": spec({FOO}, instance_id="i0"), "m-0": spec({FOO}, instance_id="i1")}
    first = range_assignor.assign(before, {FOO: 5})
    second = range_assignor.assign(after, {FOO: 5})
    assert first["m-1"] == second["m-9"] and first["m-2"] == second["m-0"]


def test_range_heterogeneous_counts_each_topics_own_subscribers():
    members = {"a": spec({FOO}), "b": spec({FOO, BAR}), "c": spec({BAR})}
    assert names(range_assignor.assign(members, {FOO: 5, BAR: 3})) == {
        "a": {"foo": [0, 1, 2]},
        "b": {"foo": [3, 4], "bar": [0, 1]},
        "c": {"bar": [2]},
    }


def test_range_more_members_than_partitions():
    members = {m: spec({FOO}) for m in "abcd"}
    assert names(range_assignor.assign(members, {FOO: 2})) == {
        "a": {"foo": [0]},
        "b": {"foo": [1]},
        "c": {},
        "d": {},
    }


def test_range_orders_member_ids_like_java():
    """Java compares UTF-16 code units: U+1F600 (surrogates D83D DE00) sorts before U+FF61, unlike Python."""
    members = {"\uff61": spec({FOO}), "\U0001f600": spec({FOO})}
    result = range_assignor.assign(members, {FOO: 2})
    assert result == {"\U0001f600": {FOO: frozenset({0})}, "\uff61": {FOO: frozenset({1})}}
