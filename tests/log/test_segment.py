"""Reading segments: real broker data, problems and recovery, trailing bytes, directories, fuzzing."""

from __future__ import annotations

import os
import random
import struct
import zlib
from pathlib import Path

import pytest
from crc32c import crc32c
from kafka.record import MemoryRecords

from groupctl.errors import DecodeError, UsageError
from groupctl.log import fast
from groupctl.log.batch import MAX_BATCH_RECORDS, Batch
from groupctl.log.compression import compress
from groupctl.log.segment import (
    MAX_RECORDS_PER_COMPRESSED_BYTE,
    BatchIterator,
    iter_batches,
    iter_path,
    read_partition_dir,
    read_segment,
    segment_base_offset,
    segment_files,
    spool,
)
from groupctl.log.synthetic import mixed_dump
from groupctl.log.writer import (
    SegmentWriter,
    SimpleRecord,
    build_batch,
    build_control_batch,
    build_legacy_message,
    build_message_set,
    segment_file_name,
)
from tests.log.bombs import TINY_RECORD, padded_zstd_bomb, v2_batch
from tests.log.conftest import COMPILED_LOOP_ONLY

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

RECS = [SimpleRecord(b"key-%d" % i, b"value-%d" % i * (i + 1), 1_700_000_000_000 + i) for i in range(5)]


def _read(data: bytes, **kw) -> tuple[list[Batch], list[DecodeError], BatchIterator]:
    problems: list[DecodeError] = []
    it = iter_batches(data, problems=problems, **kw)
    return list(it), problems, it


def _sig(b: Batch) -> tuple:
    return (b.base_offset, b.last_offset, b.magic, b.crc, tuple((r.offset, r.timestamp, r.key, r.value)
                                                               for r in b.records))


def _synthetic_segment() -> bytes:
    """Every kind of batch groupctl can write, one after the other."""
    legacy = [SimpleRecord(r.key, r.value, r.timestamp) for r in RECS]
    parts = [
        build_batch(RECS, base_offset=0),
        build_batch(RECS, base_offset=5, codec="gzip"),
        build_batch(RECS, base_offset=10, codec="snappy", producer_id=8, producer_epoch=0, base_sequence=0,
                    is_transactional=True),
        build_control_batch("COMMIT", coordinator_epoch=2, producer_id=8, producer_epoch=0, timestamp=9,
                            base_offset=15),
        build_batch(RECS, base_offset=16, codec="lz4", timestamp_type="LogAppendTime", log_append_time=42),
        build_batch(RECS, base_offset=21, codec="zstd", delete_horizon_ms=1_700_000_900_000),
        build_batch([], base_offset=26, last_offset_delta=3, producer_id=9, producer_epoch=1, base_sequence=7),
        build_message_set(legacy, magic=0, codec="gzip", base_offset=30),
        build_message_set(legacy, magic=1, codec="lz4", base_offset=35),
        build_message_set(legacy[:2], magic=0, codec="lz4", base_offset=40),
        build_message_set(legacy[:2], magic=1, codec="snappy", base_offset=42),
        build_message_set(legacy[:2], magic=1, base_offset=44),
        build_batch(RECS, base_offset=46),
    ]
    return b"".join(parts)


SYNTHETIC = _synthetic_segment()


# --------------------------------------------------------------------- the dispatch into the compiled loop

MIXED = mixed_dump(300)  # plain batches of offset commits and group records, one batch in eight compressed


def _read_counted(compiled_calls) -> tuple[list[Batch], dict]:
    """MIXED read by the reference, then by `iter_batches` with the compiled loop's calls from the reader counted."""
    with fast.forced(True):
        reference = list(iter_batches(MIXED))
    calls = compiled_calls(fast.built(), "next_batches", "walk")
    got = list(iter_batches(MIXED))
    assert got == reference
    assert [_sig(b) for b in got] == [_sig(b) for b in reference]
    return reference, calls


@COMPILED_LOOP_ONLY
def test_the_reader_reads_runs_of_plain_batches_in_c(compiled_calls) -> None:
    """Every uncompressed batch comes whole from C (`next_batches`), in runs; it declines the compressed ones."""
    reference, calls = _read_counted(compiled_calls)
    runs = [call.answer[0] for call in calls["next_batches"] if call.answer is not None]
    assert runs, "no batch was read by next_batches"
    assert [b for run in runs for b in run] == [b for b in reference if b.compression == "none"]


