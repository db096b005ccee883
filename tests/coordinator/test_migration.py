"""Online migration (KIP-848 as Kafka 4.x does it): a classic group converted by its first
consumer-protocol member, classic members served inside the consumer group, the conversion back when
the last consumer-protocol member leaves, each refusal with Kafka's message, and replay == live."""

from __future__ import annotations

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.offsets import CommitPartition
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.errors import KafkaError
from groupctl.log.decode import DecodedRecord
from groupctl.model import GroupListing, GroupState
from groupctl.protocol.consumer_protocol import decode_assignment, encode_assignment, encode_subscription
from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatResponseData
from groupctl.protocol.data.groups import JoinGroupResponseData, MemberIdentity, SyncGroupResponseData
from tests.classic_requests import beat, join_req, sync_req
from tests.heartbeats import assigned, error, hb

SESSION = 10_000
REBALANCE = 30_000
TOPIC = "foo"


def subscription(owned: list[int] | None = None, *, generation: int = -1, topics: tuple[str, ...] = (TOPIC,)) -> bytes:
    """A v3 ConsumerProtocolSubscription, with the partitions the member says it owns."""
    return encode_subscription({
        "topics": list(topics), "userData": None,
        "ownedPartitions": [{"topic": TOPIC, "partitions": sorted(owned)}] if owned else [],
        "generationId": generation, "rackId": None,
    }, 3)


def assignment(partitions: list[int], user_data: bytes | None = None) -> bytes:
    return encode_assignment({"assignedPartitions": [{"topic": TOPIC, "partitions": partitions}],
                              "userData": user_data}, 3)


def partitions_of(data: bytes) -> list[int]:
    """The partitions of a ConsumerProtocolAssignment (no bytes: none)."""
    if not data:
        return []
    return sorted(p for tp in decode_assignment(data)[1]["assignedPartitions"] for p in tp["partitions"])


class Classic:
    """A classic consumer driven by hand (cooperative: it reports what it owns when it rejoins)."""

    def __init__(self, coord: Coordinator, instance_id: str | None = None, protocol: str = "range") -> None:
        self.coord, self.instance_id, self.protocol = coord, instance_id, protocol
        self.member_id = ""
        self.generation = -1
        self.owned: list[int] = []
        self.answers: list[JoinGroupResponseData | SyncGroupResponseData] = []

    def join(self, group: str = "g", **overrides: object) -> JoinGroupResponseData | None:
        fields = {"protocols": [(self.protocol, subscription(self.owned, generation=self.generation))]}
        fields.update(overrides)
        before = len(self.answers)
        self.coord.join_group(join_req(
            group, SESSION, REBALANCE, self.member_id, self.instance_id, **fields,
        ), self._joined, Caller(client_id="classic"))
        return self.answers[-1] if len(self.answers) > before else None  # type: ignore[return-value]

    def _joined(self, answer: JoinGroupResponseData) -> None:
        """Parked answers arrive later (when the rebalance completes): the client learns from each."""
        self.answers.append(answer)
        if answer.member_id:
            self.member_id = answer.member_id
        if answer.error_code == 0:
            self.generation = answer.generation_id

    def sync(self, group: str = "g", assignments: list | None = None) -> SyncGroupResponseData | None:
        before = len(self.answers)
        self.coord.sync_group(sync_req(group, self.generation, self.member_id, self.instance_id,
                                       "consumer", self.protocol, assignments or []), self.answers.append)
        if len(self.answers) == before:
            return None
        answer = self.answers[-1]
        assert isinstance(answer, SyncGroupResponseData)
        if answer.error_code == 0:
            self.owned = partitions_of(answer.assignment)
        return answer

    def heartbeat(self, group: str = "g") -> int:
        return self.coord.classic_heartbeat(beat(group, self.generation, self.member_id, self.instance_id)).error_code

    def keep_up(self) -> None:
        """Heartbeat, and rejoin when told to (what a live client does between polls)."""
        if self.heartbeat() == CODE["REBALANCE_IN_PROGRESS"]:
            self.rejoin()

    def rejoin(self) -> None:
        """Join (and, on MEMBER_ID_REQUIRED, join again) then sync: one JoinGroup round inside a consumer group."""
        answer = self.join()
        if answer is not None and answer.error_code == CODE["MEMBER_ID_REQUIRED"]:
            answer = self.join()
        assert answer is not None and answer.error_code == 0, answer
        synced = self.sync()
        assert synced is not None and synced.error_code == 0, synced


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(5), classic_settings={"group.initial.rebalance.delay.ms": 0})
    c.create_topic(TOPIC, 6)
    return c


