"""`__consumer_offsets` records: every schema round-trips, real bytes decode, errors read like Kafka's."""

from __future__ import annotations

import contextlib
import re
import struct
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol import consumer_protocol as cp
from groupctl.protocol import records as R
from groupctl.protocol.primitives import write_uvarint
from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
from tests.strategies import message_values

VALUE_VERSIONS = [(t, v) for t, schema in sorted(VALUE_SCHEMAS.items()) for v in schema.versions]
FAST = settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])


def test_every_record_type_is_described() -> None:
    assert sorted(KEY_SCHEMAS) == list(range(25))
    assert sorted(VALUE_SCHEMAS) == list(range(25))
    assert R.RECORD_TYPE_NAMES[0] == "LEGACY_OFFSET_COMMIT"
    assert R.RECORD_TYPE_NAMES[1] == "OFFSET_COMMIT"
    assert R.RECORD_TYPE_NAMES[2] == "GROUP_METADATA"
    assert R.RECORD_TYPE_NAMES[8] == "CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT"
    assert R.RECORD_TYPE_NAMES[16] == "CONSUMER_GROUP_REGULAR_EXPRESSION"
    assert R.RECORD_TYPE_NAMES[24] == "STREAMS_GROUP_TARGET_ASSIGNMENT_RESOLVED_TOPIC_IDS"
    assert {t: str(VALUE_SCHEMAS[t].valid_versions) for t in (0, 1, 2, 3)} == {0: "0", 1: "0-4", 2: "0-4", 3: "0"}
    assert str(VALUE_SCHEMAS[1].flexible_versions) == "4+" and str(VALUE_SCHEMAS[2].flexible_versions) == "4+"
    assert all(str(m.flexible_versions) == "0+" for t, m in VALUE_SCHEMAS.items() if t >= 3)
    assert all(str(m.flexible_versions) == "none" and str(m.valid_versions) == "0" for m in KEY_SCHEMAS.values())


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("record_type", sorted(KEY_SCHEMAS))
@FAST
@given(data=st.data())
def test_key_round_trip(record_type: int, data: st.DataObject) -> None:
    fields = data.draw(message_values(KEY_SCHEMAS[record_type], 0))
    raw = R.encode_key(record_type, fields)
    key = R.decode_key(raw)
    assert key == R.RecordKey(record_type, fields)
    assert R.encode_key(key.type, key.data) == raw


@pytest.mark.parametrize(("record_type", "version"), VALUE_VERSIONS)
@FAST
@given(data=st.data())
def test_value_round_trip(record_type: int, version: int, data: st.DataObject) -> None:
    fields = data.draw(message_values(VALUE_SCHEMAS[record_type], version, unknown_tags=True))
    raw = R.encode_value(record_type, version, fields)
    value = R.decode_value(record_type, raw)
    assert value == R.RecordValue(version, fields)
    assert R.encode_value(record_type, value.version, value.data) == raw


# --- real bytes ----------------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+|[A-Za-z_][A-Za-z0-9_]*|[{}\[\]:,]')


def parse_fmt(text: str) -> Any:
    """Parse konsumer_offsets' Rust-debug `.fmt` dumps into dicts, lists, strings and ints."""
    tokens = _TOKEN.findall(text)
    pos = 0

    def value() -> Any:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok.startswith('"'):
            return tok[1:-1]
        if re.fullmatch(r"-?\d+", tok):
            return int(tok)
        if tok in ("true", "false"):
            return tok == "true"
        if tok == "[":
            items = []
            while tokens[pos] != "]":
                items.append(value())
                if tokens[pos] == ",":
                    pos += 1
            pos += 1
            return items
        assert tokens[pos] == "{", tok
        pos += 1
        obj = {"__type__": tok}
        while tokens[pos] != "}":
            name = tokens[pos]
            assert tokens[pos + 1] == ":"
            pos += 2
            obj[name] = value()
            if tokens[pos] == ",":
                pos += 1
        pos += 1
        return obj

    return value()


def _fixtures(vectors_dir: Path, kind: str) -> list[Path]:
    found = sorted((vectors_dir / "konsumer_offsets" / "fixtures" / "tests" / kind).glob("*.key"))
    assert found, kind
    return found


