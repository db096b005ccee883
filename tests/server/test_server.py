"""The listener as a broker must be: real clients that go away at any moment cost only their own connection.

librdkafka consumers close while their Fetch long-polls and JoinGroups are parked, producers are destroyed
with requests in flight, all in a bounded loop, while a healthy client keeps producing, committing and
reading its commits back. The server must stay up, answer, log no internal error and let go of every
connection the churn opened.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from confluent_kafka import OFFSET_END, Consumer, Producer, TopicPartition

from groupctl.coordinator.classic import PREPARING_REBALANCE
from groupctl.protocol.consumer_protocol import encode_subscription
from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.server.server import ServerThread
from tests.server.frames import Wire
from tests.server.healthy import Healthy
from tests.server.waits import WAIT_S, wait_until

ROUNDS = 5


@pytest.fixture
def healthy(served: ServerThread) -> Iterator[Healthy]:
    for name, partitions in (("orders", 1), ("idle", 2), ("churn", 2)):
        served.call(lambda b, n=name, p=partitions: b.backend.create_topic(n, p))
    client = Healthy(served.bootstrap)
    wait_until(lambda: client.rounds >= 2 or bool(client.errors), "the healthy client completes two rounds")
    yield client
    client.stop()


def _park_the_group(served: ServerThread) -> Wire:
    """A member of group "churn" that joined and then went silent (session and rebalance timeouts longer than
    the test runs): every JoinGroup from now on waits for it, parked, as it would for a slow member on a broker."""
    wire = Wire(served, "silent")
    join = {"groupId": "churn", "sessionTimeoutMs": 600_000, "rebalanceTimeoutMs": 600_000, "memberId": "",
            "groupInstanceId": None, "protocolType": "consumer",
            "protocols": [{"name": "range", "metadata": encode_subscription({"topics": ["churn"]}, 0)}]}
    member_id = wire.call_carried(11, 5, join)["memberId"]
    joined = wire.call_carried(11, 5, {**join, "memberId": member_id})
    assert joined["errorCode"] == 0, joined
    synced = wire.call_carried(14, 3, {"groupId": "churn", "generationId": joined["generationId"],
                                       "memberId": member_id, "groupInstanceId": None,
                                       "assignments": [{"memberId": member_id, "assignment": b""}]})
    assert synced["errorCode"] == 0, synced
    return wire


def _group_state(served: ServerThread) -> tuple[str, int]:
    return served.call(lambda b: (b.coordinator.classic.groups["churn"].state,
                                  b.coordinator.classic.groups["churn"].awaiting_join_count()))


def test_clients_that_close_mid_fetch_and_mid_join_cost_only_themselves(served: ServerThread,
                                                                          healthy: Healthy) -> None:
    lines: list[str] = []
    served.call(lambda broker: setattr(broker.log, "write", lines.append))
    baseline = served.server.connection_count
    silent = _park_the_group(served)
    config = {"bootstrap.servers": served.bootstrap, "log_level": 0, "enable.auto.commit": False}
    rounds_before = healthy.rounds
    for n in range(ROUNDS):
        fetchers = [Consumer({**config, "group.id": f"fetch-{n}-{i}", "fetch.wait.max.ms": 10_000})
                    for i in range(2)]
        for i, fetcher in enumerate(fetchers):
            fetcher.assign([TopicPartition("idle", i, OFFSET_END)])
        joiners = [Consumer({**config, "group.id": "churn", "session.timeout.ms": 30_000}) for _ in range(2)]
        for joiner in joiners:
            joiner.subscribe(["churn"])
        producer = Producer({"bootstrap.servers": served.bootstrap, "log_level": 0, "linger.ms": 0})
        deadline = time.monotonic() + WAIT_S
        while _group_state(served)[1] < 2 and time.monotonic() < deadline:
            for consumer in (*fetchers, *joiners):
                consumer.poll(0.05)
        # At least two: the joiners of earlier rounds that got as far as a parked JoinGroup stay in the group
        # until their session times out (as on Kafka), and this round's may still be joining.
        state, awaiting = _group_state(served)
        assert state == PREPARING_REBALANCE and awaiting >= 2, "the joiners' JoinGroups are not parked"
        for i in range(50):
            producer.produce("churn", value=b"x" * 1000, partition=i % 2)
        producer.poll(0)
        for consumer in (*fetchers, *joiners):
            consumer.close()
        del producer  # destroyed with its Produce requests in flight
    assert silent.call(18, 0, ApiVersionsRequestData()).error_code == 0
    silent.close()
    wait_until(lambda: healthy.rounds >= rounds_before + 3 or bool(healthy.errors),
               "the healthy client completes three more rounds")
    assert healthy.errors == []
    wait_until(lambda: served.server.connection_count <= baseline, "the churned connections are let go")
    assert [line for line in lines if "internal error" in line] == []
