"""model.py: what a description says about a group beyond its fields (online migration)."""

from __future__ import annotations

import pytest

from groupctl.model import GroupDescription, Member


def _members(*protocols: str) -> list[Member]:
    return [Member(f"m-{n}", None, f"c-{n}", "/h", protocol) for n, protocol in enumerate(protocols)]


@pytest.mark.parametrize(("group_type", "protocols", "counts", "mixed", "migration"), [
    ("consumer", ("classic", "classic", "consumer"), (2, 1), True, "upgrading"),
    ("consumer", ("classic", "classic", "classic"), (3, 0), True, "downgrading"),
    ("consumer", ("consumer", "consumer"), (0, 2), False, None),
    ("consumer", (), (0, 0), False, None),
    ("classic", ("classic", "classic"), (2, 0), False, None),
    ("classic", (), (0, 0), False, None),
])
def test_mixed_and_migration_follow_who_is_in_the_group(group_type, protocols, counts, mixed, migration):
    desc = GroupDescription("g", group_type, "Stable", members=_members(*protocols))
    assert (desc.classic_members, desc.consumer_members) == counts
    assert desc.mixed is mixed
    assert desc.migration == migration


def test_upgraded_is_kafkas_column_for_consumer_groups_only():
    consumer = GroupDescription("g", "consumer", "Stable", members=_members("classic", "consumer"))
    assert [consumer.upgraded(m) for m in consumer.members] == [False, True]
    classic = GroupDescription("g", "classic", "Stable", members=_members("classic"))
    assert classic.upgraded(classic.members[0]) is None
