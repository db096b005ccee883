"""The Spark audit job: every unit (one `__consumer_offsets` partition) decoded and audited by a task.

Each task reads its unit's files in order with groupctl's own readers and feeds every record to an
`Auditor`, exactly as `dump audit` does; with an output directory it also turns the records into
rows of the typed records DataFrame, so the bytes are decoded once. The auditor's state travels
back to the driver through an accumulator keyed by unit (a retried task replaces its entry rather
than adding to it), where `groupctl.log.audit.merge` joins the units in input order and `finish`
runs the final-state rules and builds the summaries. Units whose auditors share a group or a
producer id (`Auditor.scope`: never the case in one cluster's log, possible when dumps are mixed)
are audited again together, in one task per run of such units, so the report is always the one
`dump audit` gives.
"""

from __future__ import annotations

import heapq
import io
import pickle
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, nullcontext
from functools import partial
from typing import Any

from groupctl.log.audit import Auditor, AuditReport, merge
from groupctl.plurals import counted, plural
from groupctl.spark.datasets import WRITE_FORMATS, staged, write_report, writer
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

try:
    from pyspark.accumulators import AccumulatorParam
except ImportError as missing:  # the spark extra is not installed: say how to get it
    from groupctl.spark.session import SPARK_HINT

    raise ImportError(SPARK_HINT) from missing

__all__ = ["input_files", "run_audit"]

ROWS_PER_BATCH = 32_768
TASKS_PER_CORE = 4

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
    from groupctl.log.decode import TEXT_MAGIC, open_inputs, segment_dump

    if content is None:
        yield from open_inputs([path])
        return
    if content.startswith(TEXT_MAGIC):
        from groupctl.log.dumplog import parse_dump_log

        yield from parse_dump_log(_TextBytes(path, content))
        return
    from groupctl.log.segment import iter_batches

    problems: list[Any] = []
    yield segment_dump(path, iter_batches(content, path=path, problems=problems), problems)


class _UnitAudit:
    """One unit's records through one Auditor (the loop of `dump audit`), and optionally into rows."""

    def __init__(self, unit: int, with_records: bool) -> None:
        self.unit = unit
        self.auditor = Auditor()
        self.files = 0  # checked on the driver: a file lost on the way must not pass unnoticed
        self.rows: list[tuple] | None = [] if with_records else None

    def read(self, path: str, content: bytes | None) -> Iterator[Any]:
        """Audit one input file; yields Arrow batches of records as they fill up."""
        observe = self.auditor.observe
        rows = self.rows
        self.files += 1
        for dump in _dumps(path, content):
            partition = partition_of(dump.path)
            if dump.topic != "__consumer_offsets":  # __share_group_state: no rule is about it
                for _ in dump.batches:
                    pass
                continue
            for _batch, recs in dump.batches:
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
        """The auditor and the count of files read, pickled for their trip to the driver."""
        return pickle.dumps((self.auditor, self.files), protocol=pickle.HIGHEST_PROTOCOL)


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

    Units of local files are packed into a few tasks per core (a Python task costs tens of
    milliseconds before it reads anything) of about equal size, listed in the plan itself, and read
    by the executors. Hadoop URIs are fetched by Spark (binaryFile) and brought together per unit
    with the local files of the same unit (a rerun of units that share a group can mix both).
    """
    from pyspark.sql import functions as F

    frames = []
    local = [u for u in units if all(f.local for f in u.files)]
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
    remote = [u for u in units if not all(f.local for f in u.files)]
    if remote:
        order = spark.createDataFrame(
            [(u.index, seq, f.path, f.local) for u in remote for seq, f in enumerate(u.files)],
            "unit int, seq int, path string, local boolean",
        )
        fetched = (
            spark.read.format("binaryFile").load([f.path for u in remote for f in u.files if not f.local])
            .select("path", "content")
            .join(F.broadcast(order.where(~F.col("local"))), "path")
        )
        here = order.where(F.col("local")).withColumn("content", F.lit(None).cast("binary"))
        frames.append(
            fetched.unionByName(here)
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
         progress: Progress | None) -> dict[int, Auditor]:
    """One pass over `units`: each one's auditor, and the records written when `records_out` is set."""
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
                writer(records, fmt).save(records_out)
        finally:
            stop.set()
            watcher.join()
    found: dict[int, Auditor] = {}
    for unit in units:
        state = states.value.get(unit.index)
        if state is None:
            raise RuntimeError(f"no audit came back for {unit.directory}")
        auditor, read = pickle.loads(state)
        if read != len(unit.files):
            were = plural(read, "was", "were")
            raise RuntimeError(f"{unit.directory}: {read} of its {counted(len(unit.files), 'file')} {were} read")
        found[unit.index] = auditor
    return found


def run_audit(spark: Any, paths: list[str], *, out: str | None = None, fmt: str = "parquet",
              progress: Progress | None = None) -> AuditReport:
    """Audit PATHs on `spark`; with `out` (a URI), also write the records, findings and summaries there.

    The datasets appear in `out` only when the whole run succeeds (see `groupctl.spark.datasets`).
    """
    if fmt not in WRITE_FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    units = plan_units(input_files(spark, paths))
    spark.sparkContext.setJobGroup("groupctl-spark-audit", f"groupctl spark audit: {counted(len(units), 'partition')}")
    with ExitStack() as stack:
        staging = stack.enter_context(staged(spark, out)) if out else None
        states = _run(spark, units, records_out=f"{staging}/records" if staging else None, fmt=fmt,
                      progress=progress)
        parts = [states[u.index] for u in units]
        runs = independent_runs([part.scope() for part in parts])
        together = [r for r in runs if len(r) > 1]
        again: dict[int, Auditor] = {}
        if together:
            merged_units = [Unit(i, units[r.start].directory, [f for u in units[r.start:r.stop] for f in u.files])
                            for i, r in enumerate(together)]
            again = _run(spark, merged_units, records_out=None, fmt=fmt, progress=None)
        auditors = [parts[r.start] if len(r) == 1 else again[together.index(r)] for r in runs]
        report = merge(auditors).finish()
        if staging:
            write_report(spark, report, staging, fmt)
    return report
