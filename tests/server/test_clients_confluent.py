"""librdkafka (confluent-kafka) consumers and AdminClient against `groupctl serve` over loopback.

Group membership and assignment only: the consumers poll, but what they fetch is not looked at
(Produce/Fetch may not be served). Every wait is bounded; a consumer is polled in its own thread and
keeps what its rebalance callbacks said.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from confluent_kafka import Consumer, ConsumerGroupState, ConsumerGroupType, TopicPartition
from confluent_kafka.admin import AdminClient, ConsumerGroupDescription, NewPartitions

from groupctl.backends.local import LocalBackend
from groupctl.model import GroupDescription, GroupListing
from groupctl.model import TopicPartition as TopicPartitionModel
from groupctl.protocol.data.groups import LeaveGroupRequestData, MemberIdentity
from groupctl.server.broker import Broker
from groupctl.server.server import ServerThread

from .frames import call
from .polled import Polled, partitions
from .waits import WAIT_S, wait_until


def classic_generation(served: ServerThread, group: str) -> int:
    return served.call(lambda b: b.coordinator.classic.groups[group].generation)


# -- classic protocol, static members (KIP-345) ---------------------------------------------------


def test_classic_static_members_bounce_without_a_rebalance_and_an_admin_leave_rebalances(
    served: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served.call(lambda b: b.backend.create_topic("orders", 6))
    config = {"group.id": "shop", "session.timeout.ms": 30_000, "heartbeat.interval.ms": 500,
              "partition.assignment.strategy": "range"}
    pods = [consumers(served, f"c{i}", ["orders"], **config, **{"group.instance.id": f"pod-{i}"}) for i in range(3)]
    wait_until(lambda: all(len(p.owned) == 2 for p in pods), "three static members own two partitions each")
    assert frozenset().union(*(p.owned for p in pods)) == partitions("orders", 6)
    generation = classic_generation(served, "shop")
    before = {p.name: (p.revocations(), p.owned) for p in pods[:2]}
    old_member = served.call(lambda b: b.coordinator.classic.groups["shop"].static["pod-2"])

    # A rolling restart of pod-2 within the session timeout: no LeaveGroup, no rebalance.
    pods[2].close()
    assert served.call(lambda b: "pod-2" in b.coordinator.classic.groups["shop"].static)
    restarted = consumers(served, "c2-restarted", ["orders"], **config, **{"group.instance.id": "pod-2"})
    wait_until(lambda: restarted.owned == pods[2].owned, "the restarted pod-2 owns what pod-2 owned")
    time.sleep(2.0)  # four heartbeat intervals: a rebalance, had one started, would show by now
    assert {p.name: (p.revocations(), p.owned) for p in pods[:2]} == before
    assert classic_generation(served, "shop") == generation
    assert served.call(lambda b: b.coordinator.classic.groups["shop"].static["pod-2"]) != old_member

    # pod-2 goes away for good; an operator removes it by instance id instead of waiting 30 s.
    restarted.close()
    answer = call(served, 13, 5, LeaveGroupRequestData(group_id="shop", members=[
        MemberIdentity(group_instance_id="pod-2", reason="scaled down")]))  # LeaveGroup v5, as an admin
    assert [(m.group_instance_id, m.error_code) for m in answer.members] == [("pod-2", 0)]
    wait_until(lambda: all(len(p.owned) == 3 for p in pods[:2]), "the two left own three partitions each")
    assert frozenset().union(*(p.owned for p in pods[:2])) == partitions("orders", 6)
    assert all(p.revocations() == before[p.name][0] + 1 for p in pods[:2])
    assert classic_generation(served, "shop") == generation + 1
    assert served.call(lambda b: sorted(b.coordinator.classic.groups["shop"].static)) == ["pod-0", "pod-1"]


# -- the consumer protocol (KIP-848) --------------------------------------------------------------


def fast_heartbeats(broker: Broker) -> None:
    """Consumer-group heartbeats every 500 ms (the broker's minimum lowered, as test clusters do)."""
    broker.coordinator.configs.broker["group.consumer.min.heartbeat.interval.ms"] = 500
    broker.coordinator.configs.broker["group.consumer.heartbeat.interval.ms"] = 500


def test_consumer_protocol_members_balance_keep_assignments_across_a_static_bounce_and_take_new_partitions(
    served: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served.call(fast_heartbeats)
    served.call(lambda b: b.backend.create_topic("orders", 6))
    served.call(lambda b: b.backend.create_topic("orders-eu", 3))
    served.call(lambda b: b.backend.create_topic("payments", 2))
    config = {"group.id": "shop", "group.protocol": "consumer"}
    dynamic = consumers(served, "dynamic", ["orders", "orders-eu"], **config)
    static = consumers(served, "static", ["orders", "orders-eu"], **config, **{"group.instance.id": "pod-1"})
    regex = consumers(served, "regex", ["^orders.*"], **config)
    members = [dynamic, static, regex]
    wanted = partitions("orders", 6) | partitions("orders-eu", 3)
    wait_until(lambda: all(len(m.owned) == 3 for m in members), "three members own three partitions each")
    assert frozenset().union(*(m.owned for m in members)) == wanted
    described = served.call(lambda b: b.coordinator.describe("shop"))
    assert described.state == "Stable"
    regexes = {m.client_id: m.subscribed_regex for m in described.members}
    assert not regexes["dynamic"] and not regexes["static"]  # librdkafka sends "" (no regex), as Kafka stores it
    assert regexes["regex"] == "(^orders.*)"  # librdkafka's form of its regex subscriptions

    kept = static.owned
    others = {m.name: (m.revocations(), m.owned) for m in (dynamic, regex)}
    static.close()  # epoch -2: the instance keeps its place for the session timeout
    bounced = consumers(served, "static-again", ["orders", "orders-eu"], **config, **{"group.instance.id": "pod-1"})
    wait_until(lambda: bounced.owned == kept, "the bounced static member owns its partitions again")
    assert {m.name: (m.revocations(), m.owned) for m in (dynamic, regex)} == others
    members = [dynamic, bounced, regex]

    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    admin.create_partitions([NewPartitions("orders", 9)])["orders"].result(timeout=WAIT_S)
    wait_until(lambda: all(len(m.owned) == 4 for m in members), "each member owns four partitions")
    assert frozenset().union(*(m.owned for m in members)) == partitions("orders", 9) | partitions("orders-eu", 3)
    assert all(m.owned >= before for m, before in zip(members, (others["dynamic"][1], kept, others["regex"][1]),
                                                       strict=True))


# -- AdminClient: the same answers as the local backend -------------------------------------------

_STATES = {"Stable": ConsumerGroupState.STABLE, "Empty": ConsumerGroupState.EMPTY, "Dead": ConsumerGroupState.DEAD,
           "PreparingRebalance": ConsumerGroupState.PREPARING_REBALANCING,
           "CompletingRebalance": ConsumerGroupState.COMPLETING_REBALANCING}
_TYPES = {"classic": ConsumerGroupType.CLASSIC, "consumer": ConsumerGroupType.CONSUMER}


def listing_view(g: GroupListing) -> tuple:
    """A groupctl listing as librdkafka reports one (it has no Assigning/Reconciling: UNKNOWN)."""
    return g.group_id, _STATES.get(g.state, ConsumerGroupState.UNKNOWN), _TYPES[g.type], g.protocol_type == ""


def description_view(d: GroupDescription) -> tuple:
    def pairs(tps: list[TopicPartitionModel]) -> tuple:
        return tuple(sorted((tp.topic, tp.partition) for tp in tps))

    members = sorted(
        (m.member_id, m.instance_id, m.client_id, m.host, pairs(m.assignment),
         None if d.type == "classic" else pairs(m.target_assignment or []))
        for m in d.members
    )
    return (d.group_id, _STATES.get(d.state, ConsumerGroupState.UNKNOWN), _TYPES[d.type], d.protocol_type == "",
            d.assignor or "", members)


def admin_description_view(d: ConsumerGroupDescription) -> tuple:
    def pairs(assignment: object) -> tuple | None:
        if assignment is None:
            return None
        return tuple(sorted((tp.topic, tp.partition) for tp in assignment.topic_partitions))  # type: ignore[attr-defined]

    members = sorted((m.member_id, m.group_instance_id, m.client_id, m.host, pairs(m.assignment),
                      pairs(m.target_assignment)) for m in d.members)
    return d.group_id, d.state, d.type, d.is_simple_consumer_group, d.partition_assignor, members


def admin_answers(admin: AdminClient, groups: list[str]) -> dict:
    def listed(**filters: object) -> list[tuple]:
        result = admin.list_consumer_groups(request_timeout=10, **filters).result(WAIT_S)
        assert result.errors == []
        return sorted((g.group_id, g.state, g.type, g.is_simple_consumer_group) for g in result.valid)

    futures = admin.describe_consumer_groups(groups, request_timeout=WAIT_S)
    return {
        "all": listed(),
        "consumer": listed(types={ConsumerGroupType.CONSUMER}),
        "classic": listed(types={ConsumerGroupType.CLASSIC}),
        "stable": listed(states={ConsumerGroupState.STABLE}),
        "empty classic": listed(states={ConsumerGroupState.EMPTY}, types={ConsumerGroupType.CLASSIC}),
        "described": [admin_description_view(futures[g].result(WAIT_S)) for g in groups],
    }


def local_answers(backend: LocalBackend, groups: list[str]) -> dict:
    def listed(types: list[str] | None = None, states: list[str] | None = None) -> list[tuple]:
        return sorted(listing_view(g) for g in backend.list_groups(types=types, states=states))

    return {
        "all": listed(),
        "consumer": listed(types=["consumer"]),
        "classic": listed(types=["classic"]),
        "stable": listed(states=["Stable"]),
        "empty classic": listed(types=["classic"], states=["Empty"]),
        "described": [description_view(d) for d in backend.describe_groups(groups)],
    }


def test_admin_client_lists_and_describes_groups_as_the_local_backend_does(
    served: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served.call(fast_heartbeats)
    served.call(lambda b: setattr(b.coordinator.classic, "initial_delay_ms", 0))
    served.call(lambda b: b.backend.create_topic("orders", 4))
    classic = [consumers(served, f"c{i}", ["orders"], **{"group.id": "classic", "group.instance.id": f"pod-{i}",
                                                          "session.timeout.ms": 30_000}) for i in range(2)]
    modern = [consumers(served, "k0", ["orders"], **{"group.id": "modern", "group.protocol": "consumer",
                                                      "group.instance.id": "pod-k0"}),
              consumers(served, "k1", ["orders"], **{"group.id": "modern", "group.protocol": "consumer"})]
    committer = Consumer({"bootstrap.servers": served.bootstrap, "group.id": "simple", "log_level": 3})
    try:
        committer.commit(offsets=[TopicPartition("orders", 0, 5)], asynchronous=False)
    finally:
        committer.close()
    for group in (classic, modern):
        wait_until(lambda group=group: all(len(c.owned) == 2 for c in group), "every member owns two partitions")
    groups = ["classic", "modern", "simple"]
    admin = AdminClient({"bootstrap.servers": served.bootstrap, "log_level": 3})

    live = admin_answers(admin, groups)
    assert live == served.call(lambda b: local_answers(b.backend, groups))
    assert live["consumer"] == [("modern", ConsumerGroupState.STABLE, ConsumerGroupType.CONSUMER, False)]
    assert [d[4] for d in live["described"]] == ["range", "uniform", ""]

    for c in classic + modern:
        c.close()  # static classic members stay; the static KIP-848 member stays at epoch -2; k1 leaves
    wait_until(lambda: served.call(lambda b: len(b.coordinator.describe("modern").members)) == 1, "k1 has left")
    after = admin_answers(admin, groups)
    directory = served.server.options.directory
    served.stop()
    with LocalBackend(directory) as backend:
        assert local_answers(backend, groups) == after
    assert [(d[0], len(d[5])) for d in after["described"]] == [("classic", 2), ("modern", 1), ("simple", 0)]
