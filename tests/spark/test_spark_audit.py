"""`groupctl spark audit` against `groupctl dump audit`: the same report, byte for byte, on the same input."""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from groupctl.log.audit import RULES
from groupctl.log.synthetic import write_sample_dump

pytestmark = pytest.mark.usefixtures("spark")


def both(cli, *args: str):
    """The same arguments to `dump audit` and `spark audit`."""
    return cli("dump", "audit", *args), cli("spark", "audit", *args)


def spark_jobs(spark) -> int:
    """How many Spark jobs `spark audit` has run in this session: proof the report came from Spark."""
    return len(spark.sparkContext.statusTracker().getJobIdsForGroup("groupctl-spark-audit"))


def test_every_finding_kind(cli, spark, every_finding: list[Path]):
    paths = [str(p) for p in every_finding]
    before = spark_jobs(spark)
    dump, spark_run = both(cli, *paths, "-o", "json")
    assert spark_jobs(spark) >= before + 2  # the audit, and the second pass over partitions 4 and 5 together
    spark = spark_run
    assert dump.code == spark.code == 3  # the dump holds a damaged batch: a partial audit, before --fail-on
    assert spark.json() == dump.json()
    assert {f["rule"] for f in spark.json()["items"][0]["findings"]} == set(RULES)
    assert spark.err == dump.err
    assert spark.err.startswith("groupctl: warning: ") and spark.err.endswith(
        "groupctl: error: 1 damaged batch or line skipped (see the warnings above); 1 record whose key or value "
        "could not be decoded (undecodable-record in the report); the audit covers the rest\n")
    dump, spark = both(cli, *paths, "-o", "wide", "--fail-on", "none")
    assert dump.code == spark.code == 3
    assert spark.out == dump.out


def test_real_segments(cli, real_segments: list[Path]):
    dump, spark = both(cli, *map(str, real_segments), "-o", "json", "--fail-on", "warning")
    assert spark.code == dump.code
    assert spark.json() == dump.json()
    assert spark.json()["items"][0]["totals"]["records"] == 1473
    dump, spark = both(cli, *map(str, real_segments), "--fail-on", "none")
    assert (spark.code, spark.out, spark.err) == (dump.code, dump.out, dump.err) == (0, dump.out, "")


def test_shared_partitions_given_as_a_uri_and_a_local_path(cli, every_finding: list[Path]):
    """A second pass over units that share a group reads Hadoop URIs and local files in one task."""
    logs = every_finding[0]
    four, five = logs / "__consumer_offsets-4", logs / "__consumer_offsets-5"
    spark = cli("spark", "audit", four.as_uri(), str(five), "-o", "json", "--fail-on", "none")
    dump = cli("dump", "audit", str(four), str(five), "-o", "json", "--fail-on", "none")
    assert spark.code == 0, spark.err
    assert spark.json() == dump.json()
    assert [f["group"] for f in spark.json()["items"][0]["findings"] if f["rule"] == "offset-rewind"] == ["shared"]


def test_uris_and_out_datasets(cli, spark, every_finding: list[Path], tmp_path: Path):
    out = tmp_path / "out"
    logs, text = every_finding
    s = cli("spark", "audit", logs.as_uri(), str(text), "--out", str(out), "-o", "json", "--fail-on", "none")
    d = cli("dump", "audit", str(logs), str(text), "-o", "json", "--fail-on", "none")
    assert s.code == d.code == 3, s.err  # partition 3 holds a damaged batch: exit 3 whatever --fail-on says
    assert json.loads(s.out.replace('"file:/', '"/')) == d.json()  # Hadoop names local files file:/...
    report = d.json()["items"][0]

    records = spark.read.parquet(str(out / "records"))
    types = dict(records.dtypes)
    assert (types["log_offset"], types["record_type"], types["group_id"], types["tombstone"]) == (
        "bigint", "smallint", "string", "boolean")
    assert records.count() == report["totals"]["records"]
    per_name: dict[str, int] = {}
    for row in report["byType"]:
        per_name[row["name"]] = per_name.get(row["name"], 0) + row["records"]
    assert {r["type_name"]: r["count"] for r in records.groupBy("type_name").count().collect()} == per_name
    commit = records.where("group_id = 'old' and record_type = 1").first()
    assert (commit.offsets_partition, commit.topic, commit.partition, commit.committed_offset,
            commit.expire_timestamp, commit.metadata_size) == (1, "logs", 0, 42, report["totals"]["firstTimestamp"]
                                                               + 50_000, 1)
    marker = records.where("control = 'ABORT' and offsets_partition = 6").first()
    assert (marker.producer_id, marker.transactional, marker.type_name) == (40, True, "CONTROL")

    findings = spark.read.parquet(str(out / "findings")).collect()
    assert sorted(f.rule for f in findings) == sorted(f["rule"] for f in report["findings"])
    assert spark.read.parquet(str(out / "groups")).count() == len(report["byGroup"])
    assert spark.read.parquet(str(out / "types")).count() == len(report["byType"])


