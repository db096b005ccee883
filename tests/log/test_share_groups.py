"""Share groups rebuilt from `__consumer_offsets` types 10-15: records written with groupctl's segment
writer in the order Kafka writes them, and the real share group of a Kafka 4.1.0 broker (v41-share,
which ends Empty at group epoch 3)."""

from __future__ import annotations

import pytest

from groupctl.dumps import describe_dump_groups, replay_dumps
from groupctl.log.decode import open_inputs
from groupctl.log.replay import Replay
from groupctl.model import Member, ShareOffset, TopicPartition
from groupctl.share_groups import describe_share_group
from tests.conftest import KAFKA_41_SHARE
from tests.log.test_replay import TOPIC_B64, TOPIC_ID, Log, record

SHARE_TOPIC = {"topicId": TOPIC_ID, "topicName": "orders", "partitions": [0, 1]}


def member(mid: str = "m1", group: str = "sg") -> dict:
    return {"groupId": group, "memberId": mid}


def join(group: str = "sg", mid: str = "m1", epoch: int = 1) -> list:
    """What the coordinator writes when a share member joins: its metadata, the epochs, its target and
    current assignment, and the share-partitions to initialise."""
    assigned = [{"topicId": TOPIC_ID, "partitions": [0, 1]}]
    return [
        record(10, member(mid, group), 0, {"rackId": "r1", "clientId": "c1", "clientHost": "/10.0.0.1",
                                           "subscribedTopicNames": ["orders"]}),
        record(11, {"groupId": group}, 0, {"epoch": epoch, "metadataHash": 42}),
        record(13, member(mid, group), 0, {"topicPartitions": assigned}),
        record(12, {"groupId": group}, 0, {"assignmentEpoch": epoch}),
        record(14, member(mid, group), 0, {"memberEpoch": epoch, "previousMemberEpoch": epoch - 1, "state": 0,
                                           "assignedPartitions": assigned}),
        record(15, {"groupId": group}, 0, {"initializingTopics": [], "initializedTopics": [SHARE_TOPIC],
                                           "deletingTopics": []}),
    ]


def leave(group: str = "sg", mid: str = "m1", epoch: int = 2) -> list:
    return [record(14, member(mid, group)), record(13, member(mid, group)), record(10, member(mid, group)),
            record(11, {"groupId": group}, 0, {"epoch": epoch, "metadataHash": 0})]


def test_a_member_joins_the_group_is_stable_with_its_assignment():
    replay = Log().add(*join()).replay()
    state = replay.share["sg"]
    assert state.state() == "Stable" and state.epoch == 1 and state.assignment_epoch == 1
    assert state.metadata_hash == 42 and replay.group_ids() == ["sg"]
    assert replay.topic_names == {TOPIC_ID: "orders"}
    desc = describe_share_group("sg", state)
    assert (desc.type, desc.state, desc.protocol_type, desc.assignor) == ("share", "Stable", "share", "simple")
    assert desc.members == [Member(
        member_id="m1", instance_id=None, client_id="c1", host="/10.0.0.1", protocol="share", member_epoch=1,
        previous_member_epoch=0, member_state="STABLE",
        assignment=[TopicPartition("orders", 0), TopicPartition("orders", 1)],
        target_assignment=[TopicPartition("orders", 0), TopicPartition("orders", 1)],
        subscribed_topics=["orders"], rack="r1")]
    assert desc.share_offsets == [ShareOffset("orders", 0, None), ShareOffset("orders", 1, None)]
    assert desc.converged and desc.offsets == []


def test_the_member_leaves_and_the_group_is_empty_at_the_next_epoch():
    state = Log().add(*join()).add(*leave()).replay().share["sg"]
    assert state.state() == "Empty" and state.epoch == 2 and state.assignment_epoch == 1
    assert state.members == {} and state.current == {} and state.targets == {}


def test_a_current_assignment_tombstone_leaves_the_member_at_epoch_minus_one():
    state = Log().add(*join()).add(record(14, member())).replay().share["sg"]
    cur = state.current["m1"]
    assert (cur.member_epoch, cur.previous_member_epoch, cur.assigned_partitions) == (-1, -1, [])
    assert state.state() == "Stable"


