"""`groupctl dump groups`: groups rebuilt from a dump, shown like a live describe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.mixed_groups import ORACLE_CLASSIC, ORACLE_CONSUMER, write_dump

KAFKA_40_LIVE = Path(__file__).resolve().parents[2].parent / "shared" / "kafka-4.0-broker-vectors" / "live"


def _json(cli, *args) -> list[dict]:
    r = cli("dump", "groups", *args, "-o", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["kind"] == "GroupDescription"
    return doc["items"]


def test_state_view(cli, sample):
    r = cli("dump", "groups", str(sample), "--state")
    assert r.code == 0, r.err
    rows = [line.split() for line in r.out.splitlines()]
    assert rows[0] == ["GROUP", "COORDINATOR", "(ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH",
                       "ASSIGNMENT-EPOCH", "#MEMBERS", "CONVERGED", "MIGRATION"]
    by_group = {row[0]: row for row in rows[1:]}
    assert set(by_group) == {"billing-etl", "orders-app", "payments-app"}  # old-job was deleted
    assert by_group["orders-app"][2:] == ["range", "Stable", "1", "-", "3", "yes", "-"]
    assert by_group["payments-app"][2:] == ["uniform", "Stable", "4", "4", "3", "yes", "-"]
    assert by_group["billing-etl"][3] == "Empty"


def test_offsets_view_applies_transactions(cli, sample):
    items = {i["groupId"]: i for i in _json(cli, str(sample))}
    billing = items["billing-etl"]["offsets"]
    assert [(o["topic"], o["partition"], o["offset"]) for o in billing] == [("invoices", 0, 500)]  # 450 was aborted
    orders = items["orders-app"]["offsets"]
    assert [o["offset"] for o in orders] == [180, 181, 182]
    r = cli("dump", "groups", str(sample), "orders-app")
    lines = r.out.splitlines()
    assert lines[0].split()[:6] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG"]
    first = lines[1].split()
    assert first[:6] == ["orders-app", "orders", "0", "180", "-", "-"]
    assert first[6].startswith("consumer-orders-0-")  # the member holding orders-0


def test_members_view_and_static_ids(cli, sample):
    r = cli("dump", "groups", str(sample), "orders-app", "--members")
    assert r.code == 0, r.err
    rows = [line.split() for line in r.out.splitlines()[1:]]
    assert sorted(row[2] for row in rows) == ["orders-0", "orders-1", "orders-2"]
    assert {row[5] for row in rows} == {"classic"}
    items = _json(cli, str(sample), "payments-app")
    members = items[0]["members"]
    assert {m["protocol"] for m in members} == {"consumer"}
    assert all(m["memberEpoch"] == 4 and m["subscribedRegex"] == "payments.*" for m in members)


def test_topic_ids_map(cli, sample, tmp_path):
    items = _json(cli, str(sample), "payments-app")
    topic_id = items[0]["members"][0]["assignment"][0]["topic"]
    assert len(topic_id) == 22
    mapping = tmp_path / "topics.txt"
    mapping.write_text(f"Topic: payments\tTopicId: {topic_id}\tPartitionCount: 6\n")
    named = _json(cli, str(sample), "payments-app", "--topic-ids", str(mapping))
    assert {tp["topic"] for m in named[0]["members"] for tp in m["assignment"]} == {"payments"}
    r = cli("dump", "groups", str(sample), "payments-app", "--members", "--verbose", "--topic-ids", str(mapping))
    assert "payments:0,3" in r.out


def test_unknown_groups(cli, sample):
    r = cli("dump", "groups", str(sample), "nope")
    assert r.code == 1 and "group 'nope' does not exist in the dump" in r.err
    r = cli("dump", "groups", str(sample), "orders-app", "nope", "--state")
    assert r.code == 3 and "orders-app" in r.out


def test_one_view_only_and_paths_first(cli, sample):
    assert cli("dump", "groups", str(sample), "--members", "--state").code == 2
    r = cli("dump", "groups", "no-such-dump", str(sample))
    assert r.code == 2 and "give the dump first" in r.err


def test_text_dump_gives_the_same_groups(cli, sample, tmp_path):
    text = tmp_path / "dump.txt"
    text.write_text(cli("dump", "decode", str(sample), "-f", "dump-log").out)
    for view in ("--state", "--members", "--offsets"):
        assert cli("dump", "groups", str(text), view, "-o", "wide").out == \
            cli("dump", "groups", str(sample), view, "-o", "wide").out


def test_real_segments(cli, vectors_dir: Path):
    base = vectors_dir / "real-broker-segments" / "RaviAzzuraPutra__LATIHAN-MICROSERVICE-NEW" / "kafka" / "data"
    items = {i["groupId"]: i for i in _json(cli, str(base))}
    assert "stock-service-group" in items
    group = items["stock-service-group"]
    assert group["type"] == "classic" and group["protocolType"] == "consumer"
    assert group["offsets"] and all(o["topic"] == "order_created" for o in group["offsets"])


# -- groups in online migration ------------------------------------------------------------------------


def test_a_classic_member_inside_a_consumer_group_shows_classic(cli, tmp_path):
    dump = write_dump(tmp_path / "dump", ["oracle-mixed", "legacy-app"])
    r = cli("dump", "groups", str(dump), "oracle-mixed", "--members")
    assert r.code == 0, r.err
    rows = [line.split() for line in r.out.splitlines()]
    assert rows[0][5] == "PROTOCOL"
    assert {row[1]: row[5] for row in rows[1:]} == {ORACLE_CLASSIC: "classic", ORACLE_CONSUMER: "consumer"}
    state = [line.split() for line in cli("dump", "groups", str(dump), "--state").out.splitlines()[1:]]
    assert {row[0]: " ".join(row[8:]) for row in state} == {
        "legacy-app": "downgrading (3 classic)", "oracle-mixed": "upgrading (1 classic, 1 consumer)"}
    (item,) = _json(cli, str(dump), "legacy-app")
    assert (item["mixed"], item["migration"], item["classicMembers"], item["consumerMembers"]) == (
        True, "downgrading", 3, 0)
    assert {m["protocol"] for m in item["members"]} == {"classic"}


def _kafka_upgraded(group: str) -> dict[str, str]:
    """CONSUMER-ID -> UPGRADED in Kafka 4.0's `--describe --members --verbose` of a real mixed group."""
    path = KAFKA_40_LIVE / "describe-all-members-verbose.txt"
    if not path.is_file():
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{group} "))
    header = lines[start - 1].split()
    assert header[-1] == "UPGRADED"
    rows = [line.split() for line in lines[start:] if line.startswith(f"{group} ")]
    return {row[header.index("CONSUMER-ID")]: row[-1] for row in rows}


