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


def _topics(items: list[dict]) -> set[str]:
    """Every topic an item names: committed offsets, and members' current and target assignments."""
    out = {o["topic"] for i in items for o in i["offsets"]}
    for item in items:
        for m in item["members"]:
            out |= {tp["topic"] for tp in (*m["assignment"], *(m["targetAssignment"] or ()))}
    return out


def test_kip848_topics_are_named_from_the_dump_itself(cli, sample):
    """payments-app's assignment records name the topic by id; its OffsetCommitValue v4 records carry that id
    beside the name: one row per partition, by name, with its offset and its owner."""
    (item,) = _json(cli, str(sample), "payments-app")
    assert _topics([item]) == {"payments"}
    r = cli("dump", "groups", str(sample), "payments-app")
    rows = [line.split() for line in r.out.splitlines()[1:]]
    assert len(rows) == 6 and {row[1] for row in rows} == {"payments"}
    assert all(row[3].startswith("700") and row[6].startswith("m") for row in rows)  # offset and owner together


def _segment(directory: Path, *records) -> Path:
    from groupctl.log.writer import SegmentWriter

    with SegmentWriter(directory) as writer:
        writer.append(list(records))
    return directory


def _unnamed_group(directory: Path, topic_id) -> Path:
    """A KIP-848 group whose topic the dump names nowhere: no partition metadata, no v4 offset commit."""
    from groupctl.log.synthetic import BASE_TS, consumer_group_records

    return _segment(directory, *consumer_group_records("cg", 3, [("m1", None, [0, 1])], "orders", topic_id, BASE_TS))


def test_topic_ids_map_names_only_what_the_dump_does_not(cli, tmp_path):
    import uuid

    from groupctl.protocol.primitives import uuid_to_kafka

    unnamed = uuid.UUID(int=12345)
    dump = _unnamed_group(tmp_path / "unnamed" / "__consumer_offsets-3", unnamed)
    (item,) = _json(cli, str(dump))
    assert _topics([item]) == {uuid_to_kafka(unnamed)}  # shown as the id: nothing names it
    mapping = tmp_path / "topics.txt"
    mapping.write_text(f"Topic: orders\tTopicId: {uuid_to_kafka(unnamed)}\tPartitionCount: 6\n")
    (named,) = _json(cli, str(dump), "--topic-ids", str(mapping))
    assert _topics([named]) == {"orders"}
    r = cli("dump", "groups", str(dump), "--members", "--verbose", "--topic-ids", str(mapping))
    assert "orders:0,1" in r.out
    # An id the dump names (here by an OffsetCommitValue v4) keeps the dump's name, whatever the file says.
    from groupctl.log.synthetic import BASE_TS, offset_commit

    named_dump = _unnamed_group(tmp_path / "named" / "__consumer_offsets-3", unnamed)
    _segment(named_dump, offset_commit("cg", "orders-v2", 0, 42, BASE_TS, version=4, topic_id=unnamed))
    (item,) = _json(cli, str(named_dump), "--topic-ids", str(mapping))
    assert _topics([item]) == {"orders-v2"}


def test_kafka_40_kip848_groups_are_listed_by_name_once(cli):
    """Kafka 4.0.0's own KIP-848 groups: ConsumerGroupPartitionMetadata records name their topics (for
    oracle-k848-dyn only an earlier one does: the last lists none once its members left)."""
    dirs = [KAFKA_40_LIVE.parent / f"__consumer_offsets-{n}" for n in (36, 45)]
    if not all(d.is_dir() for d in dirs):
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    items = {i["groupId"]: i for i in _json(cli, *map(str, dirs))}
    assert _topics([items["oracle-k848-static"]]) == {"oc-k848s"}
    assert _topics([items["oracle-k848-dyn"]]) == {"oc-k848"}
    r = cli("dump", "groups", *map(str, dirs))
    rows = [tuple(line.split()[:3]) for line in r.out.splitlines()[1:]]
    assert len(rows) == len(set(rows))  # each partition once
    assert ("oracle-k848-static", "oc-k848s", "0") in rows
    assert all(len(row[1]) != 22 for row in rows)


