"""The share groups' simple assignor: every assignable partition shared by ceil(members / partitions)
members, member counts balanced within one, stickiness after balance, subscriptions respected."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from groupctl.coordinator.assignors import simple
from groupctl.coordinator.assignors.common import MemberSpec

T1, T2 = uuid.UUID(int=11), uuid.UUID(int=22)


def spec(*topics: uuid.UUID, assigned: dict[uuid.UUID, frozenset[int]] | None = None) -> MemberSpec:
    return MemberSpec(None, None, frozenset(topics), assigned or {})


def holders(result: dict[str, dict[uuid.UUID, frozenset[int]]]) -> dict[tuple[uuid.UUID, int], set[str]]:
    out: dict[tuple[uuid.UUID, int], set[str]] = {}
    for member, assignment in result.items():
        for topic, parts in assignment.items():
            for p in parts:
                out.setdefault((topic, p), set()).add(member)
    return out


def test_nothing_assignable_gives_every_member_nothing() -> None:
    assert simple.assign({"a": spec(T1)}, {}) == {"a": {}}
    assert simple.assign({}, {T1: frozenset({0})}) == {}


def test_more_members_than_partitions_share_each_partition() -> None:
    result = simple.assign({m: spec(T1) for m in "abcde"}, {T1: frozenset({0, 1})})
    shared = holders(result)
    assert sorted(len(ms) for ms in shared.values()) == [3, 3]  # ceil(5 / 2) members per partition
    assert all(len(a.get(T1, ())) >= 1 for a in result.values())


def test_a_member_keeps_what_it_had_when_the_balance_allows() -> None:
    result = simple.assign({"a": spec(T1, assigned={T1: frozenset({2, 3})}), "b": spec(T1)},
                           {T1: frozenset(range(4))})
    assert result == {"a": {T1: frozenset({2, 3})}, "b": {T1: frozenset({0, 1})}}


def test_only_subscribed_and_initialized_partitions_are_handed_out() -> None:
    result = simple.assign({"a": spec(T1), "b": spec(T2)}, {T1: frozenset({0, 1}), T2: frozenset({0})})
    assert result == {"a": {T1: frozenset({0, 1})}, "b": {T2: frozenset({0})}}
    assert simple.assign({"a": spec(T1, T2)}, {T1: frozenset({1})}) == {"a": {T1: frozenset({1})}}


@given(members=st.integers(1, 8), partitions=st.integers(1, 8), seed=st.integers(0, 3))
def test_homogeneous_groups_are_balanced(members: int, partitions: int, seed: int) -> None:
    before = {f"m{i}": spec(T1, assigned={T1: frozenset(p for p in range(partitions) if (p + i + seed) % 3 == 0)})
              for i in range(members)}
    result = simple.assign(before, {T1: frozenset(range(partitions))})
    sharing = -(-members // partitions)
    # Each partition reaches the desired sharing unless the only members short of their count already hold
    # it (Kafka's builder tolerates that too); none goes past it, and none is left out.
    assert all(1 <= len(ms) <= sharing for ms in holders(result).values())
    assert len(holders(result)) == partitions
    if members <= partitions:
        assert all(len(ms) == 1 for ms in holders(result).values())
    counts = [len(a.get(T1, ())) for a in result.values()]
    assert max(counts) - min(counts) <= 1
