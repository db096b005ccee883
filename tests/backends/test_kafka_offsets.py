"""The Kafka backend's offsets-reset methods against `groupctl serve` on 127.0.0.1: ListOffsets
(earliest, by time with the log end where no record is that recent) and the admin OffsetCommit through
confluent-kafka, with the broker's per-partition answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Producer

from groupctl.backends.kafka import KafkaBackend
from groupctl.backends.local import LocalBackend
from groupctl.kafka.config import ClientConfig
from groupctl.model import TopicPartition
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.waits import WAIT_S

from ..cli.test_group import _consumer_group

T0 = 1_700_000_000_000
P0, P1 = TopicPartition("t", 0), TopicPartition("t", 1)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[KafkaBackend]:
    with LocalBackend(tmp_path / "dir", create=True) as b:
        b.coordinator.create_topic("t", 2)
        b.end_offsets_by_topic["t"] = [0, 50]
        _consumer_group(b, "live", "t", ["pod-0"])
    server = ServerThread(ServerOptions(tmp_path / "dir", port=0))
    server.start()
    try:
        producer = Producer({"bootstrap.servers": server.bootstrap, "log_level": 0, "linger.ms": 0})
        for i in range(4):
            producer.produce("t", b"r", partition=0, timestamp=T0 + i * 1000)
        assert producer.flush(WAIT_S) == 0
        kafka = KafkaBackend(ClientConfig.from_properties({"bootstrap.servers": server.bootstrap}), timeout=WAIT_S)
        try:
            yield kafka
        finally:
            kafka.close()
    finally:
        server.stop()


def test_log_starts_and_offsets_by_time(backend):
    assert backend.partition_counts(["t", "nope"]) == {"t": 2}
    assert backend.start_offsets([P0, P1]) == {P0: 0, P1: 50}
    assert backend.offsets_for_time([P0, P1], T0 + 1500) == {P0: 2, P1: 50}  # P1 has no records: its log end
    assert backend.offsets_for_time([P0], T0 + 60_000) == {P0: 4}  # after the last record: the log end


def test_the_admin_commit_answers_per_partition(backend):
    assert backend.alter_offsets("g", {P0: 3, TopicPartition("t", 7): 1}) == {
        P0: None, TopicPartition("t", 7): "UNKNOWN_TOPIC_OR_PARTITION"}
    assert [(o.partition, o.offset) for o in backend.committed_offsets("g")] == [(0, 3)]


def test_a_group_with_members_refuses_the_admin_commit(backend):
    before = backend.committed_offsets("live")
    assert backend.alter_offsets("live", {P0: 1, P1: 1}) == {P0: "UNKNOWN_MEMBER_ID", P1: "UNKNOWN_MEMBER_ID"}
    assert backend.committed_offsets("live") == before
