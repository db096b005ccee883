"""Rendering: aligned tables that stream, the versioned envelope, CSV."""

from __future__ import annotations

import io
import json

import yaml

from groupctl.output import Column, OutputFormat, render, write_table

COLUMNS = [Column("group", "GROUP"), Column("n", "N"), Column("extra", "EXTRA", wide_only=True)]
ROWS = [{"group": "a", "n": 0.08195592588, "extra": "x"}, {"group": "", "n": None, "extra": ["p", "q"]},
        {"group": "long-group-name", "n": True, "extra": None}]


def test_table_aligns_and_marks_missing_and_empty():
    out = io.StringIO()
    assert write_table(ROWS, COLUMNS, out=out) == 3
    assert out.getvalue().splitlines() == [
        "GROUP            N",
        "a                0.08196",
        '""               -',
        "long-group-name  yes",
    ]


def test_wide_shows_wide_columns():
    out = io.StringIO()
    write_table(ROWS, COLUMNS, wide=True, out=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["GROUP", "N", "EXTRA"]
    assert lines[2].split() == ['""', "-", "p,q"]


def test_table_streams_past_the_sample():
    rows = ({"group": "g" * (1 if i < 5 else 20), "n": i} for i in range(10))
    out = io.StringIO()
    assert write_table(rows, COLUMNS[:2], out=out, sample=5) == 10
    lines = out.getvalue().splitlines()
    assert lines[1] == "g      0"
    assert lines[-1] == "g" * 20 + "  9"


def test_json_and_yaml_envelopes():
    out = io.StringIO()
    render("Thing", ROWS, COLUMNS, OutputFormat.json, out=out)
    assert json.loads(out.getvalue()) == {"apiVersion": "groupctl/v1", "kind": "Thing", "items": ROWS}
    out = io.StringIO()
    render("Thing", ROWS, COLUMNS, OutputFormat.yaml, items=[{"k": 1}], out=out)
    assert yaml.safe_load(out.getvalue()) == {"apiVersion": "groupctl/v1", "kind": "Thing", "items": [{"k": 1}]}


def test_csv_has_every_column():
    out = io.StringIO()
    render("Thing", ROWS, COLUMNS, OutputFormat.csv, out=out)
    assert out.getvalue().splitlines() == ["group,n,extra", "a,0.08195592588,x", ',,"p,q"', "long-group-name,true,"]


def test_to_item_camel_cases_dataclasses():
    from groupctl.model import CommittedOffset, TopicPartition
    from groupctl.output import to_item

    assert to_item([CommittedOffset("t", 1, 5, leader_epoch=2)]) == [{
        "topic": "t", "partition": 1, "offset": 5, "metadata": "", "leaderEpoch": 2, "commitTimestamp": None,
        "expireTimestamp": None, "logEndOffset": None,
    }]
    assert to_item({"k": (TopicPartition("a", 0),)}) == {"k": [{"topic": "a", "partition": 0}]}


def test_a_column_may_show_a_cell_of_its_own_while_csv_keeps_the_value():
    def flag(row: dict) -> str:
        return {True: "yes", False: "-"}.get(row["flag"], "")

    columns = [Column("group", "GROUP"), Column("flag", "FLAG", text=flag)]
    rows = [{"group": "a", "flag": True}, {"group": "b", "flag": False}, {"group": "c", "flag": None}]
    out = io.StringIO()
    write_table(rows, columns, out=out)
    assert out.getvalue().splitlines() == ["GROUP  FLAG", "a      yes", "b      -", "c      "]
    out = io.StringIO()
    render("Thing", rows, columns, OutputFormat.csv, out=out)
    assert out.getvalue().splitlines() == ["group,flag", "a,true", "b,false", "c,"]
