"""The schema language and its generated codecs, on a synthetic message that uses every feature."""

from __future__ import annotations

import struct
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol.primitives import write_uvarint
from groupctl.protocol.schema import (
    MISSING,
    UNKNOWN_TAGS,
    Versions,
    default_value,
    field,
    message,
    parse_versions,
    struct_defaults,
)
from tests.strategies import message_values

EVERYTHING = message(
    "Everything",
    "0-3",
    "2+",
    [
        field("Flag", "bool"),
        field("Tiny", "int8"),
        field("Small", "int16", default=-2),
        field("Port", "uint16"),
        field("Count", "int32"),
        field("Big", "uint32", "1+"),
        field("Long", "int64"),
        field("Ratio", "float64"),
        field("Id", "uuid"),
        field("Name", "string"),
        field("MaybeName", "string", nullable="0+"),
        field("Blob", "bytes", nullable="1+"),
        field("Batch", "records", nullable="0+"),
        field("Ids", "[]uuid"),
        field("Names", "[]string", nullable="2+"),
        field("Blobs", "[]bytes"),
        field("Flags", "[]bool"),
        field("Longs", "[]int64"),
        field("Shorts", "[]int16"),
        field("Doubles", "[]float64"),
        field("Inner", "Inner", fields=[field("A", "int32"), field("B", "string")]),
        field("MaybeInner", "MaybeInner", nullable="0+", default="null", fields=[field("C", "uint16")]),
        field(
            "Items",
            "[]Item",
            fields=[
                field("Key", "string"),
                field("Values", "[]int32"),
                field("Note", "string", "2+", nullable="2+", tag=0, default="null"),
            ],
        ),
        field("OldOnly", "int32", "0-1", default=7),
        field("OldIgnorable", "int32", "0-1", ignorable=True),
        field("TaggedInt", "int32", "2+", tag=1, default=-1),
        field(
            "TaggedStruct",
            "TaggedStruct",
            "2+",
            nullable="2+",
            tag=2,
            default="null",
            fields=[field("D", "int64"), field("E", "[]string")],
        ),
        field("TaggedList", "[]string", "2+", tag=3),
        field("TaggedUuid", "uuid", "3+", tag=4),
        field("LateTag", "int32", "3+", tag=5),
    ],
)


@pytest.mark.parametrize("version", EVERYTHING.versions)
@settings(max_examples=60)
@given(data=st.data())
def test_round_trip_every_version(version: int, data: st.DataObject) -> None:
    value = data.draw(message_values(EVERYTHING, version, unknown_tags=True))
    raw = EVERYTHING.encode(value, version)
    decoded, end = EVERYTHING.decoder(version)(raw, 0)
    assert end == len(raw)
    assert decoded == value
    assert EVERYTHING.encode(decoded, version) == raw


@pytest.mark.parametrize("version", EVERYTHING.versions)
@given(raw=st.binary(max_size=80))
def test_any_bytes_decode_or_raise_decode_error(version: int, raw: bytes) -> None:
    try:
        EVERYTHING.decoder(version)(raw, 0)
    except DecodeError as exc:
        assert exc.reason


def test_fields_absent_at_a_version_are_absent() -> None:
    v0 = EVERYTHING.decode(EVERYTHING.encode({}, 0), 0)
    assert "big" not in v0 and "taggedInt" not in v0 and "oldOnly" in v0
    v3 = EVERYTHING.decode(EVERYTHING.encode({}, 3), 3)
    assert "oldOnly" not in v3 and "big" in v3
    # tagged fields not on the wire hold their defaults
    assert v3["taggedInt"] == -1
    assert v3["taggedStruct"] is None
    assert v3["taggedList"] == []
    assert v3["taggedUuid"] == uuid.UUID(int=0)


def test_defaults_fill_missing_fields_on_encode() -> None:
    decoded = EVERYTHING.decode(EVERYTHING.encode({}, 1), 1)
    assert decoded == struct_defaults(EVERYTHING.fields, 1)
    assert decoded["small"] == -2
    assert decoded["maybeInner"] is None
    assert decoded["inner"] == {"a": 0, "b": ""}


