"""model.py: what a description says about a group beyond its fields (online migration), and Kafka's rule
for a group.instance.id."""

from __future__ import annotations

import pytest

from groupctl.model import INSTANCE_ID_PATTERN, GroupDescription, Member, empty_group_epochs, is_instance_id


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


@pytest.mark.parametrize(("group_epoch", "assignment_epoch", "verdict", "converged"), [
    (5, 5, "equal", True),
    (7, 6, "behind", True),  # a broker without KAFKA-20442's fix, after its last member was fenced
    (3, -1, "behind", True),  # the target assignment epoch tombstoned
    (4, 9, "ahead", False),  # a target the group never reached: a joining member gets nothing new
])
def test_an_empty_consumer_group_converged_by_its_epochs(group_epoch, assignment_epoch, verdict, converged):
    """The one rule `describe` (CONVERGED) and the audit (empty-group-epoch-mismatch) both apply."""
    assert empty_group_epochs(group_epoch, assignment_epoch) == verdict
    desc = GroupDescription("g", "consumer", "Empty", group_epoch=group_epoch, assignment_epoch=assignment_epoch)
    assert desc.converged is converged
    # With members the state already says it: Assigning when the group epoch is ahead, and so on.
    assert GroupDescription("g", "consumer", "Assigning", group_epoch=9, assignment_epoch=8).converged is False
    assert GroupDescription("g", "classic", "Empty", group_epoch=3).converged is True


@pytest.mark.parametrize("text", ["pod-1", "a.b_c-D9", "...", "x" * 249, "0"])
def test_an_instance_id_is_1_to_249_of_kafka_s_characters(text) -> None:
    assert is_instance_id(text)


@pytest.mark.parametrize("text", ["", ".", "..", "x" * 250, "pod 1", "pöd", "a/b", "a#b", "pod-1\n"])
def test_anything_else_is_not_an_instance_id(text) -> None:
    assert not is_instance_id(text)


def test_the_pattern_alone_is_the_characters_and_length_without_the_dot_names() -> None:
    assert INSTANCE_ID_PATTERN.fullmatch("..") and not INSTANCE_ID_PATTERN.fullmatch("x" * 250)
