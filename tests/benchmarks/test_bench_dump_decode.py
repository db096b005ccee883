"""benchmarks/bench_dump_decode.py: kafka-dump-log.sh's time on the same dump is kafka.json's, labelled recorded
live; a live one given beside it is printed as such; a dump with no recorded figure says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_the_recorded_and_the_live_kafka_times_are_both_compared(run_bench: Callable[..., Any],
                                                                  measured_file: Path) -> None:
    done = run_bench("bench_dump_decode.py", "--records", "2000", "--runs", "1", "--measured", measured_file,
                     "--kafka-seconds", "2.5")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "dump-log as Kafka 4.0 prints it" in out
    assert ("Kafka 4.0.0 kafka-dump-log.sh on mixed_dump(2,000, seed=1) (recorded live 2026-12-01, 2 cores, 24 GiB, "
            "load average 1.2-2.0, median of 5): 4.00 s; groupctl (this run): ") in out
    assert ("kafka-dump-log.sh on mixed_dump(2,000, seed=1), measured live beside this run (--kafka-seconds): "
            "2.50 s") in out
    assert out.count("ratio groupctl/Kafka") == 2


def test_a_dump_without_a_recorded_figure_is_compared_with_none(run_bench: Callable[..., Any],
                                                                 measured_file: Path) -> None:
    done = run_bench("bench_dump_decode.py", "--records", "1000", "--runs", "1", "--measured", measured_file)
    assert done.returncode == 0, done.stderr
    assert ("kafka-dump-log.sh on mixed_dump(1,000, seed=1): kafka.json has no recorded Kafka figure for this input; "
            "groupctl's figure only") in done.stdout
    assert "ratio groupctl/Kafka" not in done.stdout