def test_known_bytes_flexible_with_tagged_fields() -> None:
    msg = message(
        "T",
        "0",
        "0+",
        [
            field("A", "int32"),
            field("B", "string", nullable="0+"),
            field("T1", "int32", tag=1),
            field("T0", "S", nullable="0+", tag=0, default="null", fields=[field("X", "int8")]),
        ],
    )
    raw = msg.encode({"a": 1, "b": None, "t1": 7, "t0": {"x": 5}}, 0)
    # tags ascending; a tagged nullable struct is uvarint(1) + struct (+ its own empty tag section)
    assert raw == bytes.fromhex("00000001 00 02 00 03 010500 01 04 00000007")
    assert msg.decode(raw, 0) == {"a": 1, "b": None, "t1": 7, "t0": {"x": 5}}
    # default values are not written at all
    assert msg.encode({"a": 1, "b": "", "t1": 0, "t0": None}, 0) == bytes.fromhex("00000001 01 00")


def test_known_bytes_classic_nullable_struct_marker() -> None:
    msg = message("N", "0", "none", [field("S", "S", nullable="0+", fields=[field("X", "int16")])])
    assert msg.encode({"s": None}, 0) == b"\xff"
    assert msg.encode({"s": {"x": 3}}, 0) == b"\x01\x00\x03"
    assert msg.decode(b"\xff", 0) == {"s": None}
    assert msg.decode(b"\x80", 0) == {"s": None}  # any negative marker is null, as Java's readByte() < 0
    assert msg.decode(b"\x01\x00\x03", 0) == {"s": {"x": 3}}


def test_unknown_tagged_fields_survive_a_round_trip_in_order() -> None:
    msg = message("U", "0", "0+", [field("A", "int8"), field("K", "int32", tag=2)])
    raw = bytes.fromhex("05 03 01 02 abcd 02 04 00000009 07 00")
    decoded = msg.decode(raw, 0)
    assert decoded == {"a": 5, "k": 9, UNKNOWN_TAGS: [(1, b"\xab\xcd"), (7, b"")]}
    assert msg.encode(decoded, 0) == raw


def test_tag_not_valid_for_version() -> None:
    raw = EVERYTHING.encode({}, 2)
    # replace the empty top-level tag section (last byte) with tag 5 = LateTag, which starts at v3
    bad = raw[:-1] + b"\x01\x05\x04\x00\x00\x00\x01"
    with pytest.raises(DecodeError) as err:
        EVERYTHING.decoder(2)(bad, 0)
    assert err.value.reason == "Tag 5 is not valid for version 2"


def test_known_tag_is_read_by_its_type_not_its_size() -> None:
    # Kafka ignores the declared size of a known tag and reads the field by its own type
    msg = message("K", "0", "0+", [field("T", "int32", tag=0)])
    assert msg.decode(bytes.fromhex("01 00 09 0000002a"), 0) == {"t": 42}


@pytest.mark.parametrize(
    ("msg", "raw", "reason"),
    [
        (
            message("A", "0", "none", [field("Group", "string")]),
            b"\xff\xff",
            "non-nullable field group was serialized as null",
        ),
        (
            message("A", "0", "0+", [field("GroupId", "string")]),
            b"\x00",
            "non-nullable field groupId was serialized as null",
        ),
        (
            message("A", "0", "0+", [field("GroupId", "string")]),
            write_uvarint(0x8001),
            "string field groupId had invalid length 32768",
        ),
        (
            message("A", "0", "none", [field("Group", "string")]),
            b"\x00\x09abc",
            "Error reading byte array of 9 byte(s): only 3 byte(s) available",
        ),
        (
            message("A", "0", "none", [field("Topics", "[]int32")]),
            b"\x7f\xff\xff\xff" + b"\x00" * 8,
            "Tried to allocate a collection of size 2147483647, but there are only 8 bytes remaining.",
        ),
        (message("A", "0", "none", [field("Topics", "[]int32")]), b"\x00\x00\x00\x03" + b"\x00" * 8, "null"),
        (
            message("A", "0", "none", [field("Topics", "[]string")]),
            b"\x00\x00\x00\x01\xff\xff",
            "non-nullable field topics element was serialized as null",
        ),
        (message("A", "0", "none", [field("Epoch", "int32")]), b"\x00\x00", "null"),
        (message("A", "0", "none", [field("Id", "uuid")]), b"\x00" * 15, "null"),
        (
            message("A", "0", "0+", [field("Epoch", "int32")]),
            b"\x00\x00\x00\x01" + b"\x01\x05\xff\xff\xff\xff\x01\x00",
            "Error reading byte array of 536870911 byte(s): only 1 byte(s) available",
        ),
        (message("A", "0", "0+", [field("Epoch", "int32")]), b"\x00\x00\x00\x01\x01\x05", "null"),
        (
            message("A", "0", "0+", [field("B", "bytes")]),
            b"\xff\xff\xff\xff\xff",
            "Varint is too long, the most significant bit in the 5th byte is set, converted value: ffffffff",
        ),
    ],
)
def test_decode_errors_use_kafkas_messages(msg, raw: bytes, reason: str) -> None:
    with pytest.raises(DecodeError) as err:
        msg.decoder(0)(raw, 0)
    assert err.value.reason == reason


