"""CLI test fixtures: a sample dump, standard input, every output format (`cli` is in tests/conftest.py)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from groupctl.log.synthetic import write_sample_dump

from ..conftest import Result


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """The Quick start's sample dump: a directory holding `__consumer_offsets-0`."""
    write_sample_dump(tmp_path / "dump")
    return tmp_path / "dump"


class _Stdin(io.StringIO):
    """Standard input with a chosen answer to "is this a terminal?"."""

    def __init__(self, text: str, tty: bool) -> None:
        super().__init__(text)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.fixture
def cli_input(cli, monkeypatch) -> Callable[..., Result]:
    """`cli_input(*args, input="y\\n", tty=True)`: like `cli`, with standard input given (and a terminal or not)."""

    def run(*args: str, input: str = "", tty: bool = False) -> Result:
        monkeypatch.setattr("sys.stdin", _Stdin(input, tty))
        return cli(*args)

    return run


FORMATS = ("table", "wide", "json", "yaml", "csv")


class OutputChecks:
    """Checks every data command shares: the JSON envelope, and each output format's shape."""

    def __init__(self, cli) -> None:
        self.cli = cli

    def items(self, *args: str, kind: str) -> list[dict]:
        """The items of the command's `-o json` envelope, after checking its apiVersion and kind."""
        import json

        r = self.cli(*args, "-o", "json")
        assert r.code == 0, r.err
        doc = json.loads(r.out)
        assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", kind)
        return doc["items"]

    def every_format(self, args: tuple[str, ...], kind: str, headers: list[str], wide_extra: list[str],
                     *, each: list[str] | None = None) -> None:
        """Table headers (wide's extra ones only in wide), json/yaml envelopes, csv rows of equal width;
        `each` gives a last argument per format, for commands that cannot run twice alike."""
        import csv
        import io
        import json

        import yaml

        for n, fmt in enumerate(FORMATS):
            r = self.cli(*args, *([each[n]] if each else []), "-o", fmt)
            assert r.code == 0, (fmt, r.err)
            if fmt in ("table", "wide"):
                head = r.out.splitlines()[0]
                assert all(h in head for h in headers), head
                assert all((h in head) == (fmt == "wide") for h in wide_extra), head
            elif fmt in ("json", "yaml"):
                doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
                assert doc["kind"] == kind and doc["items"]
            else:
                rows = list(csv.reader(io.StringIO(r.out)))
                assert len(rows) > 1 and all(len(row) == len(rows[0]) for row in rows)


@pytest.fixture
def checks(cli) -> OutputChecks:
    return OutputChecks(cli)
