"""Fail unless `../shared` holds every data set the tests read, each with its files.

The tests read real broker segments, Kafka's own tool output and wire transcripts from `../shared`
in place and skip where they are absent, so a checkout without them still runs. CI always has them:
there an absent or incomplete set must fail the run, not turn into skipped tests (`.ci/run` calls
this, then sets GROUPCTL_REQUIRE_SHARED so that tests/conftest.py fails any test that still skips
for want of them).
"""

from __future__ import annotations

import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"

#: Each data set and the glob patterns that must each match at least `count` files in it.
REQUIRED: dict[str, list[tuple[str, int]]] = {
    "kafka-consumer-offsets-vectors": [("README.md", 1), ("real-broker-segments/**/*.log", 10)],
    "kafka-4.0-broker-vectors": [("README.md", 1), ("__consumer_offsets-*/00000000000000000000.log", 6),
                                 ("__consumer_offsets-*/00000000000000000000.log.offsets-decoder.txt", 6),
                                 ("live/*", 1)],
    "kafka-4.1-broker-vectors": [("README.md", 1), ("__consumer_offsets-*/00000000000000000000.log", 3),
                                 ("__consumer_offsets-*/*.log.offsets-decoder.txt", 3),
                                 ("__consumer_offsets-*/*.log.kafka-4.0.0-offsets-decoder.txt", 3),
                                 ("live/*.txt", 5)],
    "kafka-4.1-wire": [("README.md", 1), ("*.jsonl", 5), ("*.tool-output.txt", 5)],
    "measured": [("README.md", 1), ("kafka.json", 1)],
}


def missing(shared: Path = SHARED) -> list[str]:
    """What is absent or short, one line each; empty when everything is there."""
    if not shared.is_dir():
        return [f"{shared}: not found (it is the shared/ folder beside the checkout)"]
    problems = []
    for name, patterns in REQUIRED.items():
        folder = shared / name
        if not folder.is_dir():
            problems.append(f"{folder}: not found")
            continue
        for pattern, count in patterns:
            found = sum(1 for p in folder.glob(pattern) if p.is_file() and p.stat().st_size > 0)
            if found < count:
                problems.append(f"{folder}: {found} non-empty file(s) match {pattern!r}, at least {count} expected")
    return problems


def main() -> int:
    problems = missing()
    for line in problems:
        print(f"check_shared: {line}", file=sys.stderr)
    if not problems:
        print(f"../shared: {len(REQUIRED)} data sets present")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
