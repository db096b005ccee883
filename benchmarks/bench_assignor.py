"""The server-side assignors on Kafka's JMH grid (ServerSideAssignorBenchmark), against Kafka's own assignors
measured live on the same inputs, and kafka-python's client-side assignors timed in the same run.

Grid: members {100, 1000, 10000} x partitions per member {5, 10, 50} x topics {10, 100, 1000}, with
partitionsPerTopic = members * ratio // topics (points where that is 0 are skipped); a point is named
MEMBERSxRATIOxTOPICS/SUBSCRIPTION/KIND (1000x10x100: 1,000 members, 10 partitions per member, 100 topics of 100
partitions). Assignors uniform and range; HOMOGENEOUS (every member subscribes to every topic) and HETEROGENEOUS
(members and topics cut into 5 disjoint buckets, as AssignorBenchmarkUtils.createHeterogeneousBucketedMembers
does); with --overlapping also OVERLAPPING (the same buckets, each also subscribing to the next bucket's topics,
so that no bucket is a group apart). FULL: nobody holds anything; INCREMENTAL: members - 1 assigned first, then
"newMember" joins with the last member's subscription and everyone else's previous result as its current
assignment. Each figure is the median of the runs that fit in --budget seconds (at most 200, at least 3; one for a
point slower than 3 s), after one warm-up run.

Kafka: its UniformAssignor and RangeAssignor (4.0.0's group coordinator jar, a warmed JVM, median of 200 after
2,000 warm-up runs) timed live on these very points (this script's inputs as of 1b27a07), read from
../shared/measured/kafka.json (--measured FILE elsewhere) and printed as "recorded live" with the date and machine
the file gives; `--kafka-ms [ASSIGNOR:]POINT=MS` adds a figure measured live beside this run (ASSIGNOR uniform
when left out), printed as such. No JVM runs here, and no Kafka figure is derived from anything: a point without
one is compared with none. `--kafka-points` runs only the points that have a Kafka figure, both assignors. Targets
(uniform, issue 20): at most 2x Kafka's time on HOMOGENEOUS 1000x10x100 and 10000x5x1000 FULL and INCREMENTAL,
HETEROGENEOUS and OVERLAPPING 1000x10x100 FULL; 1,000 members x 10 partitions each over 100 topics < 100 ms FULL and
< 20 ms INCREMENTAL; 10,000 members x 5 partitions each < 2 s (for all three topic counts). With the compiled
uniform builders (assignors/_uniformc.c) running, each uniform point with a Kafka figure is also timed on the
pure-Python builders in the same run; the first line of the output says which builder runs.

Peers in the same run, on the same inputs: kafka-python's RangePartitionAssignor for range and
StickyPartitionAssignor for uniform (the client-side sticky assignor; INCREMENTAL hands it the same previous
assignment as user data). Both are much slower than ours, the sticky one enormously so: points over
--range-budget subscriptions or --sticky-budget members x partitions are skipped and marked as such.
Usage: python3 benchmarks/bench_assignor.py [--quick | --kafka-points] [--overlapping] [--members N ...]
       [--ratio N ...] [--topics N ...] [--kafka-ms [ASSIGNOR:]POINT=MS ...] [--measured FILE] [--no-peer]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import measured as kafka_measured

from groupctl.coordinator.assignors import ASSIGNORS, Assignment, MemberSpec, compiled

MEMBERS = (100, 1000, 10000)
RATIOS = (5, 10, 50)
TOPICS = (10, 100, 1000)
QUICK = {"members": (100, 1000), "ratio": (10,), "topics": (100,)}
SUBSCRIPTIONS = ("HOMOGENEOUS", "HETEROGENEOUS")
OVERLAPPING = "OVERLAPPING"  # not in Kafka's grid: with --overlapping
KINDS = ("FULL", "INCREMENTAL")
BUCKETS = 5  # Kafka's MAX_BUCKET_COUNT
MAX_RUNS = 200  # as many as Kafka's harness takes its median of
SLOW_S = 3.0  # a first run slower than this is the only one

# (members, ratio, topics, kind) -> limit in ms, for the uniform assignor.
TARGETS_MS = {
    (1000, 10, 100, "FULL"): 100.0,
    (1000, 10, 100, "INCREMENTAL"): 20.0,
    **{(10000, 5, topics, kind): 2000.0 for topics in TOPICS for kind in KINDS},
}
# Issue 20: the uniform assignor at most KAFKA_TARGET x Kafka's UniformAssignor time on these points (OVERLAPPING is
# the second reading of its "overlapping subscriptions, 1,000 members").
KAFKA_TARGET = 2.0
KAFKA_TARGET_POINTS = frozenset({
    (1000, 10, 100, "HOMOGENEOUS", "FULL"),
    (1000, 10, 100, "HOMOGENEOUS", "INCREMENTAL"),
    (10000, 5, 1000, "HOMOGENEOUS", "FULL"),
    (10000, 5, 1000, "HOMOGENEOUS", "INCREMENTAL"),
    (1000, 10, 100, "HETEROGENEOUS", "FULL"),
    (1000, 10, 100, OVERLAPPING, "FULL"),
})

Key = tuple[int, int, int, str, str]
"""A point: (members, ratio, topics, subscription, kind)."""


class Point(NamedTuple):
    members: int
    ratio: int
    topics: int

    @property
    def per_topic(self) -> int:
        return self.members * self.ratio // self.topics


class Case(NamedTuple):
    """One assignment to time: our input, and the topic names the peer sees."""

    members: dict[str, MemberSpec]
    topics: dict[uuid.UUID, int]
    names: dict[uuid.UUID, str]


def topic_ids(count: int) -> list[uuid.UUID]:
    rng = random.Random(count)
    return [uuid.UUID(int=rng.getrandbits(128)) for _ in range(count)]


def subscriptions(members: int, ids: list[uuid.UUID], subscription: str) -> list[frozenset[uuid.UUID]]:
    """Member i's subscription, as Kafka's benchmark builds it; OVERLAPPING: its buckets, each also subscribing
    to the next bucket's topics, so that no bucket is a group apart (groupctl's heterogeneous builder runs)."""
    if subscription == "HOMOGENEOUS":
        return [frozenset(ids)] * members
    buckets = min(BUCKETS, members)
    topics_per_bucket = math.ceil(len(ids) / buckets)
    members_per_bucket = math.ceil(members / buckets)
    width = 2 if subscription == OVERLAPPING else 1
    sets = [frozenset(ids[b * topics_per_bucket : (b + width) * topics_per_bucket]) for b in range(buckets)]
    return [sets[i // members_per_bucket] for i in range(members)]


def build_case(point: Point, subscription: str, kind: str, assignor_name: str) -> Case:
    ids = topic_ids(point.topics)
    topics = dict.fromkeys(ids, point.per_topic)
    names = {t: f"topic{i}" for i, t in enumerate(ids)}
    if kind == "FULL":
        subs = subscriptions(point.members, ids, subscription)
        members = {f"member{i}": MemberSpec(None, None, s) for i, s in enumerate(subs)}
        return Case(members, topics, names)
    subs = subscriptions(point.members - 1, ids, subscription)
    before = {f"member{i}": MemberSpec(None, None, s) for i, s in enumerate(subs)}
    previous = ASSIGNORS[assignor_name].assign(before, topics)
    members = {m: MemberSpec(None, None, s.subscribed_topic_ids, previous[m]) for m, s in before.items()}
    members["newMember"] = MemberSpec(None, None, subs[-1])
    return Case(members, topics, names)


class Timing(NamedTuple):
    median_ms: float
    runs: int
    result: Any


def timed(run: Callable[[], Any], budget_s: float) -> Timing:
    """The median wall time of the runs that fit in `budget_s` (3 to MAX_RUNS) after one warm-up run, which
    also says how long a run takes; a point slower than SLOW_S gets that one run only."""
    start = time.perf_counter()
    result = run()
    first = time.perf_counter() - start
    if first >= SLOW_S:
        return Timing(first * 1e3, 1, result)
    runs = max(3, min(MAX_RUNS, int(budget_s / max(first, 1e-6))))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return Timing(statistics.median(times) * 1e3, runs, result)


def check(case: Case, result: Mapping[str, Assignment]) -> None:
    """Cheap sanity: every member answered, and as many partitions handed out as the subscribed topics hold."""
    subscribed = set().union(*(s.subscribed_topic_ids for s in case.members.values()))
    expected = sum(case.topics[t] for t in subscribed)
    got = sum(len(parts) for assignment in result.values() for parts in assignment.values())
    if set(result) != set(case.members) or got != expected:
        raise SystemExit(f"broken assignment: {got} partitions for {expected}, {len(result)} members")


# --- kafka-python ----------------------------------------------------------------------------------------------


class PeerMember(NamedTuple):
    """What kafka-python's assignors read of a JoinGroup member."""

    member_id: str
    group_instance_id: str | None
    metadata: Any


