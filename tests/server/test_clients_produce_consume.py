"""Real clients produce and consume through `groupctl serve`: every codec, a classic group that
commits, a KIP-848 consumer, and kafka-python reading what librdkafka wrote and the other way round.

Committed offsets and lag are then checked offline, with the server stopped, through the local
backend and the CLI on the same DIR: what a consumer committed over the wire is what
`groupctl group describe --local DIR` shows.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Message, Producer, TopicPartition
from kafka import KafkaConsumer, KafkaProducer
from kafka import TopicPartition as KafkaTopicPartition

from groupctl.backends.local import LocalBackend
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.waits import WAIT_S

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
REPO = Path(__file__).resolve().parents[2]
DEADLINE_S = 60


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[ServerThread]:
    server = ServerThread(ServerOptions(directory, port=0))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def produce(bootstrap: str, topic: str, messages: list[tuple[bytes, bytes]], codec: str = "none") -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "compression.type": codec, "linger.ms": 5,
                         "message.timeout.ms": 20_000})
    failures: list[str] = []

    def delivered(err: object, _msg: object) -> None:
        if err is not None:
            failures.append(str(err))

    for key, value in messages:
        producer.produce(topic, key=key, value=value, headers=[("codec", codec.encode())], on_delivery=delivered)
    assert producer.flush(30) == 0
    assert failures == []


def consume(consumer: Consumer, count: int) -> list[Message]:
    """Poll until `count` messages arrived (or the deadline passed), then briefly for any extra one."""
    got: list[Message] = []
    deadline = time.monotonic() + DEADLINE_S
    while len(got) < count and time.monotonic() < deadline:
        message = consumer.poll(0.5)
        if message is None:
            continue
        assert message.error() is None, message.error()
        got.append(message)
    extra = consumer.poll(1.0)
    assert extra is None or extra.error() is not None, "more messages than were produced"
    return got


def consume_in_group(bootstrap: str, topic: str, count: int, config: dict[str, object]) -> list[tuple[int, int, bytes]]:
    """What a group consumer does: subscribe, read `count` messages from the earliest offset, commit them
    synchronously and close; the (partition, offset, value) of each message read."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, **config})
    try:
        consumer.subscribe([topic])
        got = consume(consumer, count)
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    return [(m.partition(), m.offset(), m.value()) for m in got]


def messages(tag: str, n: int) -> list[tuple[bytes, bytes]]:
    return [(f"{tag}-{i}".encode(), f"value {tag} {i}".encode() * 8) for i in range(n)]


def describe_offsets(directory: Path, group: str) -> dict[tuple[str, int], tuple[int, int | None, int | None]]:
    with LocalBackend(directory) as backend:
        (described,) = backend.describe_groups([group])
    return {(o.topic, o.partition): (o.offset, o.log_end_offset, o.lag) for o in described.offsets}


