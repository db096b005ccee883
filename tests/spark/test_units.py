"""How a Spark audit cuts its input into units and runs: in `dump audit`'s order, shared state together.

No Spark needed: the units are audited here the way a task audits them, and merged as the driver does.
"""

from __future__ import annotations

from pathlib import Path

from groupctl.dumps import audit_dumps
from groupctl.log.audit import Auditor, merge
from groupctl.log.decode import open_inputs
from groupctl.spark.units import InputFile, independent_runs, local_files, partition_of, plan_units


def _audited(files: list[InputFile]) -> Auditor:
    auditor = Auditor()
    for dump in open_inputs([f.path for f in files]):
        for _batch, recs in dump.batches:
            for rec in recs:
                auditor.observe(rec)
        for problem in dump.problems:
            auditor.observe_problem(problem)
    return auditor


def test_units_follow_input_order_one_per_directory(every_finding: list[Path]):
    files = [f for p in every_finding for f in local_files(str(p))]
    units = plan_units(files)
    assert [f for u in units for f in u.files] == files
    assert [partition_of(u.files[0].path) for u in units] == [0, 1, 2, 3, 4, 5, None]
    assert units[-1].files[0].path.endswith("p6.txt")


def test_runs_put_units_with_shared_state_together(every_finding: list[Path]):
    units = plan_units(f for p in every_finding for f in local_files(str(p)))
    parts = [_audited(u.files) for u in units]
    runs = independent_runs([part.scope() for part in parts])
    # partitions 4 and 5 share group "shared" and producer 30: one run; the rest alone
    assert runs == [range(0, 1), range(1, 2), range(2, 3), range(3, 4), range(4, 6), range(6, 7)]
    auditors = [parts[r.start] if len(r) == 1 else _audited([f for u in units[r.start:r.stop] for f in u.files])
                for r in runs]
    assert merge(auditors).finish() == audit_dumps(open_inputs(every_finding))


def test_independent_runs():
    assert independent_runs([]) == []
    assert independent_runs([["a"], ["b"], [1]]) == [range(0, 1), range(1, 2), range(2, 3)]
    assert independent_runs([["a"], ["b"], ["c", "a"], ["d"], [7], ["e", 7]]) == [
        range(0, 3), range(3, 4), range(4, 6)]
    assert independent_runs([["a", "b"], ["b"], [], ["a"]]) == [range(0, 4)]