class PeerCluster:
    """The two ClusterMetadata calls kafka-python's assignors make."""

    def __init__(self, partitions: dict[str, set[int]]) -> None:
        self._partitions = partitions
        self._topics = set(partitions)

    def topics(self) -> set[str]:
        return self._topics

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        return self._partitions.get(topic)


def peer_input(case: Case, sticky_history: bool) -> tuple[PeerCluster, list[PeerMember]]:
    from kafka.coordinator.assignors.sticky.user_data import StickyAssignorUserData
    from kafka.protocol.consumer.metadata import ConsumerProtocolSubscription

    cluster = PeerCluster({case.names[t]: set(range(n)) for t, n in case.topics.items()})
    topic_lists: dict[frozenset[uuid.UUID], list[str]] = {}
    members = []
    for member_id, spec in case.members.items():
        topics = topic_lists.get(spec.subscribed_topic_ids)
        if topics is None:
            topics = topic_lists[spec.subscribed_topic_ids] = sorted(case.names[t] for t in spec.subscribed_topic_ids)
        user_data: Any = b""
        if sticky_history and spec.assigned:
            previous = [(case.names[t], sorted(parts)) for t, parts in spec.assigned.items()]
            user_data = StickyAssignorUserData(previous_assignment=previous, generation=1)
        metadata = ConsumerProtocolSubscription(version=0, topics=topics, user_data=user_data)
        members.append(PeerMember(member_id, spec.instance_id, metadata))
    return cluster, members


