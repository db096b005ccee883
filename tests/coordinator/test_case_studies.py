"""KIP-848's "Case Studies" (Basic; Incremental Revocation & Assignment; Member Failure; Partition Added),
step by step, then the static-member, timeout and lost-response rules around them.

Each step asserts the three blocks of the KIP's pictures: the group epoch and its members, the target
assignment and its epoch, and every member's epoch, partitions and `pending-partitions` (plus the
reconciliation state Kafka stores: UNREVOKED_PARTITIONS while a revocation is unacknowledged,
UNRELEASED_PARTITIONS while a target partition waits for its previous owner).

Two differences from the KIP's pictures hold throughout, as in Kafka's `GroupMetadataManager`:

* the heartbeat that bumps the group epoch also computes the new target assignment and reconciles the
  member that sent it, so "X joins / bumps the epoch", "the coordinator computes the target" and "X
  heartbeats" are one observable step (a joining member is never seen at epoch 0);
* an epoch bump that no heartbeat causes (a session timeout, new partitions) leaves the target alone
  until the next heartbeat: the group is then `Assigning` (group epoch > target epoch).

The members are named A, B, C (v1 clients choose their member id): the uniform assignor breaks ties
by member id order, and naming them so gives the order the KIP's pictures assume.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.consumer import STATIC_LEAVE_EPOCH
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatResponseData
from groupctl.simulation.clients import ConsumerClient
from tests.heartbeats import assigned, error, hb

SESSION_TIMEOUT_MS = 45_000
REBALANCE_TIMEOUT_MS = 30_000  # sent in full requests; no study waits for it (the two that do set their own)


def new_coordinator(partitions: int, seed: int = 848) -> Coordinator:
    coord = Coordinator(clock=ManualClock(), ids=IdGenerator(seed))
    coord.create_topic("foo", partitions)
    return coord


def foo(*partitions: int) -> list[str]:
    return [f"foo-{p}" for p in partitions]


def consumer(coord: Coordinator, name: str, topics: tuple[str, ...] = ("foo",), *, version: int = 1,
             instance_id: str | None = None, rebalance_timeout_ms: int = REBALANCE_TIMEOUT_MS,
             regex: str | None = None) -> ConsumerClient:
    """A started KIP-848 client; a v1 one joins with its name as member id (KIP-1082: the client chooses it),
    a v0 one with none (the coordinator's). The steps below send its heartbeats one by one (`send`)."""
    client = ConsumerClient(
        coord, name, "g", list(topics), instance_id=instance_id, ids=IdGenerator(0),  # never drawn from
        member_id=name if version >= 1 else None, observe=lambda *_: None, anomalies=[], regex=regex,
        version=version, rebalance_timeout_ms=rebalance_timeout_ms,
    )
    client.start()
    return client


def send(client: ConsumerClient, *, lose_response: bool = False) -> ConsumerGroupHeartbeatResponseData:
    """One heartbeat; with `lose_response` the coordinator handles it but the answer never arrives."""
    assert client.running, client
    request = client.request()
    response = client.coord.heartbeat(request, client.caller)
    if lose_response:
        client.response_lost()
    else:
        client.handle(request, response)
    return response


def heartbeat(client: ConsumerClient, **kw) -> ConsumerGroupHeartbeatResponseData:
    """One heartbeat that must succeed."""
    response = send(client, **kw)
    assert response.error_code == 0, (client, response)
    return response


def settle(coord: Coordinator, clients: list, rounds: int = 10) -> None:
    """Every client heartbeats (acknowledging what it is told) until the group is Stable."""
    for _ in range(rounds):
        for client in clients:
            heartbeat(client)
        if coord.describe("g").state == "Stable":
            return
    raise AssertionError(f"not Stable after {rounds} rounds: {coord.describe('g')}")


def pad_epochs(coord: Coordinator, clients: list, until: int) -> None:
    """Bump the group epoch to `until` without moving a partition, to start from the KIP's epochs.

    The first client toggles a subscription to a topic that does not exist: a subscription change bumps
    the group epoch and recomputes the same target; every member then advances to the new epoch.
    """
    toggler = clients[0]
    while coord.runtime.state.consumer["g"].epoch < until:
        toggler.topics = ["foo"] if "pad" in toggler.topics else ["foo", "pad"]
        settle(coord, clients)
    assert coord.runtime.state.consumer["g"].epoch == until


def named_clients(coord: Coordinator, *ids: str) -> list[ConsumerClient]:
    """`named_clients(coord, "A", "B")` -> v1 clients with those member ids, subscribed to foo."""
    return [consumer(coord, m) for m in ids]


# -- Basic ----------------------------------------------------------------------------------------------------


def test_basic(kit: SimpleNamespace) -> None:
    coord = new_coordinator(3)
    E = kit.expect
    # The empty group (epoch 0) does not exist until a member joins.
    assert "g" not in coord.runtime.state.consumer

    a, b, c = named_clients(coord, "A", "B", "C")
    # A joins: epoch 1, target epoch 1 with every partition; A has nothing to revoke and moves to epoch 1 in
    # its join heartbeat, getting all three partitions.
    r = heartbeat(a)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (1, foo(0, 1, 2))
    kit.assert_group(coord, epoch=1, target_epoch=1, target={"A": foo(0, 1, 2)}, members={"A": E(1, foo(0, 1, 2))})

    # B joins: epoch 2, the target splits the partitions; B moves to epoch 2 but cannot get foo-2 until A
    # revokes it.
    r = heartbeat(b)
    assert (r.member_epoch, assigned(r)) == (2, {})
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2)},
                     members={"A": E(1, foo(0, 1, 2)), "B": E(2, pending=foo(2))})
    assert coord.describe("g").state == "Reconciling"

    # A heartbeats: it is told to revoke foo-2 (its assignment without foo-2, same epoch).
    r = heartbeat(a)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (1, foo(0, 1))
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2)},
                     members={"A": E(1, foo(0, 1), revoking=foo(2)), "B": E(2, pending=foo(2))})

    # A heartbeats again, acknowledging the revocation: epoch 2, foo-2 released.
    r = heartbeat(a)
    assert r.member_epoch == 2
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2)},
                     members={"A": E(2, foo(0, 1)), "B": E(2, pending=foo(2))})

    # B heartbeats and gets foo-2.
    r = heartbeat(b)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (2, foo(2))
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2)},
                     members={"A": E(2, foo(0, 1)), "B": E(2, foo(2))})
    assert coord.describe("g").state == "Stable"

    # C joins: epoch 3, target A [foo-0], B [foo-2], C [foo-1]; C moves to epoch 3 in its join heartbeat but
    # cannot get foo-1 yet.
    r = heartbeat(c)
    assert (r.member_epoch, assigned(r)) == (3, {})
    target3 = {"A": foo(0), "B": foo(2), "C": foo(1)}
    kit.assert_group(coord, epoch=3, target_epoch=3, target=target3,
                     members={"A": E(2, foo(0, 1)), "B": E(2, foo(2)), "C": E(3, pending=foo(1))})

    # B heartbeats: nothing to revoke, epoch 3.
    r = heartbeat(b)
    assert r.member_epoch == 3
    kit.assert_group(coord, epoch=3, target_epoch=3, target=target3,
                     members={"A": E(2, foo(0, 1)), "B": E(3, foo(2)), "C": E(3, pending=foo(1))})

    # A heartbeats: revoke foo-1. A heartbeats again: epoch 3, foo-1 released.
    r = heartbeat(a)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (2, foo(0))
    kit.assert_group(coord, epoch=3, target_epoch=3, target=target3,
                     members={"A": E(2, foo(0), revoking=foo(1)), "B": E(3, foo(2)), "C": E(3, pending=foo(1))})
    heartbeat(a)
    kit.assert_group(coord, epoch=3, target_epoch=3, target=target3,
                     members={"A": E(3, foo(0)), "B": E(3, foo(2)), "C": E(3, pending=foo(1))})

    # C heartbeats and gets foo-1. (The KIP's last picture shows "B - partitions=[foo-1]": a typo for foo-2.)
    r = heartbeat(c)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (3, foo(1))
    kit.assert_group(coord, epoch=3, target_epoch=3, target=target3,
                     members={"A": E(3, foo(0)), "B": E(3, foo(2)), "C": E(3, foo(1))})
    # All the members have eventually advanced to the group epoch (3).
    assert coord.describe("g").state == "Stable"
    assert coord.rebuild().runtime.state == coord.runtime.state


