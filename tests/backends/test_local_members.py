"""Simulated members kept in a local DIR: they survive invocations, resume what they were doing, and
report what the world did while time moved."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.backends import local_members
from groupctl.backends.local import LocalBackend
from groupctl.backends.local_members import MEMBERS_FILE, LocalMembers, MemberLaunch
from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.errors import GroupctlError, KafkaError
from groupctl.model import TopicPartition
from groupctl.protocol.data.groups import MemberIdentity
from groupctl.simulation.clients import CLIENT_JOINING, CLIENT_UNJOINED, ClassicClient, ConsumerClient, restore_client
from tests.classic_requests import join_answer, sync_answer


def _world(directory: Path, *, create: bool = False):
    """A LocalBackend and its members, closed (members saved first) by the caller's `with`."""

    class Session:
        def __enter__(self) -> LocalMembers:
            self.backend = LocalBackend(directory, create=create)
            self.members = LocalMembers(self.backend)
            return self.members

        def __exit__(self, *exc: object) -> None:
            try:
                self.members.save()
            finally:
                self.backend.close()

    return Session()


def _join(m: LocalMembers, name: str, group: str, protocol: str = "classic", static: bool = True, **kw):
    spec = MemberLaunch(name, group, protocol, ("orders",), instance_id=name if static else None, **kw)
    result = m.join(spec)
    assert result.settled and result.member.status == "running", result
    return result


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    with LocalBackend(tmp_path / "lab", create=True) as b:
        b.create_topic("orders", 6, messages=100)
    return tmp_path / "lab"


def test_members_survive_invocations_with_their_client_state(lab: Path) -> None:
    with _world(lab) as m:
        for i in range(2):
            _join(m, f"c{i}", "classic-app", session_timeout_ms=10_000)
            _join(m, f"k{i}", "kip-app", "consumer", assignor="range")
        before = {v.name: v for v in m.views()}
        saved = {name: m._members[name].client.to_jsonable() for name in m.names()}
    assert (lab / MEMBERS_FILE).is_file()
    with _world(lab) as m:
        assert {v.name: v for v in m.views()} == before
        assert {name: m._members[name].client.to_jsonable() for name in m.names()} == saved
        assert all(m.settled(g) for g in ("classic-app", "kip-app"))
        # The restored clients carry on: a minute of heartbeats changes nothing.
        result = m.tick(60_000)
        assert [e for e in result.events if e.event != "assignment"] == []
        assert {v.name: (v.member_id, v.epoch, v.assignment) for v in m.views()} == {
            n: (v.member_id, v.epoch, v.assignment) for n, v in before.items()
        }
    assert before["k0"].assignor == "range" and before["c0"].session_timeout_ms == 10_000
    assert sorted(tp.partition for n in ("c0", "c1") for tp in before[n].assignment) == list(range(6))


def test_a_member_waiting_for_a_parked_join_asks_again_in_the_next_invocation(lab: Path) -> None:
    """The JoinGroup parked in the previous process is never answered: the client joins again with its id."""
    with _world(lab) as m:
        for name in ("w0", "w1", "w2"):
            _join(m, name, "w", static=False)
        w1_id = m.view("w1").member_id
        m.crash("w2")
        # An admin removal rebalances the group without running it; w0 learns at its next heartbeat.
        m.backend.remove_members("w", [MemberIdentity(member_id=w1_id)])
        m.tick(3_100)
        w0 = m._members["w0"].client
        assert isinstance(w0, ClassicClient) and w0.state == CLIENT_JOINING and not w0.inbox
        generation = m.group_epoch("w")
    with _world(lab) as m:
        w0 = m._members["w0"].client
        assert w0.state == CLIENT_UNJOINED and w0.member_id  # retries, keeping its member id
        result = m.tick(60_000)
        assert m.settled("w") and m.group_epoch("w") > generation
        removed = [e for e in result.events if e.event == "member-removed"]
        assert [e.member for e in removed] == ["w2"] and "session timeout expired" in removed[0].detail
        assert sorted(tp.partition for n in ("w0", "w1") for tp in m.view(n).assignment) == list(range(6))