def test_progress_counts_every_byte(spark, tmp_path: Path):
    from groupctl.spark.job import run_audit

    write_sample_dump(tmp_path)
    seen: list[int] = []

    @contextmanager
    def progress(total: int):
        seen.append(total)
        yield seen.append

    report = run_audit(spark, [str(tmp_path)], progress=progress)
    assert report.totals["records"] == 31
    total, *advances = seen
    assert total == sum(advances) == (tmp_path / "__consumer_offsets-0" / "00000000000000000000.log").stat().st_size


def test_out_replaced_only_by_a_run_that_succeeds(cli, spark, every_finding: list[Path], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch):
    from groupctl.spark import job

    logs = str(every_finding[0] / "__consumer_offsets-0")
    out = tmp_path / "out"
    assert cli("spark", "audit", logs, "--out", str(out), "-f", "json", "--fail-on", "none").code == 0
    assert sorted(p.name for p in out.iterdir()) == ["findings", "groups", "records", "types"]
    written = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def broken(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(job, "write_report", broken)  # after the records are written, before publishing
    r = cli("spark", "audit", str(every_finding[0]), "--out", str(out), "-f", "json")
    assert r.code == 1 and "disk full" in r.err
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == written
    fresh = tmp_path / "fresh" / "out"
    assert cli("spark", "audit", logs, "--out", str(fresh)).code == 1
    assert not (tmp_path / "fresh").exists()


def test_failed_job_is_one_line(cli, every_finding: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A segment gone between the plan and the task that reads it: the cause in one line, not a Python trace."""
    from groupctl.spark import job

    partition = tmp_path / "__consumer_offsets-0"
    shutil.copytree(every_finding[0] / "__consumer_offsets-0", partition)
    planned = job.plan_units

    def plan_then_lose_a_file(files: list) -> list:
        units = planned(files)
        Path(units[0].files[0].path).unlink()
        return units

    monkeypatch.setattr(job, "plan_units", plan_then_lose_a_file)
    r = cli("spark", "audit", str(partition))
    assert r.code == 1 and "Traceback" not in r.err and "internal error" not in r.err
    assert r.err.startswith("groupctl: error: the Spark job failed: ") and r.err.count("\n") == 1, r.err
    assert f"{partition / '00000000000000000000.log'}' does not exist" in r.err


def test_uri_spark_cannot_open_is_a_usage_error(cli, spark, every_finding: list[Path]):
    before = spark_jobs(spark)
    r = cli("spark", "audit", "nosuchfs://host/logs")
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert "PATH 'nosuchfs://host/logs': Spark has no file system for 'nosuchfs:' URIs" in r.err
    r = cli("spark", "audit", str(every_finding[0]), "--out", "nosuchfs://host/out")
    assert r.code == 2 and r.err.startswith("groupctl: error: --out 'nosuchfs://host/out': Spark has no file system")
    assert spark_jobs(spark) == before  # said before any job ran


def test_out_spark_cannot_write_is_said_before_the_job(cli, spark, every_finding: list[Path], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    """What the local check before Spark cannot see (a cluster file system) is tried by Spark before the job."""
    from groupctl.spark import datasets

    monkeypatch.setattr(datasets, "check_out", lambda out: None)
    afile = tmp_path / "afile"
    afile.write_text("x")
    before = spark_jobs(spark)
    r = cli("spark", "audit", str(every_finding[0]), "--out", afile.as_uri() + "/out")
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert r.err.startswith(f"groupctl: error: --out {afile.as_uri()}/out: cannot write there: ") and \
        "choose a directory you can write to" in r.err, r.err
    assert spark_jobs(spark) == before and afile.read_text() == "x"