@COMPILED_LOOP_ONLY
def test_the_reader_walks_the_records_of_compressed_batches_in_c(compiled_calls) -> None:
    """The records of each batch the runs decline (compressed: decompressed in Python) are read by `walk`."""
    reference, calls = _read_counted(compiled_calls)
    walked = [call.answer for call in calls["walk"] if call.answer is not None]
    assert walked, "no batch's records were read by walk"
    assert walked == [b.records for b in reference if b.compression != "none"]


# ------------------------------------------------------------------------------------------ real data


def test_every_real_segment_reads_clean(real_segments: list[Path]) -> None:
    assert len(real_segments) == 22
    batches_total = records_total = 0
    for seg in real_segments:
        problems: list[DecodeError] = []
        reader = read_segment(seg, problems=problems)
        batches = list(reader)
        assert problems == [], seg
        assert reader.finished and reader.trailing_bytes == 0, seg
        position = 0
        for b in batches:
            assert b.crc_valid and b.magic == 2 and b.compression == "none", seg
            assert b.count == len(b.records), seg
            assert b.position == position
            position += b.size
            assert all(b.base_offset <= r.offset <= b.last_offset for r in b.records)
            assert all(r.timestamp == (b.max_timestamp if b.timestamp_type == "LogAppendTime" else r.timestamp)
                       for r in b.records)
        assert position == seg.stat().st_size
        assert batches[0].base_offset >= segment_base_offset(seg)
        batches_total += len(batches)
        records_total += sum(len(b.records) for b in batches)
    assert (batches_total, records_total) == (1033, 1473)


def test_real_segments_agree_with_kafka_python(real_segments: list[Path]) -> None:
    for seg in real_segments:
        data = seg.read_bytes()
        theirs = []
        for kb in MemoryRecords(data):
            assert kb.validate_crc()
            theirs += [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in kb]
        ours = [(r.offset, r.timestamp, r.key, r.value, r.headers) for b in iter_batches(data, strict=True)
                for r in b.records]
        assert ours == theirs, seg


def test_synthetic_segment_reads_clean() -> None:
    batches, problems, it = _read(SYNTHETIC, strict=True)
    assert problems == [] and it.trailing_bytes == 0
    assert [r.offset for b in batches for r in b.records] == [*range(26), *range(30, 51)]
    assert [b.magic for b in batches] == [2] * 7 + [0, 1, 0, 1, 1, 1, 2]
    empty = batches[6]
    assert (empty.count, empty.records, empty.last_offset, empty.last_sequence) == (0, [], 29, 10)


# ----------------------------------------------------------------------------------- problems & recovery


def test_crc_mismatch_keeps_the_batch_with_isvalid_false() -> None:
    data = bytearray(build_batch(RECS) + build_batch(RECS, base_offset=5))
    data[100] ^= 0x20  # a value byte of the first batch: structure intact
    batches, problems, _ = _read(bytes(data))
    assert [b.crc_valid for b in batches] == [False, True]
    stored = struct.unpack_from(">I", data, 17)[0]
    computed = crc32c(bytes(data[21 : batches[0].size]))
    assert len(problems) == 1
    assert problems[0].reason == f"CRC mismatch: stored {stored}, computed {computed}"
    assert problems[0].position == 0 and problems[0].path == "<bytes>"
    assert str(problems[0]).startswith("<bytes> at byte 0: CRC mismatch")


def test_strict_mode_raises_the_first_problem() -> None:
    data = bytearray(build_batch(RECS) + build_batch(RECS, base_offset=5))
    second = len(build_batch(RECS))
    data[second + 70] ^= 0x01
    it = iter_batches(bytes(data), strict=True, path="seg.log")
    assert next(it).base_offset == 0
    with pytest.raises(DecodeError) as exc:
        next(it)
    assert exc.value.position == second and exc.value.path == "seg.log" and "CRC mismatch" in exc.value.reason


def test_entries_interleave_batches_and_problems_in_file_order() -> None:
    one = build_batch(RECS)
    data = bytearray(one * 4)
    data[2 * len(one) - 5] ^= 0x01  # batch 2, inside its last value: CRC mismatch, still returned
    data[3 * len(one) + 16] = 9  # batch 4: unknown magic
    items = list(iter_batches(bytes(data)).entries())
    kinds = [type(x).__name__ for x in items]
    assert kinds == ["Batch", "DecodeError", "Batch", "Batch", "DecodeError"]
    assert [x.position for x in items] == [0, len(one), len(one), 2 * len(one), 3 * len(one)]
    assert "unknown magic 9; no valid batch follows" in items[-1].reason


