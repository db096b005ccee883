"""`groupctl simulate`: rehearse group operations on the in-process coordinator, on virtual time."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

import typer

from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import GroupctlError, UsageError
from groupctl.model import TopicPartition, format_assignment
from groupctl.output import Column, OutputFormat, render, write_table

if TYPE_CHECKING:
    from groupctl.simulation.rolling_bounce import BounceResult

app = typer.Typer(
    help="Rehearse group operations with simulated consumers on the in-process coordinator, in virtual time.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Protocol(str, Enum):
    """The group protocol the simulated members speak."""

    classic = "classic"
    consumer = "consumer"


class Migration(str, Enum):
    """Which way the rolling restart flips group.protocol."""

    upgrade = "upgrade"
    downgrade = "downgrade"


SUMMARY_COLUMNS = [
    Column("protocol", "PROTOCOL"),
    Column("membership", "MEMBERSHIP"),
    Column("rebalances", "REBALANCES"),
    Column("partitionMoves", "PARTITION_MOVES"),
    Column("maxUnownedMs", "MAX_UNOWNED_MS"),
    Column("totalUnownedMs", "TOTAL_UNOWNED_MS", wide_only=True),
    Column("meanUnownedMs", "MEAN_UNOWNED_MS", wide_only=True),
    Column("epochs", "EPOCHS", wide_only=True),
    Column("bounceMs", "BOUNCE_MS", wide_only=True),
    Column("converged", "CONVERGED", wide_only=True),
]
#: A migration's table says when the group changed type, after MAX_UNOWNED_MS.
CONVERTED_COLUMN = Column("converted", "CONVERTED")
CSV_COLUMNS = [*SUMMARY_COLUMNS, Column("assignment", "ASSIGNMENT")]
MEMBER_COLUMNS = [
    Column("protocol", "PROTOCOL"),
    Column("membership", "MEMBERSHIP"),
    Column("member", "MEMBER"),
    Column("instanceId", "INSTANCE_ID"),
    Column("memberId", "MEMBER_ID"),
    Column("assignment", "ASSIGNMENT", free=True),
]

ROLLING_BOUNCE_HELP = (
    "Simulate a rolling restart of a consumer group and count what it costs: rebalances, partition moves, "
    "and how long partitions had no consumer.\n\n"
    "groupctl's in-process group coordinator runs on virtual time with --members simulated consumers of one "
    "topic of --partitions partitions. Once the group is stable, each member restarts in turn, highest first "
    "as a StatefulSet rolls: it closes as the Java consumer does (a dynamic classic member sends LeaveGroup, a "
    "static one sends nothing; a KIP-848 member leaves with epoch -1, or -2 when static), stays down "
    "--restart-time ms, and starts again (classic: JoinGroup with an empty member id and its group.instance.id; "
    "KIP-848: a new member id, epoch 0, the same instance id). The next restart waits until the group is "
    "stable again. Static members have the instance ids member-0, member-1, ...\n\n"
    "Classic members run the Java consumer's defaults: the eager protocol with the range assignor (everything "
    "revoked before each rejoin), heartbeats every 3000 ms, max.poll.interval.ms 300000 as the rebalance "
    "timeout, JoinGroup v9 (a dynamic member gets MEMBER_ID_REQUIRED first). KIP-848 members heartbeat at "
    "the interval the broker returns (5000 ms) and the broker's default assignor (uniform) assigns; "
    "--session-timeout becomes the group's consumer.session.timeout.ms, which the broker bounds to "
    "45000..60000 ms (a value outside is refused with the broker's message).\n\n"
    "Reported per run: REBALANCES, classic generation or KIP-848 group epoch bumps from the first stop until "
    "the group settled after the last start; PARTITION_MOVES, a partition taken by a different member than "
    "the one that held it last (coming back to the same member after a gap is not a move); MAX_UNOWNED_MS, "
    "the most time any one partition spent without a consumer in total. -o wide adds the total and mean "
    "unowned time, the epochs, the duration and each member's final assignment; JSON has one item per run "
    "with the camelCase keys protocol, membership, rebalances, partitionMoves, maxUnownedMs, "
    "totalUnownedMs, meanUnownedMs, epochBefore, epochAfter, bounceMs, converged, the settings and "
    "the final assignment. Virtual time moves in 100 ms steps (skipping stretches where nothing is due) and "
    "simulated clients act the moment they learn something (no processing time), so unowned times are lower "
    "bounds. The same --seed gives the same numbers.\n\n"
    "This is KIP-345's claim made visible: static members that are back within the session timeout cause no "
    "rebalance and move no partition, under either protocol, while every dynamic restart rebalances the group "
    "(twice: once when the member leaves, once when it joins as someone new). A restart longer than the "
    "session timeout (less one heartbeat interval, as the last heartbeat may be that old) costs static members "
    "the same. The default --restart-time, 10000 ms, is a JVM service restarting in place, well inside the "
    "default 45000 ms session timeout.\n\n"
    "--migrate upgrade rolls a classic group over to the consumer protocol the way KIP-848's online migration "
    "expects: the members start as classic members and each restart brings the pod back with "
    "group.protocol=consumer (a static one with its instance id); --migrate downgrade is the reverse, "
    "consumer-protocol members coming back as classic ones. The coordinator converts the group: to a consumer "
    "group when the first consumer-protocol member joins it (the group epoch continues from the classic generation "
    "and is bumped once, so the classic members rejoin), back to a classic group when the last consumer-protocol "
    "member is gone (the generation continues from the group epoch). A static member coming back within the "
    "session timeout takes its predecessor's place whichever protocol each speaks. REBALANCES counts the bumps of "
    "the generation and then of the group epoch (or the other way), and CONVERTED says during which restart (1 is "
    "the first) and how long after the first stop the group changed type. JSON items carry migration, "
    "groupTypeBefore, groupTypeAfter, convertedAtRestart and convertedAtMs (null when nothing converted). "
    "As both protocols run, --session-timeout must suit both: 45000..60000 ms.\n\n"
    "Exit 1 when a run did not settle or met errors a healthy group never sees (they are printed); 2 on bad "
    "input."
)

#: Setting name in the library -> the option that sets it, for usage errors.
_OPTION_NAMES = {
    "members": "--members", "partitions": "--partitions", "protocol": "--protocol",
    "session_timeout_ms": "--session-timeout", "restart_time_ms": "--restart-time", "migrate": "--migrate",
}


@app.command("rolling-bounce", help=ROLLING_BOUNCE_HELP)
def rolling_bounce(
    members: int = typer.Option(10, "--members", "-n", metavar="N", help="Members of the group (pods), 1..200."),
    partitions: int = typer.Option(30, "--partitions", "-p", metavar="P",
                                   help="Partitions of the one topic the members subscribe to."),
    protocol: Protocol = typer.Option(
        None, "--protocol", case_sensitive=False,
        help="classic (JoinGroup/SyncGroup) or consumer (KIP-848 ConsumerGroupHeartbeat). Default: classic.",
    ),
    static: bool = typer.Option(
        None, "--static/--dynamic",
        help="Static members (group.instance.id set) or dynamic ones. Default: static.",
    ),
    session_timeout: int = typer.Option(
        45000, "--session-timeout", metavar="MS",
        help="session.timeout.ms: classic 6000..1800000 (the broker's bounds); KIP-848 45000..60000 (set as "
        "the group's consumer.session.timeout.ms).",
    ),
    restart_time: int = typer.Option(
        10000, "--restart-time", metavar="MS", help="How long each member stays down during its restart.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seeds member ids and start-up times; the same seed, the same run."),
    compare: bool = typer.Option(
        False, "--compare", help="Run all four: classic and consumer, each with static and with dynamic members.",
    ),
    migrate: Migration = typer.Option(
        None, "--migrate", case_sensitive=False,
        help="Restart each member with group.protocol flipped: upgrade (classic members come back speaking the "
        "consumer protocol) or downgrade (the reverse).",
    ),
    output: OutputFormat = OutputOption,
) -> None:
    from groupctl.simulation.rolling_bounce import BounceSettings, SettingsError, compare_settings, run_rolling_bounce

    fmt = output_format(output)
    if compare and (protocol is not None or static is not None):
        raise UsageError("--compare runs both protocols with both memberships; drop --protocol, --static and "
                         "--dynamic, or drop --compare")
    if migrate is not None and (compare or protocol is not None):
        raise UsageError("--migrate sets the protocols itself (upgrade: classic, then consumer; downgrade: the "
                         "reverse); drop --protocol and --compare, or drop --migrate")
    common: dict[str, Any] = {
        "members": members, "partitions": partitions, "static": True if static is None else static,
        "session_timeout_ms": session_timeout, "restart_time_ms": restart_time, "seed": seed,
    }
    if migrate is not None:
        base = BounceSettings.migration(migrate.value, **common)
    else:
        base = BounceSettings(protocol=(protocol or Protocol.classic).value, **common)
    runs = compare_settings(base) if compare else [base]
    for settings in runs:
        try:
            settings.validate()
        except SettingsError as exc:
            option = _OPTION_NAMES.get(exc.setting, exc.setting)
            raise UsageError(f"{option} {exc}") from None
    results = [run_rolling_bounce(s) for s in runs]
    rows = [_summary_row(r) for r in results]
    columns, csv_columns = SUMMARY_COLUMNS, CSV_COLUMNS
    if migrate is not None:
        at = [c.key for c in SUMMARY_COLUMNS].index("maxUnownedMs") + 1
        columns = [*SUMMARY_COLUMNS[:at], CONVERTED_COLUMN, *SUMMARY_COLUMNS[at:]]
        csv_columns = [*columns, *CSV_COLUMNS[len(SUMMARY_COLUMNS):]]
    if fmt in (OutputFormat.json, OutputFormat.yaml):
        render("RollingBounce", rows, columns, fmt, items=[_item(r) for r in results])
    elif fmt is OutputFormat.csv:
        render("RollingBounce", rows, csv_columns, fmt)
    else:
        render("RollingBounce", rows, columns, fmt)
        if fmt is OutputFormat.wide:
            typer.echo()
            write_table(_member_rows(results), MEMBER_COLUMNS, wide=True)
    _check(results)


def _protocols(result: BounceResult) -> str:
    """The protocol the members speak, or `before->after` for a migration."""
    before, after = result.settings.protocols
    return before if before == after else f"{before}->{after}"


def _converted(result: BounceResult) -> str:
    if result.converted_at_restart is None:
        return "-"
    return f"restart {result.converted_at_restart} (+{result.converted_at_ms} ms)"


def _run_name(result: BounceResult) -> str:
    return f"{_protocols(result)}/{result.membership}"


def _summary_row(result: BounceResult) -> dict[str, Any]:
    return {
        "protocol": _protocols(result),
        "membership": result.membership,
        "converted": _converted(result),
        "rebalances": result.rebalances,
        "partitionMoves": result.partition_moves,
        "maxUnownedMs": result.max_unowned_ms,
        "totalUnownedMs": result.total_unowned_ms,
        "meanUnownedMs": round(result.mean_unowned_ms),
        "epochs": f"{result.epoch_before}->{result.epoch_after}",
        "bounceMs": result.bounce_ms,
        "converged": result.converged,
        "assignment": " ".join(f"{m.member}={format_assignment(m.partitions)}" for m in result.assignment),
    }


def _member_rows(results: list[BounceResult]) -> list[dict[str, Any]]:
    return [
        {"protocol": _protocols(r), "membership": r.membership, "member": m.member, "instanceId": m.instance_id,
         "memberId": m.member_id, "assignment": format_assignment(m.partitions)}
        for r in results for m in r.assignment
    ]


def _item(result: BounceResult) -> dict[str, Any]:
    s = result.settings
    return {
        "protocol": result.protocol,
        "membership": result.membership,
        "rebalances": result.rebalances,
        "partitionMoves": result.partition_moves,
        "maxUnownedMs": result.max_unowned_ms,
        "totalUnownedMs": result.total_unowned_ms,
        "meanUnownedMs": round(result.mean_unowned_ms),
        "epochBefore": result.epoch_before,
        "epochAfter": result.epoch_after,
        "bounceMs": result.bounce_ms,
        "converged": result.converged,
        "migration": s.migrate,
        "groupTypeBefore": result.group_type_before,
        "groupTypeAfter": result.group_type_after,
        "convertedAtRestart": result.converted_at_restart,
        "convertedAtMs": result.converted_at_ms,
        "members": s.members,
        "partitions": s.partitions,
        "sessionTimeoutMs": s.session_timeout_ms,
        "restartTimeMs": s.restart_time_ms,
        "seed": s.seed,
        "assignment": [
            {
                "member": m.member, "instanceId": m.instance_id, "memberId": m.member_id,
                "topicPartitions": _topic_partitions(m.partitions),
            }
            for m in result.assignment
        ],
        "anomalies": list(result.anomalies),
    }


def _topic_partitions(partitions: Iterable[TopicPartition]) -> list[dict[str, Any]]:
    grouped: dict[str, list[int]] = {}
    for tp in partitions:
        grouped.setdefault(tp.topic, []).append(tp.partition)
    return [{"topic": t, "partitions": sorted(ps)} for t, ps in sorted(grouped.items())]


def _check(results: list[BounceResult]) -> None:
    """Numbers from a run that went wrong are not evidence: say what happened and exit 1."""
    failed = [r for r in results if r.anomalies or not r.converged]
    for r in failed:
        for line in r.anomalies:
            typer.echo(f"groupctl: {_run_name(r)}: {line}", err=True)
    if failed:
        names = ", ".join(_run_name(r) for r in failed)
        raise GroupctlError(f"the simulation of {names} did not run cleanly (see above); its numbers are not "
                            "a rolling bounce's")
