"""`__share_group_state` records: bytes laid out per Kafka's ShareSnapshot/ShareUpdate JSON schemas, and the
key and payload texts Kafka 4.3's DumpLogSegmentsTest expects from its ShareGroupStateMessageParser."""

from __future__ import annotations

import struct
import uuid

import pytest

from groupctl.errors import DecodeError
from groupctl.protocol import share_state
from groupctl.protocol.data.share_state_records import ShareSnapshotValue, StateBatch
from groupctl.protocol.primitives import uuid_from_kafka
from groupctl.protocol.records import RecordKey, UnknownRecordType, UnknownRecordVersion
from groupctl.protocol.share_state_schemas import SHARE_STATE_VALUE_SCHEMAS

TOPIC_ID = uuid_from_kafka("Uj5wn_FqTXirEASvVZRY1w")  # the id Kafka's test uses
KEY = {"groupId": "gs1", "topicId": TOPIC_ID, "partition": 0}
BATCH = {"firstOffset": 0, "lastOffset": 4, "deliveryState": 2, "deliveryCount": 1}
TS = 1_700_000_000_123


def snapshot(**fields) -> dict:
    base = {"snapshotEpoch": 0, "stateEpoch": 0, "leaderEpoch": 0, "startOffset": 0, "createTimestamp": TS,
            "writeTimestamp": TS, "stateBatches": [BATCH]}
    return {**base, **fields}


def update(**fields) -> dict:
    return {"snapshotEpoch": 0, "leaderEpoch": 0, "startOffset": 0, "stateBatches": [BATCH], **fields}


def test_key_bytes_are_type_then_group_uuid_partition():
    raw = share_state.encode_key(1, KEY)
    assert raw == struct.pack(">hh", 1, 3) + b"gs1" + TOPIC_ID.bytes + struct.pack(">i", 0)
    key = share_state.decode_key(raw)
    assert key == share_state.ShareStateKey(1, KEY)
    assert type(key) is not RecordKey  # never mistaken for an offset commit key of the same type number


def test_snapshot_value_bytes_follow_the_schema_order():
    raw = share_state.encode_value(0, 0, snapshot(stateEpoch=1, leaderEpoch=2, startOffset=3))
    fixed = struct.pack(">hiiiqqq", 0, 0, 1, 2, 3, TS, TS)
    batch = struct.pack(">qqbh", 0, 4, 2, 1)
    assert raw == fixed + b"\x02" + batch + b"\x00" + b"\x00"  # compact array of 1, its tags, the value's tags


def test_kafka_dump_log_segments_test_texts():
    """The exact strings of DumpLogSegmentsTest.testShareGroupStateMessageParser (Kafka 4.3)."""
    key = share_state.decode_key(share_state.encode_key(0, KEY))
    assert share_state.key_json(key) == (
        '{"type":"0","data":{"groupId":"gs1","topicId":"Uj5wn_FqTXirEASvVZRY1w","partition":0}}')
    value = share_state.decode_value(0, share_state.encode_value(0, 0, snapshot()))
    assert share_state.value_json(0, value) == (
        '{"version":"0","data":{"snapshotEpoch":0,"stateEpoch":0,"leaderEpoch":0,"startOffset":0,'
        f'"createTimestamp":{TS},"writeTimestamp":{TS},"stateBatches":[{{'
        '"firstOffset":0,"lastOffset":4,"deliveryState":2,"deliveryCount":1}]}}')
    up = share_state.decode_value(1, share_state.encode_value(1, 0, update()))
    assert share_state.value_json(1, up) == (
        '{"version":"0","data":{"snapshotEpoch":0,"leaderEpoch":0,"startOffset":0,'
        '"stateBatches":[{"firstOffset":0,"lastOffset":4,"deliveryState":2,"deliveryCount":1}]}}')


def test_a_snapshot_read_as_an_update_fails_with_kafkas_words():
    """Kafka's test writes a default ShareSnapshotValue under a ShareUpdate key."""
    empty = ShareSnapshotValue()
    raw = struct.pack(">h", 0) + SHARE_STATE_VALUE_SCHEMAS[0].write(empty, 0)
    with pytest.raises(DecodeError) as caught:
        share_state.decode_value(1, raw)
    assert caught.value.reason == ("Could not read record with version 0 from value's buffer due to: "
                                   "non-nullable field stateBatches was serialized as null.")


def test_unknown_type_and_version():
    with pytest.raises(UnknownRecordType, match="Unknown record type 32767"):
        share_state.decode_key(b"\x7f\xff")
    with pytest.raises(UnknownRecordVersion, match="Found an unknown record version 1 for 0 type"):
        share_state.decode_value(0, struct.pack(">h", 1) + share_state.encode_value(0, 0, snapshot())[2:])


def test_delivery_complete_count_is_tagged_and_printed_only_when_set():
    plain = share_state.encode_value(1, 0, update())
    counted = share_state.encode_value(1, 0, update(deliveryCompleteCount=7))
    assert counted[:len(plain) - 1] == plain[:-1] and counted[len(plain) - 1:] == b"\x01\x00\x04\x00\x00\x00\x07"
    text = share_state.value_json(1, share_state.decode_value(1, counted))
    assert '"startOffset":0,"deliveryCompleteCount":7,"stateBatches"' in text
    assert "deliveryCompleteCount" not in share_state.value_json(1, share_state.decode_value(1, counted),
                                                                 frozenset({"deliveryCompleteCount"}))
    assert share_state.decode_value(1, plain).data["deliveryCompleteCount"] == -1


def test_generated_classes_read_the_values():
    raw = share_state.encode_value(0, 0, snapshot(startOffset=9))
    value = SHARE_STATE_VALUE_SCHEMAS[0].read(raw[2:], 0)
    assert isinstance(value, ShareSnapshotValue) and value.start_offset == 9
    assert value.state_batches == [StateBatch(first_offset=0, last_offset=4, delivery_state=2, delivery_count=1)]


def test_json_objects_round_trip():
    key = share_state.decode_key(share_state.encode_key(0, {**KEY, "topicId": uuid.UUID(int=5)}))
    value = share_state.decode_value(0, share_state.encode_value(0, 0, snapshot()))
    assert share_state.key_from_jsonable(share_state.key_to_jsonable(key)) == key
    assert share_state.value_from_jsonable(0, share_state.value_to_jsonable(0, value)) == value
    assert share_state.key_to_jsonable(key)["type"] == 0
