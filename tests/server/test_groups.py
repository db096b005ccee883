"""The group APIs over loopback with raw frames: every version of each, and their error paths.

Each test's server has `group.initial.rebalance.delay.ms` at 0 (as Kafka's own test clusters set it),
so a new classic group completes its first rebalance at the next timer tick instead of after 3 s.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from groupctl.describe import from_consumer_group_describe
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.kafka.groups import parse_consumer_group_describe
from groupctl.protocol.consumer_protocol import decode_assignment, encode_assignment, encode_subscription
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupDescribeRequestData,
    ConsumerGroupHeartbeatRequestData,
    TopicPartitions,
)
from groupctl.protocol.data.group_admin import DeleteGroupsRequestData, DescribeGroupsRequestData, ListGroupsRequestData
from groupctl.protocol.data.groups import LeaveGroupRequestData, MemberIdentity
from groupctl.protocol.data.offsets import (
    OffsetCommitRequestData,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
    OffsetCommitResponseData,
    OffsetFetchRequestData,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from groupctl.server.broker import Broker
from groupctl.server.group_admin import GROUP_OPERATIONS
from groupctl.server.server import ServerThread
from tests.mixed_groups import ORACLE_CLASSIC, ORACLE_CONSUMER, add_groups
from tests.server.frames import TIMEOUT_S, Wire, carried
from tests.server.waits import wait_until

TOPIC = "orders"


@pytest.fixture
def quick(served: ServerThread) -> Iterator[ServerThread]:
    served.call(lambda b: setattr(b.coordinator.classic, "initial_delay_ms", 0))
    served.call(lambda b: b.backend.create_topic(TOPIC, 4))
    yield served


@pytest.fixture
def wires(quick: ServerThread) -> Iterator[list[Wire]]:
    opened = [Wire(quick, f"client-{i}") for i in range(3)]
    yield opened
    for wire in opened:
        wire.close()


def joined_static(instance: str, group: str = "g") -> Callable[[Broker], bool]:
    return lambda broker: instance in broker.coordinator.classic.groups[group].static


def subscription() -> bytes:
    return encode_subscription({"topics": [TOPIC], "userData": None}, 0)


def join_body(group: str, member_id: str = "", instance: str | None = None, session_ms: int = 10_000,
              rebalance_ms: int = 10_000) -> dict:
    return {"groupId": group, "sessionTimeoutMs": session_ms, "rebalanceTimeoutMs": rebalance_ms, "memberId": member_id,
            "groupInstanceId": instance, "protocolType": "consumer",
            "protocols": [{"name": "range", "metadata": subscription()}], "reason": None}


def join(wire: Wire, version: int, group: str, instance: str | None = None, member_id: str = "",
         **timeouts: int) -> dict:
    """JoinGroup, again with the given id when v4+ answers MEMBER_ID_REQUIRED for a dynamic member;
    `timeouts` are join_body's session_ms and rebalance_ms."""
    body = wire.call_carried(11, version, join_body(group, member_id, instance, **timeouts))
    if body["errorCode"] == CODE["MEMBER_ID_REQUIRED"]:
        body = wire.call_carried(11, version, join_body(group, body["memberId"], instance, **timeouts))
    return body


def assignment(partitions: list[int]) -> bytes:
    return encode_assignment({"assignedPartitions": [{"topic": TOPIC, "partitions": partitions}], "userData": None}, 0)


def sync_body(group: str, joined: dict, instance: str | None = None, assignments: list | None = None) -> dict:
    return {"groupId": group, "generationId": joined["generationId"], "memberId": joined["memberId"],
            "groupInstanceId": instance, "protocolType": "consumer", "protocolName": "range",
            "assignments": assignments or []}


def stable_static_member(wire: Wire, group: str = "g", instance: str = "pod-a", **timeouts: int) -> dict:
    """One static member joins and, as leader, assigns itself everything; its JoinGroup answer."""
    joined = join(wire, 9, group, instance, **timeouts)
    assert joined["errorCode"] == 0 and joined["leader"] == joined["memberId"]
    synced = wire.call_carried(14, 5, sync_body(group, joined, instance,
                                        [{"memberId": joined["memberId"], "assignment": assignment([0, 1, 2, 3])}]))
    assert synced["errorCode"] == 0
    return joined


# -- JoinGroup / SyncGroup / Heartbeat / LeaveGroup -----------------------------------------------


