"""Share groups in the local backend: listed and described like the other types, their start offsets
altered and deleted with Kafka's refusals, and kept in DIR across invocations (share-state.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.backends.local import SHARE_STATE_FILE, LocalBackend
from groupctl.errors import GroupNotFound, KafkaError
from groupctl.model import TopicPartition
from groupctl.protocol.data.share_groups import ShareGroupHeartbeatRequestData


def hb(group: str, member: str, epoch: int, topics: list[str] | None = None) -> ShareGroupHeartbeatRequestData:
    return ShareGroupHeartbeatRequestData(group_id=group, member_id=member, member_epoch=epoch,
                                          subscribed_topic_names=topics)


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    with LocalBackend(tmp_path / "dir", create=True) as b:
        b.create_topic("t", 2, messages=10)
        c = b.coordinator
        c.share_heartbeat(hb("busy", "m1", 0, ["t"]))
        c.share_heartbeat(hb("busy", "m1", 1))
        c.share_heartbeat(hb("idle", "m2", 0, ["t"]))
        c.share_heartbeat(hb("idle", "m2", -1))
    return tmp_path / "dir"


def test_share_groups_are_listed_and_described(directory: Path) -> None:
    with LocalBackend(directory) as b:
        assert [(g.group_id, g.type, g.state, g.protocol_type, g.members) for g in b.list_groups(types=["share"])] == [
            ("busy", "share", "Stable", "share", 1), ("idle", "share", "Empty", "share", 0)]
        [busy] = b.describe_groups(["busy"])
    assert (busy.type, busy.state, busy.group_epoch, busy.assignment_epoch, busy.assignor) == (
        "share", "Stable", 2, 2, "simple")
    [member] = busy.members
    assert (member.member_id, member.protocol, member.member_epoch) == ("m1", "share", 2)
    assert member.assignment == [TopicPartition("t", 0), TopicPartition("t", 1)]
    assert [(o.topic, o.partition, o.start_offset) for o in busy.share_offsets] == [("t", 0, None), ("t", 1, None)]


def test_alter_share_offsets_of_an_empty_group_survives_a_reopen(directory: Path) -> None:
    with LocalBackend(directory) as b:
        answers = b.alter_share_offsets("idle", {TopicPartition("t", 0): 4, TopicPartition("nope", 0): 1})
    assert answers == {TopicPartition("t", 0): None, TopicPartition("nope", 0): "UNKNOWN_TOPIC_OR_PARTITION"}
    assert (directory / SHARE_STATE_FILE).is_file()
    with LocalBackend(directory) as b:
        [idle] = b.describe_groups(["idle"])
    assert [(o.topic, o.partition, o.start_offset) for o in idle.share_offsets] == [("t", 0, 4), ("t", 1, None)]


def test_offsets_of_a_group_with_members_are_refused(directory: Path) -> None:
    with LocalBackend(directory) as b:
        with pytest.raises(KafkaError) as altering:
            b.alter_share_offsets("busy", {TopicPartition("t", 0): 0})
        with pytest.raises(KafkaError) as deleting:
            b.delete_share_offsets("busy", ["t"])
        [refused] = b.delete_groups(["busy"])
    for exc in (altering.value, deleting.value):
        assert exc.name == "NON_EMPTY_GROUP" and "busy" in str(exc) and "The group is not empty." in str(exc)
    assert (refused.group_id, refused.outcome, refused.message) == (
        "busy", "NON_EMPTY_GROUP", "The group is not empty.")


def test_delete_share_offsets_then_the_group(directory: Path) -> None:
    with LocalBackend(directory) as b:
        deleted = b.delete_share_offsets("idle", ["t", "nope"])
        assert [(d.topic, d.partition, d.outcome) for d in deleted] == [
            ("t", -1, "deleted"), ("nope", -1, "UNKNOWN_TOPIC_OR_PARTITION")]
        assert b.describe_groups(["idle"])[0].share_offsets == []
        assert [(g.group_id, g.outcome) for g in b.delete_groups(["idle"])] == [("idle", "deleted")]
    with LocalBackend(directory) as b:
        assert [g.group_id for g in b.list_groups()] == ["busy"]
        with pytest.raises(GroupNotFound):
            b.alter_share_offsets("idle", {TopicPartition("t", 0): 0})


def test_a_share_group_refuses_an_offset_request_for_another_type(directory: Path) -> None:
    with LocalBackend(directory) as b:
        b.alter_offsets("classic", {TopicPartition("t", 0): 1})
        with pytest.raises(KafkaError) as refused:
            b.alter_share_offsets("classic", {TopicPartition("t", 0): 0})
    assert refused.value.name == "GROUP_ID_NOT_FOUND" and "Group classic is not a share group." in str(refused.value)
