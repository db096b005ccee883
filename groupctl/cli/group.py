"""`groupctl group`: list, describe and change consumer groups on the selected cluster.

Parsing and rendering only: each command checks its whole input first, then asks the backend
opened by `open_cluster`, so a mistake on the command line never leaves a change half made.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from groupctl import operations
from groupctl.cli import group_offsets
from groupctl.cli.cluster import REJOIN_WAIT_S, ClusterOptions, open_cluster, with_cluster_options
from groupctl.cli.completion import complete_group_ids, complete_instance_ids, words
from groupctl.cli.confirmed import plan_confirm_apply, require_someone_to_ask
from groupctl.cli.durations import duration_option
from groupctl.cli.group_selection import GroupsOption, joined
from groupctl.cli.group_views import View, render_groups
from groupctl.cli.names import group_ids_callback, name_callback
from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import GroupctlError, GroupNotFound, PartialFailure, UsageError
from groupctl.model import (
    CLASSIC_STATES,
    CONSUMER_STATES,
    GroupDescription,
    GroupState,
    RemovalResult,
    format_assignment,
    is_instance_id,
)
from groupctl.operations import WOULD_REMOVE, ConfigChange, RejoinCheck, Removal
from groupctl.output import Column, OutputFormat, render, to_item, write_table
from groupctl.plurals import counted, plural
from groupctl.protocol.data.groups import MemberIdentity
from groupctl.small_files import read_small_stream, read_small_text

if TYPE_CHECKING:
    from groupctl.backends.base import Backend

app = typer.Typer(
    help="List, describe and change consumer groups: members, epochs, static-member removal, group configs.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
config_app = typer.Typer(
    help="Show and change a group's dynamic configs (KIP-848 group configs, resource type GROUP).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(config_app, name="config")
app.add_typer(group_offsets.app, name="offsets")

GROUP_TYPES = ("classic", "consumer", "share", "streams")
GROUP_STATES = tuple(dict.fromkeys(CLASSIC_STATES + CONSUMER_STATES))
REBALANCING = (GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE, GroupState.ASSIGNING,
               GroupState.RECONCILING)
DEFAULT_REASON = "groupctl remove-members"

TypeOption = typer.Option(
    None, "--type", "-t", metavar="TYPE[,TYPE...]",
    help="Only groups of these types: classic, consumer, share, streams (comma-separated or repeated; any case).",
    autocompletion=words(GROUP_TYPES, comma_list=True),
)


def _csv_values(values: list[str] | None) -> list[str]:
    """`--x a,b --x c` -> [a, b, c]: options take comma-separated lists, and may be repeated."""
    return [v.strip() for value in values or () for v in value.split(",") if v.strip()]


def _canonical(values: list[str] | None, valid: tuple[str, ...], what: str, option: str) -> list[str]:
    """Case-insensitive names spelled as Kafka spells them; an unknown one is a usage error listing the valid."""
    by_lower = {v.lower(): v for v in valid}
    out = []
    for value in _csv_values(values):
        if value.lower() not in by_lower:
            raise UsageError(f"unknown {what} '{value}' in {option}; valid {what}s (any case): {', '.join(valid)}")
        out.append(by_lower[value.lower()])
    return list(dict.fromkeys(out))


# -- group list ------------------------------------------------------------------------------------

def _mixed_text(row: dict[str, Any]) -> str:
    """MIXED: `yes` for a consumer group holding classic-protocol members, `-` for one that does not (and
    for a classic group), blank where it is unknown (the describe that would tell failed, or was not made)."""
    mixed = row.get("mixed")
    return "" if mixed is None else "yes" if mixed else "-"


LIST_COLUMNS = [
    Column("group", "GROUP"),
    Column("type", "TYPE"),
    Column("state", "STATE"),
    # The group's protocol type (`consumer` for classic consumer groups, as Kafka's ProtocolType); PROTOCOL in
    # the describe views is the group protocol a member speaks (classic or consumer).
    Column("protocolType", "PROTOCOL-TYPE", wide_only=True),
    Column("members", "MEMBERS", wide_only=True),
    Column("mixed", "MIXED", wide_only=True, text=_mixed_text),
]


@app.command("list")
@with_cluster_options
def list_groups(
    types: list[str] = TypeOption,
    states: list[str] = typer.Option(
        None, "--state", "-s", metavar="STATE[,STATE...]",
        help=f"Only groups in these states: {', '.join(GROUP_STATES)} (comma-separated or repeated; any case).",
        autocompletion=words(GROUP_STATES, comma_list=True),
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """List the groups with their type and state (wide: protocol type, member count, mixed).

    ListGroups carries no member count, so on a Kafka cluster MEMBERS stays empty: `group describe
    --all --state` counts them. MIXED says `yes` for a consumer group holding classic-protocol members
    (an online migration); on a Kafka cluster `-o wide` describes the consumer groups to tell (one
    ConsumerGroupDescribe, within --timeout), and leaves the cell empty for a group it could not.
    """
    want_types = _canonical(types, GROUP_TYPES, "type", "--type")
    want_states = _canonical(states, GROUP_STATES, "state", "--state")
    fmt = output_format(output)
    with open_cluster(cluster.choose()) as backend:
        listings = backend.list_groups(types=want_types or None, states=want_states or None,
                                       mixed=fmt is OutputFormat.wide)
    rows = [
        {"group": g.group_id, "type": g.type, "state": g.state, "protocolType": g.protocol_type or None,
         "members": g.members, "mixed": g.mixed}
        for g in listings
    ]
    render("GroupList", rows, LIST_COLUMNS, fmt, items=[to_item(g) for g in listings])


# -- group describe --------------------------------------------------------------------------------


def _one_view(members: bool, offsets: bool, state: bool) -> View:
    chosen = [v for v, on in ((View.members, members), (View.offsets, offsets), (View.state, state)) if on]
    if len(chosen) > 1:
        raise UsageError("only one of --members, --offsets and --state can be given")
    return chosen[0] if chosen else View.offsets


def _state_notes(descs: list[GroupDescription]) -> None:
    """What kafka-consumer-groups.sh says beside an offsets or members view, as notes on stderr."""
    for d in descs:
        if d.state == GroupState.EMPTY:
            typer.echo(f"groupctl: note: group '{d.group_id}' has no active members", err=True)
        elif d.state in REBALANCING:
            typer.echo(f"groupctl: note: group '{d.group_id}' is rebalancing ({d.state})", err=True)


@app.command("describe")
@with_cluster_options
def describe(
    groups: list[str] = typer.Argument(None, metavar="GROUP", help="The groups to describe.",
                                       callback=group_ids_callback,
                                       autocompletion=complete_group_ids),
    group_options: list[str] = GroupsOption,
    all_groups: bool = typer.Option(
        False, "--all", "--all-groups", "-a", help="Describe every group (narrow it with --type)."
    ),
    types: list[str] = TypeOption,
    members: bool = typer.Option(
        False, "--members", help="One row per member: ids, host, protocol, member epoch, #partitions."
    ),
    offsets: bool = typer.Option(
        False, "--offsets", help="One row per partition: committed offset, log end offset, lag (the default view)."
    ),
    state: bool = typer.Option(
        False, "--state", help="One row per group: coordinator, assignor, state, epochs, members, converged, migration."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v",
        help="More columns (as -o wide): current and target assignment, pending revocation, subscription, upgraded.",
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Describe groups: committed offsets and lag, members, or state with epochs and convergence.

    Columns follow kafka-consumer-groups.sh --describe; assignments print as `topic:0,1;other:3`. A
    group that does not exist is an error (exit 1), or a partial failure (exit 3) when others were shown.

    A consumer group with classic-protocol members is migrating: MIGRATION says `upgrading` while it
    also has consumer-protocol members, `downgrading` when all its members speak classic.

    Each group is described by its own type's API. Share groups (KIP-932) come in a second table with
    kafka-share-groups.sh's columns: START-OFFSET per partition (`-` before it is initialised) and LAG
    (from a Kafka 4.2+ broker), members with their shared ASSIGNMENT, state with the epochs under
    --verbose. A listed group of a type groupctl cannot describe (streams) is one row saying so, and
    the command still succeeds. JSON and YAML carry every group in one envelope.
    """
    view = _one_view(members, offsets, state)
    groups = joined(groups, group_options)
    if all_groups and groups:
        raise UsageError("give GROUP names (or --group) or --all, not both")
    if not all_groups and not groups:
        raise UsageError("name the groups to describe (GROUP... or --group GROUP), or pass --all")
    if types and not all_groups:
        raise UsageError("--type narrows --all; pass --all too, or drop --type")
    want_types = _canonical(types, GROUP_TYPES, "type", "--type")
    descs: list[GroupDescription] = []
    missing: list[GroupNotFound] = []
    with open_cluster(cluster.choose()) as backend:
        if all_groups:
            names = [g.group_id for g in backend.list_groups(types=want_types or None)]
        else:
            names = list(dict.fromkeys(groups))
        for name in names:
            try:
                descs.extend(backend.describe_groups([name]))
            except GroupNotFound as exc:
                missing.append(exc)
        location = backend.location
    if missing and not descs and len(names) == 1:
        raise missing[0]
    fmt = output_format(output)
    render_groups(descs, view, fmt, verbose=verbose)
    if view is not View.state and fmt in (OutputFormat.table, OutputFormat.wide):
        _state_notes(descs)
    for absent in missing:
        typer.echo(f"groupctl: error: {absent}", err=True)
    if missing:
        cls = PartialFailure if descs else GroupctlError
        raise cls(f"{len(missing)} of {counted(len(names), 'group')} {plural(len(missing), 'does', 'do')} not "
                  f"exist on {location}")


