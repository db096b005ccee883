"""Kafka-JSON rendering (JsonConverters + Jackson) and parsing it back."""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol import jsonconv
from groupctl.protocol import records as R
from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
from groupctl.protocol.schema import UNKNOWN_TAGS, field, message
from tests.strategies import message_values

VALUE_VERSIONS = [(t, v) for t, schema in sorted(VALUE_SCHEMAS.items()) for v in schema.versions]
FAST = settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", '"plain"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("a/b", '"a/b"'),  # Jackson does not escape '/'
        ("tab\there\nnl\rcr\bbs\fff", '"tab\\there\\nnl\\rcr\\bbs\\fff"'),
        ("\x00\x01\x1f", '"\\u0000\\u0001\\u001F"'),  # upper-case hex, as Jackson's CharTypes.HC
        ("\x1b[0m", '"\\u001B[0m"'),
        ("\x7f", '"\x7f"'),  # DEL is not escaped
        ("caf\u00e9 \u2028 \U0001f600", '"caf\u00e9 \u2028 \U0001f600"'),  # non-ASCII kept as is
        ("\\u001f literally", '"\\\\u001f literally"'),
        ("", '""'),
    ],
)
def test_strings_are_escaped_as_jackson_does(text: str, expected: str) -> None:
    assert jsonconv.json_string(text) == expected
    assert json.loads(jsonconv.json_string(text)) == text


@given(st.text())
def test_string_escaping_is_valid_json(text: str) -> None:
    assert json.loads(jsonconv.json_string(text)) == text


def test_scalars() -> None:
    assert jsonconv.json_uuid(uuid.UUID(int=0)) == '"AAAAAAAAAAAAAAAAAAAAAA"'
    assert jsonconv.json_bytes(b"Subscription") == '"U3Vic2NyaXB0aW9u"'
    assert jsonconv.json_bytes(b"Assignment") == '"QXNzaWdubWVudA=="'
    assert jsonconv.json_bytes(b"") == '""'
    assert jsonconv.json_bytes(None) == "null"
    assert [jsonconv.java_double(x) for x in (1.0, 0.5, 1e7, 1.5e-5, -2.0, 1e21)] == [
        "1.0",
        "0.5",
        "1.0E7",
        "1.5E-5",
        "-2.0",
        "1.0E21",
    ]


SAMPLE = message(
    "Sample",
    "0-1",
    "1+",
    [
        field("Flag", "bool"),
        field("Ratio", "float64"),
        field("Name", "string", nullable="0+"),
        field("Blob", "bytes"),
        field("Inner", "Inner", nullable="0+", default="null", fields=[field("A", "uint16")]),
        field("Ids", "[]uuid", "1+"),
        field("Tagged", "int32", "1+", tag=0, default=-1),
        field("TaggedNames", "[]string", "1+", nullable="1+", tag=1, default="null"),
    ],
)


def test_render_rules() -> None:
    data = {
        "flag": True,
        "ratio": 2.5,
        "name": None,
        "blob": b"\x00\xff",
        "inner": {"a": 65535},
        "ids": [uuid.UUID(int=1)],
        "tagged": -1,
        "taggedNames": None,
        UNKNOWN_TAGS: [(9, b"x")],
    }
    render = jsonconv.renderer(SAMPLE, 1)
    assert render(data) == (
        '{"flag":true,"ratio":2.5,"name":null,"blob":"AP8=","inner":{"a":65535},"ids":["AAAAAAAAAAAAAAAAAAAAAQ"]}'
    )
    data.update(tagged=3, taggedNames=[])
    assert render(data).endswith(',"tagged":3,"taggedNames":[]}')
    v0 = {k: data[k] for k in ("flag", "ratio", "name", "blob", "inner")}
    assert jsonconv.renderer(SAMPLE, 0)(v0 | {"inner": None}) == (
        '{"flag":true,"ratio":2.5,"name":null,"blob":"AP8=","inner":null}'
    )
    assert jsonconv.jsonable(SAMPLE, 1)(data) == {
        "flag": True,
        "ratio": 2.5,
        "name": None,
        "blob": "AP8=",
        "inner": {"a": 65535},
        "ids": ["AAAAAAAAAAAAAAAAAAAAAQ"],
        "tagged": 3,
        "taggedNames": [],
    }


