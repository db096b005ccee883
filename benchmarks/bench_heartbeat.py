"""Steady-state ConsumerGroupHeartbeat throughput of the in-process coordinator.

A 1,000-member group (uniform assignor, 10 topics x 100 partitions) is joined and driven to Stable;
then every member heartbeats round after round as a KIP-848 client does in steady state (epoch and
member id only, nothing changed). Prints heartbeats per second, the ratio to the 20,000/s target,
and the records written per steady-state heartbeat (target 0). The peer measured in the same run
is a heartbeat that does change something (a member's rack id): the cost of writing one record.

Usage: python3 benchmarks/bench_heartbeat.py [--members 1000] [--rounds 20]
"""

from __future__ import annotations

import argparse
import sys
import time

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatRequestData

TARGET_PER_S = 20_000


def stable_group(members: int, topics: int, partitions: int) -> tuple[Coordinator, list[str]]:
    c = Coordinator(ids=IdGenerator(7))
    names = [f"topic-{i}" for i in range(topics)]
    for name in names:
        c.create_topic(name, partitions)
    ids = [f"member-{i:05d}" for i in range(members)]
    epochs: dict[str, int] = {}
    owned: dict[str, list] = {}
    for mid in ids:
        r = c.heartbeat(ConsumerGroupHeartbeatRequestData(
            group_id="bench", member_id=mid, member_epoch=0, rebalance_timeout_ms=60_000, subscribed_topic_names=names,
            topic_partitions=[]))
        epochs[mid] = r.member_epoch
        owned[mid] = r.assignment.topic_partitions if r.assignment is not None else []
    for _ in range(50):
        if c.describe("bench").state == "Stable":
            break
        for mid in ids:
            r = c.heartbeat(ConsumerGroupHeartbeatRequestData(group_id="bench", member_id=mid,
                                                              member_epoch=epochs[mid], topic_partitions=owned[mid]))
            epochs[mid] = r.member_epoch
            if r.assignment is not None:
                owned[mid] = r.assignment.topic_partitions
    if c.describe("bench").state != "Stable":
        raise SystemExit("the group did not reach Stable")
    return c, ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    c, ids = stable_group(args.members, 10, 100)
    epoch = c.describe("bench").group_epoch
    requests = [ConsumerGroupHeartbeatRequestData(group_id="bench", member_id=mid, member_epoch=epoch) for mid in ids]
    heartbeat = c.heartbeat
    before = c.runtime.records_written
    start = time.perf_counter()
    for _ in range(args.rounds):
        for request in requests:
            heartbeat(request)
    elapsed = time.perf_counter() - start
    count = args.rounds * len(requests)
    steady_records = c.runtime.records_written - before
    per_s = count / elapsed

    changing = [ConsumerGroupHeartbeatRequestData(group_id="bench", member_id=mid, member_epoch=epoch,
                                                  rack_id=f"rack-{i}") for i, mid in enumerate(ids)]
    start = time.perf_counter()
    for request in changing:
        heartbeat(request)
    peer_per_s = len(changing) / (time.perf_counter() - start)

    print(f"stable group: {args.members} members, group epoch {epoch}")
    print(f"steady-state heartbeats: {count:,} in {elapsed:.3f} s = {per_s:,.0f}/s "
          f"(target >= {TARGET_PER_S:,}/s: {'met' if per_s >= TARGET_PER_S else 'MISSED'}; "
          f"ratio {per_s / TARGET_PER_S:.2f}x)")
    print(f"records written per steady-state heartbeat: {steady_records / count:.3f} "
          f"(target 0: {'met' if steady_records == 0 else 'MISSED'})")
    print(f"peer: heartbeats that write one record (rack change): {peer_per_s:,.0f}/s; "
          f"steady/peer ratio {per_s / peer_per_s:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