@pytest.mark.parametrize("seed", range(8))
def test_basic_with_coordinator_generated_member_ids(kit: SimpleNamespace, seed: int) -> None:
    """The Basic study with v0 clients (the coordinator generates the member ids, so the uniform assignor's
    tie-breaks follow random ids): the exact partitions may differ from the KIP's picture, its invariants
    may not. Balance, stickiness (only what must move moves), pending until released, epochs 1-2-3."""
    coord = new_coordinator(3, seed)
    a, b, c = (consumer(coord, n, version=0) for n in "ABC")
    heartbeat(a)
    assert (a.epoch, kit.names(coord, a.owned_ids)) == (1, foo(0, 1, 2))

    heartbeat(b)
    group = coord.runtime.state.consumer["g"]
    assert (group.epoch, group.assignment_epoch) == (2, 2)
    ta, tb = kit.targets(coord)[a.member_id], kit.targets(coord)[b.member_id]
    assert sorted([len(ta), len(tb)]) == [1, 2] and set(ta) <= set(foo(0, 1, 2)) and not set(ta) & set(tb)
    assert kit.member_view(coord, b.member_id).pending == tuple(tb)
    settle(coord, [a, b])
    assert (kit.names(coord, a.owned_ids), kit.names(coord, b.owned_ids)) == (ta, tb)

    heartbeat(c)
    group = coord.runtime.state.consumer["g"]
    assert (group.epoch, group.assignment_epoch) == (3, 3)
    t3 = kit.targets(coord)
    assert sorted(len(ps) for ps in t3.values()) == [1, 1, 1]
    # Sticky: B keeps its one partition, A keeps one of its two and gives the other to C.
    assert t3[b.member_id] == tb and set(t3[a.member_id]) < set(ta) and t3[c.member_id] == sorted(set(ta) -
                                                                                                   set(t3[a.member_id]))
    assert kit.member_view(coord, c.member_id).pending == tuple(t3[c.member_id])
    settle(coord, [a, b, c])
    assert {cl.member_id: kit.names(coord, cl.owned_ids) for cl in (a, b, c)} == t3
    assert all(kit.member_view(coord, cl.member_id).epoch == 3 for cl in (a, b, c))


