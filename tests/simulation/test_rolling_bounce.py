"""The rolling-bounce scenario: KIP-345's claim in numbers, the failure modes around it, and the pieces
it is built from (the leader's range assignor, ownership accounting)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.model import TopicPartition
from groupctl.simulation.clients import ClassicClient, ConsumerClient
from groupctl.simulation.ownership import OwnershipTracker
from groupctl.simulation.range_assignor import RangeMember, range_assign
from groupctl.simulation.rolling_bounce import (
    MAX_MEMBERS,
    TOPIC,
    BounceResult,
    BounceSettings,
    RollingBounce,
    SettingsError,
    compare_settings,
    run_rolling_bounce,
)


@pytest.fixture(scope="module")
def compare_10_30() -> dict[tuple[str, str], BounceResult]:
    """The issue's run: --compare --members 10 --partitions 30, defaults otherwise."""
    results = [run_rolling_bounce(s) for s in compare_settings(BounceSettings(members=10, partitions=30))]
    return {(r.protocol, r.membership): r for r in results}


def assert_clean(result: BounceResult) -> None:
    """Settled after every restart, no unexpected error, and every partition consumed exactly once."""
    assert result.converged and not result.anomalies, result.anomalies
    owned = Counter(tp for m in result.assignment for tp in m.partitions)
    assert owned == Counter(TopicPartition(TOPIC, p) for p in range(result.settings.partitions))


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_static_members_within_the_session_timeout_never_rebalance(compare_10_30, protocol):
    result = compare_10_30[(protocol, "static")]
    assert_clean(result)
    assert (result.rebalances, result.partition_moves) == (0, 0)
    assert result.epoch_before == result.epoch_after
    # Each partition waited for its own member to come back: the restart time, no longer.
    assert result.max_unowned_ms == result.settings.restart_time_ms
    assert result.total_unowned_ms == 30 * result.settings.restart_time_ms


def test_static_classic_members_keep_their_range_across_the_bounce(compare_10_30):
    result = compare_10_30[("classic", "static")]
    # Range over instance ids member-0 < member-1 < ... : three consecutive partitions each.
    by_member = {m.member: [tp.partition for tp in m.partitions] for m in result.assignment}
    assert by_member == {f"member-{i}": [3 * i, 3 * i + 1, 3 * i + 2] for i in range(10)}
    for m in result.assignment:
        assert m.instance_id == m.member and m.member_id.startswith(f"{m.member}-")


def test_dynamic_classic_members_rebalance_on_every_restart(compare_10_30):
    result = compare_10_30[("classic", "dynamic")]
    assert_clean(result)
    assert result.rebalances >= 10
    assert result.rebalances == 20  # one when the member leaves, one when it joins as someone new
    assert result.partition_moves > 0
    assert all(m.instance_id is None for m in result.assignment)


def test_dynamic_kip848_members_bump_the_group_epoch_on_every_restart(compare_10_30):
    result = compare_10_30[("consumer", "dynamic")]
    assert_clean(result)
    assert result.rebalances == 20
    # The uniform assignor is sticky: only the leaver's share moves out and a newcomer's share moves in.
    assert 0 < result.partition_moves <= 2 * 3 * 10


@pytest.mark.parametrize(("protocol", "session_ms", "restart_ms"), [
    ("classic", 6_000, 10_000),
    ("consumer", 45_000, 50_000),
])
def test_a_static_restart_longer_than_the_session_timeout_rebalances(protocol, session_ms, restart_ms):
    settings = BounceSettings(members=4, partitions=12, protocol=protocol, session_timeout_ms=session_ms,
                              restart_time_ms=restart_ms)
    result = run_rolling_bounce(settings)
    assert_clean(result)
    # Expired by the session timeout (a rebalance), then back as a new member (another).
    assert result.rebalances == 2 * 4
    assert result.partition_moves > 0
    assert result.max_unowned_ms >= session_ms


