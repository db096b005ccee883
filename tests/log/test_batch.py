"""The data model: field names the dump-log printer relies on, control markers, sequence wrapping."""

from __future__ import annotations

import dataclasses
import struct

import pytest

from groupctl.log.batch import Batch, Record, control_marker, increment_sequence

BATCH_FIELDS = [
    "base_offset", "last_offset", "count", "base_sequence", "last_sequence", "producer_id", "producer_epoch",
    "partition_leader_epoch", "is_transactional", "is_control", "delete_horizon_ms", "position", "size", "magic",
    "compression", "timestamp_type", "max_timestamp", "crc", "crc_valid", "records",
]
RECORD_FIELDS = ["offset", "timestamp", "key", "value", "headers", "sequence", "key_size", "value_size", "crc",
                 "crc_valid"]


def test_field_names_and_order() -> None:
    assert [f.name for f in dataclasses.fields(Batch)] == BATCH_FIELDS
    assert [f.name for f in dataclasses.fields(Record)] == RECORD_FIELDS
    assert not hasattr(Batch(*range(20)), "__dict__")  # slots


def _control(key: bytes | None, value: bytes | None) -> Record:
    return Record(0, 0, key, value, [], -1, -1 if key is None else len(key), -1 if value is None else len(value))


@pytest.mark.parametrize(("ctype", "name"), [(0, "ABORT"), (1, "COMMIT")])
def test_end_transaction_markers(ctype: int, name: str) -> None:
    rec = _control(struct.pack(">hh", 0, ctype), struct.pack(">hi", 0, 17))
    assert control_marker(rec) == (name, 17)


def test_newer_versions_are_read_as_the_highest_known() -> None:
    rec = _control(struct.pack(">hh", 3, 1) + b"extra", struct.pack(">hi", 2, -5) + b"tagged")
    assert control_marker(rec) == ("COMMIT", -5)


@pytest.mark.parametrize(
    ("ctype", "name"),
    [(2, "LEADER_CHANGE"), (3, "SNAPSHOT_HEADER"), (4, "SNAPSHOT_FOOTER"), (5, "KRAFT_VERSION"),
     (6, "KRAFT_VOTERS"), (99, "UNKNOWN"), (-1, "UNKNOWN")],
)
def test_other_control_types_give_their_name(ctype: int, name: str) -> None:
    assert control_marker(_control(struct.pack(">hh", 0, ctype), b"whatever")) == name


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (None, struct.pack(">hi", 0, 1)),
        (b"\x00\x00\x00", struct.pack(">hi", 0, 1)),
        (struct.pack(">hh", -1, 1), struct.pack(">hi", 0, 1)),  # negative key version: corruption
        (struct.pack(">hh", 0, 1), None),
        (struct.pack(">hh", 0, 0), b"\x00\x00\x00"),
        (struct.pack(">hh", 0, 0), struct.pack(">hi", -3, 1)),
    ],
)
def test_unreadable_markers_give_none(key: bytes | None, value: bytes | None) -> None:
    assert control_marker(_control(key, value)) is None


@pytest.mark.parametrize(
    ("base", "delta", "expected"),
    [(0, 5, 5), (2**31 - 1, 0, 2**31 - 1), (2**31 - 1, 1, 0), (2**31 - 3, 5, 2), (100, 2**31 - 1, 99)],
)
def test_increment_sequence_wraps_like_kafka(base: int, delta: int, expected: int) -> None:
    assert increment_sequence(base, delta) == expected