# -- group remove-members --------------------------------------------------------------------------

REMOVAL_COLUMNS = [
    Column("instanceId", "INSTANCE-ID"),
    Column("memberId", "MEMBER-ID"),
    Column("result", "RESULT"),
    Column("partitions", "PARTITIONS"),
    Column("message", "MESSAGE", wide_only=True, free=True),
]
#: Waits this long or longer are announced on a terminal: shorter ones pass before anyone wonders.
ANNOUNCED_WAIT_S = 1.0


def _instance_id(value: str, where: str) -> str:
    if not is_instance_id(value):
        raise UsageError(f"{where}'{value}' is not a group.instance.id: Kafka allows 1 to 249 ASCII letters, "
                         "digits, '.', '_' and '-'")
    return value


def _read_instance_ids(source: str) -> list[str]:
    """One instance id per line; blank lines and `#` comments skipped (`#` is never part of an id)."""
    if source == "-":
        lines = read_small_stream("instance-id list").splitlines()
    else:
        path = Path(source)
        if not path.is_file():
            raise UsageError(f"instance-id file '{path}' does not exist or is not a file; give a file with one "
                             "group.instance.id per line, or - for standard input")
        try:
            lines = read_small_text(path, "instance-id file").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise GroupctlError(f"cannot read instance-id file '{path}': {exc}") from exc
    ids = []
    for number, line in enumerate(lines, 1):
        value = line.split("#", 1)[0].strip()
        if value:
            ids.append(_instance_id(value, f"{source}, line {number}: "))
    return ids


