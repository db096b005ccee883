"""The Spark audit job: every unit (one `__consumer_offsets` partition) decoded and audited by a task.

Each task reads its unit's files in order with groupctl's own readers and feeds every record to an
`Auditor`, exactly as `dump audit` does; with an output directory it also turns the records into
rows of the typed records DataFrame, so the bytes are decoded once. The auditor's state travels
back to the driver through an accumulator keyed by unit (a retried task replaces its entry rather
than adding to it), where `groupctl.log.audit.merge` joins the units in input order and `finish`
runs the final-state rules and builds the summaries. Units that share a group or a producer id
(never the case in one cluster's log, possible when dumps are mixed) are audited again together,
in one task per run of such units, so the report is always the one `dump audit` gives.
"""

from __future__ import annotations

import heapq
import io
import json
import pickle
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Any

from pyspark.accumulators import AccumulatorParam

from groupctl.log.audit import Auditor, AuditReport, merge
from groupctl.spark.records import SCHEMA_DDL, arrow_batch, record_row
from groupctl.spark.units import (
    InputFile,
    Unit,
    hadoop_files,
    independent_runs,
    is_uri,
    local_files,
    partition_of,
    plan_units,
)

__all__ = ["WRITE_FORMATS", "input_files", "run_audit"]

WRITE_FORMATS = ("parquet", "csv", "json")
ROWS_PER_BATCH = 32_768
TASKS_PER_CORE = 4
_INPUT_DDL = "unit int, path string, content binary"

Progress = Callable[[int], AbstractContextManager[Callable[[int], None]]]
"""Given the bytes to read, a context yielding `advance(n)` (as `groupctl.cli.progress.byte_progress`)."""


# --- on the executors -----------------------------------------------------------------------------


class _TextBytes:
    """A dump-log text file fetched as bytes, named by its URI: what `parse_dump_log` asks of a path."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self.data = data

    def open(self, encoding: str = "utf-8", errors: str = "strict") -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(self.data), encoding=encoding, errors=errors)

    def __str__(self) -> str:
        return self.name


def _dumps(path: str, content: bytes | None) -> Iterator[Any]:
    """The FileDumps of one input: read from the local path, or from the bytes Spark fetched."""
    from groupctl.log.decode import TEXT_MAGIC, FileDump, decode_record, open_inputs

    if content is None:
        yield from open_inputs([path])
        return
    if content.startswith(TEXT_MAGIC):
        from groupctl.log.dumplog import parse_dump_log

        yield from parse_dump_log(_TextBytes(path, content))  # type: ignore[arg-type]
        return
    from groupctl.log.segment import iter_batches, segment_base_offset

    dump = FileDump(path, "segment", segment_base_offset(path), iter(()))
    reader = iter_batches(content, path=path, problems=dump.problems)
    dump.batches = ((b, [decode_record(b, r) for r in b.records]) for b in reader)
    yield dump


class _UnitAudit:
    """One unit's records through one Auditor (the loop of `dump audit`), and optionally into rows."""

    def __init__(self, unit: int, with_records: bool) -> None:
        self.unit = unit
        self.auditor = Auditor()
        self.producers: set[int] = set()
        self.rows: list[tuple] | None = [] if with_records else None

    def read(self, path: str, content: bytes | None) -> Iterator[Any]:
        """Audit one input file; yields Arrow batches of records as they fill up."""
        observe = self.auditor.observe
        producers = self.producers
        rows = self.rows
        for dump in _dumps(path, content):
            partition = partition_of(dump.path)
            for batch, recs in dump.batches:
                if batch.producer_id >= 0:
                    producers.add(batch.producer_id)
                for rec in recs:
                    observe(rec)
                if rows is not None:
                    rows += [record_row(partition, dump.path, rec) for rec in recs]
                    if len(rows) >= ROWS_PER_BATCH:
                        yield arrow_batch(rows)
                        rows.clear()
            for problem in dump.problems:
                self.auditor.observe_problem(problem)

    def finish(self) -> Iterator[Any]:
        if self.rows:
            yield arrow_batch(self.rows)
            self.rows.clear()

    def state(self) -> bytes:
        return pickle.dumps((self.auditor, sorted(self.producers)), protocol=pickle.HIGHEST_PROTOCOL)


def audit_units(batches: Iterator[Any], *, with_records: bool, states: Any) -> Iterator[Any]:
    """mapInArrow body: input rows (unit, path, content) come grouped by unit, files in order."""
    current: _UnitAudit | None = None
    for batch in batches:
        units = batch.column("unit").to_pylist()
        paths = batch.column("path").to_pylist()
        contents = batch.column("content")
        for i, unit in enumerate(units):
            if current is None or current.unit != unit:
                if current is not None:
                    yield from current.finish()
                    states.add({current.unit: current.state()})
                current = _UnitAudit(unit, with_records)
            yield from current.read(paths[i], contents[i].as_py())
    if current is not None:
        yield from current.finish()
        states.add({current.unit: current.state()})


# --- on the driver --------------------------------------------------------------------------------


def input_files(spark: Any, paths: list[str]) -> list[InputFile]:
    """Every file the PATHs stand for, in `dump audit`'s order (URIs listed through Spark)."""
    files: list[InputFile] = []
    for p in paths:
        files += hadoop_files(spark, p) if is_uri(p) else local_files(p)
    return files