def test_a_restart_just_inside_the_session_timeout_can_still_expire():
    """The last heartbeat may be up to one interval older than the stop: the margin is session - interval."""
    safe = run_rolling_bounce(BounceSettings(members=5, partitions=10, session_timeout_ms=6_000,
                                             restart_time_ms=3_000))
    risky = run_rolling_bounce(replace(safe.settings, restart_time_ms=5_900))
    assert safe.rebalances == 0
    assert risky.rebalances > 0


def test_the_same_seed_gives_the_same_run_and_seeds_matter():
    settings = BounceSettings(members=6, partitions=20, static=False, seed=7)
    first, second = run_rolling_bounce(settings), run_rolling_bounce(settings)
    assert first == second
    other = run_rolling_bounce(replace(settings, seed=8))
    assert [m.member_id for m in other.assignment] != [m.member_id for m in first.assignment]


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
@pytest.mark.parametrize("static", [True, False])
def test_edge_sizes(protocol, static):
    for members, partitions, restart in ((1, 1, 10_000), (5, 3, 10_000), (3, 7, 0)):
        result = run_rolling_bounce(BounceSettings(members=members, partitions=partitions, protocol=protocol,
                                                   static=static, restart_time_ms=restart))
        assert_clean(result)
        if static:
            assert result.rebalances == 0
        else:
            assert result.rebalances >= members