# -- Incremental Revocation & Assignment ----------------------------------------------------------------------


def incremental_start(kit: SimpleNamespace) -> tuple[Coordinator, list]:
    """The KIP's starting point: A and B at epoch 21, three partitions each of six."""
    coord = new_coordinator(6)
    a, b = named_clients(coord, "A", "B")
    heartbeat(a)
    heartbeat(b)
    settle(coord, [a, b])
    pad_epochs(coord, [a, b], 21)
    E = kit.expect
    kit.assert_group(coord, epoch=21, target_epoch=21, target={"A": foo(0, 1, 2), "B": foo(3, 4, 5)},
                     members={"A": E(21, foo(0, 1, 2)), "B": E(21, foo(3, 4, 5))})
    return coord, [a, b]


def incremental_revocation(kit: SimpleNamespace) -> tuple[Coordinator, list]:
    coord, (a, b) = incremental_start(kit)
    (c,) = named_clients(coord, "C")
    E = kit.expect
    target22 = {"A": foo(0, 1), "B": foo(3, 4), "C": foo(2, 5)}

    # C joins: epoch 22, target computed; C moves to epoch 22 with nothing yet (foo-2 and foo-5 not revoked).
    heartbeat(c)
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(21, foo(0, 1, 2)), "B": E(21, foo(3, 4, 5)), "C": E(22, pending=foo(2, 5))})

    # A heartbeats: revoke foo-2. B heartbeats: revoke foo-5. C heartbeats: no change.
    assert kit.names(coord, assigned(heartbeat(a))) == foo(0, 1)
    assert kit.names(coord, assigned(heartbeat(b))) == foo(3, 4)
    r = heartbeat(c)
    assert (r.member_epoch, assigned(r)) == (22, None)
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(21, foo(0, 1), revoking=foo(2)), "B": E(21, foo(3, 4), revoking=foo(5)),
                              "C": E(22, pending=foo(2, 5))})

    # A acknowledges: epoch 22, foo-2 released. (The KIP's picture already shows C holding foo-2 here; C only
    # gets it on its next heartbeat, as the KIP's text says.)
    assert heartbeat(a).member_epoch == 22
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(22, foo(0, 1)), "B": E(21, foo(3, 4), revoking=foo(5)),
                              "C": E(22, pending=foo(2, 5))})

    # C heartbeats: it gets foo-2, which is free now, and still waits for foo-5.
    assert kit.names(coord, assigned(heartbeat(c))) == foo(2)
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(22, foo(0, 1)), "B": E(21, foo(3, 4), revoking=foo(5)),
                              "C": E(22, foo(2), pending=foo(5))})

    # B acknowledges: epoch 22, foo-5 released.
    assert heartbeat(b).member_epoch == 22
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(22, foo(0, 1)), "B": E(22, foo(3, 4)), "C": E(22, foo(2), pending=foo(5))})

    # C heartbeats: it gets foo-2 and foo-5.
    assert kit.names(coord, assigned(heartbeat(c))) == foo(2, 5)
    kit.assert_group(coord, epoch=22, target_epoch=22, target=target22,
                     members={"A": E(22, foo(0, 1)), "B": E(22, foo(3, 4)), "C": E(22, foo(2, 5))})
    assert coord.describe("g").state == "Stable"
    return coord, [a, b, c]


