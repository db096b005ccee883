"""dump-log text: Kafka's exact lines, and reading them back into the same records."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from groupctl.errors import DecodeError
from groupctl.log import fast
from groupctl.log.decode import DecodedRecord, FileDump, decode_record, open_inputs
from groupctl.log.dumplog import batch_line, parse_dump_log, record_line, write_dump_log
from groupctl.log.kafka_versions import NEWEST, SUPPORTED_VERSIONS, profile
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import mixed_dump, write_sample_dump
from groupctl.log.writer import SimpleRecord, build_batch, build_message_set
from groupctl.protocol.records import encode_key, encode_value, value_json
from tests.log.conftest import COMPILED_LOOP_ONLY
from tests.log.test_fast import _Utf8Stream

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

BATCH_V2 = re.compile(
    r"baseOffset: \d+ lastOffset: \d+ count: \d+ baseSequence: -?\d+ lastSequence: -?\d+ producerId: -?\d+ "
    r"producerEpoch: -?\d+ partitionLeaderEpoch: -?\d+ isTransactional: (true|false) isControl: (true|false) "
    r"deleteHorizonMs: OptionalLong\.empty position: \d+ (CreateTime|LogAppendTime): -?\d+ size: \d+ magic: 2 "
    r"compresscodec: none crc: \d+ isvalid: true$"
)
RECORD = re.compile(
    r"\| offset: \d+ (CreateTime|LogAppendTime): -?\d+ keySize: \d+ valueSize: -?\d+ sequence: -?\d+ "
    r"headerKeys: \[\] key: (\{\"type\":\"\d+\",\"data\":\{.*\}\} payload: (\{\"version\":\"\d\",\"data\":\{.*\}\}"
    r"|<DELETE>)|Unknown record type -?\d+ at offset \d+, skipping\.|Error at offset \d+, skipping\. .*)$"
)


def dump_text(paths, version: str = NEWEST) -> str:
    out = io.StringIO()
    for _ in write_dump_log(open_inputs(paths), out, kafka=profile(version)):
        pass
    return out.getvalue()


def single(records, **options) -> list[DecodedRecord]:
    data = build_batch(records, **options)
    return [decode_record(b, r) for b in iter_batches(data, strict=True) for r in b.records]


def test_offset_commit_lines_match_kafka_layout():
    """The illustrative OffsetCommit line of kafka-facts §3: key 21 bytes, value v3 24 bytes, batch 113."""
    key = encode_key(1, {"group": "my-group", "topic": "foo", "partition": 0})
    value = encode_value(1, 3, {"offset": 42, "leaderEpoch": 0, "metadata": "", "commitTimestamp": 1717171717171})
    data = build_batch([SimpleRecord(key, value, 1717171717171)], partition_leader_epoch=0)
    batch = next(iter(iter_batches(data, strict=True)))
    rec = decode_record(batch, batch.records[0])
    assert batch_line(batch) == (
        "baseOffset: 0 lastOffset: 0 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 "
        "partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty "
        f"position: 0 CreateTime: 1717171717171 size: 113 magic: 2 compresscodec: none crc: {batch.crc} isvalid: true"
    )
    assert record_line(rec) == (
        "| offset: 0 CreateTime: 1717171717171 keySize: 21 valueSize: 24 sequence: -1 headerKeys: [] "
        'key: {"type":"1","data":{"group":"my-group","topic":"foo","partition":0}} '
        'payload: {"version":"3","data":{"offset":42,"leaderEpoch":0,"metadata":"","commitTimestamp":1717171717171}}'
    )


def test_tombstone_unknown_type_and_error_lines():
    """The three DumpLogSegmentsTest cases: <DELETE>, an unknown type, and a value that does not parse."""
    group_key = encode_key(3, {"groupId": "group"})
    tombstone = single([SimpleRecord(group_key, None, 0)])[0]
    assert record_line(tombstone).endswith(' key: {"type":"3","data":{"groupId":"group"}} payload: <DELETE>')

    unknown_key = b"\x7f\xff" + group_key[2:]
    unknown = single([SimpleRecord(unknown_key, encode_value(3, 0, {"epoch": 10}), 0)])[0]
    assert record_line(unknown).endswith(" key: Unknown record type 32767 at offset 0, skipping.")

    # `new ConsumerGroupMemberMetadataValue()`: Kafka's default for a nullable string without an
    # explicit default is "", so every string here is empty, not null; classicMemberMetadata is left
    # at its default (the empty struct), which is not written.
    wrong = encode_value(5, 0, {
        "instanceId": "", "rackId": "", "clientId": "", "clientHost": "", "subscribedTopicNames": [],
        "subscribedTopicRegex": "", "rebalanceTimeoutMs": -1, "serverAssignor": "",
    })
    error = single([SimpleRecord(group_key, wrong, 0)])[0]
    assert record_line(error).endswith(
        " key: Error at offset 0, skipping. Could not read record with version 0 from value's buffer due to: "
        "Error reading byte array of 536870911 byte(s): only 1 byte(s) available."
    )


def test_control_and_transactional_lines(tmp_path: Path):
    segment = write_sample_dump(tmp_path)
    text = dump_text([segment])
    assert "| offset: 26 CreateTime: 1767225721000 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] " \
           "endTxnMarker: COMMIT coordinatorEpoch: 5\n" in text
    assert "endTxnMarker: ABORT coordinatorEpoch: 5\n" in text
    assert "isTransactional: true isControl: true" in text
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        assert f"compresscodec: {codec} " in text


@pytest.mark.parametrize(("version", "brace"), [("4.3", ""), ("4.2", "}"), ("3.8", "}")])
def test_legacy_lines(version: str, brace: str):
    """Java's tool (4.3) prints `crc: N`; the Scala one before it `crc: N}`."""
    key = encode_key(1, {"group": "g", "topic": "t", "partition": 3})
    value = encode_value(1, 1, {"offset": 9, "metadata": "m", "commitTimestamp": 5, "expireTimestamp": 99})
    data = build_message_set([SimpleRecord(key, value, 1000)], magic=1, base_offset=7)
    batch = next(iter(iter_batches(data, strict=True)))
    rec = decode_record(batch, batch.records[0])
    line = record_line(rec, profile(version))
    assert batch_line(batch).startswith("offset: 7 position: 0 CreateTime: 1000 size: ")
    assert batch_line(batch).endswith(f" magic: 1 compresscodec: none crc: {batch.crc} isvalid: true")
    assert line.startswith(
        f"| offset: 7 CreateTime: 1000 keySize: {len(key)} valueSize: {len(value)} isValid: true "
        f"crc: {batch.crc}{brace} key: "
    )
    assert line.endswith(
        'payload: {"version":"1","data":{"offset":9,"metadata":"m","commitTimestamp":5,"expireTimestamp":99}}'
    )
    assert record_line(rec) == record_line(rec, profile(NEWEST))


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_real_segments_print_in_kafka_layout(real_segments, version: str):
    """Brokers 1.0-3.9 wrote only types 1 and 2 at versions every covered release prints alike."""
    text = dump_text(real_segments, version)
    lines = text.splitlines()
    batches = [ln for ln in lines if ln.startswith("baseOffset: ")]
    records = [ln for ln in lines if ln.startswith("| ")]
    assert len(batches) == 1033
    assert len(records) == 1473
    for line in lines:
        if line.startswith("baseOffset: "):
            assert BATCH_V2.match(line), line
        elif line.startswith("| "):
            assert RECORD.match(line), line
            assert "Error at offset" not in line, line
        else:
            assert line.startswith(("Dumping ", "Log starting offset: ")), line
    assert sum(1 for ln in lines if ln.startswith("Dumping ")) == 22


