"""`groupctl dump`: read `__consumer_offsets` offline, without a JVM or a broker."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any

import typer

from groupctl.cli.audit_views import FailOn, FailOnOption, check_fail_on, render_report
from groupctl.cli.completion import complete_dump_versions, complete_record_types
from groupctl.cli.names import group_ids_callback
from groupctl.cli.options import INT32_MAX, OutputOption, output_format, settings
from groupctl.cli.reading import DumpReading
from groupctl.errors import GroupctlError, PartialFailure, UsageError
from groupctl.log.kafka_versions import NEWEST, SUPPORTED_VERSIONS
from groupctl.output import Column, OutputFormat, render, write_prose
from groupctl.plurals import counted, plural

app = typer.Typer(
    help="Read __consumer_offsets offline: raw segment files, partition directories, and "
    "kafka-dump-log output.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LOCATE_COLUMNS = [
    Column("group", "GROUP"),
    Column("partition", "PARTITION"),
    Column("directory", "DIRECTORY", wide_only=True),
    Column("hashCode", "HASHCODE", wide_only=True),
]


@app.command("locate")
def locate(
    groups: list[str] = typer.Argument(
        ..., metavar="GROUP", help="Group ids to place.", callback=group_ids_callback
    ),
    partitions: int = typer.Option(
        50,
        "--partitions",
        "-p",
        min=1,
        help="Partition count of __consumer_offsets (the broker's offsets.topic.num.partitions).",
    ),
    output: OutputFormat = OutputOption,
) -> None:
    """Print which __consumer_offsets partition holds each GROUP.

    Uses the broker's rule: abs(Java String.hashCode(group)) % partitions, so the answer matches
    the partition whose leader coordinates the group and the directory holding its records.
    """
    from groupctl.log.partitioning import java_string_hash, partition_for

    rows = [
        {
            "group": g,
            "partition": partition_for(g, partitions),
            "directory": f"__consumer_offsets-{partition_for(g, partitions)}",
            "hashCode": java_string_hash(g),
        }
        for g in groups
    ]
    render("GroupLocation", rows, LOCATE_COLUMNS, output_format(output))


class DecodeFormat(str, Enum):
    """What `dump decode --format` prints."""

    table = "table"
    dump_log = "dump-log"
    jsonl = "jsonl"


#: Starts the VALUE cell of a record whose batch failed its CRC check (the JSON says crcValid: false).
CRC_MARK = "CRC✗"


def _value_text(row: dict[str, Any]) -> str:
    """VALUE as the table shows it: marked when the bytes are not what was written."""
    value = row.get("value")
    text = "-" if value is None else str(value)
    return text if row.get("crcValid", True) else f"{CRC_MARK} {text}"


RECORD_COLUMNS = [
    Column("file", "FILE", wide_only=True),
    Column("position", "POSITION", wide_only=True),
    Column("offset", "OFFSET"),
    Column("timestamp", "TIMESTAMP", timestamp=True),
    Column("type", "TYPE"),
    Column("version", "VERSION", wide_only=True),
    Column("group", "GROUP"),
    Column("key", "KEY"),
    Column("value", "VALUE", free=True, text=_value_text),
]
#: CSV has the check as a column of its own, last so the columns before it keep their places.
RECORD_CSV_COLUMNS = [*RECORD_COLUMNS, Column("crcValid", "CRC-VALID")]


def _record_types(spec: str | None) -> list[int] | None:
    """`1,2` or `OFFSET_COMMIT,group_metadata` -> [1, 2]."""
    if not spec:
        return None
    from groupctl.protocol.records import RECORD_TYPE_NAMES

    by_name = {name.lower(): t for t, name in RECORD_TYPE_NAMES.items()}
    types = []
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        if part.lstrip("-").isdigit():
            types.append(int(part))
        elif part.lower() in by_name:
            types.append(by_name[part.lower()])
        else:
            known = ", ".join(f"{t}={n}" for t, n in sorted(RECORD_TYPE_NAMES.items()))
            raise UsageError(f"unknown record type '{part}'; use a number or a name: {known}")
    return types


ShareStateOption = typer.Option(
    False, "--share-group-state-decoder",
    help="Read every input as __share_group_state (the share coordinator's ShareSnapshot and ShareUpdate "
    "records), as kafka-dump-log.sh --share-group-state-decoder does. Without it a file's directory tells: "
    "__share_group_state-N, else __consumer_offsets.",
)


def _topic(share_state: bool) -> str | None:
    from groupctl.protocol.share_state import SHARE_STATE_TOPIC

    return SHARE_STATE_TOPIC if share_state else None


@app.command("decode")
def decode(
    paths: list[Path] = typer.Argument(
        ...,
        metavar="PATH",
        help="Segment files (.log), partition directories, directories of partition directories, "
        "or kafka-dump-log --offsets-decoder text files. The kind is detected.",
    ),
    fmt: DecodeFormat = typer.Option(
        DecodeFormat.table,
        "--format",
        "-f",
        help="table: one row per record; dump-log: exactly what kafka-dump-log.sh --deep-iteration "
        "--offsets-decoder of the Kafka release --kafka-version prints; jsonl: one JSON object per record, "
        "with every field decoded whatever the release.",
        case_sensitive=False,
    ),
    kafka_version: str = typer.Option(
        None,
        "--kafka-version",
        metavar="X.Y",
        help="With --format dump-log: the Kafka release whose kafka-dump-log.sh to copy, "
        f"{', '.join(SUPPORTED_VERSIONS)} (default {NEWEST}). Releases differ in the record types and "
        "tagged fields they know, in how they read value versions they do not know, and in the "
        "legacy (magic 0/1) record line.",
        autocompletion=complete_dump_versions,
    ),
    groups: list[str] = typer.Option(None, "--group", "-g", help="Only records of this group (repeatable)."),
    record_type: str = typer.Option(
        None, "--record-type", "-t", help="Only these record types: numbers or names, comma-separated "
        "(1,2 or OFFSET_COMMIT,GROUP_METADATA).", autocompletion=complete_record_types,
    ),
    from_offset: int = typer.Option(None, "--from-offset", help="Only records at this offset or later."),
    to_offset: int = typer.Option(None, "--to-offset", help="Only records at this offset or earlier."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first damaged batch instead of skipping it."),
    share_state: bool = ShareStateOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Decode __consumer_offsets (or __share_group_state) records: every key and value, every batch header.

    Damaged batches (a torn last batch too) are reported on stderr with file, byte position and
    reason, and decoding goes on with the next batch; the exit code is then 3. --output applies to
    --format table (json and yaml give the same objects as jsonl inside the groupctl/v1 envelope).
    """
    from groupctl.log.decode import make_filter

    out_fmt = output_format(output)
    if fmt is not DecodeFormat.table and output is not None and out_fmt is not OutputFormat.table:
        raise UsageError(f"--output {out_fmt.value} applies to --format table only; --format {fmt.value} "
                         "has its own layout")
    kafka = _kafka_profile(fmt, kafka_version)
    chosen = make_filter(groups, _record_types(record_type), from_offset, to_offset)
    keep = None if chosen is None else _Matches(chosen)

    def records(inputs):
        for dump in inputs:
            for _batch, recs in dump.batches:
                for rec in recs:
                    if keep is None or keep(rec):
                        yield dump, rec

    with DumpReading(paths, strict=strict, topic=_topic(share_state)) as reading:
        inputs = reading.dumps()
        if fmt is DecodeFormat.dump_log:
            from groupctl.log.dumplog import write_dump_log

            for _ in write_dump_log(inputs, sys.stdout, keep, kafka):
                pass
        elif fmt is DecodeFormat.jsonl:
            from groupctl.log.jsonl import write_jsonl

            write_jsonl(inputs, sys.stdout, keep)
        elif out_fmt in (OutputFormat.json, OutputFormat.yaml):
            from groupctl.log.jsonl import record_jsonable

            items = [record_jsonable(rec, dump.path) for dump, rec in records(inputs)]
            render("RecordList", [], RECORD_COLUMNS, out_fmt, items=items)
        else:
            from groupctl.log.jsonl import table_row

            marked = 0

            def rows():
                nonlocal marked
                for dump, rec in records(inputs):
                    row = table_row(rec, dump.path)
                    if not row["crcValid"]:
                        marked += 1
                    yield row

            if out_fmt is OutputFormat.csv:
                render("RecordList", rows(), RECORD_CSV_COLUMNS, out_fmt)
            else:
                render("RecordList", rows(), RECORD_COLUMNS, out_fmt)
                if marked:
                    typer.echo("")
                    write_prose(f"{CRC_MARK}: {counted(marked, 'record')} from a batch whose CRC check failed (see the "
                                "warnings on stderr): their bytes are not what was written, so what they show "
                                "may be wrong")
    if keep is not None:
        keep.say_what_did_not_match(groups, record_type, from_offset, to_offset)
    reading.report(debug=settings.debug)


