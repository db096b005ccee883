"""The decoding pipeline: inputs expanded and detected, records decoded as Kafka's parser does."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from groupctl.errors import UsageError
from groupctl.log import fast
from groupctl.log.decode import decode_record, decoded_batches, expand_path, make_filter, open_inputs, open_segment
from groupctl.log.dumplog import record_line
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import mixed_dump, write_sample_dump
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.protocol.record_schemas import EARLY_ACCESS_VALUE_SCHEMAS
from groupctl.protocol.records import encode_key
from tests.log.conftest import COMPILED_LOOP_ONLY

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop


def _decode_one(key: bytes | None, value: bytes | None):
    batch = next(iter(iter_batches(build_batch([SimpleRecord(key, value, 5)]), strict=True)))
    return decode_record(batch, batch.records[0])


def test_early_access_record_is_reported_not_misdecoded():
    # A Kafka 3.7 ConsumerGroupCurrentMemberAssignmentValue (type 8, early-access layout).
    schema = EARLY_ACCESS_VALUE_SCHEMAS[8][0]
    value = struct.pack(">h", 0) + schema.encoder(0)({
        "memberEpoch": 5, "previousMemberEpoch": 4, "targetMemberEpoch": 5, "assignedPartitions": [],
        "partitionsPendingRevocation": [], "partitionsPendingAssignment": [], "error": 0,
        "metadataVersion": 0, "metadataBytes": b"",
    })
    rec = _decode_one(encode_key(8, {"groupId": "g", "memberId": "m"}), value)
    assert rec.value is None
    assert "early-access KIP-848 layout" in rec.error
    assert rec.kafka_text is not None
    # The dump-log line repeats what Kafka 3.8+ itself prints for such a record.
    assert record_line(rec).endswith(" key: " + rec.kafka_text)


def test_missing_key_is_an_error_not_a_crash():
    rec = _decode_one(None, b"\x00\x00")
    assert rec.error.endswith("(message had a missing key)")
    assert " key: " not in record_line(rec)


def test_control_records_are_markers():
    from groupctl.log.writer import build_control_batch

    data = build_control_batch("ABORT", coordinator_epoch=9, producer_id=3, producer_epoch=1, timestamp=7)
    batch = next(iter(iter_batches(data, strict=True)))
    rec = decode_record(batch, batch.records[0])
    assert rec.control == ("ABORT", 9) and rec.key is None and rec.error is None


def test_expand_path_kinds(tmp_path: Path):
    segment = write_sample_dump(tmp_path / "logs")
    assert expand_path(segment) == [segment]
    assert expand_path(segment.parent) == [segment]
    assert expand_path(tmp_path / "logs") == [segment]
    with pytest.raises(UsageError):
        expand_path(tmp_path / "nope")


def test_open_inputs_detects_text(tmp_path: Path):
    import io

    from groupctl.log.dumplog import write_dump_log

    segment = write_sample_dump(tmp_path / "logs")
    out = io.StringIO()
    for _ in write_dump_log(open_inputs([segment]), out):
        pass
    text = tmp_path / "dump.txt"
    text.write_text(out.getvalue())
    kinds = []
    for dump in open_inputs([segment, text]):
        kinds.append(dump.kind)
        assert sum(len(recs) for _, recs in dump.batches) == 31
    assert kinds == ["segment", "dump-log"]


def test_make_filter():
    assert make_filter() is None
    keep = make_filter(groups=["g"], record_types=[1], from_offset=2, to_offset=4)
    key = encode_key(1, {"group": "g", "topic": "t", "partition": 0})
    records = [decode_record(b, r) for b in iter_batches(build_batch(
        [SimpleRecord(key, None, 0)] * 6), strict=True) for r in b.records]
    assert [r.record.offset for r in records if keep(r)] == [2, 3, 4]


def test_mixed_dump_decodes_cleanly():
    data = mixed_dump(3000, seed=3)
    records = [decode_record(b, r) for b in iter_batches(data, strict=True) for r in b.records]
    assert len(records) >= 3000
    assert all(r.error is None for r in records)
    types = {r.record_type for r in records}
    assert {1, 2, 3, 5, 6, 7, 8} <= types
    codecs = {b.compression for b in iter_batches(data, strict=True)}
    assert codecs == {"none", "gzip", "snappy", "lz4", "zstd"}


# --- the dispatch into the compiled loop ---------------------------------------------------------


@COMPILED_LOOP_ONLY
def test_a_segments_records_are_decoded_in_c(tmp_path: Path, compiled_calls):
    """Read as every dump command reads a file (`open_segment`): the reader's runs of plain batches come with
    their records decoded in C (`next_batches` asked for `decoded`), and each other batch (the compressed ones
    here) is decoded by `decode`; every batch is decoded in C, and the records are the reference's."""
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(mixed_dump(300))
    with fast.forced(True):
        reference = list(open_segment(path).batches)
    calls = compiled_calls(fast.built(), "next_batches", "decode")
    got = list(open_segment(path).batches)
    assert got == reference
    assert repr(got) == repr(reference)
    runs = [call.answer[0] for call in calls["next_batches"] if call.args[3] and call.answer is not None]
    assert runs, "no run of plain batches was decoded in C"
    assert all(type(item) is tuple for run in runs for item in run)
    assert calls["decode"], "no batch outside the runs was decoded in C"
    assert all(call.args[0].compression != "none" for call in calls["decode"])
    assert sum(map(len, runs)) + len(calls["decode"]) == len(reference)


@COMPILED_LOOP_ONLY
def test_batches_of_any_other_reader_are_decoded_in_c(compiled_calls):
    """`decoded_batches` of batches that are not a segment reader's (a list here) decodes each one with
    `decode`, as the reference does."""
    with fast.forced(True):
        batches = list(iter_batches(mixed_dump(300)))
        reference = list(decoded_batches(batches))
    calls = compiled_calls(fast.built(), "decode")
    got = list(decoded_batches(batches))
    assert got == reference
    assert repr(got) == repr(reference)
    assert [call.args[0] for call in calls["decode"]] == batches
