"""`groupctl dump audit`: findings, summaries, --fail-on and exit 4."""

from __future__ import annotations

import json

from groupctl.log.segment import iter_batches


def test_sample_report(cli, sample):
    r = cli("dump", "audit", str(sample))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["SEVERITY", "RULE", "GROUP", "EXPLANATION"]
    assert any(line.startswith("info") and "aborted-commit" in line and "billing-etl" in line for line in lines)
    assert not any(line.startswith("error") for line in lines)
    assert any(line.split()[:1] == ["GROUP"] and "COMMITS/MIN" in line for line in lines)
    assert lines[-1].startswith("31 records, ")


def test_fail_on(cli, sample):
    assert cli("dump", "audit", str(sample), "--fail-on", "info").code == 4
    assert cli("dump", "audit", str(sample), "--fail-on", "warning").code == 0
    assert cli("dump", "audit", str(sample), "--fail-on", "none").code == 0


def test_json_report(cli, sample):
    r = cli("dump", "audit", str(sample), "-o", "json")
    doc = json.loads(r.out)
    assert doc["kind"] == "AuditReport"
    report = doc["items"][0]
    assert {"findings", "byGroup", "byType", "totals"} <= set(report)
    assert report["totals"]["records"] == 31
    assert any(f["rule"] == "aborted-commit" for f in report["findings"])


def test_damaged_batch_is_an_error_finding(cli, sample):
    segment = sample / "__consumer_offsets-0" / "00000000000000000000.log"
    data = bytearray(segment.read_bytes())
    victim = list(iter_batches(bytes(data)))[2]
    data[victim.position + victim.size - 1] ^= 0x55
    segment.write_bytes(bytes(data))
    r = cli("dump", "audit", str(sample))
    assert r.code == 3  # damaged input: the audit is partial, which outranks the findings' exit 4
    assert any(line.startswith("error") and "invalid-batch" in line for line in r.out.splitlines())
    assert "damaged batch at offset" in r.err


def test_text_and_segment_audit_alike(cli, sample, tmp_path):
    text = tmp_path / "dump.txt"
    text.write_text(cli("dump", "decode", str(sample), "-f", "dump-log").out)
    from_text = json.loads(cli("dump", "audit", str(text), "-o", "json").out)["items"][0]
    from_segment = json.loads(cli("dump", "audit", str(sample), "-o", "json").out)["items"][0]
    assert from_text == from_segment
