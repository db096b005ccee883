"""The compiled homogeneous builder (`assignors/_uniformc.c`) against the pure-Python reference: the same
result, down to the order of members and entries, on generated groups; the plain case taken in C, anything
else handed back untouched for the reference to decide."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.coordinator.assignors import Assignment, MemberSpec, UniformAssignor, compiled
from tests.coordinator.assignors.test_homogeneous import histories
from tests.coordinator.test_assignors import groups

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="the compiled homogeneous builder (assignors/_uniformc.c) is not built"
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

POOL = [uuid.UUID(int=(i * 0x9E3779B97F4A7C15 % 2**64) << 64 | i) for i in range(1, 5)]
MISSING = uuid.UUID(int=0xDEAD)
FOO, BAR = uuid.UUID(int=1), uuid.UUID(int=2)

uniform = UniformAssignor()


def both(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> tuple[dict, dict]:
    with compiled.forced(True):
        reference = uniform.assign(members, topics)
    with compiled.forced(False):
        fast = uniform.assign(members, topics)
    return reference, fast


def exactly(result: Mapping[str, Assignment]) -> list:
    """A result with every order and type that Python code could see."""
    return [
        (m, type(a), [(t, type(p), sorted(p)) for t, p in a.items()]) for m, a in result.items()
    ]


def native(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict | None:
    """What the compiled builder itself answers for a homogeneous group (None: left to the reference)."""
    (subscribed,) = {s.subscribed_topic_ids for s in members.values()}
    topic_ids = sorted(subscribed & topics.keys(), key=lambda t: t.int)
    into: dict = {}
    answer = compiled.built().homogeneous(
        list(members), [s.assigned for s in members.values()], topic_ids, [topics[t] for t in topic_ids], into
    )
    assert answer is None or answer is into
    if answer is None:
        assert into == {}, "a declined input must leave the result untouched"
    return answer


# Member ids: ASCII, Latin-1, the rest of the BMP (Java order is code point order there), and beyond the BMP
# (UTF-16 surrogates order differently: the reference decides).
member_ids = st.text("ab\u00e9\u00ff\u4e2d\uffff", min_size=1, max_size=3) | st.text(
    "a\U0001f600\ue000", min_size=1, max_size=2
)


@st.composite
def odd_groups(draw):
    """A homogeneous group whose current assignments are anything a caller could hand over: mapping proxies,
    sets instead of frozensets, bools, big or negative ints, topic ids equal to ours but other objects,
    unsubscribed and missing topics, partitions owned twice."""
    topic_ids = POOL[: draw(st.integers(1, len(POOL)))]
    topics = {t: draw(st.integers(0, 9)) for t in topic_ids}
    subscribed = frozenset(draw(st.sets(st.sampled_from([*topic_ids, MISSING]), min_size=1)))
    partitions = st.integers(0, 11) | st.sampled_from([True, -1, 2**30, 2**61 - 1, 2**64 + 3])
    members = {}
    for member_id in draw(st.lists(member_ids, min_size=1, max_size=8, unique=True)):
        current: dict = {}
        for t in draw(st.sets(st.sampled_from([*topic_ids, MISSING]), max_size=3)):
            key = uuid.UUID(int=t.int) if draw(st.booleans()) else t
            parts = draw(st.frozensets(partitions, max_size=5))
            current[key] = set(parts) if draw(st.integers(0, 9)) == 0 else parts
        wrap = draw(st.sampled_from([dict, dict, dict, MappingProxyType]))
        members[member_id] = MemberSpec(None, None, subscribed, wrap(current))
    return members, topics


@SETTINGS
@given(group=st.one_of(histories(), groups(homogeneous=True), odd_groups()))
def test_same_result_as_the_reference(group):
    members, topics = group
    reference, fast = both(members, topics)
    assert exactly(fast) == exactly(reference)


@SETTINGS
@given(history=histories())
def test_plain_histories_are_assigned_in_c(history):
    """A group's next assignment from its last (members gone and joined, topics grown or shrunk past what
    some own) is the plain case once nothing is out of range: C answers it, the reference does not run."""
    members, topics = history
    plain = all(p < topics[t] for s in members.values() for t, ps in s.assigned.items() for p in ps)
    answer = native(members, topics)
    whole = compiled.built().alike(members, topics)
    if plain:
        assert answer is not None and whole is not None
        with compiled.forced(True):
            reference = exactly(uniform.assign(members, topics))
        assert exactly(answer) == reference
        assert exactly(whole) == reference


def test_alike_declines_groups_it_does_not_take():
    """Equal subscriptions that are other objects, a subscription naming a missing topic, topics given as
    another mapping than a dict: the Python path groups the members (and may still call `homogeneous`)."""
    alike = compiled.built().alike
    one = frozenset({FOO})
    equal = {m: MemberSpec(None, None, frozenset({FOO})) for m in "ab"}
    assert alike(equal, {FOO: 4}) is None
    missing = {m: MemberSpec(None, None, frozenset({FOO, MISSING})) for m in "ab"}
    assert alike(missing, {FOO: 4}) is None
    shared = {m: MemberSpec(None, None, one) for m in "ab"}
    assert alike(shared, MappingProxyType({FOO: 4})) is None
    assert alike(shared, {FOO: 4}) == {"a": {FOO: frozenset({0, 1})}, "b": {
        FOO: frozenset({2, 3})}}


@pytest.mark.parametrize(
    "assigned",
    [
        {FOO: frozenset({4})},  # out of range
        {FOO: frozenset({-1})},
        {FOO: frozenset({2**61 - 1})},  # hashes as 0
        {FOO: frozenset({True})},  # equal to 1, not an int
        {FOO: {1}},  # a set
        {FOO: frozenset()},  # an empty entry
        {BAR: frozenset({0})},  # not subscribed
        MappingProxyType({FOO: frozenset({1})}),
    ],
)
def test_declines_what_is_not_the_plain_case(assigned):
    members = {"a": MemberSpec(None, None, frozenset({FOO}), assigned), "b": MemberSpec(None, None, frozenset({FOO}))}
    assert native(members, {FOO: 4, BAR: 2}) is None
    reference, fast = both(members, {FOO: 4, BAR: 2})
    assert exactly(fast) == exactly(reference)


def test_declines_a_partition_owned_twice_and_ids_beyond_the_bmp():
    twice = {m: MemberSpec(None, None, frozenset({FOO}), {FOO: frozenset({0})}) for m in "ab"}
    assert native(twice, {FOO: 4}) is None
    beyond = {"\U0001f600": MemberSpec(None, None, frozenset({FOO})), "a": MemberSpec(None, None, frozenset({FOO}))}
    assert native(beyond, {FOO: 4}) is None


def test_takes_equal_topic_ids_that_are_other_objects():
    members = {
        "a": MemberSpec(None, None, frozenset({FOO}), {uuid.UUID(int=1): frozenset({0, 1, 2})}),
        "b": MemberSpec(None, None, frozenset({FOO}), MappingProxyType({})),
    }
    answer = native(members, {FOO: 4})
    assert answer == {"a": {FOO: frozenset({0, 1})}, "b": {FOO: frozenset({2, 3})}}


def test_java_order_of_bmp_ids():
    """Extra slots go in Java order of member id: 'Z' < 'a' < 'é' < '中' < '\uffff'."""
    ids = ["\uffff", "\u4e2d", "\u00e9", "a", "Z"]
    members = {m: MemberSpec(None, None, frozenset({FOO})) for m in ids}
    answer = native(members, {FOO: 7})
    assert answer is not None
    assert [sorted(answer[m][FOO]) for m in sorted(ids)] == [[0, 1], [2, 3], [4], [5], [6]]


def test_version_says_which_builder_runs(cli) -> None:
    with compiled.forced(True):
        assert cli("--version").out.splitlines()[2] == "uniform assignor: pure Python (GROUPCTL_PURE_PYTHON is set)"
    with compiled.forced(False):
        assert cli("--version").out.splitlines()[2] == "uniform assignor: compiled"


def test_every_compiled_step_takes_the_plain_case():
    """No step of the extension returns its "not handled" None for a plain input on this Python: a path compiled
    for some Pythons only (alike and the heterogeneous steps once returned None on 3.13) fails here, and
    `groupctl --version` names it."""
    assert compiled.probe(compiled.built()) == {}
    with compiled.forced(False):
        assert compiled.describe() == "uniform assignor: compiled"


class Rehashing(uuid.UUID):
    """A topic id whose __hash__ first replaces each value of the dicts in `victims` by an equal copy, so that
    the sets there before are freed: _uniformc's read_member and trim used them afterwards (issue 27)."""

    __slots__ = ()
    victims: ClassVar[list[dict]] = []
    busy: ClassVar[bool] = False

    def __hash__(self) -> int:
        if not Rehashing.busy:
            Rehashing.busy = True
            try:
                for victim in Rehashing.victims:
                    for key, parts in list(victim.items()):
                        victim[key] = frozenset(list(parts))  # equal, another object: the old one is freed
            finally:
                Rehashing.busy = False
        return super().__hash__()


