"""benchmarks/bench_startup.py compares `groupctl --help` with kafka-consumer-groups.sh --help as kafka.json
records it (labelled recorded live), and with a live figure when one is given."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_help_is_compared_with_the_recorded_and_the_live_figure(run_bench: Callable[..., Any],
                                                                 measured_file: Path) -> None:
    done = run_bench("bench_startup.py", "--runs", "1", "--groups", "2", "--measured", measured_file,
                     "--kafka-seconds", "2.0")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert ("Kafka 4.0.0 kafka-consumer-groups.sh --help (recorded live 2026-12-01, 2 cores, 24 GiB, load average "
            "1.2-2.0, median of 5): 1.77 s; groupctl (this run): ") in out
    assert "kafka-consumer-groups.sh --help, measured live beside this run (--kafka-seconds): 2.00 s" in out
    assert out.count("ratio groupctl/Kafka") == 2
