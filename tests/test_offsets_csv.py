"""Kafka's reset-plan CSV: written as `kafka-consumer-groups.sh --export` writes it, read as its
--from-file reads it (no header; the group column only for several groups)."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.errors import UsageError
from groupctl.model import OffsetReset, TopicPartition
from groupctl.offsets_csv import export_csv, read_plan


def _row(group: str, partition: int, new: int | None, outcome: str = "reset") -> OffsetReset:
    return OffsetReset(group, "orders", partition, 1, new, 0, 100, outcome)


def test_export_of_one_group_and_of_several():
    rows = [_row("a", 0, 5), _row("a", 1, None, "NO_CURRENT_OFFSET"), _row("b", 0, 7)]
    assert export_csv(rows[:2], several_groups=False) == "orders,0,5\n"
    assert export_csv(rows, several_groups=True) == "a,orders,0,5\nb,orders,0,7\n"


def test_reading_kafkas_files(tmp_path: Path):
    one = tmp_path / "one.csv"
    one.write_text("orders,0,5\norders,1,6\n\n")  # Kafka's tool prints one more newline after the CSV
    assert read_plan(one, ["a"]) == {"a": {TopicPartition("orders", 0): 5, TopicPartition("orders", 1): 6}}
    several = tmp_path / "several.csv"
    several.write_text("a,orders,0,5\r\nb,orders,0,7\r\n")
    assert read_plan(several, ["a", "b"]) == {"a": {TopicPartition("orders", 0): 5},
                                              "b": {TopicPartition("orders", 0): 7}}


def test_a_three_field_file_applies_to_every_group_named(tmp_path: Path):
    one = tmp_path / "one.csv"
    one.write_text("orders,0,5\n")
    assert read_plan(one, ["a", "b"]) == {"a": {TopicPartition("orders", 0): 5}, "b": {TopicPartition("orders", 0): 5}}


@pytest.mark.parametrize("text, said", [
    ("orders,0\n", "2 fields"),
    ("orders,x,5\n", "partition 'x' is not a whole number"),
    ("orders,0,-5\n", "offset -5 is negative"),
    ("c,orders,0,5\n", "group 'c' is not among the groups named"),
    (",0,5\n", "the topic is empty"),
    ("\n\n", "holds no offsets"),
])
def test_bad_files_are_usage_errors_naming_the_line(tmp_path: Path, text, said):
    plan = tmp_path / "plan.csv"
    plan.write_text(text)
    with pytest.raises(UsageError, match=said):
        read_plan(plan, ["a"])


def test_a_missing_or_unreadable_file(tmp_path: Path):
    with pytest.raises(UsageError, match="does not exist"):
        read_plan(tmp_path / "nope.csv", ["a"])
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UsageError, match="cannot read plan file"):
        read_plan(binary, ["a"])