class _Matches:
    """The records filter, counting what it lets through: a filter that matched nothing is said on stderr
    (exit 0: an empty answer is an answer), so a mistyped group id is not mistaken for a quiet group."""

    def __init__(self, keep: Callable[[Any], bool]) -> None:
        self.keep = keep
        self.count = 0
        self.groups: set[str | None] = set()

    def __call__(self, rec: Any) -> bool:
        if not self.keep(rec):
            return False
        self.count += 1
        self.groups.add(rec.group)
        return True

    def say_what_did_not_match(self, groups: list[str] | None, types: str | None, start: int | None,
                               end: int | None) -> None:
        if self.count == 0:
            given = [*(f"--group {g}" for g in groups or ()), *([f"--record-type {types}"] if types else []),
                     *([f"--from-offset {start}"] if start is not None else []),
                     *([f"--to-offset {end}"] if end is not None else [])]
            hint = "; `groupctl dump groups PATH` lists the groups in the dump" if groups else ""
            typer.echo(f"groupctl: note: no record matched {' '.join(given)}{hint}", err=True)
            return
        for group in dict.fromkeys(groups or ()):
            if group not in self.groups:
                typer.echo(f"groupctl: note: no record of group '{group}' matched", err=True)


def _kafka_profile(fmt: DecodeFormat, version: str | None):
    """The release dump-log copies. Other formats are groupctl's own and show every decoded field,
    so a version there would change nothing: it is refused rather than silently ignored."""
    from groupctl.log.kafka_versions import check_version, profile

    if fmt is not DecodeFormat.dump_log:
        if version is not None:
            raise UsageError(f"--kafka-version applies to --format dump-log only; --format {fmt.value} is "
                             "groupctl's own and keeps every field it decoded, whatever the Kafka release")
        return None
    try:
        return profile(NEWEST if version is None else check_version(version))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _exists(arg: str) -> bool:
    """Whether ARG names something on disk; one that cannot even be looked at counts (reading it says why)."""
    try:
        return Path(arg).exists()
    except OSError:
        return True