@pytest.mark.parametrize("version", range(10))
def test_a_member_joins_syncs_heartbeats_and_leaves_at_every_join_version(wires: list[Wire], version: int) -> None:
    wire = wires[0]
    instance = "pod-0" if version >= 5 else None
    first = wire.call_carried(11, version, join_body("g", instance=instance))
    if version >= 4 and instance is None:
        assert first["errorCode"] == CODE["MEMBER_ID_REQUIRED"] and first["memberId"].startswith("client-0-")
        first = wire.call_carried(11, version, join_body("g", first["memberId"]))
    assert first["errorCode"] == 0
    member_id = first["memberId"]
    assert member_id.startswith("pod-0-" if instance else "client-0-")
    assert (first["generationId"], first["leader"], first["protocolName"]) == (1, member_id, "range")
    assert [(m["memberId"], m["metadata"]) for m in first["members"]] == [(member_id, subscription())]
    if version >= 5:
        assert first["members"][0]["groupInstanceId"] == instance
    if version >= 7:
        assert first["protocolType"] == "consumer"

    sync_version = min(version, 5)
    synced = wire.call_carried(14, sync_version, sync_body("g", first, instance,
                                                   [{"memberId": member_id, "assignment": assignment([0, 1, 2, 3])}]))
    assert synced["errorCode"] == 0
    assert decode_assignment(synced["assignment"])[1]["assignedPartitions"] == [
        {"topic": TOPIC, "partitions": [0, 1, 2, 3]}]
    heartbeat = {"groupId": "g", "generationId": 1, "memberId": member_id, "groupInstanceId": instance}
    assert wire.call_carried(12, min(version, 4), heartbeat)["errorCode"] == 0

    leave_version = min(version, 5)
    if leave_version >= 3:
        left = wire.call(13, leave_version, LeaveGroupRequestData(group_id="g", members=[
            MemberIdentity(member_id=member_id, group_instance_id=instance, reason="done")]))
        assert left.error_code == 0
        assert [(m.member_id, m.group_instance_id, m.error_code) for m in left.members] == [
            (member_id, instance, 0)]
    else:
        assert wire.call(13, leave_version, LeaveGroupRequestData(group_id="g", member_id=member_id)).error_code == 0
    listed = wire.call(16, 4, ListGroupsRequestData())
    assert [(g.group_id, g.group_state) for g in listed.groups] == [("g", "Empty")]


def test_join_errors(wires: list[Wire], quick: ServerThread) -> None:
    wire = wires[0]
    assert wire.call_carried(11, 9, join_body("g", session_ms=1))["errorCode"] == CODE["INVALID_SESSION_TIMEOUT"]
    assert wire.call_carried(11, 9, join_body(""))["errorCode"] == CODE["INVALID_GROUP_ID"]
    assert wire.call_carried(11, 9, join_body("absent", "someone"))["errorCode"] == CODE["GROUP_ID_NOT_FOUND"]
    stable_static_member(wire)
    stranger = wire.call_carried(11, 9, join_body("g", "stranger"))
    assert (stranger["errorCode"], stranger["memberId"], stranger["generationId"]) == (
        CODE["UNKNOWN_MEMBER_ID"], "stranger", -1)
    old = wire.call_carried(11, 3, join_body("g", "stranger"))
    assert (old["errorCode"], old["protocolName"]) == (CODE["UNKNOWN_MEMBER_ID"], "")  # not nullable before v7
    wire.call(68, 1, ConsumerGroupHeartbeatRequestData(group_id="cg", member_id="m", member_epoch=0,
                                                       rebalance_timeout_ms=5000, subscribed_topic_names=[TOPIC],
                                                       topic_partitions=[]))
    # A classic member is taken into a consumer group (online migration), after KIP-394's round trip.
    classic = wire.call_carried(11, 9, join_body("cg"))
    assert (classic["errorCode"], classic["memberId"] != "") == (CODE["MEMBER_ID_REQUIRED"], True)
    unsupported = {**join_body("cg", classic["memberId"]), "protocolType": "connect"}
    assert wire.call_carried(11, 9, unsupported)["errorCode"] == CODE["INCONSISTENT_GROUP_PROTOCOL"]


def test_a_parked_join_is_answered_when_the_rebalance_completes(wires: list[Wire], quick: ServerThread) -> None:
    a, b = wires[0], wires[1]
    first = stable_static_member(a)
    b.send_carried(11, 9, join_body("g", instance="pod-b"))
    wait_until(lambda: quick.call(joined_static("pod-b")), "the server has pod-b's join", TIMEOUT_S)
    assert b.waiting(0.2)  # the group prepares a rebalance and waits for pod-a to rejoin
    heartbeat = {"groupId": "g", "generationId": 1, "memberId": first["memberId"], "groupInstanceId": "pod-a"}
    assert a.call_carried(12, 4, heartbeat)["errorCode"] == CODE["REBALANCE_IN_PROGRESS"]
    rejoined = a.call_carried(11, 9, join_body("g", first["memberId"], "pod-a"))
    joined_b = b.receive_carried()
    assert (rejoined["errorCode"], joined_b["errorCode"]) == (0, 0)
    assert rejoined["generationId"] == joined_b["generationId"] == 2
    assert rejoined["leader"] == first["memberId"]
    assert sorted(m["groupInstanceId"] for m in rejoined["members"]) == ["pod-a", "pod-b"]
    assert joined_b["members"] == []
    b.send_carried(14, 5, sync_body("g", joined_b, "pod-b"))
    assert b.waiting(0.3)  # a follower's SyncGroup waits for the leader's assignment
    a.call_carried(14, 5, sync_body("g", rejoined, "pod-a", [
        {"memberId": rejoined["memberId"], "assignment": assignment([0, 1])},
        {"memberId": joined_b["memberId"], "assignment": assignment([2, 3])}]))
    synced_b = b.receive_carried()
    assert synced_b["errorCode"] == 0
    assert decode_assignment(synced_b["assignment"])[1]["assignedPartitions"][0]["partitions"] == [2, 3]


