"""`groupctl spark`: the dump audit on Apache Spark, for `__consumer_offsets` bigger than one machine.

pyspark (and with it a JVM) is loaded only when a command runs: `groupctl --help` stays fast.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groupctl.cli.dump import FINDING_COLUMNS, GROUP_SUMMARY_COLUMNS, TYPE_SUMMARY_COLUMNS, FailOn, _evidence_text
from groupctl.cli.options import OutputOption, output_format, settings
from groupctl.errors import FindingsReached, GroupctlError, UsageError
from groupctl.output import OutputFormat, render, to_item, write_table

if TYPE_CHECKING:
    from groupctl.log.audit import AuditReport

app = typer.Typer(
    help="Run the offline audit on Apache Spark: locally on every core, or on a cluster (--master, spark-submit).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class WriteFormat(str, Enum):
    """How `spark audit --out` writes its datasets."""

    parquet = "parquet"
    csv = "csv"
    json = "json"


def _conf(pairs: list[str] | None) -> dict[str, str]:
    conf = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--conf takes KEY=VALUE, not '{pair}'")
        conf[key.strip()] = value
    return conf


def _out_uri(out: str | None) -> str | None:
    """A local --out directory as an absolute file: URI, so Spark never reads it as a default-FS path."""
    if out is None:
        return None
    from groupctl.spark.units import is_uri

    return out if is_uri(out) else Path(out).resolve().as_uri()


def print_report(report: AuditReport, fmt: OutputFormat) -> None:
    """The report exactly as `dump audit` prints it."""
    if fmt in (OutputFormat.json, OutputFormat.yaml):
        item = {
            "findings": [to_item(f) for f in report.findings],
            "byGroup": report.by_group, "byType": report.by_type, "totals": report.totals,
        }
        render("AuditReport", [], FINDING_COLUMNS, fmt, items=[item])
        return
    rows = [{**to_item(f), "evidence": _evidence_text(f.evidence)} for f in report.findings]
    render("AuditReport", rows, FINDING_COLUMNS, fmt)
    if fmt is OutputFormat.csv:
        return
    wide = fmt is OutputFormat.wide
    typer.echo("")
    write_table(report.by_group, GROUP_SUMMARY_COLUMNS, wide=wide)
    typer.echo("")
    write_table(report.by_type, TYPE_SUMMARY_COLUMNS, wide=wide)
    t = report.totals
    typer.echo(f"\n{t['records']} records, {t['bytes']} bytes, {t['groups']} groups, "
               f"tombstone ratio {t['tombstoneRatio']:.3f}, {len(report.findings)} finding(s)")


def _spark_failure(exc: Exception, log: Path | None) -> GroupctlError | None:
    """A readable error for a failed Spark job (None when `exc` is not one)."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    if not isinstance(exc, PySparkException | Py4JError):
        return None
    text = str(exc).strip().splitlines()
    # a Python error in a task ends with its own last line; keep that, not the JVM's stack
    reason = next((line for line in reversed(text) if line and not line.startswith((" ", "\t"))), type(exc).__name__)
    where = f" (Spark's log: {log})" if log is not None else " (run with --verbose for Spark's log)"
    return GroupctlError(f"the Spark job failed: {reason[:300]}{where}")


@app.command("audit")
def audit(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH",
        help="Segment files, partition directories, directories of them, or kafka-dump-log text: local paths, "
        "or Hadoop URIs (file://, hdfs://, s3a://; globs allowed).",
    ),
    master: str = typer.Option(
        None, "--master", metavar="URL",
        help="Spark master: local[*] (default), local[N], spark://HOST:PORT, yarn, k8s://... Under spark-submit, "
        "the master it was given.",
    ),
    out: str = typer.Option(
        None, "--out", metavar="DIR",
        help="Also write the records, findings and summary tables here (records/, findings/, groups/, types/): "
        "a local directory or a Hadoop URI; existing datasets are replaced.",
    ),
    fmt: WriteFormat = typer.Option(
        WriteFormat.parquet, "--format", "-f", case_sensitive=False, help="File format of the --out datasets."
    ),
    conf: list[str] = typer.Option(
        None, "--conf", metavar="KEY=VALUE", help="A Spark setting, as spark-submit --conf (repeatable)."
    ),
    fail_on: FailOn = typer.Option(
        FailOn.error, "--fail-on", case_sensitive=False,
        help="Exit 4 when a finding at or above this severity is found (none: never).",
    ),
    verbose: bool = typer.Option(
        False, "--verbose", help="Let Spark's own log and the JVM's output through to stderr."
    ),
    output: OutputFormat = OutputOption,
) -> None:
    """The `dump audit` report computed on Spark: the same findings, the same summaries.

    Each __consumer_offsets partition is decoded and audited by its own task with groupctl's
    decoder and audit rules, and the partial audits are merged in input order, so the report is
    the one `dump audit` prints for the same input. With --out, the records (one typed row each:
    type, group, topic, partition, offsets, timestamps, leader epoch, transactional state, member
    fields), the findings and both summary tables are written too. Needs pyspark (the `spark`
    extra) and a Java 17+ runtime.
    """
    from functools import partial

    from groupctl.cli.progress import byte_progress
    from groupctl.log.audit import at_or_above
    from groupctl.spark.session import spark_session
    from groupctl.spark.units import is_uri, local_files

    verbose = verbose or settings.verbose
    spark_conf = _conf(conf)
    for path in paths:
        if not is_uri(path):
            local_files(path)  # a missing or empty local PATH is a usage error, said before a JVM starts
    with spark_session(master, spark_conf, verbose=verbose) as run:
        from groupctl.spark.job import run_audit

        try:
            report = run_audit(run.spark, paths, out=_out_uri(out), fmt=fmt.value,
                               progress=partial(byte_progress, "auditing"))
        except GroupctlError:
            raise
        except Exception as exc:
            failure = _spark_failure(exc, run.log)
            if failure is None:
                raise
            raise failure from exc
    print_report(report, output_format(output))
    if fail_on is not FailOn.none and any(at_or_above(f, fail_on.value) for f in report.findings):
        raise FindingsReached(f"findings at or above '{fail_on.value}' (see the report)")