def classic_group(coord: Coordinator, *instances: str | None) -> list[Classic]:
    """A Stable classic group of static (or dynamic, None) members at generation 1, range over foo's 6 partitions."""
    clients = [Classic(coord, instance) for instance in instances]
    for client in clients:
        answer = client.join()
        if answer is not None and answer.error_code == CODE["MEMBER_ID_REQUIRED"]:
            client.join()
    coord.advance(0)
    leader = next(c for c in clients if c.answers and c.answers[-1].members)
    plan = [(m.member_id, assignment([p for p in range(6) if p % len(clients) == i]))
            for i, m in enumerate(leader.answers[-1].members)]
    for client in clients:
        client.sync(assignments=plan if client is leader else None)
    assert coord.classic.groups["g"].state == GroupState.STABLE
    return clients


def consumer_join(coord: Coordinator, member_id: str = "k1", instance_id: str | None = None,
                  topics: tuple[str, ...] = (TOPIC,)) -> ConsumerGroupHeartbeatResponseData:
    return coord.heartbeat(hb("g", member_id, 0, instance_id=instance_id, rebalance_timeout_ms=REBALANCE,
                              subscribed_topic_names=list(topics), topic_partitions=[]))


def consumer_ack(coord: Coordinator, member_id: str, epoch: int, owned: dict) -> ConsumerGroupHeartbeatResponseData:
    return coord.heartbeat(hb("g", member_id, epoch, topic_partitions=list(owned.items())))


def records_since(coord: Coordinator, offset: int) -> list[DecodedRecord]:
    return list(coord.runtime.log.read())[offset:]


def converge(coord: Coordinator, classics: list[Classic], consumers: dict[str, ConsumerGroupHeartbeatResponseData],
             rounds: int = 8) -> None:
    """Every member acts on what it is told until nobody is asked to rejoin and every partition is owned once."""
    for _ in range(rounds):
        for client in classics:
            client.keep_up()
        for member_id, last in list(consumers.items()):
            owned = dict(assigned(last) or {})
            consumers[member_id] = answer = consumer_ack(coord, member_id, last.member_epoch, owned)
            if answer.assignment is None:
                consumers[member_id] = ConsumerGroupHeartbeatResponseData(
                    member_id=member_id, member_epoch=answer.member_epoch, assignment=last.assignment)
    held = [p for c in classics for p in c.owned]
    held += [p for a in consumers.values() for ps in (assigned(a) or {}).values() for p in ps]
    assert sorted(held) == list(range(6)), held


# -- upgrade -----------------------------------------------------------------------------------------------


