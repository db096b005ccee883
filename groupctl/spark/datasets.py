"""The --out datasets (records, findings, groups, types): staged, then published together.

Spark's overwrite mode deletes a dataset before writing its replacement, so a run that fails half
way would leave DIR with nothing, or with records from one run beside findings from another. Each
run writes into a hidden staging directory inside DIR (a leading `_` makes Hadoop and Spark skip
it) and moves the datasets into place only once all of them are written; a failed run removes its
staging directory, and DIR too when the run created it. Paths go through Hadoop's FileSystem, so
local directories and cluster URIs behave alike.
"""

from __future__ import annotations

import errno
import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from groupctl.errors import UsageError
from groupctl.log.audit import AuditReport
from groupctl.spark.units import hadoop_fs, is_uri

DATASETS = ("records", "findings", "groups", "types")
WRITE_FORMATS = ("parquet", "csv", "json")


def _local_path(out: str) -> Path | None:
    """The local path an --out names: a plain path, or a file: URI (None for any other file system)."""
    if not is_uri(out):
        return Path(out)
    url = urlsplit(out)
    if url.scheme.lower() == "file" and url.netloc in ("", "localhost"):
        return Path(unquote(url.path))
    return None


def _probe_write(directory: Path) -> None:
    """Create and remove a file in `directory`: the only test that holds for root, read-only mounts and ACLs."""
    probe = directory / f".groupctl-probe-{uuid.uuid4().hex}"
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    probe.unlink()


def check_out(out: str) -> None:
    """A usage error for a local --out this run could not write, said before Spark starts.

    DIR itself may be missing (the run creates it, and its missing parents); the nearest directory
    that exists must be one this process can create files in.
    """
    local = _local_path(out)
    if local is None:
        return  # a cluster file system: only Spark can tell
    where = "there"
    try:
        path = local.resolve()
        if path.exists() and not path.is_dir():
            raise UsageError(f"--out {out}: {path} exists and is not a directory; name a directory")
        existing = next(p for p in (path, *path.parents) if p.exists())
        if not existing.is_dir():
            raise UsageError(f"--out {out}: {existing} is not a directory; name a path under a directory")
        where = f"in {existing}"
        _probe_write(existing)
        longest = os.pathconf(existing, "PC_NAME_MAX")
        if any(len(os.fsencode(p.name)) > longest for p in (path, *path.parents) if p not in existing.parents):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
    except OSError as exc:
        why = (exc.strerror or str(exc)).lower()
        raise UsageError(f"--out {out}: cannot write {where} ({why}); choose a directory you can write to") from None


def out_uri(out: str) -> str:
    """--out checked (`check_out`) and made a URI; a local path becomes an absolute file: URI, so Spark
    never takes it for a path on a cluster's default file system."""
    check_out(out)
    return out if is_uri(out) else Path(out).resolve().as_uri()


def writer(frame: Any, fmt: str) -> Any:
    """A DataFrameWriter for one dataset in `fmt` (CSV with a header line)."""
    if fmt not in WRITE_FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(WRITE_FORMATS)}")
    out = frame.write.mode("overwrite").format(fmt)
    return out.option("header", "true") if fmt == "csv" else out


def write_report(spark: Any, report: AuditReport, base: str, fmt: str) -> None:
    """Findings and the two summary tables, each a small one-file dataset under `base`."""
    findings = [
        (f.severity, f.rule, f.group, f.evidence.get("logOffset"), json.dumps(f.evidence, sort_keys=True),
         f.explanation)
        for f in report.findings
    ]
    tables = {
        "findings": (findings, "severity string, rule string, group_id string, log_offset bigint, "
                               "evidence string, explanation string"),
        "groups": ([(r["group"], r["records"], r["bytes"], r["tombstones"], r["commits"], r["firstTimestamp"],
                     r["lastTimestamp"], r["commitsPerMinute"]) for r in report.by_group],
                   "group_id string, records bigint, bytes bigint, tombstones bigint, commits bigint, "
                   "first_timestamp bigint, last_timestamp bigint, commits_per_minute double"),
        "types": ([(r["type"], r["name"], r["records"], r["bytes"], r["tombstones"]) for r in report.by_type],
                  "record_type smallint, type_name string, records bigint, bytes bigint, tombstones bigint"),
    }
    for name, (rows, ddl) in tables.items():
        writer(spark.createDataFrame(rows, ddl).coalesce(1), fmt).save(f"{base}/{name}")


def _make_staging(fs: Any, staging: Any, out: str) -> None:
    """Create the staging directory before any job runs: a DIR the run cannot write in fails now, not after."""
    from py4j.protocol import Py4JJavaError

    from groupctl.spark.session import failure_reason

    try:
        made = fs.mkdirs(staging)
    except Py4JJavaError as exc:
        why = failure_reason(str(exc)) or type(exc).__name__
        raise UsageError(f"--out {out}: cannot write there: {why}; choose a directory you can write to") from None
    if not made:
        raise UsageError(f"--out {out}: cannot create {staging.toString()}; choose a directory you can write to")


@contextmanager
def staged(spark: Any, out: str) -> Iterator[str]:
    """Yields a staging directory to write the datasets in; on a clean exit they replace DIR's."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path
    base = path(out.rstrip("/"))
    fs = hadoop_fs(spark, out, "--out")
    created = None  # the topmost directory this run creates, removed again if the run fails
    parent = base
    while parent is not None and not fs.exists(parent):
        created, parent = parent, parent.getParent()
    staging = path(base, f"_groupctl-staging-{uuid.uuid4().hex}")
    try:
        _make_staging(fs, staging, out)
        yield staging.toString()
        for name in DATASETS:
            target = path(base, name)
            fs.delete(target, True)
            if not fs.rename(path(staging, name), target):
                raise OSError(f"could not move {name} into {out}")
    finally:
        fs.delete(staging, True)
        if created is not None and not all(fs.exists(path(base, name)) for name in DATASETS):
            fs.delete(created, True)
