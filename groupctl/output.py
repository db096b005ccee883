"""Rendering of command results: tables for people, one JSON/YAML envelope and CSV for scripts.

Commands hand over rows (dicts) and a kind; this module decides how they look, so every command
renders the same way. Data goes to stdout, diagnostics to stderr.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from itertools import islice
from typing import Any, TextIO

API_VERSION = "groupctl/v1"


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
    """

    key: str
    header: str
    wide_only: bool = False
    text: Callable[[dict[str, Any]], str] | None = None


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


def _getter(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: _cell(row.get(key))


def write_table(
    rows: Iterable[dict[str, Any]],
    columns: Sequence[Column],
    *,
    wide: bool = False,
    out: TextIO | None = None,
    sample: int = 1000,
) -> int:
    """Plain aligned columns with a header line, streamed.

    Widths come from the first `sample` rows so that millions of rows never sit in memory;
    a later, longer cell just pushes its line out. Returns the number of rows written.
    """
    out = out or sys.stdout
    cols = [c for c in columns if wide or not c.wide_only]
    it: Iterator[dict[str, Any]] = iter(rows)
    shown = [c.text if c.text is not None else _getter(c.key) for c in cols]
    head = [[show(r) for show in shown] for r in islice(it, sample)]
    widths = [len(c.header) for c in cols]
    for cells in head:
        for i, cell in enumerate(cells):
            if len(cell) > widths[i]:
                widths[i] = len(cell)

    def line(cells: list[str]) -> str:
        last = len(cells) - 1
        return "  ".join(cell if i == last else cell.ljust(widths[i]) for i, cell in enumerate(cells))

    out.write(line([c.header for c in cols]) + "\n")
    count = 0
    for cells in head:
        out.write(line(cells) + "\n")
        count += 1
    for r in it:
        out.write(line([show(r) for show in shown]) + "\n")
        count += 1
    return count


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
) -> int:
    """Render rows in the chosen format; `items` overrides what JSON/YAML carry (richer objects).

    Returns how many rows or items were written.
    """
    if fmt in (OutputFormat.table, OutputFormat.wide):
        return write_table(rows, columns, wide=fmt is OutputFormat.wide, out=out)
    if fmt is OutputFormat.csv:
        return write_csv(rows, columns, out=out)
    data = list(items if items is not None else rows)
    if fmt is OutputFormat.json:
        write_json(kind, data, out=out)
    else:
        write_yaml(kind, data, out=out)
    return len(data)
