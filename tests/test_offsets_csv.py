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


@pytest.mark.parametrize("text, groups, said", [
    ("orders,0,5\norders,1,6\norders,0,7\n", ["a"], r"line 3: orders-0 is planned twice \(first on line 1\)"),
    ("a,orders,0,5\nb,orders,0,5\na,orders,0,6\n", ["a", "b"],
     r"line 3: orders-0 of group 'a' is planned twice \(first on line 1\)"),
    ("orders,0,5\na,orders,1,6\n", ["a"], r"line 2: 4 fields after 3-field lines"),
    ("a,orders,1,6\norders,0,5\n", ["a"], r"line 2: 3 fields after 4-field lines"),
    ("orders,2147483648,5\n", ["a"], r"line 1: partition 2147483648 is over 2147483647"),
    ("orders,0,9223372036854775808\n", ["a"], r"line 1: offset 9223372036854775808 is over 9223372036854775807"),
])
def test_plans_kafka_would_read_ambiguously_are_refused_with_the_line(tmp_path: Path, text, groups, said):
    """Kafka's tool keeps the last of two rows for one partition, and reads every line by the first line's
    layout: a plan that says two things, or mixes layouts, is most likely two files pasted together."""
    plan = tmp_path / "plan.csv"
    plan.write_text(text)
    with pytest.raises(UsageError, match=said):
        read_plan(plan, groups)


def test_the_same_partition_for_two_groups_is_no_duplicate(tmp_path: Path):
    plan = tmp_path / "plan.csv"
    plan.write_text("a,orders,0,5\nb,orders,0,7\n")
    assert read_plan(plan, ["a", "b"]) == {"a": {TopicPartition("orders", 0): 5}, "b": {TopicPartition("orders", 0): 7}}


def test_a_byte_order_mark_from_a_spreadsheet_is_stripped(tmp_path: Path):
    plan = tmp_path / "plan.csv"
    plan.write_bytes("orders,0,5\r\norders,1,6\r\n".encode("utf-8-sig"))
    assert read_plan(plan, ["a"]) == {"a": {TopicPartition("orders", 0): 5, TopicPartition("orders", 1): 6}}


def test_line_numbers_count_lines_not_records(tmp_path: Path):
    plan = tmp_path / "plan.csv"
    plan.write_text('"ord\ners",0,5\norders,x,6\n')
    with pytest.raises(UsageError, match="line 3: partition 'x'"):
        read_plan(plan, ["a"])
