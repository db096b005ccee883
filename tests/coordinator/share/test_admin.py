"""The share groups' admin requests in the coordinator: ShareGroupDescribe, the share offsets requests and
DeleteGroups, with Kafka 4.1's refusals (../shared/kafka-4.1-wire/s2-share-groups.md)."""

from __future__ import annotations

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.offsets import CommitPartition
from groupctl.coordinator.state import CoordinatorState
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.protocol.data.share_groups import ShareGroupDescribeRequestData, ShareGroupHeartbeatRequestData
from groupctl.protocol.primitives import uuid_from_kafka

GROUP, MEMBER, TOPIC, TOPIC_ID = "s-share", "VhuYUGYkTJqcbal8P6LKYg", "t-share", "LftUdk_7SiKGlBbtuqdMXw"


def lab() -> Coordinator:
    coord = Coordinator(ids=IdGenerator(7))
    coord.create_topic(TOPIC, 1, uuid_from_kafka(TOPIC_ID))
    coord.create_topic("other", 2)
    return coord


def hb(epoch: int, topics: list[str] | None = None, group: str = GROUP) -> ShareGroupHeartbeatRequestData:
    return ShareGroupHeartbeatRequestData(group_id=group, member_id=MEMBER, member_epoch=epoch,
                                          subscribed_topic_names=topics)


def stable(coord: Coordinator) -> None:
    assert coord.share_heartbeat(hb(0, [TOPIC])).member_epoch == 1
    assert coord.share_heartbeat(hb(1)).member_epoch == 2


def replayed_equals_live(coord: Coordinator) -> None:
    replayed = CoordinatorState()
    for record in coord.runtime.log.read():
        replayed.apply(record)
    assert replayed == coord.runtime.state


def test_describe_a_stable_group_as_the_broker_did() -> None:
    coord = lab()
    stable(coord)
    [group] = coord.share_group_describe(ShareGroupDescribeRequestData(group_ids=[GROUP])).groups
    assert (group.error_code, group.group_id, group.group_state, group.group_epoch, group.assignment_epoch,
            group.assignor_name) == (0, GROUP, "Stable", 2, 2, "simple")
    [member] = group.members
    assert (member.member_id, member.member_epoch, member.subscribed_topic_names, member.client_id) == (
        MEMBER, 2, [TOPIC], "groupctl")
    assert [(t.topic_id, t.topic_name, t.partitions) for t in member.assignment.topic_partitions] == [
        (uuid_from_kafka(TOPIC_ID), TOPIC, [0])]
    described = coord.describe(GROUP)
    assert (described.type, described.state, described.assignor) == ("share", "Stable", "simple")
    assert [(o.topic, o.partition, o.start_offset) for o in described.share_offsets] == [(TOPIC, 0, None)]


def test_describe_refuses_other_types_and_unknown_ids() -> None:
    coord = lab()
    coord.commit_offsets("g-classic", "", -1, [CommitPartition(TOPIC, 0, 1)])
    answer = coord.share_group_describe(ShareGroupDescribeRequestData(group_ids=["g-classic", "no-such-group"]))
    assert [(g.error_code, g.error_message, g.group_id) for g in answer.groups] == [
        (69, "Group g-classic is not a share group.", "g-classic"), (69, "Group no-such-group not found.",
                                                                       "no-such-group")]


def test_offsets_requests_are_refused_while_members_are_active() -> None:
    coord = lab()
    stable(coord)
    for call in (lambda: coord.delete_share_offsets(GROUP, [TOPIC]),
                 lambda: coord.alter_share_offsets(GROUP, {(TOPIC, 0): 0})):
        with pytest.raises(KafkaError) as refused:
            call()
        assert (refused.value.name, refused.value.message) == ("NON_EMPTY_GROUP", "The group is not empty.")
    [(_, error)] = coord.delete_groups([GROUP])
    assert error is not None and (error.name, error.message) == ("NON_EMPTY_GROUP", "The group is not empty.")


def test_alter_then_delete_offsets_of_an_empty_group() -> None:
    coord = lab()
    stable(coord)
    coord.share_heartbeat(hb(-1))
    answers = coord.alter_share_offsets(GROUP, {(TOPIC, 0): 3, ("gone", 0): 1, (TOPIC, 5): 1})
    assert {tp: (e.name if e else None) for tp, e in answers.items()} == {
        (TOPIC, 0): None, ("gone", 0): "UNKNOWN_TOPIC_OR_PARTITION", (TOPIC, 5): "UNKNOWN_TOPIC_OR_PARTITION"}
    assert [(o.topic, o.partition, o.start_offset) for o in coord.share_offsets(GROUP)] == [(TOPIC, 0, 3)]
    deleted = coord.delete_share_offsets(GROUP, [TOPIC, "gone"])
    assert [(n, t, e.name if e else None) for n, t, e in deleted] == [
        (TOPIC, uuid_from_kafka(TOPIC_ID), None), ("gone", None, "UNKNOWN_TOPIC_OR_PARTITION")]
    assert coord.share_offsets(GROUP) == []
    info = coord.runtime.state.share_partitions[GROUP]
    assert (info.initialized, info.initializing, info.deleting) == ({}, {}, {})
    replayed_equals_live(coord)


def test_alter_initializes_a_partition_the_group_never_had() -> None:
    coord = lab()
    coord.share_heartbeat(hb(0, [TOPIC]))
    coord.share_heartbeat(hb(-1))
    coord.alter_share_offsets(GROUP, {("other", 1): 7})
    assert [(o.topic, o.partition, o.start_offset) for o in coord.share_offsets(GROUP)] == [
        ("other", 1, 7), (TOPIC, 0, None)]
    replayed_equals_live(coord)


def test_delete_an_empty_share_group() -> None:
    coord = lab()
    stable(coord)
    coord.share_heartbeat(hb(-1))
    assert coord.delete_groups([GROUP]) == [(GROUP, None)]
    assert GROUP not in coord.runtime.state.share
    assert GROUP not in coord.runtime.state.share_partitions
    assert coord.runtime.share_starts.partitions == {}
    assert coord.group_listings() == []
    with pytest.raises(KafkaError) as gone:
        coord.share_offsets(GROUP)
    assert gone.value.code == KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"]
    replayed_equals_live(coord)
    # the id is free again, for any type
    assert coord.share_heartbeat(hb(0, [TOPIC])).member_epoch == 1
