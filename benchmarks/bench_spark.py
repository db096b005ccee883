"""`spark audit` throughput on a generated dump of 5,000,000 records in 50 partition directories, beside `dump audit`.

dump audit: the command's own loop (decode, replay, rules) in this process, on one core.
spark audit: the command's job (`groupctl.spark.job.run_audit`) with --master local[1], then local[2],
each on a session started beforehand and warmed up on a small dump: the one-off start of the JVM
and of its Python workers is printed apart and left out of the rates. Both must give the same report.
The three alternate over --runs rounds and the best of each counts, so a burst of load from other
processes spoils one round rather than one figure. Target: local[2] >= 1.6x local[1] on a 2-core machine.

The dump is the benchmark mix of `groupctl.log.synthetic.mixed_dump` (2,000 classic and 2,000 KIP-848
groups) with each batch placed in the partition the broker would give its group, as on a real
cluster. Usage: python3 benchmarks/bench_spark.py [--records N] [--partitions 50] [--dir DIR] [--runs 3]
(--dir keeps the generated dump there and reuses it on the next run).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

TARGET = 1.6


def write_partitioned_dump(directory: Path, records: int, partitions: int, seed: int = 1) -> None:
    """The mixed benchmark dump split into partition directories by each batch's group."""
    from groupctl.log.partitioning import partition_for
    from groupctl.log.segment import iter_batches
    from groupctl.log.synthetic import mixed_dump
    from groupctl.protocol.records import decode_key

    data = mixed_dump(records, seed=seed, groups=2000)
    chunks: dict[int, list[bytes]] = {p: [] for p in range(partitions)}
    for batch in iter_batches(data):
        key = batch.records[0].key if batch.records and not batch.is_control else None
        if key is None:
            partition = 0
        else:
            fields = decode_key(key).data
            partition = partition_for(fields.get("group", fields.get("groupId")), partitions)
        chunks[partition].append(data[batch.position:batch.position + batch.size])
    for p, parts in chunks.items():
        if parts:
            target = directory / f"__consumer_offsets-{p}"
            target.mkdir(parents=True, exist_ok=True)
            (target / "00000000000000000000.log").write_bytes(b"".join(parts))


def dump_audit(directory: Path):
    from groupctl.dumps import audit_dumps
    from groupctl.log.decode import open_inputs

    return audit_dumps(open_inputs([directory]))


def tree_cpu_seconds() -> float:
    """CPU time used so far by this process and every process under it (the JVM, its Python workers)."""
    parents, cpu = {}, {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / tick
    mine, total = {os.getpid()}, 0.0
    for pid in sorted(cpu):  # children have larger pids than their parents here, nearly always
        if pid in mine or parents.get(pid) in mine:
            mine.add(pid)
            total += cpu[pid]
    return total


def timed(fn, runs: int):
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=5_000_000)
    parser.add_argument("--partitions", type=int, default=50)
    parser.add_argument("--dir", type=Path, help="where to keep the generated dump (reused when present)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from groupctl.spark.job import run_audit
    from groupctl.spark.session import spark_session

    scratch = Path(tempfile.mkdtemp(prefix="bench-spark-"))
    try:
        dump = args.dir or scratch / "dump"
        if not (dump / "__consumer_offsets-0").is_dir():
            start = time.perf_counter()
            write_partitioned_dump(dump, args.records, args.partitions)
            print(f"wrote the dump in {time.perf_counter() - start:.0f} s")
        size = sum(f.stat().st_size for f in dump.rglob("*.log"))
        dirs = sum(1 for d in dump.iterdir() if d.is_dir())
        warmup = scratch / "warmup"
        write_partitioned_dump(warmup, 20_000, 4, seed=2)

        masters = ("local[1]", "local[2]")
        best = dict.fromkeys(("dump audit", *masters), float("inf"))
        cores = dict.fromkeys(best, 0.0)  # CPU seconds per wall second of the best run: the cores it got
        ready: dict[str, float] = {}
        loads = []
        expected = None
        for _ in range(args.runs):
            loads.append(os.getloadavg()[0])
            cpu = tree_cpu_seconds()
            seconds, expected = timed(lambda: dump_audit(dump), 1)
            if seconds < best["dump audit"]:
                best["dump audit"], cores["dump audit"] = seconds, (tree_cpu_seconds() - cpu) / seconds
            for master in masters:
                start = time.perf_counter()
                with spark_session(master) as run:
                    run_audit(run.spark, [str(warmup)])
                    ready.setdefault(master, time.perf_counter() - start)  # the first: a JVM starts
                    cpu = tree_cpu_seconds()
                    seconds, report = timed(lambda run=run: run_audit(run.spark, [str(dump)]), 1)
                    used = (tree_cpu_seconds() - cpu) / seconds
                if (report.findings, report.by_group, report.by_type, report.totals) != (
                        expected.findings, expected.by_group, expected.by_type, expected.totals):
                    raise SystemExit(f"spark audit --master {master} differs from dump audit")
                if seconds < best[master]:
                    best[master], cores[master] = seconds, used
        n = expected.totals["records"]
        print(f"records {n:,} in {dirs} partition directories, {size / 1e6:.0f} MB; {os.cpu_count()} cores, "
              f"load average {', '.join(f'{x:.1f}' for x in loads)} before each run (other processes lower the "
              f"rates); best of {args.runs} run(s), with the cores each got (CPU seconds per second)")
        rates = {name: n / seconds for name, seconds in best.items()}
        print(f"dump audit                  {rates['dump audit']:>10,.0f} records/s  ({best['dump audit']:.1f} s, "
              f"{cores['dump audit']:.2f} cores)")
        for master in masters:
            print(f"spark audit --master {master:<8} {rates[master]:>10,.0f} records/s  ({best[master]:.1f} s, "
                  f"{cores[master]:.2f} cores; session start and warm-up {ready[master]:.1f} s, not counted)")
        ratio = rates["local[2]"] / rates["local[1]"]
        print(f"local[2] / local[1]: {ratio:.2f}x (target >= {TARGET}x: {'met' if ratio >= TARGET else 'MISSED'}); "
              f"local[2] / dump audit: {rates['local[2]'] / rates['dump audit']:.2f}x")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
