"""The offsets CSV of `kafka-consumer-groups.sh --reset-offsets --export`, written and read.

Kafka's tool writes no header: `topic,partition,offset` per line for one group, and
`group,topic,partition,offset` when several groups are reset at once; `--from-file` reads the
same. groupctl writes exactly that, so files from either tool feed the other.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from groupctl.errors import UsageError
from groupctl.model import OffsetReset, TopicPartition
from groupctl.small_files import read_small_text

__all__ = ["export_csv", "read_plan"]


def export_csv(rows: Iterable[OffsetReset], several_groups: bool) -> str:
    """The plan's new offsets as Kafka's tool exports them (failed rows have no new offset to export)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for r in rows:
        if r.new_offset is None:
            continue
        fields = [r.topic, r.partition, r.new_offset]
        writer.writerow([r.group_id, *fields] if several_groups else fields)
    return out.getvalue()


#: Kafka's widths: a partition index is an int32, an offset an int64.
_MAX = {"partition": 2**31 - 1, "offset": 2**63 - 1}


def _number(value: str, what: str, where: str) -> int:
    try:
        number = int(value.strip())
    except ValueError:
        raise UsageError(f"{where}: {what} '{value}' is not a whole number; each line is topic,partition,offset "
                         "or group,topic,partition,offset") from None
    if number < 0:
        raise UsageError(f"{where}: {what} {number} is negative")
    if number > _MAX[what]:
        raise UsageError(f"{where}: {what} {number} is over {_MAX[what]}, the largest Kafka's {what} field holds")
    return number


def read_plan(path: Path, groups: list[str]) -> dict[str, dict[TopicPartition, int]]:
    """group -> partition -> offset from a plan file; a 3-field line applies to every group named.

    A 4-field line naming a group that is not among `groups` is a usage error: Kafka's tool would
    silently reset only the groups given, and a file meant for other groups is likely a mistake. So are
    two lines for one partition (of one group) and a file mixing 3- and 4-field lines: Kafka's tool
    keeps the last of the two, and reads every line by the first line's layout, so such a file (two
    plans pasted together, most likely) would reset something other than what it seems to say. A
    UTF-8 byte order mark, which spreadsheets put before a CSV they save, is dropped.
    """
    try:
        text = read_small_text(path, "plan file").removeprefix("\ufeff")
    except FileNotFoundError:
        raise UsageError(f"plan file '{path}' does not exist; give a CSV written by --export") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read plan file '{path}': {exc}") from None
    plan: dict[str, dict[TopicPartition, int]] = {g: {} for g in groups}
    first_seen: dict[tuple[str | None, TopicPartition], int] = {}
    layout: tuple[int, int] | None = None  # (fields, line) of the first line with offsets
    reader = csv.reader(io.StringIO(text))
    next_starts = 1
    for fields in reader:  # a quoted field may span lines: `number` is the line the record starts on
        number, next_starts = next_starts, reader.line_num + 1
        if not fields or all(not f.strip() for f in fields):
            continue
        where = f"{path}, line {number}"
        if len(fields) not in (3, 4):
            raise UsageError(f"{where}: {len(fields)} fields; each line is topic,partition,offset or "
                             "group,topic,partition,offset (as kafka-consumer-groups.sh --export writes)")
        if layout is None:
            layout = (len(fields), number)
        elif layout[0] != len(fields):
            raise UsageError(f"{where}: {len(fields)} fields after {layout[0]}-field lines (from line {layout[1]}); "
                             "a plan is all topic,partition,offset or all group,topic,partition,offset lines")
        if len(fields) == 3:
            group: str | None = None
            targets, (topic, partition, offset) = groups, fields
        else:
            group, topic, partition, offset = fields
            if group not in plan:
                raise UsageError(f"{where}: group '{group}' is not among the groups named ({', '.join(groups)}); "
                                 "name it too, or drop its lines")
            targets = [group]
        tp = TopicPartition(topic.strip(), _number(partition, "partition", where))
        if not tp.topic:
            raise UsageError(f"{where}: the topic is empty")
        value = _number(offset, "offset", where)
        seen = first_seen.setdefault((group, tp), number)
        if seen != number:
            of = f" of group '{group}'" if group is not None else ""
            raise UsageError(f"{where}: {tp.topic}-{tp.partition}{of} is planned twice (first on line {seen}); "
                             "keep one line for it")
        for g in targets:
            plan[g][tp] = value
    if not any(plan.values()):
        raise UsageError(f"plan file '{path}' holds no offsets")
    return plan
