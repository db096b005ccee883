"""Magic 0/1 message sets: groupctl's writer, kafka-python's legacy builder, Kafka's offset and timestamp rules."""

from __future__ import annotations

import importlib.util
import struct
import zlib

import pytest
from kafka.record import MemoryRecords
from kafka.record.legacy_records import LegacyRecordBatchBuilder

from groupctl.errors import DecodeError
from groupctl.log.compression import compress
from groupctl.log.segment import iter_batches
from groupctl.log.writer import SimpleRecord, build_batch, build_legacy_message, build_message_set

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

HAS_XXHASH = importlib.util.find_spec("xxhash") is not None  # kafka-python's magic-0 lz4 needs it
CODECS = ["none", "gzip", "snappy", "lz4"]
KP_CODEC = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3}

RECORDS = [
    SimpleRecord(b"key-0", b"value-0", 1_600_000_000_000),
    SimpleRecord(None, b"value-1", 1_600_000_000_005),
    SimpleRecord(b"key-2", None, 1_600_000_000_003),
    SimpleRecord(b"", b"", 1_600_000_000_009),
]


def _read(data: bytes, **kw):
    problems: list[DecodeError] = []
    batches = list(iter_batches(data, problems=problems, **kw))
    return batches, problems


def _needs_xxhash(magic: int, codec: str) -> None:
    if magic == 0 and codec == "lz4" and not HAS_XXHASH:
        pytest.skip("kafka-python needs xxhash for magic 0 lz4")


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS)
def test_groupctl_written_message_sets(magic: int, codec: str) -> None:
    data = build_message_set(RECORDS, magic=magic, codec=codec, base_offset=40)
    batches, problems = _read(data)
    assert problems == []
    records = [r for b in batches for r in b.records]
    assert [r.offset for r in records] == [40, 41, 42, 43]
    assert [(r.key, r.value) for r in records] == [(r.key, r.value) for r in RECORDS]
    assert [(r.key_size, r.value_size) for r in records] == [(5, 7), (-1, 7), (5, -1), (0, 0)]
    expected_ts = [-1] * 4 if magic == 0 else [r.timestamp for r in RECORDS]
    assert [r.timestamp for r in records] == expected_ts
    assert all(r.crc_valid and r.sequence == -1 and r.headers == [] for r in records)
    for b in batches:
        assert b.magic == magic and b.crc_valid and b.compression == codec
        assert (b.base_sequence, b.last_sequence, b.producer_id, b.producer_epoch) == (-1, -1, -1, -1)
        assert (b.partition_leader_epoch, b.is_transactional, b.is_control, b.delete_horizon_ms) == (
            -1, False, False, None)
        assert b.timestamp_type == ("NoTimestampType" if magic == 0 else "CreateTime")
    if codec == "none":
        assert len(batches) == 4
        assert all(b.count == 1 and b.base_offset == b.last_offset == b.records[0].offset for b in batches)
        assert all(b.crc == b.records[0].crc for b in batches)
        assert [b.max_timestamp for b in batches] == expected_ts
    else:
        (b,) = batches
        assert (b.base_offset, b.last_offset, b.count) == (40, 43, 4)
        assert b.max_timestamp == (-1 if magic == 0 else 1_600_000_000_009)
        assert b.size == len(data)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_reads_groupctl_message_sets(magic: int, codec: str) -> None:
    _needs_xxhash(magic, codec)
    data = build_message_set(RECORDS, magic=magic, codec=codec, base_offset=7)
    theirs = []
    for batch in MemoryRecords(data):
        assert batch.validate_crc()
        theirs += [(r.offset, r.timestamp, r.key, r.value) for r in batch]
    ts = [None] * 4 if magic == 0 else [r.timestamp for r in RECORDS]
    assert theirs == [(7 + i, ts[i], r.key, r.value) for i, r in enumerate(RECORDS)]


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS)
def test_groupctl_reads_kafka_python_legacy_builder(magic: int, codec: str) -> None:
    _needs_xxhash(magic, codec)
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=KP_CODEC[codec], batch_size=1 << 20)
    for i, r in enumerate(RECORDS):
        builder.append(i, timestamp=r.timestamp, key=r.key, value=r.value)
    data = bytes(builder.build())
    theirs = [(r.offset, r.timestamp, r.key, r.value) for b in MemoryRecords(data) for r in b]
    batches, problems = _read(data)
    assert problems == []
    ours = [(r.offset, None if magic == 0 else r.timestamp, r.key, r.value) for b in batches for r in b.records]
    assert ours == theirs
    assert all(b.crc_valid for b in batches)