def test_konsumer_offset_commit_fixtures(vectors_dir: Path) -> None:
    for key_path in _fixtures(vectors_dir, "offset_commit"):
        expected = parse_fmt(key_path.with_suffix(".ts_int.fmt").read_text())
        key = R.decode_key(key_path.read_bytes())
        value = R.decode_value(key.type, key_path.with_suffix(".payload").read_bytes())
        assert key.type == expected["message_version"] == 1
        assert key.data == {"group": expected["group"], "topic": expected["topic"], "partition": expected["partition"]}
        assert value.version == expected["schema_version"] == 3
        assert value.data == {
            "offset": expected["offset"],
            "leaderEpoch": expected["leader_epoch"],
            "metadata": expected["metadata"],
            "commitTimestamp": expected["commit_timestamp"],
        }


def test_konsumer_group_metadata_fixtures(vectors_dir: Path) -> None:
    for key_path in _fixtures(vectors_dir, "group_metadata"):
        expected = parse_fmt(key_path.with_suffix(".ts_int.fmt").read_text())
        key = R.decode_key(key_path.read_bytes())
        value = R.decode_value(key.type, key_path.with_suffix(".payload").read_bytes())
        assert key == R.RecordKey(2, {"group": expected["group"]})
        assert value.version == expected["schema_version"] == 3
        d = value.data
        assert d["protocolType"] == expected["protocol_type"]
        assert d["generation"] == expected["generation"]
        assert (d["protocol"] or "") == expected["protocol"]  # the .fmt prints null as ""
        assert (d["leader"] or "") == expected["leader"]
        assert d["currentStateTimestamp"] == expected["current_state_timestamp"]
        assert len(d["members"]) == len(expected["members"])
        for member, exp in zip(d["members"], expected["members"], strict=True):
            assert member["memberId"] == exp["id"]
            assert (member["groupInstanceId"] or "") == exp["group_instance_id"]
            assert member["clientId"] == exp["client_id"]
            assert member["clientHost"] == exp["client_host"]
            assert member["rebalanceTimeout"] == exp["rebalance_timeout"]
            assert member["sessionTimeout"] == exp["session_timeout"]
            sub_version, sub = cp.decode_subscription(member["subscription"])
            assert sub_version == exp["subscription"]["schema_version"]
            assert sub["topics"] == exp["subscription"]["subscribed_topics"]
            assert sub["ownedPartitions"] == exp["subscription"]["owned_topic_partitions"] == []
            assert list(sub["userData"] or b"") == exp["subscription"]["user_data"]
            asg_version, asg = cp.decode_assignment(member["assignment"])
            assert asg_version == exp["assignment"]["schema_version"]
            assert [(tp["topic"], tp["partitions"]) for tp in asg["assignedPartitions"]] == [
                (tp["topic"], tp["partitions"]) for tp in exp["assignment"]["assigned_topic_partitions"]
            ]
        # and the whole thing renders, subscription and assignment decoded
        rendered = R.value_json(2, value)
        if d["members"]:
            assert '"subscription":{"topics":[' in rendered


def test_kafka_hawk_vectors(vectors_dir: Path) -> None:
    res = vectors_dir / "kafka-hawk" / "src" / "test" / "resources"
    key = R.decode_key((res / "key_0.dat").read_bytes())
    value = R.decode_value(key.type, (res / "msg_0.dat").read_bytes())
    assert key == R.RecordKey(1, {"group": "console-consumer-45944", "topic": "test", "partition": 0})
    assert value == R.RecordValue(
        1, {"offset": 0, "metadata": "", "commitTimestamp": 0x0166E0BB7DB0, "expireTimestamp": 0x016704C801B0}
    )
    assert R.value_json(1, value) == (
        '{"version":"1","data":{"offset":0,"metadata":"","commitTimestamp":1541368675760,'
        '"expireTimestamp":1541973475760}}'
    )


# --- DumpLogSegmentsTest / OffsetMessageFormatterTest examples ----------------------------------


def test_dump_log_consumer_group_metadata_example() -> None:
    key = R.decode_key(R.encode_key(3, {"groupId": "group"}))
    value = R.decode_value(3, R.encode_value(3, 0, {"epoch": 10}))
    assert R.key_json(key) == '{"type":"3","data":{"groupId":"group"}}'
    assert R.value_json(3, value) == '{"version":"0","data":{"epoch":10}}'