def test_a_join_parked_past_its_rebalance_timeout_is_told_to_rejoin(
    wires: list[Wire], quick: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    from groupctl.server import groups

    a, b = wires[0], wires[1]
    first = stable_static_member(a)
    body = {**join_body("g", instance="pod-b"), "sessionTimeoutMs": 6000, "rebalanceTimeoutMs": 6000}
    monkeypatch.setattr(groups, "WAIT_MARGIN_S", -5.8)  # the wait bound becomes 0.2 s instead of 11 s
    gave_up = b.call_carried(11, 9, body)
    assert (gave_up["errorCode"], gave_up["generationId"]) == (CODE["REBALANCE_IN_PROGRESS"], -1)
    monkeypatch.undo()
    member_id = quick.call(lambda broker: broker.coordinator.classic.groups["g"].static["pod-b"])
    b.send_carried(11, 9, body)  # the client asks again; the rebalance it waited for has not moved on
    wait_until(lambda: quick.call(lambda broker: broker.coordinator.classic.groups["g"].static["pod-b"] != member_id),
               "pod-b's second join is handled", TIMEOUT_S)
    rejoined = a.call_carried(11, 9, join_body("g", first["memberId"], "pod-a"))
    joined_b = b.receive_carried()
    assert rejoined["generationId"] == joined_b["generationId"] == 2 and joined_b["errorCode"] == 0


def test_sync_and_heartbeat_errors(wires: list[Wire]) -> None:
    wire = wires[0]
    joined = stable_static_member(wire)
    me = joined["memberId"]

    def heartbeat(version: int = 4, **changes: object) -> int:
        body = {"groupId": "g", "generationId": 1, "memberId": me, "groupInstanceId": "pod-a", **changes}
        return wire.call_carried(12, version, body)["errorCode"]

    assert heartbeat() == 0
    assert heartbeat(generationId=7) == CODE["ILLEGAL_GENERATION"]
    assert heartbeat(memberId="other") == CODE["FENCED_INSTANCE_ID"]
    assert heartbeat(groupInstanceId="pod-x") == CODE["UNKNOWN_MEMBER_ID"]
    assert heartbeat(0, memberId="other", groupInstanceId=None) == CODE["UNKNOWN_MEMBER_ID"]
    assert heartbeat(groupId="absent") == CODE["UNKNOWN_MEMBER_ID"]
    assert heartbeat(groupId="") == CODE["INVALID_GROUP_ID"]

    def sync(version: int = 5, **changes: object) -> dict:
        return wire.call_carried(14, version, {**sync_body("g", joined, "pod-a"), **changes})

    assert sync(generationId=2)["errorCode"] == CODE["ILLEGAL_GENERATION"]
    assert sync(memberId="other")["errorCode"] == CODE["FENCED_INSTANCE_ID"]
    assert sync(protocolType=None)["errorCode"] == CODE["INCONSISTENT_GROUP_PROTOCOL"]
    assert sync(protocolName="roundrobin")["errorCode"] == CODE["INCONSISTENT_GROUP_PROTOCOL"]
    assert sync(4, protocolType=None, protocolName=None)["errorCode"] == 0  # optional before v5
    assert sync(groupId="absent")["errorCode"] == CODE["UNKNOWN_MEMBER_ID"]
    assert sync(groupId="")["errorCode"] == CODE["INVALID_GROUP_ID"]
    stable = sync()
    assert (stable["errorCode"], stable["protocolType"], stable["protocolName"]) == (0, "consumer", "range")


def test_leave_group_single_and_batch(wires: list[Wire], quick: ServerThread) -> None:
    a, b = wires[0], wires[1]
    first = stable_static_member(a)
    b.send_carried(11, 9, join_body("g", instance="pod-b"))
    wait_until(lambda: quick.call(joined_static("pod-b")), "the server has pod-b's join", TIMEOUT_S)
    a.call_carried(11, 9, join_body("g", first["memberId"], "pod-a"))
    joined_b = b.receive_carried()
    assert a.call(13, 1, LeaveGroupRequestData(group_id="g", member_id="ghost")).error_code == CODE["UNKNOWN_MEMBER_ID"]
    unknown_group = a.call(13, 3, LeaveGroupRequestData(group_id="absent", members=[MemberIdentity(member_id="x")]))
    assert unknown_group.error_code == 0
    assert [(m.member_id, m.error_code) for m in unknown_group.members] == [("x", CODE["UNKNOWN_MEMBER_ID"])]
    assert a.call(13, 5, LeaveGroupRequestData(group_id="")).error_code == CODE["INVALID_GROUP_ID"]
    batch = a.call(13, 5, LeaveGroupRequestData(group_id="g", members=[
        MemberIdentity(group_instance_id="pod-b", reason="scale down"),
        MemberIdentity(group_instance_id="pod-x", reason="scale down"),
        MemberIdentity(member_id="wrong", group_instance_id="pod-a"),
    ]))
    assert batch.error_code == 0
    assert [(m.member_id, m.group_instance_id, m.error_code) for m in batch.members] == [
        ("", "pod-b", 0), ("", "pod-x", CODE["UNKNOWN_MEMBER_ID"]), ("wrong", "pod-a", CODE["FENCED_INSTANCE_ID"])]
    heartbeat = {"groupId": "g", "generationId": joined_b["generationId"], "memberId": joined_b["memberId"],
                 "groupInstanceId": "pod-b"}
    assert b.call_carried(12, 4, heartbeat)["errorCode"] == CODE["UNKNOWN_MEMBER_ID"]
    described = described_groups(a, 5, ["g"])[0]
    assert [m["groupInstanceId"] for m in described["members"]] == ["pod-a"]


# -- ConsumerGroupHeartbeat -----------------------------------------------------------------------


def cgh(group: str, member_id: str, epoch: int, **fields: Any) -> ConsumerGroupHeartbeatRequestData:
    return ConsumerGroupHeartbeatRequestData(group_id=group, member_id=member_id, member_epoch=epoch, **fields)


def joining(group: str, member_id: str, **fields: Any) -> ConsumerGroupHeartbeatRequestData:
    return cgh(group, member_id, 0, rebalance_timeout_ms=30_000, subscribed_topic_names=[TOPIC], topic_partitions=[],
               **fields)


def test_consumer_group_heartbeat_join_steady_and_leave(wires: list[Wire], quick: ServerThread) -> None:
    wire = wires[0]
    topic_id = quick.call(lambda b: b.coordinator.topics.get(TOPIC).topic_id)
    joined = wire.call(68, 1, joining("cg", "member-one", instance_id="pod-1"))
    assert (joined.error_code, joined.member_id, joined.member_epoch) == (0, "member-one", 1)
    assert joined.heartbeat_interval_ms == 5000
    assert joined.assignment.to_dict() == {"topicPartitions": [{"topicId": topic_id, "partitions": [0, 1, 2, 3]}]}
    steady = wire.call(68, 1, cgh("cg", "member-one", 1))
    assert (steady.error_code, steady.member_epoch, steady.assignment) == (0, 1, None)
    v0 = wire.call(68, 0, joining("cg", ""))
    assert v0.error_code == 0 and v0.member_id and v0.member_epoch == 2  # v0: the server picks the id
    left = wire.call(68, 1, cgh("cg", "member-one", -2, instance_id="pod-1"))
    assert (left.error_code, left.member_epoch) == (0, -2)
    left = wire.call(68, 0, cgh("cg", v0.member_id, -1))
    assert (left.error_code, left.member_epoch) == (0, -1)


def test_consumer_group_heartbeat_errors(wires: list[Wire]) -> None:
    wire = wires[0]
    assert wire.call(68, 1, joining("cg", "m1", instance_id="pod-1")).member_epoch == 1

    def error(version: int, body: ConsumerGroupHeartbeatRequestData) -> tuple[str, str]:
        answer = wire.call(68, version, body)
        assert answer.member_id is None and answer.member_epoch == 0
        name = next(n for n, c in CODE.items() if c == answer.error_code)
        return name, answer.error_message

    assert error(1, joining("cg", "")) == ("INVALID_REQUEST", "MemberId can't be empty.")
    assert error(1, cgh("cg", "m1", 0)) == ("INVALID_REQUEST", "RebalanceTimeoutMs must be provided in first request.")
    assert error(1, cgh("cg", "m1", 5)) == ("FENCED_MEMBER_EPOCH", (
        "The consumer group member has a greater member epoch (5) than the one known by the group coordinator (1). "
        "The member must abandon all its partitions and rejoin."))
    assert error(1, cgh("cg", "ghost", 1)) == ("UNKNOWN_MEMBER_ID", "Member ghost is not a member of group cg.")
    assert error(1, joining("cg", "m2", server_assignor="sticky")) == (
        "UNSUPPORTED_ASSIGNOR", "ServerAssignor sticky is not supported. Supported assignors: uniform, range.")
    assert error(1, joining("cg", "m2", instance_id="pod-1")) == ("UNRELEASED_INSTANCE_ID", (
        "Static member m2 with instance id pod-1 cannot join the group because the instance id is owned by m1 "
        "member."))
    name, message = error(1, cgh("cg", "m2", 0, rebalance_timeout_ms=1000, subscribed_topic_regex="(orders",
                                 topic_partitions=[]))
    assert name == "INVALID_REGULAR_EXPRESSION" and "(orders" in message
    assert error(1, cgh("cg", "m1", -3)) == ("INVALID_REQUEST", "MemberEpoch is invalid.")


# -- OffsetCommit / OffsetFetch -------------------------------------------------------------------


def commit_body(version: int, group: str, topic_id: uuid.UUID, partitions: dict[int, int], *, member_id: str = "",
                generation: int = -1, name: str = TOPIC, instance: str | None = None) -> OffsetCommitRequestData:
    topic = {"topic_id": topic_id} if version >= 10 else {"name": name}
    return OffsetCommitRequestData(
        group_id=group, generation_id_or_member_epoch=generation, member_id=member_id, group_instance_id=instance,
        retention_time_ms=-1, topics=[OffsetCommitRequestTopic(**topic, partitions=[
            OffsetCommitRequestPartition(partition_index=p, committed_offset=o, committed_leader_epoch=3,
                                         committed_metadata=f"m{o}")
            for p, o in partitions.items()])])


def commit_errors(answer: OffsetCommitResponseData) -> list[tuple[int, int]]:
    return [(p.partition_index, p.error_code) for t in answer.topics for p in t.partitions]


def fetched_groups(wire: Wire, version: int, groups: list[OffsetFetchRequestGroup],
                   require_stable: bool = False) -> list[dict]:
    """A batched OffsetFetch (v8+)'s groups, as the dicts of the fields `version` carries."""
    body = OffsetFetchRequestData(groups=groups, require_stable=require_stable)
    return carried(9, version, wire.call(9, version, body))["groups"]


def fetched_group(wire: Wire, version: int, group: str, topics: list[OffsetFetchRequestTopic] | None,
                  require_stable: bool = False) -> dict:
    """A single-group OffsetFetch (v1-7)'s answer, as the dict of the fields `version` carries."""
    body = OffsetFetchRequestData(group_id=group, topics=topics, require_stable=require_stable)
    return carried(9, version, wire.call(9, version, body))


@pytest.mark.parametrize("version", range(2, 11))
def test_offset_commit_then_fetch_at_each_version(wires: list[Wire], quick: ServerThread, version: int) -> None:
    wire = wires[0]
    topic_id = quick.call(lambda b: b.coordinator.topics.get(TOPIC).topic_id)
    committed = wire.call(8, version, commit_body(version, "simple", topic_id, {0: 10, 1: 11, 9: 12}))
    assert commit_errors(committed) == [(0, 0), (1, 0), (9, CODE["UNKNOWN_TOPIC_OR_PARTITION"])]
    if version >= 10:
        assert committed.topics[0].topic_id == topic_id
    fetch_version = version if version != 2 else 1
    if fetch_version >= 8:
        topic = {"topic_id": topic_id} if fetch_version >= 10 else {"name": TOPIC}
        simple, nobody = fetched_groups(wire, fetch_version, [
            OffsetFetchRequestGroup(group_id="simple", member_id=None, member_epoch=-1,
                                    topics=[OffsetFetchRequestTopics(**topic, partition_indexes=[0, 1, 2])]),
            OffsetFetchRequestGroup(group_id="nobody", topics=None)], require_stable=True)
        assert (simple["errorCode"], nobody["errorCode"], nobody["topics"]) == (0, 0, [])
        topics = simple["topics"]
    else:
        fetched = fetched_group(wire, fetch_version, "simple", [
            OffsetFetchRequestTopic(name=TOPIC, partition_indexes=[0, 1, 2])], require_stable=fetch_version >= 7)
        assert fetched.get("errorCode", 0) == 0
        topics = fetched["topics"]
    [topic] = topics
    assert topic.get("topicId", topic_id) == topic_id and topic.get("name", TOPIC) in (TOPIC, "")
    got = [(p["partitionIndex"], p["committedOffset"], p["metadata"], p["errorCode"]) for p in topic["partitions"]]
    assert got == [(0, 10, "m10", 0), (1, 11, "m11", 0), (2, -1, "", 0)]
    if version >= 6:  # OffsetCommit carries a leader epoch from v6, OffsetFetch returns it from v5
        assert [p["committedLeaderEpoch"] for p in topic["partitions"]] == [3, 3, -1]


def test_offset_commit_and_fetch_errors(wires: list[Wire], quick: ServerThread) -> None:
    wire = wires[0]
    topic_id = quick.call(lambda b: b.coordinator.topics.get(TOPIC).topic_id)
    missing = uuid.UUID(int=42)
    assert commit_errors(wire.call(8, 9, commit_body(9, "", topic_id, {0: 1}))) == [(0, CODE["INVALID_GROUP_ID"])]
    assert commit_errors(wire.call(8, 9, commit_body(9, "g", topic_id, {0: 1}, name="nope"))) == [
        (0, CODE["UNKNOWN_TOPIC_OR_PARTITION"])]
    assert commit_errors(wire.call(8, 10, commit_body(10, "g", missing, {0: 1}))) == [(0, CODE["UNKNOWN_TOPIC_ID"])]
    # A generation for a group that does not exist: GROUP_ID_NOT_FOUND from v9, ILLEGAL_GENERATION before.
    assert commit_errors(wire.call(8, 9, commit_body(9, "g", topic_id, {0: 1}, member_id="m", generation=1))) == [
        (0, CODE["GROUP_ID_NOT_FOUND"])]
    assert commit_errors(wire.call(8, 8, commit_body(8, "g", topic_id, {0: 1}, member_id="m", generation=1))) == [
        (0, CODE["ILLEGAL_GENERATION"])]

    joined = stable_static_member(wire, "classic")
    me = joined["memberId"]
    assert commit_errors(wire.call(8, 9, commit_body(9, "classic", topic_id, {0: 5}, member_id=me, generation=2,
                                                     instance="pod-a"))) == [(0, CODE["ILLEGAL_GENERATION"])]
    assert commit_errors(wire.call(8, 9, commit_body(9, "classic", topic_id, {0: 5}, member_id="other", generation=1,
                                                     instance="pod-a"))) == [(0, CODE["FENCED_INSTANCE_ID"])]
    assert commit_errors(wire.call(8, 7, commit_body(7, "classic", topic_id, {0: 5}, member_id=me, generation=1,
                                                     instance="pod-a"))) == [(0, 0)]

    assert wire.call(68, 1, joining("cg", "m1")).member_epoch == 1
    assert commit_errors(wire.call(8, 9, commit_body(9, "cg", topic_id, {0: 7}, member_id="m1", generation=1))) == [
        (0, 0)]
    assert commit_errors(wire.call(8, 9, commit_body(9, "cg", topic_id, {0: 7}, member_id="m1", generation=0))) == [
        (0, CODE["STALE_MEMBER_EPOCH"])]
    assert commit_errors(wire.call(8, 8, commit_body(8, "cg", topic_id, {0: 7}, member_id="m1", generation=1))) == [
        (0, CODE["UNSUPPORTED_VERSION"])]
    stale, ok, invalid = fetched_groups(wire, 10, [
        OffsetFetchRequestGroup(group_id="cg", member_id="m1", member_epoch=4, topics=None),
        OffsetFetchRequestGroup(group_id="cg", member_id="m1", member_epoch=1, topics=[
            OffsetFetchRequestTopics(topic_id=topic_id, partition_indexes=[0]),
            OffsetFetchRequestTopics(topic_id=missing, partition_indexes=[1])]),
        OffsetFetchRequestGroup(group_id="", topics=None)])
    assert (stale["errorCode"], stale["topics"]) == (CODE["STALE_MEMBER_EPOCH"], [])
    assert [(t["topicId"], [(p["partitionIndex"], p["committedOffset"], p["errorCode"]) for p in t["partitions"]])
            for t in ok["topics"]] == [(topic_id, [(0, 7, 0)]), (missing, [(1, -1, CODE["UNKNOWN_TOPIC_ID"])])]
    assert invalid["errorCode"] == CODE["INVALID_GROUP_ID"]
    old = fetched_group(wire, 3, "", None)
    assert (old["errorCode"], old["topics"]) == (CODE["INVALID_GROUP_ID"], [])
    v1 = fetched_group(wire, 1, "", [OffsetFetchRequestTopic(name=TOPIC, partition_indexes=[0])])
    assert [p["errorCode"] for p in v1["topics"][0]["partitions"]] == [CODE["INVALID_GROUP_ID"]]


def test_offset_commit_retention_at_v2_to_v4(wires: list[Wire], quick: ServerThread) -> None:
    body = commit_body(4, "simple", uuid.UUID(int=0), {0: 1})
    body.retention_time_ms = 60_000
    assert commit_errors(wires[0].call(8, 4, body)) == [(0, 0)]
    entry = quick.call(lambda b: b.coordinator.runtime.state.offsets["simple"][(TOPIC, 0)])
    assert entry.expire_timestamp == entry.commit_timestamp + 60_000


# -- mixed groups: classic members of a consumer group (online migration) ---------------------------


def _classic_round(wire: Wire, group: str, member_id: str) -> tuple[dict, list[int]]:
    """A classic member's JoinGroup and SyncGroup; its JoinGroup answer and the partitions it was given."""
    joined = wire.call_carried(11, 9, join_body(group, member_id))
    assert joined["errorCode"] == 0, joined
    synced = wire.call_carried(14, 5, sync_body(group, joined))
    assert synced["errorCode"] == 0, synced
    given = decode_assignment(synced["assignment"])[1]["assignedPartitions"] if synced["assignment"] else []
    return joined, sorted(p for t in given for p in t["partitions"])


def _group_type(wire: Wire, group: str) -> str | None:
    return next((g[3] for g in listed(wire, 5) if g[0] == group), None)


def test_a_classic_member_of_a_consumer_group_joins_syncs_heartbeats_and_leaves(
    wires: list[Wire], quick: ServerThread
) -> None:
    modern, old = wires[0], wires[1]
    topic_id = quick.call(lambda b: b.coordinator.topics.get(TOPIC).topic_id)
    assert modern.call(68, 1, joining("cg", "m1")).member_epoch == 1
    first = old.call_carried(11, 9, join_body("cg"))
    assert first["errorCode"] == CODE["MEMBER_ID_REQUIRED"]
    member_id = first["memberId"]
    joined, given = _classic_round(old, "cg", member_id)
    assert (joined["protocolType"], joined["protocolName"], joined["memberId"]) == ("consumer", "range", member_id)

    def heartbeat_both() -> bool:
        """m1 reports what it owns; the classic member rejoins when told to. True once both are settled."""
        nonlocal joined, given
        described = consumer_groups_described(modern, 1, ["cg"])[0]
        mine = next(m for m in described["members"] if m["memberId"] == "m1")["assignment"]["topicPartitions"]
        owned = [TopicPartitions(topic_id=t["topicId"], partitions=t["partitions"]) for t in mine]
        modern.call(68, 1, cgh("cg", "m1", _epoch(modern, "m1"), topic_partitions=owned))
        beat = old.call_carried(12, 4, {"groupId": "cg", "generationId": joined["generationId"], "memberId": member_id,
                                "groupInstanceId": None})["errorCode"]
        if beat == CODE["REBALANCE_IN_PROGRESS"]:
            joined, given = _classic_round(old, "cg", member_id)
            return False
        assert beat == 0
        return described["groupState"] == "Stable" and described["groupEpoch"] == described["assignmentEpoch"]

    wait_until(heartbeat_both, "the mixed group is Stable")
    assert _group_type(modern, "cg") == "consumer"
    for version in (0, 1):
        (described,) = consumer_groups_described(modern, version, ["cg"])
        members = {m["memberId"]: m for m in described["members"]}
        assert set(members) == {"m1", member_id}
        if version == 1:
            assert (members["m1"]["memberType"], members[member_id]["memberType"]) == (1, 0)
        else:
            assert "memberType" not in members["m1"]
        owned = [p for m in members.values() for t in m["assignment"]["topicPartitions"] for p in t["partitions"]]
        assert sorted(owned) == [0, 1, 2, 3]  # every partition, none twice
        assert members[member_id]["assignment"]["topicPartitions"] == [
            {"topicId": topic_id, "topicName": TOPIC, "partitions": given}]
        assert members[member_id]["memberEpoch"] == joined["generationId"]
    (as_classic,) = described_groups(modern, 5, ["cg"])
    assert (as_classic["groupState"], as_classic["members"]) == ("Dead", [])  # not a classic group: Kafka's answer

    assert modern.call(68, 1, cgh("cg", "m1", -1)).error_code == 0  # the last consumer-protocol member leaves
    assert _group_type(modern, "cg") == "classic"
    (downgraded,) = described_groups(modern, 5, ["cg"])
    assert [m["memberId"] for m in downgraded["members"]] == [member_id]
    left = old.call(13, 5, LeaveGroupRequestData(group_id="cg", members=[MemberIdentity(member_id=member_id)]))
    assert [(m.member_id, m.error_code) for m in left.members] == [(member_id, 0)]
    assert listed(modern, 5) == [("cg", "consumer", "Empty", "classic")]


def _epoch(wire: Wire, member_id: str, group: str = "cg") -> int:
    described = consumer_groups_described(wire, 1, [group])[0]
    return next(m["memberEpoch"] for m in described["members"] if m["memberId"] == member_id)


@pytest.mark.parametrize("policy", ["disabled", "downgrade"])
def test_a_policy_without_upgrade_refuses_a_consumer_member_of_a_classic_group(tmp_path, policy: str) -> None:
    from groupctl.server.server import ServerOptions

    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0,
                                        broker_settings={"group.consumer.migration.policy": policy}))
    server.start()
    try:
        server.call(lambda b: b.backend.create_topic(TOPIC, 4))
        with Wire(server) as wire:
            stable_static_member(wire)
            refused = wire.call(68, 1, joining("g", "m1"))
            assert (refused.error_code, refused.error_message) == (
                CODE["GROUP_ID_NOT_FOUND"],
                "Cannot upgrade classic group g to consumer group because online upgrade is disabled.")
            assert _group_type(wire, "g") == "classic"
            assert server.call(lambda b: b.coordinator.runtime.migration) == policy
    finally:
        server.stop()


