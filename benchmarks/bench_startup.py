"""Median whole-process wall time of `groupctl --help` and of `groupctl group list --local DIR` on a
DIR holding 100 groups, against a bare interpreter start in the same run.

Targets: `--help` under 0.3 s (heavy modules load lazily, so this stays flat as commands are added);
`group list` under 0.5 s (opening DIR replays the coordinator's whole log).
Peer: `kafka-consumer-groups.sh --help`, measured live (Kafka 4.0.0, median of 5) and read from
../shared/measured/kafka.json (--measured FILE elsewhere), labelled "recorded live"; `--kafka-seconds S` adds one
measured beside this run. (Its --list and --describe were timed against a live broker: `group list --local` is
not that work, so it is compared with none.)
Usage: python3 benchmarks/bench_startup.py [--runs 15] [--groups 100] [--kafka-seconds S] [--measured FILE]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import measured

TARGET_S = 0.3
LIST_TARGET_S = 0.5


def median_seconds(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def local_dir_with_groups(directory: Path, groups: int) -> None:
    """A local coordinator DIR with `groups` groups: half KIP-848 (3 members each), half classic with offsets."""
    from groupctl.backends.local import LocalBackend
    from groupctl.coordinator.offsets import CommitPartition
    from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatRequestData

    with LocalBackend(directory, create=True) as backend:
        c = backend.coordinator
        c.create_topic("orders", 12)
        for g in range(groups):
            group = f"group-{g:03d}"
            if g % 2:
                for m in range(3):
                    c.heartbeat(ConsumerGroupHeartbeatRequestData(
                        group_id=group, member_id=f"{group}-m{m}", member_epoch=0, rebalance_timeout_ms=30_000,
                        subscribed_topic_names=["orders"], topic_partitions=[]))
            else:
                c.commit_offsets(group, "", -1, [CommitPartition("orders", p, 100 + p) for p in range(12)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--groups", type=int, default=100)
    parser.add_argument("--kafka-seconds", type=float, default=None,
                        help="kafka-consumer-groups.sh --help's wall time, measured beside this run")
    measured.add_argument(parser)
    args = parser.parse_args()
    recorded = measured.load(args.measured)
    python = [sys.executable, "-c", "pass"]
    groupctl = [sys.executable, "-m", "groupctl", "--help"]
    median_seconds(groupctl, 2)  # warm the file cache and bytecode
    base = median_seconds(python, args.runs)
    ours = median_seconds(groupctl, args.runs)
    print(f"python -c pass      median {base * 1000:7.1f} ms")
    print(f"groupctl --help     median {ours * 1000:7.1f} ms  (target < {TARGET_S * 1000:.0f} ms: "
          f"{'met' if ours < TARGET_S else 'MISSED'})")
    print(f"ratio groupctl/python start-up: {ours / base:.2f}x")
    what = "kafka-consumer-groups.sh --help"
    kafka_s = recorded.figure("consumer_groups_tool_wall_s", "help")
    if kafka_s is not None:
        print(measured.compare(f"{recorded.kafka} {what} ({recorded.provenance}, median of 5)", kafka_s, ours, "s",
                               digits=2))
    else:
        print(recorded.missing(what))
    if args.kafka_seconds is not None:
        print(measured.compare(f"{what}, measured live beside this run (--kafka-seconds)", args.kafka_seconds, ours,
                               "s", digits=2))
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "local"
        local_dir_with_groups(directory, args.groups)
        listing = [sys.executable, "-m", "groupctl", "group", "list", "--local", str(directory)]
        median_seconds(listing, 2)
        listed = median_seconds(listing, args.runs)
    print(f"group list --local  median {listed * 1000:7.1f} ms  ({args.groups} groups; target < "
          f"{LIST_TARGET_S * 1000:.0f} ms: {'met' if listed < LIST_TARGET_S else 'MISSED'}; "
          f"ratio to python start-up {listed / base:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
