"""`groupctl spark`: the dump audit on Apache Spark, for `__consumer_offsets` bigger than one machine.

pyspark (and with it a JVM) is loaded only when a command runs: `groupctl --help` stays fast. What
can be checked without Spark (the PATHs, --out, --master, --conf) is checked before a JVM starts.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from groupctl.cli.audit_views import FailOn, FailOnOption, check_fail_on, render_report
from groupctl.cli.completion import complete_spark_masters
from groupctl.cli.durations import duration_option
from groupctl.cli.options import OutputOption, output_format, settings
from groupctl.errors import GroupctlError, UsageError
from groupctl.output import OutputFormat

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


def _spark_failure(exc: Exception, log: Path | None) -> GroupctlError | None:
    """A one-line error for a failed Spark job (None when `exc` is not one): its cause, not the JVM's stack."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    from groupctl.spark.session import failure_reason

    if not isinstance(exc, PySparkException | Py4JError):
        return None
    reason = failure_reason(str(exc)) or type(exc).__name__
    where = f" (Spark's log: {log})" if log is not None else \
        " (run `groupctl --debug spark audit ...` for Spark's log)"
    return GroupctlError(f"the Spark job failed: {reason[:300]}{where}")


@app.command("audit")
def audit(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH",
        help="Segment files, partition directories, directories of them, or kafka-dump-log text: local paths, "
        "or Hadoop URIs (file://, hdfs://, s3a://; globs allowed).",
    ),
    master: str | None = typer.Option(
        None, "--master", metavar="URL",
        help="Where Spark runs: local[*] (every core of this machine, the default), local[N], spark://HOST:PORT, "
        "yarn or k8s://... Under spark-submit, spark-submit's own --master applies.",
        autocompletion=complete_spark_masters,
    ),
    out: str = typer.Option(
        None, "--out", metavar="DIR",
        help="Also write the datasets records/, findings/, groups/ and types/ here (a local directory or a Hadoop "
        "URI); they replace those of an earlier run only when this run succeeds.",
    ),
    fmt: WriteFormat = typer.Option(
        WriteFormat.parquet, "--format", "-f", case_sensitive=False, help="File format of the --out datasets."
    ),
    conf: list[str] = typer.Option(
        None, "--conf", metavar="KEY=VALUE", help="A Spark setting, as spark-submit --conf takes it (repeatable)."
    ),
    start_timeout: float = typer.Option(
        20.0, "--start-timeout", metavar="DURATION", parser=duration_option(),
        help="How long a spark:// or k8s:// master may take to accept the application once Spark's JVM is up "
        "(Spark's standalone client alone retries for a minute). The TCP check of the master before the JVM "
        "starts takes at most 5 s, or this when shorter. A duration: 20s, 90s, 2m (a bare number is seconds).",
    ),
    fail_on: FailOn = FailOnOption,
    verbose: bool = typer.Option(False, "--verbose", hidden=True),
    output: OutputFormat = OutputOption,
) -> None:
    """Audit a dump on Spark: the findings and summaries of `dump audit`, for the same input.

    Each __consumer_offsets partition is decoded and audited by its own Spark task with groupctl's
    decoder and audit rules, and the partial audits are merged in input order, so the report, the
    --fail-on rule and the exit code are those of `groupctl dump audit`. With --out, the records
    (one typed row each: type, group, topic, partition, offsets, timestamps, leader epoch,
    transactional state, member fields), the findings and both summary tables are written too.
    A progress bar is shown on a terminal; Spark's own log goes to a temporary file unless the
    global --debug (`groupctl --debug spark audit ...`) asks for it on stderr. Needs pyspark
    (groupctl's `spark` extra) and a Java 17+ runtime.
    """
    from functools import partial

    from groupctl.cli.progress import byte_progress
    from groupctl.spark.datasets import out_uri
    from groupctl.spark.master import check_master
    from groupctl.spark.reach import check_namenode
    from groupctl.spark.session import spark_session
    from groupctl.spark.units import is_uri, local_files

    if start_timeout < 1:
        raise UsageError(f"--start-timeout {start_timeout:g}s: give at least 1s; a JVM cannot register an "
                         "application with a master any faster")
    if verbose:  # the old spelling of the global --debug, from before -v/--verbose meant more columns
        typer.echo("groupctl: note: spark audit --verbose is deprecated: use `groupctl --debug spark audit ...` "
                   "for Spark's log and a trace on failure", err=True)
        settings.debug = True
    verbose = settings.debug
    spark_conf = _conf(conf)
    given = spark_conf.get("spark.master")
    if master is not None and given is not None and given != master:
        raise UsageError(f"--master {master} and --conf spark.master={given} disagree; give the master once")
    master = master or given
    if master is not None:
        check_master(master)
    for path in paths:
        if not is_uri(path):
            local_files(path)  # a missing or empty local PATH is a usage error
    target = out_uri(out) if out is not None else None
    for uri, what in [(p, "PATH") for p in paths if is_uri(p)] + ([(target, "--out")] if target else []):
        check_namenode(uri, what)
    with spark_session(master, spark_conf, verbose=verbose, start_timeout=start_timeout) as run:
        from groupctl.spark.job import run_audit

        try:
            report = run_audit(run.spark, paths, out=target, fmt=fmt.value,
                               progress=partial(byte_progress, "auditing"))
        except GroupctlError:
            raise
        except Exception as exc:
            failure = _spark_failure(exc, run.log)
            if failure is None:
                raise
            raise failure from exc
    render_report(report, output_format(output))
    check_fail_on(report, fail_on)