def test_real_segment_known_lines(vectors_dir: Path):
    seg = vectors_dir / "real-broker-segments/RaviAzzuraPutra__LATIHAN-MICROSERVICE-NEW/kafka/data/__consumer_offsets-0"
    text = dump_text([seg / "00000000000000000000.log"])
    lines = text.splitlines()
    assert lines[1] == "Log starting offset: 0"
    assert lines[2] == (
        "baseOffset: 0 lastOffset: 0 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 "
        "partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty "
        "position: 0 CreateTime: 1764666007757 size: 421 magic: 2 compresscodec: none crc: 2018718821 isvalid: true"
    )
    # A kafka-go subscription Kafka cannot decode stays base64; the assignment decodes.
    assert '"subscription":"AAEAAAABAA1vcmRlcl9jcmVhdGVk/////w==","assignment":{"assignedPartitions":[]' in lines[3]


def _roundtrip(paths, tmp_path: Path) -> tuple[str, str]:
    first = dump_text(paths)
    text_file = tmp_path / "dump.txt"
    text_file.write_text(first)
    second = dump_text([text_file])
    return first, second


def test_text_reads_back_to_the_same_records(real_segments, tmp_path: Path):
    first, second = _roundtrip(real_segments, tmp_path)
    assert second == first


def test_sample_text_reads_back(tmp_path: Path):
    segment = write_sample_dump(tmp_path / "d")
    first, second = _roundtrip([segment], tmp_path)
    assert second == first
    sections = 0
    for dump in parse_dump_log(tmp_path / "dump.txt"):
        sections += 1
        records = [rec for _, recs in dump.batches for rec in recs]
    assert sections == 1
    originals = [decode_record(b, r) for b in iter_batches(segment.read_bytes(), strict=True) for r in b.records]
    assert len(records) == len(originals) == 31
    for parsed, original in zip(records, originals, strict=True):
        assert parsed.record.offset == original.record.offset
        assert parsed.key == original.key
        assert parsed.control == original.control
        assert parsed.record.key == original.record.key
        if original.record_type == 2 and original.value is not None:
            # Kafka's JSON drops the version prefix of embedded consumer-protocol bytes: the text
            # carries the same fields, re-encoded at the lowest version that holds them.
            assert value_json(2, parsed.value) == value_json(2, original.value)
        else:
            assert parsed.value == original.value
            assert parsed.record.value == original.record.value


