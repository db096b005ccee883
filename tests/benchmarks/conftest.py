"""Benchmark scripts under test: imported from benchmarks/ (as they import each other: by bare module name), or run
as the processes they are, with a kafka.json of the test's own."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent.parent / "benchmarks"
RUN_TIMEOUT_S = 300

#: A kafka.json as ../shared/measured/ holds it, with figures for the small inputs the tests run.
MEASURED = {
    "kafka_version": "4.0.0",
    "measured": "2026-12-01",
    "machine": "2 cores, 24 GiB",
    "load_average": "1.2-2.0",
    "dump_log_wall_s": {"mixed_dump_2000_seed1": 4.0},
    "consumer_groups_tool_wall_s": {"help": 1.77},
    "broker_heartbeats_per_s_median": 7469,
    "assignor_ms": {
        "uniform": {"10x2x4/HOMOGENEOUS/FULL": 0.25, "10x2x4/OVERLAPPING/INCREMENTAL": 0.5},
        "range": {"10x2x4/HOMOGENEOUS/FULL": 0.75, "10x2x4/OVERLAPPING/INCREMENTAL": 1.5},
    },
}


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ModuleType]:
    """`bench("bench_serve")`: the script's module, with benchmarks/ on sys.path for its sibling imports."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))

    def load(name: str) -> ModuleType:
        return importlib.import_module(name)

    return load


@pytest.fixture
def measured_file(tmp_path: Path) -> Path:
    path = tmp_path / "kafka.json"
    path.write_text(json.dumps(MEASURED), encoding="utf-8")
    return path


@pytest.fixture
def run_bench() -> Callable[..., subprocess.CompletedProcess[str]]:
    """`run_bench("bench_assignor.py", *args)`: the script as a process of its own (bounded), its output."""

    def run(script: str, *args: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(BENCHMARKS / script), *map(str, args)], capture_output=True,
                              text=True, timeout=RUN_TIMEOUT_S, cwd=BENCHMARKS.parent)

    return run
