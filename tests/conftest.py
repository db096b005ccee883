"""Shared fixtures: where the real broker-written vectors live (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .audit_dumps import write_every_finding

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "kafka-consumer-offsets-vectors"


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """The shared vectors folder; tests that need it are skipped when it is absent."""
    if not VECTORS.is_dir():
        pytest.skip(f"real vectors not present at ../shared/kafka-consumer-offsets-vectors ({VECTORS})")
    return VECTORS


@pytest.fixture(scope="session")
def real_segments(vectors_dir: Path) -> list[Path]:
    """Every broker-written .log segment in the shared vectors."""
    segs = sorted((vectors_dir / "real-broker-segments").rglob("*.log"))
    if not segs:
        pytest.skip("no real broker segments found")
    return segs


@pytest.fixture(scope="session")
def every_finding(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A dump raising every audit finding kind over partition directories: [log dir, dump-log text file]."""
    return write_every_finding(tmp_path_factory.mktemp("every-finding"))
