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