def test_huge_length_in_the_middle_resynchronises() -> None:
    one = build_batch(RECS)
    data = bytearray(one * 3)
    struct.pack_into(">i", data, len(one) + 8, 2147483000)
    batches, problems, it = _read(bytes(data))
    assert [b.position for b in batches] == [0, 2 * len(one)]
    (p,) = problems
    assert p.position == len(one)
    assert p.reason == (f"batch length 2147483000 exceeds the {2 * len(one) - 12} bytes left in the file; "
                        f"skipped {len(one)} bytes to the next valid batch at byte {2 * len(one)}")
    assert it.trailing_bytes == 0


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        (lambda d: struct.pack_into(">i", d, 57, 1000), "record count 1000 cannot fit"),
        (lambda d: struct.pack_into(">i", d, 57, -2), "invalid record count -2"),
        (lambda d: struct.pack_into(">i", d, 57, 4), "bytes remain after the last of 4 records"),
        (lambda d: struct.pack_into(">h", d, 21, 5), "unknown compression codec id 5"),
        (lambda d: d.__setitem__(slice(61, 62), b"\xff"), "record 1 of 5"),
        (lambda d: d.__setitem__(slice(61, 67), b"\xff\xff\xff\xff\xff\xff"), "Varint is too long"),
    ],
)
def test_structure_damage_behind_a_valid_crc(patch, reason: str) -> None:
    damaged = bytearray(build_batch(RECS))
    patch(damaged)
    struct.pack_into(">I", damaged, 17, crc32c(bytes(damaged[21:])))
    after = build_batch(RECS, base_offset=5)
    batches, problems, _ = _read(bytes(damaged) + after)
    assert [b.base_offset for b in batches] == [5]
    assert len(problems) == 1 and reason in problems[0].reason and problems[0].position == 0


def test_record_count_zero_with_data_is_read_like_kafka() -> None:
    data = bytearray(build_batch(RECS))
    struct.pack_into(">i", data, 57, 0)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    (b,), problems, _ = _read(bytes(data))
    assert b.count == 0 and b.records == [] and b.crc_valid
    assert "record count is 0 but" in problems[0].reason


def test_decompression_limit_is_a_problem() -> None:
    data = build_batch([SimpleRecord(b"k", b"\0" * 100_000, 1)], codec="zstd") + build_batch(RECS, base_offset=1)
    batches, problems, _ = _read(data, max_decompressed=50_000)
    assert [b.base_offset for b in batches] == [1]
    assert "exceeds the limit of 50000 bytes" in problems[0].reason


def test_hostile_header_counts_are_bounded() -> None:
    # A record claiming 2**30 headers: rejected from the byte count, not by trying.
    body = b"\x00\x00\x00\x02k\x02v" + b"\x80\x80\x80\x80\x08"
    record = bytes([len(body) * 2]) + body
    data = bytearray(build_batch([SimpleRecord(b"k", b"v", 0)]))
    data = data[:61] + record
    struct.pack_into(">i", data, 8, len(data) - 12)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    _, problems, _ = _read(bytes(data))
    assert "headers cannot fit" in problems[0].reason


# ------------------------------------------------------------------------------------------ record bombs


def test_a_header_claiming_too_many_records_is_damaged_before_decompressing() -> None:
    count = MAX_BATCH_RECORDS + 1
    bomb = v2_batch(compress("zstd", TINY_RECORD * count), count, codec=4)
    batches, problems, _ = _read(bomb + build_batch(RECS, base_offset=count))
    assert [b.base_offset for b in batches] == [count]
    assert problems[0].reason == (
        f"damaged batch at offset 0: record count {count} exceeds the limit of {MAX_BATCH_RECORDS} records per "
        "batch (a record bomb, or a damaged header)"
    )


def test_more_records_than_the_compressed_bytes_can_carry_is_damaged() -> None:
    count = 50_000  # under the per-batch cap, but these records compress to a few hundred bytes
    payload = compress("zstd", TINY_RECORD * count)
    assert count > MAX_RECORDS_PER_COMPRESSED_BYTE * len(payload) + 4096
    _, problems, _ = _read(v2_batch(payload, count, codec=4))
    said = f"it holds {count} records in {len(payload)} compressed bytes, more than {MAX_RECORDS_PER_COMPRESSED_BYTE}"
    assert said in problems[0].reason