def peer_run(assignor_name: str, case: Case) -> Callable[[], Any]:
    if assignor_name == "range":
        from kafka.coordinator.assignors.range import RangePartitionAssignor

        cluster, members = peer_input(case, sticky_history=False)
        return lambda: RangePartitionAssignor.assign(cluster, members)
    from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

    cluster, members = peer_input(case, sticky_history=True)
    return lambda: StickyPartitionAssignor().assign(cluster, members)


def same_as_peer_range(case: Case, ours: Mapping[str, Assignment], theirs: Mapping[str, Any]) -> bool:
    """Our range result against kafka-python's (the same rule for dynamic members with ASCII ids)."""
    for member_id, assignment in ours.items():
        mine = {case.names[t]: sorted(parts) for t, parts in assignment.items()}
        peer = {topic: sorted(parts) for topic, parts in theirs[member_id].assigned_partitions if parts}
        if mine != peer:
            return False
    return True


def peer_cost(assignor_name: str, case: Case) -> int:
    """What the peer's time grows with: subscriptions for range, members x partitions for sticky."""
    if assignor_name == "range":
        return sum(len(s.subscribed_topic_ids) for s in case.members.values())
    return len(case.members) * sum(case.topics.values())


# --- main ------------------------------------------------------------------------------------------------------