def test_incremental_revocation_and_assignment(kit: SimpleNamespace) -> None:
    coord, _ = incremental_revocation(kit)
    assert coord.rebuild().runtime.state == coord.runtime.state


# -- Member Failure -------------------------------------------------------------------------------------------


def test_member_failure(kit: SimpleNamespace) -> None:
    # The KIP's starting point is where the previous study ends: A, B, C at epoch 22.
    coord, (a, b, c) = incremental_revocation(kit)
    E = kit.expect
    start = coord.clock.now_ms()
    # A fails to heartbeat; B and C keep heartbeating.
    coord.advance(SESSION_TIMEOUT_MS - 5_000)
    heartbeat(b)
    heartbeat(c)
    coord.advance_to(start + SESSION_TIMEOUT_MS - 1)
    assert "A" in coord.runtime.state.consumer["g"].members
    # The session timeout expires: A is removed (its target with it) and the group epoch bumped.
    coord.advance(1)
    kit.assert_group(coord, epoch=23, target_epoch=22, target={"B": foo(3, 4), "C": foo(2, 5)},
                     members={"B": E(22, foo(3, 4)), "C": E(22, foo(2, 5))})
    assert coord.describe("g").state == "Assigning"

    # B heartbeats: the new target is computed (A's partitions shared out, nothing else moves) and B, which
    # has nothing to revoke, moves to epoch 23 with foo-0 added.
    target23 = {"B": foo(0, 3, 4), "C": foo(1, 2, 5)}
    r = heartbeat(b)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (23, foo(0, 3, 4))
    kit.assert_group(coord, epoch=23, target_epoch=23, target=target23,
                     members={"B": E(23, foo(0, 3, 4)), "C": E(22, foo(2, 5))})
    # C heartbeats and moves to epoch 23 with foo-1 added.
    r = heartbeat(c)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (23, foo(1, 2, 5))
    kit.assert_group(coord, epoch=23, target_epoch=23, target=target23,
                     members={"B": E(23, foo(0, 3, 4)), "C": E(23, foo(1, 2, 5))})
    assert coord.describe("g").state == "Stable"
    assert coord.rebuild().runtime.state == coord.runtime.state

    # A, not knowing it was removed, heartbeats again: UNKNOWN_MEMBER_ID; it abandons foo-0 and foo-1.
    r = send(a)
    assert error(r) == "UNKNOWN_MEMBER_ID" and a.owned_ids == {} and a.epoch == 0