# -- ListGroups / DescribeGroups / ConsumerGroupDescribe / DeleteGroups ---------------------------


@pytest.fixture
def three_groups(wires: list[Wire], quick: ServerThread) -> dict:
    """A Stable classic group "classic" (static pod-a), a consumer group "cg" (m1) and a simple group "simple"."""
    wire = wires[0]
    joined = stable_static_member(wire, "classic")
    assert wire.call(68, 1, joining("cg", "m1", instance_id="pod-1", rack_id="r1")).member_epoch == 1
    topic_id = quick.call(lambda b: b.coordinator.topics.get(TOPIC).topic_id)
    assert commit_errors(wire.call(8, 9, commit_body(9, "simple", topic_id, {0: 1}))) == [(0, 0)]
    return {"classic": joined, "topic_id": topic_id}


def listed(wire: Wire, version: int, **filters: list[str]) -> list[tuple]:
    """ListGroups' groups as `version` carries them; `filters` are the request's `states_filter`, `types_filter`."""
    groups = carried(16, version, wire.call(16, version, ListGroupsRequestData(**filters)))["groups"]
    return [tuple(g.get(k) for k in ("groupId", "protocolType", "groupState", "groupType")) for g in groups]


def described_groups(wire: Wire, version: int, group_ids: list[str], operations: bool = False) -> list[dict]:
    """DescribeGroups' groups as `version` carries them."""
    asked = DescribeGroupsRequestData(groups=group_ids, include_authorized_operations=operations)
    return carried(15, version, wire.call(15, version, asked))["groups"]


