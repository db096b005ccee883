"""`groupctl regex`: topic regexes as the broker judges and matches them (KIP-848)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groupctl.cli.cluster import ClusterOptions, open_cluster, with_cluster_options
from groupctl.cli.names import name_callback
from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import FindingsReached, GroupctlError, UsageError
from groupctl.output import Column, OutputFormat, render, write_prose
from groupctl.plurals import counted

if TYPE_CHECKING:
    from groupctl.regex.report import PatternReport

app = typer.Typer(
    help="Check topic regexes against the broker's RE2/J rules before consumers move to KIP-848.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class RegexFailOn(str, Enum):
    """When lint warnings alone make `regex validate` exit 4."""

    warning = "warning"
    none = "none"


COLUMNS = [
    Column("pattern", "PATTERN"),
    Column("valid", "VALID"),
    Column("error", "ERROR", free=True),
    Column("warnings", "WARNINGS", free=True),
]
MATCH_COLUMNS = [Column("matchCount", "MATCHES"), Column("matches", "TOPICS", wide_only=True, free=True)]


def _details(reports: list[PatternReport]) -> list[str]:
    """The lines under the table: the broker's message for each rejected pattern, then each warning."""
    lines = []
    for r in reports:
        if r.broker_message:
            lines.append(f"{r.pattern}: error: {r.broker_message}")
        lines.extend(f"{r.pattern}: {w.code}: {w.message}" for w in r.warnings)
    return lines


VALIDATE_HELP = (
    "Validate topic regexes as the broker does, warn where their meaning changes, preview their topics.\n\n"
    "Since KIP-848 the broker compiles SubscribedTopicRegex with RE2/J and matches whole topic names "
    "(librdkafka's classic consumer searched for a match anywhere in the name). Each PATTERN gets the broker's "
    "verdict, with RE2/J's error description and the exact INVALID_REGULAR_EXPRESSION message, and lint "
    "warnings: prefix patterns without .* (a plain topic name only when listed topics extend it), "
    "shell-glob stars, {,n} (literal text in RE2), Java class "
    "intersection, \\Z, and Java or Python constructs RE2 lacks (lookaround, backreferences, possessive "
    "quantifiers, atomic groups, ...), each with the pattern to write instead where there is one.\n\n"
    "Exit 1 when any pattern is invalid; 4 with --fail-on warning when a warning fired; else 0."
)


@app.command("validate", help=VALIDATE_HELP)
@with_cluster_options
def validate(
    patterns: list[str] = typer.Argument(
        ..., metavar="PATTERN", callback=name_callback("subscription regex"),
        help="Regexes as a consumer would set SubscribedTopicRegex (put -- before one that starts with -).",
    ),
    topics_file: Path = typer.Option(
        None, "--topics-file", "-t", metavar="FILE",
        help="Preview which of these topics each pattern selects: one name per line (kafka-topics.sh --list "
        "output), blank lines and # comments skipped; - reads standard input.",
    ),
    from_cluster: bool = typer.Option(
        False, "--from-cluster",
        help="Preview against the topics of the selected cluster (--bootstrap-server, or --local DIR) instead of "
        "a file.",
    ),
    *,
    cluster: ClusterOptions,  # filled by with_cluster_options
    exclude_internal: bool = typer.Option(
        False, "--exclude-internal",
        help="Leave internal topics (names starting with __, such as __consumer_offsets) out of the preview. The "
        "broker does not: it resolves the regex over every topic, so by default the preview includes them.",
    ),
    include_internal: bool = typer.Option(
        False, "--include-internal", hidden=True,
        help="What the preview does by default now (kept so existing scripts keep working).",
    ),
    fail_on: RegexFailOn = typer.Option(
        RegexFailOn.none, "--fail-on", case_sensitive=False,
        help="warning: exit 4 when a lint warning fired (an invalid pattern still exits 1); none: never.",
    ),
    kafka_tool: bool = typer.Option(
        False, "--kafka-tool",
        help="Print only the verdicts, one line each, worded as kafka-consumer-groups.sh --validate-regex "
        "prints them.",
    ),
    output: OutputFormat = OutputOption,
) -> None:
    """Validate topic regexes as the broker does, warn where their meaning changes, preview their topics."""
    from groupctl.regex.report import assess_all
    from groupctl.regex.topics import read_topics_file, visible

    fmt = output_format(output)
    preview = topics_file is not None or from_cluster
    if topics_file is not None and from_cluster:
        raise UsageError("give one topic source: --topics-file FILE or --from-cluster")
    if include_internal and exclude_internal:
        raise UsageError("give --exclude-internal or --include-internal, not both")
    if exclude_internal and not preview:
        raise UsageError("--exclude-internal applies to the preview: give --topics-file or --from-cluster too")
    if kafka_tool and preview:
        raise UsageError("--kafka-tool prints only the verdicts, as Kafka's tool does; drop the topic source, or "
                         "drop --kafka-tool to see the preview")
    if kafka_tool and output is not None and fmt is not OutputFormat.table:
        raise UsageError(f"--kafka-tool has its own layout; it cannot be combined with --output {fmt.value}")
    topics = None
    if topics_file is not None:
        topics = visible(read_topics_file(topics_file), not exclude_internal)
    elif from_cluster:
        with open_cluster(cluster.choose()) as backend:
            topics = visible(backend.list_topics(), not exclude_internal)
    reports = assess_all(patterns, topics)

    if kafka_tool:
        for r in reports:
            typer.echo(r.kafka_tool_line)
    else:
        columns = COLUMNS + (MATCH_COLUMNS if topics is not None else [])
        rows = [
            {
                "pattern": r.pattern,
                "valid": r.valid,
                "error": r.description,
                "warnings": [w.code for w in r.warnings],
                "matchCount": None if r.matches is None or not r.valid else len(r.matches),
                "matches": r.matches,
            }
            for r in reports
        ]
        render("RegexValidation", rows, columns, fmt, items=[r.to_item() for r in reports])
        details = _details(reports)
        if details and fmt in (OutputFormat.table, OutputFormat.wide):
            typer.echo("")
            for line in details:
                write_prose(line)

    invalid = sum(not r.valid for r in reports)
    if invalid:
        raise GroupctlError(f"{invalid} of {counted(len(reports), 'pattern')} would be rejected by the broker (RE2/J)")
    warned = sum(bool(r.warnings) for r in reports)
    if fail_on is RegexFailOn.warning and warned:
        raise FindingsReached(f"lint warnings for {warned} of {counted(len(reports), 'pattern')} (--fail-on warning)")