# -- Partition Added ------------------------------------------------------------------------------------------


def test_partition_added(kit: SimpleNamespace) -> None:
    coord = new_coordinator(1)
    E = kit.expect
    a, b = named_clients(coord, "A", "B")
    heartbeat(a)
    heartbeat(b)
    settle(coord, [a, b])
    pad_epochs(coord, [a, b], 22)
    kit.assert_group(coord, epoch=22, target_epoch=22, target={"A": foo(0), "B": []},
                     members={"A": E(22, foo(0)), "B": E(22)})

    # foo-1 is created. Like Kafka, the coordinator notices the new metadata when the group is next used:
    # the group epoch moves on the next heartbeat, which also computes the new target.
    coord.add_partitions("foo", 2)
    assert coord.runtime.state.consumer["g"].epoch == 22

    # A heartbeats: epoch 23, target A [foo-0], B [foo-1]; A keeps foo-0 and moves to epoch 23.
    target23 = {"A": foo(0), "B": foo(1)}
    r = heartbeat(a)
    assert (r.member_epoch, assigned(r)) == (23, None)
    kit.assert_group(coord, epoch=23, target_epoch=23, target=target23,
                     members={"A": E(23, foo(0)), "B": E(22)})
    # B heartbeats and gets foo-1. (The KIP says "B and C heartbeat": it means A and B.)
    r = heartbeat(b)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (23, foo(1))
    kit.assert_group(coord, epoch=23, target_epoch=23, target=target23,
                     members={"A": E(23, foo(0)), "B": E(23, foo(1))})
    assert coord.describe("g").state == "Stable"
    assert coord.rebuild().runtime.state == coord.runtime.state


# -- static members -------------------------------------------------------------------------------------------


def static_group(kit: SimpleNamespace, partitions: int = 6):
    """A static member A (instance `app-0`) and a dynamic member B, Stable, 3 partitions each."""
    coord = new_coordinator(partitions)
    a = consumer(coord, "A", instance_id="app-0")
    b = consumer(coord, "B")
    heartbeat(a)
    heartbeat(b)
    settle(coord, [a, b])
    return coord, a, b


def test_static_member_bounce_gets_its_partitions_back_without_epoch_bump(kit: SimpleNamespace) -> None:
    coord, a, b = static_group(kit)
    E = kit.expect
    group = coord.runtime.state.consumer["g"]
    epoch = group.epoch
    before = {"A": E(epoch, foo(0, 1, 2)), "B": E(epoch, foo(3, 4, 5))}
    kit.assert_group(coord, epoch=epoch, target_epoch=epoch, target={"A": foo(0, 1, 2), "B": foo(3, 4, 5)},
                     members=before)

    # A leaves temporarily (epoch -2): it stays in the group with its partitions; nothing is rebalanced.
    coord.advance(1_000)
    r = a.leave(STATIC_LEAVE_EPOCH)
    assert (r.error_code, r.member_id, r.member_epoch) == (0, "A", -2)
    kit.assert_group(coord, epoch=epoch, target_epoch=epoch, target={"A": foo(0, 1, 2), "B": foo(3, 4, 5)},
                     members={"A": E(-2, foo(0, 1, 2)), "B": E(epoch, foo(3, 4, 5))})
    coord.advance(20_000)
    assert assigned(heartbeat(b)) is None
    start = len(list(coord.runtime.log.read()))

    # Its new incarnation (a new member id, the same instance id) joins with epoch 0 within the session
    # timeout (A last heartbeat at 0): it replaces A, gets A's partitions back at the group's epoch, and the
    # group epoch stays.
    coord.advance_to(SESSION_TIMEOUT_MS - 2_000)
    a2 = consumer(coord, "A2", instance_id="app-0")
    r = heartbeat(a2)
    assert (r.member_id, r.member_epoch, kit.names(coord, assigned(r))) == ("A2", epoch, foo(0, 1, 2))
    kit.assert_group(coord, epoch=epoch, target_epoch=epoch, target={"A2": foo(0, 1, 2), "B": foo(3, 4, 5)},
                     members={"A2": E(epoch, foo(0, 1, 2)), "B": E(epoch, foo(3, 4, 5))})
    assert coord.runtime.state.indexes["g"].static == {"app-0": "A2"}
    # Only the replacement was written, as Kafka writes it: A's tombstones (current assignment, target,
    # metadata), A2 taking over A's metadata, target and assignment, then A2's reconciled assignment. No group
    # epoch record, nothing about B.
    written = [(r.key.type, r.key.data["memberId"], r.value is None) for r in list(coord.runtime.log.read())[start:]]
    assert written == [(8, "A", True), (7, "A", True), (5, "A", True), (5, "A2", False), (7, "A2", False),
                       (8, "A2", False), (8, "A2", False)]
    described = {m.member_id: m for m in coord.describe("g").members}
    assert described["A2"].instance_id == "app-0" and "A" not in described
    assert coord.describe("g").state == "Stable"
    assert coord.rebuild().runtime.state == coord.runtime.state

    # A's old session timer fires harmlessly; A2's own session keeps it in the group.
    coord.advance(10_000)
    heartbeat(a2)
    heartbeat(b)
    group = coord.runtime.state.consumer["g"]
    assert group.epoch == epoch and set(group.members) == {"A2", "B"}


