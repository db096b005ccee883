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


# -- fitting the terminal ---------------------------------------------------------------------------

FIT_COLUMNS = [Column("group", "GROUP"), Column("n", "N"), Column("note", "NOTE", free=True)]
FIT_ROWS = [{"group": "payments-app", "n": 12345, "note": "the committed offset went back from 8 to 0 " * 3},
            {"group": "orders", "n": 7, "note": "short"}]


def _lines(rows, columns, **kw) -> list[str]:
    out = io.StringIO()
    write_table(rows, columns, out=out, **kw)
    return out.getvalue().splitlines()


def test_free_text_is_cut_with_an_ellipsis_and_ids_and_numbers_stay_whole():
    lines = _lines(FIT_ROWS, FIT_COLUMNS, width=50)
    assert max(len(line) for line in lines) == 50
    assert lines[1].startswith("payments-app  12345  the committed") and lines[1].endswith("…")
    assert lines[2].split() == ["orders", "7", "short"]
    assert _lines(FIT_ROWS, FIT_COLUMNS) == _lines(FIT_ROWS, FIT_COLUMNS, width=500)  # room: nothing cut
    assert not any("…" in line for line in _lines(FIT_ROWS, FIT_COLUMNS))


def test_the_widest_free_column_gives_first():
    columns = [Column("a", "A", free=True), Column("b", "B", free=True)]
    rows = [{"a": "x" * 30, "b": "y" * 100}]
    line = _lines(rows, columns, width=100)[1]
    assert len(line) == 100
    assert line.startswith("x" * 30 + "  y") and line.endswith("y…")  # the narrow one is not touched
    line = _lines(rows, columns, width=50)[1]
    assert len(line) == 50 and line.count("…") == 2  # both cut, but neither below FREE_MIN


def test_free_text_after_the_sample_is_cut_to_the_rest_of_the_line():
    rows = [{"group": "g", "n": 1, "note": "x"}, {"group": "g", "n": 2, "note": "z" * 300}]
    lines = _lines(rows, FIT_COLUMNS, width=40, sample=1)
    assert len(lines[2]) == 40 and lines[2].endswith("z…")


def test_rows_become_blocks_when_identifiers_alone_are_too_wide():
    rows = [{"group": "g" * 70, "n": 1, "note": "a note " * 20}, {"group": "short", "n": 2, "note": "ok"}]
    lines = _lines(rows, FIT_COLUMNS, width=40)
    assert lines[0] == "-[ 1 ]" + "-" * 34
    assert max(len(line) for line in lines) <= 40
    assert lines[1].startswith("GROUP  g") and lines[2].startswith("       g")
    assert "".join(line[7:] for line in lines[1:4]) == "g" * 70  # folded over lines, whole
    assert lines[4] == "N      1"
    assert lines[5].startswith("NOTE   a note") and lines[5].endswith("…")
    assert lines[6:] == ["-[ 2 ]" + "-" * 34, "GROUP  short", "N      2", "NOTE   ok"]


def test_wide_shortens_nothing_and_extra_columns_are_fitted():
    wide = _lines(FIT_ROWS, FIT_COLUMNS, wide=True, width=30)
    assert "…" not in "".join(wide) and FIT_ROWS[0]["note"].rstrip() in wide[1]
    columns = [*FIT_COLUMNS[:2], Column("note", "NOTE", wide_only=True, free=True)]
    assert _lines(FIT_ROWS, columns, width=50)[0].split() == ["GROUP", "N"]
    extra = _lines(FIT_ROWS, columns, extra=True, width=50)
    assert extra[0].split() == ["GROUP", "N", "NOTE"] and max(map(len, extra)) == 50


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_width_is_the_terminals_and_pipes_get_everything(monkeypatch):
    monkeypatch.setenv("COLUMNS", "45")
    tty = _Terminal()
    write_table(FIT_ROWS, FIT_COLUMNS, out=tty)
    assert max(len(line) for line in tty.getvalue().splitlines()) == 45
    assert not any("…" in line for line in _lines(FIT_ROWS, FIT_COLUMNS))  # a pipe or a file: whole


def test_columns_are_aligned_in_terminal_cells():
    rows = [{"group": "注文", "n": 1, "note": "x"}, {"group": "orders", "n": 2, "note": "y"}]
    lines = _lines(rows, FIT_COLUMNS)
    assert lines[1] == "注文    1  x" and lines[2] == "orders  2  y"


def test_times_are_iso_in_tables_and_epoch_ms_elsewhere():
    from groupctl.output import iso_ms

    assert iso_ms(1767225600123) == "2026-01-01T00:00:00.123Z"
    assert iso_ms(0) == "1970-01-01T00:00:00.000Z"
    assert iso_ms(-1) == "-1"  # Kafka's "no timestamp" is not a moment in 1969
    assert iso_ms(2**63 - 1) == str(2**63 - 1)
    columns = [Column("group", "GROUP"), Column("at", "AT", timestamp=True)]
    rows = [{"group": "g", "at": 1767225600123}, {"group": "h", "at": None}]
    assert _lines(rows, columns) == ["GROUP  AT", "g      2026-01-01T00:00:00.123Z", "h      -"]
    out = io.StringIO()
    render("Thing", rows, columns, OutputFormat.csv, out=out)
    assert out.getvalue().splitlines() == ["group,at", "g,1767225600123", "h,"]


def test_prose_under_a_table_wraps_between_words_on_a_terminal(monkeypatch):
    from groupctl.output import write_prose

    text = "^topic*: glob-star: `topic*` is not a glob: `*` repeats only 'c', so write `^topic.*` instead"
    monkeypatch.setenv("COLUMNS", "40")
    tty = _Terminal()
    write_prose(text, out=tty)
    lines = tty.getvalue().splitlines()
    assert len(lines) > 2 and all(len(line) <= 40 for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == text
    piped = io.StringIO()
    write_prose(text, out=piped)
    assert piped.getvalue() == text + "\n"
