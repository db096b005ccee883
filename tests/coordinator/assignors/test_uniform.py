"""The uniform assignor's grouping of members by subscription, as callers may hand subscriptions over."""

from __future__ import annotations

import uuid

import pytest

from groupctl.coordinator.assignors import MemberSpec, UniformAssignor

pytestmark = pytest.mark.usefixtures("homogeneous_builder")  # each test on both homogeneous builders

FOO, BAR = uuid.UUID(int=1), uuid.UUID(int=2)
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