CONSUMER_GROUP_EXAMPLE = (
    '{"version":"4","data":{"protocolType":"consumer","generation":10,"protocol":"range",'
    '"leader":"member","currentStateTimestamp":-1,"members":[{"memberId":"member",'
    '"groupInstanceId":"instance","clientId":"client","clientHost":"host",'
    '"rebalanceTimeout":1000,"sessionTimeout":100,"subscription":{"topics":["foo"],'
    '"userData":null,"ownedPartitions":[{"topic":"foo","partitions":[0]}],'
    '"generationId":0,"rackId":"rack"},"assignment":{"assignedPartitions":'
    '[{"topic":"foo","partitions":[0]}],"userData":null}}]}}'
)


def _group_metadata_v4(subscription: bytes, assignment: bytes) -> bytes:
    return R.encode_value(
        2,
        4,
        {
            "protocolType": "consumer",
            "protocol": "range",
            "leader": "member",
            "generation": 10,
            "members": [
                {
                    "memberId": "member",
                    "clientId": "client",
                    "clientHost": "host",
                    "groupInstanceId": "instance",
                    "sessionTimeout": 100,
                    "rebalanceTimeout": 1000,
                    "subscription": subscription,
                    "assignment": assignment,
                }
            ],
        },
    )


def test_dump_log_group_metadata_v4_consumer_example() -> None:
    # ConsumerProtocol.serializeSubscription/serializeAssignment write the highest version, 3
    sub = cp.encode_subscription(
        {
            "topics": ["foo"],
            "userData": None,
            "ownedPartitions": [{"topic": "foo", "partitions": [0]}],
            "generationId": 0,
            "rackId": "rack",
        },
        3,
    )
    asg = cp.encode_assignment({"assignedPartitions": [{"topic": "foo", "partitions": [0]}], "userData": None}, 3)
    key = R.decode_key(R.encode_key(2, {"group": "group"}))
    value = R.decode_value(2, _group_metadata_v4(sub, asg))
    assert R.key_json(key) == '{"type":"2","data":{"group":"group"}}'
    assert R.value_json(2, value) == CONSUMER_GROUP_EXAMPLE


def test_dump_log_malformed_consumer_protocol_stays_base64() -> None:
    value = R.decode_value(2, _group_metadata_v4(b"Subscription", b"Assignment"))
    assert R.value_json(2, value) == (
        '{"version":"4","data":{"protocolType":"consumer","generation":10,"protocol":"range",'
        '"leader":"member","currentStateTimestamp":-1,"members":[{"memberId":"member",'
        '"groupInstanceId":"instance","clientId":"client","clientHost":"host",'
        '"rebalanceTimeout":1000,"sessionTimeout":100,"subscription":"U3Vic2NyaXB0aW9u",'
        '"assignment":"QXNzaWdubWVudA=="}]}}'
    )


def test_dump_log_unknown_record_type_example() -> None:
    with pytest.raises(R.UnknownRecordType) as err:
        R.decode_key(struct.pack(">h", 32767))
    assert err.value.record_type == 32767
    assert f"{err.value} at offset 0, skipping." == "Unknown record type 32767 at offset 0, skipping."


def test_dump_log_parse_error_example() -> None:
    # a default ConsumerGroupMemberMetadataValue read as a type-3 ConsumerGroupMetadataValue
    wrong = R.encode_value(5, 0, {})
    with pytest.raises(DecodeError) as err:
        R.decode_value(3, wrong)
    assert f"Error at offset 0, skipping. {err.value}" == (
        "Error at offset 0, skipping. Could not read record with version 0 from value's buffer due to: "
        "Error reading byte array of 536870911 byte(s): only 1 byte(s) available."
    )


