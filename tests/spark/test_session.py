"""What `spark audit` says before any Spark job: bad arguments, no Java (no JVM is started here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.errors import GroupctlError


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


def test_launch_failure_is_what_the_jvm_said_first():
    from groupctl.spark.session import launch_failure

    heap = ("WARNING: Using incubator modules: jdk.incubator.vector\nInvalid maximum heap size: -Xmxlots\n"
            "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred.\n")
    assert launch_failure(heap) == "Invalid maximum heap size: -Xmxlots"
    assert launch_failure("WARNING: Using incubator modules\n") is None