def test_static_members_bounce_without_a_rebalance_and_crashes_expire(lab: Path) -> None:
    with _world(lab) as m:
        for i in range(3):
            _join(m, f"c{i}", "classic-app", session_timeout_ms=10_000)
            _join(m, f"k{i}", "kip-app", "consumer")
        for name, group in (("c1", "classic-app"), ("k1", "kip-app")):
            before = m.view(name).assignment
            result = m.bounce(name, 5_000)
            assert result.settled and result.epoch_before == result.epoch_after
            assert m.view(name).assignment == before
            assert [e.event for e in result.events if e.group == group and e.event == "member-replaced"]
        m.crash("c2")
        m.crash("k2")
        assert m.view("c2").status == "crashed" and m.view("c2").assignment == []
    with _world(lab) as m:
        epochs = {g: m.group_epoch(g) for g in ("classic-app", "kip-app")}
        result = m.tick(60_000)
        for group in epochs:
            assert m.group_epoch(group) > epochs[group]
            assert m.settled(group)
        expired = {(e.group, e.member) for e in result.events if e.event == "member-removed"}
        assert expired == {("classic-app", "c2"), ("kip-app", "k2")}


def test_leaving_as_the_java_client_closes(lab: Path) -> None:
    with _world(lab) as m:
        _join(m, "s0", "static", session_timeout_ms=10_000)
        _join(m, "s1", "static", session_timeout_ms=10_000)
        result = m.leave("s1")
        assert result.sent.startswith("nothing") and result.epoch_before == result.epoch_after
        assert len(m.backend.describe_groups(["static"])[0].members) == 2  # until its session expires
        later = m.tick(15_000)
        assert [e.member for e in later.events if e.event == "member-removed"] == ["s1"]
        assert m.view("s0").assignment == [TopicPartition("orders", p) for p in range(6)]

        _join(m, "d0", "dynamic", static=False)
        _join(m, "d1", "dynamic", static=False)
        assert m.leave("d1").sent == "LeaveGroup"
        assert len(m.backend.describe_groups(["dynamic"])[0].members) == 1

        _join(m, "k0", "kip", "consumer")
        _join(m, "k1", "kip", "consumer", static=False)
        assert "epoch -1" in m.leave("k1").sent
        assert "epoch -2" in m.leave("k0").sent
        (kip,) = m.backend.describe_groups(["kip"])
        assert [x.instance_id for x in kip.members] == ["k0"]  # kept for the session timeout
        assert {v.name: v.status for v in m.views("kip")} == {"k0": "stopped", "k1": "stopped"}


def test_new_partitions_and_topics_reach_every_kind_of_member(lab: Path) -> None:
    with _world(lab) as m:
        _join(m, "c0", "classic-app")
        _join(m, "k0", "kip-app", "consumer")
        m.join(MemberLaunch("r0", "regex-app", "classic", regex=r"events\..*"))
        m.backend.create_topic("events.a", 2)
        m.backend.add_partitions("orders", 8)
        m.tick(20_000)
        assert len(m.view("c0").assignment) == 8  # the leader noticed and rejoined
        assert len(m.view("k0").assignment) == 8
        assert m.view("r0").assignment == [TopicPartition("events.a", 0), TopicPartition("events.a", 1)]