def test_first_consumer_member_converts_the_classic_group_as_kafka_does(coord: Coordinator) -> None:
    a, b = classic_group(coord, "pod-a", "pod-b")
    offset = coord.runtime.log.next_offset
    answer = consumer_join(coord)
    assert answer.error_code == 0 and answer.member_epoch == 2
    assert "g" not in coord.classic.groups and "g" in coord.runtime.state.consumer
    kinds = [(r.key.type, r.value is None) for r in records_since(coord, offset)]
    # the classic tombstone, then createConsumerGroupRecords (5, 5, 3, 7, 7, 6, 8, 8), then the joining member
    assert kinds[:9] == [(2, True), (5, False), (5, False), (3, False), (7, False), (7, False), (6, False),
                         (8, False), (8, False)]
    converted = records_since(coord, offset)
    epoch = next(r for r in converted if r.key.type == 3)
    assert epoch.value.data["epoch"] == 1  # the classic generation
    metadata = [r.value.data for r in converted[1:3]]
    assert {m["instanceId"] for m in metadata} == {"pod-a", "pod-b"}
    assert all(m["classicMemberMetadata"]["sessionTimeoutMs"] == SESSION for m in metadata)
    assert all(m["classicMemberMetadata"]["supportedProtocols"][0]["name"] == "range" for m in metadata)
    described = coord.describe("g")
    assert described.type == "consumer"
    assert sorted(m.protocol for m in described.members) == ["classic", "classic", "consumer"]
    assert {m.member_id: m.member_epoch for m in described.members if m.protocol == "classic"} == {
        a.member_id: 1, b.member_id: 1}
    assert coord.group_listings()[0].type == "consumer"
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_classic_members_rejoin_reconcile_and_everyone_converges(coord: Coordinator) -> None:
    a, b = classic_group(coord, "pod-a", "pod-b")
    k = consumer_join(coord)
    assert a.heartbeat() == CODE["REBALANCE_IN_PROGRESS"]  # member epoch 1 < group epoch 2
    answer = a.join()
    assert answer is not None and answer.error_code == 0
    assert (answer.protocol_type, answer.protocol_name, answer.leader, answer.members) == ("consumer", "range", "", [])
    converge(coord, [a, b], {"k1": k})
    described = coord.describe("g")
    assert described.state == GroupState.STABLE
    assert all(m.member_epoch == described.group_epoch for m in described.members)
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_a_parked_classic_join_is_told_to_rejoin_by_the_conversion(coord: Coordinator) -> None:
    a, _ = classic_group(coord, "pod-a", "pod-b")
    assert a.join(protocols=[("range", subscription(topics=(TOPIC, "bar")))]) is None  # a rebalance starts
    assert consumer_join(coord).error_code == 0
    assert a.answers[-1].error_code == CODE["REBALANCE_IN_PROGRESS"]


@pytest.mark.parametrize(("policy", "upgrades"), [("bidirectional", True), ("upgrade", True), ("downgrade", False),
                                                  ("disabled", False)])
def test_upgrade_follows_the_migration_policy(policy: str, upgrades: bool) -> None:
    coord = Coordinator(ids=IdGenerator(5), classic_settings={"group.initial.rebalance.delay.ms": 0}, migration=policy)
    coord.create_topic(TOPIC, 6)
    classic_group(coord, "pod-a")
    answer = consumer_join(coord)
    if upgrades:
        assert answer.error_code == 0
        return
    assert (error(answer), answer.error_message) == (
        "GROUP_ID_NOT_FOUND", "Cannot upgrade classic group g to consumer group because online upgrade is disabled.")
    assert coord.classic.groups["g"].state == GroupState.STABLE


def test_upgrade_refused_for_a_group_not_using_the_consumer_protocol(coord: Coordinator) -> None:
    connect = Classic(coord, "worker-1")
    assert connect.join(protocol_type="connect", protocols=[("sessioned", b"\x00\x01")]) is None
    coord.advance(0)
    answer = consumer_join(coord)
    assert (error(answer), answer.error_message) == (
        "GROUP_ID_NOT_FOUND",
        "Cannot upgrade classic group g to consumer group because the group does not use the consumer embedded "
        "protocol.")


def test_upgrade_refused_when_the_group_exceeds_the_consumer_group_size() -> None:
    coord = Coordinator(ids=IdGenerator(5), classic_settings={"group.initial.rebalance.delay.ms": 0}, max_group_size=1)
    coord.create_topic(TOPIC, 6)
    classic_group(coord, "pod-a", "pod-b")
    answer = consumer_join(coord)
    assert answer.error_message == ("Cannot upgrade classic group g to consumer group because the group size exceeds "
                                    "the consumer group maximum size.")


def test_upgrade_refused_for_a_custom_assignors_user_data(coord: Coordinator) -> None:
    a = Classic(coord, "pod-a")
    a.join()
    coord.advance(0)
    a.sync(assignments=[(a.member_id, assignment([0, 1], user_data=b"sticky"))])
    answer = consumer_join(coord)
    assert answer.error_message == (
        "Cannot upgrade classic group g to consumer group because an unsupported custom assignor is in use. Please "
        "refer to the documentation or switch to a default assignor before re-attempting the upgrade.")