def test_tombstones_delete_the_group_and_clear_its_records():
    log = Log().add(*join()).add(*leave())
    log.add(record(12, {"groupId": "sg"}), record(15, {"groupId": "sg"}))
    state = log.replay().share["sg"]
    assert state.assignment_epoch == -1 and state.partition_state is None
    replay = log.add(record(11, {"groupId": "sg"})).replay()
    assert "sg" not in replay.share and replay.group_ids() == [] and not replay.exists("sg")
    # a tombstone of a group that is not there changes nothing
    untouched = Log().add(record(13, member("m", "none")), record(14, member("m", "none"))).replay()
    assert untouched.share == {} and untouched.group_ids() == [] and untouched.skipped_types == {}


def test_topic_names_come_from_the_dump_else_the_given_ones_else_the_id():
    assigned = [{"topicId": TOPIC_ID, "partitions": [3]}]
    replay = Log().add(record(14, member(), 0, {"memberEpoch": 1, "previousMemberEpoch": 0, "state": 0,
                                                "assignedPartitions": assigned})).replay()
    state = replay.share["sg"]
    assert state.member_ids() == ["m1"] and state.state() == "Stable"
    assert describe_share_group("sg", state).members[0].assignment == [TopicPartition(TOPIC_B64, 3)]
    named = describe_share_group("sg", state, topic_names={TOPIC_B64: "given"})
    assert named.members[0].assignment == [TopicPartition("given", 3)]


def test_one_group_per_id_share_records_of_a_consumer_group_are_refused():
    consumer = record(3, {"groupId": "g"}, 0, {"epoch": 4})
    replay = Log().add(consumer, *join(group="g")).replay()
    assert "g" in replay.consumer and "g" not in replay.share
    assert replay.skipped_types == {10: 1, 11: 1, 13: 1, 12: 1, 14: 1, 15: 1}
    replay = Log().add(*join(group="g"), consumer).replay()
    assert "g" in replay.share and "g" not in replay.consumer and replay.skipped_types == {3: 1}


def test_a_classic_group_record_replaces_the_share_group():
    from tests.log.test_replay import MEMBERS, TS, classic_group

    replay = Log().add(*join(group="g")).add(classic_group("g", 3, MEMBERS, ["orders"], TS)).replay()
    assert "g" not in replay.share and "g" in replay.classic


def test_replays_in_parts_absorb_into_the_same_state():
    whole = Log().add(*join("a")).add(*join("b")).replay()
    first, second = Log().add(*join("a")).replay(), Log().add(*join("b")).replay()
    first.absorb(second)
    assert first.share == whole.share


@pytest.fixture
def v41_share():
    if not KAFKA_41_SHARE.exists():
        pytest.skip(f"real broker segments not present at ../shared/kafka-4.1-broker-vectors ({KAFKA_41_SHARE})")
    return KAFKA_41_SHARE


def test_the_real_share_group_ends_empty_at_epoch_3(v41_share):
    """Kafka 4.1.0's own dump of this segment: the member left (tombstones of 14, 13, 10 at offsets 11-13)
    and the group epoch went to 3 (offset 14), the target assignment epoch staying 2."""
    replayed = replay_dumps(open_inputs([v41_share]))
    found = describe_dump_groups(replayed)
    (desc,) = found.descriptions
    assert (desc.group_id, desc.type, desc.state, desc.group_epoch, desc.assignment_epoch) == (
        "v41-share", "share", "Empty", 3, 2)
    assert desc.members == [] and desc.coordinator == "__consumer_offsets-41"
    assert desc.hashed_coordinator == "__consumer_offsets-41" and found.strays == []
    assert desc.share_offsets == [ShareOffset("t-share", 0, None), ShareOffset("t-share", 1, None)]


def test_the_real_share_group_while_its_member_was_there(v41_share):
    """Up to offset 10, as kafka-share-groups.sh --describe --members showed it live: one member of
    console-share-consumer on /127.0.0.1 holding t-share:0,1, the group Stable."""
    replay = Replay()
    for dump in open_inputs([v41_share]):
        for _, recs in dump.batches:
            replay.apply_all(r for r in recs if r.record.offset <= 10)
    desc = describe_share_group("v41-share", replay.share["v41-share"])
    assert desc.state == "Stable" and desc.group_epoch == 2 and desc.assignment_epoch == 2
    (m,) = desc.members
    assert (m.member_id, m.client_id, m.host, m.member_epoch, m.previous_member_epoch) == (
        "jt6U7cajR4mShr1HaKhukQ", "console-share-consumer", "/127.0.0.1", 2, 1)
    assert m.assignment == m.target_assignment == [TopicPartition("t-share", 0), TopicPartition("t-share", 1)]
    assert m.subscribed_topics == ["t-share"] and m.rack is None
