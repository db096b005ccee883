"""`groupctl dump decode` as a whole process on the 1,000,000-record benchmark dump, against Kafka's tool.

Runs `groupctl dump decode --format dump-log` and `--format jsonl` (stdout to /dev/null) as separate
processes and takes the median wall time of each. Kafka's `kafka-dump-log.sh --offsets-decoder
--deep-iteration --files` is not run here (no JVM): it is compared with as measured live on the same dump
(`mixed_dump(N, seed=1)`, N 100,000 or 1,000,000), median of 5, read from ../shared/measured/kafka.json
(--measured FILE elsewhere) and labelled "recorded live" with its date and machine; and with `--kafka-seconds S`
when you measured it beside this run on the same dump. Other record counts have no recorded figure.
Targets: dump-log >= 3x faster than Kafka; jsonl no slower than dump-log.
`--reference` also times the pure-Python reader (GROUPCTL_PURE_PYTHON=1) for context.
Usage: python3 benchmarks/bench_dump_decode.py [--records N] [--runs 3] [--kafka-seconds S] [--measured FILE]
                                              [--reference]
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

import measured

ROOT = Path(__file__).resolve().parent.parent
SEED = 1  # mixed_dump's default, and the seed of the recorded dumps
TARGET = 3.0


def run_decode(segment: Path, fmt: str, pure: bool, release: str | None = None) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("GROUPCTL_PURE_PYTHON", None)
    if pure:
        env["GROUPCTL_PURE_PYTHON"] = "1"
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        release_args = ["--kafka-version", release] if fmt == "dump-log" and release else []
        subprocess.run([sys.executable, "-m", "groupctl", "dump", "decode", "--format", fmt, *release_args,
                        str(segment)], stdout=sink, env=env, check=True, timeout=600)
    return time.perf_counter() - start


def median_time(segment: Path, fmt: str, runs: int, pure: bool = False, release: str | None = None
                ) -> tuple[float, float]:
    times = [run_decode(segment, fmt, pure, release) for _ in range(runs)]
    return statistics.median(times), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kafka-seconds", type=float, default=None,
                        help="kafka-dump-log.sh's wall time on the same dump, measured beside this run")
    parser.add_argument("--reference", action="store_true", help="also time the pure-Python reader")
    measured.add_argument(parser)
    args = parser.parse_args()
    recorded = measured.load(args.measured)
    release = recorded.release()  # dump-log prints as the recorded Kafka's tool does

    sys.path.insert(0, str(ROOT))
    from groupctl.log.fast import describe
    from groupctl.log.synthetic import mixed_dump

    with tempfile.TemporaryDirectory() as tmp:
        segment = Path(tmp) / "__consumer_offsets-0" / "00000000000000000000.log"
        segment.parent.mkdir()
        segment.write_bytes(mixed_dump(args.records, seed=SEED))
        print(f"{describe()}; dump of {args.records:,} records, {segment.stat().st_size / 1e6:.1f} MB; "
              f"median of {args.runs} runs; dump-log as Kafka {release or 'default release'} prints it")
        dump_log, dump_log_best = median_time(segment, "dump-log", args.runs, release=release)
        jsonl, jsonl_best = median_time(segment, "jsonl", args.runs)
        print(f"groupctl --format dump-log   {dump_log:6.2f} s (best {dump_log_best:.2f} s)")
        print(f"groupctl --format jsonl      {jsonl:6.2f} s (best {jsonl_best:.2f} s)")
        if args.reference:
            ref, ref_best = median_time(segment, "dump-log", args.runs, pure=True, release=release)
            print(f"pure-Python dump-log         {ref:6.2f} s (best {ref_best:.2f} s): "
                  f"compiled is {ref / dump_log:.2f}x faster")

    peers = []
    what = f"kafka-dump-log.sh on mixed_dump({args.records:,}, seed={SEED})"
    seconds = recorded.figure("dump_log_wall_s", f"mixed_dump_{args.records}_seed{SEED}")
    if seconds is not None:
        peers.append((f"{recorded.kafka} {what} ({recorded.provenance}, median of 5)", seconds))
    else:
        print(recorded.missing(what))
    if args.kafka_seconds is not None:
        peers.append((f"{what}, measured live beside this run (--kafka-seconds)", args.kafka_seconds))
    for name, seconds in peers:
        ratio = seconds / dump_log
        print(f"{measured.compare(name, seconds, dump_log, 's', digits=2)}; "
              f"target >= {TARGET:g}x faster: {'met' if ratio >= TARGET else 'MISSED'}")
    print(f"jsonl / dump-log: {jsonl / dump_log:.2f}x (target <= 1x: {'met' if jsonl <= dump_log else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
