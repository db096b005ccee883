"""`dump audit`'s reading of the benchmark dump beside `dump decode`'s, and the audit as a whole process beside
Kafka's kafka-dump-log.sh on the same dump.

In-process, on the same bytes of `mixed_dump(N, seed=1)` (1,000,000 records by default):
- decode: `dump decode`'s reading path: framing, CRC, decompression, every key and value of every record.
- audit: `dump audit`'s path: framing, CRC, decompression; plain batches of offset commits are read by the
  compiled loop straight from their bytes, without building records, the other batches decoded as above; then
  replay into group state and every audit rule.
The two paths do not decode the same records, so "audit / decode" is how long the audit takes next to
`dump decode`'s reading of the same dump, not the price of the rules on top of decoding.
Targets: audit time <= 1.5x decode time, and the audit at >= 1,000,000 records/s on one core.

Whole process: the median wall time of `groupctl dump audit --fail-on none FILE` (output to /dev/null) against
kafka-dump-log.sh --offsets-decoder --deep-iteration --files on the same dump, measured live (Kafka 4.0.0, median
of 5) and read from ../shared/measured/kafka.json (--measured FILE elsewhere): recorded for N 100,000 and 1,000,000
only. Kafka has no audit: its tool decodes and prints every record, a different job, named as such in the output.
Usage: python3 benchmarks/bench_audit.py [--records N] [--runs 3] [--measured FILE] [--no-process]
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
from bench_decode import best_rate, groupctl_decode

TARGET = 1.5
RATE_TARGET = 1_000_000
SEED = 1  # mixed_dump's default, and the seed of the recorded dumps


def groupctl_audit(data: bytes) -> int:
    from groupctl.log.audit import Auditor
    from groupctl.log.decode import decoded_batches
    from groupctl.log.segment import iter_batches

    auditor = Auditor()
    observe_batch = auditor.observe_batch
    problems: list = []
    reader = iter_batches(data, problems=problems)
    auditor.attach(reader)  # plain batches of commits are observed from the bytes, without records
    for batch, records in decoded_batches(reader):
        observe_batch(batch, records)
    for problem in problems:
        auditor.observe_problem(problem)
    auditor.finish()
    return auditor.replay.records


def audit_process_s(segment: Path, runs: int) -> float:
    """The median wall time of `groupctl dump audit` on `segment` as a process of its own."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        with open(os.devnull, "wb") as sink:
            subprocess.run([sys.executable, "-m", "groupctl", "dump", "audit", "--fail-on", "none", str(segment)],
                           stdout=sink, check=True, timeout=600)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-process", action="store_true", help="skip the whole-process audit")
    measured.add_argument(parser)
    args = parser.parse_args()
    recorded = measured.load(args.measured)

    from groupctl.log.fast import describe
    from groupctl.log.synthetic import mixed_dump

    data = mixed_dump(args.records, seed=SEED)
    decode_rate, n = best_rate(groupctl_decode, data, args.runs)
    audit_rate, n_audit = best_rate(groupctl_audit, data, args.runs)
    if n != n_audit:
        raise SystemExit(f"record counts differ: decode {n}, audit {n_audit}")
    ratio = decode_rate / audit_rate
    print(f"{describe()}; mixed_dump({args.records:,}, seed={SEED}); best of {args.runs} runs in this process")
    print(f"records                                          {n:>12,}")
    print(f"decode (dump decode's reading: every record)     {decode_rate:>12,.0f} records/s")
    print(f"audit (commit batches from bytes, replay, rules) {audit_rate:>12,.0f} records/s")
    print(f"audit time / decode time on the same bytes: {ratio:.2f}x (target <= {TARGET}x: "
          f"{'met' if ratio <= TARGET else 'MISSED'}); not a cost over decoding: the audit does not decode what "
          "decode does")
    print(f"audit on one core: {audit_rate:,.0f} records/s (target >= {RATE_TARGET:,} records/s: "
          f"{'met' if audit_rate >= RATE_TARGET else 'MISSED'})")

    what = f"kafka-dump-log.sh on mixed_dump({args.records:,}, seed={SEED})"
    kafka_s = recorded.figure("dump_log_wall_s", f"mixed_dump_{args.records}_seed{SEED}")
    if args.no_process:
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        segment = Path(tmp) / "__consumer_offsets-0" / "00000000000000000000.log"
        segment.parent.mkdir()
        segment.write_bytes(data)
        ours_s = audit_process_s(segment, args.runs)
    print(f"groupctl dump audit, whole process: {ours_s:.2f} s (median of {args.runs})")
    if kafka_s is None:
        print(recorded.missing(what))
        return 0
    peer = (f"{recorded.kafka} {what} ({recorded.provenance}, median of 5; not the same job: it decodes and prints"
            " every record, Kafka has no audit)")
    print(measured.compare(peer, kafka_s, ours_s, "s", digits=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