def test_a_lying_count_stops_at_the_expansion_limit() -> None:
    payload = compress("zstd", TINY_RECORD * 2_000_000)  # 14 MB from a few KB
    _, problems, _ = _read(v2_batch(payload, 100, codec=4))
    limit = 1024 * len(payload) + (1 << 20)
    assert problems[0].reason == (
        f"damaged batch at offset 0: zstd batch: decompressed size exceeds the limit of {limit} bytes")


def test_more_records_than_the_header_count_is_damaged() -> None:
    payload = compress("gzip", TINY_RECORD * 3000)
    _, problems, _ = _read(v2_batch(payload, 1000, codec=1))
    assert "bytes remain after the last of 1000 records" in problems[0].reason


def test_a_compressed_batch_of_more_records_than_kafka_writes_is_suspicious_and_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """131072 empty records in a zstd frame of a hundred bytes, padded to 8 records a compressed byte (the old
    bound): reported once, with the records it holds, and never decompressed (so no record is built); the
    batch after it reads. It used to be read whole: 131072 records, each printing a line."""
    from groupctl.log import segment

    bomb = padded_zstd_bomb(per_byte=8)
    clen = len(bomb) - 61
    seen: list[int] = []
    real = segment.decompress
    monkeypatch.setattr(segment, "decompress", lambda codec, data, **kw: seen.append(len(data)) or real(codec, data,
                                                                                                          **kw))
    batches, problems, _ = _read(bomb + build_batch(RECS, base_offset=1 << 17, codec="zstd"))
    assert [b.base_offset for b in batches] == [1 << 17]
    assert [p.reason for p in problems] == [
        f"damaged batch at offset 0: suspicious zstd batch: it holds {1 << 17} records in {clen} compressed bytes, "
        f"more than {MAX_RECORDS_PER_COMPRESSED_BYTE} a byte (Kafka's group coordinator writes far fewer): not read"
    ]
    assert seen == [batches[0].size - 61]  # only the honest batch was decompressed


def test_a_legacy_wrapper_of_more_messages_than_kafka_writes_is_suspicious() -> None:
    messages = 50_000
    tiny = build_legacy_message(0, 0, 0, -1, None, None)
    wrapper = build_legacy_message(0, 0, 1, -1, None, compress("gzip", tiny * messages, magic=0))
    assert MAX_RECORDS_PER_COMPRESSED_BYTE * len(wrapper) + 4096 < messages
    batches, problems, _ = _read(wrapper + build_batch(RECS, base_offset=messages))
    assert [b.base_offset for b in batches] == [messages]
    assert "suspicious gzip wrapper: it holds more than " in problems[0].reason


def test_a_legitimate_dense_batch_still_reads() -> None:
    recs = [SimpleRecord(None, None, 1_700_000_000_000) for _ in range(20_000)]
    (b,), problems, _ = _read(build_batch(recs, codec="zstd"))
    assert problems == [] and b.count == len(b.records) == 20_000


# ---------------------------------------------------------------------------------------- trailing bytes


INT64 = 1 << 63


@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_offsets_timestamps_and_sequences_wrap_as_java_longs_and_ints(codec: str) -> None:
    """DefaultRecord.readFrom adds baseTimestamp + timestampDelta and baseOffset + offsetDelta as Java longs and
    the sequence with incrementSequence (ints): they wrap, and no reading prints a number Kafka could not."""
    records = [SimpleRecord(b"k", b"v", 1 << 62, offset_delta=0), SimpleRecord(b"k", b"v", INT64 + 5, offset_delta=1),
               SimpleRecord(b"k", b"v", 1 << 62, offset_delta=-1)]
    data = build_batch(records, base_offset=INT64 - 1, codec=codec, max_timestamp=1 << 62, last_offset_delta=1,
                       producer_id=3, producer_epoch=0, base_sequence=(1 << 31) - 1)
    [batch] = list(iter_batches(data, strict=True))
    assert [r.offset for r in batch.records] == [INT64 - 1, -INT64, INT64 - 2]
    assert [r.timestamp for r in batch.records] == [1 << 62, -INT64 + 5, 1 << 62]
    assert [r.sequence for r in batch.records] == [(1 << 31) - 1, 0, -2]  # incrementSequence(MAX, -1) is -2
    assert (batch.last_offset, batch.last_sequence) == (-INT64, 0)


def test_trailing_partial_batch_is_counted_not_a_problem() -> None:
    whole = build_batch(RECS) + build_batch(RECS, base_offset=5)
    torn = build_batch(RECS, base_offset=10)
    for cut in (1, 16, 17, 60, 61, len(torn) - 1):
        batches, problems, it = _read(whole + torn[:cut])
        assert len(batches) == 2 and problems == []
        assert it.trailing_bytes == cut


