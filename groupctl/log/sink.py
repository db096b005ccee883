"""Where the compiled printers' lines go: the UTF-8 byte stream under a text stream, when it has one.

The compiled dump-log and jsonl printers build a batch's lines in a byte buffer. Handing them to a
text stream costs a str of the batch and an encode back to the same bytes, and at jsonl's ~700 MB per
million records that is a visible share of the run. Written to the byte stream under it, the output
is the same whenever the text stream encodes UTF-8 (the reference's own lines are encoded with the
stream's error handler, as the text layer would).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any, NamedTuple, TextIO


class ByteSink(NamedTuple):
    """Writes bytes below a text stream; `errors` is that stream's error handler."""

    write: Callable[[bytes], Any]
    errors: str

    def write_text(self, line: str) -> None:
        """A line of text in order with the bytes written before it."""
        self.write(line.encode("utf-8", self.errors))


def byte_sink(out: TextIO) -> ByteSink | None:
    """The byte stream under `out` (its text layer flushed first), or None when `out` has none or does not
    encode UTF-8: then the lines go through `out` as text."""
    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    if buffer is None or not isinstance(encoding, str):
        return None
    try:
        if codecs.lookup(encoding).name != "utf-8":
            return None
    except LookupError:
        return None
    out.flush()
    return ByteSink(buffer.write, getattr(out, "errors", None) or "strict")
