"""`groupctl group delete`: delete empty groups with their committed offsets (DeleteGroups)."""

from __future__ import annotations

import sys
from typing import Any

import typer

from groupctl import deletion
from groupctl.cli.cluster import ClusterOptions, with_cluster_options
from groupctl.cli.completion import complete_group_ids
from groupctl.cli.confirmed import plan_confirm_apply, require_someone_to_ask
from groupctl.cli.group import app
from groupctl.cli.group_selection import GroupsOption, all_groups_refused, joined
from groupctl.cli.names import group_ids_callback
from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import PartialFailure, UsageError
from groupctl.model import WOULD_DELETE, GroupDeletion
from groupctl.output import Column, OutputFormat, render, to_item, write_table
from groupctl.plurals import counted, plural

DELETE_COLUMNS = [
    Column("group", "GROUP"),
    Column("result", "RESULT"),
    Column("members", "MEMBERS"),
    Column("message", "MESSAGE", wide_only=True, free=True),
]


def _rows(results: list[GroupDeletion]) -> list[dict[str, Any]]:
    return [{"group": r.group_id, "result": r.outcome, "members": ",".join(r.members) or None, "message": r.message}
            for r in results]


def _items(results: list[GroupDeletion], dry_run: bool) -> list[dict[str, Any]]:
    items = []
    for r in results:
        item = to_item(r)
        item["deleted"] = r.deleted
        item["dryRun"] = dry_run
        items.append(item)
    return items


def _show_plan(plan: list[GroupDeletion], location: str) -> None:
    """On stderr: stdout carries only the results, in the chosen format."""
    typer.echo(f"Groups to delete on {location}, with their committed offsets:", err=True)
    write_table(_rows(plan), DELETE_COLUMNS, wide=True, out=sys.stderr)


@app.command("delete")
@with_cluster_options
def delete_groups(
    groups: list[str] = typer.Argument(None, metavar="GROUP", help="The groups to delete.",
                                       callback=group_ids_callback,
                                       autocompletion=complete_group_ids),
    group_options: list[str] = GroupsOption,
    all_groups: bool = all_groups_refused(
        "name the groups to delete (GROUP... or --group GROUP); `groupctl group list --state Empty` lists the "
        "groups without members, the only ones that can be deleted"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would be deleted, and change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Delete groups and their committed offsets (DeleteGroups), as kafka-consumer-groups.sh --delete.

    Only a group without members can go: one that has members is refused (NON_EMPTY_GROUP) with the
    members named, so their consumers can be stopped first. Shows the plan, asks on a terminal unless
    --yes, sends one DeleteGroups for all the groups, and prints one result per group. Exit 3 when any
    group was not deleted. Works for classic, consumer (KIP-848) and offsets-only groups.
    """
    names = joined(groups, group_options)
    if not names:
        raise UsageError("name the groups to delete: GROUP... or --group GROUP")
    require_someone_to_ask(yes, dry_run, "the deletion", "see what would be deleted")
    fmt = output_format(output)

    def question(plan: list[GroupDeletion], location: str) -> str | None:
        count = sum(p.outcome == WOULD_DELETE for p in plan)
        if not count:
            return None
        return f"Delete {counted(count, 'group')} and {plural(count, 'its', 'their')} committed offsets on {location}?"

    plan, results = plan_confirm_apply(
        cluster.choose(), plan=lambda backend: deletion.plan_group_deletion(backend, names),
        apply=lambda backend, _: deletion.delete_groups(backend, names), show=_show_plan, question=question,
        refused="no group was deleted", yes=yes, dry_run=dry_run,
    )
    if results is None:
        render("GroupDeletion", _rows(plan), DELETE_COLUMNS, fmt, items=_items(plan, True))
        typer.echo("groupctl: note: dry run: no group was deleted", err=True)
        return
    render("GroupDeletion", _rows(results), DELETE_COLUMNS, fmt, items=_items(results, False))
    failures = deletion.failed(results)
    for r in failures:
        typer.echo(f"groupctl: error: {r.outcome}: {r.message}", err=True)
    if failures:
        were = plural(len(failures), "was", "were")
        raise PartialFailure(f"{len(failures)} of {counted(len(results), 'group')} {were} not deleted")