def test_unreleased_instance_id_while_the_old_member_is_still_there(kit: SimpleNamespace) -> None:
    coord, a, _b = static_group(kit)
    written = coord.runtime.records_written
    a2 = consumer(coord, "A2", instance_id="app-0")
    r = send(a2)
    assert (error(r), r.error_message) == (
        "UNRELEASED_INSTANCE_ID",
        "Static member A2 with instance id app-0 cannot join the group because the instance id is owned by A member.",
    )
    assert coord.runtime.records_written == written
    # The error is fatal to the consumer (as in the Java client): its supervisor starts it again later.
    assert not a2.running and a2.owned_ids == {}
    # Once A has left temporarily, A2 may take over.
    a.leave(STATIC_LEAVE_EPOCH)
    a2.start()
    assert heartbeat(a2).member_epoch == coord.runtime.state.consumer["g"].epoch


def test_static_member_that_does_not_come_back_is_evicted_at_its_session_timeout(kit: SimpleNamespace) -> None:
    coord, a, b = static_group(kit)
    E = kit.expect
    epoch = coord.runtime.state.consumer["g"].epoch
    last_heartbeat = coord.clock.now_ms()
    coord.advance(1_000)
    a.leave(STATIC_LEAVE_EPOCH)
    # The -2 leave does not restart the session timer: it expires one session after A's last heartbeat.
    coord.advance(20_000)
    heartbeat(b)
    coord.advance_to(last_heartbeat + SESSION_TIMEOUT_MS - 1)
    assert kit.member_view(coord, "A").epoch == -2
    coord.advance(1)
    kit.assert_group(coord, epoch=epoch + 1, target_epoch=epoch, target={"B": foo(3, 4, 5)},
                     members={"B": E(epoch, foo(3, 4, 5))})
    assert coord.runtime.state.indexes["g"].static == {}
    r = heartbeat(b)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (epoch + 1, foo(0, 1, 2, 3, 4, 5))
    # The instance id is free: a new incarnation joins as a new member (a rebalance, no partitions kept).
    a2 = consumer(coord, "A2", instance_id="app-0")
    r = heartbeat(a2)
    assert r.member_epoch == epoch + 2 and assigned(r) == {}


# -- timeouts and lost responses ------------------------------------------------------------------------------


