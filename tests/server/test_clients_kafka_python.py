"""kafka-python, a second client written independently of librdkafka, against `groupctl serve`: its
consumer joins a classic group and commits, its admin lists, describes and removes members."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, OffsetAndMetadata, TopicPartition
from kafka.admin import MemberToRemove
from kafka.errors import NoError, UnknownMemberIdError

from groupctl.server.server import ServerThread
from tests.server.waits import WAIT_S, wait_until


class Polled:
    """A KafkaConsumer made, polled and closed in a thread of its own (it is not thread-safe)."""

    def __init__(self, served: ServerThread, name: str, instance_id: str | None = None) -> None:
        self.name = name
        self.assigned: frozenset[int] = frozenset()
        self.committed: dict[int, int | None] = {}
        self.error: BaseException | None = None
        self._commit: dict[int, int] = {}
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(served.bootstrap, instance_id), name=name, daemon=True)
        self._thread.start()

    def _run(self, bootstrap: str, instance_id: str | None) -> None:
        try:
            consumer = KafkaConsumer("orders", bootstrap_servers=bootstrap, group_id="kp", client_id=self.name,
                                     group_instance_id=instance_id, session_timeout_ms=30_000,
                                     heartbeat_interval_ms=500, enable_auto_commit=False)
        except BaseException as exc:
            self.error = exc
            raise
        try:
            while not self._stop.is_set():
                consumer.poll(timeout_ms=100)
                self.assigned = frozenset(tp.partition for tp in consumer.assignment())
                if self._commit:
                    offsets = {TopicPartition("orders", p): OffsetAndMetadata(o, "", -1)
                               for p, o in self._commit.items()}
                    consumer.commit(offsets)
                    self.committed = {p: consumer.committed(TopicPartition("orders", p)) for p in self._commit}
                    self._commit = {}
                    self._ready.set()
        finally:
            consumer.close()

    def commit(self, offsets: dict[int, int]) -> dict[int, int | None]:
        """Commit from the polling thread; what `committed()` reads back."""
        self._ready.clear()
        self._commit = dict(offsets)
        assert self._ready.wait(WAIT_S), f"{self.name} did not commit"
        return self.committed

    def close(self) -> None:
        self._stop.set()
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), f"{self.name} did not close"


@pytest.fixture
def kp(served: ServerThread) -> Iterator[list[Polled]]:
    # The broker's group.initial.rebalance.delay.ms (3 s) stays: with none, kafka-python's leader can
    # assign before its first metadata arrives, and then owns nothing until its metadata next changes.
    served.call(lambda b: b.backend.create_topic("orders", 4))
    made = [Polled(served, "kp0"), Polled(served, "kp1", "kp-1")]
    try:
        yield made
    finally:
        for polled in made:
            polled.close()


def test_kafka_python_consumers_join_commit_and_are_listed_described_and_removed(
    served: ServerThread, kp: list[Polled]
) -> None:
    dynamic, static = kp
    wait_until(lambda: len(dynamic.assigned) == len(static.assigned) == 2, "each consumer owns two partitions")
    assert dynamic.assigned | static.assigned == {0, 1, 2, 3}
    committed = dynamic.commit({p: 100 + p for p in dynamic.assigned})
    assert committed == {p: 100 + p for p in dynamic.assigned}
    offsets = served.call(lambda b: {o.partition: o.offset for o in b.backend.committed_offsets("kp")})
    assert offsets == committed

    admin = KafkaAdminClient(bootstrap_servers=served.bootstrap, client_id="kp-admin")
    try:
        assert admin.list_groups() == [
            {"group_id": "kp", "protocol_type": "consumer", "group_state": "Stable", "group_type": "classic"}]
        assert admin.list_groups(states_filter=["Empty"]) == []
        assert [g["group_id"] for g in admin.list_groups(states_filter=["stable"], types_filter=["classic"])] == ["kp"]
        assert admin.list_groups(types_filter=["consumer"]) == []
        described = admin.describe_groups(["kp"])["kp"]
        assert (described["group_state"], described["protocol_type"], described["protocol_data"]) == (
            "Stable", "consumer", "range")
        members = {m["client_id"]: m for m in described["members"]}
        assert members["kp1"]["group_instance_id"] == "kp-1" and members["kp0"]["group_instance_id"] is None
        assert members["kp0"]["member_id"].startswith("kp0-")  # KIP-394: the id the broker gave it
        assert {c: sorted(p for a in m["member_assignment"]["assigned_partitions"] for p in a["partitions"])
                for c, m in members.items()} == {"kp0": sorted(dynamic.assigned), "kp1": sorted(static.assigned)}

        static.close()  # a static member does not leave on close: its partitions wait for it
        assert served.call(lambda b: "kp-1" in b.coordinator.classic.groups["kp"].static)
        removed = admin.remove_group_members("kp", [MemberToRemove(group_instance_id="kp-1", reason="scaled down"),
                                                    MemberToRemove(group_instance_id="kp-9")])
        # kafka-python 3.0.12 keys the result by the instance id (its docstring says by MemberToRemove).
        assert removed == {"kp-1": NoError, "kp-9": UnknownMemberIdError}
        wait_until(lambda: dynamic.assigned == {0, 1, 2, 3}, "the member left owns every partition")
        assert [m["client_id"] for m in admin.describe_groups(["kp"])["kp"]["members"]] == ["kp0"]
    finally:
        admin.close()
