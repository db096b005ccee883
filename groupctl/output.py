"""Rendering of command results: tables for people, one JSON/YAML envelope and CSV for scripts.

Commands hand over rows (dicts) and a kind; this module decides how they look, so every command
renders the same way. Data goes to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from functools import lru_cache
from itertools import chain, islice
from typing import Any, TextIO

from groupctl.cells import cells, cut, fold, pad

API_VERSION = "groupctl/v1"
#: A free-text column is cut down to this many cells (or its header's width) and no further: a table
#: that still does not fit is shown one record per block instead (see write_table).
FREE_MIN = 20


class OutputFormat(str, Enum):
    """What `--output` accepts on every command that shows data."""

    table = "table"
    wide = "wide"
    json = "json"
    yaml = "yaml"
    csv = "csv"


@dataclass(frozen=True)
class Column:
    """A table column: the row key it shows, its header, and whether it only shows in `wide`.

    `text`, when given, makes the table cell from the whole row, verbatim (a blank cell is ""): for
    cells people read differently from the value scripts get (CSV keeps `row[key]`, JSON the items).
    `free` marks free text (explanations, values, metadata, assignments): on a terminal too narrow for
    the table it is cut with "…" first; other columns hold what people copy (ids, names) and numbers,
    which are never cut. `timestamp` shows epoch milliseconds as ISO-8601 UTC (tables only).
    """

    key: str
    header: str
    wide_only: bool = False
    text: Callable[[dict[str, Any]], str] | None = None
    free: bool = False
    timestamp: bool = False


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def to_item(obj: Any) -> Any:
    """A model object as JSON/YAML data: dataclasses become objects with camelCase keys (the
    envelope's convention, as in Kafka's own JSON), recursively; other values pass through."""
    if is_dataclass(obj) and not isinstance(obj, type):
        return {_camel(f.name): to_item(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, dict):
        return {k: to_item(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_item(v) for v in obj]
    return obj


def envelope(kind: str, items: list[Any]) -> dict[str, Any]:
    """The one versioned JSON/YAML shape every command uses."""
    return {"apiVersion": API_VERSION, "kind": kind, "items": items}


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if value == "":
        return '""'  # an empty id (Kafka allows group "") must not leave a hole in the columns
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}"  # tables are for reading; json and csv keep every digit
    if isinstance(value, (list, tuple)):
        return ",".join(_cell(v) for v in value) or "-"
    return str(value)


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_csv_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"), sort_keys=False)
    return str(value)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@lru_cache(maxsize=4096)
def _iso_second(seconds: int) -> str | None:
    """The date and time of one second (records come in runs sharing one: formatting it once per run
    keeps a million-row table from costing seconds more); None past year 9999."""
    try:
        return f"{_EPOCH + timedelta(seconds=seconds):%Y-%m-%dT%H:%M:%S}"
    except OverflowError:
        return None


def iso_ms(ms: int) -> str:
    """Epoch milliseconds as ISO-8601 UTC with milliseconds, `2026-11-27T08:00:00.123Z`: the one form
    tables show times in. Kafka's -1 (no timestamp) and values past year 9999 stay numbers."""
    if ms < 0:
        return str(ms)
    second = _iso_second(ms // 1000)
    return str(ms) if second is None else f"{second}.{ms % 1000:03d}Z"


def _time_cell(value: Any) -> str:
    return iso_ms(value) if type(value) is int else _cell(value)


def _shower(column: Column) -> Callable[[dict[str, Any]], str]:
    if column.text is not None:
        return column.text
    key = column.key
    if column.timestamp:
        return lambda row: _time_cell(row.get(key))
    return lambda row: _cell(row.get(key))


def terminal_width(out: TextIO) -> int | None:
    """The width to fit a table to: COLUMNS or the terminal's width when `out` is a terminal; None
    (nothing shortened) for pipes and files, where scripts expect every character."""
    try:
        if not out.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(out.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        return None


@dataclass(frozen=True)
class _Fit:
    """How a table fits its width: each column's width and the cells a free column's cell may take;
    `records` when even cut it is too wide (then each row is a block of `HEADER  value` lines)."""

    widths: list[int]
    limits: list[int | None]
    records: bool = False


def _water_fill(natural: list[int], floors: list[int], budget: int) -> list[int]:
    """Widths for free columns within `budget` cells: the widest are cut first, none below its floor."""
    if sum(natural) <= budget:
        return natural
    lo, hi = 0, max(natural)
    while lo < hi:  # the largest cap whose widths still fit the budget
        cap = (lo + hi + 1) // 2
        if sum(max(f, min(n, cap)) for n, f in zip(natural, floors, strict=True)) <= budget:
            lo = cap
        else:
            hi = cap - 1
    widths = [max(f, min(n, lo)) for n, f in zip(natural, floors, strict=True)]
    spare = budget - sum(widths)
    for i, n in enumerate(natural):
        if spare <= 0:
            break
        if widths[i] < n:
            widths[i] += 1
            spare -= 1
    return widths


def _fit(cols: Sequence[Column], natural: list[int], width: int | None) -> _Fit:
    """Cut free-text columns (the widest first) until the table fits `width`; identifiers and numbers
    keep their width, so when cutting free text down to FREE_MIN is not enough the rows become blocks."""
    n = len(cols)
    if width is None:
        return _Fit(natural, [None] * n)
    gaps = 2 * (n - 1)
    free = [i for i, c in enumerate(cols) if c.free]
    fixed = gaps + sum(w for i, w in enumerate(natural) if not cols[i].free)
    floors = [min(natural[i], max(cells(cols[i].header), FREE_MIN)) for i in free]
    if fixed + sum(floors) > width:
        return _Fit(natural, [None] * n, records=True)
    widths = list(natural)
    for i, w in zip(free, _water_fill([natural[i] for i in free], floors, width - fixed), strict=True):
        widths[i] = w
    limits: list[int | None] = [widths[i] if cols[i].free else None for i in range(n)]
    if cols[-1].free:  # a last column has the rest of the line, for longer cells after the sample
        limits[-1] = width - gaps - sum(widths[:-1])
    return _Fit(widths, limits)


def _write_records(rows: Iterable[list[str]], cols: Sequence[Column], natural: list[int], width: int,
                   out: TextIO) -> int:
    """Each row as a block of `HEADER  value` lines under a `-[ N ]---` rule (psql's expanded display):
    free text cut to the line, identifiers folded onto more lines but whole."""
    label = max(cells(c.header) for c in cols)
    room = max(width - label - 2, 1)
    span = min(width, label + 2 + max(natural))
    labels = [pad(c.header, label) + "  " for c in cols]
    more = " " * (label + 2)
    free = [c.free for c in cols]
    count = 0
    for row in rows:
        count += 1
        rule = f"-[ {count} ]"
        lines = [rule + "-" * max(span - len(rule), 0)]
        for i, text in enumerate(row):
            if cells(text) <= room:
                lines.append(labels[i] + text)
            elif free[i]:
                lines.append(labels[i] + cut(text, room))
            else:
                first, *rest = fold(text, room)
                lines.append(labels[i] + first)
                lines.extend(more + piece for piece in rest)
        out.write("\n".join(lines) + "\n")
    return count


def write_table(
    rows: Iterable[dict[str, Any]],
    columns: Sequence[Column],
    *,
    wide: bool = False,
    extra: bool = False,
    width: int | None = None,
    out: TextIO | None = None,
    sample: int = 1000,
) -> int:
    """Aligned columns with a header line, streamed, fitted to the terminal.

    `wide` shows every column and shortens nothing; `extra` shows every column, fitted. `width` is the
    line width to fit (default: the terminal's when `out` is one; pipes and files get everything).
    Fitting cuts free-text columns, the widest first; when identifiers and numbers alone are too wide,
    each row becomes a block of `HEADER  value` lines instead, so nothing anyone copies is cut.
    Widths come from the first `sample` rows so that millions of rows never sit in memory; a later,
    longer cell just pushes its line out (free text is cut to its column instead, when fitting).
    Returns the number of rows written.
    """
    out = out or sys.stdout
    cols = [c for c in columns if wide or extra or not c.wide_only]
    if wide:
        width = None
    elif width is None:
        width = terminal_width(out)
    it: Iterator[dict[str, Any]] = iter(rows)
    shown = [_shower(c) for c in cols]
    head = [[show(r) for show in shown] for r in islice(it, sample)]
    natural = [cells(c.header) for c in cols]
    for row in head:
        for i, cell in enumerate(row):
            w = cells(cell)
            if w > natural[i]:
                natural[i] = w
    fit = _fit(cols, natural, width)
    if fit.records and width is not None and head:
        rest = ([show(r) for show in shown] for r in it)
        return _write_records(chain(head, rest), cols, natural, width, out)
    widths, limits = fit.widths, fit.limits
    last = len(cols) - 1
    cuts = [(i, limit) for i, limit in enumerate(limits) if limit is not None]

    def line(row: list[str]) -> str:
        for i, limit in cuts:
            row[i] = cut(row[i], limit)
        return "  ".join([*map(pad, row[:last], widths), row[last]])

    out.write(line([c.header for c in cols]) + "\n")
    count = 0
    for row in head:
        out.write(line(row) + "\n")
        count += 1
    for r in it:
        out.write(line([show(r) for show in shown]) + "\n")
        count += 1
    return count


def write_prose(text: str, *, out: TextIO | None = None) -> None:
    """A line of prose under a table (a note, a warning's text): on a terminal, wrapped between words to
    its width with the rest indented, instead of broken mid-word by the terminal; elsewhere as it is."""
    out = out or sys.stdout
    width = terminal_width(out)
    if width is None or cells(text) <= width:
        out.write(text + "\n")
        return
    import textwrap

    out.write("\n".join(textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)) + "\n")


def write_csv(rows: Iterable[dict[str, Any]], columns: Sequence[Column], *, out: TextIO | None = None) -> int:
    """RFC 4180 CSV with every column (wide ones included), header first."""
    out = out or sys.stdout
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c.key for c in columns])
    count = 0
    for r in rows:
        writer.writerow([_csv_cell(r.get(c.key)) for c in columns])
        count += 1
    return count