def test_upgrade_refused_for_a_malformed_embedded_protocol(coord: Coordinator) -> None:
    a = Classic(coord, "pod-a")
    a.join(protocols=[("range", b"\x00")])
    coord.advance(0)
    assert a.sync(assignments=[]).error_code == 0
    answer = consumer_join(coord)
    assert answer.error_message == ("Cannot upgrade classic group g to consumer group because the embedded consumer "
                                    "protocol is malformed.")


def test_a_failing_joining_heartbeat_leaves_the_group_classic_and_writes_nothing() -> None:
    """The group may be converted (2 members, at most 2) but the joining member does not fit: the heartbeat's
    GROUP_MAX_SIZE_REACHED stands and the classic group is as it was."""
    coord = Coordinator(ids=IdGenerator(5), classic_settings={"group.initial.rebalance.delay.ms": 0}, max_group_size=2)
    coord.create_topic(TOPIC, 6)
    classic_group(coord, "pod-a", "pod-b")
    offset = coord.runtime.log.next_offset
    answer = consumer_join(coord)
    assert error(answer) == "GROUP_MAX_SIZE_REACHED"
    assert coord.runtime.log.next_offset == offset
    assert coord.classic.groups["g"].state == GroupState.STABLE and "g" not in coord.runtime.state.consumer


def test_a_consumer_protocol_restart_takes_its_classic_predecessors_place(coord: Coordinator) -> None:
    """KAFKA-17228: a classic static member sends nothing when it closes, so its consumer-protocol successor
    with the same instance id replaces it at once (no UNRELEASED_INSTANCE_ID), keeping its partitions."""
    a, _ = classic_group(coord, "pod-a", "pod-b")
    answer = consumer_join(coord, "k1", instance_id="pod-a")
    assert answer.error_code == 0
    group = coord.runtime.state.consumer["g"]
    assert a.member_id not in group.members and group.members["k1"].instance_id == "pod-a"
    assert sorted(p for ps in (assigned(answer) or {}).values() for p in ps) == a.owned
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_an_empty_consumer_group_is_replaced_by_a_classic_join(coord: Coordinator) -> None:
    k = consumer_join(coord)
    coord.heartbeat(hb("g", "k1", -1))
    assert coord.group_listings()[0].state == GroupState.EMPTY and k.error_code == 0
    classic_group(coord, "pod-a")
    assert [(g.type, g.state) for g in coord.group_listings()] == [("classic", GroupState.STABLE)]
    assert coord.rebuild().group_listings() == coord.group_listings()


# -- classic members inside a consumer group ---------------------------------------------------------------


def mixed(coord: Coordinator) -> tuple[Classic, Classic]:
    a, b = classic_group(coord, "pod-a", "pod-b")
    converge(coord, [a, b], {"k1": consumer_join(coord)})
    return a, b


def test_a_new_dynamic_classic_member_gets_member_id_required_then_joins(coord: Coordinator) -> None:
    mixed(coord)
    c = Classic(coord)
    first = c.join()
    assert first is not None and (first.error_code, bool(first.member_id)) == (CODE["MEMBER_ID_REQUIRED"], True)
    epoch = coord.runtime.state.consumer["g"].epoch
    second = c.join()
    assert second is not None and second.error_code == 0
    assert coord.runtime.state.consumer["g"].epoch == epoch + 1


def test_a_classic_member_must_share_a_protocol_with_the_classic_members(coord: Coordinator) -> None:
    mixed(coord)
    c = Classic(coord, "pod-c", protocol="roundrobin")
    answer = c.join()
    assert answer is not None and answer.error_code == CODE["INCONSISTENT_GROUP_PROTOCOL"]


