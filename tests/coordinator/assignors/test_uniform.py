"""The uniform assignor's grouping of members by subscription, as callers may hand subscriptions over."""

from __future__ import annotations

import uuid

import pytest

from groupctl.coordinator.assignors import MemberSpec, UniformAssignor, compiled
from tests.coordinator.assignors.test_compiled import exactly
from tests.coordinator.conftest import COMPILED_BUILDERS_ONLY

pytestmark = pytest.mark.usefixtures("homogeneous_builder")  # each test on both homogeneous builders

FOO, BAR, BAZ = uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)
TOPICS = {FOO: 4, BAR: 3}


@pytest.mark.parametrize("kind", [set, list, tuple, frozenset])
def test_a_subscription_of_any_collection_type_counts_as_its_topics(kind):
    """A set (unhashable), a list or a tuple subscribes to the same topics as the frozenset of them."""
    as_frozensets = {"a": frozenset({FOO}), "b": frozenset({FOO, BAR}), "c": frozenset({BAR})}
    expected = UniformAssignor().assign({m: MemberSpec(None, None, s) for m, s in as_frozensets.items()}, TOPICS)
    given = {m: MemberSpec(None, None, kind(sorted(s))) for m, s in as_frozensets.items()}  # type: ignore[arg-type]
    assert UniformAssignor().assign(given, TOPICS) == expected
    alike = {m: MemberSpec(None, None, kind([FOO, BAR])) for m in "abc"}  # type: ignore[arg-type]
    assert UniformAssignor().assign(alike, TOPICS) == UniformAssignor().assign(
        {m: MemberSpec(None, None, frozenset({FOO, BAR})) for m in "abc"}, TOPICS
    )


@COMPILED_BUILDERS_ONLY
def test_a_group_of_one_subscription_object_is_assigned_in_one_compiled_call(compiled_calls):
    """The usual group, every member holding the same subscription object, its current assignments plain (a
    member left, one joined): `alike` assigns it whole in C, and its answer is the reference's result."""
    subscribed = frozenset({FOO, BAR})
    before = UniformAssignor().assign({m: MemberSpec(None, None, subscribed) for m in "abcd"}, TOPICS)
    members = {m: MemberSpec(None, None, subscribed, before.get(m, {})) for m in "bcde"}
    with compiled.forced(True):
        reference = UniformAssignor().assign(members, TOPICS)
    calls = compiled_calls(compiled.built(), "alike")
    got = UniformAssignor().assign(members, TOPICS)
    assert exactly(got) == exactly(reference)
    assert [call.answer for call in calls["alike"]] == [got], "alike did not assign the group"
    assert calls["alike"][0].answer is got


@COMPILED_BUILDERS_ONLY
@pytest.mark.parametrize("step", ["keep", "deal", "balance"])
def test_each_heterogeneous_step_runs_in_c(compiled_calls, step):
    """Subscriptions that differ and share BAZ, which grew from 4 to 8 partitions: the current assignments are
    kept (`keep`), the free partitions dealt (`deal`) and BAZ balanced between its two subscribers (`balance`),
    each step once in C, with the reference's result."""
    members = {
        "m0": MemberSpec(None, None, frozenset({BAR, BAZ}), {BAZ: frozenset({0, 1}), BAR: frozenset({0})}),
        "m1": MemberSpec(None, None, frozenset({FOO, BAZ}), {BAZ: frozenset({2, 3})}),
    }
    topics = {FOO: 2, BAR: 1, BAZ: 8}
    with compiled.forced(True):
        reference = UniformAssignor().assign(members, topics)
    calls = compiled_calls(compiled.built(), step)
    got = UniformAssignor().assign(members, topics)
    assert exactly(got) == exactly(reference)
    assert [call.answer is not None for call in calls[step]] == [True], f"{step} did not run in C"
