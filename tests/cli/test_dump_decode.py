"""`groupctl dump decode` through the real entry point: formats, filters, damaged input, exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from groupctl.log.kafka_versions import NEWEST
from groupctl.log.segment import iter_batches
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.protocol.records import encode_key, encode_value

from ..conftest import KAFKA_40_SEGMENTS, KAFKA_41_SHARE


def test_table_default(cli, sample):
    r = cli("dump", "decode", str(sample))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["OFFSET", "TIMESTAMP", "TYPE", "GROUP", "KEY", "VALUE"]
    assert len(lines) == 32
    assert lines[1].split()[:4] == ["0", "2026-01-01T00:00:00.000Z", "GROUP_METADATA", "orders-app"]
    assert "<DELETE>" in lines[-1]
    assert r.err == ""


def test_wide_adds_file_position_version(cli, sample):
    r = cli("dump", "decode", str(sample), "-o", "wide")
    assert r.code == 0
    assert r.out.splitlines()[0].split() == [
        "FILE", "POSITION", "OFFSET", "TIMESTAMP", "TYPE", "VERSION", "GROUP", "KEY", "VALUE"
    ]


def test_jsonl(cli, sample):
    r = cli("dump", "decode", str(sample), "--format", "jsonl")
    assert r.code == 0, r.err
    objs = [json.loads(line) for line in r.out.splitlines()]
    assert len(objs) == 31
    first = objs[0]
    assert first["offset"] == 0 and first["timestamp"] == 1767225600000
    assert first["key"] == {"type": 2, "data": {"group": "orders-app"}}
    assert first["value"]["version"] == 3
    member = first["value"]["data"]["members"][0]
    assert member["groupInstanceId"] == "orders-0"
    assert member["assignment"]["assignedPartitions"] == [{"topic": "orders", "partitions": [0]}]
    assert first["baseOffset"] == 0 and first["compressionType"] == "none" and first["crcValid"] is True
    marker = objs[26]
    assert marker["control"] == {"type": "COMMIT", "coordinatorEpoch": 5}
    assert marker["key"] is None and marker["value"] is None and marker["isControl"] is True
    assert objs[29]["key"]["type"] == 1 and objs[29]["value"] is None
    assert {o["compressionType"] for o in objs} == {"none", "gzip", "snappy", "lz4", "zstd"}


def test_json_envelope_and_csv(cli, sample):
    r = cli("dump", "decode", str(sample), "-o", "json")
    doc = json.loads(r.out)
    assert doc["apiVersion"] == "groupctl/v1" and doc["kind"] == "RecordList"
    assert len(doc["items"]) == 31
    r = cli("dump", "decode", str(sample), "-o", "csv", "--record-type", "3")
    rows = r.out.splitlines()
    assert rows[0] == "file,position,offset,timestamp,type,version,group,key,value,crcValid"
    assert len(rows) == 2 and ",CONSUMER_GROUP_METADATA,0,payments-app," in rows[1]


def test_dump_log_format(cli, sample):
    r = cli("dump", "decode", str(sample), "--format", "dump-log")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0] == f"Dumping {sample / '__consumer_offsets-0' / '00000000000000000000.log'}"
    assert lines[1] == "Log starting offset: 0"
    assert sum(1 for ln in lines if ln.startswith("| ")) == 31


def test_filters(cli, sample):
    def offsets(*args):
        r = cli("dump", "decode", str(sample), "-f", "jsonl", *args)
        assert r.code == 0, r.err
        return [json.loads(line)["offset"] for line in r.out.splitlines()]

    assert offsets("--group", "billing-etl") == [25, 27]
    assert offsets("--record-type", "OFFSET_COMMIT", "--group", "orders-app") == [1, 2, 3, 4, 5, 6]
    assert offsets("--record-type", "consumer_group_metadata,16") == [10, 11]
    assert offsets("--from-offset", "28", "--to-offset", "29") == [28, 29]
    assert offsets("-g", "orders-app", "-g", "old-job", "-t", "2") == [0, 30]


def test_usage_errors(cli, sample, tmp_path):
    r = cli("dump", "decode", str(sample), "-f", "jsonl", "-o", "json")
    assert r.code == 2 and "applies to --format table" in r.err
    r = cli("dump", "decode", str(sample), "-t", "NOPE")
    assert r.code == 2 and "unknown record type 'NOPE'" in r.err
    r = cli("dump", "decode", str(tmp_path / "missing"))
    assert r.code == 2 and "does not exist" in r.err
    empty = tmp_path / "empty-dir"
    empty.mkdir()
    r = cli("dump", "decode", str(empty))
    assert r.code == 2 and "holds no .log segment files" in r.err


def _corrupt_middle_batch(sample: Path) -> tuple[Path, int]:
    segment = sample / "__consumer_offsets-0" / "00000000000000000000.log"
    data = bytearray(segment.read_bytes())
    batches = list(iter_batches(bytes(data)))
    victim = batches[3]
    data[victim.position + victim.size - 2] ^= 0xFF
    segment.write_bytes(bytes(data))
    return segment, victim.position


def test_damaged_batch_is_reported_and_skipped(cli, sample):
    segment, position = _corrupt_middle_batch(sample)
    r = cli("dump", "decode", str(sample), "-f", "jsonl")
    assert r.code == 3
    assert "CRC mismatch: stored" in r.err
    assert f"{segment} at byte {position}" in r.err
    assert "Traceback" not in r.err
    offsets = [json.loads(line)["offset"] for line in r.out.splitlines()]
    assert offsets[-1] == 30  # everything after the damaged batch is still there


def test_strict_stops_at_first_damage(cli, sample):
    _corrupt_middle_batch(sample)
    r = cli("dump", "decode", str(sample), "-f", "jsonl", "--strict")
    assert r.code == 3
    assert "CRC mismatch" in r.err
    offsets = [json.loads(line)["offset"] for line in r.out.splitlines()]
    assert offsets == list(range(7))


def test_records_of_a_batch_whose_crc_failed_are_marked_in_the_table(cli, sample):
    segment = sample / "__consumer_offsets-0" / "00000000000000000000.log"
    data = bytearray(segment.read_bytes())
    victim = list(iter_batches(bytes(data)))[3]
    data[victim.position + 42] ^= 0x01  # the batch's max timestamp: the CRC fails, the records still read
    segment.write_bytes(bytes(data))
    jsonl = [json.loads(line) for line in cli("dump", "decode", str(sample), "-f", "jsonl").out.splitlines()]
    damaged = {str(o["offset"]) for o in jsonl if not o["crcValid"]}
    assert damaged and len(damaged) < len(jsonl)
    r = cli("dump", "decode", str(sample))
    assert r.code == 3 and "CRC mismatch" in r.err
    lines = r.out.splitlines()
    rows = [line for line in lines[1:] if line and line.split()[0].isdigit()]
    marked = {row.split()[0] for row in rows if "CRC✗ " in row}
    assert marked == damaged
    noun = "record" if len(damaged) == 1 else "records"
    assert lines[-1].startswith(f"CRC✗: {len(damaged)} {noun} from a batch whose CRC check failed")
    csv_rows = cli("dump", "decode", str(sample), "-o", "csv").out.splitlines()
    assert csv_rows[0].endswith(",crcValid")
    assert {row.split(",")[2] for row in csv_rows[1:] if row.endswith(",false")} == damaged
    assert "CRC✗" not in cli("dump", "decode", str(sample), "-o", "csv").out
    clean = cli("dump", "decode", str(sample), "--to-offset", str(min(map(int, damaged)) - 1))
    assert "CRC✗" not in clean.out


def test_random_bytes_exit_3_without_trace(cli, tmp_path):
    junk = tmp_path / "00000000000000000000.log"
    junk.write_bytes(os.urandom(4096))
    r = cli("dump", "decode", str(junk))
    assert r.code == 3
    assert "Traceback" not in r.err and "internal error" not in r.err


def test_dump_log_text_input(cli, sample, tmp_path):
    text = cli("dump", "decode", str(sample), "-f", "dump-log").out
    text_file = tmp_path / "dump.txt"
    text_file.write_text(text)
    again = cli("dump", "decode", str(text_file), "-f", "dump-log")
    assert again.code == 0, again.err
    assert again.out == text
    from_text = cli("dump", "decode", str(text_file), "-f", "jsonl", "-t", "1")
    from_segment = cli("dump", "decode", str(sample), "-f", "jsonl", "-t", "1")

    def comparable(out):
        return [{k: v for k, v in json.loads(line).items() if k != "file"} for line in out.splitlines()]

    assert comparable(from_text.out) == comparable(from_segment.out)


def test_undecodable_value_gives_exit_3(cli, tmp_path):
    from groupctl.log.writer import SegmentWriter, SimpleRecord
    from groupctl.protocol.records import encode_key

    with SegmentWriter(tmp_path / "p-0") as w:
        w.append([SimpleRecord(encode_key(3, {"groupId": "g"}), b"\x00\x00\x01", 1)])
        w.append([SimpleRecord(b"\x7f\xff\x00\x01g", b"\x00\x00", 2)])
    r = cli("dump", "decode", str(tmp_path / "p-0"), "-f", "dump-log")
    assert r.code == 3
    assert "Error at offset 0, skipping. Could not read record with version 0 from value's buffer" in r.out
    assert "key: Unknown record type 32767 at offset 1, skipping." in r.out
    assert "1 record whose key or value could not be decoded" in r.err


@pytest.mark.parametrize(
    "segment", KAFKA_40_SEGMENTS or [None], ids=lambda p: p.parent.name if p else "vectors-absent"
)
def test_kafka_4_0_output_is_what_kafka_4_0_0_printed(cli, segment, monkeypatch):
    """Every segment a real 4.0.0 broker wrote: byte for byte what 4.0.0's kafka-dump-log.sh printed
    (run from the vectors folder with the same relative path, so the `Dumping` line matches too)."""
    if segment is None:
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    expected = segment.with_name(segment.name + ".offsets-decoder.txt").read_text()
    monkeypatch.chdir(segment.parent.parent)
    relative = f"{segment.parent.name}/{segment.name}"
    r = cli("dump", "decode", "--format", "dump-log", "--kafka-version", "4.0", relative)
    assert r.code == 0, r.err
    assert r.out == expected
    assert expected.startswith(f"Dumping {relative}\n")
    # Kafka's own text reads back into the same records (a null classicMemberMetadata stays null).
    again = cli("dump", "decode", "-f", "dump-log", "--kafka-version", "4.0", relative + ".offsets-decoder.txt")
    assert again.code == 0, again.err
    assert again.out == expected


@pytest.mark.parametrize(("version", "printed"), [("4.1", ".offsets-decoder.txt"),
                                                  ("4.0", ".kafka-4.0.0-offsets-decoder.txt")])
def test_a_4_1_share_group_as_kafka_4_1_0_and_4_0_0_printed_it(cli, monkeypatch, version, printed):
    """The share group of a real 4.1.0 broker (types 10-15), byte for byte as each release's tool printed it:
    4.0.0 reads types 11 and 15 with its own layouts (a metadataHash read as tagged fields ends in
    `due to: -1869291333.`; initializingTopics shifts type 15's lists, or ends in `due to: null.`)."""
    if not KAFKA_41_SHARE.exists():
        pytest.skip("the Kafka 4.1 broker vectors are not present at ../shared/kafka-4.1-broker-vectors")
    expected = KAFKA_41_SHARE.with_name(KAFKA_41_SHARE.name + printed).read_text()
    monkeypatch.chdir(KAFKA_41_SHARE.parent.parent)
    r = cli("dump", "decode", "--format", "dump-log", "--kafka-version", version,
            f"{KAFKA_41_SHARE.parent.name}/{KAFKA_41_SHARE.name}")
    assert r.code == 0, r.err
    assert r.out == expected


def _topic_id_commit(tmp_path):
    """A partition holding one OffsetCommitValue v4 with a topicId (4.1+ writes those)."""
    import uuid

    with SegmentWriter(tmp_path / "p-0") as w:
        w.append([SimpleRecord(encode_key(1, {"group": "g", "topic": "t", "partition": 0}), encode_value(1, 4, {
            "offset": 5, "leaderEpoch": 0, "metadata": "", "commitTimestamp": 7,
            "topicId": uuid.UUID(bytes=bytes(range(16)))}), 7)])
    return tmp_path / "p-0"


def test_kafka_version_picks_the_release(cli, tmp_path):
    part = _topic_id_commit(tmp_path)
    old = cli("dump", "decode", str(part), "-f", "dump-log", "--kafka-version", "4.0")
    new = cli("dump", "decode", str(part), "-f", "dump-log", "--kafka-version", "4.1")
    default = cli("dump", "decode", str(part), "-f", "dump-log")
    assert old.code == new.code == default.code == 0
    assert old.out.endswith('"data":{"offset":5,"leaderEpoch":0,"metadata":"","commitTimestamp":7}}\n')
    assert new.out.endswith('"commitTimestamp":7,"topicId":"AAECAwQFBgcICQoLDA0ODw"}}\n')
    assert default.out == cli("dump", "decode", str(part), "-f", "dump-log", "--kafka-version", NEWEST).out
    jsonl = cli("dump", "decode", str(part), "-f", "jsonl")
    assert json.loads(jsonl.out)["value"]["data"]["topicId"] == "AAECAwQFBgcICQoLDA0ODw"


def test_kafka_version_usage_errors(cli, sample):
    r = cli("dump", "decode", str(sample), "-f", "dump-log", "--kafka-version", "3.7")
    assert r.code == 2 and "3.8, 3.9, 4.0, 4.1, 4.2, 4.3" in r.err and r.out == ""
    r = cli("dump", "decode", str(sample), "-f", "dump-log", "--kafka-version", "4.1.0")
    assert r.code == 2 and "give the release line as X.Y (4.1)" in r.err
    for fmt in ("jsonl", "table"):
        r = cli("dump", "decode", str(sample), "-f", fmt, "--kafka-version", "4.0")
        assert r.code == 2 and "--kafka-version applies to --format dump-log only" in r.err


def test_a_filter_that_matches_nothing_says_so_and_exits_0(cli, sample):
    for fmt in ("table", "dump-log", "jsonl"):
        r = cli("dump", "decode", str(sample), "--group", "nosuch", "-f", fmt)
        assert r.code == 0, (fmt, r.err)
        assert r.err == ("groupctl: note: no record matched --group nosuch; `groupctl dump groups PATH` lists the "
                         "groups in the dump\n"), fmt
    r = cli("dump", "decode", str(sample), "--group", "nosuch", "-o", "json")
    assert r.code == 0 and json.loads(r.out)["items"] == [] and "no record matched --group nosuch" in r.err
    r = cli("dump", "decode", str(sample), "-t", "2", "--from-offset", "1000")
    assert r.code == 0 and r.err == "groupctl: note: no record matched --record-type 2 --from-offset 1000\n"


def test_a_named_group_without_records_is_named_beside_those_with(cli, sample):
    r = cli("dump", "decode", str(sample), "-g", "billing-etl", "-g", "nosuch", "-f", "jsonl")
    assert r.code == 0 and len(r.out.splitlines()) == 2
    assert r.err == "groupctl: note: no record of group 'nosuch' matched\n"
    assert cli("dump", "decode", str(sample), "-g", "billing-etl").err == ""


def test_share_group_state_partition_and_the_decoder_option(cli, tmp_path):
    """A `__share_group_state-N` directory is read as that topic; a copy elsewhere needs the option."""
    import uuid

    from groupctl.protocol import share_state

    key = share_state.encode_key(0, {"groupId": "sg", "topicId": uuid.UUID(int=1), "partition": 2})
    value = share_state.encode_value(0, 0, {"snapshotEpoch": 0, "stateEpoch": 1, "leaderEpoch": 0, "startOffset": 4,
                                            "createTimestamp": 5, "writeTimestamp": 6, "stateBatches": []})
    w = SegmentWriter(tmp_path / "__share_group_state-3")
    w.append([SimpleRecord(key, value, 1000)])
    w.close()
    r = cli("dump", "decode", str(w.path.parent), "--format", "dump-log")
    assert r.code == 0, r.err
    assert r.out.splitlines()[-1].endswith(
        ' key: {"type":"0","data":{"groupId":"sg","topicId":"AAAAAAAAAAAAAAAAAAAAAQ","partition":2}} payload: '
        '{"version":"0","data":{"snapshotEpoch":0,"stateEpoch":1,"leaderEpoch":0,"startOffset":4,'
        '"createTimestamp":5,"writeTimestamp":6,"stateBatches":[]}}')
    table = cli("dump", "decode", str(w.path), "--group", "sg")
    assert table.code == 0 and "SHARE_SNAPSHOT" in table.out
    moved = tmp_path / "00000000000000000000.log"
    moved.write_bytes(w.path.read_bytes())
    # Read as __consumer_offsets, the same bytes make a plausible offset commit: why the content cannot tell.
    plain = cli("dump", "decode", str(moved), "--format", "dump-log")
    assert plain.out.splitlines()[-1].endswith(
        ' key: {"type":"0","data":{"group":"sg","topic":"","partition":0}} payload: '
        '{"version":"0","data":{"offset":1,"metadata":"","commitTimestamp":0}}')
    told = cli("dump", "decode", str(moved), "--format", "dump-log", "--share-group-state-decoder")
    assert told.code == 0 and told.out == r.out.replace(str(w.path), str(moved))
    old = cli("dump", "decode", str(w.path), "--format", "dump-log", "--kafka-version", "3.9")
    assert old.code == 2 and "no --share-group-state-decoder" in old.err
