"""The suite's own rule for CI: a test skipped because ../shared is absent fails when CI requires it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import wants_shared

TESTS = Path(__file__).resolve().parent
_SKIP = re.compile(r"""(?:pytest\.skip\(|reason=)f?(["'])(.*?)\1""")


def test_every_skip_for_want_of_the_shared_data_is_recognised() -> None:
    reasons = {m.group(2) for p in TESTS.rglob("*.py") for m in _SKIP.finditer(p.read_text(encoding="utf-8"))}
    about_shared = {r for r in reasons if "shared" in r or "vectors" in r or "broker segments" in r}
    assert len(about_shared) >= 3, about_shared
    assert sorted(r for r in about_shared if not wants_shared(r)) == []


def test_other_skips_are_left_alone() -> None:
    assert not wants_shared("no Java runtime: pyspark needs Java 17+")
    assert not wants_shared("the compiled record loop is not built")


def test_hypothesis_runs_without_a_wall_clock_deadline() -> None:
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