def test_error_lines_read_back(tmp_path: Path):
    """A record Kafka could not decode keeps its `Error at offset` / `Unknown record type` text through a
    reading of the dump-log text (its key bytes are not in the text, yet the line had a key)."""
    records = [SimpleRecord(encode_key(3, {"groupId": "g"}), b"\x00\x00\x00", 1), SimpleRecord(b"\x7f\xff", b"", 2)]
    segment = tmp_path / "p" / "00000000000000000000.log"
    segment.parent.mkdir()
    segment.write_bytes(build_batch(records))
    first, second = _roundtrip([segment], tmp_path)
    assert second == first
    assert " key: Error at offset 0, skipping. Could not read record with version 0 from value's buffer" in first
    assert " key: Unknown record type 32767 at offset 1, skipping." in first


@pytest.mark.parametrize("version", ["4.2", "4.3"])
def test_legacy_text_of_either_tool_reads_back(tmp_path: Path, version: str):
    """Text printed with the Scala tool's `crc: N}` reads back as well as the Java tool's `crc: N`."""
    key = encode_key(1, {"group": "g", "topic": "t", "partition": 0})
    value = encode_value(1, 1, {"offset": 9, "metadata": "m", "commitTimestamp": 5, "expireTimestamp": 99})
    segment = tmp_path / "00000000000000000000.log"
    segment.write_bytes(build_message_set([SimpleRecord(key, value, 1000)], magic=1))
    text = dump_text([segment], version)
    text_file = tmp_path / "dump.txt"
    text_file.write_text(text)
    assert dump_text([text_file], version) == text
    for dump in parse_dump_log(text_file):
        [(_, [rec])] = list(dump.batches)
        assert rec.record.key == key and rec.record.value == value and not dump.problems


def test_trailing_bytes_line(tmp_path: Path):
    segment = write_sample_dump(tmp_path)
    with segment.open("ab") as fh:
        fh.write(b"\x00" * 7)
    text = dump_text([segment])
    assert text.endswith("Found 7 invalid bytes at the end of 00000000000000000000.log\n")
    text_file = tmp_path / "dump.txt"
    text_file.write_text(text)
    assert dump_text([text_file]) == text


