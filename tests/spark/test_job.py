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
