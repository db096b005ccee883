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
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groupctl.errors import GroupctlError, UsageError

DEFAULT_MASTER = "local[*]"
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


def failure_reason(text: str) -> str | None:
    """What went wrong, from a Spark error or the JVM's output: the last exception line's message.

    The last one is the cause nearest the fault (a Python error in a task ends its trace; a JVM
    error's own line comes before its stack), written `message (ExceptionName)`. A JVM error whose
    root cause ("Caused by:") says something its own message does not gets that cause appended:
    "An error has occurred" means little without "Connection refused".
    """
    found = cause = None
    for line in text.splitlines():
        line = line.strip()
        m = _EXCEPTION.match(line.removeprefix("Caused by: "))
        if m and line.startswith("Caused by: "):
            cause = m
        elif m:
            found, cause = m, None
    if found is None:
        return None
    reason = f"{found.group(2).strip()} ({found.group(1)})"
    if cause is not None and cause.group(2).strip() not in found.group(2):
        reason += f", caused by: {cause.group(2).strip()} ({cause.group(1)})"
    return reason


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


def _submitted_master() -> str:
    """The master spark-submit was given (its JVM holds it as a system property)."""
    from pyspark import SparkConf, SparkContext

    SparkContext._ensure_initialized()
    return SparkConf().get("spark.master", "") or ""


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
        # Nothing outside this machine talks to a local driver: it needs no address but loopback.
        settings["spark.driver.host"] = settings["spark.driver.bindAddress"] = "127.0.0.1"
    settings.update(conf)
    return settings


class MasterUnavailable(GroupctlError):
    """A cluster master did not accept the application: no answer in time, or Spark gave up on it."""


def _forget(gateway: Any) -> None:
    """Stop a JVM that failed to give a SparkContext, and let a later session start a new one."""
    from pyspark import SparkContext

    with SparkContext._lock:
        if SparkContext._gateway is gateway:
            SparkContext._gateway = None
            SparkContext._jvm = None
        SparkContext._active_spark_context = None
    with suppress(Exception):  # the JVM may already be gone: stopping it is all that is left to do
        gateway.shutdown()
    if gateway.proc is not None and gateway.proc.poll() is None:
        gateway.proc.kill()
        with suppress(subprocess.TimeoutExpired):
            gateway.proc.wait(10)


def _gave_up(log: Path | None) -> str | None:
    """Why Spark stopped a SparkContext it was starting, if it said (standalone: "All masters are unresponsive")."""
    text = log.read_text(errors="replace") if log is not None and log.exists() else ""
    reasons = re.findall(r"Application has been killed\. Reason: (.+)", text)
    return reasons[-1].strip() if reasons else None


def _refused(master: str, reason: str | None) -> str:
    from groupctl.spark.master import described

    what, check = described(master)
    reason = reason or "Spark stopped it while it started"
    return f"{what} did not accept the application: {reason} — {check} check --master"


def _launch(settings: dict[str, str], log: Path | None, start_timeout: float | None) -> Any:
    """A new SparkContext, its JVM's stdout and stderr sent to `log` when given.

    With `start_timeout`, a master that has not taken the application that many seconds after
    the JVM is up stops the JVM: Spark's standalone client would retry for a minute.
    """
    from pyspark import SparkConf

    conf = SparkConf(loadDefaults=False).setAll(list(settings.items()))
    with _worker_python(settings.get("spark.pyspark.python")):
        return _start_context(conf, settings, log, start_timeout)


@contextmanager
def _worker_python(python: str | None) -> Iterator[None]:
    """PYSPARK_PYTHON set to `python` while a SparkContext starts.

    `spark.pyspark.python` alone is not enough: the SparkContext reads its workers' interpreter from
    PYSPARK_PYTHON (default: the first `python3` on PATH), and the Arrow workers of mapInArrow run that
    one. From a virtual environment that was not activated (pipx, `venv/bin/groupctl`) it is another
    Python, without pyarrow or groupctl.
    """
    if python is None:
        yield
        return
    before = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = python
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYSPARK_PYTHON", None)
        else:
            os.environ["PYSPARK_PYTHON"] = before


