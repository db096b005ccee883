"""Auditing partition by partition and merging gives the whole dump's audit (no Spark needed)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from groupctl.log.audit import RULES, Auditor, audit, merge
from groupctl.log.decode import open_inputs
from groupctl.spark.units import InputFile, independent_runs, local_files, partition_of, plan_units


def _part(files: list[InputFile]) -> tuple[Auditor, set[int]]:
    """One unit's audit, the way a Spark task runs it, through a pickle round trip as it travels."""
    auditor = Auditor()
    producers: set[int] = set()
    for dump in open_inputs([f.path for f in files]):
        for batch, recs in dump.batches:
            if batch.producer_id >= 0:
                producers.add(batch.producer_id)
            for rec in recs:
                auditor.observe(rec)
        for problem in dump.problems:
            auditor.observe_problem(problem)
    return pickle.loads(pickle.dumps(auditor)), producers


@pytest.fixture
def every(every_finding: list[Path]) -> list[Path]:
    return every_finding


def test_units_follow_input_order_one_per_directory(every: list[Path]):
    files = [f for p in every for f in local_files(str(p))]
    units = plan_units(files)
    assert [f for u in units for f in u.files] == files
    assert [partition_of(u.files[0].path) for u in units] == [0, 1, 2, 3, 4, 5, None]
    assert units[-1].files[0].path.endswith("p6.txt")


def test_merged_units_give_the_sequential_report(every: list[Path]):
    units = plan_units(f for p in every for f in local_files(str(p)))
    parts = [_part(u.files) for u in units]
    runs = independent_runs([[*a.groups(), *producers] for a, producers in parts])
    # partitions 4 and 5 share group "shared" and producer 30: audited together, the rest alone
    assert runs == [range(0, 1), range(1, 2), range(2, 3), range(3, 4), range(4, 6), range(6, 7)]
    auditors = [parts[r.start][0] if len(r) == 1 else _part([f for u in units[r.start:r.stop] for f in u.files])[0]
                for r in runs]
    merged = merge(auditors)
    whole = Auditor()
    expected = audit(open_inputs(every))
    for dump in open_inputs(every):
        for _batch, recs in dump.batches:
            for rec in recs:
                whole.observe(rec)
        for problem in dump.problems:
            whole.observe_problem(problem)
    assert merged.replay == whole.replay
    assert merged.finish() == expected
    assert {f.rule for f in expected.findings} == set(RULES)


def test_merging_shared_units_alone_would_differ(every: list[Path]):
    """Why the shared ones are redone: the rewind across partitions 4 and 5 is only seen in one pass."""
    units = plan_units(f for p in every for f in local_files(str(p)))
    report = merge([_part(u.files)[0] for u in units]).finish()
    assert report != audit(open_inputs(every))


def test_independent_runs():
    assert independent_runs([]) == []
    assert independent_runs([["a"], ["b"], [1]]) == [range(0, 1), range(1, 2), range(2, 3)]
    assert independent_runs([["a"], ["b"], ["c", "a"], ["d"], [7], ["e", 7]]) == [
        range(0, 3), range(3, 4), range(4, 6)]
    assert independent_runs([["a", "b"], ["b"], [], ["a"]]) == [range(0, 4)]