def test_dump_log_offset_commit_line_example() -> None:
    raw_key = R.encode_key(1, {"group": "my-group", "topic": "foo", "partition": 0})
    raw_value = R.encode_value(1, 3, {"offset": 42, "leaderEpoch": 0, "metadata": "", "commitTimestamp": 1717171717171})
    assert (len(raw_key), len(raw_value)) == (21, 24)
    assert R.key_json(R.decode_key(raw_key)) == '{"type":"1","data":{"group":"my-group","topic":"foo","partition":0}}'
    assert R.value_json(1, R.decode_value(1, raw_value)) == (
        '{"version":"3","data":{"offset":42,"leaderEpoch":0,"metadata":"","commitTimestamp":1717171717171}}'
    )


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (0, '{"offset":100,"metadata":"meta","commitTimestamp":1}'),
        (1, '{"offset":100,"metadata":"meta","commitTimestamp":1,"expireTimestamp":2}'),
        (2, '{"offset":100,"metadata":"meta","commitTimestamp":1}'),
        (3, '{"offset":100,"leaderEpoch":10,"metadata":"meta","commitTimestamp":1}'),
        (4, '{"offset":100,"leaderEpoch":10,"metadata":"meta","commitTimestamp":1}'),
    ],
)
def test_offset_commit_value_json_per_version(version: int, expected: str) -> None:
    data = {"offset": 100, "leaderEpoch": 10, "metadata": "meta", "commitTimestamp": 1, "expireTimestamp": 2}
    value = R.decode_value(1, R.encode_value(1, version, data))
    assert R.value_json(1, value) == f'{{"version":"{version}","data":{expected}}}'


def test_offset_commit_v4_topic_id_only_when_set() -> None:
    topic_id = uuid.UUID("00010203-0405-0607-0809-0a0b0c0d0e0f")
    data = {"offset": 1, "leaderEpoch": 2, "metadata": "", "commitTimestamp": 3, "topicId": topic_id}
    value = R.decode_value(1, R.encode_value(1, 4, data))
    assert value.data["topicId"] == topic_id
    assert R.value_json(1, value).endswith(',"commitTimestamp":3,"topicId":"AAECAwQFBgcICQoLDA0ODw"}}')
    legacy = R.decode_value(0, R.encode_value(0, 0, {"offset": 1, "metadata": "m", "commitTimestamp": 2}))
    assert R.value_json(0, legacy) == '{"version":"0","data":{"offset":1,"metadata":"m","commitTimestamp":2}}'


# --- errors --------------------------------------------------------------------------------------


def test_short_version_prefixes() -> None:
    for raw in (b"", b"\x00"):
        with pytest.raises(DecodeError, match=r"^Could not read version from key's buffer\.$"):
            R.decode_key(raw)
        with pytest.raises(DecodeError, match=r"^Could not read version from value's buffer\.$"):
            R.decode_value(1, raw)


def test_unknown_types_and_versions() -> None:
    with pytest.raises(R.UnknownRecordType, match=r"^Unknown record type 25$"):
        R.decode_value(25, b"\x00\x00")
    with pytest.raises(R.UnknownRecordType) as err:
        R.decode_key(b"\xff\xff")
    assert err.value.record_type == -1
    for version in (-1, 5):
        with pytest.raises(R.UnknownRecordVersion) as verr:
            R.decode_value(1, struct.pack(">h", version) + b"\x00" * 30)
        assert str(verr.value) == f"Found an unknown record version {version} for 1 type"
        assert isinstance(verr.value, DecodeError)
    with pytest.raises(R.UnknownRecordVersion):
        R.decode_value(3, b"\x00\x01\x00\x00\x00\x01\x00")


def test_key_errors_name_the_record_type_as_version() -> None:
    with pytest.raises(DecodeError) as err:
        R.decode_key(b"\x00\x01\x00\x05ab")
    assert str(err.value) == (
        "Could not read record with version 1 from key's buffer due to: "
        "Error reading byte array of 5 byte(s): only 2 byte(s) available."
    )


@pytest.mark.parametrize(("record_type", "version"), VALUE_VERSIONS)
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_truncation_is_a_decode_error(record_type: int, version: int, data: st.DataObject) -> None:
    raw = R.encode_value(record_type, version, data.draw(message_values(VALUE_SCHEMAS[record_type], version)))
    for cut in range(len(raw)):
        with pytest.raises(DecodeError):
            R.decode_value(record_type, raw[:cut])
    key_raw = R.encode_key(record_type, data.draw(message_values(KEY_SCHEMAS[record_type], 0)))
    for cut in range(len(key_raw)):
        with pytest.raises(DecodeError):
            R._decode_key(key_raw[:cut])


