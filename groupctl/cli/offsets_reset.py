"""`groupctl group offsets reset`: move a group's committed offsets, as kafka-consumer-groups.sh
--reset-offsets does, with groupctl's contract: a plan first, confirmation, --dry-run, a result per
partition, exit 3 when any partition or group failed.

Parsing, confirming and rendering only; the plan and the commit are `groupctl.offsets_reset`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer

from groupctl import offsets_reset as reset
from groupctl.cli import group_offsets
from groupctl.cli.cluster import ClusterOptions, with_cluster_options
from groupctl.cli.completion import complete_group_ids
from groupctl.cli.confirmed import plan_confirm_apply, require_someone_to_ask
from groupctl.cli.group_selection import GroupsOption, joined
from groupctl.cli.names import group_ids_callback
from groupctl.cli.options import OutputOption, kafka_int, output_format
from groupctl.errors import GroupctlError, PartialFailure, UsageError
from groupctl.model import OffsetReset
from groupctl.offsets_csv import export_csv, read_plan
from groupctl.output import Column, OutputFormat, render, to_item, write_table
from groupctl.plurals import counted, plural

RESET_COLUMNS = [
    Column("group", "GROUP"),
    Column("topic", "TOPIC"),
    Column("partition", "PARTITION"),
    Column("currentOffset", "CURRENT-OFFSET"),
    Column("newOffset", "NEW-OFFSET"),
    Column("logStart", "LOG-START"),
    Column("logEnd", "LOG-END"),
    Column("lagBefore", "LAG-BEFORE"),
    Column("lagAfter", "LAG-AFTER"),
    Column("result", "RESULT"),
    Column("note", "NOTE", free=True),
]


def _mode(
    earliest: bool, latest: bool, current: bool, offset: int | None, shift: int | None, when: str | None,
    duration: str | None, other: str | None, plan_file: Path | None,
) -> reset.ResetMode:
    given = [
        (earliest, "--to-earliest", lambda: reset.ResetMode("earliest")),
        (latest, "--to-latest", lambda: reset.ResetMode("latest")),
        (current, "--to-current", lambda: reset.ResetMode("current")),
        (offset is not None, "--to-offset", lambda: reset.ResetMode("offset", offset)),
        (shift is not None, "--shift-by", lambda: reset.ResetMode("shift", shift)),
        (when is not None, "--to-datetime", lambda: reset.ResetMode("time", reset.parse_datetime(when or ""))),
        (duration is not None, "--by-duration",
         lambda: reset.ResetMode("duration", reset.parse_duration_ms(duration or ""))),
        (other is not None, "--to-group", lambda: reset.ResetMode("group", other)),
        (plan_file is not None, "--from-file", lambda: reset.ResetMode("file")),
    ]
    chosen = [(name, make) for on, name, make in given if on]
    if len(chosen) != 1:
        names = ", ".join(name for _, name, _ in given)
        said = f" (given: {', '.join(n for n, _ in chosen)})" if chosen else ""
        raise UsageError(f"give exactly one of {names}{said}")
    if offset is not None and offset < 0:
        raise UsageError(f"--to-offset {offset} is negative; offsets start at 0")
    return chosen[0][1]()


def _row(r: OffsetReset) -> dict[str, Any]:
    return {"group": r.group_id, "topic": r.topic, "partition": r.partition, "currentOffset": r.current_offset,
            "newOffset": r.new_offset, "logStart": r.log_start, "logEnd": r.log_end, "lagBefore": r.lag_before,
            "lagAfter": r.lag_after, "result": r.outcome, "note": r.note}


def _item(r: OffsetReset, dry_run: bool) -> dict[str, Any]:
    item = to_item(r)
    item.update(lagBefore=r.lag_before, lagAfter=r.lag_after, failed=r.failed, dryRun=dry_run)
    return item


@group_offsets.app.command("reset")
@with_cluster_options
def reset_offsets(
    groups: list[str] = typer.Argument(None, metavar="GROUP", help="The groups whose offsets to reset.",
                                       callback=group_ids_callback,
                                       autocompletion=complete_group_ids),
    group_options: list[str] = GroupsOption,
    all_groups: bool = typer.Option(
        False, "--all-groups", help="Every consumer group (types classic and consumer), as "
        "kafka-consumer-groups.sh --reset-offsets --all-groups: groups with active members are refused, the others "
        "reset (exit 3 when some were refused).",
    ),
    to_earliest: bool = typer.Option(False, "--to-earliest", help="To the log start offset."),
    to_latest: bool = typer.Option(False, "--to-latest", help="To the log end offset."),
    to_current: bool = typer.Option(
        False, "--to-current", help="To the committed offset (the log end where there is none)."
    ),
    to_offset: int = typer.Option(None, "--to-offset", metavar="N", help="To offset N (clamped into the log).",
                                  callback=kafka_int("an offset")),
    shift_by: int = typer.Option(
        None, "--shift-by", metavar="N", help="Move the committed offset by N (negative: back), clamped.",
        callback=kafka_int("a shift of offsets (Kafka's --shift-by is a long)"),
    ),
    to_datetime: str = typer.Option(
        None, "--to-datetime", metavar="ISO8601",
        help="To the first record at or after this time: YYYY-MM-DDTHH:mm:SS.sss, optional zone (Z, +hh:mm); "
        "without one, UTC, as in Kafka's tool. A time after the last record gives the log end.",
    ),
    by_duration: str = typer.Option(
        None, "--by-duration", metavar="PnDTnHnMnS",
        help="To the first record at or after now minus this ISO-8601 duration (PT30M, P1DT12H).",
    ),
    to_group: str = typer.Option(
        None, "--to-group", metavar="OTHER", help="To the offsets group OTHER has committed (with --all-topics: "
        "every partition OTHER has).", callback=group_ids_callback, autocompletion=complete_group_ids,
    ),
    from_file: Path = typer.Option(
        None, "--from-file", metavar="PLAN.csv",
        help="To the offsets in a CSV as --export (or kafka-consumer-groups.sh --export) writes: "
        "topic,partition,offset, or group,topic,partition,offset.",
    ),
    topics: list[str] = typer.Option(
        None, "--topic", metavar="TOPIC[:P[,P...]]", help="The partitions to reset (repeatable); all of the "
        "topic's without :P.",
    ),
    all_topics: bool = typer.Option(
        False, "--all-topics", help="Every partition the group has committed offsets for."
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the plan, and change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    export: bool = typer.Option(
        False, "--export", help="Write the new offsets as kafka-consumer-groups.sh --export does (CSV, no header) "
        "instead of the table; feed it back with --from-file.",
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Reset the committed offsets of groups with no active members (Empty or Dead, or unknown to the coordinator).

    The plan shows, per partition, the committed offset, the new one, the log start and end, and
    the lag before and after; a new offset before the log start or after the log end is clamped to it, as
    Kafka's tool does, and the row says so. A group with active members is refused, naming them.
    Each group's new offsets are committed in one OffsetCommit, as the admin API does. Exit 3 when
    any group or partition failed while others were reset.
    """
    group_ids = joined(groups, group_options)
    if all_groups and group_ids:
        raise UsageError("give GROUP names (or --group) or --all-groups, not both")
    if not group_ids and not all_groups:
        raise UsageError("name the groups whose offsets to reset: GROUP... or --group GROUP, or --all-groups")
    if all_groups and from_file is not None:
        raise UsageError("--from-file names its own groups: drop --all-groups, and name the groups to reset")
    mode = _mode(to_earliest, to_latest, to_current, to_offset, shift_by, to_datetime, by_duration, to_group,
                 from_file)
    if from_file is not None and (topics or all_topics):
        raise UsageError("--from-file names its own partitions: drop --topic/--all-topics")
    if from_file is None and bool(topics) == all_topics:
        raise UsageError("name the partitions: --topic TOPIC[:P[,P...]] (repeatable) or --all-topics")
    if export and output is not None:
        raise UsageError("--export writes Kafka's CSV; drop -o/--output, or drop --export")
    if to_group is not None and to_group in group_ids:
        raise UsageError(f"--to-group '{to_group}' is one of the groups being reset; name another group")
    selectors = [reset.parse_selector(t) for t in topics or ()]
    plan_file = read_plan(from_file, group_ids) if from_file is not None else None
    require_someone_to_ask(yes, dry_run, "the reset", "see the plan")

    def question(plans: list[reset.GroupPlan], location: str) -> str | None:
        count = sum(len(p.offsets) for p in plans)
        groups_named = ", ".join(f"'{p.group_id}'" for p in plans if p.offsets)
        named = plural(sum(1 for p in plans if p.offsets), "group")
        return f"Reset {counted(count, 'offset')} of {named} {groups_named} on {location}?" if count else None

    plans, _ = plan_confirm_apply(
        cluster.choose(),
        plan=lambda backend: reset.plan_reset(backend, group_ids or _every_group(backend, to_group), mode,
                                              selectors, all_topics=all_topics, from_file=plan_file,
                                              now_ms=int(time.time() * 1000)),
        apply=reset.execute_reset, show=_show_plan, question=question,
        refused="no offsets were reset", yes=yes, dry_run=dry_run,
    )
    _finish(plans, dry_run, export, output, all_groups or len(group_ids) > 1)