def test_leading_tagged_field_is_omitted_cleanly() -> None:
    msg = message("L", "0", "0+", [field("T", "int32", tag=0), field("A", "int8")])
    render = jsonconv.renderer(msg, 0)
    assert render({"t": 0, "a": 1}) == '{"a":1}'
    assert render({"t": 5, "a": 1}) == '{"t":5,"a":1}'
    assert jsonconv.renderer(message("E", "0", "0+", []), 0)({}) == "{}"


@pytest.mark.parametrize(("record_type", "version"), VALUE_VERSIONS)
@FAST
@given(data=st.data())
def test_text_and_objects_agree_and_parse_back(record_type: int, version: int, data: st.DataObject) -> None:
    fields = data.draw(message_values(VALUE_SCHEMAS[record_type], version, unknown_tags=True))
    value = R.RecordValue(version, fields)
    text = R.value_json(record_type, value)
    obj = R.value_to_jsonable(record_type, value)
    assert json.loads(text) == {"version": str(version), "data": obj["data"]}
    assert obj["version"] == version
    assert UNKNOWN_TAGS not in text
    # parse back: unknown tagged fields are the one thing the JSON does not carry
    if record_type == 2:
        assume(fields["protocolType"] != "consumer")
    expected = _without_unknown_tags(fields)
    assert R.value_from_jsonable(record_type, obj) == R.RecordValue(version, expected)
    assert R.value_from_jsonable(record_type, json.loads(text)) == R.RecordValue(version, expected)


@pytest.mark.parametrize("record_type", sorted(KEY_SCHEMAS))
@FAST
@given(data=st.data())
def test_keys_parse_back(record_type: int, data: st.DataObject) -> None:
    key = R.RecordKey(record_type, data.draw(message_values(KEY_SCHEMAS[record_type], 0)))
    assert R.key_from_jsonable(R.key_to_jsonable(key)) == key
    assert R.key_from_jsonable(json.loads(R.key_json(key))) == key
    assert json.loads(R.key_json(key))["type"] == str(record_type)


def _without_unknown_tags(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_unknown_tags(v) for k, v in value.items() if k != UNKNOWN_TAGS}
    if isinstance(value, list):
        return [_without_unknown_tags(v) for v in value]
    return value


def test_parse_back_errors() -> None:
    with pytest.raises(DecodeError, match=r"OffsetCommitValue: unable to locate field 'metadata', which is mandatory"):
        R.value_from_jsonable(1, {"version": 3, "data": {"offset": 1, "leaderEpoch": 0, "commitTimestamp": 1}})
    with pytest.raises(R.UnknownRecordVersion):
        R.value_from_jsonable(1, {"version": "9", "data": {}})
    with pytest.raises(R.UnknownRecordType):
        R.key_from_jsonable({"type": 99, "data": {}})
    with pytest.raises(DecodeError, match="integer 'type'"):
        R.key_from_jsonable({"data": {}})
    with pytest.raises(DecodeError, match="not a Kafka uuid"):
        R.value_from_jsonable(
            1,
            {
                "version": 4,
                "data": {"offset": 1, "leaderEpoch": 0, "metadata": "", "commitTimestamp": 1, "topicId": "x"},
            },
        )
    with pytest.raises(DecodeError, match="out of range for int32"):
        R.key_from_jsonable({"type": 1, "data": {"group": "g", "topic": "t", "partition": 1 << 40}})
    with pytest.raises(DecodeError, match="not nullable"):
        R.key_from_jsonable({"type": 1, "data": {"group": None, "topic": "t", "partition": 0}})
    with pytest.raises(DecodeError, match="not base64"):
        R.value_from_jsonable(
            2,
            {
                "version": 0,
                "data": {
                    "protocolType": "",
                    "generation": 0,
                    "protocol": None,
                    "leader": None,
                    "members": [
                        {
                            "memberId": "m",
                            "clientId": "c",
                            "clientHost": "h",
                            "sessionTimeout": 1,
                            "subscription": "%%%",
                            "assignment": "",
                        }
                    ],
                },
            },
        )


def test_tagged_defaults_fill_in_on_parse_back() -> None:
    value = R.value_from_jsonable(3, {"version": "0", "data": {"epoch": 4}})
    assert value == R.RecordValue(0, {"epoch": 4, "metadataHash": 0})
