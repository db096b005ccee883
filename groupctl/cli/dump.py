"""`groupctl dump`: read `__consumer_offsets` offline, without a JVM or a broker."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from groupctl.cli.audit_views import FailOn, FailOnOption, check_fail_on, render_report
from groupctl.cli.names import group_ids_callback
from groupctl.cli.options import OutputOption, output_format, settings
from groupctl.cli.reading import DumpReading
from groupctl.errors import GroupctlError, PartialFailure, UsageError
from groupctl.log.kafka_versions import NEWEST, SUPPORTED_VERSIONS
from groupctl.output import Column, OutputFormat, render

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


RECORD_COLUMNS = [
    Column("file", "FILE", wide_only=True),
    Column("position", "POSITION", wide_only=True),
    Column("offset", "OFFSET"),
    Column("timestamp", "TIMESTAMP"),
    Column("type", "TYPE"),
    Column("version", "VERSION", wide_only=True),
    Column("group", "GROUP"),
    Column("key", "KEY"),
    Column("value", "VALUE"),
]


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
    ),
    groups: list[str] = typer.Option(None, "--group", "-g", help="Only records of this group (repeatable)."),
    record_type: str = typer.Option(
        None, "--record-type", "-t", help="Only these record types: numbers or names, comma-separated "
        "(1,2 or OFFSET_COMMIT,GROUP_METADATA)."
    ),
    from_offset: int = typer.Option(None, "--from-offset", help="Only records at this offset or later."),
    to_offset: int = typer.Option(None, "--to-offset", help="Only records at this offset or earlier."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first damaged batch instead of skipping it."),
    output: OutputFormat = OutputOption,
) -> None:
    """Decode __consumer_offsets records: every key and value, every batch header.

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
    keep = make_filter(groups, _record_types(record_type), from_offset, to_offset)

    def records(inputs):
        for dump in inputs:
            for _batch, recs in dump.batches:
                for rec in recs:
                    if keep is None or keep(rec):
                        yield dump, rec

    with DumpReading(paths, strict=strict) as reading:
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

            width = None if out_fmt in (OutputFormat.wide, OutputFormat.csv) else 100
            rows = (table_row(rec, dump.path, width) for dump, rec in records(inputs))
            render("RecordList", rows, RECORD_COLUMNS, out_fmt)
    reading.report(verbose=settings.verbose)


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


def _replay(paths: list[Path], strict: bool):
    """Replay every record of the inputs into one state; returns it with the reading (for problems)."""
    from groupctl.log.replay import Replay

    replay = Replay()
    apply = replay.apply
    with DumpReading(paths, strict=strict, what="replaying") as reading:
        for _dump, rec in reading.records():
            apply(rec)
    return replay, reading


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
        False, "--verbose", help="More columns: assignments, subscriptions, leader epochs (as -o wide)."
    ),
    topic_ids: Path = typer.Option(
        None, "--topic-ids", metavar="FILE",
        help="Show topic ids as names: kafka-topics.sh --describe output, JSON, or 'name id' lines.",
    ),
    partitions: int = typer.Option(
        50, "--partitions", min=1, help="offsets.topic.num.partitions, to name each group's coordinator partition."
    ),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first damaged batch instead of skipping it."),
    output: OutputFormat = OutputOption,
) -> None:
    """Describe groups as they stand at the end of a dump, rebuilt the way the broker's loader does.

    Offsets, transactional commits and their markers, tombstones, classic group metadata and KIP-848
    records are replayed in order; the result is shown like a live `group describe`. KIP-848 records
    name topics by id: pass --topic-ids to see names.
    """
    from groupctl.cli.group_views import View, render_groups
    from groupctl.describe import describe_replayed
    from groupctl.log.partitioning import partition_for

    chosen = [v for v, on in ((View.members, members), (View.offsets, offsets), (View.state, state)) if on]
    if len(chosen) > 1:
        raise UsageError("only one of --members, --offsets and --state can be given")
    view = chosen[0] if chosen else View.offsets
    paths, wanted = _split_paths_and_groups(args)
    names = None
    if topic_ids is not None:
        from groupctl.log.topic_ids import load_topic_ids

        names = load_topic_ids(topic_ids)
    replay, reading = _replay(paths, strict)
    existing = replay.group_ids()
    missing = [g for g in wanted if g not in existing]
    selected = [g for g in wanted if g not in missing] if wanted else existing
    descs = [
        describe_replayed(replay, g, topic_names=names,
                          coordinator=f"__consumer_offsets-{partition_for(g, partitions)}")
        for g in selected
    ]
    if descs or not missing:
        render_groups(descs, view, output_format(output), verbose=verbose)
    for g in missing:
        typer.echo(f"groupctl: error: group '{g}' does not exist in the dump", err=True)
    reading.report(verbose=settings.verbose)
    if missing:
        cls = PartialFailure if descs else GroupctlError
        raise cls(f"{len(missing)} of {len(wanted)} group(s) not found in the dump")


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
    and per record type, the tombstone ratio and each group's commit rate. Damaged input is also
    reported on stderr and makes the exit code 3 (the audit saw only part of the dump), before --fail-on.
    """
    from groupctl.log.audit import Auditor

    auditor = Auditor()
    observe_batch = auditor.observe_batch
    with DumpReading(paths, what="auditing") as reading:
        for dump in reading.dumps():
            for batch, recs in dump.batches:
                observe_batch(batch, recs)
            for problem in dump.problems:
                auditor.observe_problem(problem)
    report = auditor.finish()
    render_report(report, output_format(output))
    check_fail_on(report, fail_on)
