"""The README's `local` session, replayed: each `$ groupctl ...` of the block prints what the README
shows after it (stdout, then stderr), ids aside (member and topic ids are random)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST = "$ groupctl local topics create orders --partitions 6 --messages 1000 --local lab\n"
LOOP = re.compile(r"for (\w+) in ([^;]+); do (.+); done")
IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![\w-])[A-Za-z0-9_-]{22}(?![\w-])")


def session(readme: str, first: str) -> list[tuple[str, str]]:
    """(command line, shown output) for each `$ ` line of the code block that starts with `first`."""
    start = readme.index(first)
    block = readme[start:readme.index("```", start)]
    steps = []
    for chunk in re.split(r"\n\n(?=\$ )", block.strip("\n")):
        command, _, shown = chunk.partition("\n")
        steps.append((command.removeprefix("$ "), shown.rstrip("\n") + "\n" if shown.strip() else ""))
    return steps


def expand(line: str) -> list[list[str]]:
    """The groupctl argument lists a line runs: one, or one per value of a `for` loop."""
    loop = LOOP.fullmatch(line)
    if loop is None:
        return [shlex.split(line)[1:]]
    name, values, body = loop.groups()
    return [shlex.split(body.replace(f"${name}", value))[1:] for value in values.split()]


def masked(text: str) -> str:
    return IDS.sub("<id>", text)


def test_the_local_session_prints_what_the_readme_shows(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    steps = session((ROOT / "README.md").read_text(), FIRST)
    assert [c.split()[:4] for c, _ in steps][-1] == ["groupctl", "local", "tick", "1m"], "README lost its local tick"
    for command, shown in steps:
        printed = ""
        for argv in expand(command):
            result = cli(*argv)
            assert result.code == 0, (command, result.err)
            printed = result.out + result.err
        if shown.startswith("...\n"):  # the README shows the last run's output only
            shown = shown.removeprefix("...\n")
        assert masked(printed) == masked(shown), command


def test_the_session_reader():
    readme = "text\n```sh\n$ groupctl a\nout\n\n$ for i in 1 2; do groupctl b $i; done\n...\nlast\n```\n"
    assert session(readme, "$ groupctl a\n") == [("groupctl a", "out\n"),
                                                 ("for i in 1 2; do groupctl b $i; done", "...\nlast\n")]
    assert expand("for i in 1 2; do groupctl b pod-$i; done") == [["b", "pod-1"], ["b", "pod-2"]]
    assert masked("pod-2-f4da6a97-9bc6-460b-90fb-7c4e433ca2b1 2N8oL1nBRoCFsfcCrimMMg orders-app") == (
        "pod-2-<id> <id> orders-app")


def test_the_readme_sample_dump_examples_show_records(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Each README command on `sample-dump` (made as the README says) prints rows, not just a header."""
    from groupctl.log.synthetic import write_sample_dump

    monkeypatch.chdir(tmp_path)
    write_sample_dump(tmp_path / "sample-dump")
    lines = re.findall(r"^(groupctl [^|\n]*sample-dump[^|\n]*?)(?:\s+#.*)?$", (ROOT / "README.md").read_text(), re.M)
    assert len(lines) >= 4
    for line in lines:
        result = cli(*shlex.split(line)[1:])
        assert result.code == 0, (line, result.err)
        assert len(result.out.strip().splitlines()) >= 2, f"`{line}` shows nothing"