def _start_context(conf: Any, settings: dict[str, str], log: Path | None, start_timeout: float | None) -> Any:
    """_launch's body: the JVM (unless one runs) and the SparkContext on it."""
    import threading
    import warnings

    from pyspark import SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None:  # a JVM already runs in this process: keep it
        return SparkContext(conf=conf)
    if log is None:
        gateway = launch_gateway(conf)
    else:
        with log.open("ab") as fh:
            gateway = launch_gateway(conf, popen_kwargs={"stdout": fh, "stderr": fh})
    master = settings.get("spark.master", DEFAULT_MASTER)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        if gateway.proc is not None:
            gateway.proc.kill()

    timer = threading.Timer(start_timeout, expire) if start_timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pyspark's own "Unable to cleanly shutdown" when the JVM is killed
            context = SparkContext(conf=conf, gateway=gateway)
        if context._jsc.sc().isStopped():
            raise MasterUnavailable(_refused(master, _gave_up(log)))
    except BaseException:
        if timer is not None:
            timer.cancel()
        _forget(gateway)
        if expired.is_set():
            raise MasterUnavailable(_late(master, start_timeout)) from None
        raise
    if timer is not None:
        timer.cancel()
        timer.join()
        if expired.is_set():
            _forget(gateway)
            raise MasterUnavailable(_late(master, start_timeout))
    return context


def _late(master: str, seconds: float | None) -> str:
    from groupctl.spark.master import described

    what, check = described(master)
    return (f"{what} did not accept the application within {seconds:g} s — {check} check --master, "
            "or allow longer with --start-timeout")


def cluster_master(master: str | None) -> bool:
    """Whether `master` is a standalone or Kubernetes master: one whose answer the session start waits for."""
    return (master or "").strip().startswith(("spark://", "k8s://"))


@contextmanager
def spark_session(master: str | None = None, conf: dict[str, str] | None = None, *,
                  verbose: bool = False, start_timeout: float | None = None) -> Iterator[SparkRun]:
    """The SparkSession for one command: the one already active in this process if any (tests,
    notebooks), else spark-submit's, else a new one (`master`, default local[*]), stopped at the end.

    A new session with a spark:// or k8s:// master first tries a TCP connection to it (at most
    `PROBE_SECONDS`, or `start_timeout` when shorter), then gives the master `start_timeout`
    seconds to accept the application.
    """
    from groupctl.spark.master import check_environment, probe_master
    from groupctl.spark.reach import PROBE_SECONDS

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
        settings = {**quiet, **_settings(master, conf or {})}
        chosen = settings.get("spark.master") or _submitted_master()
        probe_master(chosen, min(PROBE_SECONDS, start_timeout or PROBE_SECONDS))
        try:
            spark = SparkSession.builder.config(map=dict(settings)).getOrCreate()  # a dict of its value type
            if spark.sparkContext._jsc.sc().isStopped():
                raise MasterUnavailable(_refused(chosen, None))
        except GroupctlError:
            raise
        except Exception as exc:
            if cluster_master(chosen) and "stopped SparkContext" in str(exc):
                raise MasterUnavailable(_refused(chosen, "Spark stopped the application while it started (see "
                                            "spark-submit's log)")) from None
            reason = failure_reason(str(exc)) or str(exc).strip().splitlines()[0]
            raise GroupctlError(f"Spark did not start: {reason}") from None
        try:
            yield SparkRun(spark)
        finally:
            spark.stop()
        return
    master = master or DEFAULT_MASTER
    check_environment(master)
    probe_master(master, min(PROBE_SECONDS, start_timeout or PROBE_SECONDS))
    if not java_available():
        raise GroupctlError(JAVA_HINT)
    log = None
    if not verbose:
        fd, name = tempfile.mkstemp(prefix="groupctl-spark-", suffix=".log")
        os.close(fd)
        log = Path(name)
    where = f" (the JVM's output is in {log})" if log is not None else ""
    context = None
    try:
        context = _launch(_settings(master, conf or {}), log, start_timeout if cluster_master(master) else None)
        spark = SparkSession(context)
    except MasterUnavailable as exc:
        raise MasterUnavailable(f"{exc}{where}") from None
    except Exception as exc:
        if context is not None:
            with suppress(Exception):  # a context Spark stopped itself: this only tidies up
                context.stop()
        killed = _gave_up(log) if cluster_master(master) else None
        if killed is not None:
            raise MasterUnavailable(f"{_refused(master, killed)}{where}") from None
        output = log.read_text(errors="replace") if log is not None else ""
        reason = failure_reason(str(exc)) or launch_failure(output) or str(exc).strip().splitlines()[0]
        raise GroupctlError(f"Spark did not start: {reason}{where}") from None
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
