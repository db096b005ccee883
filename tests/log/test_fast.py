"""The compiled record loop against the pure-Python reference: the same records, problems, dump-log
text (every Kafka release), JSON lines and audit, on every shared vector, on hypothesis-generated
batches and on damaged input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.dumps import audit_dumps
from groupctl.errors import DecodeError
from groupctl.log import fast
from groupctl.log.decode import FileDump, decoded_batches, open_inputs, segment_dump
from groupctl.log.dumplog import write_dump_log
from groupctl.log.jsonl import write_jsonl
from groupctl.log.kafka_versions import SUPPORTED_VERSIONS, profile
from groupctl.log.replay import Replay
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import mixed_dump, write_sample_dump
from groupctl.log.writer import SimpleRecord, build_batch, build_control_batch
from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
from groupctl.protocol.records import encode_key, encode_value
from tests.conftest import KAFKA_40_VECTORS, VECTORS
from tests.log.bombs import v2_batch
from tests.log.conftest import NOT_BUILT
from tests.strategies import message_values

pytestmark = pytest.mark.skipif(not fast.available(), reason=NOT_BUILT)

ROOT = Path(__file__).resolve().parents[2]
VECTOR_FILES = sorted(
    p for base in (VECTORS, KAFKA_40_VECTORS) if base.is_dir()
    for p in [*base.rglob("*.log"), *base.rglob("*.offsets-decoder.txt")]
)
OFFSET_COMMIT = 1
INT32_MAX = (1 << 31) - 1


# --- one input, read every way ------------------------------------------------------------------


def _bytes_dump(data: bytes) -> list[FileDump]:
    problems: list[DecodeError] = []
    return [segment_dump("00000000000000000000.log", iter_batches(data, problems=problems), problems)]


def _inputs(source: Path | bytes) -> Iterable[FileDump]:
    """The inputs, each read while it is the current one: open_inputs finishes a file's batches before it
    opens the next, so a list of them would hold only dumps already read through."""
    return _bytes_dump(source) if isinstance(source, bytes) else open_inputs([source])


def _records(source: Path | bytes) -> list[Any]:
    """Everything read: per file, its batches with their decoded records, then its problems and trailing bytes."""
    out: list[Any] = []
    for dump in _inputs(source):
        out.append([(batch, records) for batch, records in dump.batches])
        out.append([(p.reason, p.path, p.position) for p in dump.problems])
        out.append(dump.trailing_bytes)
    return out


class _Utf8Stream(io.TextIOWrapper):
    """A text stream over bytes, as stdout is: the compiled printers write below it (`sink.byte_sink`)."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", newline="")

    def getvalue(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8")


def _dump_log(source: Path | bytes, version: str, stream: type = io.StringIO) -> str:
    out = stream()
    for _ in write_dump_log(_inputs(source), out, kafka=profile(version)):
        pass
    return out.getvalue()


def _jsonl(source: Path | bytes, stream: type = io.StringIO) -> str:
    out = stream()
    write_jsonl(_inputs(source), out)
    return out.getvalue()


def _audit(source: Path | bytes) -> Any:
    return audit_dumps(_inputs(source))


def _both(read: Callable[[], Any]) -> tuple[Any, Any]:
    with fast.forced(True):
        reference = read()
    with fast.forced(False):
        compiled = read()
    return reference, compiled


def assert_same(source: Path | bytes, *, versions: tuple[str, ...] = SUPPORTED_VERSIONS) -> None:
    reference, compiled = _both(lambda: _records(source))
    assert compiled == reference
    assert repr(compiled) == repr(reference)  # same types too (RecordValue, int, UUID ...), not just equal
    for version in versions:
        reference, compiled = _both(lambda v=version: _dump_log(source, v))
        assert compiled == reference, f"dump-log text differs for Kafka {version}"
        with fast.forced(False):
            assert _dump_log(source, version, _Utf8Stream) == reference, f"dump-log bytes differ for Kafka {version}"
    reference, compiled = _both(lambda: _jsonl(source))
    assert compiled.splitlines() == reference.splitlines()
    with fast.forced(False):
        assert _jsonl(source, _Utf8Stream).splitlines() == reference.splitlines()
    reference, compiled = _both(lambda: _audit(source))
    assert compiled == reference


# --- the shared vectors --------------------------------------------------------------------------


@pytest.mark.skipif(not VECTOR_FILES, reason="the shared vectors (../shared/) are not present")
@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_shared_vector_reads_the_same(path: Path) -> None:
    assert_same(path)


def test_the_vectors_reach_the_compiled_path() -> None:
    """Real segments take the whole-batch C path, not the reference everywhere: every plain batch
    (uncompressed, CRC good) of the shared vectors is read by next_batch, and read as the reference does."""
    segments = [p for p in VECTOR_FILES if p.suffix == ".log"]
    if not segments:
        pytest.skip("the shared vectors (../shared/) are not present")
    with fast.forced(False):
        native = fast.module()
    taken = 0
    for path in segments:
        data = path.read_bytes()
        with fast.forced(True):
            reference = list(iter_batches(data))
        for batch in reference:
            if batch.magic == 2 and batch.compression == "none" and batch.crc_valid and batch.records:
                got = native.next_batch(data, batch.position)
                assert got is not None, f"{path}: the batch at byte {batch.position} was declined"
                assert got == (batch, batch.position + batch.size)
                taken += 1
    assert taken > 0


def test_next_batches_reads_runs_of_plain_batches_as_the_reference() -> None:
    """A run stops before the first batch C declines (here compressed ones) and at `until`; with
    `decoded`, each batch comes with the DecodedRecords the reference gives it."""
    data = mixed_dump(3000)
    with fast.forced(True):
        reference = list(iter_batches(data))
        decoded = [records for _, records in decoded_batches(iter_batches(data))]
    with fast.forced(False):
        native = fast.module()
    runs = stops = 0
    i = 0
    while i < len(reference):
        batch = reference[i]
        got = native.next_batches(data, batch.position, len(data), True)
        if got is None:
            assert batch.compression != "none" or batch.magic != 2
            stops += 1
            i += 1
            continue
        items, end = got
        assert items == list(zip(reference[i : i + len(items)], decoded[i : i + len(items)], strict=True))
        i += len(items)
        assert end == (reference[i].position if i < len(reference) else len(data))
        assert i == len(reference) or native.next_batches(data, end, len(data), False) is None
        runs += 1
    assert runs > 1 and stops > 0
    first = reference[0]
    one, end = native.next_batches(data, first.position, first.position + 1, False)
    assert one == [first] and end == first.position + first.size


def test_the_dump_with_every_audit_finding_reads_the_same(every_finding: list[Path]) -> None:
    for source in every_finding:
        assert_same(source, versions=("4.3",))


def test_the_benchmark_dump_and_the_sample_read_the_same(tmp_path: Path) -> None:
    assert_same(mixed_dump(3000, seed=5))
    assert_same(write_sample_dump(tmp_path))


def test_group_records_jsonl_lines_are_finished_from_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Group records' JSON lines are written by C up to their batch's fields and ended by `_key_value_text`
    (the reference renders only what C cannot take), and they read as the reference's."""
    from groupctl.log import jsonl

    data = mixed_dump(3000, seed=5)
    with fast.forced(True):
        reference = _jsonl(data)
    ended: list[int] = []
    real = jsonl._key_value_text

    def counted(rec: Any) -> str:
        ended.append(rec.key.type)
        return real(rec)

    monkeypatch.setattr(jsonl, "_key_value_text", counted)
    with fast.forced(False):
        for stream in (io.StringIO, _Utf8Stream):
            ended.clear()
            assert _jsonl(data, stream) == reference
            assert ended and set(ended) >= {2, 3, 5, 7, 8}


# --- generated batches ---------------------------------------------------------------------------

_TEXT = st.one_of(st.sampled_from(["group-1", "orders", "", "a\"b", "t\\x", "é", "\x01", "topic-0"]),
                  st.text(max_size=8))
_GROUP = st.sampled_from(["group-1", "orders", "g"])  # few groups, so commits meet deletions and rewinds
_TS = st.integers(-1, 1 << 45)


@st.composite
def offset_commit_records(draw: st.DrawFn) -> SimpleRecord:
    key = encode_key(OFFSET_COMMIT, {"group": draw(st.one_of(_GROUP, _TEXT)), "topic": draw(_TEXT),
                                     "partition": draw(st.integers(-(1 << 31), INT32_MAX))})
    ts = draw(_TS)
    kind = draw(st.sampled_from(["value", "value", "value", "tombstone", "raw"]))
    if kind == "tombstone":
        return SimpleRecord(key, None, ts)
    if kind == "raw":  # short, odd versions, damaged layouts: the reference's errors
        return SimpleRecord(key, draw(st.binary(max_size=30)), ts)
    version = draw(st.integers(0, 4))
    data = draw(message_values(VALUE_SCHEMAS[OFFSET_COMMIT], version, unknown_tags=True))
    if version >= 1 and draw(st.booleans()):
        data["commitTimestamp"] = ts  # as brokers write it
    if version == 4 and draw(st.booleans()):
        data["topicId"] = uuid.UUID(int=0)
    return SimpleRecord(key, encode_value(OFFSET_COMMIT, version, data), ts)


@st.composite
def other_records(draw: st.DrawFn) -> SimpleRecord:
    record_type = draw(st.sampled_from(sorted(set(KEY_SCHEMAS) & set(VALUE_SCHEMAS))))
    key_data = draw(message_values(KEY_SCHEMAS[record_type], 0))
    for name in ("group", "groupId"):
        if name in key_data and draw(st.booleans()):
            key_data[name] = draw(_GROUP)
    key = encode_key(record_type, key_data)
    schema = VALUE_SCHEMAS[record_type]
    if draw(st.integers(0, 4)) == 0:  # a tombstone: a group deleted, a member gone
        return SimpleRecord(key, None, draw(_TS))
    version = draw(st.sampled_from(list(schema.valid_versions)))
    value = encode_value(record_type, version, draw(message_values(schema, version)))
    return SimpleRecord(key, value, draw(_TS))


@st.composite
def batches(draw: st.DrawFn) -> bytes:
    out = []
    offset = draw(st.integers(0, 1 << 40))
    for _ in range(draw(st.integers(1, 4))):
        records = draw(st.lists(st.one_of(offset_commit_records(), offset_commit_records(), other_records(),
                                          st.builds(lambda v, t: SimpleRecord(None, v, t), st.binary(max_size=4), _TS)),
                                min_size=1, max_size=6))
        if draw(st.booleans()):
            records[0] = records[0]._replace(headers=[("h", b"v")])
        options: dict[str, Any] = {"codec": draw(st.sampled_from(["none", "none", "gzip", "snappy", "lz4", "zstd"]))}
        if draw(st.booleans()):
            options.update(producer_id=draw(st.integers(0, 1 << 40)), producer_epoch=0,
                           base_sequence=draw(st.sampled_from([0, 7, INT32_MAX - 2, INT32_MAX])),
                           is_transactional=draw(st.booleans()))
        if draw(st.booleans()):
            options.update(timestamp_type="LogAppendTime", log_append_time=draw(st.integers(0, 1 << 45)))
        out.append(build_batch(records, base_offset=offset, **options))
        offset += len(records)
    if draw(st.booleans()):
        out.append(build_control_batch(draw(st.sampled_from(["COMMIT", "ABORT"])), coordinator_epoch=1,
                                       producer_id=3, producer_epoch=0, timestamp=5, base_offset=offset))
    return b"".join(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batches())
def test_generated_batches_read_the_same(data: bytes) -> None:
    assert_same(data)


# --- the audit's compiled path for plain commit batches ------------------------------------------

_AUDIT_GROUPS = ("g1", "g2", "g3")
_AUDIT_TOPICS = ("t", "u")


def _commit(group: str, topic: str, partition: int, offset: int, ts: int, version: int = 3) -> SimpleRecord:
    data: dict[str, Any] = {"offset": offset, "leaderEpoch": 0, "metadata": "", "commitTimestamp": ts}
    if version == 1:
        data = {"offset": offset, "metadata": "m", "commitTimestamp": ts, "expireTimestamp": ts + 5}
    if version == 4:
        data["topicId"] = uuid.UUID(int=7)
    return SimpleRecord(encode_key(OFFSET_COMMIT, {"group": group, "topic": topic, "partition": partition}),
                        encode_value(OFFSET_COMMIT, version, data), ts)


@st.composite
def audit_steps(draw: st.DrawFn) -> bytes:
    """Mostly plain batches of commits on few keys (offsets up and down: rewinds), between offset and group
    tombstones, consumer-group deletions, legacy commits, transactions that commit or abort (their marker
    at once or after the next batch), and batches mixing commits with a group's deletion."""
    out = []
    offset = 0
    ts = 1_000
    key = st.tuples(st.sampled_from(_AUDIT_GROUPS), st.sampled_from(_AUDIT_TOPICS), st.integers(0, 2))
    marker: str | None = None  # of a transaction whose marker waits for the next batch
    for _ in range(draw(st.integers(1, 12))):
        ts += draw(st.integers(-3, 50))
        kind = draw(st.sampled_from(["plain"] * 5 + ["offset-tombstone", "group-delete", "consumer-delete", "legacy",
                                                     "txn-commit", "txn-abort", "lat", "mixed"]))
        options: dict[str, Any] = {}
        if kind in ("plain", "lat", "txn-commit", "txn-abort", "mixed"):
            stamps = st.sampled_from([ts, ts, ts + 2, ts - 1, -1])
            records = [_commit(*draw(key), draw(st.integers(0, 40)), draw(stamps), draw(st.sampled_from([1, 3, 3, 4])))
                       for _ in range(draw(st.integers(1, 20)))]
            if kind == "mixed":
                deleted = SimpleRecord(encode_key(2, {"group": draw(st.sampled_from(_AUDIT_GROUPS))}), None, ts)
                records.insert(draw(st.integers(0, len(records))), deleted)
        elif kind == "offset-tombstone":
            g, t, p = draw(key)
            records = [SimpleRecord(encode_key(OFFSET_COMMIT, {"group": g, "topic": t, "partition": p}), None, ts)]
        elif kind == "group-delete":
            records = [SimpleRecord(encode_key(2, {"group": draw(st.sampled_from(_AUDIT_GROUPS))}), None, ts)]
        elif kind == "consumer-delete":
            records = [SimpleRecord(encode_key(3, {"groupId": draw(st.sampled_from(_AUDIT_GROUPS))}), None, ts)]
        else:
            g, t, p = draw(key)
            records = [SimpleRecord(encode_key(0, {"group": g, "topic": t, "partition": p}),
                                    encode_value(0, 0, {"offset": draw(st.integers(0, 40)), "metadata": "",
                                                        "commitTimestamp": ts}), ts)]
        if kind == "lat":
            options.update(timestamp_type="LogAppendTime", log_append_time=ts + 1)
        options["codec"] = draw(st.sampled_from(["none", "none", "gzip", "lz4"]))
        if kind.startswith("txn"):
            options.update(producer_id=5, producer_epoch=0, base_sequence=0, is_transactional=True)
        if kind.startswith("txn") and marker is not None:
            continue  # producer 5's transaction is still open
        out.append(build_batch(records, base_offset=offset, **options))
        offset += len(records)
        if marker is not None:
            out.append(build_control_batch(marker, coordinator_epoch=1, producer_id=5, producer_epoch=0,
                                           timestamp=ts, base_offset=offset))
            offset += 1
            marker = None
        if kind.startswith("txn"):
            marker = "COMMIT" if kind == "txn-commit" else "ABORT"
            if draw(st.booleans()):
                continue  # the marker comes after the next batch, which may commit the same keys
            out.append(build_control_batch(marker, coordinator_epoch=1, producer_id=5, producer_epoch=0,
                                           timestamp=ts, base_offset=offset))
            offset += 1
            marker = None
    return b"".join(out)


def _audited(data: bytes, limit: int | None = None) -> tuple[Any, Any, int]:
    """The report, the replay's state (with the order of its offsets) and how many times the compiled
    audit path took batches (a run of plain batches, or one compressed batch's records)."""
    from groupctl.log.audit import Auditor

    auditor = Auditor()
    dump = _bytes_dump(data)[0]
    observer = auditor.batch_observer()
    if limit is not None and auditor._table is not None:
        auditor._table.limit = limit  # the table settles and empties itself when more keys come
    taken = 0
    if observer is not None:
        class Counted:  # the auditor's observer, counting what it takes
            def take_batches(self, buf: Any, pos: int) -> int | None:
                nonlocal taken
                end = observer.take_batches(buf, pos)
                taken += end is not None
                return end

            def take_records(self, *args: Any) -> bool:
                nonlocal taken
                took = observer.take_records(*args)
                taken += took
                return took
        dump.reader.attach(Counted())
    for batch, records in dump.batches:
        auditor.observe_batch(batch, records)
    for problem in dump.problems:
        auditor.observe_problem(problem)
    replay = auditor.replay
    state = (replay._comparable(), [(g, list(committed.items())) for g, committed in replay.offsets.items()])
    return auditor.finish(), state, taken


def _assert_audit_same(data: bytes, limit: int | None = None) -> int:
    with fast.forced(True):
        reference = _audited(data)
    with fast.forced(False):
        compiled = _audited(data, limit)
        replayed = Replay()  # what `dump groups` builds from the same dump, on the compiled reader
        for _batch, records in _bytes_dump(data)[0].batches:
            replayed.apply_all(records)
    assert reference[2] == 0
    assert compiled[0] == reference[0]
    assert compiled[1] == reference[1]
    assert repr(compiled[1]) == repr(reference[1])
    assert replayed._comparable() == compiled[1][0]
    return compiled[2]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(audit_steps())
def test_audit_of_commits_around_deletions_rewinds_and_transactions_is_the_same(data: bytes) -> None:
    _assert_audit_same(data)


def test_the_audit_takes_plain_commit_batches_in_c_and_reads_the_rest() -> None:
    data = mixed_dump(3000, seed=11)
    with fast.forced(False):
        reader = iter_batches(data)
        batches = sum(1 for _ in reader)
    taken = _assert_audit_same(data)
    assert 0 < taken < batches


@pytest.mark.parametrize("limit", [1, 7, 64])
def test_a_full_commit_table_settles_and_empties_itself(limit: int) -> None:
    """Past its limit of keys (131,072 by default; lowered here) the table hands every held commit to the
    replay and starts again: the report and the state stay the reference's."""
    data = mixed_dump(3000, seed=5)
    with fast.forced(False):
        _audited(data)
    assert _assert_audit_same(data, limit) > 0


def test_the_commit_table_limit_is_bounded() -> None:
    table = fast.built().CommitTable()
    assert table.limit == 1 << 17
    table.limit = 3
    assert table.limit == 3
    for bad in (-1, (1 << 17) + 1):
        with pytest.raises(ValueError):
            table.limit = bad
    del table.limit
    assert table.limit == 1 << 17


def _held_in_c_steps() -> list[bytes]:
    """Batches where a record read in Python meets commits the compiled path still holds for its group."""
    steps: list[Any] = [
        [_commit("g1", "t", 0, 5, 10), _commit("g1", "t", 1, 6, 10), _commit("g2", "u", 2, 3, 10)],
        [_commit("g1", "t", 0, 7, 11), _commit("g2", "u", 2, 4, 11), _commit("g1", "u", 0, 1, 11)],
        [SimpleRecord(encode_key(OFFSET_COMMIT, {"group": "g1", "topic": "t", "partition": 0}), None, 12)],
        [_commit("g1", "t", 0, 2, 13), _commit("g1", "t", 1, 9, 13)],
        [SimpleRecord(encode_key(2, {"group": "g1"}), None, 14)],  # g1 deleted: its commits held in C before
        [_commit("g1", "t", 1, 1, 15)],  # recommitted after the deletion, and below 9: a rewind
        [_commit("g2", "u", 2, 8, 16), _commit("g2", "u", 2, 1, 16), _commit("g2", "u", 2, 30, 16)],  # a rewind
        ("txn", [_commit("g2", "u", 2, 20, 17)]),
        [_commit("g2", "u", 2, 25, 17), _commit("g2", "u", 0, 2, 17)],  # held in C when the marker comes
        "COMMIT",  # the transaction's commit is older than the one held in C: no rewind, and it is not applied
        [_commit("g2", "u", 2, 3, 18, version=4)],
        [SimpleRecord(encode_key(3, {"groupId": "g2"}), None, 19)],
        [_commit("g2", "u", 1, 4, 20, version=1), _commit("g1", "t", 0, 3, 20)],
    ]
    out, offset = [], 0
    for step in steps:
        if step == "COMMIT":
            out.append(build_control_batch(step, coordinator_epoch=1, producer_id=5, producer_epoch=0, timestamp=17,
                                           base_offset=offset))
            offset += 1
        elif isinstance(step, tuple):
            out.append(build_batch(step[1], base_offset=offset, producer_id=5, producer_epoch=0, base_sequence=0,
                                   is_transactional=True))
            offset += len(step[1])
        else:
            out.append(build_batch(step, base_offset=offset))
            offset += len(step)
    return out


def test_commits_held_in_c_meet_tombstones_deletions_markers_and_rewinds() -> None:
    """The compiled path keeps the replay's committed offsets in C until Python reads the group: an offset
    tombstone for a held key, a group deleted and recommitted, a marker of a transaction on a held group, a
    rewind against a held commit and the end of the dump all see the commits as the reference does."""
    data = b"".join(_held_in_c_steps())
    with fast.forced(False):
        _audited(data)  # the reader decodes each key once before the compiled path takes its batches
    assert _assert_audit_same(data) == 6  # runs of plain batches: 0-1, 3, 5-6, 8, 10, 12
    with fast.forced(True):
        rules = {f.rule for f in _audited(data)[0].findings}
    assert {"offset-rewind", "recommitted-after-delete"} <= rules


def test_python_records_find_the_commits_held_in_c() -> None:
    """Between the compiled path's runs, commits are held in C (not yet in the replay) and a batch read in
    Python settles only the groups it names."""
    from groupctl.log.audit import Auditor

    with fast.forced(False):
        steps = _held_in_c_steps()
        _audited(b"".join(steps))
        auditor = Auditor()
        dump = _bytes_dump(b"".join(steps[:3]))[0]
        auditor.attach(dump.reader)
        held = []
        for batch, records in dump.batches:
            held.append(auditor._table.pending)
            auditor.observe_batch(batch, records)
        assert held == [4]  # g1's t-0, t-1 and u-0 and g2's u-2, held when the tombstone batch is read
        assert auditor._table.pending == 1  # g2's: the tombstone named g1 only
        assert auditor.replay.offsets["g2"][("u", 2)].offset == 4
        assert auditor._table.pending == 0
        assert [(tp, e.offset) for tp, e in auditor.replay.offsets["g1"].items()] == [(("t", 1), 6), (("u", 0), 1)]


def test_an_auditor_holding_commits_in_c_pickles_whole() -> None:
    """A Spark task ships its auditor pickled: the commits held in C go with it."""
    import pickle

    from groupctl.log.audit import Auditor

    data = b"".join(_held_in_c_steps())
    with fast.forced(False):
        _audited(data)
        auditor = Auditor()
        dump = _bytes_dump(data)[0]
        auditor.attach(dump.reader)
        for batch, records in dump.batches:
            auditor.observe_batch(batch, records)
        assert auditor._table.pending
        copy = pickle.loads(pickle.dumps(auditor))
        assert copy._table is None
        assert copy.finish() == auditor.finish() == _audited(data)[0]
        assert copy.replay == auditor.replay


def test_the_audit_reads_what_the_compiled_path_declines() -> None:
    """A bad CRC, a header, an unknown value version, a producer id and a key not decoded before go the long
    way; plain batches, compressed or not, are taken."""
    good = build_batch([_commit("g1", "t", 0, 5, 10), _commit("g1", "t", 1, 6, 10)])
    bad_crc = bytearray(build_batch([_commit("g1", "t", 0, 1, 11)], base_offset=2))
    bad_crc[-3] ^= 0xFF
    header = build_batch([_commit("g1", "t", 0, 2, 12)._replace(headers=[("h", b"v")])], base_offset=3,
                         codec="zstd")
    odd = SimpleRecord(encode_key(OFFSET_COMMIT, {"group": "g1", "topic": "t", "partition": 0}),
                       b"\x00\x09" + bytes(20), 13)
    unknown_version = build_batch([odd], base_offset=4)
    compressed = build_batch([_commit("g2", "u", 2, 9, 15)], base_offset=5, codec="snappy")
    idempotent = build_batch([_commit("g2", "u", 2, 10, 16)], base_offset=6, codec="gzip", producer_id=3,
                             producer_epoch=0, base_sequence=0)
    data = good + bytes(bad_crc) + header + unknown_version + compressed + idempotent + good
    assert _assert_audit_same(data) == 3
    fresh = build_batch([_commit(f"never-seen-{uuid.uuid4()}", "t", 0, 1, 14)])
    with fast.forced(False):
        assert _audited(fresh)[2] == 0  # the reader decodes the key first; the next batch of it is taken
        assert _audited(fresh)[2] == 1


# --- damaged input -------------------------------------------------------------------------------


def _varint(value: int) -> bytes:
    raw = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while raw >= 0x80:
        out.append(raw & 0x7F | 0x80)
        raw >>= 7
    out.append(raw)
    return bytes(out)


def _raw_record(body: bytes) -> bytes:
    return _varint(len(body)) + body


GOOD = _raw_record(b"\0" + _varint(0) + _varint(0) + _varint(3) + b"key" + _varint(1) + b"v" + _varint(0))
DAMAGED_PAYLOADS = {
    "size varint too long": b"\xff\xff\xff\xff\xff\xff\x01" + GOOD[1:],
    "size past the batch": _varint(200) + GOOD[1:],
    "size below the minimum": _varint(3) + b"\0\0\0",
    "key past the record": _raw_record(b"\0" + _varint(0) + _varint(0) + _varint(50) + b"key" + _varint(1) + b"v"
                                       + _varint(0)),
    "negative header count": _raw_record(b"\0" + _varint(0) + _varint(0) + _varint(-1) + _varint(-1)
                                         + _varint(-2)),
    "bytes left in the record": _raw_record(GOOD[1:] + b"\0"),
    "bytes left after the last record": GOOD + b"\0\0",
    "timestamp varlong too long": _raw_record(b"\0" + b"\xff" * 10 + b"\x01" + _varint(0) + _varint(-1)
                                              + _varint(-1) + _varint(0)),
}


@pytest.mark.parametrize("payload", DAMAGED_PAYLOADS.values(), ids=DAMAGED_PAYLOADS.keys())
def test_damaged_records_are_reported_the_same(payload: bytes) -> None:
    data = v2_batch(GOOD + GOOD, 2, codec=0) + v2_batch(GOOD + payload, 2, codec=0, base_offset=2)
    assert_same(data, versions=("4.3",))
    reference, _ = _both(lambda: _records(data))
    assert reference[1], "the damaged batch is a problem"


def test_bad_crc_truncation_and_sequence_wrap_are_the_same() -> None:
    value = {"leaderEpoch": 0, "metadata": "", "commitTimestamp": 9}
    records = [SimpleRecord(encode_key(1, {"group": "g", "topic": "t", "partition": p}),
                            encode_value(1, 3, {"offset": p, **value}), 9) for p in range(4)]
    good = build_batch(records)
    wrapped = build_batch(records, base_offset=4, producer_id=1, producer_epoch=0, base_sequence=INT32_MAX - 1)
    bad_crc = bytearray(build_batch(records, base_offset=8))
    bad_crc[-3] ^= 0xFF
    data = good + wrapped + bytes(bad_crc) + good
    for cut in (0, 7, 40, len(good) // 2):
        assert_same(data[: len(data) - cut], versions=("4.3",))
    reference, _ = _both(lambda: _records(data))
    assert any("CRC mismatch" in reason for reason, _, _ in reference[1])


def test_timestamps_and_offsets_past_int64_wrap_the_same_everywhere() -> None:
    """A record whose base timestamp + delta (or base offset + delta) passes int64 wraps as Kafka's Java longs do,
    on both paths: the audit, which counted a later commit of the same group in C, raised OverflowError on the
    reference's unbounded timestamp."""
    value = {"leaderEpoch": 0, "metadata": "", "commitTimestamp": 9}

    def commit(partition: int, offset: int, ts: int, delta: int | None = None) -> SimpleRecord:
        return SimpleRecord(encode_key(1, {"group": "g", "topic": "t", "partition": partition}),
                            encode_value(1, 3, {"offset": offset, **value}), ts, offset_delta=delta)

    past = build_batch([commit(0, 0, 1 << 62), commit(1, 1, (1 << 63) + 5)], max_timestamp=1 << 62)
    offsets = build_batch([commit(0, 2, 50, 0), commit(1, 3, 60, 1)], base_offset=(1 << 63) - 1, max_timestamp=60)
    later = build_batch([commit(0, 7, 100)], base_offset=2)
    for data in (past + later, offsets + later, past + offsets + later):
        assert_same(data, versions=("4.3",))
    with fast.forced(False):
        [first, second, _] = [b for b, _ in _inputs(past + offsets + later)[0].batches]
    assert first.records[1].timestamp == -(1 << 63) + 5
    assert (second.records[1].offset, second.last_offset) == (-(1 << 63), -(1 << 63))


def test_walk_declines_a_base_sequence_past_int32() -> None:
    """A v2 header's base sequence is an int32: walk called with a wider one declines it (the reference judges),
    where `bseq + delta` was a signed overflow that handed out a sequence of -2^63."""
    with fast.forced(False):
        native = fast.module()
    second = _raw_record(b"\0" + _varint(0) + _varint(1) + _varint(3) + b"key" + _varint(1) + b"v" + _varint(0))
    for bseq in ((1 << 63) - 1, INT32_MAX + 1, -(1 << 31) - 1):
        assert native.walk(second, 0, len(second), 1, 0, 0, 0, False, bseq) is None
    data = GOOD + second
    got = native.walk(data, 0, len(data), 2, 0, 0, 0, False, INT32_MAX)
    assert [r.sequence for r in got] == [INT32_MAX, 0]


def test_the_compiled_audit_checks_the_slots_of_a_malformed_record() -> None:
    """A Record with an unset slot (here its key, deleted) is the reference observe's to meet: it raises the
    AttributeError the reference raises, where observe_batch read the NULL slot (a crash, hence the child)."""
    script = """
import sys
from groupctl.log import fast
from groupctl.log.audit import Auditor
from groupctl.log.decode import decoded_batches
from groupctl.log.segment import iter_batches
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.protocol.records import encode_key, encode_value
value = {"offset": 3, "leaderEpoch": 0, "metadata": "", "commitTimestamp": 9}
data = build_batch([SimpleRecord(encode_key(1, {"group": "g", "topic": "t", "partition": 0}),
                                 encode_value(1, 3, value), 9)])
for field in sys.argv[1:]:
    for pure in (True, False):
        with fast.forced(pure):
            [(batch, [rec])] = list(decoded_batches(iter_batches(data)))
            delattr(rec.record, field)
            try:
                Auditor().observe_batch(batch, [rec])
            except AttributeError as exc:
                print(field, pure, type(exc).__name__)
"""
    fields = ["key", "timestamp", "offset", "key_size", "value_size"]
    r = subprocess.run([sys.executable, "-c", script, *fields], capture_output=True, text=True, cwd=ROOT,
                       timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:-1] == [f"{f} {p} AttributeError" for f in fields for p in (True, False)]


# --- the command, both ways ----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["dump-log", "jsonl"])
def test_dump_decode_prints_the_same_with_and_without_the_compiled_loop(tmp_path: Path, fmt: str) -> None:
    segment = tmp_path / "__consumer_offsets-0" / "00000000000000000000.log"
    segment.parent.mkdir()
    segment.write_bytes(mixed_dump(2000, seed=3))

    def run(pure: bool) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if k != fast.PURE_ENV}
        env["PYTHONPATH"] = str(ROOT)
        if pure:
            env[fast.PURE_ENV] = "1"
        return subprocess.run([sys.executable, "-m", "groupctl", "dump", "decode", "--format", fmt, str(segment)],
                              capture_output=True, env=env, cwd=ROOT, timeout=120, check=False)

    reference, compiled = run(True), run(False)
    assert reference.returncode == compiled.returncode == 0
    assert compiled.stdout == reference.stdout
    assert len(compiled.stdout.splitlines()) > 2000


def test_version_says_which_loop_runs(cli) -> None:
    with fast.forced(True):
        assert cli("--version").out.splitlines()[1] == "record loop: pure Python (GROUPCTL_PURE_PYTHON is set)"
    with fast.forced(False):
        assert cli("--version").out.splitlines()[1] == "record loop: compiled"


def test_walk_declines_what_it_does_not_handle() -> None:
    """Headers and damaged varints go to the reference (None), which words the problem."""
    with fast.forced(False):
        native = fast.module()
    with_headers = _raw_record(b"\0" + _varint(0) + _varint(0) + _varint(-1) + _varint(-1) + _varint(1)
                               + _varint(1) + b"h" + _varint(-1))
    assert native.walk(with_headers, 0, len(with_headers), 1, 0, 0, 0, False, -1) is None
    too_long = DAMAGED_PAYLOADS["size varint too long"]
    assert native.walk(too_long, 0, len(too_long), 1, 0, 0, 0, False, -1) is None
    got = native.walk(GOOD, 0, len(GOOD), 1, 10, 5, 0, False, -1)
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in got] == [(10, 5, b"key", b"v", [])]
