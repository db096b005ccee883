"""The Spark job's reading of bytes Spark fetched (a URI input): the same problems as a local file's."""

from __future__ import annotations

from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.spark.job import _dumps


def _read(content: bytes) -> tuple[int, list[str]]:
    records = 0
    problems: list[str] = []
    for dump in _dumps("remote/__consumer_offsets-3/00000000000000000000.log", content):
        for _batch, recs in dump.batches:
            records += len(recs)
        problems += [str(p) for p in dump.problems]
    return records, problems


def test_fetched_bytes_with_a_torn_last_batch_report_it() -> None:
    whole = build_batch([SimpleRecord(b"k", b"v", 5)]) + build_batch([SimpleRecord(b"k", b"w", 6)], base_offset=1)
    assert _read(whole) == (2, [])
    records, problems = _read(whole[:-7])
    assert records == 1
    assert len(problems) == 1 and "torn last batch" in problems[0]


def test_a_share_group_state_partition_is_read_but_not_audited() -> None:
    """Its snapshot keys are no offset commits: the unit reads the file and observes none of its records."""
    import uuid

    from groupctl.protocol import share_state
    from groupctl.spark.job import _UnitAudit

    key = share_state.encode_key(0, {"groupId": "g", "topicId": uuid.UUID(int=7), "partition": 0})
    value = share_state.encode_value(0, 0, {"snapshotEpoch": 0, "stateEpoch": 0, "leaderEpoch": 0, "startOffset": 0,
                                            "createTimestamp": 0, "writeTimestamp": 0, "stateBatches": []})
    content = build_batch([SimpleRecord(key, value, 5)])
    (dump,) = list(_dumps("remote/__share_group_state-3/00000000000000000000.log", content))
    assert dump.topic == "__share_group_state"
    unit = _UnitAudit(0, with_records=True)
    assert list(unit.read("remote/__share_group_state-3/00000000000000000000.log", content)) == []
    assert unit.files == 1 and unit.rows == [] and unit.auditor.finish().findings == []
