"""Median whole-process wall time of `groupctl --help`, against a bare interpreter start in the same run.

Target: under 0.3 s. Heavy modules (pyspark, confluent_kafka, the codec) must load lazily, so
this stays flat as commands are added. Usage: python3 benchmarks/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

TARGET_S = 0.3


def median_seconds(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    python = [sys.executable, "-c", "pass"]
    groupctl = [sys.executable, "-m", "groupctl", "--help"]
    median_seconds(groupctl, 2)  # warm the file cache and bytecode
    base = median_seconds(python, args.runs)
    ours = median_seconds(groupctl, args.runs)
    print(f"python -c pass      median {base * 1000:7.1f} ms")
    print(f"groupctl --help     median {ours * 1000:7.1f} ms  (target < {TARGET_S * 1000:.0f} ms: "
          f"{'met' if ours < TARGET_S else 'MISSED'})")
    print(f"ratio groupctl/python start-up: {ours / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
