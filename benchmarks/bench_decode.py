"""Full decode rate of a 1,000,000-record `__consumer_offsets` dump, against kafka-python in the same run.

groupctl: framing, CRC check, decompression, every key and value decoded (the `dump decode` path).
kafka-python: framing only (MemoryRecords batches and records, no key/value decoding) of the same bytes.
Target: groupctl >= 3x kafka-python. Which record loop ran (compiled, or pure Python with
GROUPCTL_PURE_PYTHON=1 or without the extension) is printed.
Usage: python3 benchmarks/bench_decode.py [--records N] [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET = 3.0


def groupctl_decode(data: bytes) -> int:
    from groupctl.log.decode import decoded_batches
    from groupctl.log.segment import iter_batches

    count = 0
    errors = 0
    for _batch, records in decoded_batches(iter_batches(data)):
        for rec in records:
            if rec.error is not None:
                errors += 1
        count += len(records)
    if errors:
        raise SystemExit(f"{errors} records failed to decode: the benchmark input is broken")
    return count


def kafka_python_framing(data: bytes, check_crc: bool = False) -> int:
    """kafka-python's MemoryRecords iteration over batches and records; with `check_crc`, each
    batch's CRC is validated too (groupctl always checks it)."""
    from kafka.record.memory_records import MemoryRecords

    count = 0
    records = MemoryRecords(data)
    while (batch := records.next_batch()) is not None:
        if check_crc:
            batch.validate_crc()
        for _ in batch:
            count += 1
    return count


def best_rate(fn, data: bytes, runs: int) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(runs):
        start = time.perf_counter()
        count = fn(data)
        best = min(best, time.perf_counter() - start)
    return count / best, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from groupctl.log.synthetic import mixed_dump

    start = time.perf_counter()
    data = mixed_dump(args.records)
    print(f"built a {len(data) / 1e6:.1f} MB dump in {time.perf_counter() - start:.1f} s")

    ours, n_ours = best_rate(groupctl_decode, data, args.runs)
    peer, n_peer = best_rate(kafka_python_framing, data, args.runs)
    peer_crc, _ = best_rate(lambda d: kafka_python_framing(d, check_crc=True), data, args.runs)
    if n_ours != n_peer:
        raise SystemExit(f"record counts differ: groupctl {n_ours}, kafka-python {n_peer}")
    from groupctl.log.fast import describe

    print(describe())
    print(f"records                               {n_ours:>12,}")
    print(f"groupctl full decode (keys+values)    {ours:>12,.0f} records/s")
    print(f"kafka-python framing only             {peer:>12,.0f} records/s")
    print(f"kafka-python framing + CRC check      {peer_crc:>12,.0f} records/s  (for context)")
    print(f"ratio groupctl/kafka-python: {ours / peer:.2f}x (target >= {TARGET:g}x: "
          f"{'met' if ours >= TARGET * peer else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
