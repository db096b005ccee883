"""`__share_group_state` segments written with groupctl's own segment writer (no real one exists in
../shared), decoded and printed as Kafka's `kafka-dump-log.sh --deep-iteration --share-group-state-decoder`
lays them out by its source (DumpLogSegments' CoordinatorRecordMessageParser and its 4.3 test), read back
from that text, and kept apart from `__consumer_offsets` records of the same type numbers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from groupctl.errors import UsageError
from groupctl.log.decode import open_inputs
from groupctl.log.dumplog import write_dump_log
from groupctl.log.jsonl import record_jsonable, table_row, write_jsonl
from groupctl.log.kafka_versions import profile
from groupctl.log.share_state import OFFSETS_TOPIC, SHARE_STATE_TOPIC, topic_of
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.protocol import share_state
from groupctl.protocol.primitives import uuid_from_kafka

pytestmark = pytest.mark.usefixtures("record_loop")  # the compiled loop must leave these records alone

TOPIC_ID = uuid_from_kafka("Uj5wn_FqTXirEASvVZRY1w")
KEY = {"groupId": "gs1", "topicId": TOPIC_ID, "partition": 0}
KEY_TEXT = '"data":{"groupId":"gs1","topicId":"Uj5wn_FqTXirEASvVZRY1w","partition":0}}'
SNAPSHOT = {"snapshotEpoch": 0, "stateEpoch": 1, "leaderEpoch": 2, "startOffset": 5, "createTimestamp": 100,
            "writeTimestamp": 101, "stateBatches": [{"firstOffset": 5, "lastOffset": 9, "deliveryState": 2,
                                                     "deliveryCount": 1}]}
UPDATE = {"snapshotEpoch": 0, "leaderEpoch": 2, "startOffset": -1, "deliveryCompleteCount": 3,
          "stateBatches": [{"firstOffset": 10, "lastOffset": 12, "deliveryState": 0, "deliveryCount": 2}]}


def write_segment(directory: Path) -> Path:
    w = SegmentWriter(directory)
    w.append([
        SimpleRecord(share_state.encode_key(0, KEY), share_state.encode_value(0, 0, SNAPSHOT), 1000),
        SimpleRecord(share_state.encode_key(1, KEY), share_state.encode_value(1, 0, UPDATE), 1001),
    ])
    w.append([SimpleRecord(share_state.encode_key(0, KEY), None, 1002), SimpleRecord(b"\x7f\xff", b"", 1003)])
    w.append([SimpleRecord(share_state.encode_key(1, KEY), share_state.encode_value(0, 0, SNAPSHOT), 1004)])
    w.close()
    return w.path


@pytest.fixture
def segment(tmp_path: Path) -> Path:
    return write_segment(tmp_path / "__share_group_state-7")


def dump_log(paths, version: str = "4.3", topic: str | None = None) -> str:
    out = io.StringIO()
    for _ in write_dump_log(open_inputs(paths, topic=topic), out, kafka=profile(version)):
        pass
    return out.getvalue()


def keys_and_payloads(text: str) -> list[str]:
    return [line.split(" headerKeys: [] key: ", 1)[1] for line in text.splitlines() if line.startswith("| ")]


def test_the_topic_is_told_by_the_partition_directory(tmp_path):
    assert topic_of("x/__share_group_state-7/00000000000000000000.log") == SHARE_STATE_TOPIC
    assert topic_of("x/__consumer_offsets-7/00000000000000000000.log") == OFFSETS_TOPIC
    assert topic_of("x/__share_group_state-7-delete/00000000000000000000.log") == OFFSETS_TOPIC
    assert topic_of("00000000000000000000.log") == OFFSETS_TOPIC


def test_dump_log_lines_as_kafkas_share_group_state_decoder_prints_them(segment):
    text = dump_log([segment.parent])
    lines = text.splitlines()
    assert lines[0] == f"Dumping {segment}" and lines[1] == "Log starting offset: 0"
    assert lines[2].startswith("baseOffset: 0 lastOffset: 1 count: 2 ")
    assert lines[3].startswith("| offset: 0 CreateTime: 1000 keySize: 27 valueSize: 60 sequence: -1 headerKeys: []")
    assert keys_and_payloads(text) == [
        '{"type":"0",' + KEY_TEXT + ' payload: {"version":"0","data":{"snapshotEpoch":0,"stateEpoch":1,'
        '"leaderEpoch":2,"startOffset":5,"createTimestamp":100,"writeTimestamp":101,"stateBatches":'
        '[{"firstOffset":5,"lastOffset":9,"deliveryState":2,"deliveryCount":1}]}}',
        '{"type":"1",' + KEY_TEXT + ' payload: {"version":"0","data":{"snapshotEpoch":0,"leaderEpoch":2,'
        '"startOffset":-1,"deliveryCompleteCount":3,"stateBatches":[{"firstOffset":10,"lastOffset":12,'
        '"deliveryState":0,"deliveryCount":2}]}}',
        '{"type":"0",' + KEY_TEXT + " payload: <DELETE>",
        "Unknown record type 32767 at offset 3, skipping.",
        "Error at offset 4, skipping. Could not read record with version 0 from value's buffer due to: "
        "non-nullable field stateBatches was serialized as null.",
    ]


def test_releases_before_4_2_do_not_know_delivery_complete_count(segment):
    assert '"deliveryCompleteCount":3' in dump_log([segment], "4.2")
    older = dump_log([segment], "4.1")
    assert "deliveryCompleteCount" not in older
    assert '"startOffset":-1,"stateBatches":[{"firstOffset":10' in older


def test_releases_without_the_decoder_are_refused(segment):
    with pytest.raises(UsageError, match="no --share-group-state-decoder"):
        dump_log([segment], "3.9")


def test_the_text_reads_back_into_the_same_records(segment, tmp_path):
    text = dump_log([segment])
    saved = tmp_path / "dump.txt"
    saved.write_text(text)
    assert dump_log([saved]) == text
    dumps = open_inputs([saved])
    dump = next(dumps)  # a text's sections share its file: read each before taking the next
    assert dump.topic == SHARE_STATE_TOPIC
    records = [r for _, recs in dump.batches for r in recs]
    assert records[0].key == share_state.ShareStateKey(0, KEY)
    assert records[1].value.data["deliveryCompleteCount"] == 3


def test_a_file_elsewhere_is_read_as_share_state_when_told(segment, tmp_path):
    moved = tmp_path / "00000000000000000000.log"
    moved.write_bytes(segment.read_bytes())
    assert "Unknown record type" not in dump_log([moved], topic=SHARE_STATE_TOPIC).splitlines()[3]
    as_offsets = dump_log([moved])  # a ShareSnapshot key is no readable offset commit key
    assert "Error at offset 0, skipping." in as_offsets


def test_jsonl_and_table_rows(segment):
    out = io.StringIO()
    write_jsonl(open_inputs([segment]), out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["key"] == {"type": 0, "data": {"groupId": "gs1", "topicId": "Uj5wn_FqTXirEASvVZRY1w",
                                                   "partition": 0}}
    assert lines[1]["value"]["data"]["deliveryCompleteCount"] == 3
    assert lines[2]["value"] is None and lines[3]["error"].startswith("Unknown record type 32767")
    records = [r for dump in open_inputs([segment]) for _, recs in dump.batches for r in recs]
    assert record_jsonable(records[0], "f") == lines[0] | {"file": "f"}
    rows = [table_row(r, "f") for r in records]
    assert [r["type"] for r in rows] == ["SHARE_SNAPSHOT", "SHARE_UPDATE", "SHARE_SNAPSHOT", "ERROR", "SHARE_UPDATE"]
    assert rows[0]["key"] == "Uj5wn_FqTXirEASvVZRY1w-0" and rows[0]["group"] == "gs1"
    assert rows[2]["value"] == "<DELETE>"