def test_pre_3_8_text_is_refused_clearly(tmp_path: Path):
    text = tmp_path / "old.txt"
    text.write_text(
        "Dumping x/00000000000000000000.log\nStarting offset: 0\n"
        "baseOffset: 0 lastOffset: 0 count: 1 baseSequence: -1 lastSequence: -1 producerId: -1 producerEpoch: -1 "
        "partitionLeaderEpoch: 0 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty "
        "position: 0 CreateTime: 1 size: 113 magic: 2 compresscodec: none crc: 1 isvalid: true\n"
        "| offset: 0 CreateTime: 1 keySize: 21 valueSize: 24 sequence: -1 headerKeys: [] "
        "key: offset_commit::group=g,partition=t-0 payload: offset=1\n"
    )
    reasons = []
    for dump in parse_dump_log(text):
        list(dump.batches)
        reasons += [p.reason for p in dump.problems]
    assert any("before Kafka 3.8" in r for r in reasons)
    with pytest.raises(DecodeError):
        for d in parse_dump_log(text, strict=True):
            list(d.batches)


def test_filter_prints_only_batches_with_kept_records(tmp_path: Path):
    from groupctl.log.decode import make_filter

    segment = write_sample_dump(tmp_path)
    out = io.StringIO()
    keep = make_filter(groups=["billing-etl"])
    dumps = list(write_dump_log(open_inputs([segment]), out, keep))
    assert isinstance(dumps[0], FileDump)
    lines = out.getvalue().splitlines()
    assert sum(1 for ln in lines if ln.startswith("baseOffset")) == 2
    assert all('"billing-etl"' in ln for ln in lines if ln.startswith("| "))


def test_mutated_text_only_ever_gives_decode_errors(tmp_path: Path):
    """Damaged dump-log text: each bad line is a DecodeError problem (or raised with --strict), never a crash."""
    import random

    base = dump_text([write_sample_dump(tmp_path / "d")])
    rng = random.Random(11)
    alphabet = '0123456789-{}[]":,abcxyz \\/nul\n'
    target = tmp_path / "mutated.txt"
    problems = 0
    for _ in range(300):
        text = list(base)
        for _ in range(rng.randint(1, 8)):
            p = rng.randrange(len(text))
            op = rng.random()
            if op < 0.5:
                text[p] = rng.choice(alphabet)
            elif op < 0.75:
                del text[p]
            else:
                text.insert(p, rng.choice(alphabet))
        target.write_text("".join(text))
        for strict in (False, True):
            try:
                for dump in parse_dump_log(target, strict=strict):
                    for _ in dump.batches:
                        pass
                    problems += len(dump.problems)
            except DecodeError:
                problems += 1
    assert problems > 0


def _sample_text(tmp_path: Path) -> list[bytes]:
    return dump_text([write_sample_dump(tmp_path / "d")]).encode().split(b"\n")


def _read_back(path: Path) -> tuple[int, list[DecodeError]]:
    records = 0
    problems: list[DecodeError] = []
    for dump in parse_dump_log(path):
        for _batch, recs in dump.batches:
            records += len(recs)
        problems += dump.problems
    return records, problems


# Line 6 is the record at offset 1 (after the header, the start offset, batch 0 and its record, batch 1).
BAD_LINES = {
    "int beyond int64": (b'"offset":100', b'"offset":99999999999999999999999', "value 99999999999999999999999 is "
                         "out of range for int64"),
    "epoch beyond int32": (b'"leaderEpoch":0', b'"leaderEpoch":2147483648', "'leaderEpoch' value 2147483648 is out "
                           "of range for int32"),
    "5000-digit offset": (b"| offset: 1 ", b"| offset: " + b"9" * 5000 + b" ", "offset 9999999999999999999999"),
    "5000-digit JSON int": (b'"partition":0', b'"partition":' + b"9" * 5000, "unreadable key or payload"),
    "JSON nested 10,000 deep": (b'"metadata":""', b'"metadata":' + b"[" * 10_000 + b"]" * 10_000,
                                "nested too deeply"),
    "invalid UTF-8": (b"orders-app", b"orders-\xff\xfe", "the line is not valid UTF-8"),
    "lone surrogate escape": (b'"metadata":""', b'"metadata":"\\ud800"', "surrogates not allowed"),
}


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_a_bad_line_is_damage_at_its_number_and_the_rest_is_read(tmp_path: Path, name: str):
    old, new, reason = BAD_LINES[name]
    lines = _sample_text(tmp_path)
    assert old in lines[5]
    lines[5] = lines[5].replace(old, new, 1)
    text = tmp_path / "bad.txt"
    text.write_bytes(b"\n".join(lines))
    records, problems = _read_back(text)
    assert records == 30  # all but the bad one
    assert [p.path for p in problems] == [f"{text}:6"]
    assert reason in problems[0].reason


