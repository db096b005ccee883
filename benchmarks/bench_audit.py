"""Audit throughput on the 1,000,000-record benchmark dump, beside plain decoding of the same bytes.

Plain decode: framing, CRC, decompression, every key and value (the `dump decode` path).
Audit: the same decoding, plus replay into group state and every audit rule (the `dump audit` path).
Target: the audit costs at most 1.5x plain decoding. Usage: python3 benchmarks/bench_audit.py [--records N]
"""

from __future__ import annotations

import argparse
import sys

from bench_decode import best_rate, groupctl_decode

TARGET = 1.5


def groupctl_audit(data: bytes) -> int:
    from groupctl.log.audit import Auditor
    from groupctl.log.decode import decode_record
    from groupctl.log.segment import iter_batches

    auditor = Auditor()
    observe = auditor.observe
    count = 0
    problems: list = []
    for batch in iter_batches(data, problems=problems):
        for record in batch.records:
            observe(decode_record(batch, record))
            count += 1
    for problem in problems:
        auditor.observe_problem(problem)
    auditor.finish()
    return count


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
    print(f"records                      {n:>12,}")
    print(f"plain decode                 {decode_rate:>12,.0f} records/s")
    print(f"audit (decode+replay+rules)  {audit_rate:>12,.0f} records/s")
    print(f"audit cost / decode cost: {ratio:.2f}x (target <= {TARGET}x: {'met' if ratio <= TARGET else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