def point_key(text: str) -> Key:
    """`1000x10x100/HOMOGENEOUS/FULL` -> (1000, 10, 100, "HOMOGENEOUS", "FULL")."""
    try:
        sizes, subscription, kind = text.split("/")
        members, ratio, topics = (int(n) for n in sizes.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"point {text!r}: expected MEMBERSxRATIOxTOPICS/SUBSCRIPTION/KIND") from None
    subscription, kind = subscription.upper(), kind.upper()
    if subscription not in (*SUBSCRIPTIONS, OVERLAPPING) or kind not in KINDS:
        raise argparse.ArgumentTypeError(
            f"point {text!r}: subscription is one of {(*SUBSCRIPTIONS, OVERLAPPING)}, kind one of {KINDS}"
        )
    if min(members, ratio, topics) < 1:
        raise argparse.ArgumentTypeError(f"point {text!r}: members, ratio and topics are positive")
    return members, ratio, topics, subscription, kind


def kafka_ms(text: str) -> tuple[str, Key, float]:
    """`--kafka-ms [ASSIGNOR:]POINT=MS`: a live Kafka time for one point (uniform unless ASSIGNOR says)."""
    name, colon, rest = text.partition(":")
    assignor, point_ms = (name.lower(), rest) if colon else ("uniform", text)
    if assignor not in ASSIGNORS:
        raise argparse.ArgumentTypeError(f"{text!r}: ASSIGNOR is one of {', '.join(ASSIGNORS)}")
    point, sep, ms = point_ms.partition("=")
    try:
        value = float(ms)
    except ValueError:
        value = -1.0
    if not sep or not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text!r}: expected [ASSIGNOR:]POINT=MS with MS a positive number of ms")
    return assignor, point_key(point), value


def point_name(key: Key) -> str:
    members, ratio, topics, subscription, kind = key
    return f"{members}x{ratio}x{topics}/{subscription}/{kind}"


def recorded_ms(recorded: kafka_measured.Recorded) -> tuple[dict[tuple[str, Key], float], list[str]]:
    """kafka.json's assignor figures by (assignor, point), and the entries it holds that are not points of this
    benchmark (named, so that nothing is silently dropped)."""
    figures: dict[tuple[str, Key], float] = {}
    unknown = []
    for assignor, points in recorded.section("assignor_ms").items():
        if assignor not in ASSIGNORS or not isinstance(points, Mapping):
            unknown.append(str(assignor))
            continue
        for text in points:
            ms = recorded.figure("assignor_ms", assignor, text)
            try:
                key = point_key(text)
            except argparse.ArgumentTypeError:
                key = None
            if key is None or ms is None:
                unknown.append(f"{assignor}:{text}")
                continue
            figures[(assignor, key)] = ms
    return figures, unknown


def figure_order(figure: tuple[str, Key]) -> tuple:
    """By point (sizes, then subscription and kind in the grid's order), the assignors of a point together."""
    assignor, (members, ratio, topics, subscription, kind) = figure
    return (members, ratio, topics, (*SUBSCRIPTIONS, OVERLAPPING).index(subscription), KINDS.index(kind),
            list(ASSIGNORS).index(assignor))


