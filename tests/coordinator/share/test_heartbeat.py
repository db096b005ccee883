"""ShareGroupHeartbeat in the in-process coordinator: the records a Kafka 4.1.0 broker wrote for the same
join, heartbeat and leave (../shared/kafka-4.1-broker-vectors/__consumer_offsets-41), the refusals, the
session expiry, and replay(log) == live state after every step."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.coordinator.state import CoordinatorState
from groupctl.log.decode import DecodedRecord, decode_record
from groupctl.log.segment import iter_batches
from groupctl.protocol.data.group_admin import ListGroupsRequestData
from groupctl.protocol.data.share_groups import ShareGroupHeartbeatRequestData
from groupctl.protocol.primitives import uuid_from_kafka
from tests.heartbeats import hb

SEGMENT = (Path(__file__).resolve().parents[3].parent / "shared" / "kafka-4.1-broker-vectors"
           / "__consumer_offsets-41" / "00000000000000000000.log")
#: The group, member, client and topic of the broker's run (its .offsets-decoder.txt).
GROUP, MEMBER, TOPIC, TOPIC_ID = "v41-share", "jt6U7cajR4mShr1HaKhukQ", "t-share", "eCfmGPWdRsWeQIN5QzVLhA"
CALLER = Caller(client_id="console-share-consumer", client_host="/127.0.0.1")


def share_hb(member_epoch: int, topics: list[str] | None = None, *, group: str = GROUP,
             member: str = MEMBER) -> ShareGroupHeartbeatRequestData:
    return ShareGroupHeartbeatRequestData(group_id=group, member_id=member, member_epoch=member_epoch,
                                          subscribed_topic_names=topics)


def lab(partitions: int = 2) -> Coordinator:
    coord = Coordinator(ids=IdGenerator(5))
    coord.create_topic(TOPIC, partitions, uuid_from_kafka(TOPIC_ID))
    return coord


def comparable(records: list[DecodedRecord]) -> list[tuple[int, dict, dict | None]]:
    """(type, key, value) of each record; the metadata hash is groupctl's own digest, not Kafka's."""
    out = []
    for rec in records:
        value = None if rec.value is None else dict(rec.value.data)
        if value is not None and rec.key.type == 11:
            value["metadataHash"] = value["metadataHash"] != 0
        out.append((rec.key.type, rec.key.data, value))
    return out


def broker_records() -> list[DecodedRecord]:
    if not SEGMENT.is_file():
        pytest.skip(f"the Kafka 4.1 broker vectors are not present at ../shared/kafka-4.1-broker-vectors ({SEGMENT})")
    data = SEGMENT.read_bytes()
    return [decode_record(b, r) for b in iter_batches(data, path=str(SEGMENT), strict=True) for r in b.records]


def written(coord: Coordinator) -> list[DecodedRecord]:
    return list(coord.runtime.log.read())


def batches(coord: Coordinator) -> list[int]:
    """How many records each batch of the coordinator's log holds."""
    return [len(b.records) for b in iter_batches(coord.runtime.log.segment_bytes(), path="log", strict=True)]


def replayed_equals_live(coord: Coordinator) -> None:
    replayed = CoordinatorState()
    for record in coord.runtime.log.read():
        replayed.apply(record)
    assert replayed == coord.runtime.state
    assert replayed.share == coord.runtime.state.share


def test_join_heartbeat_leave_write_what_kafka_41_wrote() -> None:
    coord = lab()
    joined = coord.share_heartbeat(share_hb(0, [TOPIC]), CALLER)
    assert (joined.error_code, joined.member_id, joined.member_epoch, joined.heartbeat_interval_ms) == (
        0, MEMBER, 1, 5000)
    assert joined.assignment is not None and joined.assignment.topic_partitions == []
    replayed_equals_live(coord)
    coord.advance(5000)
    again = coord.share_heartbeat(share_hb(1), CALLER)
    assert again.member_epoch == 2
    assert [(tp.topic_id, tp.partitions) for tp in again.assignment.topic_partitions] == [
        (uuid_from_kafka(TOPIC_ID), [0, 1])]
    replayed_equals_live(coord)
    steady = coord.share_heartbeat(share_hb(2), CALLER)
    assert (steady.member_epoch, steady.assignment) == (2, None)
    left = coord.share_heartbeat(share_hb(-1), CALLER)
    assert (left.error_code, left.member_id, left.member_epoch) == (0, MEMBER, -1)
    replayed_equals_live(coord)
    assert comparable(written(coord)) == comparable(broker_records())
    assert batches(coord) == [6, 1, 4, 4]
    ours, theirs = written(coord), broker_records()
    assert [(r.key.type, r.record.value) for r in ours if r.key.type != 11] == [
        (r.key.type, r.record.value) for r in theirs if r.key.type != 11]


def test_list_groups_shows_share_groups_by_type_and_state() -> None:
    coord = lab()
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    coord.share_heartbeat(share_hb(0, [TOPIC], group="idle"))
    coord.share_heartbeat(share_hb(-1, group="idle"))
    listed = coord.list_groups(ListGroupsRequestData(types_filter=["Share"]))
    assert [(g.group_id, g.protocol_type, g.group_state, g.group_type) for g in listed.groups] == [
        ("idle", "share", "Empty", "share"), (GROUP, "share", "Stable", "share")]
    assert coord.list_groups(ListGroupsRequestData(types_filter=["consumer"])).groups == []
    stable = coord.list_groups(ListGroupsRequestData(states_filter=["Stable"]))
    assert [g.group_id for g in stable.groups] == [GROUP]


