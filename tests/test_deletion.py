"""The deletion library's parts that need no cluster: the --topic form, members named for an operator,
and what counts as failed."""

from __future__ import annotations

import pytest

from groupctl.deletion import NO_OFFSET, failed, member_names, non_empty_message, parse_topic_partitions
from groupctl.errors import UsageError
from groupctl.model import DELETED, GroupDeletion, GroupDescription, Member, OffsetDeletion


def test_topics_and_partitions_merge_and_a_bare_topic_wins() -> None:
    assert parse_topic_partitions(["a:1,0", "b", "a:2,1", "c:3", "c", "d:0, 4"]) == [
        ("a", [1, 0, 2]), ("b", None), ("c", None), ("d", [0, 4])]


@pytest.mark.parametrize(("value", "message"), [
    ("a:x", "partitions must be numbers, as in a:0,1,2"),
    ("a:-1", "non-negative"),
    ("a:", "non-negative"),
    (":0", "no topic name"),
])
def test_bad_topic_values_name_themselves(value: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        parse_topic_partitions([value])
    assert f"--topic '{value}'" in str(raised.value)


def test_members_are_named_by_instance_id_or_member_id_with_client() -> None:
    desc = GroupDescription("g", "classic", "Stable", members=[
        Member("m-1", "pod-0", "app", "/10.0.0.1", "classic"),
        Member("m-2", None, "app", "/10.0.0.2", "classic"),
    ])
    assert member_names(desc) == ["pod-0", "m-2 (app@/10.0.0.2)"]
    assert non_empty_message(desc).startswith("group 'g' is Stable, 2 members still in it: pod-0, m-2 (app@")


def test_only_what_kept_its_offset_or_group_failed() -> None:
    results = [GroupDeletion("a", DELETED), GroupDeletion("b", "NON_EMPTY_GROUP"),
               OffsetDeletion("g", "t", 0, NO_OFFSET), OffsetDeletion("g", "t", 1, "GROUP_SUBSCRIBED_TO_TOPIC")]
    assert [r.outcome for r in failed(results)] == ["NON_EMPTY_GROUP", "GROUP_SUBSCRIBED_TO_TOPIC"]