def print_against_kafka(
    measured: Mapping[tuple[str, Key], float],
    pure: Mapping[Key, float],
    recorded: kafka_measured.Recorded,
    recorded_figures: Mapping[tuple[str, Key], float],
    live: Mapping[tuple[str, Key], float],
) -> None:
    """groupctl / Kafka for every point with a Kafka figure, recorded live or given live; the issue 20 target
    where it applies; with the compiled builders, the pure-Python ones' figure from the same run too."""
    print(f"\nagainst Kafka's assignors: ratio = groupctl / Kafka (ms per assignment, medians); issue 20 target for"
          f" uniform on its points: <= {KAFKA_TARGET:g}x")
    if recorded.data is None:
        print(f"  {recorded.missing('recorded figures')}")
    else:
        print(f"  recorded live: {recorded.kafka} UniformAssignor / RangeAssignor, {recorded.provenance} "
              "(median of 200 after 2,000 warm-up runs in a warmed JVM)")
    if not recorded_figures and not live:
        return
    for assignor, key in sorted({*recorded_figures, *live}, key=figure_order):
        ours = measured.get((assignor, key))
        label = f"{assignor:<8} {point_name(key):<38}"
        if ours is None:
            print(f"  {label} not measured in this run (outside the selected grid or assignors)")
            continue
        figures = []
        if (assignor, key) in recorded_figures:
            figures.append(("recorded live", recorded_figures[(assignor, key)]))
        if (assignor, key) in live:
            figures.append(("live, --kafka-ms", live[(assignor, key)]))
        for source, kafka in figures:
            ratio = ours / kafka
            target = ""
            if assignor == "uniform" and key in KAFKA_TARGET_POINTS:
                target = f"  target {'PASS' if ratio <= KAFKA_TARGET else 'MISS'}"
            print(f"  {label} groupctl {ours:>8.3f} ms  Kafka {kafka:>7.3f} ms ({source})  ratio {ratio:>5.2f}x"
                  f"{target}")
            if assignor == "uniform" and key in pure:
                print(f"  {'':<47} pure Python {pure[key]:>5.3f} ms  ratio {pure[key] / kafka:>5.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="100 and 1000 members, ratio 10, 100 topics")
    parser.add_argument("--kafka-points", action="store_true", help="only the points with a Kafka figure")
    parser.add_argument(
        "--overlapping", action="store_true", help="also OVERLAPPING subscriptions (buckets sharing topics)"
    )
    parser.add_argument(
        "--kafka-ms", type=kafka_ms, action="append", default=[], metavar="[ASSIGNOR:]POINT=MS",
        help="a Kafka 4.x time for POINT measured live beside this run (e.g. range:1000x10x100/HOMOGENEOUS/FULL=0.7;"
             " uniform when ASSIGNOR is left out)",
    )
    kafka_measured.add_argument(parser)
    parser.add_argument("--members", type=int, nargs="+", help=f"only these member counts (grid: {MEMBERS})")
    parser.add_argument("--ratio", type=int, nargs="+", help=f"only these partitions per member (grid: {RATIOS})")
    parser.add_argument("--topics", type=int, nargs="+", help=f"only these topic counts (grid: {TOPICS})")
    parser.add_argument("--assignor", choices=list(ASSIGNORS), nargs="+", default=list(ASSIGNORS))
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of timed runs per point and assignor")
    parser.add_argument("--no-peer", action="store_true", help="skip kafka-python")
    parser.add_argument("--range-budget", type=int, default=1_000_000, help="max subscriptions for its range peer")
    parser.add_argument("--sticky-budget", type=int, default=500_000, help="max members x partitions for sticky")
    args = parser.parse_args()

    recorded = kafka_measured.load(args.measured)
    recorded_figures, unknown = recorded_ms(recorded)
    live = {(assignor, key): ms for assignor, key, ms in args.kafka_ms}
    members = args.members or (QUICK["members"] if args.quick else MEMBERS)
    ratios = args.ratio or (QUICK["ratio"] if args.quick else RATIOS)
    topic_counts = args.topics or (QUICK["topics"] if args.quick else TOPICS)
    points = [Point(m, r, t) for m in members for r in ratios for t in topic_counts]
    selected: set[Key] | None = None
    if args.kafka_points:
        selected = {key for _, key in (*recorded_figures, *live)}
        points = sorted({Point(*key[:3]) for key in selected})
        if not points:
            print("--kafka-points: no point has a Kafka figure (none recorded, none given with --kafka-ms)")
            return 0
    skipped = [p for p in points if p.per_topic < 1]
    points = [p for p in points if p.per_topic >= 1]
    if skipped:
        print(
            "skipped (under one partition per topic): "
            + ", ".join(f"{p.members}x{p.ratio}/{p.topics}" for p in skipped)
        )
    with_overlapping = args.overlapping or (selected is not None and any(k[3] == OVERLAPPING for k in selected))
    subscription_kinds = (*SUBSCRIPTIONS, OVERLAPPING) if with_overlapping else SUBSCRIPTIONS
    kafka_keys = {key for _, key in (*recorded_figures, *live)}

    header = (
        f"{'members':>7} {'ratio':>5} {'topics':>6} {'P/topic':>7}  {'subscription':<13} {'kind':<11} "
        f"{'assignor':<8} {'ours ms':>9} {'runs':>4}  {'peer':<6} {'peer ms':>9} {'ours/peer':>10}"
    )
    print(compiled.describe())
    print(f"ms: median of the runs that fit in {args.budget:g} s (3 to {MAX_RUNS}; one when slower than"
          f" {SLOW_S:g} s), after one warm-up run")
    if unknown:
        print(f"{recorded.path.name} entries that are not points of this benchmark (left out): {', '.join(unknown)}")
    print(header)
    print("-" * len(header))
    measured: dict[tuple[str, Key], float] = {}
    pure_measured: dict[Key, float] = {}  # the pure-Python builders, when the compiled ones run
    peer_skips = 0
    range_mismatch = []
    started = time.perf_counter()
    for point in points:
        for subscription in subscription_kinds:
            for kind in KINDS:
                key: Key = (*point, subscription, kind)
                if selected is not None and key not in selected:
                    continue
                for name in args.assignor:
                    case = build_case(point, subscription, kind, name)
                    ours = timed(lambda case=case, name=name: ASSIGNORS[name].assign(case.members, case.topics),
                                 args.budget)
                    check(case, ours.result)
                    measured[(name, key)] = ours.median_ms
                    if name == "uniform" and key in kafka_keys and compiled.module() is not None:
                        with compiled.forced(True):
                            pure_measured[key] = timed(
                                lambda case=case: ASSIGNORS["uniform"].assign(case.members, case.topics), args.budget
                            ).median_ms
                    peer_name = "range" if name == "range" else "sticky"
                    budget = args.range_budget if name == "range" else args.sticky_budget
                    if args.no_peer:
                        peer_text = f"{'-':>9} {'':>10}"
                    elif peer_cost(name, case) > budget:
                        peer_text = f"{'skipped':>9} {'':>10}"
                        peer_skips += 1
                    else:
                        peer = timed(peer_run(name, case), args.budget)
                        peer_text = f"{peer.median_ms:>9.1f} {ours.median_ms / peer.median_ms:>10.4f}"
                        if name == "range" and not same_as_peer_range(case, ours.result, peer.result):
                            range_mismatch.append((point, subscription, kind))
                    print(
                        f"{point.members:>7} {point.ratio:>5} {point.topics:>6} {point.per_topic:>7}  "
                        f"{subscription:<13} {kind:<11} {name:<8} {ours.median_ms:>9.3f} {ours.runs:>4}  "
                        f"{peer_name:<6} {peer_text}",
                        flush=True,
                    )
    print(f"\ngrid done in {time.perf_counter() - started:.0f} s")
    if peer_skips:
        print(
            f"{peer_skips} peer runs skipped as too slow (kafka-python's sticky assignor needs ~16 s for 1,000 members"
            " x 10 partitions homogeneous and ~130 s heterogeneous); raise --range-budget / --sticky-budget to run them"
        )
    if "range" in args.assignor and not args.no_peer:
        print(
            "range results identical to kafka-python's RangePartitionAssignor on every point it ran: "
            + ("yes" if not range_mismatch else f"NO, differs at {range_mismatch}")
        )

    print("\ntargets (uniform): ratio = ours / target, PASS below 1")
    missing = set()
    for (m, r, t, kind), limit in TARGETS_MS.items():
        for subscription in SUBSCRIPTIONS:
            ours_ms = measured.get(("uniform", (m, r, t, subscription, kind)))
            if ours_ms is None:
                missing.add(f"{m:,} members x {r}/{t} topics {subscription} {kind}")
                continue
            ratio = ours_ms / limit
            print(
                f"  {m:>6,} members x {r:>2} each, {t:>4} topics, {subscription:<13} {kind:<11} < {limit:>6,.0f} ms: "
                f"{ours_ms:>8.2f} ms  ratio {ratio:.4f}  {'PASS' if ratio < 1 else 'MISS'}"
            )
    if missing:
        print("  not measured (outside the selected grid): " + "; ".join(sorted(missing)))
    print_against_kafka(measured, pure_measured, recorded, recorded_figures, live)
    return 0


if __name__ == "__main__":
    sys.exit(main())
