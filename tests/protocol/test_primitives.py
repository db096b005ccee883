"""Kafka's primitive encodings: varints with Java's int semantics, strings, bytes, uuids."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol import primitives as P

INT32 = st.integers(-(1 << 31), (1 << 31) - 1)
INT64 = st.integers(-(1 << 63), (1 << 63) - 1)


@given(INT32)
def test_varint_round_trip(n: int) -> None:
    raw = P.write_varint(n)
    assert P.read_varint(raw + b"tail", 0) == (n, len(raw))


@given(INT64)
def test_varlong_round_trip(n: int) -> None:
    raw = P.write_varlong(n)
    assert P.read_varlong(b"x" + raw, 1) == (n, 1 + len(raw))


@given(st.integers(0, (1 << 31) - 1))
def test_uvarint_round_trip(n: int) -> None:
    raw = P.write_uvarint(n)
    assert len(raw) <= 5
    assert P.read_uvarint(raw, 0) == (n, len(raw))


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x02"),
        (-1, b"\x01"),
        (63, b"\x7e"),
        (-64, b"\x7f"),
        (64, b"\x80\x01"),
        (300, b"\xd8\x04"),
        ((1 << 31) - 1, b"\xfe\xff\xff\xff\x0f"),
        (-(1 << 31), b"\xff\xff\xff\xff\x0f"),
    ],
)
def test_zigzag_varint_known_bytes(value: int, encoded: bytes) -> None:
    assert P.write_varint(value) == encoded
    assert P.read_varint(encoded, 0) == (value, len(encoded))


def test_uvarint_known_bytes() -> None:
    assert P.write_uvarint(0) == b"\x00"
    assert P.write_uvarint(127) == b"\x7f"
    assert P.write_uvarint(128) == b"\x80\x01"
    assert P.write_uvarint(536870911) == b"\xff\xff\xff\xff\x01"
    # Java writes a negative int as its 32-bit pattern
    assert P.write_uvarint(-1) == b"\xff\xff\xff\xff\x0f"


def test_uvarint_fifth_byte_wraps_like_java_int() -> None:
    # 0x0f << 28 overflows a Java int: the value comes back negative (a "null" length for callers)
    assert P.read_uvarint(b"\xff\xff\xff\xff\x0f", 0) == (-1, 5)
    assert P.read_uvarint(b"\x80\x80\x80\x80\x08", 0) == (-(1 << 31), 5)
    assert P.read_uvarint_minus1(b"\x80\x80\x80\x80\x08", 0) == ((1 << 31) - 1, 5)


def test_uvarint_too_long_is_kafkas_message() -> None:
    with pytest.raises(DecodeError) as err:
        P.read_uvarint(b"\xff\xff\xff\xff\xff", 0)
    assert str(err.value) == (
        "Varint is too long, the most significant bit in the 5th byte is set, converted value: ffffffff"
    )


def test_varlong_too_long_is_kafkas_message() -> None:
    with pytest.raises(DecodeError, match=r"^Varlong is too long, most significant bit in the 10th byte is set"):
        P.read_varlong(b"\xff" * 11, 0)


@pytest.mark.parametrize("reader", [P.read_uvarint, P.read_varint, P.read_varlong, P.read_uvarlong])
def test_truncated_varints_are_underflow(reader) -> None:
    for raw in (b"", b"\x80", b"\xff\xff"):
        with pytest.raises(DecodeError) as err:
            reader(raw, 0)
        assert err.value.reason == "null"


def test_kafka_uuid_strings() -> None:
    assert P.uuid_to_kafka(P.ZERO_UUID) == "AAAAAAAAAAAAAAAAAAAAAA"
    u = uuid.UUID("00010203-0405-0607-0809-0a0b0c0d0e0f")
    text = P.uuid_to_kafka(u)
    assert text == "AAECAwQFBgcICQoLDA0ODw"
    assert len(text) == 22
    assert P.uuid_from_kafka(text) == u
    # URL-safe alphabet: '-' and '_' where standard base64 has '+' and '/'
    assert P.uuid_to_kafka(uuid.UUID(bytes=b"\xfb\xff" * 8)) == "-__7__v_-__7__v_-__7_w"
    with pytest.raises(ValueError):
        P.uuid_from_kafka("too-short")


@given(st.binary(min_size=16, max_size=16))
def test_fast_uuid_is_an_ordinary_uuid(raw: bytes) -> None:
    fast = P.uuid_from_bytes(raw)
    slow = uuid.UUID(bytes=raw)
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert str(fast) == str(slow)
    assert fast.bytes == raw
    assert P.uuid_from_kafka(P.uuid_to_kafka(fast)) == fast
    with pytest.raises(TypeError):
        fast.int = 3  # type: ignore[misc]


def test_java_wrapping_helpers() -> None:
    assert P.to_int32(0xFFFFFFFF) == -1
    assert P.to_int32(0x7FFFFFFF) == 0x7FFFFFFF
    assert P.to_int64(1 << 63) == -(1 << 63)


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_varlong_agrees_with_kafka_python(value: int) -> None:
    """The record-framing varints are the same bytes kafka-python's record code writes and reads."""
    from kafka.record.util import decode_varint as kp_decode
    from kafka.record.util import encode_varint as kp_encode

    data = P.write_varlong(value)
    out = bytearray()
    kp_encode(value, out.append)
    assert bytes(out) == data
    assert kp_decode(data, 0) == (value, len(data))
    assert P.read_varlong(data + b"junk", 0) == (value, len(data))