def consumer_groups_described(wire: Wire, version: int, group_ids: list[str],
                              operations: bool = False) -> list[dict]:
    """ConsumerGroupDescribe's groups as `version` carries them."""
    asked = ConsumerGroupDescribeRequestData(group_ids=group_ids, include_authorized_operations=operations)
    return carried(69, version, wire.call(69, version, asked))["groups"]


def test_list_groups_at_each_version_with_filters(wires: list[Wire], three_groups: dict) -> None:
    wire = wires[0]
    everything = [("cg", "consumer", "Stable", "consumer"), ("classic", "consumer", "Stable", "classic"),
                  ("simple", "", "Empty", "classic")]
    for version in range(6):
        assert listed(wire, version) == [
            (g, p, s if version >= 4 else None, t if version >= 5 else None) for g, p, s, t in everything]
    assert listed(wire, 4, states_filter=["STABLE"]) == [
        ("cg", "consumer", "Stable", None), ("classic", "consumer", "Stable", None)]
    assert listed(wire, 5, types_filter=["Classic"]) == everything[1:]
    assert listed(wire, 5, types_filter=["consumer"], states_filter=["empty"]) == []
    assert [g[0] for g in listed(wire, 0)] == ["cg", "classic", "simple"]


def test_describe_groups_at_each_version(wires: list[Wire], three_groups: dict) -> None:
    wire = wires[0]
    me = three_groups["classic"]["memberId"]
    for version in range(7):
        classic, absent, consumer, empty = described_groups(wire, version, ["classic", "absent", "cg", ""],
                                                            operations=version >= 3)
        assert (classic["errorCode"], classic["groupState"], classic["protocolType"], classic["protocolData"]) == (
            0, "Stable", "consumer", "range")
        [member] = classic["members"]
        assert (member["memberId"], member["clientId"], member["clientHost"]) == (me, "client-0", "/127.0.0.1")
        assert member["memberMetadata"] == subscription()
        assert decode_assignment(member["memberAssignment"])[1]["assignedPartitions"][0]["partitions"] == [0, 1, 2, 3]
        assert member.get("groupInstanceId", "pod-a") == "pod-a"
        assert classic.get("authorizedOperations", GROUP_OPERATIONS) == GROUP_OPERATIONS
        assert absent["groupState"] == consumer["groupState"] == "Dead"
        if version >= 6:
            assert (absent["errorCode"], absent["errorMessage"]) == (
                CODE["GROUP_ID_NOT_FOUND"], "Group absent not found.")
            assert consumer["errorMessage"] == "Group cg is not a classic group."
        else:
            assert absent["errorCode"] == consumer["errorCode"] == 0
        assert empty["errorCode"] == CODE["INVALID_GROUP_ID"]
    plain = described_groups(wire, 5, ["classic"])[0]
    assert plain["authorizedOperations"] == -(2**31)


