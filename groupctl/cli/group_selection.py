"""`--group G` and `--all-groups`, as kafka-consumer-groups.sh spells them, beside the GROUP arguments.

Operators type Kafka's spelling from habit; refusing it teaches nothing. Commands that Kafka's tool
runs with `--group` take it too (repeatable where they take several groups), joined to the GROUP
arguments in the order given. `--all-groups` is a name of `group describe --all`, and `group offsets
reset` takes it as Kafka's `--reset-offsets --all-groups` (every consumer group, the active ones refused);
the other commands that change groups have no "every group" form, so there it is a usage error naming
what to give instead, never a silent no-op nor a wider change than was meant.
"""

from __future__ import annotations

from typing import Any

import typer

from groupctl.cli.completion import complete_group_ids
from groupctl.cli.names import group_ids_callback
from groupctl.errors import UsageError

GroupsOption = typer.Option(
    None, "--group", "-g", metavar="GROUP",
    help="A group, as kafka-consumer-groups.sh --group takes it (repeatable); joins the GROUP arguments.",
    callback=group_ids_callback, autocompletion=complete_group_ids,
)
OneGroupOption = typer.Option(
    None, "--group", "-g", metavar="GROUP",
    help="The group, as kafka-consumer-groups.sh --group takes it, instead of the GROUP argument.",
    callback=group_ids_callback, autocompletion=complete_group_ids,
)


def all_groups_refused(alternative: str) -> Any:
    """A hidden `--all-groups` on a command that cannot act on every group: a usage error naming `alternative`.

    Typed as `typer.Option` is (Any), so it stands as the default of the command's `bool` parameter.
    """

    def refuse(ctx: typer.Context, _param: typer.CallbackParam, value: bool) -> bool:
        if value and not ctx.resilient_parsing:
            raise UsageError(f"`{ctx.command_path}` has no --all-groups: {alternative}")
        return value

    return typer.Option(False, "--all-groups", hidden=True, callback=refuse)


def joined(arguments: list[str] | None, options: list[str] | None) -> list[str]:
    """The GROUP arguments, then the --group options, each group once."""
    return list(dict.fromkeys([*(arguments or ()), *(options or ())]))


def the_one(argument: str | None, option: list[str] | None, command: str) -> str:
    """The single group of a one-group command, from GROUP or --group (the same one may be given both ways)."""
    given = joined([argument] if argument is not None else [], option)
    if not given:
        raise UsageError(f"name the group: {command} GROUP, or --group GROUP")
    if len(given) > 1:
        raise UsageError(f"{command} works on one group at a time (given: {', '.join(given)}); run it once per group")
    return given[0]
