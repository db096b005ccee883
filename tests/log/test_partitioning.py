"""Java String.hashCode and Kafka's Utils.abs, checked against values Java itself gives."""

from __future__ import annotations

import pytest

from groupctl.log.partitioning import java_string_hash, kafka_abs, partition_for


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("a", 97),
        ("hello", 99162322),
        ("Aa", 2112),
        ("BB", 2112),
        ("polygenelubricants", -(1 << 31)),
        ("\U0001f600", 0xD83D * 31 + 0xDE00),
        ("é", 0xE9),
    ],
)
def test_java_string_hash(text, expected):
    assert java_string_hash(text) == expected


def test_utils_abs_maps_min_value_to_zero():
    assert kafka_abs(-(1 << 31)) == 0
    assert kafka_abs(-5) == 5


def test_partition_for():
    assert partition_for("polygenelubricants") == 0
    assert partition_for("a") == 97 % 50
    assert partition_for("hello", 7) == 99162322 % 7
    with pytest.raises(ValueError):
        partition_for("g", 0)