def test_sync_and_heartbeat_errors_inside_a_consumer_group(coord: Coordinator) -> None:
    a, _ = mixed(coord)
    assert a.sync() is not None and a.answers[-1].error_code == 0
    stale = Classic(coord, "pod-a")
    stale.member_id, stale.generation = "someone-else", a.generation
    assert stale.heartbeat() == CODE["FENCED_INSTANCE_ID"]
    stranger = Classic(coord)
    stranger.member_id, stranger.generation = "nobody", 1
    assert stranger.heartbeat() == CODE["UNKNOWN_MEMBER_ID"]
    stranger.sync()
    assert stranger.answers[-1].error_code == CODE["UNKNOWN_MEMBER_ID"]
    consumer_member = Classic(coord)
    consumer_member.member_id, consumer_member.generation = "k1", a.generation
    assert consumer_member.heartbeat() == CODE["UNKNOWN_MEMBER_ID"]  # it does not use the classic protocol
    a.generation -= 1
    assert a.heartbeat() == CODE["ILLEGAL_GENERATION"]
    a.sync()
    assert a.answers[-1].error_code == CODE["ILLEGAL_GENERATION"]
    a.generation += 1
    coord.sync_group(sync_req("g", a.generation, a.member_id, "pod-a", "consumer", "roundrobin"),
                     a.answers.append)
    assert a.answers[-1].error_code == CODE["INCONSISTENT_GROUP_PROTOCOL"]