def rehashing_group(mutate: bool) -> tuple[dict[str, MemberSpec], dict[uuid.UUID, int]]:
    """a holds all of FOO (6) and BAR (4) under Rehashing ids, b and c nothing: a keeps 4, the rest is dealt."""
    current = {Rehashing(int=FOO.int): frozenset(range(6)), Rehashing(int=BAR.int): frozenset(range(4))}
    Rehashing.victims = [current] if mutate else []
    subscribed = frozenset({FOO, BAR})
    members = {"a": MemberSpec(None, None, subscribed, current)}
    members.update((m, MemberSpec(None, None, subscribed)) for m in "bc")
    return members, {FOO: 6, BAR: 4}


@pytest.mark.parametrize("mutate", [True, False])
def test_a_topic_id_whose_hash_changes_the_assignment(mutate):
    """The compiled builder holds what it reads across a topic id's __hash__ (no freed memory is read: this is
    the test an ASAN build failed), and declines when the hash changed a current assignment, leaving the
    reference to decide; a subclass id that changes nothing is taken. Either way, the reference's result."""
    try:
        with compiled.forced(True):
            reference = exactly(uniform.assign(*rehashing_group(mutate)))
        with compiled.forced(False):
            assert exactly(uniform.assign(*rehashing_group(mutate))) == reference
        answer = native(*rehashing_group(mutate))
        assert (answer is None) == mutate
        if answer is not None:
            assert exactly(answer) == reference
    finally:
        Rehashing.victims = []