def test_errors_name_the_member_and_the_fix(lab: Path) -> None:
    with _world(lab) as m:
        _join(m, "c0", "classic-app")
        _join(m, "k0", "kip-app", "consumer")
        with pytest.raises(GroupctlError, match="already used"):
            m.join(MemberLaunch("c0", "other", topics=("orders",)))
        with pytest.raises(GroupctlError, match=r"no simulated member 'x'.*members: c0, k0"):
            m.leave("x")
        m.crash("c0")
        with pytest.raises(GroupctlError, match="is crashed, so it cannot heartbeat"):
            m.heartbeat("c0")
        with pytest.raises(GroupctlError, match="already running"):
            m.start("k0")
        result = m.start("c0")
        assert result.settled and m.view("c0").status == "running"
        m.backend.remove_members("kip-app", [MemberIdentity(group_instance_id="k0")])
        answer = m.heartbeat("k0").heartbeat
        assert answer.error == "UNKNOWN_MEMBER_ID"
        assert [c.error for c in m.commit("c0", lag=5)] == ["NONE"] * 6
        m.backend.remove_members("classic-app", [MemberIdentity(group_instance_id="c0")])
        with pytest.raises(KafkaError, match="UNKNOWN_MEMBER_ID"):
            m.commit("c0")


def test_a_mixed_group_migrates_settles_and_survives_invocations(lab: Path) -> None:
    with _world(lab) as m:
        _join(m, "c0", "app")
        _join(m, "c1", "app", static=False)
        up = _join(m, "k0", "app", "consumer", static=False)
        assert (up.type_before, up.type_after) == ("classic", "consumer")
        assert [e.detail for e in up.events if e.event == "migrated"] == ["classic -> consumer group (upgrade)"]
        assert m.group_type("app") == "consumer"
    with _world(lab) as m:  # the classic members of the consumer group are restored and still settled
        assert m.settled("app")
        every = [TopicPartition("orders", p) for p in range(6)]
        assert sorted(tp for v in m.views("app") for tp in v.assignment) == every
        assert {v.name: v.epoch for v in m.views("app")} == {
            name: m.coord.runtime.state.consumer["app"].current[m.view(name).member_id].member_epoch
            for name in ("c0", "c1", "k0")}
        down = m.leave("k0")
        assert down.settled and (down.type_before, down.type_after) == ("consumer", "classic")
        assert [e.detail for e in down.events if e.event == "migrated"] == ["consumer -> classic group (downgrade)"]
        assert sorted(tp for v in m.views("app") for tp in v.assignment) == every  # now the classic members'


def test_a_group_that_does_not_settle_in_time_says_so(lab: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_members, "SETTLE_LIMIT_MS", 1_000)  # below the initial rebalance delay
    with _world(lab) as m:
        result = m.join(MemberLaunch("c0", "g", topics=("orders",)))
        assert not result.settled and result.virtual_ms == 1_000
    monkeypatch.setattr(local_members, "SETTLE_LIMIT_MS", 600_000)
    with _world(lab) as m:
        assert m.tick(5_000) and m.settled("g")


def test_client_state_round_trips_with_answers_in_flight() -> None:
    coord = Coordinator(clock=ManualClock(1_000), ids=IdGenerator(3))
    coord.create_topic("orders", 2)
    anomalies: list[str] = []
    classic = ClassicClient(coord, "p", "g", ["orders"], instance_id="p", session_timeout_ms=10_000, client_id="p",
                            observe=lambda *a: None, anomalies=anomalies)
    classic.start()
    classic.inbox.append(join_answer(0, 1, "consumer", "range", "m1", False, "m1", [("m1", "p", b"\x01")]))
    classic.inbox.append(sync_answer(0, "consumer", "range", b"\x00\x02"))
    consumer = ConsumerClient(coord, "q", "h", [], instance_id=None, ids=IdGenerator(4), observe=lambda *a: None,
                              anomalies=anomalies, regex="ord.*", assignor="uniform", client_id="q")
    consumer.start()
    for _ in range(4):  # the broker resolves a regex between heartbeats
        consumer.tick()
        coord.advance(5_000)
    for client in (classic, consumer):
        data = client.to_jsonable()
        again = restore_client(coord, data, observe=lambda *a: None, anomalies=anomalies, ids=IdGenerator())
        assert type(again) is type(client) and again.to_jsonable() == data
    assert list(restore_client(coord, classic.to_jsonable(), observe=lambda *a: None, anomalies=anomalies,
                               ids=IdGenerator()).inbox) == list(classic.inbox)
    assert len(consumer.owned) == 2 and not anomalies
