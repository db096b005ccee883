"""A torn last batch (a write cut short) is reported on stderr by every format and command, exit 3.

Kafka's kafka-dump-log notes it on stdout ("Found N invalid bytes at the end of ..."), and the
dump-log format keeps that line; the other formats used to drop the bytes silently with exit 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groupctl.log.segment import iter_batches


@pytest.fixture
def torn(sample: Path) -> tuple[Path, int, int]:
    """The sample dump with its last batch cut in half: (dump, bytes cut off the batch, where it starts)."""
    segment = sample / "__consumer_offsets-0" / "00000000000000000000.log"
    data = segment.read_bytes()
    last = list(iter_batches(data))[-1]
    keep = last.size // 2
    segment.write_bytes(data[: last.position + keep])
    return sample, keep, last.position


def _torn_line(err: str, kept: int, position: int) -> str:
    lines = [line for line in err.splitlines() if "torn last batch" in line]
    assert len(lines) == 1, err
    assert f"at byte {position}: torn last batch: the last {kept} bytes do not make a whole batch" in lines[0]
    return lines[0]


@pytest.mark.parametrize("fmt", ["table", "jsonl", "dump-log"])
def test_every_format_reports_a_torn_tail(cli, torn, fmt: str) -> None:
    dump, kept, position = torn
    r = cli("dump", "decode", "--format", fmt, str(dump))
    assert r.code == 3, r.err
    assert "00000000000000000000.log" in _torn_line(r.err, kept, position)
    if fmt == "dump-log":  # stdout stays what kafka-dump-log prints
        assert r.out.endswith(f"Found {kept} invalid bytes at the end of 00000000000000000000.log\n")
    else:
        assert "invalid bytes" not in r.out


def test_the_records_before_the_tear_are_all_there(cli, sample, torn) -> None:
    dump, _, _ = torn
    lines = cli("dump", "decode", "--format", "jsonl", str(dump)).out.splitlines()
    assert lines and all(json.loads(line)["position"] < torn[2] for line in lines)


def test_groups_reports_a_torn_tail(cli, torn) -> None:
    dump, kept, position = torn
    r = cli("dump", "groups", str(dump))
    assert r.code == 3 and r.out
    _torn_line(r.err, kept, position)


def test_audit_makes_a_torn_tail_a_finding(cli, torn) -> None:
    dump, kept, position = torn
    r = cli("dump", "audit", str(dump), "-o", "json")
    assert r.code == 3
    _torn_line(r.err, kept, position)
    findings = r.json()["items"][0]["findings"]
    torn_findings = [f for f in findings if "torn last batch" in f["evidence"].get("reason", "")]
    assert len(torn_findings) == 1
    assert torn_findings[0]["rule"] == "invalid-batch" and torn_findings[0]["severity"] == "error"
    assert torn_findings[0]["evidence"]["position"] == position


def test_kafka_dump_log_text_of_a_torn_segment_reports_it(cli, torn, tmp_path) -> None:
    dump, kept, _ = torn
    text = tmp_path / "dump.txt"
    text.write_text(cli("dump", "decode", "--format", "dump-log", str(dump)).out)
    r = cli("dump", "decode", "--format", "jsonl", str(text))
    assert r.code == 3
    assert f"torn last batch: kafka-dump-log found {kept} bytes at the end of 00000000000000000000.log" in r.err


def test_strict_stops_at_a_torn_tail(cli, torn) -> None:
    r = cli("dump", "decode", "--strict", str(torn[0]))
    assert r.code == 3 and "torn last batch" in r.err
