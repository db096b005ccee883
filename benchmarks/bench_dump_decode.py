"""`groupctl dump decode` as a whole process on the 1,000,000-record benchmark dump, against Kafka's tool.

Runs `groupctl dump decode --format dump-log` and `--format jsonl` (stdout to /dev/null) as separate
processes and takes the median wall time of each. Kafka's `kafka-dump-log.sh --offsets-decoder
--deep-iteration` is not run here (no JVM): its time is `--kafka-seconds S` when you measured it beside
this run on the same dump, otherwise the figure recorded in issue 20 on this kind of machine (Kafka
4.0.0, 1,000,005 records: median 9.31 s, best 5.40 s); the output says which one it used.
Targets: dump-log >= 3x faster than Kafka; jsonl no slower than dump-log.
`--reference` also times the pure-Python reader (GROUPCTL_PURE_PYTHON=1) for context.
Usage: python3 benchmarks/bench_dump_decode.py [--records N] [--runs 3] [--kafka-seconds S] [--reference]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDED_KAFKA_MEDIAN = 9.31
RECORDED_KAFKA_BEST = 5.40
TARGET = 3.0


def run_decode(segment: Path, fmt: str, pure: bool) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("GROUPCTL_PURE_PYTHON", None)
    if pure:
        env["GROUPCTL_PURE_PYTHON"] = "1"
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        subprocess.run([sys.executable, "-m", "groupctl", "dump", "decode", "--format", fmt, str(segment)],
                       stdout=sink, env=env, check=True, timeout=600)
    return time.perf_counter() - start


def median_time(segment: Path, fmt: str, runs: int, pure: bool = False) -> tuple[float, float]:
    times = [run_decode(segment, fmt, pure) for _ in range(runs)]
    return statistics.median(times), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kafka-seconds", type=float, default=None,
                        help="kafka-dump-log.sh's wall time on the same dump, measured beside this run")
    parser.add_argument("--reference", action="store_true", help="also time the pure-Python reader")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    from groupctl.log.fast import describe
    from groupctl.log.synthetic import mixed_dump

    with tempfile.TemporaryDirectory() as tmp:
        segment = Path(tmp) / "__consumer_offsets-0" / "00000000000000000000.log"
        segment.parent.mkdir()
        segment.write_bytes(mixed_dump(args.records))
        print(f"{describe()}; dump of {args.records:,} records, {segment.stat().st_size / 1e6:.1f} MB; "
              f"median of {args.runs} runs")
        dump_log, dump_log_best = median_time(segment, "dump-log", args.runs)
        jsonl, jsonl_best = median_time(segment, "jsonl", args.runs)
        print(f"groupctl --format dump-log   {dump_log:6.2f} s (best {dump_log_best:.2f} s)")
        print(f"groupctl --format jsonl      {jsonl:6.2f} s (best {jsonl_best:.2f} s)")
        if args.reference:
            ref, ref_best = median_time(segment, "dump-log", args.runs, pure=True)
            print(f"pure-Python dump-log         {ref:6.2f} s (best {ref_best:.2f} s): "
                  f"compiled is {ref / dump_log:.2f}x faster")

    if args.kafka_seconds is not None:
        peers = [("kafka-dump-log.sh, measured beside this run (--kafka-seconds)", args.kafka_seconds)]
    else:
        peers = [("kafka-dump-log.sh median recorded in issue 20 (not measured in this run)", RECORDED_KAFKA_MEDIAN),
                 ("kafka-dump-log.sh best recorded in issue 20 (not measured in this run)", RECORDED_KAFKA_BEST)]
    for name, seconds in peers:
        ratio = seconds / dump_log
        print(f"{name}: {seconds:.2f} s -> groupctl dump-log is {ratio:.2f}x faster "
              f"(target >= {TARGET:g}x: {'met' if ratio >= TARGET else 'MISSED'})")
    print(f"jsonl / dump-log: {jsonl / dump_log:.2f}x (target <= 1x: {'met' if jsonl <= dump_log else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