def _split_paths_and_groups(args: list[str]) -> tuple[list[Path], list[str]]:
    """`PATH... [GROUP...]`: the leading arguments that exist on disk are inputs, the rest group ids."""
    paths: list[Path] = []
    for i, arg in enumerate(args):
        if _exists(arg):
            paths.append(Path(arg))
        else:
            if not paths:
                raise UsageError(f"'{arg}' does not exist; give the dump first (segment files, partition "
                                 "directories or kafka-dump-log text), then the group ids")
            return paths, args[i:]
    return paths, []


@app.command("groups")
def groups(
    args: list[str] = typer.Argument(
        ..., metavar="PATH... [GROUP...]",
        help="The dump (segment files, partition directories, kafka-dump-log text), then the groups to "
        "show (all groups when none is named).",
    ),
    members: bool = typer.Option(False, "--members", help="One row per member: ids, host, protocol, epoch."),
    offsets: bool = typer.Option(False, "--offsets", help="One row per committed partition (the default view)."),
    state: bool = typer.Option(False, "--state", help="One row per group: state, epochs, convergence, migration."),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="More columns: assignments, subscriptions, leader epochs (as -o wide)."
    ),
    topic_ids: Path = typer.Option(
        None, "--topic-ids", metavar="FILE",
        help="Names for the topic ids the dump does not name itself (the dump's own names are always used): "
        "kafka-topics.sh --describe output, JSON, or 'name id' lines. Without it such an id is shown as is.",
    ),
    partitions: int = typer.Option(
        50, "--partitions", min=1, max=INT32_MAX,
        help="offsets.topic.num.partitions: the partition each group id hashes to (-o wide, and a note when the "
        "records were read from another one).",
    ),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first damaged batch instead of skipping it."),
    output: OutputFormat = OutputOption,
) -> None:
    """Describe groups as they stand at the end of a dump, rebuilt the way the broker's loader does.

    Offsets, transactional commits and their markers, tombstones, classic group metadata and KIP-848
    records are replayed in order; the result is shown like a live `group describe`. KIP-848 records
    name topics by id: they are shown by the names the dump itself holds (ConsumerGroupPartitionMetadata,
    OffsetCommitValue v4), and by --topic-ids for the rest. COORDINATOR is the partition the group's
    records were read from. Share groups (types 10-15) are rebuilt too; give their __share_group_state-N
    partitions as well for each share-partition's start offset, epochs and in-flight record batches.
    """
    from groupctl.cli.group_views import DUMP_SHARE_STATE_COLUMNS, DUMP_STATE_COLUMNS, View, render_groups
    from groupctl.dumps import describe_dump_groups, replay_dumps

    chosen = [v for v, on in ((View.members, members), (View.offsets, offsets), (View.state, state)) if on]
    if len(chosen) > 1:
        raise UsageError("only one of --members, --offsets and --state can be given")
    view = chosen[0] if chosen else View.offsets
    paths, wanted = _split_paths_and_groups(args)
    names: dict[str, str] = {}
    if topic_ids is not None:
        from groupctl.log.topic_ids import load_topic_ids

        names = load_topic_ids(topic_ids)
    with DumpReading(paths, strict=strict, what="replaying") as reading:
        replayed = replay_dumps(reading.dumps())
    found = describe_dump_groups(replayed, wanted, partitions=partitions, topic_names=names)
    if found.descriptions or not found.missing:
        render_groups(found.descriptions, view, output_format(output), verbose=verbose,
                      columns=DUMP_STATE_COLUMNS if view is View.state else None,
                      share_columns=DUMP_SHARE_STATE_COLUMNS if view is View.state else None)
    if found.strays:
        said = [f"'{s.group_id}' from {', '.join(map(str, s.read_from))}, hashes to {s.hashed}" for s in found.strays]
        shown = "; ".join(said[:3]) + (f"; {len(said) - 3} more" if len(said) > 3 else "")
        read = plural(len(said), "group was", "groups were")
        typer.echo(f"groupctl: note: {len(said)} {read} read from another partition than the one their id "
                   f"hashes to with --partitions {partitions} ({shown}): the broker looks for a group only there; "
                   "check --partitions (offsets.topic.num.partitions) and the partition directories' names", err=True)
    for g in found.missing:
        typer.echo(f"groupctl: error: group '{g}' does not exist in the dump", err=True)
    reading.report(debug=settings.debug)
    if found.missing:
        cls = PartialFailure if found.descriptions else GroupctlError
        raise cls(f"{len(found.missing)} of {counted(len(wanted), 'group')} not found in the dump")