@given(record_type=st.integers(-2, 26), raw=st.binary(max_size=64), version=st.integers(0, 4))
def test_random_bytes_raise_only_decode_errors(record_type: int, raw: bytes, version: int) -> None:
    with contextlib.suppress(DecodeError):
        R.decode_key(raw)
    with contextlib.suppress(DecodeError):
        R.decode_value(record_type, raw)
    with contextlib.suppress(DecodeError):  # a valid version in front: the message decoders see the noise
        R.decode_value(record_type, struct.pack(">h", version) + raw)


def test_huge_lengths_are_errors_not_allocations() -> None:
    good = R.encode_value(
        2,
        3,
        {
            "protocolType": "consumer",
            "generation": 1,
            "protocol": "range",
            "leader": "m",
            "members": [
                {
                    "memberId": "m",
                    "clientId": "c",
                    "clientHost": "h",
                    "sessionTimeout": 1,
                    "subscription": b"",
                    "assignment": b"",
                }
            ],
        },
    )
    tail = 4 + 4  # the two empty bytes fields: int32 lengths
    huge_bytes = good[:-tail] + struct.pack(">i", 0x7FFFFFFF) + b"\x00" * 1000
    with pytest.raises(DecodeError) as err:
        R.decode_value(2, huge_bytes)
    assert str(err.value) == (
        "Could not read record with version 3 from value's buffer due to: "
        "Error reading byte array of 2147483647 byte(s): only 1000 byte(s) available."
    )
    members_at = good.index(b"\x00\x00\x00\x01\x00\x01m")  # members count, then memberId "m"
    huge_count = good[:members_at] + struct.pack(">i", 0x7FFFFFFF) + good[members_at + 4 :]
    remaining = len(good) - members_at - 4
    with pytest.raises(DecodeError) as err:
        R.decode_value(2, huge_count)
    # the reader's message ends with a period and the serde adds its own: Kafka prints two
    assert str(err.value) == (
        "Could not read record with version 3 from value's buffer due to: Tried to allocate a collection of "
        f"size 2147483647, but there are only {remaining} bytes remaining.."
    )
    flexible = b"\x00\x00" + write_uvarint(0x7FFFFFFF) + b"x" * 10  # type 16 Topics, compact count
    with pytest.raises(DecodeError, match="Tried to allocate a collection of size 2147483646, but there are only 10"):
        R.decode_value(16, flexible)


def test_key_decode_is_cached() -> None:
    raw = R.encode_key(1, {"group": "g", "topic": "t", "partition": 3})
    first = R.decode_key(raw)
    assert R.decode_key(bytes(bytearray(raw))) is first
    assert R.decode_key(memoryview(raw)) is first
    for i in range(R.KEY_CACHE_SIZE + 10):  # the cache stays bounded
        R.decode_key(R.encode_key(3, {"groupId": f"g{i}"}))
    assert len(R._KEY_CACHE) <= R.KEY_CACHE_SIZE


def test_trailing_bytes_are_ignored_as_kafka_does() -> None:
    raw = R.encode_value(3, 0, {"epoch": 1}) + b"junk"
    assert R.decode_value(3, raw).data == {"epoch": 1, "metadataHash": 0}


# --- Kafka 3.5-3.7 early-access layouts ----------------------------------------------------------


def _i8(n: int) -> bytes:
    return struct.pack(">b", n)


def _i16(n: int) -> bytes:
    return struct.pack(">h", n)


def _i32(n: int) -> bytes:
    return struct.pack(">i", n)


def _cstr(s: str | None) -> bytes:
    if s is None:
        return b"\x00"
    return write_uvarint(len(s.encode()) + 1) + s.encode()


def _carr(items: list[bytes]) -> bytes:
    return write_uvarint(len(items) + 1) + b"".join(items)


_TOPIC = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8").bytes
_NO_TAGS = b"\x00"


def _tp(*partitions: int) -> bytes:
    return _TOPIC + _carr([_i32(p) for p in partitions]) + _NO_TAGS


