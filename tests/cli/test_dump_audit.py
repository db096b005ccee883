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


def _one_commit(tmp_path):
    """A dump holding one offset commit of one group: nothing for any rule to find."""
    from groupctl.log.synthetic import offset_commit
    from groupctl.log.writer import build_batch

    partition = tmp_path / "__consumer_offsets-0"
    partition.mkdir()
    (partition / "00000000000000000000.log").write_bytes(
        build_batch([offset_commit("solo", "orders", 0, 5, 1_767_225_600_000)]))
    return partition


def test_no_findings_is_a_sentence_and_counts_agree(cli, tmp_path):
    dump = _one_commit(tmp_path)
    for fmt in ("table", "wide"):
        r = cli("dump", "audit", str(dump), "-o", fmt)
        assert r.code == 0, r.err
        lines = r.out.splitlines()
        assert lines[0] == "No findings: none of the audit's rules fired on this dump."
        assert "SEVERITY" not in r.out
        assert lines[-1].startswith("1 record, ") and ", 1 group, " in lines[-1] and lines[-1].endswith(", 0 findings")


def test_csv_keeps_the_summaries_as_their_own_kinds(cli, sample):
    import csv
    import io

    r = cli("dump", "audit", str(sample), "-o", "csv")
    assert r.code == 0, r.err
    rows = list(csv.DictReader(io.StringIO(r.out)))
    doc = json.loads(cli("dump", "audit", str(sample), "-o", "json").out)["items"][0]
    kinds = [row["kind"] for row in rows]
    assert kinds == (["Finding"] * len(doc["findings"]) + ["GroupSummary"] * len(doc["byGroup"])
                     + ["TypeSummary"] * len(doc["byType"]) + ["Totals"])
    groups = [row for row in rows if row["kind"] == "GroupSummary"]
    assert [(g["group"], int(g["records"]), int(g["commits"])) for g in groups] == [
        (g["group"], g["records"], g["commits"]) for g in doc["byGroup"]]
    types = [row for row in rows if row["kind"] == "TypeSummary"]
    assert [t["name"] for t in types] == [t["name"] for t in doc["byType"]]
    (totals,) = [row for row in rows if row["kind"] == "Totals"]
    assert int(totals["records"]) == doc["totals"]["records"] == 31
    assert int(totals["findings"]) == len(doc["findings"])
    finding = rows[0]
    assert (finding["severity"], finding["rule"], finding["group"]) == ("info", "aborted-commit", "billing-etl")
    assert finding["records"] == ""  # each kind fills its own columns


# -- the audit and describe judge an empty group's epochs alike (KAFKA-20442) ------------------------


def _epochs_dump(directory):
    """Two KIP-848 groups whose members all left: `behind` as a broker without the KAFKA-20442 fix leaves
    it (group epoch bumped, assignment epoch not), `ahead` with a target at an epoch the group never reached."""
    from groupctl.log.writer import SegmentWriter, SimpleRecord
    from groupctl.protocol.records import encode_key, encode_value

    def epochs(group: str, group_epoch: int, assignment_epoch: int) -> list[SimpleRecord]:
        return [SimpleRecord(encode_key(3, {"groupId": group}), encode_value(3, 0, {"epoch": group_epoch,
                                                                                    "metadataHash": 0}), 1),
                SimpleRecord(encode_key(6, {"groupId": group}),
                             encode_value(6, 0, {"assignmentEpoch": assignment_epoch, "assignmentTimestamp": 0}), 1)]

    with SegmentWriter(directory / "__consumer_offsets-0") as writer:
        writer.append(epochs("behind", 7, 6) + epochs("ahead", 4, 9) + epochs("equal", 5, 5))
    return directory


def test_audit_and_converged_agree_on_empty_group_epochs(cli, tmp_path):
    dump = _epochs_dump(tmp_path / "dump")
    findings = json.loads(cli("dump", "audit", str(dump), "-o", "json").out)["items"][0]["findings"]
    severity = {f["group"]: f["severity"] for f in findings if f["rule"] == "empty-group-epoch-mismatch"}
    assert severity == {"behind": "info", "ahead": "warning"}
    rows = [line.split() for line in cli("dump", "groups", str(dump), "--state").out.splitlines()[1:]]
    converged = {row[0]: row[-2] for row in rows}
    assert converged == {"behind": "yes", "ahead": "no", "equal": "yes"}
    assert cli("dump", "audit", str(dump), "--fail-on", "warning").code == 4  # the warning is `ahead`'s


def test_kafka_40_group_whose_last_member_left_is_info_and_converged(cli):
    """Kafka 4.0.0 (before KAFKA-20442) left oracle-k848-dyn at group epoch 4, assignment epoch 2."""
    from tests.conftest import KAFKA_40_VECTORS

    partition = KAFKA_40_VECTORS / "__consumer_offsets-36"
    if not partition.is_dir():
        import pytest

        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    r = cli("dump", "audit", str(partition), "-o", "json")
    (f,) = [f for f in json.loads(r.out)["items"][0]["findings"] if f["rule"] == "empty-group-epoch-mismatch"]
    assert (f["severity"], f["group"], f["evidence"]["groupEpoch"], f["evidence"]["assignmentEpoch"]) == (
        "info", "oracle-k848-dyn", 4, 2)
    (item,) = json.loads(cli("dump", "groups", str(partition), "oracle-k848-dyn", "-o", "json").out)["items"]
    assert (item["state"], item["converged"]) == ("Empty", True)


def _undecodable_value(tmp_path):
    """A partition whose one record's value does not decode (a ConsumerGroupMetadata v0 value cut short)."""
    from groupctl.log.writer import SegmentWriter, SimpleRecord
    from groupctl.protocol.records import encode_key

    partition = tmp_path / "__consumer_offsets-0"
    with SegmentWriter(partition) as w:
        w.append([SimpleRecord(encode_key(3, {"groupId": "g"}), b"\x00\x00\x01", 1)])
    return partition


def test_a_value_that_does_not_decode_exits_3_in_every_dump_command(cli, tmp_path):
    """One input, one exit code: damaged input is 3 in decode, groups and audit alike."""
    dump = str(_undecodable_value(tmp_path))
    codes = {name: cli("dump", name, dump).code for name in ("decode", "groups", "audit")}
    assert codes == {"decode": 3, "groups": 3, "audit": 3}


def test_damaged_input_outranks_findings_in_audit(cli, tmp_path):
    """3 wins over --fail-on's 4 (the audit saw only part of the dump); the finding is still reported."""
    dump = str(_undecodable_value(tmp_path))
    for fail_on in ("error", "info", "none"):
        r = cli("dump", "audit", dump, "--fail-on", fail_on)
        assert r.code == 3, (fail_on, r.err)
        assert "undecodable-record" in r.out
        assert "1 record whose key or value could not be decoded" in r.err


def test_share_group_state_inputs_are_read_not_audited(cli, tmp_path):
    import uuid

    from groupctl.log.writer import SegmentWriter, SimpleRecord
    from groupctl.protocol import share_state

    key = share_state.encode_key(1, {"groupId": "g", "topicId": uuid.UUID(int=7), "partition": 0})
    value = share_state.encode_value(1, 0, {"snapshotEpoch": 0, "leaderEpoch": 0, "startOffset": 3, "stateBatches": []})
    w = SegmentWriter(tmp_path / "__share_group_state-4")
    w.append([SimpleRecord(key, value, 5)])
    w.close()
    r = cli("dump", "audit", str(tmp_path), "-o", "json")
    assert r.code == 0, r.err
    assert "1 __share_group_state file read but not audited" in r.err
