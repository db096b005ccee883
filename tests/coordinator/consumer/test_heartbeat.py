"""ConsumerGroupHeartbeat request validation, errors with Kafka's messages, static members, regexes,
the admin LeaveGroup path, and that every change is a record a rebuilt coordinator replays equal."""

from __future__ import annotations

import pytest

from groupctl.coordinator.consumer import metadata_hash
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.log.decode import decode_record
from groupctl.log.segment import iter_batches
from groupctl.model import TopicPartition
from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeRequestData, ConsumerGroupHeartbeatRequestData
from groupctl.protocol.data.groups import MemberIdentity
from tests.heartbeats import assigned, error, hb


def join(group: str, member: str, topics: list[str] | None = None, **kw) -> ConsumerGroupHeartbeatRequestData:
    return hb(group, member, 0, rebalance_timeout_ms=kw.pop("rebalance_timeout_ms", 30_000),
                            subscribed_topic_names=topics if topics is not None else ["foo"], topic_partitions=[],
                            **kw)


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(3))
    c.create_topic("foo", 6)
    c.create_topic("bar", 3)
    return c


def owned(response) -> list:
    return sorted((assigned(response) or {}).items())


def settle(c: Coordinator, group: str, members: dict[str, tuple[int, list]], rounds: int = 10) -> None:
    """Heartbeat every member with what it owns until the group is Stable."""
    for _ in range(rounds):
        if c.describe(group).state == "Stable":
            return
        for mid, (epoch, parts) in list(members.items()):
            r = c.heartbeat(hb(group, mid, epoch, topic_partitions=parts))
            assert r.error_code == 0, r
            members[mid] = (r.member_epoch, owned(r) if r.assignment is not None else parts)
    assert c.describe(group).state == "Stable"


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (hb("g", "", 1), "MemberId can't be empty."),
        (hb("", "m", 0, rebalance_timeout_ms=1, subscribed_topic_names=[], topic_partitions=[]),
         "GroupId can't be empty."),
        (join("g", "m", instance_id=""), "InstanceId can't be empty."),
        (join("g", "m", rack_id=""), "RackId can't be empty."),
        (hb("g", "m", 0, subscribed_topic_names=["foo"], topic_partitions=[]),
         "RebalanceTimeoutMs must be provided in first request."),
        (hb("g", "m", 0, rebalance_timeout_ms=1, subscribed_topic_names=["foo"]),
         "TopicPartitions must be empty when (re-)joining."),
        (hb("g", "m", 0, rebalance_timeout_ms=1, topic_partitions=[]),
         "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining."),
        (hb("g", "m", -2), "InstanceId can't be null."),
        (hb("g", "m", -3), "MemberEpoch is invalid."),
    ],
)
def test_invalid_requests_get_kafkas_messages(coord: Coordinator, request_: ConsumerGroupHeartbeatRequestData,
                                              message: str) -> None:
    r = coord.heartbeat(request_)
    assert (error(r), r.error_message) == ("INVALID_REQUEST", message)
    assert coord.runtime.records_written == 0


def test_v0_join_gets_a_generated_member_id_but_v1_must_send_one(coord: Coordinator) -> None:
    r = coord.heartbeat(join("g", ""), Caller(api_version=0))
    assert r.error_code == 0 and len(r.member_id) == 22
    r = coord.heartbeat(join("g", ""), Caller(api_version=1))
    assert (error(r), r.error_message) == ("INVALID_REQUEST", "MemberId can't be empty.")


def test_unsupported_assignor(coord: Coordinator) -> None:
    r = coord.heartbeat(join("g", "m", server_assignor="sticky"))
    assert error(r) == "UNSUPPORTED_ASSIGNOR"
    assert r.error_message == "ServerAssignor sticky is not supported. Supported assignors: uniform, range."