def test_a_classic_member_that_does_not_rejoin_is_fenced_after_its_rebalance_timeout(coord: Coordinator) -> None:
    a, b = mixed(coord)
    consumer_join(coord, "k2")  # the group epoch moves past a and b
    assert a.heartbeat() == CODE["REBALANCE_IN_PROGRESS"]
    b.rejoin()
    for _ in range(REBALANCE // 5_000 - 1):  # both stay alive; only b rejoined
        coord.advance(5_000)
        assert a.heartbeat() == CODE["REBALANCE_IN_PROGRESS"]
        b.keep_up()
    coord.advance(4_999)
    assert a.member_id in coord.runtime.state.consumer["g"].members
    coord.advance(1)
    assert a.member_id not in coord.runtime.state.consumer["g"].members
    assert b.member_id in coord.runtime.state.consumer["g"].members


def test_a_classic_members_session_is_its_own_not_the_groups(coord: Coordinator) -> None:
    a, b = mixed(coord)
    for _ in range(4):  # the consumer member keeps heartbeating; b and k1 stay, a is silent
        coord.advance(SESSION // 3)
        b.heartbeat()
        consumer_ack(coord, "k1", coord.runtime.state.consumer["g"].current["k1"].member_epoch, {})
    assert a.member_id not in coord.runtime.state.consumer["g"].members
    assert b.member_id in coord.runtime.state.consumer["g"].members


def test_offset_commits_from_both_kinds_of_member(coord: Coordinator) -> None:
    a, _ = mixed(coord)
    committed = coord.commit_offsets("g", a.member_id, a.generation, [CommitPartition(TOPIC, 0, 5)], version=8)
    assert [p.error_code for p in committed] == [0]
    with pytest.raises(KafkaError) as wrong:
        coord.commit_offsets("g", a.member_id, a.generation + 7, [CommitPartition(TOPIC, 0, 6)], version=8)
    assert wrong.value.name == "ILLEGAL_GENERATION"
    epoch = coord.runtime.state.consumer["g"].current["k1"].member_epoch
    with pytest.raises(KafkaError) as old:
        coord.commit_offsets("g", "k1", epoch, [CommitPartition(TOPIC, 1, 5)], version=8)
    assert old.value.name == "UNSUPPORTED_VERSION"
    with pytest.raises(KafkaError) as stale:
        coord.commit_offsets("g", "k1", epoch + 1, [CommitPartition(TOPIC, 1, 5)], version=9)
    assert stale.value.name == "STALE_MEMBER_EPOCH"


# -- downgrade ---------------------------------------------------------------------------------------------


def test_the_last_consumer_member_leaving_converts_the_group_back(coord: Coordinator) -> None:
    a, b = mixed(coord)
    epoch = coord.runtime.state.consumer["g"].epoch
    targets = {m: sorted(p for t in coord.runtime.state.consumer["g"].targets[m].topic_partitions for p in t.partitions)
               for m in (a.member_id, b.member_id)}
    offset = coord.runtime.log.next_offset
    left = coord.heartbeat(hb("g", "k1", -1))
    assert left.error_code == 0 and left.member_epoch == -1
    group = coord.classic.groups["g"]
    assert "g" not in coord.runtime.state.consumer
    assert (group.state, group.generation, group.protocol_type, group.protocol_name) == (
        GroupState.PREPARING_REBALANCE, epoch, "consumer", "range")
    written = records_since(coord, offset)
    assert written[-1].key.type == 2 and written[-1].value is not None
    assert all(r.value is None for r in written[:-1])  # the consumer group's tombstones first
    stored = {m["memberId"]: sorted(p for tp in decode_assignment(m["assignment"])[1]["assignedPartitions"]
                                    for p in tp["partitions"]) for m in written[-1].value.data["members"]}
    assert stored == targets  # each member's target, not what it held
    assert a.heartbeat() == CODE["REBALANCE_IN_PROGRESS"]
    # a failover loads the last GroupMetadataValue: Stable at that generation, as Kafka loads it
    assert coord.rebuild().group_listings() == [GroupListing("g", "classic", GroupState.STABLE, "consumer", 2)]


@pytest.mark.parametrize("policy", ["upgrade", "disabled"])
def test_without_downgrade_the_group_stays_a_consumer_group(policy: str) -> None:
    coord = Coordinator(ids=IdGenerator(5), classic_settings={"group.initial.rebalance.delay.ms": 0})
    coord.create_topic(TOPIC, 6)
    mixed(coord)
    coord.runtime.migration = policy
    coord.heartbeat(hb("g", "k1", -1))
    assert "g" in coord.runtime.state.consumer and "g" not in coord.classic.groups
    assert sorted(m.protocol for m in coord.describe("g").members) == ["classic", "classic"]


def test_a_consumer_member_whose_session_expires_converts_the_group_back(coord: Coordinator) -> None:
    a, b = mixed(coord)
    for _ in range(6):  # the classic members heartbeat; the consumer member is silent past its 45 s session
        coord.advance(9_000)
        a.heartbeat()
        b.heartbeat()
    assert coord.classic.groups["g"].state == GroupState.PREPARING_REBALANCE
    a.join()
    b.join()
    group = coord.classic.groups["g"]
    assert group.state == GroupState.COMPLETING_REBALANCE and group.generation == a.generation


def test_a_classic_member_leaving_never_downgrades(coord: Coordinator) -> None:
    a, _ = mixed(coord)
    answer = coord.leave_group("g", [MemberIdentity(member_id=a.member_id, group_instance_id="pod-a")])
    assert [m.error_code for m in answer.response.members] == [0]
    assert "g" in coord.runtime.state.consumer


def test_a_static_consumer_member_replaced_by_a_classic_one_downgrades(coord: Coordinator) -> None:
    classic_group(coord, "pod-a")
    assert consumer_join(coord, "k1", instance_id="pod-k").error_code == 0
    coord.heartbeat(hb("g", "k1", -2, instance_id="pod-k"))  # leaves for a while, keeping its place
    k = Classic(coord, "pod-k")
    answer = k.join()
    assert answer is not None and answer.error_code == 0
    group = coord.classic.groups["g"]
    assert "g" not in coord.runtime.state.consumer
    assert sorted(m.instance_id for m in group.members.values()) == ["pod-a", "pod-k"]
    assert group.static["pod-k"] == k.member_id
    assert coord.rebuild().group_listings() == coord.group_listings()


def test_upgrade_then_downgrade_replays_to_the_live_state(coord: Coordinator) -> None:
    a, b = mixed(coord)
    coord.heartbeat(hb("g", "k1", -1))
    a.join()
    b.join()
    leader = a if coord.classic.groups["g"].leader == a.member_id else b
    other = b if leader is a else a
    other.sync()
    leader.sync(assignments=[(a.member_id, assignment([0, 1, 2])), (b.member_id, assignment([3, 4, 5]))])
    rebuilt = coord.rebuild()
    assert rebuilt.runtime.state == coord.runtime.state
    assert rebuilt.describe("g").members == coord.describe("g").members


def test_the_migration_policy_is_checked_when_set() -> None:
    with pytest.raises(ValueError) as bad:
        Coordinator(migration="sideways")
    assert str(bad.value) == ("group.consumer.migration.policy must be one of disabled, upgrade, downgrade, "
                              "bidirectional, not 'sideways'")
    assert Coordinator(migration="UPGRADE").runtime.migration == "upgrade"
