"""Classic groups through the router: JoinGroup/SyncGroup/Heartbeat/LeaveGroup with KIP-345 static
membership and KIP-394 member ids, the records Kafka writes for them, and replay equal to the live group."""

from __future__ import annotations

import pytest

from groupctl.coordinator.classic import COMPLETING_REBALANCE, EMPTY, PREPARING_REBALANCE, STABLE
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.data.group_admin import DescribedGroup, DescribeGroupsRequestData
from groupctl.protocol.data.groups import JoinGroupResponseData, MemberIdentity, SyncGroupResponseData
from tests.classic_requests import beat, join_req, sync_req

SESSION = 10_000
REBALANCE = 30_000


def subscription(*topics: str) -> bytes:
    return encode_subscription({"topics": list(topics), "userData": None}, 0)


class Client:
    """A classic consumer driven by hand: remembers its id and generation, collects responses."""

    def __init__(self, coord: Coordinator, name: str, instance_id: str | None = None, version: int = 9) -> None:
        self.coord, self.name, self.instance_id, self.version = coord, name, instance_id, version
        self.member_id = ""
        self.generation = -1
        self.joined: list[JoinGroupResponseData] = []
        self.synced: list[SyncGroupResponseData] = []

    def join(self, group: str = "g") -> JoinGroupResponseData | None:
        before = len(self.joined)
        self.coord.join_group(join_req(
            group, SESSION, REBALANCE, self.member_id, self.instance_id, protocols=[("range", subscription("foo"))],
        ), self._on_join, Caller(client_id=self.name, api_version=self.version))
        return self.joined[-1] if len(self.joined) > before else None

    def _on_join(self, response: JoinGroupResponseData) -> None:
        self.joined.append(response)
        if response.member_id:
            self.member_id = response.member_id
        if response.error_code == 0:
            self.generation = response.generation_id

    def sync(self, group: str = "g", assignments: list | None = None) -> SyncGroupResponseData | None:
        before = len(self.synced)
        self.coord.sync_group(sync_req(group, self.generation, self.member_id, self.instance_id,
                                       assignments=assignments or []), self.synced.append)
        return self.synced[-1] if len(self.synced) > before else None

    def heartbeat(self, group: str = "g") -> int:
        return self.coord.classic_heartbeat(beat(group, self.generation, self.member_id, self.instance_id)).error_code


def assign_all(response: JoinGroupResponseData, partitions: int = 6) -> list[tuple[str, bytes]]:
    """The leader's assignment: range over foo's partitions, members in the order the leader got them."""
    ids = [m.member_id for m in response.members]
    out = []
    for i, member_id in enumerate(ids):
        mine = [p for p in range(partitions) if p % len(ids) == i]
        out.append((member_id, encode_assignment({"assignedPartitions": [{"topic": "foo", "partitions": mine}],
                                                  "userData": None}, 0)))
    return out


