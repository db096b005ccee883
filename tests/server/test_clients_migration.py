"""librdkafka classic and `group.protocol=consumer` consumers sharing one group.id on `groupctl serve`:
online migration (issue 19) as real clients see it.

Every consumer's rebalance callbacks write to one ledger, which fails the test if a partition is
assigned to a consumer while another still holds it. Waits are bounded; consumers are closed even
when a test fails (the `consumers` fixture).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from confluent_kafka import ConsumerGroupType, KafkaError
from confluent_kafka.admin import AdminClient

from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeRequestData
from groupctl.server.broker import Broker
from groupctl.server.server import ServerOptions, ServerThread

from .frames import call
from .polled import Polled, partitions
from .test_clients_confluent import admin_description_view, description_view
from .waits import WAIT_S, wait_until

GROUP = "mixed"
TOPIC = "orders"


class Ledger:
    """Who holds each partition now, by the consumers' own callbacks; `clashes` lists double assignments."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.holder: dict[tuple[str, int], str] = {}
        self.clashes: list[str] = []

    def changed(self, name: str, kind: str, parts: frozenset[tuple[str, int]]) -> None:
        with self._lock:
            for tp in parts:
                if kind == "assign":
                    if self.holder.get(tp, name) != name:
                        self.clashes.append(f"{tp} assigned to {name} while {self.holder[tp]} holds it")
                    self.holder[tp] = name
                elif self.holder.get(tp) == name:
                    del self.holder[tp]


def quick_groups(broker: Broker) -> None:
    """A test cluster's settings: consumer-protocol heartbeats every 500 ms and a 3 s session (so a closed
    static member expires soon), classic groups without the initial rebalance delay."""
    broker.coordinator.configs.broker.update({
        "group.consumer.min.heartbeat.interval.ms": 500, "group.consumer.heartbeat.interval.ms": 500,
        "group.consumer.min.session.timeout.ms": 3000, "group.consumer.session.timeout.ms": 3000,
    })
    broker.coordinator.classic.initial_delay_ms = 0


def group_type(served: ServerThread) -> str | None:
    return served.call(lambda b: next((g.type for g in b.backend.list_groups() if g.group_id == GROUP), None))


def member_types(served: ServerThread) -> dict[str, int]:
    """client id -> MemberType, as ConsumerGroupDescribe v1 answers (0 classic, 1 consumer)."""
    (described,) = call(served, 69, 1, ConsumerGroupDescribeRequestData(group_ids=[GROUP])).groups
    return {m.client_id: m.member_type for m in described.members}