def _every_group(backend: Any, to_group: str | None) -> list[str]:
    """--all-groups: the consumer groups (classic and consumer types) Kafka's tool resets, but `--to-group`'s."""
    return [g.group_id for g in backend.list_groups(types=("classic", "consumer")) if g.group_id != to_group]


def _show_plan(plans: list[reset.GroupPlan], location: str) -> None:
    """The plan goes to stderr: stdout carries only the results, in the chosen format."""
    rows = [_row(r) for p in plans for r in p.rows]
    if rows:
        typer.echo(f"Offsets to reset on {location}:", err=True)
        write_table(rows, RESET_COLUMNS, out=sys.stderr)


def _finish(plans: list[reset.GroupPlan], dry_run: bool, export: bool, output: OutputFormat | None,
            several: bool) -> None:
    """Render the rows, report refusals, and exit as the contract says."""
    rows = [r for p in plans for r in p.rows]
    fmt = output_format(output)
    if export:
        sys.stdout.write(export_csv(rows, several))
    elif rows or fmt in (OutputFormat.json, OutputFormat.yaml):  # no bare header when every group was refused
        render("OffsetReset", [_row(r) for r in rows], RESET_COLUMNS, fmt,
               items=[_item(r, dry_run) for r in rows])
    for p in plans:
        if p.refusal is not None:
            typer.echo(f"groupctl: error: {p.refusal}", err=True)
    if dry_run:
        typer.echo("groupctl: note: dry run: no offsets were reset", err=True)
    refused = [p for p in plans if p.refusal is not None]
    failed = [r for r in rows if r.failed]
    if not refused and not failed:
        return
    good = [r for r in rows if not r.failed]
    parts = []
    if refused:
        parts.append(f"{len(refused)} of {counted(len(plans), 'group')} refused")
    if failed:
        not_reset = "cannot be" if dry_run else plural(len(failed), "was not", "were not")
        parts.append(f"{len(failed)} of {counted(len(rows), 'partition')} {not_reset} reset")
    message = "; ".join(parts)
    raise (PartialFailure if good else GroupctlError)(message)
