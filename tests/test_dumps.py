"""dumps.py over real segment files: where each group's records came from, which groups a dump holds and
how they are described, and the audit of whole inputs (the same report as observing record by record)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from groupctl.dumps import (
    OFFSETS_TOPIC,
    Stray,
    audit_dumps,
    describe_dump_groups,
    replay_dumps,
    source_partition,
)
from groupctl.log import fast
from groupctl.log.audit import Auditor
from groupctl.log.decode import open_inputs
from groupctl.log.partitioning import partition_for
from groupctl.log.synthetic import BASE_TS, consumer_group_records, offset_commit, write_sample_dump
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.protocol.primitives import uuid_to_kafka


def _segment(directory: Path, *records: SimpleRecord) -> Path:
    with SegmentWriter(directory) as writer:
        writer.append(list(records))
    return directory


def _other_than_hashed(group: str, partitions: int = 50) -> int:
    return (partition_for(group, partitions) + 1) % partitions


@pytest.mark.parametrize(("path", "partition"), [
    ("logs/__consumer_offsets-7/00000000000000000000.log", 7),
    ("__consumer_offsets-12/dump.txt", 12),
    ("logs/orders-7/00000000000000000000.log", None),
    ("logs/__consumer_offsets-x/00000000000000000000.log", None),
    ("00000000000000000000.log", None),
    ("<stdin>", None),
])
def test_source_partition_is_read_from_the_directory_name_only(path: str, partition: int | None) -> None:
    assert source_partition(path) == partition


def test_replay_notes_each_groups_partitions_in_the_order_first_read(tmp_path: Path) -> None:
    """A group read from two partition directories has both, in reading order (partition 2 before 10, as
    `segment_files` orders them), each once however many segments name it; a file outside any partition
    directory adds records but no partition."""
    _segment(tmp_path / "logs" / f"{OFFSETS_TOPIC}-10", offset_commit("a", "t", 0, 5, BASE_TS),
             offset_commit("b", "t", 0, 1, BASE_TS))
    _segment(tmp_path / "logs" / f"{OFFSETS_TOPIC}-2", offset_commit("a", "t", 1, 3, BASE_TS))
    with SegmentWriter(tmp_path / "logs" / f"{OFFSETS_TOPIC}-10", base_offset=100) as writer:  # a second segment
        writer.append([offset_commit("a", "t", 0, 6, BASE_TS)])
    loose = _segment(tmp_path / "loose", offset_commit("c", "t", 0, 9, BASE_TS))
    replayed = replay_dumps(open_inputs([tmp_path / "logs", loose]))
    assert replayed.partitions == {"a": [2, 10], "b": [10]}
    assert sorted(replayed.replay.group_ids()) == ["a", "b", "c"]
    assert replayed.replay.offsets["a"][("t", 0)].offset == 6
    assert replayed.replay.offsets["c"][("t", 0)].offset == 9


def test_groups_are_described_in_the_order_asked_and_the_missing_named(tmp_path: Path) -> None:
    dump = _segment(tmp_path / f"{OFFSETS_TOPIC}-0", offset_commit("a", "t", 0, 5, BASE_TS),
                    offset_commit("b", "t", 0, 1, BASE_TS))
    replayed = replay_dumps(open_inputs([dump]))
    found = describe_dump_groups(replayed, ["b", "nope", "a"])
    assert [d.group_id for d in found.descriptions] == ["b", "a"]
    assert found.missing == ["nope"]
    every = describe_dump_groups(replayed)
    assert [d.group_id for d in every.descriptions] == replayed.replay.group_ids()
    assert every.missing == []


def test_the_coordinator_is_the_partition_read_and_a_stray_is_said(tmp_path: Path) -> None:
    """Read from where its id hashes: that partition, no stray. Read from elsewhere only: the partition read
    is the coordinator and the group is a stray. Read from a loose file: no coordinator, no stray."""
    hashed, other = partition_for("g", 50), _other_than_hashed("g")
    home = _segment(tmp_path / "home" / f"{OFFSETS_TOPIC}-{hashed}", offset_commit("g", "t", 0, 1, BASE_TS))
    away = _segment(tmp_path / "away" / f"{OFFSETS_TOPIC}-{other}", offset_commit("g", "t", 0, 1, BASE_TS))
    loose = _segment(tmp_path / "loose", offset_commit("g", "t", 0, 1, BASE_TS))

    (desc,), _, strays = _described(home)
    assert (desc.coordinator, desc.hashed_coordinator) == (f"{OFFSETS_TOPIC}-{hashed}", f"{OFFSETS_TOPIC}-{hashed}")
    assert strays == []
    (desc,), _, strays = _described(away)
    assert (desc.coordinator, desc.hashed_coordinator) == (f"{OFFSETS_TOPIC}-{other}", f"{OFFSETS_TOPIC}-{hashed}")
    assert strays == [Stray("g", (other,), hashed)]
    (desc,), _, strays = _described(loose)
    assert desc.coordinator is None and strays == []
    # read from both: the hashed one is the coordinator, and the group is still said to be a stray
    (desc,), _, strays = _described(away, home)
    assert desc.coordinator == f"{OFFSETS_TOPIC}-{hashed}"
    assert strays == [Stray("g", (other, hashed), hashed)]
    # another partition count moves where the id hashes
    found = describe_dump_groups(replay_dumps(open_inputs([home])), partitions=7)
    assert found.descriptions[0].hashed_coordinator == f"{OFFSETS_TOPIC}-{partition_for('g', 7)}"


def _described(*paths: Path) -> tuple:
    found = describe_dump_groups(replay_dumps(open_inputs(list(paths))))
    return found.descriptions, found.missing, found.strays


def _topics(desc) -> set[str]:
    return {tp.topic for m in desc.members for tp in m.assignment}


def test_topic_names_given_fill_in_only_what_the_dump_does_not_name(tmp_path: Path) -> None:
    unnamed, named = uuid.UUID(int=1), uuid.UUID(int=2)
    dump = _segment(
        tmp_path / f"{OFFSETS_TOPIC}-0",
        *consumer_group_records("cg", 3, [("m1", None, [0, 1])], "orders", unnamed, BASE_TS),
        *consumer_group_records("dg", 3, [("m2", None, [0])], "lines", named, BASE_TS),
        offset_commit("dg", "lines-v2", 0, 42, BASE_TS, version=4, topic_id=named),
    )
    replayed = replay_dumps(open_inputs([dump]))
    given = {uuid_to_kafka(unnamed): "orders", uuid_to_kafka(named): "not-this"}
    without, with_names = describe_dump_groups(replayed), describe_dump_groups(replayed, topic_names=given)
    assert [_topics(d) for d in without.descriptions] == [{uuid_to_kafka(unnamed)}, {"lines-v2"}]
    assert [_topics(d) for d in with_names.descriptions] == [{"orders"}, {"lines-v2"}]
    assert given == {uuid_to_kafka(unnamed): "orders", uuid_to_kafka(named): "not-this"}  # not changed


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_audit_dumps_reports_what_observing_each_record_reports(tmp_path: Path, compiled: bool) -> None:
    """The audit of whole inputs (the compiled path attached to each reader when it runs) against an
    auditor fed every record one at a time through `observe`, the reference path."""
    if compiled and not fast.available():
        pytest.skip("the compiled record loop is not built")
    write_sample_dump(tmp_path)
    with fast.forced(not compiled):
        report = audit_dumps(open_inputs([tmp_path]))
    with fast.forced(True):
        reference = Auditor()
        for dump in open_inputs([tmp_path]):
            for _batch, recs in dump.batches:
                for rec in recs:
                    reference.observe(rec)
            for problem in dump.problems:
                reference.observe_problem(problem)
    assert report == reference.finish()
    assert report.totals["records"] > 0 and report.findings