def stabilise(coord: Coordinator, clients: list[Client]) -> None:
    """Everyone joins (the initial delay passes), the leader assigns, everyone syncs."""
    for client in clients:
        r = client.join()
        if r is not None and r.error_code == CODE["MEMBER_ID_REQUIRED"]:
            client.join()
    group = coord.classic.groups["g"]
    for _ in range(REBALANCE // 1000):
        if group.state == COMPLETING_REBALANCE:
            break
        coord.advance(1000)
    assert group.state == COMPLETING_REBALANCE, group.state
    leader = next(c for c in clients if c.member_id == group.leader)
    for client in clients:
        if client is not leader:
            client.sync()
    leader.sync(assignments=assign_all(leader.joined[-1]))
    assert group.state == STABLE


def projection(coord: Coordinator, group_id: str = "g") -> tuple:
    """What a rebuilt coordinator loads: generation, protocol, leader, members with instance ids and assignments."""
    group = coord.classic.groups[group_id]
    return (group.generation, group.protocol_type, group.protocol_name, group.leader,
            sorted((m.member_id, m.instance_id, m.assignment) for m in group.members.values()))


@pytest.fixture
def coord() -> Coordinator:
    c = Coordinator(ids=IdGenerator(11))
    c.create_topic("foo", 6)
    return c


def test_kip394_member_id_required_then_join_and_pending_expiry(coord: Coordinator) -> None:
    a = Client(coord, "app")
    r = a.join()
    assert r.error_code == CODE["MEMBER_ID_REQUIRED"] and r.member_id.startswith("app-")
    assert r.member_id in coord.classic.groups["g"].pending_join
    assert a.join() is None  # parked: the initial rebalance delay is running
    late = Client(coord, "late")
    assert late.join().error_code == CODE["MEMBER_ID_REQUIRED"]
    coord.advance(3_000)
    assert a.joined[-1].error_code == 0 and a.joined[-1].generation_id == 1
    assert [m.member_id for m in a.joined[-1].members] == [a.member_id]
    assert late.member_id in coord.classic.groups["g"].pending_join
    coord.advance(SESSION)  # `late` never comes back with its id: the pending member expires
    assert late.member_id not in coord.classic.groups["g"].pending_join


def test_old_join_versions_join_directly(coord: Coordinator) -> None:
    a = Client(coord, "old", version=3)
    assert a.join() is None
    coord.advance(3_000)
    assert a.joined[-1].error_code == 0 and a.member_id.startswith("old-")


def test_static_rejoin_with_unknown_member_id_while_stable_keeps_generation_and_assignment(coord: Coordinator) -> None:
    clients = [Client(coord, f"c{i}", f"pod-{i}") for i in range(3)]
    stabilise(coord, clients)
    before = projection(coord)
    old_id = clients[1].member_id
    old_assignment = coord.classic.groups["g"].members[old_id].assignment
    restarted = Client(coord, "c1", "pod-1")
    r = restarted.join()
    assert r.error_code == 0 and r.member_id != old_id and r.member_id.startswith("pod-1-")
    assert r.generation_id == before[0] and not r.skip_assignment
    s = restarted.sync()
    assert (s.error_code, s.assignment) == (0, old_assignment)
    group = coord.classic.groups["g"]
    assert group.state == STABLE and group.generation == before[0]
    # The old incarnation is fenced.
    assert clients[1].heartbeat() == CODE["FENCED_INSTANCE_ID"]
    # The new member id is persisted with the instance id (GroupMetadataValue v3), and replay loads it.
    rebuilt = coord.rebuild()
    assert projection(rebuilt) == projection(coord)
    assert coord.runtime.state.classic["g"].raw_members[1].group_instance_id in {"pod-0", "pod-1", "pod-2"}


def test_static_leader_rejoin_skips_assignment_on_v9(coord: Coordinator) -> None:
    clients = [Client(coord, f"c{i}", f"pod-{i}") for i in range(2)]
    stabilise(coord, clients)
    group = coord.classic.groups["g"]
    leader = next(c for c in clients if c.member_id == group.leader)
    again = Client(coord, "again", leader.instance_id)
    r = again.join()
    assert r.skip_assignment and r.leader == again.member_id and len(r.members) == 2
    assert group.generation == 1


def test_new_static_member_and_known_member_cases(coord: Coordinator) -> None:
    clients = [Client(coord, "c0", "pod-0")]
    stabilise(coord, clients)
    # Known member id with an instance id mapped to another member: fenced.
    intruder = Client(coord, "x", "pod-0")
    intruder.member_id = "someone-else"
    assert intruder.join().error_code == CODE["FENCED_INSTANCE_ID"]
    # Known member id with an unknown instance id / an unknown member id: UNKNOWN_MEMBER_ID.
    ghost = Client(coord, "g", "pod-9")
    ghost.member_id = clients[0].member_id
    assert ghost.join().error_code == CODE["UNKNOWN_MEMBER_ID"]
    nobody = Client(coord, "n")
    nobody.member_id = "nobody"
    assert nobody.join().error_code == CODE["UNKNOWN_MEMBER_ID"]
    # An unknown member id with a new instance id: a new static member, and a rebalance.
    newcomer = Client(coord, "c1", "pod-1")
    assert newcomer.join() is None
    assert coord.classic.groups["g"].state == PREPARING_REBALANCE


def test_rebalance_timeout_keeps_static_members_that_did_not_rejoin(coord: Coordinator) -> None:
    static, dynamic = Client(coord, "s", "pod-s"), Client(coord, "d", version=3)
    stabilise(coord, [static, dynamic])
    generation = coord.classic.groups["g"].generation
    joiner = Client(coord, "j", version=3)
    joiner.join()  # triggers a rebalance; s and d keep heartbeating but never rejoin
    for _ in range(REBALANCE // 5_000):
        coord.advance(5_000)
        static.heartbeat()
        dynamic.heartbeat()
    group = coord.classic.groups["g"]
    assert group.state == COMPLETING_REBALANCE and group.generation == generation + 1
    assert static.member_id in group.members  # static: kept although it did not rejoin
    assert dynamic.member_id not in group.members  # dynamic: removed


def test_expired_static_member_comes_back_as_new(coord: Coordinator) -> None:
    a, b = Client(coord, "a", "pod-a"), Client(coord, "b", "pod-b")
    stabilise(coord, [a, b])
    for _ in range(3):
        coord.advance(SESSION // 2)
        assert b.heartbeat() in (0, CODE["REBALANCE_IN_PROGRESS"])
    assert "pod-a" not in coord.classic.groups["g"].static  # a's session expired
    back = Client(coord, "a", "pod-a")
    assert back.join() is None  # a new static member: parked until the rebalance completes
    group = coord.classic.groups["g"]
    new_id = group.static["pod-a"]
    assert new_id.startswith("pod-a-") and new_id != a.member_id
    assert group.state == PREPARING_REBALANCE
    b.join()
    assert back.joined[-1].member_id == new_id and back.joined[-1].generation_id == group.generation


def test_heartbeat_errors(coord: Coordinator) -> None:
    a = Client(coord, "a", version=3)
    stabilise(coord, [a])
    assert a.heartbeat() == 0
    a.generation += 1
    assert a.heartbeat() == CODE["ILLEGAL_GENERATION"]
    assert coord.classic_heartbeat(beat("nope", 1, "x")).error_code == CODE["UNKNOWN_MEMBER_ID"]


def test_batch_leave_by_instance_id_mixes_known_and_unknown(coord: Coordinator) -> None:
    clients = [Client(coord, f"c{i}", f"pod-{i}") for i in range(4)]
    stabilise(coord, clients)
    answer = coord.leave_group("g", [
        MemberIdentity(group_instance_id="pod-2", reason="scale down"), MemberIdentity(group_instance_id="pod-7"),
        MemberIdentity(group_instance_id="pod-3"), MemberIdentity(member_id="wrong-id", group_instance_id="pod-0"),
    ])
    assert [(d.member.group_instance_id, d.member.error_code) for d in answer.departures] == [
        ("pod-2", 0), ("pod-7", CODE["UNKNOWN_MEMBER_ID"]), ("pod-3", 0), ("pod-0", CODE["FENCED_INSTANCE_ID"])
    ]
    assert answer.departures[0].removed_member_id == clients[2].member_id
    assert answer.response.members == [d.member for d in answer.departures]
    group = coord.classic.groups["g"]
    assert sorted(group.static) == ["pod-0", "pod-1"]
    assert group.state == PREPARING_REBALANCE


def test_everyone_leaving_empties_the_group_with_a_record(coord: Coordinator) -> None:
    a = Client(coord, "a", version=3)
    stabilise(coord, [a])
    coord.leave_group("g", [MemberIdentity(member_id=a.member_id)])
    group = coord.classic.groups["g"]
    assert group.state == EMPTY and group.generation == 2
    assert coord.runtime.state.classic["g"].generation == 2 and not coord.runtime.state.classic["g"].raw_members
    assert projection(coord.rebuild()) == projection(coord)


def test_records_are_group_metadata_v3_and_offsets_need_the_generation(coord: Coordinator) -> None:
    from groupctl.coordinator.offsets import CommitPartition
    from groupctl.errors import KafkaError

    a = Client(coord, "a", "pod-a")
    stabilise(coord, [a])
    data = coord.runtime.log.segment_bytes()
    from groupctl.log.decode import decode_record
    from groupctl.log.segment import iter_batches

    values = [decode_record(b, r).value for b in iter_batches(data) for r in b.records]
    assert {v.version for v in values} == {3}
    last = values[-1].data
    assert last["members"][0]["groupInstanceId"] == "pod-a" and last["generation"] == 1
    coord.commit_offsets("g", a.member_id, 1, [CommitPartition("foo", 0, 5)], instance_id="pod-a")
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", a.member_id, 0, [CommitPartition("foo", 0, 6)])
    assert info.value.name == "ILLEGAL_GENERATION"
    with pytest.raises(KafkaError) as info:
        coord.commit_offsets("g", "", -1, [CommitPartition("foo", 0, 6)])
    assert info.value.name == "UNKNOWN_MEMBER_ID"
    described = coord.describe("g")
    assert described.type == "classic" and described.state == "Stable" and described.members[0].instance_id == "pod-a"
    assert [(o.partition, o.offset) for o in described.offsets] == [(0, 5)]
    assert {g.group_id: g.state for g in coord.group_listings()} == {"g": "Stable"}


def test_sync_group_errors(coord: Coordinator) -> None:
    a = Client(coord, "a", version=3)
    a.join()
    coord.advance(3_000)
    bad = sync_req("g", a.generation + 1, a.member_id)
    got: list = []
    coord.sync_group(bad, got.append)
    assert got[0].error_code == CODE["ILLEGAL_GENERATION"]
    coord.sync_group(sync_req("g", a.generation, a.member_id, protocol_name="roundrobin"), got.append)
    assert got[1].error_code == CODE["INCONSISTENT_GROUP_PROTOCOL"]


def test_session_timeout_validated(coord: Coordinator) -> None:
    got: list = []
    coord.join_group(join_req("g", 1_000, protocols=[("range", b"")]), got.append)
    assert got[0].error_code == CODE["INVALID_SESSION_TIMEOUT"]


def test_consumer_protocol_bytes_decode_in_describe(coord: Coordinator) -> None:
    a = Client(coord, "a", version=3)
    stabilise(coord, [a])
    member = coord.describe("g").members[0]
    assert member.subscribed_topics == ["foo"]
    assert sorted(p.partition for p in member.assignment) == list(range(6))


def test_describe_groups(coord: Coordinator) -> None:
    a = Client(coord, "a", "pod-a")
    stabilise(coord, [a])
    coord.commit_offsets("simple", "", -1, [])
    from groupctl.coordinator.offsets import CommitPartition

    coord.commit_offsets("simple", "", -1, [CommitPartition("foo", 1, 3)])
    stable, simple, missing = described(coord, ["g", "simple", "nope"], 5)
    assert (stable.group_state, stable.protocol_type, stable.protocol_data) == ("Stable", "consumer", "range")
    member = stable.members[0]
    assert (member.member_id, member.group_instance_id, member.client_id) == (a.member_id, "pod-a", "a")
    assert member.member_metadata == subscription("foo") and member.member_assignment
    assert (simple.group_state, simple.protocol_type, simple.members) == ("Empty", "", [])
    assert (missing.group_state, missing.error_code) == ("Dead", 0)
    (v6,) = described(coord, ["nope"], 6)
    assert (v6.error_code, v6.error_message) == (CODE["GROUP_ID_NOT_FOUND"], "Group nope not found.")
    newcomer = Client(coord, "b", "pod-b")
    newcomer.join()
    (rebalancing,) = described(coord, ["g"], 5)
    assert rebalancing.group_state == "PreparingRebalance" and rebalancing.protocol_data == ""
    assert all(m.member_metadata == b"" and m.member_assignment == b"" for m in rebalancing.members)


def described(coord: Coordinator, group_ids: list[str], version: int) -> list[DescribedGroup]:
    """DescribeGroups at `version`: the groups of the answer."""
    return coord.describe_groups(DescribeGroupsRequestData(groups=group_ids), Caller(api_version=version)).groups


def test_a_rebalance_whose_members_all_left_still_accepts_joins(coord: Coordinator) -> None:
    """As Kafka's supportsProtocols: with no members, every protocol is supported by all of them."""
    a = Client(coord, "a", "pod-a")
    a.join()  # the initial rebalance starts (PreparingRebalance, delayed)
    coord.leave_group("g", [MemberIdentity(group_instance_id="pod-a")])
    group = coord.classic.groups["g"]
    assert group.state == PREPARING_REBALANCE and not group.members
    b = Client(coord, "b", "pod-b")
    assert b.join() is None  # parked, not INCONSISTENT_GROUP_PROTOCOL
    coord.advance(REBALANCE)  # the initial delay, extended once since b is a new member
    assert b.joined[-1].error_code == 0 and b.joined[-1].generation_id == 1
