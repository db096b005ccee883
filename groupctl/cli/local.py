"""`groupctl local`: build scenarios on the in-process coordinator in DIR, one shell command at a time.

Topics, simulated consumers (Java-like, classic or KIP-848) and the virtual clock. Parsing and
rendering only: the members live in `groupctl.backends.local_members`, and every command is one
LocalBackend session, holding DIR's lock from start to end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from groupctl.cli.cluster import NO_LOCAL, LocalOption
from groupctl.cli.completion import complete_coordinator_versions, complete_local_group_ids
from groupctl.cli.names import group_ids_callback, name_callback, topics_callback
from groupctl.cli.options import OutputOption, kafka_int, output_format
from groupctl.errors import GroupctlError, PartialFailure, UsageError
from groupctl.model import INSTANCE_ID_PATTERN, format_assignment, is_instance_id
from groupctl.output import Column, OutputFormat, iso_ms, render, to_item
from groupctl.plurals import counted, plural

if TYPE_CHECKING:
    from groupctl.backends.local import LocalBackend
    from groupctl.backends.local_members import Event, LocalMembers, MemberView, RunResult
    from groupctl.coordinator.topics import Topic
    from groupctl.model import TopicPartition

_CONTEXT = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    help="Drive the in-process coordinator in DIR: topics, simulated consumers, and the virtual clock.",
    no_args_is_help=True,
    context_settings=_CONTEXT,
)
topics_app = typer.Typer(help="Create, grow and list the topics of DIR.", no_args_is_help=True,
                         context_settings=_CONTEXT)
member_app = typer.Typer(
    help="Simulated consumers (pods) kept in DIR: join, heartbeat, commit, leave, bounce, crash, start, list.",
    no_args_is_help=True,
    context_settings=_CONTEXT,
)
app.add_typer(topics_app, name="topics")
app.add_typer(member_app, name="member")

#: A topic's partitions in a local DIR (each has a log end offset kept in topics.json).
MAX_PARTITIONS = 100_000
DEFAULT_DOWN_MS = 10_000
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|s|m|h)?")
_UNIT_MS = {"ms": 1, "s": 1_000, "m": 60_000, "h": 3_600_000}


class Protocol(str, Enum):
    """group.protocol of a simulated member."""

    classic = "classic"
    consumer = "consumer"
    share = "share"


class Assignor(str, Enum):
    """The KIP-848 server-side assignors (group.remote.assignor)."""

    uniform = "uniform"
    range = "range"


def parse_duration(text: str, option: str) -> int:
    """`30s`, `1500ms`, `2m`, `1h`, `1.5s`; a bare number is milliseconds."""
    found = _DURATION.fullmatch(text.strip())
    if found is None:
        raise UsageError(f"{option}: '{text}' is not a duration; write e.g. 1500ms, 30s, 2m or 1h "
                         "(a bare number is milliseconds)")
    ms = float(found.group(1)) * _UNIT_MS[found.group(2) or "ms"]
    if ms != int(ms):
        raise UsageError(f"{option}: '{text}' is not a whole number of milliseconds")
    return int(ms)


def _csv_values(values: list[str] | None) -> list[str]:
    return [v.strip() for value in values or () for v in value.split(",") if v.strip()]


@contextmanager
def _session(local: Path | None, *, create: bool = False) -> Iterator[LocalBackend]:
    """DIR's backend for one command: locked until the end, notices said on stderr."""
    if local is None:
        raise UsageError(NO_LOCAL)
    from groupctl.backends.local import LocalBackend  # the coordinator is costly to import: only when used

    backend = LocalBackend(local, create=create)
    for notice in backend.notices:
        typer.echo(f"groupctl: note: {notice}", err=True)
    said = len(backend.notices)
    with backend:  # saved whole when the command is done, rolled back when it fails on the way
        yield backend
    for notice in backend.notices[said:]:
        typer.echo(f"groupctl: note: {notice}", err=True)