def test_trailing_bytes_only_known_after_iteration() -> None:
    it = iter_batches(build_batch(RECS) + b"\x00" * 5)
    assert not it.finished
    assert len(list(it)) == 1 and it.finished and it.trailing_bytes == 5


def test_garbage_at_the_end_is_a_problem() -> None:
    batches, problems, it = _read(build_batch(RECS) + b"\xff" * 40)
    assert len(batches) == 1 and it.trailing_bytes == 0
    assert "unknown magic -1; no valid batch follows (the remaining 40 bytes were skipped)" in problems[0].reason


def test_empty_and_odd_inputs() -> None:
    assert _read(b"")[0] == [] and _read(b"")[2].trailing_bytes == 0
    batches, problems, _ = _read(bytearray(build_batch(RECS)))
    assert len(batches) == 1 and problems == []
    assert len(_read(memoryview(build_batch(RECS)))[0]) == 1


# ------------------------------------------------------------------------------------------- directories


def _write_partition(part: Path, bases: list[int]) -> None:
    for base in bases:
        with SegmentWriter(part, base_offset=base) as w:
            w.append([SimpleRecord(part.name.encode(), b"%d" % base, base)])


def test_segment_files_and_iter_path(tmp_path: Path) -> None:
    root = tmp_path / "logs"
    for name in ("__consumer_offsets-10", "__consumer_offsets-2", "__consumer_offsets-1", "other-0"):
        _write_partition(root / name, [50, 0])
    _write_partition(root / "__consumer_offsets-3.abc-delete", [0])
    (root / "__consumer_offsets-1" / "00000000000000000000.index").write_bytes(b"\0" * 8)
    (root / "__consumer_offsets-1" / "00000000000000000007.log.deleted").write_bytes(b"junk")
    (root / "empty-dir").mkdir()

    files = segment_files(root)
    assert [(f.parent.name, f.name) for f in files] == [
        (p, segment_file_name(b))
        for p in ("__consumer_offsets-1", "__consumer_offsets-2", "__consumer_offsets-10", "other-0")
        for b in (0, 50)
    ]
    assert segment_files(root / "__consumer_offsets-2") == files[2:4]
    assert segment_files(files[0]) == [files[0]]
    assert segment_files(tmp_path / "missing") == []

    readers = list(iter_path(root))
    assert [r.path for r in readers] == [str(f) for f in files]
    assert [(b.records[0].key, b.base_offset) for r in readers for b in r][:3] == [
        (b"__consumer_offsets-1", 0), (b"__consumer_offsets-1", 50), (b"__consumer_offsets-2", 0)]
    assert [r.path for r in iter_path(files[5])] == [str(files[5])]
    assert [b.base_offset for r in read_partition_dir(root / "other-0") for b in r] == [0, 50]


def test_segments_are_mapped_and_pipes_spooled(tmp_path: Path) -> None:
    seg = tmp_path / segment_file_name(0)
    data = build_batch(RECS) + build_batch(RECS, base_offset=5, codec="lz4")
    seg.write_bytes(data)
    it = read_segment(seg)
    batches = list(it)
    assert [_sig(b) for b in batches] == [_sig(b) for b in iter_batches(data)]
    assert it.size == len(data) and it.finished
    (tmp_path / segment_file_name(9)).write_bytes(b"")
    assert list(read_segment(tmp_path / segment_file_name(9))) == []
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as w:
        w.write(data)
    with os.fdopen(read_end, "rb") as r, spool(r, "pipe") as copy:
        assert [_sig(b) for b in read_segment(copy)] == [_sig(b) for b in batches]


def test_path_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        iter_path(tmp_path / "nope")
    with pytest.raises(UsageError, match=r"holds no \.log segment files"):
        iter_path(tmp_path)
    with pytest.raises(UsageError):
        read_segment(tmp_path)
    with pytest.raises(UsageError):
        read_partition_dir(tmp_path / "nope")


def test_read_segment_shares_the_callers_problem_list(tmp_path: Path) -> None:
    seg = tmp_path / segment_file_name(0)
    seg.write_bytes(build_batch(RECS) + b"\x09" * 30)
    problems: list[DecodeError] = []
    reader = read_segment(seg, problems=problems)
    assert reader.problems is problems and problems == []  # nothing read before iteration
    assert len(list(reader)) == 1
    assert problems[0].path == str(seg) and problems[0].position == len(build_batch(RECS))


