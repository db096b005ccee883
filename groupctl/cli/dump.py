"""`groupctl dump`: read `__consumer_offsets` offline, without a JVM or a broker."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from groupctl.cli.options import OutputOption, output_format, settings
from groupctl.errors import PartialFailure, UsageError
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
    groups: list[str] = typer.Argument(..., metavar="GROUP", help="Group ids to place."),
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


def _report_problems(dumps: list, decode_errors: int) -> None:
    """Print every skipped piece of input on stderr; exit 3 when there was any."""
    problems = [p for d in dumps for p in d.problems]
    for problem in problems:
        typer.echo(f"groupctl: warning: {problem}", err=True)
    if problems or decode_errors:
        parts = []
        if problems:
            parts.append(f"{len(problems)} damaged batch(es) or line(s) skipped")
        if decode_errors:
            parts.append(f"{decode_errors} record(s) whose key or value could not be decoded")
        raise PartialFailure("; ".join(parts) + " (see the warnings above); the rest was decoded")


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
        help="table: one row per record; dump-log: exactly what Kafka 3.8+'s kafka-dump-log.sh "
        "--deep-iteration --offsets-decoder prints; jsonl: one JSON object per record.",
        case_sensitive=False,
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

    Damaged batches are reported on stderr with file, byte position and reason, and decoding goes
    on with the next batch; the exit code is then 3. --output applies to --format table (json and
    yaml give the same objects as jsonl inside the groupctl/v1 envelope).
    """
    from groupctl.cli.progress import byte_progress
    from groupctl.log.decode import expand_path, make_filter, open_inputs

    out_fmt = output_format(output)
    if fmt is not DecodeFormat.table and output is not None and out_fmt is not OutputFormat.table:
        raise UsageError(f"--output {out_fmt.value} applies to --format table only; --format {fmt.value} "
                         "has its own layout")
    keep = make_filter(groups, _record_types(record_type), from_offset, to_offset)
    total = sum(f.stat().st_size for p in paths for f in expand_path(p))
    dumps: list = []
    decode_errors = 0

    def watched(advance):
        """Each input with its batches counted: progress advanced, undecodable records tallied."""

        def batches(source):
            nonlocal decode_errors
            done = 0
            for batch, recs in source:
                advance(batch.position + batch.size - done)
                done = batch.position + batch.size
                decode_errors += sum(
                    1 for r in recs if r.error is not None and not r.error.startswith("Unknown record type")
                )
                yield batch, recs

        for dump in open_inputs(paths, strict=strict):
            dumps.append(dump)
            dump.batches = batches(dump.batches)
            yield dump

    def records(inputs):
        for dump in inputs:
            for _batch, recs in dump.batches:
                for rec in recs:
                    if keep is None or keep(rec):
                        yield dump, rec

    with byte_progress("decoding", total) as advance:
        inputs = watched(advance)
        if fmt is DecodeFormat.dump_log:
            from groupctl.log.dumplog import write_dump_log

            for _ in write_dump_log(inputs, sys.stdout, keep):
                pass
        elif fmt is DecodeFormat.jsonl:
            from groupctl.log.jsonl import dumps_line, record_jsonable

            write = sys.stdout.write
            for dump, rec in records(inputs):
                write(dumps_line(record_jsonable(rec, dump.path)) + "\n")
        elif out_fmt in (OutputFormat.json, OutputFormat.yaml):
            from groupctl.log.jsonl import record_jsonable

            items = [record_jsonable(rec, dump.path) for dump, rec in records(inputs)]
            render("RecordList", [], RECORD_COLUMNS, out_fmt, items=items)
        else:
            from groupctl.log.jsonl import table_row

            width = None if out_fmt in (OutputFormat.wide, OutputFormat.csv) else 100
            rows = (table_row(rec, dump.path, width) for dump, rec in records(inputs))
            render("RecordList", rows, RECORD_COLUMNS, out_fmt)
    if settings.verbose:
        typer.echo(f"groupctl: read {len(dumps)} file(s), {total} bytes", err=True)
    _report_problems(dumps, decode_errors)
