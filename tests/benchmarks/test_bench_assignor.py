"""benchmarks/bench_assignor.py: Kafka's figures are the recorded-live ones (both assignors, labelled) or given
live, none derived; the points are built as kafka.json's measurements describe them."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def assignor_bench(bench: Callable[[str], ModuleType]) -> ModuleType:
    return bench("bench_assignor")


def test_points_and_live_figures_parse(assignor_bench: ModuleType) -> None:
    assert assignor_bench.point_key("1000x10x100/homogeneous/full") == (1000, 10, 100, "HOMOGENEOUS", "FULL")
    assert assignor_bench.kafka_ms("range:10x2x4/OVERLAPPING/INCREMENTAL=1.5") == (
        "range", (10, 2, 4, "OVERLAPPING", "INCREMENTAL"), 1.5)
    assert assignor_bench.kafka_ms("10x2x4/HETEROGENEOUS/FULL=0.3")[0] == "uniform"
    for bad in ("sticky:10x2x4/HOMOGENEOUS/FULL=1", "10x2x4/HOMOGENEOUS/FULL=0", "10x2x4/HOMOGENEOUS/FULL",
                "10x2/HOMOGENEOUS/FULL=1", "10x2x4/MIXED/FULL=1", "10x2x4/HOMOGENEOUS/FULL=nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            assignor_bench.kafka_ms(bad)


def test_kafka_json_points_are_read_for_both_assignors(assignor_bench: ModuleType, bench: Callable[[str], ModuleType],
                                                        measured_file: Path) -> None:
    figures, unknown = assignor_bench.recorded_ms(bench("measured").load(measured_file))
    assert figures == {
        ("uniform", (10, 2, 4, "HOMOGENEOUS", "FULL")): 0.25,
        ("uniform", (10, 2, 4, "OVERLAPPING", "INCREMENTAL")): 0.5,
        ("range", (10, 2, 4, "HOMOGENEOUS", "FULL")): 0.75,
        ("range", (10, 2, 4, "OVERLAPPING", "INCREMENTAL")): 1.5,
    }
    assert unknown == []


def test_a_point_is_members_by_partitions_per_member_by_topics(assignor_bench: ModuleType) -> None:
    """1000x10x100 as kafka.json names it: 1,000 members, 100 topics of 100 partitions (10 per member)."""
    case = assignor_bench.build_case(assignor_bench.Point(1000, 10, 100), "HOMOGENEOUS", "FULL", "uniform")
    assert len(case.members) == 1000
    assert len(case.topics) == 100 and set(case.topics.values()) == {100}
    assert all(len(m.subscribed_topic_ids) == 100 for m in case.members.values())


def test_incremental_is_one_member_added_to_the_previous_assignment(assignor_bench: ModuleType) -> None:
    case = assignor_bench.build_case(assignor_bench.Point(10, 2, 4), "HOMOGENEOUS", "INCREMENTAL", "range")
    assert len(case.members) == 10
    assert not case.members["newMember"].assigned
    held = sum(len(p) for m, spec in case.members.items() if m != "newMember" for p in spec.assigned.values())
    assert held == sum(case.topics.values())


def test_overlapping_buckets_also_subscribe_to_the_next_buckets_topics(assignor_bench: ModuleType) -> None:
    ids = assignor_bench.topic_ids(10)
    subs = assignor_bench.subscriptions(10, ids, "OVERLAPPING")
    hetero = assignor_bench.subscriptions(10, ids, "HETEROGENEOUS")
    assert hetero[0] == frozenset(ids[0:2]) and hetero[2] == frozenset(ids[2:4])
    assert subs[0] == frozenset(ids[0:4]) and subs[8] == frozenset(ids[8:10])


def test_kafka_points_compares_both_assignors_with_the_recorded_and_the_live_figures(
    run_bench: Callable[..., object], measured_file: Path
) -> None:
    done = run_bench("bench_assignor.py", "--kafka-points", "--no-peer", "--budget", "0.01", "--measured",
                     measured_file, "--kafka-ms", "range:10x2x4/HOMOGENEOUS/FULL=0.5")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "recorded live: Kafka 4.0.0 UniformAssignor / RangeAssignor, recorded live 2026-12-01, 2 cores" in out
    seen = set(re.findall(r"^  (\w+) +(\S+) +groupctl +[\d.]+ ms  Kafka +([\d.]+) ms \(([^)]*)\)  ratio", out, re.M))
    assert seen == {
        ("uniform", "10x2x4/HOMOGENEOUS/FULL", "0.250", "recorded live"),
        ("uniform", "10x2x4/OVERLAPPING/INCREMENTAL", "0.500", "recorded live"),
        ("range", "10x2x4/HOMOGENEOUS/FULL", "0.750", "recorded live"),
        ("range", "10x2x4/HOMOGENEOUS/FULL", "0.500", "live, --kafka-ms"),
        ("range", "10x2x4/OVERLAPPING/INCREMENTAL", "1.500", "recorded live"),
    }
    assert out.count("(live, --kafka-ms)") == 1
    assert out.count("(recorded live)") == 4
    assert "derived" not in out and "stand-in" not in out


def test_without_kafka_json_it_says_so_and_runs(run_bench: Callable[..., object], tmp_path: Path) -> None:
    done = run_bench("bench_assignor.py", "--members", "10", "--ratio", "2", "--topics", "4", "--no-peer",
                     "--budget", "0.01", "--measured", tmp_path / "absent.json")
    assert done.returncode == 0, done.stderr
    assert "absent.json not found; give --measured FILE" in done.stdout
    assert "(recorded live)" not in done.stdout
    assert "10x2x4" not in done.stdout.split("against Kafka's assignors")[1]