def test_rebalance_timeout_fences_a_member_that_does_not_revoke(kit: SimpleNamespace) -> None:
    coord = new_coordinator(4)
    E = kit.expect
    a = consumer(coord, "A", rebalance_timeout_ms=10_000)
    b = consumer(coord, "B")
    heartbeat(a)
    a.auto_ack = False  # A's rebalance listener never finishes
    heartbeat(b)
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2, 3)},
                     members={"A": E(1, foo(0, 1, 2, 3)), "B": E(2, pending=foo(2, 3))})
    coord.advance(1_000)
    start = coord.clock.now_ms()
    heartbeat(a)  # told to revoke foo-2 and foo-3: the rebalance timer starts
    assert a.pending_assignment is not None and kit.names(coord, a.owned_ids) == foo(0, 1, 2, 3)
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1), "B": foo(2, 3)},
                     members={"A": E(1, foo(0, 1), revoking=foo(2, 3)), "B": E(2, pending=foo(2, 3))})
    # A keeps heartbeating (its session is fine) but keeps reporting foo-2 and foo-3.
    for _ in range(3):
        coord.advance(3_000)
        heartbeat(a)
        heartbeat(b)
    coord.advance_to(start + 10_000 - 1)
    assert "A" in coord.runtime.state.consumer["g"].members
    coord.advance(1)
    kit.assert_group(coord, epoch=3, target_epoch=2, target={"B": foo(2, 3)}, members={"B": E(2, pending=foo(2, 3))})
    r = heartbeat(b)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (3, foo(0, 1, 2, 3))
    r = send(a)
    assert error(r) == "UNKNOWN_MEMBER_ID" and a.owned_ids == {}


def test_revocation_within_the_rebalance_timeout_cancels_it(kit: SimpleNamespace) -> None:
    coord = new_coordinator(4)
    a = consumer(coord, "A", rebalance_timeout_ms=10_000)
    b = consumer(coord, "B")
    heartbeat(a)
    heartbeat(b)
    a.auto_ack = False
    heartbeat(a)
    coord.advance(9_000)
    a.finish_reconciliation()
    assert heartbeat(a).member_epoch == 2
    heartbeat(b)
    coord.advance(5_000)
    assert set(coord.runtime.state.consumer["g"].members) == {"A", "B"}
    assert coord.describe("g").state == "Stable"


def test_lost_response_previous_epoch_with_owned_subset_is_accepted(kit: SimpleNamespace) -> None:
    coord = new_coordinator(2)
    E = kit.expect
    a = consumer(coord, "A")
    heartbeat(a)
    assert a.epoch == 1
    # foo-2 appears; A's heartbeat moves it to epoch 2 with foo-2 added, but the response is lost.
    coord.add_partitions("foo", 3)
    heartbeat(a, lose_response=True)
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1, 2)}, members={"A": E(2, foo(0, 1, 2))})
    assert (a.epoch, kit.names(coord, a.owned_ids)) == (1, foo(0, 1))
    # A retries with its previous epoch and what it owns (a subset of its assignment): accepted, and since the
    # retry is a full request the response carries the whole assignment.
    r = heartbeat(a)
    assert (r.member_epoch, kit.names(coord, assigned(r))) == (2, foo(0, 1, 2))
    kit.assert_group(coord, epoch=2, target_epoch=2, target={"A": foo(0, 1, 2)}, members={"A": E(2, foo(0, 1, 2))})


def test_lost_response_with_more_partitions_than_assigned_is_fenced(kit: SimpleNamespace) -> None:
    coord = new_coordinator(2)
    a, b = named_clients(coord, "A", "B")
    heartbeat(a)
    heartbeat(b)
    settle(coord, [a, b])
    pad_epochs(coord, [a, b], 3)
    topic = coord.topics.get("foo").topic_id
    cur = coord.runtime.state.consumer["g"].current["A"]
    assert (cur.member_epoch, cur.previous_member_epoch) == (3, 2)
    assert kit.member_view(coord, "A").partitions == tuple(foo(0))
    written = coord.runtime.records_written

    def fenced(epoch: int, partitions: list[int] | None) -> str | None:
        owned = None if partitions is None else [(topic, partitions)]
        r = coord.heartbeat(hb("g", "A", epoch, topic_partitions=owned))
        return r.error_message if error(r) == "FENCED_MEMBER_EPOCH" else error(r)

    # The previous epoch (2) but owning foo-1 too, which A no longer has: the member must rejoin.
    assert fenced(2, [0, 1]) == (
        "The consumer group member has a smaller member epoch (2) than the one known by the group coordinator (3). "
        "The member must abandon all its partitions and rejoin."
    )
    # Older than the previous epoch, even with a subset; or not reporting partitions at all (no subset to check).
    assert fenced(1, [0]) == (
        "The consumer group member has a smaller member epoch (1) than the one known by the group coordinator (3). "
        "The member must abandon all its partitions and rejoin."
    )
    assert fenced(2, None) is not None and fenced(2, None).startswith("The consumer group member has a smaller")
    # An epoch ahead of the coordinator's.
    assert fenced(4, [0]) == (
        "The consumer group member has a greater member epoch (4) than the one known by the group coordinator (3). "
        "The member must abandon all its partitions and rejoin."
    )
    assert coord.runtime.records_written == written
    # The previous epoch with what A really owns (or less) is accepted, at the current epoch.
    for owned in ([0], []):
        r = coord.heartbeat(hb("g", "A", 2, topic_partitions=[(topic, owned)]))
        assert (r.error_code, r.member_epoch) == (0, 3)