@pytest.mark.parametrize("magic", [0, 1])
def test_uncompressed_message_sets_are_byte_identical_to_kafka_python(magic: int) -> None:
    builder = LegacyRecordBatchBuilder(magic=magic, compression_type=0, batch_size=1 << 20)
    for i, r in enumerate(RECORDS):
        builder.append(100 + i, timestamp=r.timestamp, key=r.key, value=r.value)
    assert build_message_set(RECORDS, magic=magic, base_offset=100) == bytes(builder.build())


def test_v1_relative_inner_offsets_use_the_wrapper_offset() -> None:
    inner = b"".join(build_legacy_message(i, 1, 0, 1000 + i, b"k", b"v%d" % i) for i in range(3))
    wrapper = build_legacy_message(102, 1, 1, 1002, None, compress("gzip", inner))
    (b,), problems = _read(wrapper)
    assert problems == []
    assert [r.offset for r in b.records] == [100, 101, 102]
    assert (b.base_offset, b.last_offset, b.count) == (100, 102, 3)


def test_v1_wrapper_offset_zero_means_base_zero() -> None:
    data = build_message_set(RECORDS, magic=1, codec="snappy", wrapper_offset=0)
    (b,), problems = _read(data)
    assert problems == []
    assert [r.offset for r in b.records] == [0, 1, 2, 3]
    assert (b.base_offset, b.last_offset) == (0, 0)


def test_v1_wrapper_offset_below_last_inner_offset_is_a_problem() -> None:
    inner = b"".join(build_legacy_message(i, 1, 0, 5, None, b"v") for i in range(5))
    bad = build_legacy_message(3, 1, 1, 5, None, compress("gzip", inner))
    good = build_message_set(RECORDS[:1], magic=1, base_offset=10)
    batches, problems = _read(bad + good)
    assert [b.base_offset for b in batches] == [10]
    assert len(problems) == 1 and problems[0].position == 0
    assert "wrapper offset 3 is less than the last inner message offset 4" in problems[0].reason


def test_v0_inner_offsets_are_absolute() -> None:
    data = build_message_set(RECORDS, magic=0, codec="gzip", base_offset=500)
    (b,), _ = _read(data)
    assert [r.offset for r in b.records] == [500, 501, 502, 503] and b.last_offset == 503


def test_log_append_time_inner_messages_take_the_wrapper_timestamp() -> None:
    inner = b"".join(build_legacy_message(i, 1, 0, 1000 + i, None, b"v") for i in range(3))
    wrapper = build_legacy_message(2, 1, 0x08 | 1, 999_999, None, compress("gzip", inner))
    (b,), _ = _read(wrapper)
    assert b.timestamp_type == "LogAppendTime" and b.max_timestamp == 999_999
    assert [r.timestamp for r in b.records] == [999_999] * 3
    data = build_message_set(RECORDS, magic=1, codec="lz4", timestamp_type="LogAppendTime", log_append_time=77)
    (b,), _ = _read(data)
    assert [r.timestamp for r in b.records] == [77] * 4


def test_create_time_inner_messages_keep_their_own_timestamps() -> None:
    inner = b"".join(build_legacy_message(i, 1, 0, 1000 + i, None, b"v") for i in range(3))
    (b,), _ = _read(build_legacy_message(2, 1, 1, 5, None, compress("gzip", inner)))
    assert [r.timestamp for r in b.records] == [1000, 1001, 1002] and b.max_timestamp == 5


def test_segment_mixing_magics() -> None:
    data = (
        build_message_set(RECORDS[:2], magic=0, base_offset=0)
        + build_message_set(RECORDS[:2], magic=1, codec="gzip", base_offset=2)
        + build_batch(RECORDS, base_offset=4, codec="lz4")
        + build_message_set(RECORDS[:1], magic=1, base_offset=8)
    )
    batches, problems = _read(data, strict=True)
    assert problems == []
    assert [b.magic for b in batches] == [0, 0, 1, 2, 1]
    assert [r.offset for b in batches for r in b.records] == list(range(9))
    assert [b.position for b in batches] == [0, batches[0].size, *[sum(b.size for b in batches[:i]) for i in (2, 3, 4)]]


