"""Zig-zag varints: Kafka's ByteUtils encoding, limits and truncation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kafka.record.util import decode_varint as kp_decode
from kafka.record.util import encode_varint as kp_encode

from groupctl.log.varint import VarintError, decode_varint, decode_varlong, encode_varint, size_of_varint


@pytest.mark.parametrize(
    ("value", "encoded"),
    [(0, b"\x00"), (-1, b"\x01"), (1, b"\x02"), (-2, b"\x03"), (63, b"\x7e"), (-64, b"\x7f"), (64, b"\x80\x01"),
     (300, b"\xd8\x04"), (2**31 - 1, b"\xfe\xff\xff\xff\x0f"), (-(2**31), b"\xff\xff\xff\xff\x0f")],
)
def test_known_encodings(value: int, encoded: bytes) -> None:
    assert encode_varint(value) == encoded
    assert decode_varint(encoded, 0) == (value, len(encoded))
    assert size_of_varint(value) == len(encoded)


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_varlong_round_trip_and_kafka_python_agrees(value: int) -> None:
    data = encode_varint(value)
    assert decode_varlong(data + b"junk", 0) == (value, len(data))
    assert size_of_varint(value) == len(data)
    out = bytearray()
    kp_encode(value, out.append)
    assert bytes(out) == data
    assert kp_decode(data, 0) == (value, len(data))


@given(st.integers(min_value=-(2**31), max_value=2**31 - 1))
def test_varint_round_trip(value: int) -> None:
    data = encode_varint(value)
    assert decode_varint(data, 0) == (value, len(data))


def test_truncated_and_overlong_varints_raise() -> None:
    with pytest.raises(VarintError, match="runs past"):
        decode_varint(b"\x80\x80", 0)
    with pytest.raises(VarintError, match="runs past"):
        decode_varint(b"\x80\x80\x01", 0, end=2)
    with pytest.raises(VarintError, match="longer than 5 bytes"):
        decode_varint(b"\xff\xff\xff\xff\xff\x01", 0)
    with pytest.raises(VarintError, match="longer than 10 bytes"):
        decode_varlong(b"\xff" * 11, 0)


def test_int32_varint_drops_high_bits_like_java() -> None:
    # Five bytes carry 35 bits; Java keeps the low 32 before the zig-zag step.
    assert decode_varint(b"\xfe\xff\xff\xff\x7f", 0)[0] == 2**31 - 1


def test_encode_rejects_out_of_range() -> None:
    with pytest.raises(OverflowError):
        encode_varint(2**63)