def _bins(units: list[Unit], count: int) -> list[list[Unit]]:
    """Units packed into `count` tasks of about equal bytes (largest first, each to the lightest task)."""
    loads = [(0, i) for i in range(count)]
    bins: list[list[Unit]] = [[] for _ in range(count)]
    for unit in sorted(units, key=lambda u: -u.size):
        load, i = heapq.heappop(loads)
        bins[i].append(unit)
        heapq.heappush(loads, (load + unit.size, i))
    return [sorted(b, key=lambda u: u.index) for b in bins if b]


def _input_frame(spark: Any, units: list[Unit]) -> Any:
    """Rows (unit, path, content), each unit's in one partition, in file order.

    Local files are packed into a few tasks per core (a Python task costs tens of milliseconds
    before it reads anything) of about equal size, listed in the plan itself, and read by the
    executors. Hadoop URIs are fetched by Spark (binaryFile) and brought together per unit.
    """
    from pyspark.sql import functions as F

    frames = []
    local = [u for u in units if u.files[0].local]
    if local:
        bins = _bins(local, min(len(local), TASKS_PER_CORE * spark.sparkContext.defaultParallelism))
        listing = F.array(*[
            F.array(*[F.struct(F.lit(u.index).alias("unit"), F.lit(f.path).alias("path")) for u in b for f in u.files])
            for b in bins
        ])
        frames.append(
            spark.range(0, len(bins), 1, len(bins))
            .select(F.explode(F.element_at(listing, F.col("id").cast("int") + 1)).alias("file"))
            .select("file.unit", "file.path", F.lit(None).cast("binary").alias("content"))
        )
    remote = [u for u in units if not u.files[0].local]
    if remote:
        order = spark.createDataFrame(
            [(u.index, seq, f.path) for u in remote for seq, f in enumerate(u.files)], "unit int, seq int, path string"
        )
        fetched = spark.read.format("binaryFile").load([f.path for u in remote for f in u.files])
        frames.append(
            fetched.join(F.broadcast(order), "path")
            .repartition(len(remote), "unit")
            .sortWithinPartitions("unit", "seq")
            .select("unit", "path", "content")
        )
    frame = frames[0]
    for other in frames[1:]:
        frame = frame.unionByName(other)
    return frame


class _States(AccumulatorParam):
    """Accumulator param: unit -> pickled state; the last report of a unit wins (retries, speculation)."""

    def zero(self, value: dict) -> dict:
        return {}

    def addInPlace(self, mine: dict, theirs: dict) -> dict:
        mine.update(theirs)
        return mine


def _watch(states: Any, units: list[Unit], advance: Callable[[int], None], stop: threading.Event) -> None:
    """Advance the progress by the bytes of each unit whose state has come back."""
    size = {u.index: u.size for u in units}
    counted: set[int] = set()
    while True:
        stopping = stop.wait(0.2)
        for unit in list(states.value):
            if unit not in counted:
                counted.add(unit)
                advance(size.get(unit, 0))
        if stopping:
            return


def _run(spark: Any, units: list[Unit], *, records_out: str | None, fmt: str,
         progress: Progress | None) -> dict[int, bytes]:
    """One pass over `units`: their pickled states, and the records written when `records_out` is set."""
    states = spark.sparkContext.accumulator({}, _States())
    body = partial(audit_units, with_records=records_out is not None, states=states)
    records = _input_frame(spark, units).mapInArrow(body, SCHEMA_DDL)
    total = sum(u.size for u in units)
    with progress(total) if progress else nullcontext(lambda n: None) as advance:
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(states, units, advance, stop), daemon=True)
        watcher.start()
        try:
            if records_out is None:
                records.write.format("noop").mode("overwrite").save()
            else:
                _writer(records, fmt).save(records_out)
        finally:
            stop.set()
            watcher.join()
    found = dict(states.value)
    missing = [u.index for u in units if u.index not in found]
    if missing:
        raise RuntimeError(f"no audit state came back for unit(s) {missing}")
    return found


def _writer(frame: Any, fmt: str) -> Any:
    writer = frame.write.mode("overwrite").format(fmt)
    return writer.option("header", "true") if fmt == "csv" else writer


def run_audit(spark: Any, paths: list[str], *, out: str | None = None, fmt: str = "parquet",
              progress: Progress | None = None) -> AuditReport:
    """Audit PATHs on `spark`; with `out`, write records, findings and summaries there too."""
    if fmt not in WRITE_FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    units = plan_units(input_files(spark, paths))
    sc = spark.sparkContext
    sc.setJobGroup("groupctl-spark-audit", f"groupctl spark audit: {len(units)} partition(s)")
    base = out.rstrip("/") if out else None
    states = _run(spark, units, records_out=f"{base}/records" if base else None, fmt=fmt, progress=progress)
    parts = [pickle.loads(states[u.index]) for u in units]
    runs = independent_runs([[*auditor.groups(), *producers] for auditor, producers in parts])
    together = [r for r in runs if len(r) > 1]
    again: dict[int, bytes] = {}
    if together:
        merged_units = [Unit(i, units[r.start].directory, [f for u in units[r.start:r.stop] for f in u.files])
                        for i, r in enumerate(together)]
        again = _run(spark, merged_units, records_out=None, fmt=fmt, progress=None)
    auditors = [parts[r.start][0] if len(r) == 1 else pickle.loads(again[together.index(r)])[0] for r in runs]
    report = merge(auditors).finish()
    if base is not None:
        _write_report(spark, report, base, fmt)
    return report


def _write_report(spark: Any, report: AuditReport, base: str, fmt: str) -> None:
    """Findings and the two summary tables, each a small one-file dataset beside the records."""
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
        _writer(spark.createDataFrame(rows, ddl).coalesce(1), fmt).save(f"{base}/{name}")