def test_decoders_accept_any_bytes_like() -> None:
    raw = EVERYTHING.encode({"name": "x"}, 3)
    expected = EVERYTHING.decode(raw, 3)
    assert EVERYTHING.decode(bytearray(raw), 3) == expected
    assert EVERYTHING.decode(memoryview(raw), 3) == expected


def test_encoder_errors() -> None:
    with pytest.raises(ValueError, match="Attempted to write a non-default oldOnly at version 2"):
        EVERYTHING.encode({"oldOnly": 8}, 2)
    EVERYTHING.encode({"oldOnly": 7, "oldIgnorable": 99}, 2)  # default or ignorable: silently dropped
    with pytest.raises(ValueError, match="non-nullable field name was null"):
        EVERYTHING.encode({"name": None}, 0)
    with pytest.raises(ValueError, match="'name' field is too long to be serialized"):
        EVERYTHING.encode({"name": "x" * 40000}, 0)
    with pytest.raises(ValueError, match="cannot encode Everything v0"):
        EVERYTHING.encode({"tiny": 128}, 0)
    with pytest.raises(ValueError, match="cannot encode Everything v0"):
        EVERYTHING.encode({"id": "not-a-uuid"}, 0)
    with pytest.raises(ValueError, match="has no version 4"):
        EVERYTHING.encoder(4)


def test_generated_source_is_kept_for_inspection() -> None:
    assert "def _d" in EVERYTHING.decoder(3).source
    assert EVERYTHING.decoder(3) is EVERYTHING.decoder(3)


def test_parse_versions() -> None:
    assert parse_versions("0+") == Versions(0, 0x7FFF)
    assert parse_versions("3") == Versions(3, 3)
    assert parse_versions("0-4") == Versions(0, 4)
    assert parse_versions("none").empty
    assert 2 in parse_versions("1-3") and 4 not in parse_versions("1-3")
    assert str(parse_versions("2+")) == "2+" and str(parse_versions("1-3")) == "1-3"
    with pytest.raises(ValueError):
        parse_versions("1..3")


def test_schema_validation() -> None:
    with pytest.raises(ValueError, match="needs fields"):
        field("S", "SomeStruct")
    with pytest.raises(ValueError, match="cannot have fields"):
        field("S", "int32", fields=[field("A", "int8")])
    with pytest.raises(ValueError, match="duplicate tags"):
        message("M", "0", "0+", [field("A", "int8", tag=0), field("B", "int8", tag=0)])


def test_kafka_default_rules() -> None:
    assert default_value(field("S", "string", nullable="0+"), 0) == ""  # nullable strings default to ""
    assert default_value(field("S", "string", nullable="0+", default="null"), 0) is None
    assert default_value(field("N", "int64", default="0x10"), 0) == 16
    assert default_value(field("L", "[]int32"), 0) == []
    assert field("X", "int8").default is MISSING


def test_invalid_utf8_is_replaced_as_java_does() -> None:
    msg = message("S", "0", "none", [field("S", "string")])
    assert msg.decode(b"\x00\x03a\xffb", 0) == {"s": "a\ufffdb"}


def test_huge_bytes_length_is_checked_before_allocation() -> None:
    msg = message("B", "0", "none", [field("B", "bytes")])
    with pytest.raises(DecodeError) as err:
        msg.decoder(0)(struct.pack(">i", 0x7FFFFFFF) + b"x" * 10, 0)
    assert err.value.reason == "Error reading byte array of 2147483647 byte(s): only 10 byte(s) available"
