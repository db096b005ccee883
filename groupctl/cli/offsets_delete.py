"""`groupctl group offsets delete`: delete a group's committed offsets on some partitions (OffsetDelete)."""

from __future__ import annotations

import sys
from typing import Any

import typer

from groupctl import deletion
from groupctl.cli import group_offsets
from groupctl.cli.cluster import ClusterOptions, with_cluster_options
from groupctl.cli.completion import complete_group_ids
from groupctl.cli.confirmed import plan_confirm_apply, require_someone_to_ask
from groupctl.cli.group_selection import OneGroupOption, all_groups_refused, the_one
from groupctl.cli.names import check_topic, group_ids_callback
from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import PartialFailure
from groupctl.model import WOULD_DELETE, OffsetDeletion
from groupctl.output import Column, OutputFormat, render, to_item, write_table
from groupctl.plurals import counted

OFFSET_COLUMNS = [
    Column("topic", "TOPIC"),
    Column("partition", "PARTITION"),
    Column("offset", "OFFSET"),
    Column("result", "RESULT"),
    Column("message", "MESSAGE", wide_only=True, free=True),
]


def _rows(results: list[OffsetDeletion]) -> list[dict[str, Any]]:
    return [{"topic": r.topic, "partition": r.partition if r.partition >= 0 else None, "offset": r.offset,
             "result": r.outcome, "message": r.message} for r in results]


def _items(results: list[OffsetDeletion], dry_run: bool) -> list[dict[str, Any]]:
    items = []
    for r in results:
        item = to_item(r)
        item["partition"] = r.partition if r.partition >= 0 else None
        item["deleted"] = r.deleted
        item["dryRun"] = dry_run
        items.append(item)
    return items


def _show_plan(plan: list[OffsetDeletion], group: str, location: str) -> None:
    """On stderr: stdout carries only the results, in the chosen format."""
    # A share group's rows are whole topics (partition -1): its start offsets go, it commits none.
    what = "start offsets" if any(r.partition < 0 and r.outcome == WOULD_DELETE for r in plan) else "committed offsets"
    typer.echo(f"Group '{group}' on {location}: {what} to delete", err=True)
    write_table(_rows(plan), OFFSET_COLUMNS, wide=True, out=sys.stderr)


@group_offsets.app.command("delete")
@with_cluster_options
def delete_offsets(
    group_argument: str = typer.Argument(None, metavar="GROUP", help="The group whose offsets to delete.",
                                         callback=group_ids_callback,
                                         autocompletion=complete_group_ids),
    group_options: list[str] = OneGroupOption,
    all_groups: bool = all_groups_refused(
        "it deletes one group's offsets at a time, as kafka-consumer-groups.sh --delete-offsets does: give GROUP "
        "or --group GROUP"),
    topics: list[str] = typer.Option(
        ..., "--topic", metavar="TOPIC[:P[,P...]]",
        help="A topic, or some of its partitions (repeatable); a bare topic means every partition where the "
        "group has a committed offset.",
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would be deleted, and change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Delete a group's committed offsets on some topics or partitions (OffsetDelete), as
    kafka-consumer-groups.sh --delete-offsets.

    The group keeps its members; only topics none of them subscribes to can lose their offsets (else
    GROUP_SUBSCRIBED_TO_TOPIC, said in words). Shows the plan with the offsets held, asks on a terminal
    unless --yes, sends one OffsetDelete, and prints one result per partition. Exit 3 when any
    partition failed; a partition without a committed offset is shown as no-offset and not sent.
    """
    group = the_one(group_argument, group_options, "group offsets delete")
    wanted = deletion.parse_topic_partitions(topics)
    for topic, _ in wanted:
        check_topic(topic, "--topic")
    require_someone_to_ask(yes, dry_run, "the deletion", "see what would be deleted")
    fmt = output_format(output)

    def question(plan: list[OffsetDeletion], location: str) -> str | None:
        count = sum(p.outcome == WOULD_DELETE for p in plan)
        return f"Delete {counted(count, 'committed offset')} of group '{group}' on {location}?" if count else None

    plan, results = plan_confirm_apply(
        cluster.choose(), plan=lambda backend: deletion.plan_offset_deletion(backend, group, wanted),
        apply=lambda backend, plan: deletion.delete_offsets(backend, group, plan),
        show=lambda plan, location: _show_plan(plan, group, location), question=question,
        refused=f"no offset of group '{group}' was deleted", yes=yes, dry_run=dry_run,
    )
    if results is None:
        render("OffsetDeletion", _rows(plan), OFFSET_COLUMNS, fmt, items=_items(plan, True))
        typer.echo(f"groupctl: note: dry run: no offset of group '{group}' was deleted", err=True)
        return
    render("OffsetDeletion", _rows(results), OFFSET_COLUMNS, fmt, items=_items(results, False))
    failures = deletion.failed(results)
    if failures:
        raise PartialFailure(f"{len(failures)} of {counted(len(results), 'partition')} of group '{group}' kept "
                             "their offsets")
