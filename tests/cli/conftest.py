"""CLI test fixtures: a sample dump, standard input, every output format, a served DIR (`cli` is in
tests/conftest.py)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from groupctl.log.synthetic import write_sample_dump
from groupctl.server.auth import read_users
from groupctl.server.server import ServerOptions, ServerThread

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


# -- a served DIR: the group commands against `groupctl serve` over loopback ---------------------------

SERVED = ("serve", "serve-tls", "serve-sasl-scram")
SASL_USER = "alice"
SASL_PASSWORD = "pa:ss w0rd"


@dataclass
class Served:
    """A `groupctl serve` over a directory, and the command-line arguments that select it."""

    server: ServerThread
    args: tuple[str, ...]

    @property
    def location(self) -> str:
        """How groupctl's messages name the cluster: its bootstrap address."""
        return self.server.bootstrap


@pytest.fixture
def serve(tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[
        Callable[[Path, str], Served]]:
    """`serve(directory, kind)`: a running server on 127.0.0.1 over `directory`, stopped after the test.

    `serve` is plaintext; `serve-tls` an SSL listener whose client settings are a --command-config file
    in the Java dialect (a PEM truststore); `serve-sasl-scram` SASL_PLAINTEXT with SCRAM-SHA-512, the
    file in librdkafka's names and the password in GROUPCTL_SASL_PASSWORD.
    """
    started: list[ServerThread] = []

    def start(directory: Path, kind: str) -> Served:
        config = tmp_path / f"{kind}.properties"
        if kind == "serve":
            options = ServerOptions(directory, port=0)
        elif kind == "serve-tls":
            files = request.getfixturevalue("tls_files")
            options = ServerOptions(directory, port=0, tls=files.server_context())
            config.write_text(f"security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location={files.ca}\n")
        elif kind == "serve-sasl-scram":
            mechanisms = ("SCRAM-SHA-256", "SCRAM-SHA-512")
            users = tmp_path / "users"
            users.write_text(f"{SASL_USER}:{SASL_PASSWORD}\n")
            options = ServerOptions(directory, port=0, sasl_mechanisms=mechanisms, users=read_users(users, mechanisms))
            config.write_text(f"security.protocol=SASL_PLAINTEXT\nsasl.mechanisms=SCRAM-SHA-512\nsasl.username={SASL_USER}\n")
            monkeypatch.setenv("GROUPCTL_SASL_PASSWORD", SASL_PASSWORD)
        else:
            raise ValueError(f"no such served kind: {kind}")
        server = ServerThread(options)
        server.start()
        started.append(server)
        args = ("-b", server.bootstrap) + (("--command-config", str(config)) if config.exists() else ())
        return Served(server, args)

    # Removed members of the test DIRs are simulated and never come back: a short look is enough.
    monkeypatch.setenv("GROUPCTL_VERIFY_AFTER", "0.1")
    try:
        yield start
    finally:
        for server in started:
            server.stop()


def run_in(directory: Path, *args: str) -> None:
    """A groupctl command on `--local DIR`, in-process, as the lab fixtures build their DIRs; it must succeed."""
    from groupctl.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([*args, "--local", str(directory)])
        except SystemExit as exc:
            assert exc.code in (0, None), (args, out.getvalue(), err.getvalue())
