"""`merge`: partitions audited apart and merged give the audit of the whole input, or are refused.

The Spark audit rests on this: each `__consumer_offsets` partition is audited by its own task and
the auditors are merged on the driver, so the merged state must be the state one auditor reaches
over all the input in order (checked slot by slot, not only through the report).
"""

from __future__ import annotations

import pickle
import random
import struct
import uuid
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groupctl.log.audit import RULES, Auditor, merge
from groupctl.log.decode import DecodedRecord, decode_record, open_inputs
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import (
    BASE_TS,
    classic_group,
    consumer_group_records,
    group_tombstone,
    offset_commit,
    offset_tombstone,
)
from groupctl.log.writer import SimpleRecord, build_batch, build_control_batch
from groupctl.protocol.records import encode_key, encode_value

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

TOPIC_ID = uuid.UUID(int=0xFEED)


def _audited(paths: Iterable[Path]) -> Auditor:
    """One auditor over the inputs, as `dump audit` runs it; pickled and back, as a Spark task ships it."""
    auditor = Auditor()
    for dump in open_inputs(list(paths)):
        for _batch, recs in dump.batches:
            for rec in recs:
                auditor.observe(rec)
        for problem in dump.problems:
            auditor.observe_problem(problem)
    return pickle.loads(pickle.dumps(auditor))


def _assert_same_state(merged: Auditor, whole: Auditor) -> None:
    """Every slot equal (a field `_absorb` forgot shows here even when no finding depends on it yet)."""
    for slot in Auditor.__slots__:
        if slot != "_apply":  # a bound method of each auditor's own replay
            assert getattr(merged, slot) == getattr(whole, slot), slot
    assert merged.finish() == whole.finish()


def _partitions(every_finding: list[Path]) -> list[Path]:
    logs, text = every_finding
    return [*sorted(logs.iterdir(), key=lambda d: int(d.name.rsplit("-", 1)[1])), text]


def test_partitions_merged_give_the_whole_audit(every_finding: list[Path]):
    parts = _partitions(every_finding)
    # partitions 4 and 5 share a group and a producer: they are audited together, the rest alone
    auditors = [_audited([p]) for p in parts[:4]]
    auditors += [_audited(parts[4:6]), _audited(parts[6:])]
    whole = _audited(parts)
    merged = merge(auditors)
    _assert_same_state(merged, whole)
    assert {f.rule for f in merged.finish().findings} == set(RULES)


def test_parts_sharing_a_group_or_producer_are_refused(every_finding: list[Path]):
    parts = _partitions(every_finding)
    four, five = _audited([parts[4]]), _audited([parts[5]])
    assert {("group", "shared"), ("producer", 30)} <= four.scope() & five.scope()
    with pytest.raises(ValueError, match="group shared, producer 30"):
        merge([four, five])
    # and this is why: the rewind of "shared" from 500 to 100 is only seen with both in one pass
    alone = Auditor()  # what merging them anyway would give
    alone._absorb(four)
    alone._absorb(five)
    assert alone.finish() != _audited(parts[4:6]).finish()


def test_scope_names_groups_and_the_producers_of_commits_and_markers(every_finding: list[Path]):
    logs, _ = every_finding
    assert _audited([logs / "__consumer_offsets-0"]).scope() == {
        ("group", "etl"), ("group", "side"), ("group", "app"), ("producer", 7), ("producer", 12)}
    # a partition holding only a marker of a producer still names it: the marker settles its commits
    assert ("producer", 30) in _audited([logs / "__consumer_offsets-5"]).scope()


# --- random partitions -------------------------------------------------------------------------


def _random_partition(rng: random.Random, partition: int, batches: int) -> list[DecodedRecord]:
    """Random records of a partition's own groups and producers, as a broker would place them."""
    groups = [f"g{partition}-{i}" for i in range(3)]
    producers = [1000 * (partition + 1) + i for i in range(2)]
    data: list[bytes] = []
    offset = 0

    def add(records: list[SimpleRecord], **options: object) -> None:
        nonlocal offset
        data.append(build_batch(records, base_offset=offset, **options))
        offset += len(records)

    for _ in range(batches):
        ts = BASE_TS + rng.randint(0, 100_000)
        group = rng.choice(groups)
        tp = ("t", rng.randint(0, 2))
        kind = rng.randrange(13)
        if kind <= 2:
            add([offset_commit(group, *tp, rng.randint(0, 100), ts)])
        elif kind == 3:  # v1: the only value with an expire timestamp
            add([SimpleRecord(encode_key(1, {"group": group, "topic": tp[0], "partition": tp[1]}), encode_value(
                1, 1, {"offset": rng.randint(0, 100), "metadata": "", "commitTimestamp": ts,
                       "expireTimestamp": ts + rng.randint(-10, 50_000)}), ts)])
        elif kind == 4:
            add([offset_tombstone(group, *tp, ts)])
        elif kind == 5:
            add([group_tombstone(group, ts)])
        elif kind == 6:
            add([classic_group(group, rng.randint(1, 5), [("a", rng.choice([None, "pod"]), {"t": [0]}),
                                                          ("b", rng.choice([None, "pod"]), {"t": [1]})], ["t"], ts)])
        elif kind == 7:
            records = consumer_group_records(group, rng.randint(1, 5), [
                ("m1", rng.choice([None, "i"]), [0]), ("m2", rng.choice([None, "i"]), [rng.choice([0, 1])])],
                "t", TOPIC_ID, ts)
            if rng.random() < 0.3:  # without its group record: orphans
                records = [r for r in records if struct.unpack(">h", r.key[:2])[0] != 3]
            add(records)
        elif kind == 8:
            add([SimpleRecord(encode_key(3, {"groupId": group}), None, ts)])
        elif kind <= 10:
            add([offset_commit(group, *tp, rng.randint(0, 100), ts) for _ in range(rng.randint(1, 2))],
                producer_id=rng.choice(producers), producer_epoch=0, base_sequence=0, is_transactional=True)
        elif kind == 11:
            data.append(build_control_batch(rng.choice(["COMMIT", "ABORT"]), base_offset=offset,
                                            producer_id=rng.choice(producers), producer_epoch=0,
                                            coordinator_epoch=1, timestamp=ts))
            offset += 1
        else:  # unknown type, or a value that does not decode
            add([rng.choice([
                SimpleRecord(struct.pack(">h", 99) + b"\x00\x01g", b"\x00\x00x", ts),
                SimpleRecord(encode_key(1, {"group": group, "topic": "t", "partition": 1}), b"\x00\x03\x00", ts),
            ])])
    return [decode_record(b, r) for chunk in data for b in iter_batches(chunk) for r in b.records]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 4))
def test_random_partitions_merged_give_the_whole_audit(seed: int, count: int):
    rng = random.Random(seed)
    partitions = [_random_partition(rng, p, rng.randint(0, 40)) for p in range(count)]
    whole = Auditor()
    parts = []
    for records in partitions:
        part = Auditor()
        for rec in records:
            whole.observe(rec)
            part.observe(rec)
        parts.append(pickle.loads(pickle.dumps(part)))
    _assert_same_state(merge(parts), whole)