def early_access_type8(target_epoch: int = 5) -> bytes:
    """ConsumerGroupCurrentMemberAssignmentValue as Kafka 3.7.0 wrote it."""
    return (
        _i16(0)
        + _i32(5)  # MemberEpoch
        + _i32(4)  # PreviousMemberEpoch
        + _i32(target_epoch)  # TargetMemberEpoch (gone in 3.8)
        + _carr([_tp(0, 1)])  # AssignedPartitions
        + _carr([])  # PartitionsPendingRevocation
        + _carr([_tp(2)])  # PartitionsPendingAssignment (gone in 3.8)
        + _i8(0)  # Error
        + _i16(1)  # MetadataVersion
        + _carr([])  # MetadataBytes (compact bytes, empty)
        + _NO_TAGS
    )


def early_access_type5(assignors: int = 1) -> bytes:
    assignor = _cstr("range") + _i16(0) + _i16(1) + _i8(0) + _i16(1) + _carr([]) + _NO_TAGS
    return (
        _i16(0)
        + _cstr(None)
        + _cstr(None)
        + _cstr("client")
        + _cstr("/127.0.0.1")
        + _carr([_cstr("foo")])
        + _cstr(None)
        + _i32(300000)
        + _cstr("uniform")
        + _carr([assignor] * assignors)  # Assignors (gone in 3.8)
        + _NO_TAGS
    )


def early_access_type7() -> bytes:
    return _i16(0) + _i8(0) + _carr([_tp(0, 1, 2)]) + _i16(1) + _carr([]) + _NO_TAGS


def early_access_type4(racks: bool) -> bytes:
    topic = _TOPIC + _cstr("foo") + _i32(3)
    if racks:
        topic += _carr([_i32(0) + _carr([_cstr("rack-a")]) + _NO_TAGS])
    return _i16(0) + _i32(7) + _carr([topic + _NO_TAGS]) + _NO_TAGS


@pytest.mark.parametrize(
    ("record_type", "raw", "kafka_reason"),
    [
        (8, early_access_type8(), "non-nullable field assignedPartitions was serialized as null"),
        (5, early_access_type5(), "Error reading byte array of 114 byte(s): only 14 byte(s) available"),
        (5, early_access_type5(0), "null"),
        (7, early_access_type7(), "non-nullable field topicPartitions was serialized as null"),
        (4, early_access_type4(False), "non-nullable field topics was serialized as null"),
        (4, early_access_type4(True), "non-nullable field topics was serialized as null"),
    ],
)
def test_early_access_layouts_are_recognised(record_type: int, raw: bytes, kafka_reason: str) -> None:
    with pytest.raises(R.EarlyAccessLayout) as err:
        R.decode_value(record_type, raw)
    assert isinstance(err.value, DecodeError)
    assert err.value.record_type == record_type
    assert "Kafka 3.5-3.7 early-access KIP-848 layout" in str(err.value)
    assert "not decoded" in str(err.value)
    assert err.value.kafka_reason == (
        f"Could not read record with version 0 from value's buffer due to: {kafka_reason}."
    )


def test_early_access_layout_that_kafka_would_misread() -> None:
    # TargetMemberEpoch 0x00010100 happens to read as State 0, two empty arrays and no tags
    raw = early_access_type8(target_epoch=0x00010100)
    with pytest.raises(R.EarlyAccessLayout) as err:
        R.decode_value(8, raw)
    assert err.value.kafka_reason is None
    assert err.value.kafka_value is not None
    assert err.value.kafka_value.data["assignedPartitions"] == []


def test_current_layouts_are_never_taken_for_early_access() -> None:
    current = R.encode_value(
        8,
        0,
        {
            "memberEpoch": 5,
            "previousMemberEpoch": 4,
            "state": 0,
            "assignedPartitions": [{"topicId": uuid.UUID(bytes=_TOPIC), "partitions": [0, 1]}],
            "partitionsPendingRevocation": [],
        },
    )
    assert R.decode_value(8, current).data["memberEpoch"] == 5


def test_runtime_imports_stay_light() -> None:
    code = (
        "import sys, groupctl.protocol\n"
        "assert not [m for m in sys.modules if m.startswith('groupctl.protocol.')]\n"
        "import groupctl.protocol.records\n"
        "assert 'hypothesis' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