# ------------------------------------------------------------------------------------------------ fuzzing


def _fix_crcs(d: bytearray) -> bytes:
    """Recompute every framed batch's CRC so damage sits behind a valid checksum."""
    pos = 0
    while len(d) - pos >= 17:
        (length,) = struct.unpack_from(">i", d, pos + 8)
        end = pos + 12 + length
        if length < 14 or end > len(d):
            break
        if d[pos + 16] == 2:
            struct.pack_into(">I", d, pos + 17, crc32c(bytes(d[pos + 21 : end])))
        else:
            struct.pack_into(">I", d, pos + 12, zlib.crc32(bytes(d[pos + 16 : end])))
        pos = end
    return bytes(d)


def _mutate(rnd: random.Random, data: bytes) -> bytes:
    d = bytearray(data)
    kind = rnd.randrange(8)
    if kind == 0:
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(d))
            d[i] ^= 1 << rnd.randrange(8)
    elif kind == 1:
        del d[rnd.randrange(len(d)) :]
    elif kind == 2:
        i = rnd.randrange(len(d))
        d[i:i] = rnd.randbytes(rnd.randint(1, 64))
    elif kind == 3:
        i = rnd.randrange(len(d))
        del d[i : i + rnd.randint(1, 64)]
    elif kind == 4:
        i = rnd.randrange(max(1, len(d) - 4))
        d[i : i + 4] = rnd.choice([b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00\x00\x00\x00", rnd.randbytes(4)])
    elif kind == 5:
        i = rnd.randrange(len(d))
        d[i : i + 64] = rnd.randbytes(64)
    elif kind == 6:
        for _ in range(rnd.randint(1, 4)):
            d[rnd.randrange(21, len(d))] = rnd.randrange(256)
        return _fix_crcs(d)
    else:
        return rnd.randbytes(rnd.randrange(3000))
    return bytes(d)


def _check_only_batches_and_decode_errors(data: bytes) -> None:
    problems: list[DecodeError] = []
    it = iter_batches(data, problems=problems, path="fuzz")
    batches = list(it)  # anything but DecodeError propagates and fails the test
    assert it.finished and 0 <= it.trailing_bytes <= len(data)
    assert all(type(b) is Batch and 0 <= b.position < len(data) for b in batches)
    assert all(isinstance(p, DecodeError) and p.path == "fuzz" and 0 <= p.position < len(data) for p in problems)
    positions = [b.position for b in batches]
    assert positions == sorted(positions)


def test_fuzz_mutated_segments(real_segments: list[Path]) -> None:
    rnd = random.Random(20260101)
    sources = [SYNTHETIC, *[s.read_bytes() for s in real_segments if s.stat().st_size < 64_000][:8]]
    for _ in range(15000):
        _check_only_batches_and_decode_errors(_mutate(rnd, rnd.choice(sources)))


def test_fuzz_damaged_compressed_payloads() -> None:
    """Valid CRC and valid compression around damaged record bytes: the record decoder's error paths."""
    rnd = random.Random(7)
    for _ in range(2000):
        recs = [SimpleRecord(rnd.randbytes(rnd.randrange(5)), rnd.randbytes(rnd.randrange(200)), rnd.randrange(2**40),
                             [("h", b"x")] * rnd.randrange(3)) for _ in range(rnd.randint(1, 5))]
        raw = bytearray(build_batch(recs))
        for _ in range(rnd.randint(1, 3)):
            raw[rnd.randrange(61, len(raw))] = rnd.randrange(256)
        codec = rnd.randrange(5)
        from groupctl.log.compression import compress

        payload = compress(codec, bytes(raw[61:]))
        head = raw[:61]
        struct.pack_into(">h", head, 21, codec)
        struct.pack_into(">i", head, 8, 49 + len(payload))
        _check_only_batches_and_decode_errors(_fix_crcs(head + payload))


DAMAGE = ["bit_flip", "length_huge", "length_flip", "length_small", "insert", "delete", "overwrite", "magic"]


def _damage(rnd: random.Random, data: bytes, b: Batch, kind: str) -> bytes:
    d = bytearray(data)
    p, e = b.position, b.position + b.size
    crc_start = p + (21 if b.magic == 2 else 16)
    if kind == "bit_flip":
        d[rnd.randrange(crc_start, e)] ^= 1 << rnd.randrange(8)
    elif kind == "length_huge":
        struct.pack_into(">i", d, p + 8, rnd.choice([2**31 - 1, 2147483000, 10**9]))
    elif kind == "length_flip":
        d[p + 8 + rnd.randrange(4)] ^= 1 << rnd.randrange(8)
    elif kind == "length_small":
        struct.pack_into(">i", d, p + 8, rnd.randrange(-5, 60))
    elif kind == "insert":
        i = rnd.randrange(p + 1, e)
        d[i:i] = rnd.randbytes(rnd.randint(1, 50))
    elif kind == "delete":
        i = rnd.randrange(p + 1, e - 1)
        del d[i : min(e, i + rnd.randint(1, 50))]
    elif kind == "overwrite":
        i = rnd.randrange(p + 8, e)
        d[i : min(e, i + 20)] = rnd.randbytes(min(e, i + 20) - i)
    else:
        d[p + 16] = rnd.choice([3, 7, 0x80, 0xFF] + [m for m in (0, 1, 2) if m != b.magic])
    return bytes(d)


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_batch_k_leaves_every_other_batch_intact(kind: str, real_segments: list[Path]) -> None:
    rnd = random.Random(f"damage-{kind}")
    sources = [s for s in (SYNTHETIC, *[s.read_bytes() for s in real_segments]) if len(list(iter_batches(s))) >= 5]
    ambiguous = 0
    for trial in range(60):
        data = sources[trial % len(sources)]
        batches = list(iter_batches(data, strict=True))
        k = rnd.randrange(len(batches) - 1)
        damaged = _damage(rnd, data, batches[k], kind)
        start, end = batches[k].position, batches[k].position + batches[k].size
        if damaged[start:end] == data[start:end]:
            # E.g. deleting batch k's last zero bytes when batch k+1's offset starts with the same zeros:
            # byte for byte that is damage to k+1's unprotected header, and no reader can tell.
            ambiguous += 1
            continue
        got, problems, _ = _read(damaged)
        got_sigs = {_sig(b) for b in got}
        for j, b in enumerate(batches):
            if j != k:
                assert _sig(b) in got_sigs, (kind, trial, k, j, [str(p) for p in problems])
        assert problems, (kind, trial, k)
        assert problems[0].position == batches[k].position
    assert ambiguous <= 6


def test_truncating_batch_k_gives_trailing_bytes() -> None:
    batches = list(iter_batches(SYNTHETIC, strict=True))
    for k in range(1, len(batches)):
        b = batches[k]
        cut = SYNTHETIC[: b.position + b.size - 1]
        got, problems, it = _read(cut)
        assert [_sig(x) for x in got] == [_sig(x) for x in batches[:k]]
        assert problems == [] and it.trailing_bytes == b.size - 1


def test_hostile_garbage_terminates_and_recovers() -> None:
    good = b"".join(build_batch(RECS, base_offset=5 * i) for i in range(3))
    fake_headers = (b"\0" * 8 + struct.pack(">i", 100_000) + b"\0\0\0\0\x02") * 30_000
    fake_legacy = (b"\0" * 8 + struct.pack(">i", 50) + b"\0\0\0\0\x00") * 30_000
    for garbage in (random.Random(3).randbytes(500_000), b"\0" * 500_000, b"\x01" * 500_000, fake_headers,
                    fake_legacy):
        got, problems, it = _read(good + garbage + good)
        assert [b.base_offset for b in got] == [0, 5, 10, 0, 5, 10]
        assert problems and it.trailing_bytes == 0


def test_memory_does_not_grow_with_the_segment(tmp_path: Path) -> None:
    """A 192 MiB segment read in a fresh process peaks far below its size: pages behind the reader are
    handed back (read whole, as before, or mapped without that, it peaked at 214 MiB; now 54 MiB)."""
    import subprocess
    import sys

    seg = tmp_path / segment_file_name(0)
    value = b"\x5a" * (1 << 20)
    with seg.open("wb") as fh:
        for i in range(192):
            fh.write(build_batch([SimpleRecord(b"k", value, 1)], base_offset=i))
    measure = (
        "import resource, subprocess, sys\n"
        "code = subprocess.call(sys.argv[1:])\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    read = (
        "import sys\n"
        "from groupctl.log.segment import read_segment\n"
        "it = read_segment(sys.argv[1])\n"
        "assert sum(len(b.records[0].value) for b in it) == 192 << 20 and not it.problems\n"
    )
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-c", measure, sys.executable, "-c", read, str(seg)], cwd=root,
                       capture_output=True, text=True, timeout=120)
    code, kib = r.stdout.split()
    assert code == "0", r.stderr
    assert int(kib) < 120 * 1024, f"peak RSS {int(kib) // 1024} MiB"


# -- the observer interface and the decoded view ------------------------------------------------------


class _Recorder:
    """A BatchObserver that takes the batches starting at `take` (and the compressed ones whose records
    start with base offset `take_records`), and records every offer."""

    def __init__(self, take: dict[int, int] | None = None, take_records: int | None = None) -> None:
        self.take = take or {}
        self.take_records_at = take_records
        self.offered: list[int] = []
        self.records_offered: list[tuple[int, int]] = []

    def take_batches(self, data, pos: int) -> int | None:
        self.offered.append(pos)
        return self.take.get(pos)

    def take_records(self, buf, start, stop, count, base_offset, base_ts, max_ts, log_append_time) -> bool:
        self.records_offered.append((base_offset, count))
        return base_offset == self.take_records_at


def _observed_dump() -> bytes:
    """Plain, compressed, transactional and control batches, offsets 0-9."""
    rec = [SimpleRecord(b"k", b"v", 1000), SimpleRecord(b"k2", b"v2", 1001)]
    return b"".join([
        build_batch(rec, base_offset=0),
        build_batch(rec, base_offset=2, codec="gzip"),
        build_batch(rec, base_offset=4, producer_id=7, producer_epoch=0, is_transactional=True),
        build_control_batch("COMMIT", coordinator_epoch=0, producer_id=7, producer_epoch=0, timestamp=1002,
                            base_offset=6),
        build_batch(rec, base_offset=7, codec="lz4"),
    ])


def test_an_observer_is_offered_every_batch_position_and_the_plain_compressed_records() -> None:
    """Declining everything changes nothing read; it is offered each batch's position, and the records of
    the compressed batches without a producer id (not the transactional or control ones)."""
    data = _observed_dump()
    plain = list(iter_batches(data))
    observer = _Recorder()
    seen = list(BatchIterator(data, observer=observer))
    assert seen == plain
    assert observer.offered == [b.position for b in plain]
    assert observer.records_offered == [(2, 2), (7, 2)]


def test_what_an_observer_takes_is_not_yielded_and_reading_goes_on_after_it() -> None:
    data = _observed_dump()
    plain = list(iter_batches(data))
    observer = _Recorder(take={plain[0].position: plain[1].position}, take_records=7)
    reader = iter_batches(data)
    reader.attach(observer)
    assert [b.base_offset for b in reader] == [2, 4, 6]
    assert observer.offered == [b.position for b in plain]  # from the end of the one taken on
    assert observer.records_offered == [(2, 2), (7, 2)]
    assert reader.problems == [] and reader.trailing_bytes == 0


def test_an_observer_is_attached_before_reading_and_only_once() -> None:
    data = _observed_dump()
    reader = iter_batches(data)
    first = _Recorder()
    reader.attach(first)
    reader.attach(first)  # the same one again is harmless
    with pytest.raises(ValueError, match="has an observer already"):
        reader.attach(_Recorder())
    assert not reader.started
    next(reader)
    assert reader.started
    with pytest.raises(ValueError, match="before the reader is iterated"):
        reader.attach(first)


def test_decoded_gives_every_batch_with_the_reference_decoding() -> None:
    """`decoded()` yields each batch with decode_record's records, whether the loop decoded them in C or
    the reader decodes them after; started by plain iteration, it goes on from where that stopped."""
    from groupctl.log.decode import decode_record

    data = mixed_dump(500)
    reference = [(b, [decode_record(b, r) for r in b.records]) for b in iter_batches(data)]
    assert len(reference) > 3
    assert list(iter_batches(data).decoded()) == reference
    reader = iter_batches(data)
    first = next(reader)
    assert [(first, [decode_record(first, r) for r in first.records]), *reader.decoded()] == reference
    assert reader.finished and reader.trailing_bytes == 0


def test_entries_interleave_problems_with_batches_read_by_the_one_loop() -> None:
    data = _observed_dump()
    damaged = bytearray(data)
    damaged[79] ^= 0xFF  # the last value byte of the first batch: a CRC mismatch, its structure still parses
    entries = list(iter_batches(bytes(damaged)).entries())
    kinds = [type(e).__name__ for e in entries]
    assert kinds[0] == "DecodeError" and "CRC mismatch" in entries[0].reason
    assert [e.base_offset for e in entries if isinstance(e, Batch)] == [0, 2, 4, 6, 7]