def write_json(kind: str, items: list[Any], *, out: TextIO | None = None) -> None:
    """The envelope as indented JSON (readable, and `jq` reads it)."""
    out = out or sys.stdout
    json.dump(envelope(kind, items), out, indent=2, ensure_ascii=False)
    out.write("\n")


def write_yaml(kind: str, items: list[Any], *, out: TextIO | None = None) -> None:
    """The envelope as YAML; yaml is imported only here because it costs start-up time."""
    import yaml

    class Dumper(yaml.SafeDumper):
        """Safe YAML that writes str subclasses (the model's StrEnum states) as the strings they are."""

    Dumper.add_multi_representer(str, Dumper.represent_str)
    out = out or sys.stdout
    yaml.dump(envelope(kind, items), out, Dumper=Dumper, sort_keys=False, allow_unicode=True)


def render(
    kind: str,
    rows: Iterable[dict[str, Any]],
    columns: Sequence[Column],
    fmt: OutputFormat,
    *,
    items: Iterable[Any] | None = None,
    out: TextIO | None = None,
    extra: bool = False,
) -> int:
    """Render rows in the chosen format; `items` overrides what JSON/YAML carry (richer objects);
    `extra` puts wide's columns in the table, still fitted to the terminal.

    Returns how many rows or items were written.
    """
    if fmt in (OutputFormat.table, OutputFormat.wide):
        return write_table(rows, columns, wide=fmt is OutputFormat.wide, extra=extra, out=out)
    if fmt is OutputFormat.csv:
        return write_csv(rows, columns, out=out)
    data = list(items if items is not None else rows)
    if fmt is OutputFormat.json:
        write_json(kind, data, out=out)
    else:
        write_yaml(kind, data, out=out)
    return len(data)
