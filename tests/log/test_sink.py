"""The byte stream below a text stream, where the compiled printers write their lines."""

from __future__ import annotations

import io

import pytest

from groupctl.log import fast
from groupctl.log.sink import byte_sink
from tests.log.conftest import NOT_BUILT


def _stream(encoding: str = "utf-8", errors: str = "strict") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=errors, newline="")


def test_a_utf8_stream_gives_its_buffer_after_its_pending_text() -> None:
    out = _stream()
    out.write("first ")
    sink = byte_sink(out)
    assert sink is not None and sink.errors == "strict"
    sink.write(b"second ")
    sink.write_text("dritt\u00e9\n")
    out.flush()
    assert out.buffer.getvalue() == "first second dritt\u00e9\n".encode()


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "utf-16"])
def test_other_encodings_stay_text(encoding: str) -> None:
    assert byte_sink(_stream(encoding)) is None


def test_a_stream_without_bytes_below_stays_text() -> None:
    assert byte_sink(io.StringIO()) is None


def test_the_stream_error_handler_encodes_the_reference_lines() -> None:
    """A reference line the text layer would encode with surrogateescape comes out the same as bytes."""
    if not fast.available():
        pytest.skip(NOT_BUILT)
    with fast.forced(False):
        native = fast.module()
    out = _stream(errors="surrogateescape")
    sink = byte_sink(out)
    assert sink is not None and sink.errors == "surrogateescape"
    line = "caf\udce9"  # the byte 0xE9 read with surrogateescape

    class Batch:
        magic = 1  # not a v2 batch: the compiled printer hands every line to the reference
        is_control = False
        timestamp_type = "CreateTime"

    got = native.dumplog_lines(Batch(), [object()], False, lambda rec: line, lambda batch: "batch", sink.errors)
    assert got == b"batch\ncaf\xe9\n"
    strict = native.dumplog_lines(Batch(), [object()], False, lambda rec: "ok", lambda batch: "batch", "strict")
    assert strict == b"batch\nok\n"
    with pytest.raises(UnicodeEncodeError):
        native.dumplog_lines(Batch(), [object()], False, lambda rec: line, lambda batch: "batch", "strict")
    text = native.dumplog_lines(Batch(), [object()], False, lambda rec: "ok", lambda batch: "batch")
    assert text == "batch\nok\n"