@contextmanager
def _members(local: Path | None) -> Iterator[LocalMembers]:
    """The simulated members of DIR; what they did is saved while the lock is still held."""
    from groupctl.backends.local_members import LocalMembers

    with _session(local) as backend:
        members = LocalMembers(backend)
        try:
            yield members
        finally:
            members.save()


# -- local topics ----------------------------------------------------------------------------------

TOPIC_COLUMNS = [
    Column("name", "NAME"),
    Column("topicId", "TOPIC-ID"),
    Column("partitions", "PARTITIONS"),
    Column("endOffsets", "END-OFFSETS", wide_only=True),
]


def _topic_row(backend: LocalBackend, topic: Topic) -> dict[str, Any]:
    from groupctl.model import TopicPartition
    from groupctl.protocol.primitives import uuid_to_kafka

    ends = backend.end_offsets(TopicPartition(topic.name, p) for p in range(topic.partitions))
    return {"name": topic.name, "topicId": uuid_to_kafka(topic.topic_id), "partitions": topic.partitions,
            "endOffsets": [ends.get(TopicPartition(topic.name, p), 0) for p in range(topic.partitions)]}


def _check_counts(partitions: int, messages: int) -> None:
    if partitions > MAX_PARTITIONS:
        raise UsageError(f"--partitions {partitions}: a topic in a local DIR has at most {MAX_PARTITIONS} partitions")
    if messages < 0:
        raise UsageError(f"--messages {messages}: a log end offset cannot be negative")


MessagesOption = typer.Option(
    0, "--messages", "-m", metavar="M", callback=kafka_int("a log end offset"),
    help="Log end offset of every (new) partition, so `group describe --offsets` shows lag. Default 0.",
)