def test_a_bad_batch_line_skips_its_records_only(tmp_path: Path):
    lines = _sample_text(tmp_path)
    assert lines[4].startswith(b"baseOffset: 1 ")
    lines[4] = lines[4].replace(b"producerId: -1", b"producerId: 99999999999999999999999")
    text = tmp_path / "bad.txt"
    text.write_bytes(b"\n".join(lines))
    records, problems = _read_back(text)
    assert records == 31 - 3
    assert [p.path for p in problems] == [f"{text}:5"]
    assert problems[0].reason.startswith("batch line (its records skipped): producerId 99999999999999999999999")


def test_an_overlong_line_is_skipped_in_bounded_pieces(tmp_path: Path):
    from groupctl.log.dumplog import MAX_LINE

    lines = _sample_text(tmp_path)
    lines.insert(5, b"| " + b"x" * (MAX_LINE + 10))
    text = tmp_path / "long.txt"
    text.write_bytes(b"\n".join(lines))
    records, problems = _read_back(text)
    assert records == 31
    assert [(p.path, p.reason) for p in problems] == [(f"{text}:6", f"a line longer than {MAX_LINE} bytes")]


def test_an_object_opening_as_text_is_read_like_a_file(tmp_path: Path):
    """Spark hands fetched bytes over as an object with open(encoding=, errors=): bad lines count the same."""
    lines = _sample_text(tmp_path)
    lines[5] = lines[5].replace(b"orders-app", b"orders-\xff", 1)
    data = b"\n".join(lines)

    class Fetched:
        name = "s3://bucket/dump.txt"

        def open(self, encoding: str = "utf-8", errors: str = "strict") -> io.TextIOWrapper:
            return io.TextIOWrapper(io.BytesIO(data), encoding=encoding, errors=errors)

        def __str__(self) -> str:
            return self.name

    records = 0
    problems: list[DecodeError] = []
    for dump in parse_dump_log(Fetched()):
        records += sum(len(recs) for _, recs in dump.batches)
        problems += dump.problems
    assert records == 30
    assert [p.path for p in problems] == ["s3://bucket/dump.txt:6"]
    assert "not valid UTF-8" in problems[0].reason


@COMPILED_LOOP_ONLY
@pytest.mark.parametrize("stream", [io.StringIO, _Utf8Stream], ids=["text", "utf8-bytes"])
def test_every_batch_is_printed_in_c(tmp_path: Path, compiled_calls, stream):
    """`write_dump_log`, as `dump decode --format dump-log` prints: each batch's lines come from the compiled
    printer (`dumplog_lines`), as text on a text stream and as bytes below a UTF-8 one (`sink.byte_sink`), and
    read as the reference's."""
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(mixed_dump(300))
    with fast.forced(True):
        reference = dump_text([path])
        batches = sum(1 for _ in iter_batches(path.read_bytes()))
    calls = compiled_calls(fast.built(), "dumplog_lines")
    out = stream()
    for _ in write_dump_log(open_inputs([path]), out, kafka=profile(NEWEST)):
        pass
    assert out.getvalue() == reference
    assert len(calls["dumplog_lines"]) == batches, "not every batch was printed in C"
    assert {type(call.answer) for call in calls["dumplog_lines"]} == {str if stream is io.StringIO else bytes}