@pytest.mark.parametrize(("change", "setting", "words"), [
    ({"members": 0}, "members", "between 1 and"),
    ({"members": MAX_MEMBERS + 1}, "members", "between 1 and"),
    ({"partitions": 0}, "partitions", "between 1 and"),
    ({"restart_time_ms": -1}, "restart_time_ms", "between 0 and"),
    ({"session_timeout_ms": 5_999}, "session_timeout_ms", "INVALID_SESSION_TIMEOUT"),
    ({"session_timeout_ms": 1_800_001}, "session_timeout_ms", "group.max.session.timeout.ms"),
    ({"protocol": "consumer", "session_timeout_ms": 30_000}, "session_timeout_ms",
     "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
    ({"protocol": "consumer", "session_timeout_ms": 60_001}, "session_timeout_ms",
     "consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms"),
    ({"protocol": "share"}, "protocol", "classic, consumer"),
])
def test_settings_are_validated(change, setting, words):
    with pytest.raises(SettingsError) as info:
        replace(BounceSettings(), **change).validate()
    assert info.value.setting == setting
    assert words in str(info.value)


def test_the_consumer_session_timeout_becomes_the_group_config():
    from groupctl.simulation.rolling_bounce import GROUP_ID, RollingBounce

    sim = RollingBounce(BounceSettings(members=1, partitions=1, protocol="consumer", session_timeout_ms=60_000))
    assert sim.coord.configs.session_timeout_ms(GROUP_ID) == 60_000


def test_range_sorts_static_members_by_instance_id_before_dynamic_ones():
    members = [RangeMember("m-9", None, ("t",)), RangeMember("m-1", "pod-b", ("t",)),
               RangeMember("m-5", "pod-a", ("t",)), RangeMember("m-0", None, ("t", "u"))]
    plan = range_assign(members, {"t": 10, "u": 2}.get)
    assert plan == {"m-5": {"t": [0, 1, 2]}, "m-1": {"t": [3, 4, 5]}, "m-0": {"t": [6, 7], "u": [0, 1]},
                    "m-9": {"t": [8, 9]}}


def test_range_matches_the_kip345_example_and_skips_unknown_topics():
    members = [RangeMember(i, None, ("t", "gone")) for i in ("2", "3", "4")]
    assert range_assign(members, {"t": 9}.get) == {"2": {"t": [0, 1, 2]}, "3": {"t": [3, 4, 5]},
                                                  "4": {"t": [6, 7, 8]}}
    assert range_assign([RangeMember("a", None, ("t",)), RangeMember("b", None, ("t",))], {"t": 1}.get) == \
        {"a": {"t": [0]}, "b": {}}


def test_ownership_counts_moves_gaps_and_conflicts():
    a, b = ("t", 0), ("t", 1)
    tracker = OwnershipTracker([a, b])
    tracker.change("p1", set(), {a, b}, 0)
    tracker.begin(1_000)
    tracker.change("p1", {a, b}, set(), 2_000)  # p1 restarts
    tracker.change("p1", set(), {a}, 5_000)  # a comes back to p1: a gap, not a move
    tracker.change("p2", set(), {b}, 6_000)  # b goes to p2: a move
    tracker.change("p3", set(), {b}, 7_000)  # b held twice: a conflict (and a move)
    assert tracker.moves == 2
    assert tracker.unowned_totals(8_000) == {a: 3_000, b: 4_000}
    assert len(tracker.conflicts) == 1 and "t-1 taken by p3 while p2 held it" in tracker.conflicts[0]


def test_ownership_before_begin_is_not_counted():
    a = ("t", 0)
    tracker = OwnershipTracker([a])
    tracker.change("p1", set(), {a}, 500)
    tracker.change("p1", {a}, set(), 600)
    tracker.change("p2", set(), {a}, 900)
    tracker.begin(1_000)
    assert tracker.moves == 0 and tracker.unowned_totals(2_000) == {a: 0}
    tracker.change("p2", {a}, set(), 1_500)
    assert tracker.unowned_totals(2_000) == {a: 500}


def _drive(coord, clients, ms: int) -> None:
    for _ in range(ms // 100):
        coord.advance(100)
        for client in clients:
            client.tick()


def test_a_classic_member_fenced_by_a_duplicate_instance_id_shuts_down():
    """KIP-345: a second process with a used instance id takes over; the first is fenced and stops."""
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("orders", 2)
    anomalies: list[str] = []
    both = frozenset({("orders", 0), ("orders", 1)})

    def client(name: str) -> ClassicClient:
        return ClassicClient(coord, name, "g", ["orders"], instance_id="pod-0", session_timeout_ms=10_000,
                             client_id="c", observe=OwnershipTracker(sorted(both)).change, anomalies=anomalies)

    old, new = client("old"), client("new")
    old.start()
    _drive(coord, [old], 5_000)
    assert old.owned == both and coord.classic.groups["g"].generation == 1
    new.start()
    _drive(coord, [old, new], 5_000)
    assert new.owned == both and coord.classic.groups["g"].generation == 1
    assert not old.running and old.owned == frozenset()
    assert len(anomalies) == 1 and "old: Heartbeat answered FENCED_INSTANCE_ID" in anomalies[0]


def test_a_kip848_member_with_an_unreleased_instance_id_stops():
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("orders", 2)
    anomalies: list[str] = []
    ids = IdGenerator(2)

    def client(name: str) -> ConsumerClient:
        return ConsumerClient(coord, name, "g", ["orders"], instance_id="pod-0", ids=ids,
                              observe=OwnershipTracker([("orders", 0), ("orders", 1)]).change, anomalies=anomalies)

    first, second = client("first"), client("second")
    first.start()
    _drive(coord, [first], 1_000)
    assert len(first.owned) == 2
    second.start()
    _drive(coord, [first, second], 1_000)
    assert first.running and not second.running
    assert len(anomalies) == 1 and "UNRELEASED_INSTANCE_ID" in anomalies[0]


# -- --migrate: the rolling restart that flips group.protocol ------------------------------------------------


def run_migration(migrate: str, **settings: object) -> tuple[BounceResult, list]:
    """A migration's result and the clients the pods run at the end."""
    sim = RollingBounce(BounceSettings.migration(migrate, **settings))
    return sim.run(), sim.clients


def test_a_static_upgrade_within_the_session_timeout_converts_at_the_first_restart():
    """The first pod back with group.protocol=consumer takes its classic predecessor's place (KAFKA-17228) and
    converts the group; the conversion keeps the epoch and the converting heartbeat bumps it once; every later
    static replacement keeps its target, so nothing else rebalances."""
    result, clients = run_migration("upgrade", members=10, partitions=30)
    assert_clean(result)
    assert (result.group_type_before, result.group_type_after) == ("classic", "consumer")
    assert (result.converted_at_restart, result.converted_at_ms) == (1, result.settings.restart_time_ms)
    assert all(isinstance(c, ConsumerClient) and c.instance_id == c.name for c in clients)
    assert result.rebalances == 1 and result.epoch_after == result.epoch_before + 1
    # The sticky uniform assignor keeps the balanced range assignment: every partition waits for its own pod.
    assert result.partition_moves == 0
    assert result.max_unowned_ms == result.settings.restart_time_ms


def test_a_static_downgrade_within_the_session_timeout_converts_back_at_the_last_restart():
    """Classic members replacing consumer-protocol ones keep their targets; the last replacement downgrades the
    group with the same subscription, so the classic group is Stable at once, at the group epoch: no rebalance."""
    result, clients = run_migration("downgrade", members=6, partitions=18)
    assert_clean(result)
    assert (result.group_type_before, result.group_type_after) == ("consumer", "classic")
    assert result.converted_at_restart == 6
    assert all(isinstance(c, ClassicClient) for c in clients)
    assert (result.rebalances, result.partition_moves) == (0, 0)
    assert result.epoch_after == result.epoch_before


@pytest.mark.parametrize(("migrate", "converted_at"), [("upgrade", 1), ("downgrade", 4)])
def test_a_dynamic_migration_rebalances_twice_per_restart(migrate, converted_at):
    """A dynamic pod leaves (one bump) and joins as a new member (another), whichever protocol the group has;
    the group converts when the first consumer-protocol member joins, or when the last one leaves."""
    result, _ = run_migration(migrate, members=4, partitions=12, static=False)
    assert_clean(result)
    assert result.converted_at_restart == converted_at
    assert result.rebalances == 2 * 4
    assert result.partition_moves > 0


def test_an_upgrade_of_a_single_dynamic_member_replaces_the_empty_group():
    """Its LeaveGroup empties the classic group, so the consumer-protocol member creates a consumer group in its
    place (not a conversion): the epochs start again, and the rebalances still count every bump."""
    result, _ = run_migration("upgrade", members=1, partitions=3, static=False)
    assert_clean(result)
    assert (result.group_type_after, result.converted_at_restart) == ("consumer", 1)
    assert result.epoch_after == 1 and result.rebalances == 2


def test_a_static_upgrade_longer_than_the_session_timeout_rebalances():
    result, _ = run_migration("upgrade", members=4, partitions=12, restart_time_ms=50_000)
    assert_clean(result)
    assert result.group_type_after == "consumer"
    assert result.rebalances > 4 and result.max_unowned_ms >= 45_000


@pytest.mark.parametrize("migrate", ["upgrade", "downgrade"])
@pytest.mark.parametrize("static", [True, False])
def test_migration_edge_sizes(migrate, static):
    for members, partitions, restart in ((1, 1, 10_000), (5, 3, 10_000), (3, 7, 0)):
        result, _ = run_migration(migrate, members=members, partitions=partitions, static=static,
                                  restart_time_ms=restart)
        assert_clean(result)
        assert result.group_type_after == ("consumer" if migrate == "upgrade" else "classic")


def test_a_run_without_migration_never_converts():
    result = run_rolling_bounce(BounceSettings(members=3, partitions=6, protocol="consumer", static=False))
    assert result.group_type_before == result.group_type_after == "consumer"
    assert (result.converted_at_restart, result.converted_at_ms) == (None, None)


@pytest.mark.parametrize(("settings", "setting", "words"), [
    ({"protocol": "consumer", "migrate": "upgrade"}, "protocol", "must be classic for a migration by upgrade"),
    ({"migrate": "sideways"}, "migrate", "upgrade, downgrade"),
    ({"migrate": "upgrade", "session_timeout_ms": 10_000}, "session_timeout_ms", "a migration runs both protocols"),
])
def test_migration_settings_are_validated(settings, setting, words):
    with pytest.raises(SettingsError) as info:
        BounceSettings(**settings).validate()
    assert info.value.setting == setting
    assert words in str(info.value)