@app.command("audit")
def audit(
    paths: list[Path] = typer.Argument(
        ..., metavar="PATH", help="Segment files, partition directories, directories of them, or kafka-dump-log text."
    ),
    fail_on: FailOn = FailOnOption,
    output: OutputFormat = OutputOption,
) -> None:
    """Check a dump for what goes wrong in __consumer_offsets, and summarise what it holds.

    Findings: hanging and aborted transactional commits, offsets going backwards, expired offsets,
    groups recommitted after deletion, KIP-848 member records without their group, empty groups whose
    epochs disagree, partitions owned twice, static instance ids held twice, undecodable subscriptions,
    unknown record types, damaged batches and torn last batches. Summaries: records and bytes per group
    and per record type, the tombstone ratio and each group's commit rate. Damaged input (a damaged or
    torn batch, a bad dump-log line, a record whose key or value does not decode) makes the exit code 3,
    as in `dump decode` and `dump groups`: the audit saw only part of the dump, so 3 wins over --fail-on's
    4. Damaged batches are also reported on stderr.
    """
    from groupctl.dumps import audit_dumps

    with DumpReading(paths, what="auditing") as reading:
        report = audit_dumps(reading.dumps())
    render_report(report, output_format(output))
    share_state = [d.path for d in reading.files if d.topic != "__consumer_offsets"]
    if share_state:
        typer.echo(f"groupctl: note: {counted(len(share_state), '__share_group_state file')} read but not audited "
                   f"(the rules are about __consumer_offsets): {', '.join(share_state[:3])}", err=True)
    check_fail_on(report, fail_on)
