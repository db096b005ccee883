"""`--format jsonl`: the printer's lines come from the compiled loop when it runs, and read as the reference's."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from groupctl.log import fast
from groupctl.log.decode import open_inputs
from groupctl.log.jsonl import write_jsonl
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import mixed_dump
from tests.log.conftest import COMPILED_LOOP_ONLY
from tests.log.test_fast import _Utf8Stream

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

@COMPILED_LOOP_ONLY
@pytest.mark.parametrize("stream", [io.StringIO, _Utf8Stream], ids=["text", "utf8-bytes"])
def test_every_batch_is_printed_in_c(tmp_path: Path, compiled_calls, stream) -> None:
    """`write_jsonl`, as `dump decode --format jsonl` prints: each batch's lines come from the compiled printer
    (`jsonl_lines`), as text on a text stream and as bytes below a UTF-8 one (`sink.byte_sink`)."""
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(mixed_dump(300))
    with fast.forced(True):
        reference = io.StringIO()
        write_jsonl(open_inputs([path]), reference)
        batches = sum(1 for _ in iter_batches(path.read_bytes()))
    calls = compiled_calls(fast.built(), "jsonl_lines")
    out = stream()
    write_jsonl(open_inputs([path]), out)
    assert out.getvalue() == reference.getvalue()
    assert len(calls["jsonl_lines"]) == batches, "not every batch was printed in C"
    assert {type(call.answer) for call in calls["jsonl_lines"]} == {str if stream is io.StringIO else bytes}
