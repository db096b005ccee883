"""Starting Spark for groupctl: a local master by default, spark-submit's when run under it, quietly.

Spark prints a screenful before doing anything (log4j warnings, the JVM's own notices, a stage
progress bar). Unless `verbose`, a JVM groupctl starts writes its stdout and stderr to a log file
instead (named in the error when something fails, removed otherwise); under spark-submit, whose
JVM is already running, Spark logs only errors once the SparkContext starts.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groupctl.errors import GroupctlError, UsageError

DEFAULT_MASTER = "local[*]"
# The masters Spark 4 accepts (SparkSubmit and SparkContext.createTaskScheduler), checked before a JVM starts.
_MASTER = re.compile(
    r"local(\[(\*|[1-9]\d*)(,\s*[1-9]\d*)?\])?|local-cluster\[[1-9]\d*,\s*[1-9]\d*,\s*[1-9]\d*\]"
    r"|spark://\S+|k8s://\S+|yarn"
)
MASTER_HINT = "local, local[N], local[*], spark://HOST:PORT, yarn or k8s://https://HOST:PORT"
# A JVM or Python exception line: "...SparkException: message", "Exception in thread "main" x.YError: m".
_EXCEPTION = re.compile(r'^(?::\s*)?(?:Exception in thread "[^"]*" )?(?:[\w$]+\.)*([\w$]+(?:Exception|Error)): (.+)$')
# What a JVM prints before anything goes wrong: the lines to skip when looking for its complaint.
_BANNER = re.compile(r"^(WARNING: |Using Spark's |Setting default log level|To adjust logging level|\d\d/\d\d/\d\d )")
JAVA_HINT = ("pyspark needs a Java 17+ runtime: install one (Debian/Ubuntu: apt-get install "
             "default-jre-headless, or openjdk-17-jre-headless where the default is older) or set JAVA_HOME")
SPARK_HINT = "pyspark is not installed: pip install 'groupctl[spark]'"


def java_available() -> bool:
    """Whether spark-submit will find a `java` (JAVA_HOME first, as Spark's launcher looks)."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return True
    return shutil.which("java") is not None


def check_master(master: str) -> None:
    """A usage error for a --master Spark would refuse, said before a JVM starts."""
    if not _MASTER.fullmatch(master.strip()):
        raise UsageError(f"--master '{master}' is not a Spark master URL; use {MASTER_HINT}")


def failure_reason(text: str) -> str | None:
    """What went wrong, from a Spark error or the JVM's output: the last exception line's message.

    The last one is the cause nearest the fault (a Python error in a task ends its trace; a JVM
    error's own line comes before its stack), written `message (ExceptionName)`.
    """
    found = None
    for line in text.splitlines():
        m = _EXCEPTION.match(line.strip())
        if m:
            found = f"{m.group(2).strip()} ({m.group(1)})"
    return found


def launch_failure(output: str) -> str | None:
    """Why a JVM did not start: an exception, else the first line it printed that is not a banner."""
    lines = [line.strip() for line in output.splitlines() if line.strip() and not _BANNER.match(line)]
    return failure_reason(output) or (lines[0] if lines else None)


def submitted() -> bool:
    """Whether this process was started by spark-submit (its JVM, master and settings already chosen)."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


@dataclass
class SparkRun:
    """The session to use, and where the JVM's output went (None: to the console)."""

    spark: Any
    log: Path | None = None


def _settings(master: str | None, conf: dict[str, str]) -> dict[str, str]:
    settings = {"spark.app.name": "groupctl spark audit", "spark.ui.showConsoleProgress": "false"}
    if master is not None:
        settings["spark.master"] = master
    if (master or "").startswith("local"):
        # Local workers run this interpreter and import this copy of groupctl, whatever is installed.
        settings["spark.pyspark.python"] = sys.executable
        root = str(Path(__file__).resolve().parents[2])
        settings["spark.executorEnv.PYTHONPATH"] = os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p
        )
        settings["spark.ui.enabled"] = "false"  # nobody opens the UI of a one-command run
    settings.update(conf)
    return settings


def _launch(settings: dict[str, str], log: Path | None) -> Any:
    """A new SparkContext, its JVM's stdout and stderr sent to `log` when given."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    conf = SparkConf(loadDefaults=False).setAll(list(settings.items()))
    if SparkContext._gateway is not None or log is None:  # a JVM already runs in this process: keep it
        return SparkContext(conf=conf)
    with log.open("ab") as fh:
        gateway = launch_gateway(conf, popen_kwargs={"stdout": fh, "stderr": fh})
    return SparkContext(conf=conf, gateway=gateway)


@contextmanager
def spark_session(master: str | None = None, conf: dict[str, str] | None = None, *,
                  verbose: bool = False) -> Iterator[SparkRun]:
    """The SparkSession for one command: the one already active in this process if any (tests,
    notebooks), else spark-submit's, else a new local one (`master`, default local[*]), stopped at the end."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise GroupctlError(SPARK_HINT) from None
    active = SparkSession.getActiveSession()
    if active is not None:
        running = active.sparkContext.master
        if master is not None and master != running:
            raise UsageError(f"a Spark session with master {running} already runs in this process; "
                             f"it cannot switch to --master {master}")
        yield SparkRun(active)
        return
    if submitted():
        quiet = {} if verbose else {"spark.log.level": "ERROR"}  # from the SparkContext's start on
        spark = SparkSession.builder.config(map={**quiet, **_settings(master, conf or {})}).getOrCreate()
        try:
            yield SparkRun(spark)
        finally:
            spark.stop()
        return
    if not java_available():
        raise GroupctlError(JAVA_HINT)
    log = None
    if not verbose:
        fd, name = tempfile.mkstemp(prefix="groupctl-spark-", suffix=".log")
        os.close(fd)
        log = Path(name)
    try:
        context = _launch(_settings(master or DEFAULT_MASTER, conf or {}), log)
    except Exception as exc:
        output = log.read_text(errors="replace") if log is not None else ""
        reason = failure_reason(str(exc)) or launch_failure(output) or str(exc).strip().splitlines()[0]
        where = f" (the JVM's output is in {log})" if log is not None else ""
        raise GroupctlError(f"Spark did not start: {reason}{where}") from None
    spark = SparkSession(context)
    failed = False
    try:
        yield SparkRun(spark, log)
    except UsageError:
        raise  # the message says it all: no log to keep
    except BaseException:
        failed = True  # keep the JVM's output for the error that names it
        raise
    finally:
        spark.stop()
        if log is not None and not failed:
            log.unlink(missing_ok=True)