def test_inner_crc_mismatch_is_reported_but_the_batch_kept() -> None:
    inner = bytearray(build_legacy_message(0, 1, 0, 1, b"k", b"value") + build_legacy_message(1, 1, 0, 1, b"k", b"v"))
    inner[30] ^= 0xFF  # inside the first inner message's key/value
    (b,), problems = _read(build_legacy_message(1, 1, 1, 1, None, compress("gzip", bytes(inner))))
    assert [r.crc_valid for r in b.records] == [False, True] and b.crc_valid
    assert len(problems) == 1 and "inner message 1 (offset 0): CRC mismatch" in problems[0].reason


def test_partial_last_inner_message_is_ignored_like_kafka_with_a_problem() -> None:
    inner = build_legacy_message(0, 1, 0, 1, b"k", b"value") + build_legacy_message(1, 1, 0, 1, b"k", b"v")[:-5]
    (b,), problems = _read(build_legacy_message(1, 1, 2, 1, None, compress("snappy", inner)))
    assert [r.offset for r in b.records] == [1]  # base = wrapper offset 1 - last inner offset 0
    assert len(problems) == 1 and "partial message was ignored" in problems[0].reason


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        (build_legacy_message(5, 1, 1, 0, None, None), "compressed message set with a null value"),
        (build_legacy_message(5, 1, 4, 0, None, compress("zstd", b"x" * 40)), "codec 4 is not valid for magic 1"),
        (build_legacy_message(5, 0, 1, 0, None, compress("gzip", b"")), "no inner messages"),
        (build_legacy_message(5, 0, 2, 0, None, b"not snappy at all"), "snappy wrapper"),
        (build_legacy_message(5, 1, 1, 0, None, compress("gzip", build_legacy_message(0, 1, 2, 0, None, b"x"))),
         "inner messages must not be compressed"),
    ],
)
def test_bad_wrappers_are_problems_and_reading_goes_on(entry: bytes, reason: str) -> None:
    after = build_message_set(RECORDS[:1], magic=0, base_offset=9)
    batches, problems = _read(entry + after)
    assert [b.base_offset for b in batches] == [9]
    assert len(problems) == 1 and reason in problems[0].reason and problems[0].position == 0


def test_message_crc_mismatch_keeps_the_message_with_isvalid_false() -> None:
    data = bytearray(build_message_set(RECORDS[:2], magic=1))
    data[30] ^= 0x01  # key bytes of the first message
    batches, problems = _read(bytes(data))
    assert [b.crc_valid for b in batches] == [False, True]
    stored = struct.unpack_from(">I", data, 12)[0]
    computed = zlib.crc32(bytes(data[16 : batches[0].size]))
    assert problems[0].reason == f"CRC mismatch: stored {stored}, computed {computed}"
    assert batches[0].records[0].crc_valid is False


def test_legacy_writer_rejects_what_the_format_cannot_hold() -> None:
    with pytest.raises(ValueError, match="zstd"):
        build_message_set(RECORDS, magic=1, codec="zstd")
    with pytest.raises(ValueError, match="headers"):
        build_message_set([SimpleRecord(b"k", b"v", 0, [("h", b"x")])], magic=1)
    with pytest.raises(ValueError):
        build_message_set([], magic=0)
    with pytest.raises(ValueError):
        build_message_set(RECORDS, magic=2)


def test_a_wrapper_with_too_many_inner_messages_is_damaged() -> None:
    from groupctl.log.batch import MAX_BATCH_RECORDS

    inner = build_legacy_message(0, 0, 0, -1, None, None) * (MAX_BATCH_RECORDS + 1)
    # stored, not deflated: a wrapper no denser than an honest one, so only the count bound meets it
    wrapper = build_legacy_message(0, 0, 1, -1, None, compress("gzip", inner, magic=0, level=0))
    follower = build_message_set([SimpleRecord(b"k", b"v", 1)], magic=0, base_offset=1)
    problems: list[DecodeError] = []
    batches = list(iter_batches(wrapper + follower, problems=problems))
    assert [b.base_offset for b in batches] == [1]
    assert problems[0].reason == (
        f"damaged batch at offset 0: the compressed message set holds more than {MAX_BATCH_RECORDS} inner "
        "messages (a record bomb, or damaged data)"
    )

