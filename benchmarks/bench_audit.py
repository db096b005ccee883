"""Audit throughput on the 1,000,000-record benchmark dump, beside plain decoding of the same bytes.

Plain decode: framing, CRC, decompression, every key and value (the `dump decode` path).
Audit: the same decoding, plus replay into group state and every audit rule (the `dump audit` path).
Targets: the audit costs at most 1.5x plain decoding, and runs at >= 1,000,000 records/s on one core.
Usage: python3 benchmarks/bench_audit.py [--records N]
"""

from __future__ import annotations

import argparse
import sys

from bench_decode import best_rate, groupctl_decode

TARGET = 1.5
RATE_TARGET = 1_000_000


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from groupctl.log.synthetic import mixed_dump

    data = mixed_dump(args.records)
    decode_rate, n = best_rate(groupctl_decode, data, args.runs)
    audit_rate, n_audit = best_rate(groupctl_audit, data, args.runs)
    if n != n_audit:
        raise SystemExit(f"record counts differ: decode {n}, audit {n_audit}")
    ratio = decode_rate / audit_rate
    from groupctl.log.fast import describe

    print(describe())
    print(f"records                      {n:>12,}")
    print(f"plain decode                 {decode_rate:>12,.0f} records/s")
    print(f"audit (decode+replay+rules)  {audit_rate:>12,.0f} records/s")
    print(f"audit cost / decode cost: {ratio:.2f}x (target <= {TARGET}x: {'met' if ratio <= TARGET else 'MISSED'})")
    print(f"audit on one core: {audit_rate:,.0f} records/s (target >= {RATE_TARGET:,} records/s: "
          f"{'met' if audit_rate >= RATE_TARGET else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