def _removal_rows(results: list[RemovalResult]) -> list[dict[str, Any]]:
    return [
        {"instanceId": r.instance_id, "memberId": r.member_id, "result": r.outcome,
         "partitions": format_assignment(r.partitions), "message": r.message}
        for r in results
    ]


def _removal_items(results: list[RemovalResult], dry_run: bool) -> list[dict[str, Any]]:
    items = []
    for r in results:
        item = to_item(r)
        item["removed"] = r.removed
        item["dryRun"] = dry_run
        items.append(item)
    return items


@app.command("remove-members")
@with_cluster_options
def remove_members(
    group: str = typer.Argument(..., metavar="GROUP", help="The group to remove members from.",
                                callback=group_ids_callback,
                                autocompletion=complete_group_ids),
    instance_ids: list[str] = typer.Option(
        None, "--instance-id", "-i", metavar="ID[,ID...]",
        help="Static members to remove, by group.instance.id (comma-separated or repeated).",
        callback=name_callback("group.instance.id"),
        autocompletion=complete_instance_ids,
    ),
    from_file: str = typer.Option(
        None, "--from-file", "-f", metavar="FILE",
        help="More instance ids, one per line; blank lines and # comments skipped; - reads standard input.",
    ),
    member_ids: list[str] = typer.Option(
        None, "--member-id", "-m", metavar="ID",
        help="A member to remove by member id (repeatable): dynamic classic-protocol members have no instance id.",
        callback=name_callback("member id"),
    ),
    reason: str = typer.Option(
        None, "--reason", metavar="TEXT",
        help=f"The leave reason the broker logs (KIP-800); default '{DEFAULT_REASON}'.",
        callback=name_callback("leave reason"),
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show who would be removed, and change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    verify_after: float = typer.Option(
        None, "--verify-after", metavar="DURATION", parser=duration_option(allow_zero=True),
        envvar="GROUPCTL_VERIFY_AFTER",
        help="Then wait this long (a duration: 6s, 500ms, 1m; a bare number is seconds; up to 24h), describe the "
        "group again and warn about each removed instance that is back (its process still runs). Default "
        f"{REJOIN_WAIT_S:g}s on a Kafka cluster (a running member rejoins on its next heartbeat: every 3 s for "
        "classic consumers, 5 s in KIP-848 groups, by default), 0 with --local, "
        "whose simulated members act only when told; 0 skips the check.",
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Remove members from a group in one batch (admin LeaveGroup), e.g. static members after a scale-down.

    Shows the members to be removed and the partitions they hold, asks on a terminal unless --yes,
    sends one LeaveGroup for all of them, and prints one result per member. Exit 3 when any member
    was not removed (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID ...). Works for classic and consumer groups.

    A removed static member whose process still runs rejoins on its next heartbeat: after the
    --verify-after wait (announced on a terminal) the group is described again, and each removed
    instance that is back gets a warning on stderr. The exit code stays as the removal made it: the
    broker did remove the member, and stopping its process is the operator's next step, which the
    warning names.
    """
    wanted = [_instance_id(i, "--instance-id: ") for i in _csv_values(instance_ids)]
    if from_file is not None:
        if from_file == "-" and not (yes or dry_run):
            raise UsageError("--from-file - reads the ids from standard input, which leaves nothing to confirm "
                             "on: pass --yes (or --dry-run)")
        wanted += _read_instance_ids(from_file)
    reason = reason or DEFAULT_REASON
    targets = [MemberIdentity(group_instance_id=i, reason=reason) for i in dict.fromkeys(wanted)]
    targets += [MemberIdentity(member_id=m, reason=reason) for m in dict.fromkeys(m for m in member_ids or () if m)]
    if not targets:
        raise UsageError("name the members to remove: --instance-id, --from-file or --member-id")
    require_someone_to_ask(yes, dry_run, "the removal", "see what would be removed")
    chosen = cluster.choose()
    wait = chosen.rejoin_wait_s if verify_after is None else verify_after
    fmt = output_format(output)

    def question(plan: list[RemovalResult], location: str) -> str | None:
        count = sum(p.outcome == WOULD_REMOVE for p in plan)
        return f"Remove {counted(count, 'member')} from group '{group}' on {location}?" if count else None

    plan, removal = plan_confirm_apply(
        chosen, plan=lambda backend: operations.plan_removal(backend.describe_groups([group])[0], targets),
        apply=lambda backend, _: _remove(backend, group, targets, wait),
        show=lambda plan, location: _show_plan(plan, group, location), question=question,
        refused=f"no member was removed from group '{group}'", yes=yes, dry_run=dry_run,
    )
    if removal is None:
        render("MemberRemoval", _removal_rows(plan), REMOVAL_COLUMNS, fmt, items=_removal_items(plan, True))
        typer.echo(f"groupctl: note: dry run: nothing was removed from group '{group}'", err=True)
        return
    results = removal.results
    items = _removal_items(results, False)
    for item, r in zip(items, results, strict=True):
        item["rejoined"] = removal.rejoin.rejoined(r)
    render("MemberRemoval", _removal_rows(results), REMOVAL_COLUMNS, fmt, items=items)
    for instance_id, member_id in (removal.rejoin.back or {}).items():
        typer.echo(f"groupctl: warning: instance '{instance_id}' is back in group '{group}' {wait:g} s after its "
                   f"removal (as member {member_id}): its process still runs: stop it, or it rejoins", err=True)
    if removal.failed:
        were = plural(len(removal.failed), "was", "were")
        raise PartialFailure(f"{len(removal.failed)} of {counted(len(results), 'member')} {were} not removed from "
                             f"group '{group}'")


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def _announce_wait(wait: float) -> None:
    """A person at a terminal who just answered 'y' is told what the pause is for (a wait of a second
    or more); a script's stderr gets nothing extra."""
    if wait >= ANNOUNCED_WAIT_S and _stderr_is_terminal():
        typer.echo(f"groupctl: waiting {wait:g} s for removed members to rejoin before verifying (--verify-after)...",
                   err=True)


def _remove(backend: Backend, group: str, targets: list[MemberIdentity], wait: float) -> Removal:
    """The removal with its rejoin check; a check that could not be made is a warning, not a failure."""
    removal = operations.remove_members(backend, group, targets, verify_after=wait, before_wait=_announce_wait)
    _warn_unverified(removal.rejoin, group)
    return removal


def _warn_unverified(check: RejoinCheck, group: str) -> None:
    if check.error is not None:
        typer.echo(f"groupctl: warning: the members were removed, but whether any came back is unknown: describing "
                   f"group '{group}' again after {check.wait:g} s failed: {check.error}", err=True)


def _show_plan(plan: list[RemovalResult], group: str, location: str) -> None:
    """The plan goes to stderr: stdout carries only the results, in the chosen format."""
    typer.echo(f"Group '{group}' on {location}: members to remove and the partitions they hold", err=True)
    write_table(_removal_rows(plan), REMOVAL_COLUMNS, out=sys.stderr)


# -- group config ----------------------------------------------------------------------------------

CONFIG_COLUMNS = [
    Column("name", "NAME"),
    Column("value", "VALUE"),
    Column("default", "DEFAULT"),
    Column("source", "SOURCE"),
    Column("minimum", "MIN", wide_only=True),
    Column("minimumName", "MIN-CONFIG", wide_only=True),
    Column("maximum", "MAX", wide_only=True),
    Column("maximumName", "MAX-CONFIG", wide_only=True),
]
CHANGE_COLUMNS = [
    Column("name", "NAME"),
    Column("action", "ACTION"),
    Column("oldValue", "OLD-VALUE"),
    Column("newValue", "NEW-VALUE"),
    Column("source", "SOURCE", wide_only=True),
]
KEY = re.compile(r"[A-Za-z0-9._-]+")


def _shown(value: object) -> object:
    """Config values as Kafka prints them: booleans are true/false, not yes/no."""
    return str(value).lower() if isinstance(value, bool) else value


@config_app.command("get")
@with_cluster_options
def config_get(
    group: str = typer.Argument(..., metavar="GROUP", help="The group whose configs to show.",
                                callback=group_ids_callback,
                                autocompletion=complete_group_ids),
    keys: list[str] = typer.Argument(None, metavar="KEY", help="Only these configs (default: all)."),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Show a group's configs: the value in force, the default, where it comes from; wide adds the broker bounds.

    SOURCE is DYNAMIC_GROUP_CONFIG (as kafka-configs.sh names it) for the group's own override, else the
    broker setting it falls back to.
    A group need not exist to have configs, as on a broker.
    """
    with open_cluster(cluster.choose()) as backend:
        entries = list(operations.group_configs(backend, group, list(dict.fromkeys(keys or ()))).values())
    rows = [{**to_item(e), "value": _shown(e.value), "default": _shown(e.default)} for e in entries]
    render("GroupConfig", rows, CONFIG_COLUMNS, output_format(output),
           items=[{"group": group, **to_item(e)} for e in entries])


def _parse_assignments(pairs: list[str]) -> dict[str, str]:
    """`KEY=VALUE` strictly: a config name, `=`, a non-empty value; each name once."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not KEY.fullmatch(key):
            raise UsageError(f"'{pair}' is not KEY=VALUE; write e.g. consumer.session.timeout.ms=50000")
        if not value:
            raise UsageError(f"'{pair}' has no value; to return {key} to its default use `group config unset`")
        if key in out:
            raise UsageError(f"{key} is given twice; give each config once")
        out[key] = value
    return out


def _render_change(changes: list[ConfigChange], output: OutputFormat | None, dry_run: bool, group: str) -> None:
    rows = [
        {"group": c.group_id, "name": c.name, "action": c.action, "oldValue": _shown(c.old_value),
         "newValue": _shown(c.new_value), "source": c.source, "dryRun": c.dry_run}
        for c in changes
    ]
    render("GroupConfigChange", rows, CHANGE_COLUMNS, output_format(output))
    if dry_run:
        typer.echo(f"groupctl: note: dry run: validated, nothing was changed on group '{group}'", err=True)


@config_app.command("set")
@with_cluster_options
def config_set(
    group: str = typer.Argument(..., metavar="GROUP", help="The group to configure.", callback=group_ids_callback,
                                autocompletion=complete_group_ids),
    pairs: list[str] = typer.Argument(
        ..., metavar="KEY=VALUE", help="Configs to set, e.g. consumer.session.timeout.ms=50000."
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Validate only (the broker's validate_only): change nothing."
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Set group configs, all or none: the whole change is validated with Kafka's rules before any is made.

    An invalid value fails with Kafka's message (exit 1), e.g. "consumer.session.timeout.ms must be
    greater than or equal to group.consumer.min.session.timeout.ms".
    """
    values = _parse_assignments(pairs)
    with open_cluster(cluster.choose()) as backend:
        changes = operations.change_config(backend, group, values, [], dry_run)
    _render_change(changes, output, dry_run, group)


@config_app.command("unset")
@with_cluster_options
def config_unset(
    group: str = typer.Argument(..., metavar="GROUP", help="The group to configure.", callback=group_ids_callback,
                                autocompletion=complete_group_ids),
    keys: list[str] = typer.Argument(..., metavar="KEY", help="Configs to return to the broker's value."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Validate only: change nothing."),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    output: OutputFormat = OutputOption,
) -> None:
    """Remove group config overrides, so the broker's value applies again."""
    names = list(dict.fromkeys(keys))
    with open_cluster(cluster.choose()) as backend:
        changes = operations.change_config(backend, group, {}, names, dry_run)
    _render_change(changes, output, dry_run, group)


# -- group offsets, group delete: their own modules, registered on import ---------------------------

import groupctl.cli.group_delete  # noqa: E402 - registers `group delete`
import groupctl.cli.offsets_delete  # noqa: E402 - registers `group offsets delete`
import groupctl.cli.offsets_reset  # noqa: E402,F401 - registers `group offsets reset`
