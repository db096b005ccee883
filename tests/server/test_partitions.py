"""The partition store on its own: batches stored as received, the index, limits, recovery, timestamps."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import pytest
from crc32c import crc32c

from groupctl.errors import KafkaError
from groupctl.log.segment import read_segment
from groupctl.log.writer import SimpleRecord, build_batch, build_control_batch, build_message_set
from groupctl.server.partitions import PartitionStore, check_batch

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


def records(n: int, start_ts: int = 1_000, prefix: str = "v") -> list[SimpleRecord]:
    return [SimpleRecord(f"k{i}".encode(), f"{prefix}{i}".encode() * 20, start_ts + i) for i in range(n)]


def open_store(tmp_path: Path, ends: dict[str, list[int]] | None = None, **options: int) -> PartitionStore:
    return PartitionStore(tmp_path, {"t": [0, 0]} if ends is None else ends, **options)


def log_file(tmp_path: Path, base: int = 0, partition: int = 0) -> Path:
    return tmp_path / "data" / f"t-{partition}" / f"{base:020d}.log"


def segmented(tmp_path: Path, per_segment: int, appends: int) -> tuple[PartitionStore, bytes]:
    """`appends` copies of one batch written to t-0 of a store whose segments hold `per_segment` of them, for
    the tests of a log of several segments; the store (still open) and the batch."""
    batch = build_batch(records(2))
    store = open_store(tmp_path, segment_bytes=per_segment * len(batch))
    for _ in range(appends):
        store.log("t", 0).append(batch)
    return store, batch


@pytest.mark.parametrize("codec", CODECS)
def test_batches_are_stored_as_received_with_only_the_base_offset_and_epoch_rewritten(
    tmp_path: Path, codec: str
) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)
    first = build_batch(records(3), codec=codec)
    second = build_batch(records(4, 5_000, "w"), codec=codec)
    assert log.append(first) == 0
    assert log.append(second) == 3
    assert (log.log_start_offset, log.end_offset) == (0, 7)
    store.close()
    data = log_file(tmp_path).read_bytes()
    assert data[:8] == struct.pack(">q", 0) and data[12:16] == struct.pack(">i", 0)
    assert data[16 : len(first)] == first[16:]
    assert data[len(first) : len(first) + 8] == struct.pack(">q", 3)
    assert data[len(first) + 16 :] == second[16:]
    batches = list(read_segment(log_file(tmp_path), strict=True))
    assert [(b.base_offset, b.last_offset, b.compression, b.crc_valid) for b in batches] == [
        (0, 2, codec, True), (3, 6, codec, True)]
    assert [r.value for r in batches[1].records] == [r.value for r in records(4, 5_000, "w")]
    assert [r.offset for r in batches[1].records] == [3, 4, 5, 6]


def test_a_partition_without_a_log_starts_at_the_recorded_end_offset(tmp_path: Path) -> None:
    ends = {"t": [5, 0]}
    store = open_store(tmp_path, ends)
    log = store.log("t", 0)
    assert (log.log_start_offset, log.end_offset) == (5, 5)
    assert not (tmp_path / "data").exists()
    assert log.append(build_batch(records(3))) == 5
    assert ends == {"t": [8, 0]}
    assert log_file(tmp_path, base=5).is_file()
    assert log.log_start_offset == 5
    assert log.read(4, 1 << 20, min_one=True) == b""
    store.close()
    reopened = open_store(tmp_path, {"t": [0, 0]})
    assert (reopened.log("t", 0).log_start_offset, reopened.log("t", 0).end_offset) == (5, 8)
    reopened.close()


def test_end_offsets_follow_every_append_and_a_partition_past_the_table_is_added(tmp_path: Path) -> None:
    ends: dict[str, list[int]] = {}
    store = open_store(tmp_path, ends)
    store.log("t", 2).append(build_batch(records(2)))
    assert ends == {"t": [0, 0, 2]}
    store.log("t", 2).append(build_batch(records(1)))
    assert ends == {"t": [0, 0, 3]}
    store.close()


def _corrupt(batch: bytes, position: int) -> bytes:
    data = bytearray(batch)
    data[position] ^= 0xFF
    return bytes(data)


def _with_header(batch: bytes, fmt: str, offset: int, value: int) -> bytes:
    """The batch with one header field changed and its CRC made right again."""
    data = bytearray(batch)
    struct.pack_into(fmt, data, offset, value)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    return bytes(data)


BAD_BATCHES = {
    "no records": (None, "INVALID_RECORD"),
    "too short": (b"\x00" * 10, "INVALID_RECORD"),
    "magic 1": (build_message_set(records(2), magic=1), "INVALID_RECORD"),
    "magic 0": (build_message_set(records(2), magic=0), "INVALID_RECORD"),
    "cut off": (build_batch(records(3))[:-5], "INVALID_RECORD"),
    "two batches": (build_batch(records(1)) * 2, "INVALID_RECORD"),
    "crc": (_corrupt(build_batch(records(3)), 70), "CORRUPT_MESSAGE"),
    "crc over attributes": (_corrupt(build_batch(records(3)), 22), "CORRUPT_MESSAGE"),
    "base offset": (build_batch(records(3), base_offset=7), "INVALID_RECORD"),
    "control": (build_control_batch("COMMIT", coordinator_epoch=0, producer_id=1, producer_epoch=0, timestamp=1),
                "INVALID_RECORD"),
    "count": (build_batch(records(3), last_offset_delta=5), "INVALID_RECORD"),
    "offset deltas": (build_batch([SimpleRecord(b"k", b"v", 1, (), 1), SimpleRecord(b"k", b"v", 1, (), 1)]),
                      "INVALID_RECORD"),
    "no sequence": (build_batch(records(2), producer_id=9, producer_epoch=0), "INVALID_RECORD"),
    "codec 6": (_with_header(build_batch(records(2)), ">h", 21, 6), "UNSUPPORTED_COMPRESSION_TYPE"),
    "record framing": (_with_header(build_batch(records(2)), ">i", 57, 3), "INVALID_RECORD"),
}


@pytest.mark.parametrize("case", sorted(BAD_BATCHES))
def test_bad_batches_get_kafkas_errors_and_are_not_stored(tmp_path: Path, case: str) -> None:
    data, error = BAD_BATCHES[case]
    with pytest.raises(KafkaError) as raised:
        check_batch(data)
    assert raised.value.name == error
    store = open_store(tmp_path)
    with pytest.raises(KafkaError):
        store.log("t", 0).append(data)  # type: ignore[arg-type]
    assert store.log("t", 0).end_offset == 0
    store.close()


def test_zstd_is_refused_when_not_allowed_and_big_batches_are_too_large() -> None:
    with pytest.raises(KafkaError) as raised:
        check_batch(build_batch(records(2), codec="zstd"), allow_zstd=False)
    assert raised.value.name == "UNSUPPORTED_COMPRESSION_TYPE"
    check_batch(build_batch(records(2), codec="gzip"), allow_zstd=False)
    with pytest.raises(KafkaError) as raised:
        check_batch(build_batch([SimpleRecord(None, b"x" * 2_000_000, 1)]))
    assert raised.value.name == "MESSAGE_TOO_LARGE"


def test_idempotent_and_transactional_batches_are_accepted() -> None:
    assert check_batch(build_batch(records(2), producer_id=4, producer_epoch=0, base_sequence=0)).last_offset_delta == 1
    check_batch(build_batch(records(2), producer_id=4, producer_epoch=0, base_sequence=0, is_transactional=True))


def test_reads_return_whole_batches_within_the_limit_and_at_least_one(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)
    batches = [build_batch(records(3, 1_000 * i)) for i in range(5)]
    for batch in batches:
        log.append(batch)
    size = len(batches[0])
    assert all(len(b) == size for b in batches)
    from_middle = log.read(7, 1 << 20, min_one=False)
    assert len(from_middle) == 3 * size
    assert struct.unpack_from(">q", from_middle)[0] == 6
    assert len(log.read(7, 2 * size, min_one=False)) == 2 * size
    assert len(log.read(7, 2 * size - 1, min_one=False)) == size
    assert log.read(7, 10, min_one=False) == b""
    assert len(log.read(7, 10, min_one=True)) == size
    assert log.read(15, 1 << 20, min_one=True) == b""
    store.close()


def test_full_segments_roll_and_reads_find_the_segment(tmp_path: Path) -> None:
    store, batch = segmented(tmp_path, per_segment=3, appends=7)
    log = store.log("t", 0)
    names = sorted(p.name for p in log.directory.iterdir())
    assert names == ["00000000000000000000.log", "00000000000000000006.log", "00000000000000000012.log"]
    assert struct.unpack_from(">q", log.read(8, 1 << 20, min_one=True))[0] == 8
    assert len(log.read(0, 1 << 20, min_one=True)) == 3 * len(batch)  # one segment per read
    store.close()
    reopened = open_store(tmp_path, segment_bytes=3 * len(batch))
    log = reopened.log("t", 0)
    assert (log.log_start_offset, log.end_offset) == (0, 14)
    assert log.append(batch) == 14
    reopened.close()


def test_restart_rebuilds_the_index_and_cuts_a_torn_tail(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)
    for i in range(3):
        log.append(build_batch(records(2, 100 * i), codec="lz4"))
    store.close()
    path = log_file(tmp_path)
    good = path.stat().st_size
    torn = build_batch(records(4))
    with path.open("ab") as fh:
        fh.write(torn[: len(torn) // 2])
    reopened = open_store(tmp_path)
    log = reopened.log("t", 0)
    assert (log.log_start_offset, log.end_offset) == (0, 6)
    assert path.stat().st_size == good
    assert len(reopened.notices) == 1 and "torn" in reopened.notices[0]
    assert log.append(build_batch(records(1))) == 6
    assert log.offset_for_timestamp(150) == (200, 4)
    reopened.close()
    assert [b.base_offset for b in read_segment(path, strict=True)] == [0, 2, 4, 6]


def test_damage_inside_the_log_cuts_it_there_and_drops_later_segments(tmp_path: Path) -> None:
    store, batch = segmented(tmp_path, per_segment=2, appends=6)
    store.close()
    first = log_file(tmp_path)
    data = bytearray(first.read_bytes())
    data[len(batch) + 70] ^= 0xFF  # the second batch's records
    first.write_bytes(bytes(data))
    ends = {"t": [12, 0]}
    reopened = open_store(tmp_path, ends)
    log = reopened.log("t", 0)
    assert (log.log_start_offset, log.end_offset) == (0, 2)
    assert ends["t"] == [2, 0]
    assert sorted(p.name for p in log.directory.iterdir()) == ["00000000000000000000.log"]
    assert any("CRC" in n for n in reopened.notices) and sum("deleted" in n for n in reopened.notices) == 2
    reopened.close()


def test_timestamp_lookups_decode_the_candidate_batch(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)
    assert log.max_timestamp() is None and log.offset_for_timestamp(0) is None
    stamps = [[100, 300, 200], [250, 260], [900, 400, 900], [50]]
    for group in stamps:
        log.append(build_batch([SimpleRecord(None, b"v", ts) for ts in group], codec="snappy"))
    assert log.offset_for_timestamp(0) == (100, 0)
    assert log.offset_for_timestamp(201) == (300, 1)
    assert log.offset_for_timestamp(301) == (900, 5)
    assert log.offset_for_timestamp(901) is None
    assert log.max_timestamp() == (900, 5)
    store.close()


def test_an_append_wakes_a_waiting_fetch_and_a_quiet_log_times_out(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)

    async def scenario() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        loop.call_later(0.05, log.append, build_batch(records(1)))
        await store.wait_for_append([log], 5.0)
        woken = loop.time() - start
        start = loop.time()
        await store.wait_for_append([log, store.log("t", 1)], 0.1)
        return woken, loop.time() - start

    woken, quiet = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert woken < 2.0 and quiet >= 0.09
    assert log.waiters == []
    store.close()


def test_sync_is_needed_only_after_appends(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = store.log("t", 0)
    assert not log.unsynced
    log.append(build_batch(records(1)))
    assert log.unsynced
    store.sync()
    assert not log.unsynced
    store.close()