def test_a_partition_is_shared_when_members_outnumber_partitions() -> None:
    coord = lab(partitions=1)
    for member in ("a", "b", "c"):
        assert coord.share_heartbeat(share_hb(0, [TOPIC], member=member)).error_code == 0
    answers = {m: coord.share_heartbeat(share_hb(coord.runtime.state.share[GROUP].current[m].member_epoch,
                                                 member=m)) for m in ("a", "b", "c")}
    group = coord.runtime.state.share[GROUP]
    for member in ("a", "b", "c"):
        assert answers[member].error_code == 0
        assert group.target_of(member) == {uuid_from_kafka(TOPIC_ID): frozenset({0})}
    replayed_equals_live(coord)


def test_members_split_the_partitions_when_there_are_enough() -> None:
    coord = lab(partitions=4)
    for member in ("a", "b"):
        coord.share_heartbeat(share_hb(0, [TOPIC], member=member))
    coord.share_heartbeat(share_hb(coord.runtime.state.share[GROUP].current["a"].member_epoch, member="a"))
    group = coord.runtime.state.share[GROUP]
    held = [group.target_of(m).get(uuid_from_kafka(TOPIC_ID), frozenset()) for m in ("a", "b")]
    assert sorted(map(len, held)) == [2, 2] and held[0] | held[1] == {0, 1, 2, 3}


def test_the_session_expires_on_the_injected_clock() -> None:
    coord = lab()
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    coord.advance(44_999)
    assert coord.runtime.state.share[GROUP].member_ids() == [MEMBER]
    coord.advance(1)
    group = coord.runtime.state.share[GROUP]
    assert (group.member_ids(), group.epoch, group.state()) == ([], 2, "Empty")
    replayed_equals_live(coord)


def test_a_failover_keeps_the_group_and_restarts_the_session() -> None:
    coord = lab()
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    rebuilt = coord.rebuild()
    assert rebuilt.runtime.state.share == coord.runtime.state.share
    assert rebuilt.member_deadlines(GROUP, MEMBER)[0] == 45_000


@pytest.mark.parametrize(("request_", "error", "message"), [
    (share_hb(0, [TOPIC], member=""), "INVALID_REQUEST", "MemberId can't be empty."),
    (share_hb(0, [TOPIC], group=""), "INVALID_REQUEST", "GroupId can't be empty."),
    (share_hb(0, []), "INVALID_REQUEST", "SubscribedTopicNames must be set in first request."),
    (share_hb(0, None), "INVALID_REQUEST", "SubscribedTopicNames must be set in first request."),
    (share_hb(-2), "INVALID_REQUEST", "MemberEpoch is invalid."),
    (share_hb(1), "GROUP_ID_NOT_FOUND", f"Group {GROUP} not found."),
])
def test_refusals(request_: ShareGroupHeartbeatRequestData, error: str, message: str) -> None:
    from groupctl.errors import KAFKA_ERROR_CODES

    coord = lab()
    answer = coord.share_heartbeat(request_)
    assert (answer.error_code, answer.error_message) == (KAFKA_ERROR_CODES[error], message)
    assert written(coord) == []


def test_epochs_and_members_are_checked() -> None:
    from groupctl.errors import KAFKA_ERROR_CODES

    coord = lab()
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    unknown = coord.share_heartbeat(share_hb(1, member="other"))
    assert (unknown.error_code, unknown.error_message) == (
        KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"], f"Member other is not a member of group {GROUP}.")
    fenced = coord.share_heartbeat(share_hb(5))
    assert fenced.error_code == KAFKA_ERROR_CODES["FENCED_MEMBER_EPOCH"]
    assert "greater member epoch (5)" in fenced.error_message


def test_a_share_group_and_another_group_of_the_same_id_never_coexist() -> None:
    from groupctl.errors import KAFKA_ERROR_CODES

    coord = lab()
    coord.heartbeat(hb("consumer-g", "m", 0, rebalance_timeout_ms=30_000, subscribed_topic_names=[TOPIC],
                       topic_partitions=[]))
    refused = coord.share_heartbeat(share_hb(0, [TOPIC], group="consumer-g"))
    assert (refused.error_code, refused.error_message) == (
        KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"], "Group consumer-g is not a share group.")
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    other = coord.heartbeat(hb(GROUP, "m", 0, rebalance_timeout_ms=30_000, subscribed_topic_names=[TOPIC],
                               topic_partitions=[]))
    assert (other.error_code, other.error_message) == (
        KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"], f"Group {GROUP} is not a consumer group.")
    assert GROUP in coord.runtime.state.share


def test_classic_requests_for_a_share_group_id_are_refused() -> None:
    from groupctl.errors import KAFKA_ERROR_CODES
    from groupctl.protocol.data.group_admin import DescribeGroupsRequestData
    from tests.classic_requests import join_req

    coord = lab()
    coord.share_heartbeat(share_hb(0, [TOPIC]))
    answers = []
    coord.join_group(join_req(GROUP, 45_000, 30_000, protocols=[("range", b"")]), answers.append)
    assert [a.error_code for a in answers] == [KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"]]
    [v5] = coord.describe_groups(DescribeGroupsRequestData(groups=[GROUP]), Caller(api_version=5)).groups
    [v6] = coord.describe_groups(DescribeGroupsRequestData(groups=[GROUP]), Caller(api_version=6)).groups
    assert (v5.group_state, v5.error_code) == ("Dead", 0)
    assert (v6.group_state, v6.error_code, v6.error_message) == (
        "Dead", KAFKA_ERROR_CODES["GROUP_ID_NOT_FOUND"], f"Group {GROUP} is not a classic group.")
    assert GROUP in coord.runtime.state.share and GROUP not in coord.classic.groups
