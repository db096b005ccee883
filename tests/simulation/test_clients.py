"""The simulated KIP-848 consumer beyond the defaults the local backend uses: what the KIP-848 simulation and
the case studies need (v0 member ids, a fixed v1 member id, lost answers, subscription changes, a slow
rebalance listener, the leave epoch, fatal errors)."""

from __future__ import annotations

import pytest

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.consumer import LEAVE_EPOCH
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.simulation.clients import ConsumerClient


def new_client(**kw) -> tuple[Coordinator, ConsumerClient]:
    coord = Coordinator(clock=ManualClock(), ids=IdGenerator(1))
    coord.create_topic("foo", 4)
    coord.create_topic("bar", 2)
    return coord, client(coord, "a", **kw)


def client(coord: Coordinator, name: str, **kw) -> ConsumerClient:
    kw.setdefault("instance_id", None)
    c = ConsumerClient(coord, name, "g", kw.pop("topics", ["foo"]), ids=IdGenerator(sum(name.encode())),
                       observe=lambda *_: None, anomalies=[], **kw)
    c.start()
    return c


def owned(coord: Coordinator, c: ConsumerClient) -> dict[str, list[int]]:
    names = {t.topic_id: t.name for t in coord.topics}
    return {names[t]: sorted(ps) for t, ps in c.owned_ids.items()}


def test_a_v0_client_joins_without_a_member_id_and_takes_the_coordinators() -> None:
    coord, c = new_client(version=0)
    assert c.member_id == "" and c.caller.api_version == 0
    c.tick()
    assert c.member_id and c.member_id in coord.runtime.state.consumer["g"].member_ids() and c.epoch == 1
    again = c.request()
    assert again.member_id == c.member_id and c.caller.api_version == 0


def test_a_fixed_member_id_is_the_one_every_incarnation_joins_with() -> None:
    coord, c = new_client(member_id="A")
    assert c.member_id == "A" and c.request().member_id == "A"
    c.tick()
    assert coord.runtime.state.consumer["g"].member_ids() == ["A"] and c.epoch == 1
    c.leave()
    assert coord.runtime.state.consumer["g"].member_ids() == []
    c.start()  # a generated id would differ from the last one; this one does not
    assert (c.member_id, c.epoch) == ("A", 0)
    coord.advance(100)
    c.tick()
    assert c.epoch == 3 and coord.runtime.state.consumer["g"].member_ids() == ["A"]  # the leave bumped it to 2


def test_a_generated_member_id_is_new_at_every_start() -> None:
    _, c = new_client()
    first = c.member_id
    c.crash()
    c.start()
    assert first and c.member_id and c.member_id != first


@pytest.mark.parametrize("kw", [{"member_id": "A", "version": 0}, {"member_id": ""}])
def test_only_a_v1_client_chooses_a_member_id_and_never_an_empty_one(kw: dict) -> None:
    coord = Coordinator(clock=ManualClock(), ids=IdGenerator(1))
    with pytest.raises(ValueError, match="v1 client"):
        ConsumerClient(coord, "a", "g", ["foo"], instance_id=None, ids=IdGenerator(1), observe=lambda *_: None,
                       anomalies=[], **kw)


def test_after_a_lost_answer_the_next_request_is_full() -> None:
    coord, c = new_client(rebalance_timeout_ms=20_000)
    c.tick()
    c.tick()  # acknowledges the assignment
    steady = c.request()
    assert (steady.rebalance_timeout_ms, steady.subscribed_topic_names, steady.topic_partitions) == (-1, None, None)
    req = c.request()
    coord.heartbeat(req, c.caller)
    c.response_lost()
    full = c.request()
    assert full.rebalance_timeout_ms == 20_000 and full.subscribed_topic_names == ["foo"]
    assert full.topic_partitions is not None and owned(coord, c) == {"foo": [0, 1, 2, 3]}


def test_a_new_subscription_goes_out_once_in_the_next_heartbeat() -> None:
    coord, c = new_client()
    c.tick()
    c.tick()
    c.topics = ["bar", "foo"]
    changed = c.request()
    assert changed.subscribed_topic_names == ["bar", "foo"] and changed.rebalance_timeout_ms == -1
    c.handle(changed, coord.heartbeat(changed, c.caller))
    assert c.request().subscribed_topic_names is None
    assert coord.runtime.state.consumer["g"].members[c.member_id].subscribed_topic_names == ["bar", "foo"]


def test_a_slow_listener_keeps_reporting_what_it_owns_until_it_reconciles() -> None:
    coord, a = new_client()
    a.tick()
    a.tick()
    a.auto_ack = False
    b = client(coord, "b")
    b.tick()
    coord.advance(100)
    a.next_heartbeat = coord.clock.now_ms()
    a.tick()  # told to give up two partitions
    assert a.pending_assignment is not None and owned(coord, a) == {"foo": [0, 1, 2, 3]}
    assert a.request().topic_partitions is None  # nothing moved yet: nothing to report
    assert a.finish_reconciliation() and a.pending_assignment is None
    assert len(owned(coord, a)["foo"]) == 2 and a.request().topic_partitions is not None
    assert not a.finish_reconciliation()


def test_a_static_member_leaves_for_good_with_epoch_minus_one() -> None:
    coord, a = new_client(instance_id="pod-a")
    a.tick()
    r = a.leave(LEAVE_EPOCH)
    assert r is not None and r.error_code == 0 and not a.running
    assert a.member_id not in coord.runtime.state.consumer["g"].member_ids()
    b = client(coord, "b", instance_id="pod-b")
    b.tick()
    assert b.leave() is not None  # by default a static member's leave is temporary (-2)
    assert coord.runtime.state.consumer["g"].current[b.member_id].member_epoch == -2


def test_unreleased_instance_id_is_fatal() -> None:
    coord, a = new_client(instance_id="pod-a")
    a.tick()
    a.crash()  # its member stays until its session times out
    again = client(coord, "a2", instance_id="pod-a")
    again.tick()
    assert not again.running and again.owned_ids == {} and "UNRELEASED_INSTANCE_ID" in again.anomalies[-1]