def test_consumer_group_describe_at_each_version(wires: list[Wire], three_groups: dict) -> None:
    wire = wires[0]
    topic_id = three_groups["topic_id"]
    for version in (0, 1):
        cg, classic, absent = consumer_groups_described(wire, version, ["cg", "classic", "absent"])
        assert (cg["errorCode"], cg["groupState"], cg["groupEpoch"], cg["assignmentEpoch"], cg["assignorName"]) == (
            0, "Stable", 1, 1, "uniform")
        [member] = cg["members"]
        assert (member["memberId"], member["instanceId"], member["rackId"], member["memberEpoch"]) == (
            "m1", "pod-1", "r1", 1)
        assert (member["clientId"], member["clientHost"], member["subscribedTopicNames"]) == (
            "client-0", "/127.0.0.1", [TOPIC])
        whole = {"topicPartitions": [{"topicId": topic_id, "topicName": TOPIC, "partitions": [0, 1, 2, 3]}]}
        assert member["assignment"] == member["targetAssignment"] == whole
        assert member.get("memberType", 1) == 1
        assert cg["authorizedOperations"] == -(2**31)
        assert (classic["errorCode"], classic["errorMessage"]) == (
            CODE["GROUP_ID_NOT_FOUND"], "Group classic is not a consumer group.")
        assert (absent["errorCode"], absent["errorMessage"]) == (CODE["GROUP_ID_NOT_FOUND"], "Group absent not found.")
    with_ops = consumer_groups_described(wire, 1, ["cg"], operations=True)[0]
    assert with_ops["authorizedOperations"] == GROUP_OPERATIONS