def test_fenced_member_that_keeps_its_member_id_gets_back_in(kit: SimpleNamespace) -> None:
    """Two responses lost in a row leave the client two epochs behind: FENCED_MEMBER_EPOCH. A KIP-1082 (v1)
    client keeps its member id and rejoins with epoch 0. Kafka up to 4.2 still fences that join while the
    member is in the group (its epoch is not the previous one), so the client is back only once its session
    expires; KAFKA-19233 (apache/kafka#21305) accepts epoch 0 at once. Either way it is back within one session
    timeout of its last successful heartbeat, with every partition."""
    coord = new_coordinator(2)
    a = consumer(coord, "A")
    heartbeat(a)
    coord.add_partitions("foo", 3)
    heartbeat(a, lose_response=True)  # epoch 1 -> 2, response lost
    coord.add_partitions("foo", 4)
    heartbeat(a, lose_response=True)  # previous epoch accepted, 2 -> 3, response lost again
    last_success = coord.clock.now_ms()
    assert (a.epoch, kit.member_view(coord, "A").epoch) == (1, 3)
    coord.advance(5_000)
    r = send(a)
    assert error(r) == "FENCED_MEMBER_EPOCH" and (a.epoch, a.owned_ids) == (0, {})
    while True:
        coord.advance(5_000)
        r = send(a)
        if r.error_code == 0:
            break
        assert error(r) == "FENCED_MEMBER_EPOCH" and coord.clock.now_ms() < last_success + SESSION_TIMEOUT_MS
    assert coord.clock.now_ms() <= last_success + SESSION_TIMEOUT_MS + 5_000
    assert kit.names(coord, a.owned_ids) == foo(0, 1, 2, 3)
    settle(coord, [a])


# -- regex subscriptions --------------------------------------------------------------------------------------


def test_changing_regex_tombstones_the_old_one_and_resolves_the_new_one(kit: SimpleNamespace) -> None:
    """A member moves from regex `foo` to regex `bar` within 10 s of the last resolution. Kafka's
    `maybeUpdateRegularExpressions` tombstones `foo` (its last subscriber left it) and, the batch interval
    being too recent, resolves nothing yet; the next heartbeat after the interval finds an unresolved regex
    (1 subscribed vs 0 resolved) and resolves `bar`, the epoch moves and the member gets bar's partitions."""
    coord = Coordinator(clock=ManualClock(), ids=IdGenerator(1))
    coord.create_topic("foo", 2)
    coord.create_topic("bar", 2)
    a = consumer(coord, "A", (), regex="foo")
    heartbeat(a)
    settle(coord, [a])
    group = coord.runtime.state.consumer["g"]
    assert sorted(group.regexes) == ["foo"] and kit.names(coord, a.owned_ids) == ["foo-0", "foo-1"]

    coord.advance(5_000)
    a.regex = "bar"
    heartbeat(a)
    for _ in range(6):  # 30 s of heartbeats
        coord.advance(5_000)
        heartbeat(a)
    group = coord.runtime.state.consumer["g"]
    assert "foo" not in group.regexes  # Kafka writes a type-16 tombstone for it
    assert (bar := group.regexes.get("bar")) is not None and bar.topics == ["bar"]
    assert kit.names(coord, a.owned_ids) == ["bar-0", "bar-1"]
    assert coord.describe("g").state == "Stable"