def test_unknown_group_member_and_fencing_messages(coord: Coordinator) -> None:
    r = coord.heartbeat(hb("nope", "m", 3))
    assert (error(r), r.error_message) == ("GROUP_ID_NOT_FOUND", "Consumer group nope not found.")
    a = coord.heartbeat(join("g", "a"))
    assert (a.member_epoch, a.error_code) == (1, 0)
    r = coord.heartbeat(hb("g", "zz", 1))
    assert (error(r), r.error_message) == ("UNKNOWN_MEMBER_ID", "Member zz is not a member of group g.")
    r = coord.heartbeat(hb("g", "a", 5, topic_partitions=owned(a)))
    assert error(r) == "FENCED_MEMBER_EPOCH"
    assert r.error_message == (
        "The consumer group member has a greater member epoch (5) than the one known by the group coordinator (1). "
        "The member must abandon all its partitions and rejoin."
    )


def test_lost_response_previous_epoch_with_owned_subset_is_accepted(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a"))
    b = coord.heartbeat(join("g", "b"))
    members = {"a": (a.member_epoch, owned(a)), "b": (b.member_epoch, owned(b))}
    settle(coord, "g", members)
    cur = coord.runtime.state.consumer["g"].current["a"]
    epoch, previous = cur.member_epoch, cur.previous_member_epoch
    assert previous < epoch
    r = coord.heartbeat(hb("g", "a", previous, topic_partitions=members["a"][1]))
    assert r.error_code == 0 and r.member_epoch == epoch
    foo = coord.topics.get("foo").topic_id
    r = coord.heartbeat(hb("g", "a", previous, topic_partitions=[(foo, list(range(6)))]))
    assert error(r) == "FENCED_MEMBER_EPOCH"
    assert f"smaller member epoch ({previous})" in r.error_message


def test_group_max_size(coord: Coordinator) -> None:
    c = Coordinator(ids=IdGenerator(1), max_group_size=1)
    c.create_topic("foo", 1)
    assert c.heartbeat(join("g", "a")).error_code == 0
    r = c.heartbeat(join("g", "b"))
    assert (error(r), r.error_message) == (
        "GROUP_MAX_SIZE_REACHED", "The consumer group has reached its maximum capacity of 1 members."
    )


def test_static_member_bounce_keeps_assignment_without_epoch_bump(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a1", instance_id="pod-a"))
    b = coord.heartbeat(join("g", "b1", instance_id="pod-b"))
    members = {"a1": (a.member_epoch, owned(a)), "b1": (b.member_epoch, owned(b))}
    settle(coord, "g", members)
    before = coord.describe("g")
    held = next(m.assignment for m in before.members if m.instance_id == "pod-a")
    r = coord.heartbeat(hb("g", "a1", -2, instance_id="pod-a"))
    assert (r.error_code, r.member_epoch) == (0, -2)
    assert coord.runtime.state.consumer["g"].current["a1"].member_epoch == -2
    clash = coord.heartbeat(join("g", "a2", instance_id="pod-b"))
    assert error(clash) == "UNRELEASED_INSTANCE_ID"
    assert clash.error_message == (
        "Static member a2 with instance id pod-b cannot join the group because the instance id is owned by b1 member."
    )
    coord.advance(10_000)
    back = coord.heartbeat(join("g", "a2", instance_id="pod-a"))
    assert back.error_code == 0
    after = coord.describe("g")
    assert after.group_epoch == before.group_epoch
    assert back.member_epoch == before.assignment_epoch
    member = next(m for m in after.members if m.instance_id == "pod-a")
    assert member.member_id == "a2" and member.assignment == held
    assert "a1" not in coord.runtime.state.consumer["g"].members
    rebuilt = coord.rebuild()
    assert rebuilt.runtime.state == coord.runtime.state and rebuilt.runtime.state.indexes == coord.runtime.state.indexes


def test_static_member_that_does_not_return_is_evicted_by_session_timeout(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a1", instance_id="pod-a"))
    epoch = coord.describe("g").group_epoch
    coord.heartbeat(hb("g", "a1", -2, instance_id="pod-a"))
    assert a.error_code == 0
    coord.advance(44_999)
    assert "a1" in coord.runtime.state.consumer["g"].members
    coord.advance(1)
    assert "a1" not in coord.runtime.state.consumer["g"].members
    assert coord.describe("g").group_epoch == epoch + 1


def test_leave_with_minus_one_removes_member_and_bumps(coord: Coordinator) -> None:
    coord.heartbeat(join("g", "a"))
    coord.heartbeat(join("g", "b"))
    epoch = coord.describe("g").group_epoch
    r = coord.heartbeat(hb("g", "b", -1))
    assert (r.error_code, r.member_id, r.member_epoch) == (0, "b", -1)
    d = coord.describe("g")
    assert [m.member_id for m in d.members] == ["a"] and d.group_epoch == epoch + 1


def test_fenced_instance_and_unknown_instance(coord: Coordinator) -> None:
    coord.heartbeat(join("g", "a1", instance_id="pod-a"))
    r = coord.heartbeat(hb("g", "other", 1, instance_id="pod-a"))
    assert (error(r), r.error_message) == (
        "FENCED_INSTANCE_ID", "Static member other with instance id pod-a was fenced by member a1."
    )
    r = coord.heartbeat(hb("g", "x", 1, instance_id="pod-z"))
    assert (error(r), r.error_message) == ("UNKNOWN_MEMBER_ID", "Instance id pod-z is unknown.")


def test_rebalance_timeout_fences_a_member_that_does_not_revoke(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a", rebalance_timeout_ms=5_000))
    coord.heartbeat(join("g", "b"))
    r = coord.heartbeat(hb("g", "a", a.member_epoch, topic_partitions=owned(a)))
    assert coord.runtime.state.consumer["g"].current["a"].state == 1  # UNREVOKED_PARTITIONS
    assert r.error_code == 0
    coord.advance(5_000)
    assert "a" not in coord.runtime.state.consumer["g"].members


def test_admin_leave_by_instance_id_is_one_batch_with_per_member_results(coord: Coordinator) -> None:
    for i in range(4):
        coord.heartbeat(join("g", f"m{i}", instance_id=f"pod-{i}"))
    epoch = coord.describe("g").group_epoch
    answer = coord.leave_group("g", [
        MemberIdentity(group_instance_id="pod-2", reason="scale down"), MemberIdentity(group_instance_id="pod-3"),
        MemberIdentity(group_instance_id="pod-9"), MemberIdentity(member_id="wrong", group_instance_id="pod-1"),
    ])
    assert [(d.member.group_instance_id, d.member.error_code, d.removed_member_id) for d in answer.departures] == [
        ("pod-2", 0, "m2"), ("pod-3", 0, "m3"), ("pod-9", 25, None), ("pod-1", 82, None)
    ]
    assert answer.departures[2].error_message == "Instance id pod-9 is unknown."
    assert answer.response.members == [d.member for d in answer.departures]
    d = coord.describe("g")
    assert sorted(m.instance_id for m in d.members) == ["pod-0", "pod-1"]
    assert d.group_epoch == epoch + 1
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_admin_leave_reports_every_partition_held_when_a_topic_is_partly_pending_revocation(
        coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a", instance_id="pod-a"))
    coord.heartbeat(join("g", "b"))
    coord.heartbeat(hb("g", "a", a.member_epoch, topic_partitions=owned(a)))
    current = coord.runtime.state.consumer["g"].current["a"]
    assert current.state == 1 and current.assigned_partitions and current.partitions_pending_revocation
    (result,) = coord.leave_group("g", [MemberIdentity(group_instance_id="pod-a")]).departures
    assert result.held == [TopicPartition("foo", p) for p in range(6)]  # 3 still assigned and 3 pending, same topic


def test_admin_leave_on_missing_group(coord: Coordinator) -> None:
    answer = coord.leave_group("nope", [MemberIdentity(group_instance_id="pod")])
    (departure,) = answer.departures
    assert (answer.response.error_code, departure.member.group_instance_id, departure.member.error_code) == (
        0, "pod", KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"])
    assert departure.error_message == "Group nope not found."


def test_partition_addition_bumps_epoch_and_reassigns(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a", ["bar"]))
    epoch = coord.describe("g").group_epoch
    coord.add_partitions("bar", 5)
    r = coord.heartbeat(hb("g", "a", a.member_epoch, topic_partitions=owned(a)))
    assert coord.describe("g").group_epoch == epoch + 1
    assert sorted(p for ps in assigned(r).values() for p in ps) == [0, 1, 2, 3, 4]


def test_regex_subscription_full_match_and_new_topics(coord: Coordinator) -> None:
    coord.create_topic("orders", 2)
    coord.create_topic("orders-eu", 2)
    r = coord.heartbeat(hb("g", "a", 0, rebalance_timeout_ms=1000, subscribed_topic_regex="orders",
                                         topic_partitions=[]))
    assert r.error_code == 0
    assert coord.runtime.state.consumer["g"].regexes["orders"].topics == ["orders"]
    r = coord.heartbeat(hb("g", "a", r.member_epoch, topic_partitions=owned(r)))
    orders = coord.topics.get("orders").topic_id
    assert assigned(r) == {orders: [0, 1]}
    b = coord.heartbeat(hb("g", "b", 0, rebalance_timeout_ms=1000, subscribed_topic_regex="orders.*",
                                          topic_partitions=[]))
    # Resolution is batched: at most one refresh per group every 10 s, as on the broker.
    assert "orders.*" not in coord.runtime.state.consumer["g"].regexes
    coord.advance(10_001)
    b = coord.heartbeat(hb("g", "b", b.member_epoch))
    assert coord.runtime.state.consumer["g"].regexes["orders.*"].topics == ["orders", "orders-eu"]
    coord.create_topic("orders-us", 1)
    coord.advance(10_001)
    coord.heartbeat(hb("g", "b", b.member_epoch))
    assert coord.runtime.state.consumer["g"].regexes["orders.*"].topics == ["orders", "orders-eu", "orders-us"]
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_a_regex_resolves_over_internal_topics_too_as_the_broker_does(coord: Coordinator) -> None:
    """Kafka 4.0 assigned `.*` subscribers __consumer_offsets and __transaction_state: no internal filter."""
    coord.create_topic("__transaction_state", 2)
    r = coord.heartbeat(hb("g", "a", 0, rebalance_timeout_ms=1000, subscribed_topic_regex=".*",
                                         topic_partitions=[]))
    assert r.error_code == 0
    assert coord.runtime.state.consumer["g"].regexes[".*"].topics == ["__transaction_state", "bar", "foo"]
    r = coord.heartbeat(hb("g", "a", r.member_epoch, topic_partitions=owned(r)))
    assert coord.topics.get("__transaction_state").topic_id in assigned(r)


def test_invalid_regex_is_rejected_with_the_brokers_message(coord: Coordinator) -> None:
    r = coord.heartbeat(hb("g", "a", 0, rebalance_timeout_ms=1000, subscribed_topic_regex="(?=x)",
                                         topic_partitions=[]))
    assert error(r) == "INVALID_REGULAR_EXPRESSION"
    assert r.error_message.startswith("SubscribedTopicRegex `(?=x)` is not a valid regular expression: ")
    assert coord.runtime.records_written == 0


def test_steady_heartbeat_writes_nothing(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a"))
    written = coord.runtime.records_written
    for _ in range(5):
        r = coord.heartbeat(hb("g", "a", a.member_epoch))
        assert r.error_code == 0 and r.assignment is None
    assert coord.runtime.records_written == written


def test_records_are_what_dump_reads_and_replay_rebuilds(coord: Coordinator) -> None:
    a = coord.heartbeat(join("g", "a", instance_id="pod-a"))
    coord.heartbeat(join("g", "b"))
    coord.heartbeat(hb("g", "a", a.member_epoch, topic_partitions=owned(a)))
    data = coord.runtime.log.segment_bytes()
    types = [decode_record(batch, r).key.type for batch in iter_batches(data, strict=True) for r in batch.records]
    assert set(types) == {3, 5, 6, 7, 8}
    rebuilt = coord.rebuild()
    assert rebuilt.runtime.state == coord.runtime.state
    assert rebuilt.runtime.state.indexes == coord.runtime.state.indexes  # kept incrementally, equal to a full rebuild
    assert rebuilt.describe("g") == coord.describe("g")


def test_metadata_hash_tracks_topics() -> None:
    import uuid

    t = uuid.UUID(int=5)
    assert metadata_hash([]) == 0
    assert metadata_hash([("a", t, 1)]) != metadata_hash([("a", t, 2)])
    assert metadata_hash([("a", t, 1), ("b", t, 1)]) == metadata_hash([("b", t, 1), ("a", t, 1)])


def test_list_and_describe_groups(coord: Coordinator) -> None:
    coord.heartbeat(join("g", "a"))
    coord.commit_offsets("simple", "", -1, [])
    from groupctl.coordinator.offsets import CommitPartition

    coord.commit_offsets("simple", "", -1, [CommitPartition("foo", 0, 42)])
    listing = {(g.group_id, g.type, g.state) for g in coord.group_listings()}
    assert listing == {("g", "consumer", "Stable"), ("simple", "classic", "Empty")}
    assert [g.group_id for g in coord.group_listings(types=["CONSUMER"])] == ["g"]
    assert [g.group_id for g in coord.group_listings(states=["empty"])] == ["simple"]
    asked = ConsumerGroupDescribeRequestData(group_ids=["g", "simple", "nope"])
    described = coord.consumer_group_describe(asked).groups
    assert described[0].error_code == 0 and described[0].group_id == "g" and coord.describe("g").type == "consumer"
    assert described[1].error_message == "Group simple is not a consumer group."
    assert described[2].error_message == "Group nope not found."


def test_assignor_change_is_recorded_and_used_at_the_next_bump_as_kafka_does(coord: Coordinator) -> None:
    """Kafka 4.x bumps the epoch only when subscribed topic names change (`hasMemberSubscriptionChanged`);
    a new ServerAssignor is persisted and picked up by the next target assignment (the KIP text lists
    assignor changes as a trigger; real Kafka wins)."""
    a = coord.heartbeat(join("g", "a", ["foo"]))
    epoch = coord.describe("g").group_epoch
    written = coord.runtime.records_written
    coord.heartbeat(hb("g", "a", a.member_epoch, server_assignor="range"))
    assert coord.runtime.records_written == written + 1  # the member record only
    assert coord.describe("g").group_epoch == epoch
    assert coord.runtime.state.consumer["g"].members["a"].server_assignor == "range"
    coord.heartbeat(join("g", "b", ["foo"]))
    d = coord.describe("g")
    assert d.group_epoch == epoch + 1 and d.assignor == "range"
    targets = {m.member_id: [p.partition for p in m.target_assignment] for m in d.members}
    assert targets == {"a": [0, 1, 2], "b": [3, 4, 5]}  # range: contiguous, sorted by member id


def test_a_member_can_always_rejoin_with_epoch_zero(coord: Coordinator) -> None:
    """KAFKA-19233 (Kafka 4.3): epoch 0 from a known member id is a rejoin, never fenced."""
    a = coord.heartbeat(join("g", "a"))
    b = coord.heartbeat(join("g", "b"))
    members = {"a": (a.member_epoch, owned(a)), "b": (b.member_epoch, owned(b))}
    settle(coord, "g", members)
    cur = coord.runtime.state.consumer["g"].current["a"]
    assert cur.previous_member_epoch > 0  # a moved through two epochs
    r = coord.heartbeat(join("g", "a"))
    assert r.error_code == 0 and r.member_epoch == cur.member_epoch
    assert owned(r) == members["a"][1]