def test_classic_and_consumer_protocol_clients_share_a_group_and_it_migrates_both_ways(
    served: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served.call(quick_groups)
    served.call(lambda b: b.backend.create_topic(TOPIC, 6))
    ledger = Ledger()
    classic_config = {"group.id": GROUP, "group.protocol": "classic", "session.timeout.ms": 6000,
                      "heartbeat.interval.ms": 500, "partition.assignment.strategy": "range"}
    modern_config = {"group.id": GROUP, "group.protocol": "consumer"}
    watched = {"on_change": ledger.changed}
    old = [consumers(served, "c-static", [TOPIC], **watched, **classic_config, **{"group.instance.id": "pod-c"}),
           consumers(served, "c-dynamic", [TOPIC], **watched, **classic_config)]
    wait_until(lambda: all(len(c.owned) == 3 for c in old), "two classic consumers own three partitions each")
    assert group_type(served) == "classic"

    new = [consumers(served, "k-static", [TOPIC], **watched, **modern_config, **{"group.instance.id": "pod-k"}),
           consumers(served, "k-dynamic", [TOPIC], **watched, **modern_config)]
    everyone = old + new
    wait_until(lambda: all(c.owned for c in everyone) and sum(len(c.owned) for c in everyone) == 6,
               "all four consumers own partitions, six in all")
    assert frozenset().union(*(c.owned for c in everyone)) == partitions(TOPIC, 6)
    assert group_type(served) == "consumer"
    assert member_types(served) == {"c-static": 0, "c-dynamic": 0, "k-static": 1, "k-dynamic": 1}

    admin = AdminClient({"bootstrap.servers": served.bootstrap, "log_level": 3})
    listed = admin.list_consumer_groups(request_timeout=WAIT_S).result(WAIT_S)
    assert [(g.group_id, g.type) for g in listed.valid] == [(GROUP, ConsumerGroupType.CONSUMER)]

    def described_alike() -> bool:
        """AdminClient and groupctl describe the same members and assignments (asked until the group is still)."""
        admin_view = admin_description_view(admin.describe_consumer_groups([GROUP], request_timeout=WAIT_S)[GROUP]
                                            .result(WAIT_S))
        local_view = served.call(lambda b: description_view(b.backend.describe_groups([GROUP])[0]))
        return admin_view == local_view

    wait_until(described_alike, "AdminClient's describe_consumer_groups agrees with groupctl's describe")
    (described,) = served.call(lambda b: b.backend.describe_groups([GROUP]))
    assert {m.client_id: m.protocol for m in described.members} == {
        "c-static": "classic", "c-dynamic": "classic", "k-static": "consumer", "k-dynamic": "consumer"}

    for c in new:
        c.close()  # k-dynamic leaves (epoch -1); k-static (epoch -2) is fenced when its 3 s session expires
    wait_until(lambda: group_type(served) == "classic", "the group is classic again")
    wait_until(lambda: all(len(c.owned) == 3 for c in old), "the classic consumers own three partitions each again")
    assert frozenset().union(*(c.owned for c in old)) == partitions(TOPIC, 6)
    (described,) = served.call(lambda b: b.backend.describe_groups([GROUP]))
    assert sorted((m.client_id, m.protocol) for m in described.members) == [
        ("c-dynamic", "classic"), ("c-static", "classic")]
    assert ledger.clashes == []
    assert ledger.holder == {tp: "c-static" if tp in old[0].owned else "c-dynamic" for tp in partitions(TOPIC, 6)}


@pytest.fixture
def served_with_policy(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServerThread]:
    """A server whose group.consumer.migration.policy is the test's parameter (serve --broker-config)."""
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0,
                                        broker_settings={"group.consumer.migration.policy": request.param}))
    server.start()
    try:
        server.call(quick_groups)
        server.call(lambda b: b.backend.create_topic(TOPIC, 4))
        yield server
    finally:
        server.stop()


CLASSIC = {"group.id": GROUP, "group.protocol": "classic", "session.timeout.ms": 6000, "heartbeat.interval.ms": 500}
MODERN = {"group.id": GROUP, "group.protocol": "consumer"}


@pytest.mark.parametrize("served_with_policy", ["upgrade"], indirect=True)
def test_with_policy_upgrade_the_group_stays_a_consumer_group_after_the_last_consumer_member_leaves(
    served_with_policy: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served = served_with_policy
    ledger = Ledger()
    old = consumers(served, "c0", [TOPIC], on_change=ledger.changed, **CLASSIC)
    wait_until(lambda: len(old.owned) == 4, "the classic consumer owns every partition")
    new = consumers(served, "k0", [TOPIC], on_change=ledger.changed, **MODERN)
    wait_until(lambda: len(old.owned) == len(new.owned) == 2, "two partitions each")
    assert group_type(served) == "consumer"
    new.close()
    wait_until(lambda: len(old.owned) == 4, "the classic consumer owns every partition again")
    assert group_type(served) == "consumer"  # no downgrade under this policy
    assert member_types(served) == {"c0": 0}
    assert ledger.clashes == []


@pytest.mark.parametrize("served_with_policy", ["disabled", "downgrade"], indirect=True)
def test_without_upgrade_a_consumer_protocol_client_is_refused_and_the_classic_group_carries_on(
    served_with_policy: ServerThread, consumers: Callable[..., Polled]
) -> None:
    served = served_with_policy
    old = consumers(served, "c0", [TOPIC], **CLASSIC)
    wait_until(lambda: len(old.owned) == 4, "the classic consumer owns every partition")
    before = old.events[:]
    new = consumers(served, "k0", [TOPIC], **MODERN)
    wait_until(lambda: bool(new.errors), "the consumer-protocol client gets an error")
    assert new.errors[0].code() == KafkaError._FATAL and "group id does not exist" in new.errors[0].str()
    assert (new.owned, old.owned, old.events) == (frozenset(), partitions(TOPIC, 4), before)
    assert group_type(served) == "classic"
