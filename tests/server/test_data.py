"""Produce, Fetch and ListOffsets over loopback with raw frames: every version, the error paths,
the long poll, and a restart on the same DIR."""

from __future__ import annotations

import struct
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.log.segment import iter_batches
from groupctl.log.writer import SegmentWriter, SimpleRecord, build_batch, build_message_set
from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.records_apis import (
    FetchPartition,
    FetchRequestData,
    FetchTopic,
    ListOffsetsPartition,
    ListOffsetsPartitionResponse,
    ListOffsetsRequestData,
    ListOffsetsTopic,
    PartitionData,
    PartitionProduceData,
    PartitionProduceResponse,
    ProduceRequestData,
    TopicProduceData,
)
from groupctl.server.server import ServerOptions, ServerThread
from tests.server.frames import Wire, closed_by_server
from tests.server.waits import OUTLASTS_S

PRODUCE, FETCH, LIST_OFFSETS, API_VERSIONS = 0, 1, 2, 18


@pytest.fixture
def wire(served: ServerThread) -> Iterator[Wire]:
    with Wire(served) as client:
        yield client


def make_topic(served: ServerThread, name: str = "orders", partitions: int = 2, messages: int = 0) -> uuid.UUID:
    return served.call(lambda b: b.backend.create_topic(name, partitions, messages)).topic_id


def batch(n: int = 3, codec: str = "none", ts: int = 1_700_000_000_000, tag: str = "v") -> bytes:
    return build_batch([SimpleRecord(f"k{i}".encode(), f"{tag}{i}".encode(), ts + i) for i in range(n)], codec=codec)


def produce_body(records: bytes | None, *, topic: str = "orders", topic_id: uuid.UUID | None = None,
                 partition: int = 0, acks: int = -1) -> ProduceRequestData:
    return ProduceRequestData(transactional_id=None, acks=acks, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, topic_id=topic_id or uuid.UUID(int=0),
                         partition_data=[PartitionProduceData(index=partition, records=records)])])


def produced(wire: Wire, version: int, records: bytes | None, **options: object) -> PartitionProduceResponse:
    body = wire.call(PRODUCE, version, produce_body(records, **options))  # type: ignore[arg-type]
    (topic,) = body.responses
    (partition,) = topic.partition_responses
    return partition


def fetch_body(offset: int, *, topic: str = "orders", topic_id: uuid.UUID | None = None, partition: int = 0,
               max_wait_ms: int = 0, min_bytes: int = 0, max_bytes: int = 50 << 20,
               partition_max_bytes: int = 1 << 20, leader_epoch: int = -1, session_epoch: int = -1,
               isolation: int = 0) -> FetchRequestData:
    return FetchRequestData(
        replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=min_bytes, max_bytes=max_bytes, isolation_level=isolation,
        session_id=0, session_epoch=session_epoch, topics=[
            FetchTopic(topic=topic, topic_id=topic_id or uuid.UUID(int=0), partitions=[
                FetchPartition(partition=partition, current_leader_epoch=leader_epoch, fetch_offset=offset,
                               last_fetched_epoch=-1, log_start_offset=-1, partition_max_bytes=partition_max_bytes)])],
        forgotten_topics_data=[], rack_id="")


def fetched(wire: Wire, version: int, offset: int, **options: object) -> PartitionData:
    body = wire.call(FETCH, version, fetch_body(offset, **options))  # type: ignore[arg-type]
    assert body.error_code == 0 and body.session_id == 0
    (topic,) = body.responses
    (partition,) = topic.partitions
    return partition


def offsets_in(records: bytes) -> list[int]:
    return [r.offset for b in iter_batches(records, strict=True) for r in b.records]


def list_offsets(wire: Wire, version: int, timestamp: int, *, topic: str = "orders", partition: int = 0,
                 leader_epoch: int = -1) -> ListOffsetsPartitionResponse:
    body = wire.call(LIST_OFFSETS, version, ListOffsetsRequestData(
        replica_id=-1, isolation_level=0, timeout_ms=5000, topics=[
            ListOffsetsTopic(name=topic, partitions=[
                ListOffsetsPartition(partition_index=partition, current_leader_epoch=leader_epoch,
                                     timestamp=timestamp)])]))
    (answer,) = body.topics
    (partition_answer,) = answer.partitions
    return partition_answer


