"""What `spark audit` says before any Spark job: bad arguments, no Java, a master that is not there.

No JVM starts in this process; the tests of a master that never answers and of spark-submit start
one in their own.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from groupctl.errors import GroupctlError

ROOT = Path(__file__).resolve().parents[2]


def groupctl(*args: str, command: tuple[str, ...] = (sys.executable, "-m", "groupctl")
             ) -> subprocess.CompletedProcess[str]:
    """`python -m groupctl ARGS` from this checkout, Spark kept on the loopback. Whether groupctl or Spark gave
    up shows in what it says (only groupctl's checks say `groupctl: error:`), never in how long it took: a
    JVM starting on a loaded machine takes what it takes."""
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable,
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    env.pop("PYSPARK_GATEWAY_PORT", None)
    return subprocess.run([*command, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def java() -> None:
    """Skip, saying why, where a test needs pyspark and a Java runtime to start a JVM of its own."""
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from groupctl.spark.session import java_available

    if not java_available():
        pytest.skip("no Java runtime: pyspark needs Java 17+")


def assert_one_line(err: str) -> None:
    assert err.startswith("groupctl: error: ") and err.count("\n") == 1, err
    assert "internal error" not in err and "at org.apache" not in err and "Traceback" not in err, err


def test_usage_errors_come_before_spark(cli, tmp_path: Path):
    r = cli("spark", "audit", str(tmp_path / "missing"))
    assert r.code == 2 and "does not exist" in r.err
    (tmp_path / "empty").mkdir()
    assert cli("spark", "audit", str(tmp_path / "empty")).code == 2
    r = cli("spark", "audit", str(tmp_path / "empty"), "--conf", "novalue")
    assert r.code == 2


def test_missing_java_is_named(monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from pyspark.sql import SparkSession

    from groupctl.spark import session

    monkeypatch.setattr(SparkSession, "getActiveSession", classmethod(lambda cls: None))
    monkeypatch.setattr(session, "java_available", lambda: False)
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    with pytest.raises(GroupctlError, match="Java 17"), session.spark_session():
        pass


def test_bad_master_and_out_are_usage_errors_before_spark(cli, every_finding: list[Path], tmp_path: Path):
    logs = str(every_finding[0])
    for master in ("foo://x", "local[0]", "yarn-client"):
        r = cli("spark", "audit", logs, "--master", master)
        assert r.code == 2 and f"--master '{master}' is not a Spark master URL" in r.err, r.err
        assert "Traceback" not in r.err
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out, why in ((afile, "exists and is not a directory"), (afile / "out", "is not a directory")):
        r = cli("spark", "audit", logs, "--out", str(out))
        assert r.code == 2 and why in r.err and "Traceback" not in r.err, r.err
    assert afile.read_text() == "x"


def test_failure_reason_is_the_exception_nearest_the_fault():
    from groupctl.spark.session import failure_reason

    jvm = ('An error occurred while calling o61.save.\n: org.apache.hadoop.fs.ParentNotDirectoryException: '
           'Parent path is not a directory: file:/data/x\n\tat org.apache.hadoop.fs.Foo.bar(Foo.java:1)\n')
    assert failure_reason(jvm) == "Parent path is not a directory: file:/data/x (ParentNotDirectoryException)"
    gateway = ('Using Spark\'s default log4j profile\nException in thread "main" org.apache.spark.SparkException: '
               'Master must either be yarn or start with spark, k8s, or local\n\tat org.apache.spark.X(X.scala:1)\n')
    assert failure_reason(gateway) == "Master must either be yarn or start with spark, k8s, or local (SparkException)"
    task = ('org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n'
            '  File "job.py", line 1, in audit_units\nOSError: [Errno 5] Input/output error\n')
    assert failure_reason(task) == "[Errno 5] Input/output error (OSError)"
    assert failure_reason("nothing here") is None
    k8s = ("io.fabric8.kubernetes.client.KubernetesClientException: An error has occurred.\n\tat io.F.x(F.java:1)\n"
           "Caused by: java.io.IOException: Connection refused: /127.0.0.1:9\n\t... 20 more\n"
           "Caused by: java.net.ConnectException: Connection refused\n")
    assert failure_reason(k8s) == ("An error has occurred. (KubernetesClientException), caused by: Connection refused "
                                   "(ConnectException)")
    hdfs = ("java.net.ConnectException: Call From h/127.0.0.1 to localhost:8020 failed on connection exception: "
            "java.net.ConnectException: Connection refused\nCaused by: java.net.ConnectException: Connection refused\n")
    assert failure_reason(hdfs) == ("Call From h/127.0.0.1 to localhost:8020 failed on connection exception: "
                                    "java.net.ConnectException: Connection refused (ConnectException)")


def test_launch_failure_is_what_the_jvm_said_first():
    from groupctl.spark.session import launch_failure

    heap = ("WARNING: Using incubator modules: jdk.incubator.vector\nInvalid maximum heap size: -Xmxlots\n"
            "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred.\n")
    assert launch_failure(heap) == "Invalid maximum heap size: -Xmxlots"
    assert launch_failure("WARNING: Using incubator modules\n") is None


def test_unreachable_master_fails_at_once_in_one_line(every_finding: list[Path], closed_port: int):
    logs = str(every_finding[0])
    for master, why in ((f"spark://127.0.0.1:{closed_port}", "connection refused"),
                        ("spark://no-such-host.invalid:7077", "the host name no-such-host.invalid does not resolve")):
        done = groupctl("spark", "audit", logs, "--master", master)
        assert done.returncode == 1 and done.stdout == "", (done.stdout, done.stderr)
        assert_one_line(done.stderr)
        assert f"cannot reach Spark master {master}: {why} — is the master running? check --master" in done.stderr
    done = groupctl("--debug", "spark", "audit", logs, "--master", f"spark://127.0.0.1:{closed_port}")
    assert done.returncode == 1 and "Traceback" in done.stderr
    assert done.stderr.splitlines()[-1].startswith("groupctl: error: cannot reach Spark master")
    old = groupctl("spark", "audit", logs, "--master", f"spark://127.0.0.1:{closed_port}", "--verbose")
    assert old.returncode == 1 and "Traceback" in old.stderr
    assert old.stderr.startswith("groupctl: note: spark audit --verbose is deprecated: use `groupctl --debug spark "
                                 "audit ...`")


def test_master_given_with_conf_is_checked_as_master(cli, every_finding: list[Path], closed_port: int,
                                                     monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from pyspark.sql import SparkSession

    monkeypatch.setattr(SparkSession, "getActiveSession", classmethod(lambda cls: None))
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    logs = str(every_finding[0])
    master = f"spark://127.0.0.1:{closed_port}"
    r = cli("spark", "audit", logs, "--conf", f"spark.master={master}")
    assert r.code == 1 and r.err.startswith(f"groupctl: error: cannot reach Spark master {master}: "), r.err
    r = cli("spark", "audit", logs, "--conf", "spark.master=foo://x")
    assert r.code == 2 and "--master 'foo://x' is not a Spark master URL" in r.err
    r = cli("spark", "audit", logs, "--master", "local[2]", "--conf", f"spark.master={master}")
    assert r.code == 2 and "disagree" in r.err


@pytest.mark.usefixtures("java")
def test_unreachable_master_under_spark_submit(every_finding: list[Path], closed_port: int):
    """spark-submit's JVM is up and holds the master: groupctl tries it before asking for a SparkContext."""
    import pyspark

    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    master = f"spark://127.0.0.1:{closed_port}"
    done = groupctl("--master", master, str(ROOT / "groupctl" / "spark" / "submit.py"), "audit",
                    str(every_finding[0]), command=(str(submit),))
    said = done.stdout + done.stderr  # spark-submit passes its Python's stderr on to its stdout
    assert done.returncode == 1
    assert [line for line in said.splitlines() if line.startswith("groupctl")] == [
        f"groupctl: error: cannot reach Spark master {master}: connection refused — is the master running? "
        "check --master"], said
    assert "internal error" not in said and "at org.apache" not in said and "Traceback" not in said


@pytest.mark.usefixtures("java")
def test_master_that_never_answers_is_given_up_on(every_finding: list[Path], silent_port: int):
    master = f"spark://127.0.0.1:{silent_port}"
    done = groupctl("spark", "audit", str(every_finding[0]), "--master", master, "--start-timeout", "3")
    assert done.returncode == 1 and done.stdout == "", (done.stdout, done.stderr)
    assert_one_line(done.stderr)
    assert f"Spark master {master} did not accept the application within 3 s" in done.stderr, done.stderr
    assert "--start-timeout" in done.stderr and "the JVM's output is in" in done.stderr
    Path(done.stderr.rsplit("the JVM's output is in ", 1)[1].rstrip(")\n")).unlink()


@pytest.fixture
def no_spark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spark must not be started: what is checked here is checked before it."""
    from groupctl.spark import session

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("Spark was started")

    monkeypatch.setattr(session, "spark_session", refuse)


@pytest.mark.usefixtures("no_spark")
def test_out_that_cannot_be_written_is_caught_before_spark(cli, every_finding: list[Path], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch):
    logs = str(every_finding[0])
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out, why in ((afile.as_uri() + "/out", f"{afile} is not a directory"),
                     (str(tmp_path / "name" / ("x" * 300)), f"cannot write in {tmp_path} (file name too long)")):
        r = cli("spark", "audit", logs, "--out", out)
        assert r.code == 2 and why in r.err and r.err.count("\n") == 1, r.err
    assert afile.read_text() == "x"

    readonly = tmp_path / "readonly"
    readonly.mkdir()
    real_open = os.open

    def open_on_a_read_only_mount(path: object, *args: object, **kwargs: object) -> int:
        if Path(str(path)).parent == readonly:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_on_a_read_only_mount)
    r = cli("spark", "audit", logs, "--out", str(readonly / "new" / "out"))
    assert r.code == 2 and r.err == (f"groupctl: error: --out {readonly / 'new' / 'out'}: cannot write in {readonly} "
                                     "(read-only file system); choose a directory you can write to\n")
    assert list(readonly.iterdir()) == []


@pytest.mark.usefixtures("no_spark")
def test_unreachable_namenode_is_said_before_spark(cli, every_finding: list[Path], closed_port: int):
    uri = f"hdfs://127.0.0.1:{closed_port}/out"
    r = cli("spark", "audit", str(every_finding[0]), "--out", uri)
    assert r.code == 1 and r.err == (f"groupctl: error: cannot reach the HDFS namenode of --out '{uri}': "
                                     "connection refused — is HDFS up? check the URI\n")


def test_workers_run_this_interpreter_whatever_python3_is_first_on_path(java, every_finding: list[Path],
                                                                         tmp_path: Path) -> None:
    """From a virtual environment that is not activated (pipx, `venv/bin/groupctl`), Spark's Arrow workers
    still run groupctl's interpreter: here the first `python3` on PATH is one that cannot run anything."""
    shims = tmp_path / "bin"
    shims.mkdir()
    for name in ("python3", "python"):
        shim = shims / name
        shim.write_text("#!/bin/sh\necho 'not the interpreter groupctl runs in' >&2\nexit 1\n")
        shim.chmod(0o755)
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1",
           "PATH": os.pathsep.join([str(shims), os.environ.get("PATH", "")]),
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    for name in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "PYSPARK_GATEWAY_PORT", "VIRTUAL_ENV"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "groupctl", "spark", "audit", "--master", "local[1]",
                           "--fail-on", "none", str(every_finding[0])],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert "not the interpreter" not in done.stderr, done.stderr
    assert "the Spark job failed" not in done.stderr, done.stderr
    assert done.returncode == 3, done.stderr  # the input's one damaged batch, as `dump audit` says too
    assert "REWIND" in done.stdout or "finding" in done.stdout, done.stdout


def test_without_the_spark_extra_the_command_says_how_to_get_it(cli, every_finding: list[Path],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j", "pyarrow")]:
        monkeypatch.delitem(sys.modules, name)
    for name in ("pyspark", "py4j", "pyarrow"):
        monkeypatch.setitem(sys.modules, name, None)  # what `import` finds when the extra is not installed
    for name in [m for m in sys.modules if m.startswith("groupctl.spark.job")]:
        monkeypatch.delitem(sys.modules, name)
    result = cli("spark", "audit", str(every_finding[0]))
    hint = "groupctl: error: pyspark is not installed: pip install 'groupctl[spark]'\n"
    assert (result.code, result.err) == (1, hint)