def test_upgraded_is_what_kafka_40_printed_for_its_own_mixed_group(cli, tmp_path):
    """Kafka's oracle-mixed rebuilt from records with the same members: UPGRADED matches, cell for cell."""
    dump = write_dump(tmp_path / "dump", ["oracle-mixed"])
    r = cli("dump", "groups", str(dump), "oracle-mixed", "--members", "--verbose")
    assert r.code == 0, r.err
    rows = [line.split() for line in r.out.splitlines()]
    assert rows[0][-1] == "UPGRADED"
    assert {row[1]: row[-1] for row in rows[1:]} == _kafka_upgraded("oracle-mixed") == {
        ORACLE_CLASSIC: "false", ORACLE_CONSUMER: "true"}


def _kafka_committed() -> dict[tuple[str, str, int], str]:
    """(group, topic, partition) -> CURRENT-OFFSET in Kafka 4.0's `--describe --all-groups --offsets`."""
    path = KAFKA_40_LIVE / "describe-all-offsets.txt"
    if not path.is_file():
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = line.split()
        if len(row) >= 9 and row[0] != "GROUP" and row[2].isdigit():
            out[row[0], row[1], int(row[2])] = row[3]
    return out


def test_committed_offsets_are_what_kafka_40_described_for_the_same_groups(cli):
    """Every group the 4.0 broker's partitions hold has the committed offsets Kafka's own tool showed
    while it was live (the vectors' groups emptied afterwards; their commits stayed)."""
    kafka = _kafka_committed()
    compared = 0
    for directory in sorted(KAFKA_40_LIVE.parent.glob("__consumer_offsets-*")):
        for item in _json(cli, str(directory)):
            for o in item["offsets"]:
                key = (item["groupId"], o["topic"], o["partition"])
                if key in kafka:
                    assert kafka[key] == str(o["offset"]), key
                    compared += 1
            shown = {k for k in kafka if k[0] == item["groupId"] and kafka[k] != "-"}
            assert shown <= {(item["groupId"], o["topic"], o["partition"]) for o in item["offsets"]}
    assert compared >= 10
