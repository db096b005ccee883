"""The parsing of `group offsets reset`'s modes, as Kafka's tool reads them, and the plan's rules
over a local backend (the CLI tests run every mode on both backends)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import GroupctlError, UsageError
from groupctl.model import TopicPartition
from groupctl.offsets_reset import (
    RESET,
    WOULD_RESET,
    ResetMode,
    TopicSelector,
    execute_reset,
    parse_datetime,
    parse_duration_ms,
    parse_selector,
    plan_reset,
)

MS_2020 = int(datetime(2020, 11, 10, 16, 51, 38, 198_000, tzinfo=UTC).timestamp() * 1000)


@pytest.mark.parametrize("text, expected", [
    ("2020-11-10T16:51:38.198", MS_2020),  # no zone: UTC, as Kafka appends Z
    ("2020-11-10T16:51:38.198Z", MS_2020),
    ("2020-11-10T17:51:38.198+01:00", MS_2020),
    ("2020-11-10T17:51:38.198+0100", MS_2020),
    ("2020-11-10T08:51:38.198-08", MS_2020),
    ("2020-11-10T16:51:38", MS_2020 - 198),
])
def test_datetimes_as_kafkas_tool_reads_them(text, expected):
    assert parse_datetime(text) == expected


@pytest.mark.parametrize("text", ["2020-11-10", "yesterday", "2020-13-10T00:00:00.000", "2020-11-10T25:00"])
def test_a_datetime_kafka_would_refuse_is_a_usage_error(text):
    with pytest.raises(UsageError, match=r"YYYY-MM-DDTHH:mm:SS\.sss"):
        parse_datetime(text)


@pytest.mark.parametrize("text, ms", [
    ("PT30M", 30 * 60_000), ("P1DT12H", 36 * 3_600_000), ("PT0.5S", 500), ("pt1h30m", 5_400_000), ("P2D", 172_800_000),
    ("PT-1H90M", 1_800_000),
])
def test_iso_8601_durations(text, ms):
    assert parse_duration_ms(text) == ms


@pytest.mark.parametrize("text", ["30m", "P", "PT", "P1H", "-PT1H", "PT1H30"])
def test_a_bad_or_negative_duration_is_a_usage_error(text):
    with pytest.raises(UsageError, match="--by-duration"):
        parse_duration_ms(text)


def test_topic_selectors():
    assert parse_selector("orders") == TopicSelector("orders")
    assert parse_selector("orders:2,0,2") == TopicSelector("orders", (2, 0))
    for bad in (":0", "orders:", "orders:a", "orders:-1"):
        with pytest.raises(UsageError):
            parse_selector(bad)


@pytest.fixture
def backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A local DIR whose partitions t-0 and t-1 span offsets 0-100 (as if their records had been produced)."""
    with LocalBackend(tmp_path / "dir", create=True) as b:
        b.coordinator.create_topic("t", 2)
        b.end_offsets_by_topic["t"] = [100, 100]
        b.coordinator.commit_offsets("g", "", -1, [CommitPartition("t", 0, 40)])
        monkeypatch.setattr(b, "start_offsets", lambda partitions: {tp: 0 for tp in partitions})
        yield b


def test_without_records_a_local_partition_starts_at_its_end(tmp_path):
    with LocalBackend(tmp_path / "dir", create=True) as b:
        b.coordinator.create_topic("t", 1)
        b.end_offsets_by_topic["t"] = [100]
        (plan,) = plan_reset(b, ["g"], ResetMode("offset", 7), [TopicSelector("t")])
        assert [(r.new_offset, r.log_start, r.note) for r in plan.rows] == [
            (100, 100, "clamped up to the log start 100 (asked 7)")]
        assert any("so the log starts at its end, as `groupctl serve` answers" in n for n in b.notices)


def test_to_current_keeps_the_committed_offset_and_takes_the_log_end_elsewhere(backend):
    (plan,) = plan_reset(backend, ["g"], ResetMode("current"), [TopicSelector("t")])
    assert [(r.new_offset, r.note) for r in plan.rows] == [(40, None), (100, None)]


def test_shift_without_a_committed_offset_fails_that_partition_only(backend):
    (plan,) = plan_reset(backend, ["g"], ResetMode("shift", 5), [TopicSelector("t")])
    assert [(r.new_offset, r.outcome) for r in plan.rows] == [(45, WOULD_RESET), (None, "NO_CURRENT_OFFSET")]
    execute_reset(backend, [plan])
    assert [r.outcome for r in plan.rows] == [RESET, "NO_CURRENT_OFFSET"]
    assert {(o.partition, o.offset) for o in backend.committed_offsets("g")} == {(0, 45)}


def test_the_plan_is_what_gets_committed_in_one_request(backend, monkeypatch):
    (plan,) = plan_reset(backend, ["g"], ResetMode("offset", 7), [TopicSelector("t")])
    calls = []
    real = backend.alter_offsets
    monkeypatch.setattr(backend, "alter_offsets",
                        lambda g, offsets: calls.append((g, dict(offsets))) or real(g, offsets))
    execute_reset(backend, [plan])
    assert calls == [("g", {TopicPartition("t", 0): 7, TopicPartition("t", 1): 7})]


def test_copying_from_a_group_without_offsets_fails_before_anything(backend):
    with pytest.raises(GroupctlError, match="group 'nobody' has no committed offsets"):
        plan_reset(backend, ["g"], ResetMode("group", "nobody"), [TopicSelector("t")])


def test_all_topics_of_a_group_without_offsets_is_refused(backend):
    (plan,) = plan_reset(backend, ["new"], ResetMode("earliest"), [], all_topics=True)
    assert plan.rows == [] and "--all-topics selects nothing" in plan.refusal


def test_a_group_level_failure_marks_every_row(backend, monkeypatch):
    (plan,) = plan_reset(backend, ["g"], ResetMode("latest"), [TopicSelector("t")])

    def fail(group, offsets):
        raise GroupctlError("COORDINATOR_NOT_AVAILABLE: try again")

    monkeypatch.setattr(backend, "alter_offsets", fail)
    execute_reset(backend, [plan])
    assert [r.outcome for r in plan.rows] == ["FAILED", "FAILED"]
    assert all("COORDINATOR_NOT_AVAILABLE" in r.note for r in plan.rows)