def test_coordinator_is_the_partition_read_and_the_hashed_one_is_in_wide(cli, tmp_path):
    """COORDINATOR names where the records came from; HASHED-PARTITION (-o wide) and the JSON keep where
    the id hashes to, and a note says when they differ."""
    import uuid

    from groupctl.log.partitioning import partition_for

    hashed = partition_for("cg", 50)
    other = (hashed + 1) % 50
    logs = tmp_path / "logs"
    _unnamed_group(logs / f"__consumer_offsets-{hashed}", uuid.UUID(int=1))
    r = cli("dump", "groups", str(logs), "--state")
    assert r.code == 0, r.err
    assert r.out.splitlines()[1].split()[:3] == ["cg", f"__consumer_offsets-{hashed}", "uniform"]
    assert r.err == ""
    moved = tmp_path / "moved"
    _unnamed_group(moved / f"__consumer_offsets-{other}", uuid.UUID(int=1))
    r = cli("dump", "groups", str(moved), "--state", "-o", "wide")
    header, row = (line.split() for line in r.out.splitlines())
    assert header[:5] == ["GROUP", "COORDINATOR", "(ID)", "HASHED-PARTITION", "ASSIGNMENT-STRATEGY"]
    assert row[:3] == ["cg", f"__consumer_offsets-{other}", f"__consumer_offsets-{hashed}"]
    assert r.err.startswith("groupctl: note: 1 group was read from another partition")
    assert f"'cg' from {other}, hashes to {hashed}" in r.err
    (item,) = _json(cli, str(moved))
    assert (item["coordinator"], item["hashedCoordinator"]) == (
        f"__consumer_offsets-{other}", f"__consumer_offsets-{hashed}")
    assert "HASHED-PARTITION" not in cli("dump", "groups", str(moved), "--state").out  # wide only


def test_coordinator_unknown_when_the_path_names_no_partition(cli, tmp_path):
    import uuid

    loose = _unnamed_group(tmp_path / "copied", uuid.UUID(int=1))
    (item,) = _json(cli, str(loose))
    assert item["coordinator"] is None and item["hashedCoordinator"].startswith("__consumer_offsets-")
    r = cli("dump", "groups", str(loose), "--state")
    assert r.out.splitlines()[1].split()[:2] == ["cg", "-"] and r.err == ""


def test_a_text_dump_names_its_partition_in_its_dumping_line(cli):
    text = KAFKA_40_LIVE.parent / "__consumer_offsets-36" / "00000000000000000000.log.offsets-decoder.txt"
    if not text.is_file():
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    items = _json(cli, str(text))
    assert {i["coordinator"] for i in items} == {i["hashedCoordinator"] for i in items} == {"__consumer_offsets-36"}


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


def test_real_brokers_wrote_every_group_where_its_id_hashes(cli, real_segments: list[Path]):
    """Real brokers' partition directories (Kafka 1.0 to 3.9, 50 partitions): each group read from
    one is the one its id hashes to, so COORDINATOR and HASHED-PARTITION agree and no note is printed."""
    r = cli("dump", "groups", *map(str, real_segments), "-o", "json")
    assert r.code == 0, r.err
    items = json.loads(r.out)["items"]
    assert len(items) >= 20
    assert all(i["coordinator"] == i["hashedCoordinator"] is not None for i in items)
    assert "note:" not in cli("dump", "groups", *map(str, real_segments), "--state").err


def test_a_share_group_in_every_view_and_format(cli, tmp_path):
    """A share group (types 10-15) goes through each view of `dump groups` in table and JSON."""
    from groupctl.log.writer import SegmentWriter
    from tests.log.test_share_groups import join

    w = SegmentWriter(tmp_path / "__consumer_offsets-18")  # where "sg" hashes to with 50 partitions
    w.append(join(group="sg"))
    w.close()
    (item,) = _json(cli, str(w.path))
    assert (item["type"], item["state"], item["assignor"], item["groupEpoch"]) == ("share", "Stable", "simple", 1)
    assert item["members"][0]["protocol"] == "share" and item["offsets"] == []
    assert [(o["topic"], o["partition"], o["startOffset"]) for o in item["shareOffsets"]] == [
        ("orders", 0, None), ("orders", 1, None)]
    for view in ("--members", "--state", "--offsets"):
        for fmt in ("table", "wide", "yaml", "csv"):
            r = cli("dump", "groups", str(w.path), view, "-o", fmt)
            assert r.code == 0 and r.err == "", (view, fmt, r.err)
    members = cli("dump", "groups", str(w.path), "--members").out.splitlines()
    assert members[0].split() == ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"]
    assert members[1].split() == ["sg", "m1", "/10.0.0.1", "c1", "2", "orders:0,1"]
    offsets = cli("dump", "groups", str(w.path)).out.splitlines()
    assert [line.split() for line in offsets] == [["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"],
                                                  ["sg", "orders", "0", "-", "-"], ["sg", "orders", "1", "-", "-"]]
