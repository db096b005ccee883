"""`groupctl dump`: read `__consumer_offsets` offline, without a JVM or a broker."""

from __future__ import annotations

import typer

from groupctl.cli.options import OutputOption, output_format
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

