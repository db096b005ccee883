"""benchmarks/bench_audit.py says what it compares, and compares `dump audit` as a process with kafka-dump-log.sh's
recorded time on the same dump, named as a different job."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_it_names_both_paths_and_labels_the_recorded_peer(run_bench: Callable[..., Any], measured_file: Path) -> None:
    done = run_bench("bench_audit.py", "--records", "2000", "--runs", "1", "--measured", measured_file)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "audit time / decode time on the same bytes: " in out
    assert "not a cost over decoding: the audit does not decode what decode does" in out
    assert "groupctl dump audit, whole process: " in out
    assert ("Kafka 4.0.0 kafka-dump-log.sh on mixed_dump(2,000, seed=1) (recorded live 2026-12-01, 2 cores, 24 GiB, "
            "load average 1.2-2.0, median of 5; not the same job: it decodes and prints every record, Kafka has no "
            "audit): 4.00 s; groupctl (this run): ") in out


def test_without_kafka_json_it_times_groupctl_only(run_bench: Callable[..., Any], tmp_path: Path) -> None:
    done = run_bench("bench_audit.py", "--records", "2000", "--runs", "1", "--measured", tmp_path / "absent.json")
    assert done.returncode == 0, done.stderr
    assert "kafka-dump-log.sh on mixed_dump(2,000, seed=1): no recorded Kafka figure (" in done.stdout
    assert "ratio groupctl/Kafka" not in done.stdout
