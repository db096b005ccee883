"""Reading dump inputs for a command: every file once, a progress bar, damage tallied for the exit code.

`dump decode`, `dump groups` and `dump audit` all read the same way; this keeps the progress bar,
the stderr warnings and the exit-3 rule in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import typer

from groupctl.errors import PartialFailure
from groupctl.plurals import counted


def _size(file: Path) -> int:
    """Bytes to read, for the progress bar: 0 for a pipe, and for a file that cannot be read (opening
    it says why)."""
    try:
        return file.stat().st_size
    except OSError:
        return 0


class DumpReading:
    """Use as a context manager; iterate `dumps()` (or `records()`) inside it, then call `report()`."""

    def __init__(
        self, paths: list[Path], *, strict: bool = False, what: str = "decoding", topic: str | None = None
    ) -> None:
        from groupctl.log.decode import expand_path

        self.paths = paths
        self.strict = strict
        self.topic = topic  # every input read as this internal topic's; None: each file's directory tells
        self.what = what
        self.total = sum(_size(f) for p in paths for f in expand_path(p))
        self.files: list[Any] = []
        self.decode_errors = 0
        self._stack = ExitStack()
        self._advance: Callable[[int], None] | None = None  # set by __enter__

    def __enter__(self) -> DumpReading:
        from groupctl.cli.progress import byte_progress

        self._advance = self._stack.enter_context(byte_progress(self.what, self.total))
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _batches(self, source: Iterator) -> Iterator:
        advance = self._advance
        if advance is None:
            raise RuntimeError("DumpReading: read the dumps inside `with DumpReading(...)`")
        done = 0
        for batch, recs in source:
            advance(batch.position + batch.size - done)
            done = batch.position + batch.size
            for r in recs:
                if r.error is not None and not r.error.startswith("Unknown record type"):
                    self.decode_errors += 1
            yield batch, recs

    def dumps(self) -> Iterator[Any]:
        """Every input file, its batches counted as they are read."""
        from groupctl.log.decode import open_inputs

        for dump in open_inputs(self.paths, strict=self.strict, topic=self.topic):
            self.files.append(dump)
            dump.batches = self._batches(dump.batches)
            yield dump

    def records(self) -> Iterator[tuple[Any, Any]]:
        """(file, record) for every record of every input."""
        for dump in self.dumps():
            for _batch, recs in dump.batches:
                for rec in recs:
                    yield dump, rec

    @property
    def problems(self) -> list:
        return [p for d in self.files for p in d.problems]

    def report(self, *, debug: bool = False) -> None:
        """Warn about every skipped piece of input on stderr; exit 3 when there was any."""
        problems = self.problems
        for problem in problems:
            typer.echo(f"groupctl: warning: {problem}", err=True)
        if debug:
            typer.echo(f"groupctl: read {counted(len(self.files), 'file')}, {counted(self.total, 'byte')}", err=True)
        if problems or self.decode_errors:
            parts = []
            if problems:
                parts.append(f"{counted(len(problems), 'damaged batch or line', 'damaged batches or lines')} skipped")
            if self.decode_errors:
                parts.append(f"{counted(self.decode_errors, 'record')} whose key or value could not be decoded")
            raise PartialFailure("; ".join(parts) + " (see the warnings above); the rest was decoded")