def cli_lags(directory: Path, group: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    """Committed offset, log end offset and lag per partition, from `group describe -o json`."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "groupctl", "group", "describe", group, "--local", str(directory), "-o", "json"],
        capture_output=True, text=True, timeout=60, env=env, check=False,
    )
    assert result.returncode == 0, result.stderr
    (item,) = json.loads(result.stdout)["items"]
    return {(o["topic"], o["partition"]): (o["offset"], o["logEndOffset"], o["logEndOffset"] - o["offset"])
            for o in item["offsets"]}


def test_every_codec_is_consumed_by_a_classic_group_and_the_lag_is_right(tmp_path: Path) -> None:
    directory = tmp_path / "cluster"
    n, more = 40, 7
    with serving(directory) as server:
        server.call(lambda b: b.backend.create_topic("orders", 2))
        sent: list[tuple[bytes, bytes]] = []
        for codec in CODECS:
            batch = messages(codec, n)
            produce(server.bootstrap, "orders", batch, codec)
            sent += batch
        got = consume_in_group(server.bootstrap, "orders", len(sent), {"group.id": "billing",
                                                                       "session.timeout.ms": 10_000})
        ends = server.call(lambda b: list(b.backend.end_offsets_by_topic["orders"]))
    assert sorted(v for _, _, v in got) == sorted(v for _, v in sent)
    assert len({(p, o) for p, o, _ in got}) == len(sent)
    assert sum(ends) == len(sent)
    expected = {("orders", p): (ends[p], ends[p], 0) for p in (0, 1) if ends[p]}
    assert describe_offsets(directory, "billing") == expected
    assert cli_lags(directory, "billing") == expected

    with serving(directory) as server:
        produce(server.bootstrap, "orders", messages("more", more), "gzip")
        later = server.call(lambda b: list(b.backend.end_offsets_by_topic["orders"]))
    assert sum(later) == len(sent) + more
    offsets = describe_offsets(directory, "billing")
    assert sum(lag or 0 for _, _, lag in offsets.values()) == more
    assert {tp: end for tp, (_, end, _) in offsets.items()} == {("orders", p): later[p] for p in (0, 1) if ends[p]}
    assert sum(lag for _, _, lag in cli_lags(directory, "billing").values()) == more


def test_a_kip_848_consumer_consumes_and_commits(tmp_path: Path) -> None:
    directory = tmp_path / "cluster"
    with serving(directory) as server:
        server.call(lambda b: b.backend.create_topic("events", 3))
        sent = messages("e", 30)
        produce(server.bootstrap, "events", sent, "lz4")
        got = consume_in_group(server.bootstrap, "events", len(sent), {"group.id": "kip848",
                                                                       "group.protocol": "consumer"})
        ends = server.call(lambda b: list(b.backend.end_offsets_by_topic["events"]))
    assert sorted(v for _, _, v in got) == sorted(v for _, v in sent)
    offsets = describe_offsets(directory, "kip848")
    assert offsets == {("events", p): (ends[p], ends[p], 0) for p in range(3) if ends[p]}


@pytest.mark.parametrize("codec", ["gzip", "zstd"])
def test_kafka_python_reads_what_librdkafka_wrote(tmp_path: Path, codec: str) -> None:
    with serving(tmp_path / "cluster") as server:
        server.call(lambda b: b.backend.create_topic("mixed", 2))
        sent = messages("rd", 25)
        produce(server.bootstrap, "mixed", sent, codec)
        consumer = KafkaConsumer(bootstrap_servers=server.bootstrap, enable_auto_commit=False,
                                 request_timeout_ms=20_000, fetch_max_wait_ms=200)
        try:
            partitions = [KafkaTopicPartition("mixed", p) for p in (0, 1)]
            consumer.assign(partitions)
            for tp in partitions:
                consumer.seek(tp, 0)
            got: list[tuple[bytes, bytes, list]] = []
            deadline = time.monotonic() + DEADLINE_S
            while len(got) < len(sent) and time.monotonic() < deadline:
                for records in consumer.poll(timeout_ms=500).values():
                    got += [(r.key, r.value, r.headers) for r in records]
            assert consumer.end_offsets(partitions) == {
                tp: end for tp, end in zip(partitions, server.call(
                    lambda b: b.backend.end_offsets_by_topic["mixed"]), strict=True)}
        finally:
            consumer.close()
    assert sorted((k, v) for k, v, _ in got) == sorted(sent)
    assert all(h == [("codec", codec.encode())] for _, _, h in got)


@pytest.mark.parametrize("codec", ["snappy", "lz4"])
def test_librdkafka_reads_what_kafka_python_wrote(tmp_path: Path, codec: str) -> None:
    with serving(tmp_path / "cluster") as server:
        server.call(lambda b: b.backend.create_topic("mixed", 2))
        sent = messages("kp", 25)
        producer = KafkaProducer(bootstrap_servers=server.bootstrap, compression_type=codec,
                                 acks="all", linger_ms=5, request_timeout_ms=20_000)  # idempotent by default
        try:
            futures = [producer.send("mixed", key=k, value=v, partition=i % 2, headers=[("by", b"kafka-python")])
                       for i, (k, v) in enumerate(sent)]
            producer.flush(timeout=30)
            assert [f.get(timeout=WAIT_S).offset for f in futures[:4]] == [0, 0, 1, 1]
        finally:
            producer.close(timeout=WAIT_S)
        consumer = Consumer({"bootstrap.servers": server.bootstrap, "group.id": "reader",
                             "enable.auto.commit": False})
        try:
            consumer.assign([TopicPartition("mixed", p, 0) for p in (0, 1)])
            got = [(m.key(), m.value(), m.headers()) for m in consume(consumer, len(sent))]
        finally:
            consumer.close()
    assert sorted((k, v) for k, v, _ in got) == sorted(sent)
    assert all(h == [("by", b"kafka-python")] for _, _, h in got)