# -- Produce ------------------------------------------------------------------------------------------


def test_every_produce_version_appends_and_answers_with_the_base_offset(served: ServerThread, wire: Wire) -> None:
    topic_id = make_topic(served)
    expected = 0
    for version in range(3, 14):
        codec = "zstd" if version >= 7 else "gzip"
        body = wire.call(PRODUCE, version, produce_body(batch(2, codec), topic_id=topic_id))
        (topic,) = body.responses
        if version >= 13:
            assert topic.topic_id == topic_id and topic.name == ""  # the default: v13 carries no name
        else:
            assert topic.name == "orders"
        (answer,) = topic.partition_responses
        assert (answer.error_code, answer.base_offset) == (0, expected)
        assert answer.log_append_time_ms == -1
        if version >= 5:
            assert answer.log_start_offset == 0
        expected += 2
    assert served.call(lambda b: b.backend.end_offsets_by_topic["orders"]) == [expected, 0]


@pytest.mark.parametrize(("version", "records", "options", "error"), [
    (9, batch(), {"topic": "missing"}, 3),
    (13, batch(), {"topic_id": uuid.uuid4()}, 100),
    (9, batch(), {"partition": 2}, 3),
    (13, batch(), {"partition": -1, "topic_id": None}, 3),
    (9, bytes(batch()[:30]) + b"\xff" + batch()[31:], {}, 2),
    (9, build_message_set([SimpleRecord(None, b"x", 1)], magic=1), {}, 87),
    (9, batch() + batch(), {}, 87),
    (9, None, {}, 87),
    (6, batch(codec="zstd"), {}, 76),
    (9, batch(), {"acks": 2}, 21),
])
def test_produce_errors_per_partition(
    served: ServerThread, wire: Wire, version: int, records: bytes | None, options: dict, error: int
) -> None:
    topic_id = make_topic(served)
    options = {"topic_id": topic_id, **options}
    if options["topic_id"] is None:
        options["topic_id"] = topic_id
    answer = produced(wire, version, records, **options)
    assert (answer.error_code, answer.base_offset) == (error, -1)
    if version >= 8 and error in (2, 87, 76):
        assert answer.error_message
    assert produced(wire, version, batch(1), topic_id=topic_id).base_offset == 0  # nothing was stored