def test_consumer_group_describe_answers_member_types_of_a_mixed_group_from_v1(wires: list[Wire],
                                                                                quick: ServerThread) -> None:
    """A group in online migration, its records applied to the served coordinator (it cannot yet build one
    by requests): MemberType 0 for the classic member, 1 for the consumer-protocol one, at v1; none at v0."""
    quick.call(lambda b: add_groups(b.coordinator, ["oracle-mixed", "legacy-app"]))
    for version in (0, 1):
        mixed, legacy = wire_groups = consumer_groups_described(wires[0], version, ["oracle-mixed", "legacy-app"])
        assert [g["errorCode"] for g in wire_groups] == [0, 0]
        assert (mixed["groupState"], mixed["groupEpoch"], mixed["assignmentEpoch"]) == ("Stable", 2, 2)
        answered = {m["memberId"]: m.get("memberType") for m in mixed["members"]}
        if version == 0:
            assert answered == {ORACLE_CLASSIC: None, ORACLE_CONSUMER: None}
            assert all("memberType" not in m for g in wire_groups for m in g["members"])
        else:
            assert answered == {ORACLE_CLASSIC: 0, ORACLE_CONSUMER: 1}
            assert [m["memberType"] for m in legacy["members"]] == [0, 0, 0]
        classic = next(m for m in mixed["members"] if m["memberId"] == ORACLE_CLASSIC)
        assert classic["clientId"] == "mixed-classic" and classic["memberEpoch"] == 2
        assert [tp["partitions"] for tp in classic["assignment"]["topicPartitions"]] == [[0, 1]]
    parsed = parse_consumer_group_describe(wires[0].call(69, 1, ConsumerGroupDescribeRequestData(
        group_ids=["oracle-mixed"])))
    assert parsed[0].mixed is True
    assert {m.member_id: m.protocol for m in from_consumer_group_describe(parsed[0]).members} == {
        ORACLE_CLASSIC: "classic", ORACLE_CONSUMER: "consumer"}


@pytest.mark.parametrize("version", range(4))
def test_delete_groups_at_each_version(wires: list[Wire], three_groups: dict, version: int) -> None:
    wire = wires[0]
    asked = DeleteGroupsRequestData(groups_names=["classic", "cg", "simple", "absent"])
    results = wire.call(42, version, asked).results
    assert [(r.group_id, r.error_code) for r in results] == [
        ("classic", CODE["NON_EMPTY_GROUP"]), ("cg", CODE["NON_EMPTY_GROUP"]), ("simple", 0),
        ("absent", CODE["GROUP_ID_NOT_FOUND"])]
    if version >= 3:
        assert [r.error_message for r in results] == [
            "The group is not empty.", "The group is not empty.", None, "Group absent not found."]
    assert wire.call(68, 1, cgh("cg", "m1", -1)).error_code == 0
    assert wire.call(42, version, DeleteGroupsRequestData(groups_names=["cg"])).results[0].error_code == 0
    assert [g[0] for g in listed(wire, 5)] == ["classic"]
