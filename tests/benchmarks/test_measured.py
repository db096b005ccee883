"""benchmarks/measured.py: kafka.json's figures with their provenance, and a missing or broken file said, not
raised."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def measured(bench: Callable[[str], ModuleType]) -> ModuleType:
    return bench("measured")


def test_figures_come_with_the_provenance_the_file_gives(measured: ModuleType, measured_file: Path) -> None:
    recorded = measured.load(measured_file)
    assert recorded.problem is None
    assert recorded.figure("assignor_ms", "range", "10x2x4/HOMOGENEOUS/FULL") == 0.75
    assert recorded.figure("broker_heartbeats_per_s_median") == 7469.0
    assert recorded.kafka == "Kafka 4.0.0"
    assert recorded.release() == "4.0"
    assert recorded.provenance == "recorded live 2026-12-01, 2 cores, 24 GiB, load average 1.2-2.0"


def test_an_absent_key_or_a_non_number_is_no_figure(measured: ModuleType, measured_file: Path) -> None:
    recorded = measured.load(measured_file)
    assert recorded.figure("assignor_ms", "sticky", "10x2x4/HOMOGENEOUS/FULL") is None
    assert recorded.figure("assignor_ms", "range") is None  # a section, not a number
    assert recorded.figure("machine") is None
    assert recorded.figure("broker_heartbeats_per_s_median", "deeper") is None
    assert "no recorded Kafka figure for this input" in recorded.missing("x")


def test_a_missing_file_is_said_and_has_no_figures(measured: ModuleType, tmp_path: Path) -> None:
    recorded = measured.load(tmp_path / "nowhere.json")
    assert recorded.data is None
    assert recorded.figure("broker_heartbeats_per_s_median") is None
    assert recorded.section("assignor_ms") == {}
    line = recorded.missing("kafka-dump-log.sh on this dump")
    assert "nowhere.json not found; give --measured FILE" in line
    assert line.endswith("groupctl's figure only")


def test_the_default_file_is_looked_for_beside_the_repository(measured: ModuleType) -> None:
    assert (measured.ROOT / "benchmarks" / "measured.py").is_file()
    assert measured.DEFAULT_PATH.relative_to(measured.ROOT.parent) == Path("shared/measured/kafka.json")
    recorded = measured.load()
    if measured.DEFAULT_PATH.is_file():
        assert recorded.problem is None and recorded.kafka.startswith("Kafka ")
    else:
        assert recorded.problem == "../shared/measured/kafka.json not found; give --measured FILE"


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "\xff"])
def test_a_broken_file_is_said(measured: ModuleType, tmp_path: Path, text: str) -> None:
    path = tmp_path / "kafka.json"
    path.write_bytes(text.encode("latin-1"))
    recorded = measured.load(path)
    assert recorded.data is None
    assert str(path) in recorded.problem
    assert recorded.figure("broker_heartbeats_per_s_median") is None


def test_compare_gives_the_ratio_groupctl_over_kafka_and_its_direction(measured: ModuleType) -> None:
    line = measured.compare("Kafka X (recorded live)", 12.0, 3.0, "s", digits=2)
    assert line == ("Kafka X (recorded live): 12.00 s; groupctl (this run): 3.00 s; ratio groupctl/Kafka 0.25x "
                    "(groupctl 4.00x faster)")
    assert "(groupctl 2.00x slower)" in measured.compare("K", 1.0, 2.0, "ms")
    rate = measured.compare("K", 100.0, 300.0, "heartbeats/s", digits=0, higher_is_better=True)
    assert "ratio groupctl/Kafka 3.00x (groupctl 3.00x faster)" in rate
    assert "(the same)" in measured.compare("K", 1.0, 1.0, "ms")