def test_acks_zero_gets_no_response_and_a_failure_closes_the_connection(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    wire.send(PRODUCE, 9, produce_body(batch(2), acks=0), answered=False)
    answer = produced(wire, 9, batch(1))
    assert answer.base_offset == 2  # the next request's answer is the first thing on the wire
    wire.send(PRODUCE, 9, produce_body(batch(2), topic="missing", acks=0), answered=False)
    assert closed_by_server(wire.sock)
    with Wire(served) as other:
        assert list_offsets(other, 7, -1).offset == 3


def test_a_topic_made_with_messages_starts_as_if_retention_deleted_them(served: ServerThread, wire: Wire) -> None:
    make_topic(served, "old", 1, messages=5)
    assert [list_offsets(wire, 9, ts, topic="old").offset for ts in (-2, -1, -4)] == [5, 5, 5]
    assert fetched(wire, 12, 0, topic="old").error_code == 1
    answer = produced(wire, 9, batch(2), topic="old")
    assert (answer.base_offset, answer.log_start_offset) == (5, 5)
    assert served.call(lambda b: b.backend.end_offsets_by_topic["old"]) == [7]
    assert offsets_in(fetched(wire, 12, 5, topic="old").records) == [5, 6]


# -- Fetch --------------------------------------------------------------------------------------------


def test_every_fetch_version_returns_whole_batches_from_the_one_holding_the_offset(
    served: ServerThread, wire: Wire
) -> None:
    topic_id = make_topic(served)
    for i in range(3):
        produced(wire, 9, batch(2, "lz4", tag=f"b{i}-"))
    for version in range(4, 19):
        body = wire.call(FETCH, version, fetch_body(3, topic_id=topic_id))
        assert body.session_id == 0
        (topic,) = body.responses
        assert topic.topic_id == topic_id if version >= 13 else topic.topic == "orders"
        (answer,) = topic.partitions
        assert answer.error_code == 0
        assert answer.high_watermark == 6
        assert answer.last_stable_offset == 6
        if version >= 5:
            assert answer.log_start_offset == 0
        if version >= 11:
            assert answer.preferred_read_replica == -1
        assert answer.aborted_transactions is None
        assert offsets_in(answer.records) == [2, 3, 4, 5]
        values = [r.value for b in iter_batches(answer.records) for r in b.records]
        assert values == [b"b1-0", b"b1-1", b"b2-0", b"b2-1"]


def test_fetch_sizes_follow_kip_74(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    one = batch(3)
    for _ in range(4):
        produced(wire, 9, one)
        produced(wire, 9, one, partition=1)
    assert len(fetched(wire, 12, 0, partition_max_bytes=2 * len(one)).records) == 2 * len(one)
    assert len(fetched(wire, 12, 0, partition_max_bytes=10).records) == len(one)
    both = [FetchTopic(topic="orders", partitions=[
        FetchPartition(partition=p, fetch_offset=0, partition_max_bytes=1 << 20) for p in (0, 1)])]
    request = fetch_body(0, max_bytes=len(one) + 5)
    request.topics = both
    body = wire.call(FETCH, 12, request)
    sizes = [len(p.records) for p in body.responses[0].partitions]
    assert sizes == [len(one), 0]
    request = fetch_body(0, max_bytes=1)
    request.topics = both
    body = wire.call(FETCH, 12, request)
    assert [len(p.records) for p in body.responses[0].partitions] == [len(one), 0]


@pytest.mark.parametrize(("version", "offset", "options", "error"), [
    (12, 3, {}, 1),
    (12, -1, {}, 1),
    (12, 0, {"topic": "missing"}, 3),
    (12, 0, {"partition": 5}, 3),
    (13, 0, {"topic_id": uuid.uuid4()}, 100),
    (12, 0, {"leader_epoch": 1}, 75),
])
def test_fetch_errors_per_partition(
    served: ServerThread, wire: Wire, version: int, offset: int, options: dict, error: int
) -> None:
    make_topic(served)
    produced(wire, 9, batch(2))
    answer = fetched(wire, version, offset, max_wait_ms=5000, min_bytes=1, **options)
    assert answer.error_code == error
    assert (answer.high_watermark, answer.log_start_offset, answer.records) == (-1, -1, b"")


def test_fetch_at_the_log_end_is_empty_and_read_committed_lists_no_aborted_transactions(
    served: ServerThread, wire: Wire
) -> None:
    make_topic(served)
    produced(wire, 9, batch(2))
    answer = fetched(wire, 12, 2, isolation=1)
    assert (answer.error_code, answer.records, answer.high_watermark) == (0, b"", 2)
    assert answer.aborted_transactions == []


def test_incremental_fetch_sessions_are_not_found(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    body = wire.call(FETCH, 12, fetch_body(0, session_epoch=1))
    assert (body.error_code, body.session_id, body.responses) == (70, 0, [])
    assert wire.call(FETCH, 12, fetch_body(0, session_epoch=0)).error_code == 0


def test_a_long_poll_is_woken_by_an_append_and_holds_only_its_connection(served: ServerThread, wire: Wire) -> None:
    """A Fetch that would wait longer than this test reads for (OUTLASTS_S) is answered by the append that
    another connection makes while it waits."""
    make_topic(served)
    wire.send(FETCH, 12, fetch_body(0, max_wait_ms=int(OUTLASTS_S * 1000), min_bytes=1))
    assert wire.waiting(0.3)
    with Wire(served) as other:
        hello = ApiVersionsRequestData(client_software_name="t", client_software_version="1")
        assert other.call(API_VERSIONS, 3, hello).error_code == 0
        assert produced(other, 9, batch(2)).base_offset == 0
    body = wire.receive()
    assert offsets_in(body.responses[0].partitions[0].records) == [0, 1]


def test_a_long_poll_without_data_waits_max_wait_ms(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    started = time.monotonic()
    answer = fetched(wire, 12, 0, max_wait_ms=300, min_bytes=1)
    assert (answer.error_code, answer.records) == (0, b"")
    assert time.monotonic() - started >= 0.25  # not before its max wait


# -- ListOffsets --------------------------------------------------------------------------------------


def test_list_offsets_every_version(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    base = 1_700_000_000_000
    produced(wire, 9, build_batch([SimpleRecord(None, b"a", base + 10), SimpleRecord(None, b"b", base + 30)],
                                  codec="gzip"))
    produced(wire, 9, build_batch([SimpleRecord(None, b"c", base + 20), SimpleRecord(None, b"d", base + 30)]))
    for version in range(1, 12):
        def ask(timestamp: int, v: int = version) -> tuple[int, int, int]:
            answer = list_offsets(wire, v, timestamp)
            assert answer.error_code == 0
            return answer.timestamp, answer.offset, answer.leader_epoch if v >= 4 else 0  # no LeaderEpoch before v4

        assert ask(-1) == (-1, 4, 0)
        assert ask(-2) == (-1, 0, 0)
        assert ask(base + 15) == (base + 30, 1, 0)
        assert ask(base + 20) == (base + 30, 1, 0)
        assert ask(base + 31) == (-1, -1, -1 if version >= 4 else 0)
        if version >= 7:
            assert ask(-3) == (base + 30, 1, 0)
        if version >= 8:
            assert ask(-4) == (-1, 0, 0)
        if version >= 9:
            assert ask(-5) == (-1, -1, -1)
        if version >= 11:
            assert ask(-6) == (-1, -1, -1)


def test_list_offsets_errors_and_an_empty_log(served: ServerThread, wire: Wire) -> None:
    make_topic(served)
    assert list_offsets(wire, 9, -1, topic="missing").error_code == 3
    assert list_offsets(wire, 9, -1, partition=2).error_code == 3
    assert list_offsets(wire, 9, -1, leader_epoch=3).error_code == 75
    empty = list_offsets(wire, 9, -3)
    assert (empty.error_code, empty.timestamp, empty.offset) == (0, -1, -1)
    assert list_offsets(wire, 9, -1, leader_epoch=0).offset == 0


# -- restart ------------------------------------------------------------------------------------------


def test_offsets_and_data_survive_a_restart_and_a_torn_tail_is_cut(served: ServerThread, tmp_path: Path) -> None:
    make_topic(served)
    with Wire(served) as before:
        for i in range(3):
            produced(before, 9, batch(2, "snappy", tag=f"r{i}-"))
    directory = tmp_path / "cluster"
    served.stop()
    segment = directory / "data" / "orders-0" / f"{0:020d}.log"
    intact = segment.stat().st_size
    with segment.open("ab") as fh:
        fh.write(batch(5)[:40])
    again = ServerThread(ServerOptions(directory, port=0))
    again.start()
    try:
        with Wire(again) as client:
            assert list_offsets(client, 9, -1).offset == 6
            records = fetched(client, 12, 0).records
            assert [r.value for b in iter_batches(records) for r in b.records][-2:] == [b"r2-0", b"r2-1"]
            assert segment.stat().st_size == intact
            assert produced(client, 9, batch(1)).base_offset == 6
        assert again.call(lambda b: b.backend.end_offsets_by_topic["orders"]) == [7, 0]
    finally:
        again.stop()
    data = segment.read_bytes()
    assert struct.unpack_from(">q", data, intact)[0] == 6


def test_the_logs_are_recovered_at_start_so_dir_records_their_end_offsets(tmp_path: Path) -> None:
    """A server killed before it saved leaves topics.json behind its logs; the next one puts that right
    on start, before any client asks for data."""
    directory = tmp_path / "cluster"
    with LocalBackend(directory, create=True) as b:
        b.create_topic("t", 1)
    writer = SegmentWriter(directory / "data" / "t-0", 0)
    writer.append_batch(build_batch([SimpleRecord(b"k", b"v", 1_000 + i) for i in range(7)]))
    writer.close()
    with ServerThread(ServerOptions(directory, port=0)):
        pass
    with LocalBackend(directory) as b:
        assert b.end_offsets_by_topic["t"] == [7]
