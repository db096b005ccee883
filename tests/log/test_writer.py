"""The batch writer and SegmentWriter, cross-checked against kafka-python's builder and reader."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kafka.record import MemoryRecords
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.memory_records import MemoryRecordsBuilder

from groupctl.errors import DecodeError
from groupctl.log.batch import Record, control_marker
from groupctl.log.segment import iter_batches, read_partition_dir, read_segment
from groupctl.log.writer import (
    SegmentWriter,
    SimpleRecord,
    build_batch,
    build_control_batch,
    build_message_set,
    control_record,
    segment_file_name,
)

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
KP_CODEC = {name: i for i, name in enumerate(CODECS)}
V2 = struct.Struct(">qiibIhiqqqhii")

RECORDS = [
    SimpleRecord(b"k0", b"v0" * 40, 1_700_000_000_000, [("h1", b"x"), ("h2", None)]),
    SimpleRecord(None, b"v1", 1_700_000_000_250),
    SimpleRecord(b"k2", None, 1_699_999_999_900, [("\u00e9t\u00e9", b"")]),
    SimpleRecord(b"k3" * 100, b"v3" * 200, 1_700_000_001_000),
]


def _one(data: bytes):
    batches = list(iter_batches(data, strict=True))
    assert len(batches) == 1
    return batches[0]


def _record_tuples(records) -> list[tuple]:
    return [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in records]


def test_header_fields() -> None:
    data = build_batch(
        RECORDS, base_offset=1000, producer_id=42, producer_epoch=3, base_sequence=10, is_transactional=True,
        partition_leader_epoch=7,
    )
    (base, length, ple, magic, crc, attrs, lod, base_ts, max_ts, pid, pep, bseq, count) = V2.unpack_from(data)
    assert (base, length + 12, ple, magic, attrs, lod) == (1000, len(data), 7, 2, 0x10, 3)
    assert (base_ts, max_ts, pid, pep, bseq, count) == (1_700_000_000_000, 1_700_000_001_000, 42, 3, 10, 4)
    assert crc == crc32c(data[21:])
    b = _one(data)
    assert (b.base_offset, b.last_offset, b.count, b.base_sequence, b.last_sequence) == (1000, 1003, 4, 10, 13)
    assert (b.is_transactional, b.is_control, b.timestamp_type, b.max_timestamp) == (True, False, "CreateTime", max_ts)
    assert [r.sequence for r in b.records] == [10, 11, 12, 13]
    assert _record_tuples(b.records) == [
        (1000 + i, r.timestamp, r.key, r.value, list(r.headers)) for i, r in enumerate(RECORDS)
    ]
    assert [(r.key_size, r.value_size) for r in b.records] == [(2, 80), (-1, 2), (2, -1), (200, 400)]


def test_uncompressed_batch_is_byte_identical_to_kafka_python() -> None:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=False, producer_id=-1, producer_epoch=-1, base_sequence=-1,
        batch_size=1 << 20,
    )
    for i, r in enumerate(RECORDS):
        builder.append(i, timestamp=r.timestamp, key=r.key, value=r.value, headers=list(r.headers))
    theirs = bytes(builder.build())
    ours = build_batch(RECORDS, partition_leader_epoch=0)  # kafka-python leaves the leader epoch at 0
    assert ours == theirs


def test_transactional_batch_is_byte_identical_to_kafka_python() -> None:
    builder = MemoryRecordsBuilder(
        magic=2, compression_type=0, batch_size=1 << 20, transactional=True, producer_id=77, producer_epoch=2,
        base_sequence=5,
    )
    for r in RECORDS:
        builder.append(r.timestamp, r.key, r.value, list(r.headers))
    builder.close()
    theirs = bytes(builder.buffer())
    ours = build_batch(RECORDS, partition_leader_epoch=0, producer_id=77, producer_epoch=2, base_sequence=5,
                       is_transactional=True)
    assert ours == theirs


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_reads_our_batches(codec: str) -> None:
    data = build_batch(RECORDS, base_offset=50, codec=codec, producer_id=9, producer_epoch=1, base_sequence=0,
                       is_transactional=True, partition_leader_epoch=4)
    (batch,) = list(MemoryRecords(data))
    assert batch.validate_crc()
    assert (batch.base_offset, batch.compression_type, batch.is_transactional) == (50, KP_CODEC[codec], True)
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence, batch.leader_epoch) == (9, 1, 0, 4)
    theirs = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    assert theirs == [(50 + i, r.timestamp, r.key, r.value, list(r.headers)) for i, r in enumerate(RECORDS)]


@pytest.mark.parametrize("codec", CODECS)
def test_we_read_kafka_python_batches(codec: str) -> None:
    builder = MemoryRecordsBuilder(magic=2, compression_type=KP_CODEC[codec], batch_size=1 << 20)
    payload = [(r.timestamp, r.key, r.value, list(r.headers)) for r in RECORDS] * 20  # compressible
    for ts, key, value, headers in payload:
        builder.append(ts, key, value, headers)
    builder.close()
    data = bytes(builder.buffer())
    theirs = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for b in MemoryRecords(data) for r in b]
    b = _one(data)
    assert b.compression == codec and b.crc_valid
    assert _record_tuples(b.records) == theirs


def test_control_batch() -> None:
    data = build_control_batch("ABORT", coordinator_epoch=12, producer_id=5, producer_epoch=1, timestamp=99,
                               base_offset=30, partition_leader_epoch=2)
    b = _one(data)
    assert (b.is_control, b.is_transactional, b.producer_id, b.producer_epoch, b.base_sequence) == (
        True, True, 5, 1, -1)
    (rec,) = b.records
    assert rec.key == b"\x00\x00\x00\x00" and rec.value == b"\x00\x00\x00\x00\x00\x0c"
    assert control_marker(rec) == ("ABORT", 12) and rec.timestamp == 99 and rec.offset == 30
    (kb,) = list(MemoryRecords(data))
    assert kb.is_control_batch
    (kr,) = list(kb)
    assert kr.abort and kr.version == 0
    assert control_marker(_one(build_control_batch("commit", coordinator_epoch=0, producer_id=1, producer_epoch=0,
                                                   timestamp=1)).records[0]) == ("COMMIT", 0)
    with pytest.raises(ValueError):
        control_record("LEADER_CHANGE")


def test_log_append_time() -> None:
    b = _one(build_batch(RECORDS, timestamp_type="LogAppendTime", log_append_time=1_800_000_000_000))
    assert b.timestamp_type == "LogAppendTime" and b.max_timestamp == 1_800_000_000_000
    assert [r.timestamp for r in b.records] == [1_800_000_000_000] * 4
    (kb,) = list(MemoryRecords(build_batch(RECORDS, timestamp_type="LogAppendTime", log_append_time=5)))
    assert [r.timestamp for r in kb] == [5] * 4


def test_delete_horizon() -> None:
    data = build_batch(RECORDS[:2], delete_horizon_ms=1_700_000_500_000)
    b = _one(data)
    assert b.delete_horizon_ms == 1_700_000_500_000
    assert V2.unpack_from(data)[5] & 0x40
    assert [r.timestamp for r in b.records] == [r.timestamp for r in RECORDS[:2]]
    assert _one(build_batch(RECORDS[:2])).delete_horizon_ms is None


def test_empty_batch_after_compaction() -> None:
    data = build_batch([], base_offset=200, last_offset_delta=9, producer_id=3, producer_epoch=0, base_sequence=40,
                       max_timestamp=1234, codec="gzip")
    b = _one(data)
    assert (b.count, b.records, b.base_offset, b.last_offset, b.base_sequence, b.last_sequence) == (
        0, [], 200, 209, 40, 49)
    assert (b.compression, b.max_timestamp, b.size) == ("none", 1234, 61)
    assert V2.unpack_from(data)[7] == -1  # base timestamp of an empty batch
    with pytest.raises(ValueError, match="last_offset_delta"):
        build_batch([])


def test_offset_gaps_and_sequence_wrap() -> None:
    recs = [SimpleRecord(b"a", b"1", 5, offset_delta=0), SimpleRecord(b"b", b"2", 6, offset_delta=7)]
    b = _one(build_batch(recs, base_offset=10, producer_id=1, producer_epoch=0, base_sequence=2**31 - 3))
    assert [r.offset for r in b.records] == [10, 17] and b.last_offset == 17
    assert [r.sequence for r in b.records] == [2**31 - 3, 4]  # wraps past Integer.MAX_VALUE to 0
    assert b.last_sequence == 4


def test_reader_records_can_be_written_back() -> None:
    b = _one(build_batch(RECORDS, codec="zstd"))
    again = _one(build_batch(b.records, base_offset=b.base_offset, codec="lz4"))
    assert _record_tuples(again.records) == _record_tuples(b.records)


def test_writer_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        build_batch(RECORDS, codec="brotli")
    with pytest.raises(ValueError):
        build_batch(RECORDS, timestamp_type="NoTimestampType")
    with pytest.raises(ValueError, match="producer id"):
        build_batch(RECORDS, is_transactional=True)


# ----------------------------------------------------------------------------------------- hypothesis

keys = st.none() | st.binary(max_size=40)
headers = st.lists(st.tuples(st.text(max_size=8), st.none() | st.binary(max_size=16)), max_size=3)
records = st.lists(
    st.builds(SimpleRecord, keys, keys, st.integers(min_value=0, max_value=2**45), headers, st.none()),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    recs=records,
    codec=st.sampled_from(CODECS),
    base_offset=st.integers(min_value=0, max_value=2**50),
    transactional=st.booleans(),
    producer_id=st.integers(min_value=0, max_value=2**40),
    base_sequence=st.integers(min_value=0, max_value=2**31 - 1),
    append_time=st.booleans(),
)
def test_round_trip(recs, codec, base_offset, transactional, producer_id, base_sequence, append_time) -> None:
    opts = {"timestamp_type": "LogAppendTime", "log_append_time": 2**44} if append_time else {}
    data = build_batch(recs, base_offset=base_offset, codec=codec, is_transactional=transactional,
                       producer_id=producer_id, producer_epoch=1, base_sequence=base_sequence, **opts)
    b = _one(data)
    assert b.crc_valid and b.count == len(recs) and b.size == len(data) and b.is_transactional == transactional
    expect_ts = [2**44] * len(recs) if append_time else [r.timestamp for r in recs]
    assert _record_tuples(b.records) == [
        (base_offset + i, expect_ts[i], r.key, r.value, list(r.headers)) for i, r in enumerate(recs)
    ]
    assert b.records[-1].sequence == b.last_sequence
    (kb,) = list(MemoryRecords(data))
    assert kb.validate_crc()
    assert [(r.key, r.value, list(r.headers)) for r in kb] == [(r.key, r.value, list(r.headers)) for r in recs]


@settings(max_examples=80, deadline=None)
@given(
    recs=st.lists(
        st.builds(SimpleRecord, keys, keys, st.integers(min_value=0, max_value=2**45), st.just(()), st.none()),
        min_size=1,
        max_size=8,
    ),
    magic=st.sampled_from([0, 1]),
    codec=st.sampled_from(CODECS[:4]),
    base_offset=st.integers(min_value=0, max_value=2**40),
)
def test_legacy_round_trip(recs, magic, codec, base_offset) -> None:
    data = build_message_set(recs, magic=magic, codec=codec, base_offset=base_offset)
    got = [r for b in iter_batches(data, strict=True) for r in b.records]
    ts = [-1] * len(recs) if magic == 0 else [r.timestamp for r in recs]
    assert [(r.offset, r.timestamp, r.key, r.value) for r in got] == [
        (base_offset + i, ts[i], r.key, r.value) for i, r in enumerate(recs)
    ]


# --------------------------------------------------------------------------------------- SegmentWriter


def test_segment_writer_assigns_offsets(tmp_path: Path) -> None:
    part = tmp_path / "__consumer_offsets-3"
    with SegmentWriter(part, base_offset=42) as w:
        assert w.path.name == "00000000000000000042.log" == segment_file_name(42)
        a = w.append(RECORDS[:2])
        b = w.append(RECORDS, codec="gzip", producer_id=1, producer_epoch=0, base_sequence=0, is_transactional=True)
        c = w.append_control("COMMIT", coordinator_epoch=3, producer_id=1, producer_epoch=0, timestamp=7)
        d = w.append_raw(build_message_set([SimpleRecord(b"old", b"v", 5)], magic=1, base_offset=w.next_offset))
        assert (a.base_offset, a.last_offset, b.base_offset, b.last_offset, c.base_offset, d.base_offset) == (
            42, 43, 44, 47, 48, 49)
        assert a.position == 0 and b.position == a.size and w.next_offset == 50
    batches = list(read_segment(w.path, strict=True))
    assert [(x.base_offset, x.last_offset) for x in batches] == [(42, 43), (44, 47), (48, 48), (49, 49)]
    assert [x.position for x in batches] == [a.position, b.position, c.position, d.position]
    assert batches[2].is_control and batches[3].magic == 1
    with pytest.raises(TypeError):
        SegmentWriter(part, base_offset=42).append(RECORDS, base_offset=1)


def test_segment_writer_reopens_after_the_last_batch(tmp_path: Path) -> None:
    with SegmentWriter(tmp_path, base_offset=10) as w:
        w.append(RECORDS)
    with SegmentWriter(tmp_path, base_offset=10) as w:
        assert w.next_offset == 14 and w.position == os.path.getsize(w.path)
        w.append(RECORDS[:1])
    assert [b.base_offset for b in read_segment(w.path, strict=True)] == [10, 14]


def test_segment_writer_torn_tail(tmp_path: Path) -> None:
    with SegmentWriter(tmp_path) as w:
        w.append(RECORDS)
    whole = w.path.read_bytes()
    torn = build_batch(RECORDS, base_offset=4)
    w.path.write_bytes(whole + torn[:30])
    with pytest.raises(DecodeError, match="30 invalid bytes at the end"):
        SegmentWriter(tmp_path)
    with SegmentWriter(tmp_path, truncate_torn_tail=True) as w2:
        assert w2.truncated_bytes == 30 and w2.next_offset == 4
        assert w2.truncation is not None and w2.truncation.startswith(f"30 bytes from byte {len(whole)} of ")
        w2.append(RECORDS[:1])
    assert [b.base_offset for b in read_segment(w.path, strict=True)] == [0, 4]


def test_segment_writer_refuses_a_damaged_segment(tmp_path: Path) -> None:
    data = bytearray(build_batch(RECORDS) + build_batch(RECORDS, base_offset=4))
    data[80] ^= 0xFF
    (tmp_path / segment_file_name(0)).write_bytes(bytes(data))
    with pytest.raises(DecodeError, match="CRC mismatch"):
        SegmentWriter(tmp_path)
    with SegmentWriter(tmp_path, truncate_torn_tail=True) as w:  # byte 80 is in the first batch: all goes
        assert (w.truncated_bytes, w.next_offset, w.position) == (len(data), 0, 0)
        assert w.truncation is not None and "bad CRC at byte 0" in w.truncation
        assert f"held 1 whole batch with a valid CRC (offsets 4..7, from byte {len(build_batch(RECORDS))})" in (
            w.truncation)


def test_segment_writer_fsyncs_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    with SegmentWriter(tmp_path / "p-0", fsync=True) as w:
        created = len(synced)
        assert created >= 1  # the new file's directory entry
        w.append(RECORDS)
        assert len(synced) == created + 1
        w.append_control("ABORT", coordinator_epoch=1, producer_id=1, producer_epoch=0, timestamp=1)
        assert len(synced) == created + 2
    synced.clear()
    with SegmentWriter(tmp_path / "p-1") as w:
        w.append(RECORDS)
    assert synced == []


def test_segment_writer_rejects_partial_raw_data_and_closed_use(tmp_path: Path) -> None:
    w = SegmentWriter(tmp_path)
    with pytest.raises(DecodeError):
        w.append_raw(build_batch(RECORDS)[:-3])
    w.close()
    with pytest.raises(ValueError, match="closed"):
        w.append(RECORDS)
    with pytest.raises(ValueError):
        segment_file_name(-1)


def test_partition_of_written_segments_reads_in_base_offset_order(tmp_path: Path) -> None:
    part = tmp_path / "__consumer_offsets-0"
    for base in (300, 0, 120):  # created out of order
        with SegmentWriter(part, base_offset=base) as w:
            w.append([Record(0, base, b"k", b"v%d" % base, [], -1, 1, 2)])
    readers = list(read_partition_dir(part))
    assert [Path(r.path).name for r in readers] == [segment_file_name(b) for b in (0, 120, 300)]
    assert [b.base_offset for r in readers for b in r] == [0, 120, 300]