@topics_app.command("create")
def topics_create(
    name: str = typer.Argument(..., metavar="NAME", help="The topic (Kafka's rules: 1-249 of [a-zA-Z0-9._-]).",
                               callback=topics_callback),
    partitions: int = typer.Option(..., "--partitions", "-p", metavar="N", help="How many partitions.",
                                   callback=kafka_int("a partition count", 32)),
    messages: int = MessagesOption,
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Create a topic in DIR, creating DIR itself when it holds no coordinator yet.

    The one command that may create DIR. Fails with Kafka's errors: INVALID_TOPIC_EXCEPTION for a
    bad name, TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS for fewer than one partition.
    """
    _check_counts(partitions, messages)
    with _session(local, create=True) as backend:
        row = _topic_row(backend, backend.create_topic(name, partitions, messages))
    render("LocalTopic", [row], TOPIC_COLUMNS, output_format(output))


@topics_app.command("add-partitions")
def topics_add_partitions(
    name: str = typer.Argument(..., metavar="NAME", help="The topic to grow.", callback=topics_callback),
    partitions: int = typer.Option(..., "--partitions", "-p", metavar="TOTAL",
                                   help="The partition count afterwards (Kafka never shrinks a topic).",
                                   callback=kafka_int("a partition count", 32)),
    messages: int = MessagesOption,
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Grow a topic to TOTAL partitions (CreatePartitions).

    KIP-848 groups subscribed to it rebalance at their members' next heartbeats (the group epoch
    moves); in a classic group the leader notices at its next heartbeat and rejoins. Kafka's errors
    for an unknown topic or a count that is not higher.
    """
    _check_counts(partitions, messages)
    with _session(local) as backend:
        row = _topic_row(backend, backend.add_partitions(name, partitions, messages))
    render("LocalTopic", [row], TOPIC_COLUMNS, output_format(output))


@topics_app.command("list")
def topics_list(local: Path = LocalOption, output: OutputFormat = OutputOption) -> None:
    """List DIR's topics: name, topic id (Kafka's base64 form), partitions; wide adds the log end offsets."""
    with _session(local) as backend:
        rows = [_topic_row(backend, t) for t in backend.topics]
    render("LocalTopic", rows, TOPIC_COLUMNS, output_format(output))


# -- local settings --------------------------------------------------------------------------------

SETTING_COLUMNS = [
    Column("name", "NAME"),
    Column("value", "VALUE"),
    Column("source", "SOURCE"),
    Column("default", "DEFAULT", wide_only=True),
    Column("description", "DESCRIPTION", wide_only=True, free=True),
]


@app.command("settings")
def settings_command(
    assignments: list[str] = typer.Argument(
        None, metavar="[KEY=VALUE]...",
        help="Settings to save in DIR, e.g. group.consumer.migration.policy=upgrade. None: just show them.",
    ),
    reset: list[str] = typer.Option(
        None, "--reset", metavar="KEY", help="Forget DIR's value of KEY: Kafka's default again (repeatable).",
    ),
    kafka: str = typer.Option(
        None, "--kafka-version", metavar="X.Y",
        help="The Kafka release DIR stands in for (kafka.version=X.Y): which release's records its log gets.",
        autocompletion=complete_coordinator_versions,
    ),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Show or set DIR's broker settings: what a broker's server.properties says to its group coordinator.

    Every --local command and `groupctl serve --local DIR` run the coordinator with them; a DIR with
    none set runs on Kafka's defaults. The settings (Kafka 4.x names, types and defaults):

    group.consumer.migration.policy: disabled, upgrade, downgrade or bidirectional (any case; default
    bidirectional). Whether a non-empty classic group becomes a consumer group when a
    consumer-protocol member joins it (upgrade), and a consumer group goes back to classic when its
    last consumer-protocol member leaves (downgrade). Empty groups convert either way regardless.

    group.consumer.max.size, group.max.size (at least 1); group.min.session.timeout.ms,
    group.max.session.timeout.ms, group.initial.rebalance.delay.ms (0 or more).

    kafka.version (also --kafka-version): the Kafka release DIR stands in for, 4.0 to 4.3 (default the
    newest). The coordinator writes that release's records: 4.0 writes ConsumerGroupPartitionMetadata
    (type 4), an epoch-only ConsumerGroupMetadata and OffsetCommitValue v3, as a 4.0 broker does; 4.1 and
    later write the MetadataHash instead. Changing it on a DIR with groups rebalances them once, as
    upgrading a broker does.

    Prints every setting with its value and SOURCE (DIR, or default); wide adds Kafka's default and
    what it governs. An unknown KEY or a bad value is a usage error (exit 2) naming the choices, and
    nothing is saved. Setting a value creates DIR if it holds no coordinator yet.
    """
    from groupctl.backends.local_settings import (
        KAFKA_VERSION,
        SETTINGS,
        SETTINGS_FILE,
        SettingError,
        effective,
        parse_assignments,
        settings_document,
    )

    pairs = list(assignments or ()) + ([f"{KAFKA_VERSION}={kafka}"] if kafka is not None else [])
    try:
        wanted = parse_assignments(pairs)
    except SettingError as exc:
        raise UsageError(str(exc)) from None
    forget = [name.strip() for name in reset or ()]
    unknown = [name for name in forget if name not in SETTINGS]
    if unknown:
        raise UsageError(f"--reset {unknown[0]}: not a broker setting of a local DIR; the settings are: "
                         f"{', '.join(SETTINGS)}")
    both = sorted(set(forget) & set(wanted))
    if both:
        raise UsageError(f"{both[0]} is both set and reset; give one of them")
    with _session(local, create=bool(wanted)) as backend:
        saved = {**backend.saved_settings, **wanted}
        for name in forget:
            saved.pop(name, None)
        if wanted or forget:
            backend.stage(backend.directory / SETTINGS_FILE, settings_document(saved))
    values = effective(saved)
    rows = [{"name": name, "value": values[name], "source": "DIR" if name in saved else "default",
             "default": s.default, "description": s.doc} for name, s in SETTINGS.items()]
    render("LocalSetting", rows, SETTING_COLUMNS, output_format(output))
    if wanted or forget:
        typer.echo(f"groupctl: note: saved in {local}; every --local command and `groupctl serve --local {local}` "
                   "started from now on use them", err=True)


# -- local member ----------------------------------------------------------------------------------

MEMBER_COLUMNS = [
    Column("name", "NAME"),
    Column("group", "GROUP"),
    Column("protocol", "PROTOCOL"),
    Column("instanceId", "INSTANCE-ID"),
    Column("status", "STATUS"),
    Column("memberId", "MEMBER-ID"),
    Column("epoch", "EPOCH"),
    Column("assignment", "ASSIGNMENT", free=True),
    Column("clientState", "CLIENT-STATE", wide_only=True),
    Column("subscription", "SUBSCRIPTION", wide_only=True, free=True),
    Column("sessionTimeoutMs", "SESSION-TIMEOUT", wide_only=True),
    Column("assignor", "ASSIGNOR", wide_only=True),
    Column("nextHeartbeatInMs", "NEXT-HEARTBEAT-IN", wide_only=True),
    Column("error", "ERROR", wide_only=True, free=True),
]
EVENT_COLUMNS = [
    Column("offsetMs", "AT", text=lambda row: f"+{row['offsetMs']}ms"),
    Column("group", "GROUP"),
    Column("member", "MEMBER"),
    Column("event", "EVENT"),
    Column("detail", "DETAIL", free=True),
    Column("time", "TIME", wide_only=True),
]
HEARTBEAT_COLUMNS = [
    Column("name", "NAME"),
    Column("group", "GROUP"),
    Column("api", "API"),
    Column("error", "ERROR"),
    Column("memberId", "MEMBER-ID"),
    Column("epoch", "EPOCH"),
    Column("assignment", "ASSIGNMENT", free=True),
    Column("message", "MESSAGE", wide_only=True, free=True),
    Column("intervalMs", "INTERVAL-MS", wide_only=True),
]

NameArgument = typer.Argument(..., metavar="NAME", help="The simulated member (a pod name).",
                              callback=name_callback("member name"))


def _member_row(view: MemberView) -> dict[str, Any]:
    return {
        "name": view.name, "group": view.group, "protocol": view.protocol, "instanceId": view.instance_id,
        "status": view.status, "memberId": view.member_id, "epoch": view.epoch,
        "assignment": format_assignment(view.assignment), "clientState": view.client_state,
        "subscription": f"/{view.regex}/" if view.regex is not None else ",".join(view.topics) or None,
        "sessionTimeoutMs": view.session_timeout_ms, "assignor": view.assignor,
        "nextHeartbeatInMs": view.next_heartbeat_in_ms, "error": view.error,
    }


def _event_rows(events: list[Event], started_ms: int) -> list[dict[str, Any]]:
    """Events as tables, CSV and JSON show them: `offsetMs` after the tick's start (the table's AT, `+300ms`),
    `atMs` on the virtual clock, and that time in ISO-8601."""
    return [{"offsetMs": e.at_ms - started_ms, "atMs": e.at_ms, "time": iso_ms(e.at_ms), "group": e.group,
             "member": e.member, "event": e.event, "detail": e.detail}
            for e in events]


def _epoch_words(result: RunResult, protocol: str) -> str:
    def kind(group_type: str | None) -> str:
        return "generation" if (group_type or protocol) == "classic" else "group epoch"

    before, after = result.epoch_before, result.epoch_after
    if before is None:
        return f"a new group, {kind(result.type_after)} {after}"
    if result.type_before != result.type_after:
        return (f"migrated from a {result.type_before} group, {kind(result.type_before)} {before}, to a "
                f"{result.type_after} group, {kind(result.type_after)} {after}")
    if before == after:
        return f"{kind(result.type_after)} {after}, unchanged"
    return f"{kind(result.type_after)} {before} -> {after}"


def _render_run(result: RunResult, output: OutputFormat | None, what: str) -> None:
    """The member's view on stdout; how the group settled on stderr; exit 1 when it did not or the member failed."""
    view = result.member
    assert view is not None
    fmt = output_format(output)
    item = {**to_item(view), "run": {
        "settled": result.settled, "virtualMs": result.virtual_ms, "startedMs": result.started_ms,
        "endedMs": result.ended_ms, "epochBefore": result.epoch_before, "epochAfter": result.epoch_after,
        "sent": result.sent, "events": _event_rows(result.events, result.started_ms),
    }}
    render("LocalMember", [_member_row(view)], MEMBER_COLUMNS, fmt, items=[item])
    if result.sent is not None:
        typer.echo(f"groupctl: note: member '{view.name}' closed, sending {result.sent}", err=True)
    if view.status == "failed":
        hint = ""
        if view.error and "online upgrade is disabled" in view.error:
            hint = (" (DIR's group.consumer.migration.policy allows no upgrade of a non-empty classic group; "
                    "`groupctl local settings group.consumer.migration.policy=upgrade` or bidirectional allows it)")
        raise GroupctlError(f"member '{view.name}' stopped on an error while it {what}: {view.error}{hint}")
    if not result.settled:
        raise GroupctlError(
            f"group '{view.group}' did not settle within {result.virtual_ms} ms of virtual time after member "
            f"'{view.name}' {what}; the members keep running: `groupctl local tick 1m` moves time on and "
            f"`groupctl group describe {view.group} --state` shows where the group is"
        )
    typer.echo(f"groupctl: note: group '{view.group}' settled after {result.virtual_ms} ms of virtual time "
               f"({_epoch_words(result, view.protocol)})", err=True)


@member_app.command("join")
def member_join(
    name: str = NameArgument,
    group: str = typer.Option(..., "--group", "-g", metavar="G", help="The group (group.id) to join.",
                              callback=group_ids_callback,
                              autocompletion=complete_local_group_ids),
    protocol: Protocol = typer.Option(
        Protocol.classic, "--protocol", case_sensitive=False,
        help="group.protocol: classic (JoinGroup/SyncGroup, eager range), consumer (KIP-848), or share (a share "
        "consumer, KIP-932: ShareGroupHeartbeat; topics by name only).",
    ),
    instance_id: str = typer.Option(
        None, "--instance-id", "-i", metavar="ID", help="group.instance.id: a static member (KIP-345).",
        callback=name_callback("group.instance.id"),
    ),
    topics: list[str] = typer.Option(
        None, "--topics", "-t", metavar="T[,T...]", help="Subscribe to these topics (comma-separated or repeated).",
        callback=topics_callback,
    ),
    regex: str = typer.Option(
        None, "--regex", "-r", metavar="R",
        help="Subscribe by pattern instead: classic resolves it in the client (java.util.regex full match), "
        "consumer sends it to the broker (RE2/J).",
        callback=name_callback("regular expression"),
    ),
    session_timeout: int = typer.Option(
        None, "--session-timeout", metavar="MS", callback=kafka_int("session.timeout.ms", 32),
        help="session.timeout.ms of a classic member (default 45000), within DIR's group.min/max.session.timeout.ms "
        "(Kafka's defaults: 6000..1800000). KIP-848 members have none: set the group's consumer.session.timeout.ms "
        "with `group config set`.",
    ),
    assignor: Assignor = typer.Option(
        None, "--assignor", case_sensitive=False,
        help="KIP-848: group.remote.assignor, uniform or range (default: the broker's, uniform). Classic members "
        "run the Java client's range assignor.",
    ),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Start a new simulated member NAME in group G, and run DIR's world until the group has settled.

    The member behaves as the Java consumer with its defaults: classic members heartbeat every
    3000 ms and rebalance eagerly with the range assignor (the leader assigns); KIP-848 members
    heartbeat at the interval the broker returns. Every running member of DIR takes part while
    virtual time moves. Gives up after 600000 ms (10 min) of virtual time without the group
    settling (exit 1; the members keep their state). Prints the member: member id, epoch
    (classic: the generation), assignment.
    """
    from groupctl.backends.local_members import DEFAULT_SESSION_TIMEOUT_MS, MemberLaunch

    if not INSTANCE_ID_PATTERN.fullmatch(name):
        raise UsageError(f"member name '{name}' must be 1 to 249 ASCII letters, digits, '.', '_' or '-' "
                         "(it is the member's client.id)")
    if group == "":
        raise UsageError("--group: the group id cannot be empty (INVALID_GROUP_ID)")
    if instance_id is not None and not is_instance_id(instance_id):
        raise UsageError(f"--instance-id '{instance_id}' is not a group.instance.id: Kafka allows 1 to 249 ASCII "
                         "letters, digits, '.', '_' and '-'")
    names = list(dict.fromkeys(_csv_values(topics)))
    if bool(names) == (regex is not None):
        raise UsageError("give the subscription: either --topics a,b or --regex R")
    if protocol is Protocol.share and (regex is not None or instance_id is not None or assignor is not None
                                       or session_timeout is not None):
        raise UsageError("--protocol share takes --topics only: share groups have no static members, no pattern "
                         "subscriptions, one assignor (simple), and their session timeout is the group config "
                         f"share.session.timeout.ms (groupctl group config set {group} share.session.timeout.ms=MS)")
    if regex is not None:
        _check_regex(regex, protocol)
    if protocol is Protocol.consumer and session_timeout is not None:
        raise UsageError("--session-timeout is a classic-protocol setting; a KIP-848 group's session timeout is "
                         f"its config: groupctl group config set {group} consumer.session.timeout.ms=MS")
    if protocol is Protocol.classic and assignor is Assignor.uniform:
        raise UsageError("--assignor uniform is a KIP-848 server-side assignor; classic members assign in the "
                         "leader with the Java client's default, range (use --protocol consumer)")
    spec = MemberLaunch(
        name, group, protocol.value, tuple(names), regex, instance_id,
        session_timeout if session_timeout is not None else DEFAULT_SESSION_TIMEOUT_MS,
        assignor.value if assignor is not None and protocol is Protocol.consumer else None,
    )
    with _members(local) as members:
        if protocol is Protocol.classic:
            _check_session_timeout(session_timeout, members.coord.classic_settings)
        missing = [t for t in names if t not in members.backend.topics]
        result = members.join(spec)
    for topic in missing:
        typer.echo(f"groupctl: note: topic '{topic}' does not exist in {local}; the member subscribes to it all "
                   "the same, as a consumer does (create it with `groupctl local topics create`)", err=True)
    _render_run(result, output, "joined")


def _check_regex(regex: str, protocol: Protocol) -> None:
    if protocol is Protocol.consumer:
        from groupctl.regex import InvalidRegex, compile_topic_regex

        try:
            compile_topic_regex(regex)
        except InvalidRegex as exc:
            raise UsageError(f"--regex: INVALID_REGULAR_EXPRESSION: {exc}") from None
        return
    try:
        re.compile(regex)
    except re.error as exc:
        raise UsageError(f"--regex '{regex}' is not a valid pattern: {exc}") from None


def _check_session_timeout(value: int | None, settings: dict[str, int]) -> None:
    """DIR's bounds (its broker settings), so the member is refused before it sends anything."""
    if value is None:
        return
    low, high = settings["group.min.session.timeout.ms"], settings["group.max.session.timeout.ms"]
    if not low <= value <= high:
        raise UsageError(f"--session-timeout {value}: the broker answers INVALID_SESSION_TIMEOUT outside "
                         f"group.min.session.timeout.ms ({low}) .. group.max.session.timeout.ms ({high})")


@member_app.command("start")
def member_start(name: str = NameArgument, local: Path = LocalOption, output: OutputFormat = OutputOption) -> None:
    """Start a stopped, crashed or failed member again (a new process: a new member id) and settle its group.

    A static member back within its session timeout takes its old place without a rebalance.
    """
    with _members(local) as members:
        result = members.start(name)
    _render_run(result, output, "started")


@member_app.command("heartbeat")
def member_heartbeat(name: str = NameArgument, local: Path = LocalOption, output: OutputFormat = OutputOption) -> None:
    """Send one heartbeat now and print the answer (exit 1 when it is an error).

    Classic: Heartbeat with the member's generation (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION,
    UNKNOWN_MEMBER_ID ...); KIP-848: ConsumerGroupHeartbeat (a new assignment when there is one).
    The member acts on the answer as on a due heartbeat's; no time passes.
    """
    with _members(local) as members:
        result = members.heartbeat(name)
    view, hb = result.member, result.heartbeat
    assert view is not None and hb is not None
    row = {
        "name": view.name, "group": view.group,
        "api": {"classic": "Heartbeat", "share": "ShareGroupHeartbeat"}.get(view.protocol, "ConsumerGroupHeartbeat"),
        "error": hb.error, "memberId": hb.member_id or None, "epoch": hb.epoch,
        "assignment": None if hb.assignment is None else format_assignment(_partitions(hb.assignment)),
        "message": hb.message, "intervalMs": hb.interval_ms,
    }
    render("LocalHeartbeat", [row], HEARTBEAT_COLUMNS, output_format(output))
    if hb.error != "NONE":
        raise GroupctlError(f"the heartbeat of member '{name}' was answered {hb.error}"
                            + (f": {hb.message}" if hb.message else ""))


def _partitions(pairs: Iterable[tuple[str, int]]) -> list[TopicPartition]:
    from groupctl.model import TopicPartition

    return [TopicPartition(t, p) for t, p in sorted(pairs)]


COMMIT_COLUMNS = [
    Column("name", "NAME"),
    Column("group", "GROUP"),
    Column("topic", "TOPIC"),
    Column("partition", "PARTITION"),
    Column("offset", "OFFSET"),
    Column("logEndOffset", "LOG-END-OFFSET"),
    Column("lag", "LAG"),
    Column("result", "RESULT"),
]


@member_app.command("commit")
def member_commit(
    name: str = NameArgument,
    offset: int = typer.Option(None, "--offset", metavar="N", help="Commit this offset on every owned partition.",
                               callback=kafka_int("a committed offset")),
    lag: int = typer.Option(
        None, "--lag", metavar="L", callback=kafka_int("a lag (log end offset minus committed offset)"),
        help="Commit each owned partition's log end offset minus L (at least 0). Default: 0, caught up.",
    ),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Commit offsets for the partitions the member owns now, as its `commitSync()` would.

    Simulated members consume nothing on their own; this puts committed offsets (and so lag) where a
    scenario needs them. Sent with the member's id and generation or member epoch: a member that
    missed a rebalance gets Kafka's error (ILLEGAL_GENERATION, STALE_MEMBER_EPOCH ...), exit 1.
    """
    if offset is not None and lag is not None:
        raise UsageError("give --offset or --lag, not both")
    if (offset is not None and offset < 0) or (lag is not None and lag < 0):
        raise UsageError("offsets and lags are never negative")
    with _members(local) as members:
        group = members.view(name).group
        commits = members.commit(name, offset=offset, lag=lag or 0)
    rows = [{"name": name, "group": group, "topic": c.partition.topic, "partition": c.partition.partition,
             "offset": c.offset, "logEndOffset": c.log_end_offset, "lag": max(c.log_end_offset - c.offset, 0),
             "result": c.error} for c in commits]
    render("LocalCommit", rows, COMMIT_COLUMNS, output_format(output))
    failed = [c for c in commits if c.error != "NONE"]
    if failed:
        were = plural(len(failed), "was", "were")
        raise PartialFailure(f"{len(failed)} of {counted(len(commits), 'partition')} {were} not committed")


@member_app.command("leave")
def member_leave(name: str = NameArgument, local: Path = LocalOption, output: OutputFormat = OutputOption) -> None:
    """Close the member gracefully, as `KafkaConsumer.close()` does, and let the rest of the group settle.

    A dynamic classic member sends LeaveGroup. A static classic member sends nothing (KIP-345): it
    stays in the group, holding its partitions, until its session timeout expires on later ticks. A
    KIP-848 member sends a heartbeat with epoch -1, or -2 when static (the coordinator keeps its
    assignment for the session timeout).
    """
    with _members(local) as members:
        result = members.leave(name)
    _render_run(result, output, "left")


@member_app.command("bounce")
def member_bounce(
    name: str = NameArgument,
    down: str = typer.Option(
        str(DEFAULT_DOWN_MS), "--down", metavar="MS",
        help="How long the member stays down while the others run: milliseconds, or 10s, 2m ... Default 10000.",
    ),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Restart the member: close it, run the others for --down, start it again, settle its group.

    One step of a rolling restart. A static member back within its session timeout takes its old
    place and assignment: neither the classic generation nor the KIP-848 group epoch moves.
    """
    down_ms = parse_duration(down, "--down")
    from groupctl.backends.local_members import SETTLE_LIMIT_MS

    if down_ms > SETTLE_LIMIT_MS:
        raise UsageError(f"--down {down}: at most {SETTLE_LIMIT_MS} ms; for longer, `member leave` or `crash`, "
                         "`local tick`, then `member start`")
    with _members(local) as members:
        result = members.bounce(name, down_ms)
    _render_run(result, output, "restarted")


@member_app.command("crash")
def member_crash(name: str = NameArgument, local: Path = LocalOption, output: OutputFormat = OutputOption) -> None:
    """Kill the member's process: nothing is sent, no time passes.

    The coordinator notices only when the member's session expires (classic: its session.timeout.ms;
    KIP-848: the group's consumer.session.timeout.ms) on later ticks; then the group rebalances.
    """
    with _members(local) as members:
        result = members.crash(name)
    view = result.member
    assert view is not None
    render("LocalMember", [_member_row(view)], MEMBER_COLUMNS, output_format(output), items=[to_item(view)])
    typer.echo(f"groupctl: note: member '{name}' crashed without a word; the coordinator removes it when its "
               "session expires (`groupctl local tick DURATION` moves the clock)", err=True)


@member_app.command("list")
def member_list(
    group: str = typer.Option(None, "--group", "-g", metavar="G", help="Only the members of this group.",
                              callback=group_ids_callback,
                              autocompletion=complete_local_group_ids),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """List the simulated members: group, protocol, instance id, status, member id, epoch, assignment.

    STATUS is running, stopped (left), crashed, or failed (the client stopped itself on a fatal
    error, shown in wide's ERROR). EPOCH is the generation of a classic member, the member epoch of
    a KIP-848 one, as the member last saw it.
    """
    with _members(local) as members:
        views = members.views(group)
    render("LocalMember", [_member_row(v) for v in views], MEMBER_COLUMNS, output_format(output),
           items=[to_item(v) for v in views])


# -- local tick ------------------------------------------------------------------------------------


@app.command("tick")
def tick(
    duration: str = typer.Argument(..., metavar="DURATION", help="How far to move the clock: 1500ms, 30s, 2m, 1h."),
    local: Path = LocalOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Advance DIR's virtual clock, every running member heartbeating as due and the coordinator's timers firing.

    Prints what changed, one row per event: members that joined, were removed (session timeout,
    rebalance timeout) or came back (a static member's new member id), rebalances (generation or
    group epoch), group state changes, members' assignments, and errors members met.
    """
    from groupctl.backends.local_members import MAX_TICK_MS

    ms = parse_duration(duration, "DURATION")
    if ms > MAX_TICK_MS:
        raise UsageError(f"DURATION {duration}: at most {MAX_TICK_MS} ms (a day) per tick")
    with _members(local) as members:
        result = members.tick(ms)
    rows = _event_rows(result.events, result.started_ms)
    render("LocalEvent", rows, EVENT_COLUMNS, output_format(output))
    typer.echo(f"groupctl: note: the virtual clock moved {ms} ms to {iso_ms(result.ended_ms)}"
               + ("" if rows else "; nothing changed"), err=True)
