"""Every command's examples: two to four each, every one parsed by the real command tree (an option
renamed or removed fails here), shown at the end of --help, and a representative set run end to end on
the sample dump and a `--local lab`."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import typer

from groupctl.cli.app import app
from groupctl.cli.docs import PROG, walk
from groupctl.cli.examples import EXAMPLES, Example, examples
from groupctl.log.synthetic import write_sample_dump

ROOT = typer.main.get_command(app)
PATHS = [" ".join(path[1:]) for path, _ in walk(ROOT, [PROG])]
ALL = [(path, e) for path, chosen in EXAMPLES.items() for e in chosen]
SHELL_OPERATORS = set("();<>|&")


def groupctl_argvs(line: str) -> list[list[str]]:
    """The arguments of each groupctl command in a shell line (pipelines, redirections, VAR=value)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    segments: list[list[str]] = [[]]
    for token in lexer:
        if set(token) <= SHELL_OPERATORS:
            segments.append([])
        else:
            segments[-1].append(token)
    argvs = []
    for words in segments:
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]
        if words[:1] == [PROG]:
            argvs.append(words[1:])
    return argvs


def parse(argv: list[str]) -> list[str]:
    """Parse `argv` as groupctl would, down to the command it runs, without running it; its path."""
    command, ctx, path = ROOT, ROOT.make_context(PROG, list(argv)), []
    while getattr(command, "commands", None):
        rest = [*ctx._protected_args, *ctx.args]  # what a group leaves for its subcommand
        if not rest:
            break
        name, command, args = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, args, parent=ctx)
        path.append(name)
    return path


def test_every_command_has_two_to_four_examples():
    counts = {path: len(examples(path.split())) for path in PATHS}
    assert {p: n for p, n in counts.items() if not 2 <= n <= 4} == {}
    assert set(EXAMPLES) == set(PATHS), "examples for a command that does not exist"


@pytest.mark.parametrize(("path", "example"), ALL, ids=[f"{p or PROG}: {e.command}" for p, e in ALL])
def test_every_example_parses(path: str, example: Example):
    argvs = groupctl_argvs(example.command)
    assert len(argvs) == 1, "one groupctl command an example"
    parsed = parse(argvs[0])
    assert parsed[: len(path.split())] == path.split(), f"an example of `{path}` runs `{' '.join(parsed)}`"
    assert example.why and "\n" not in example.why


@pytest.mark.parametrize("line", [
    "groupctl dump locate orders --partitions",  # an option without its value
    "groupctl group describe orders-app --no-such-option --local lab",
    "groupctl local member join pod-0 --topics orders --local lab",  # --group is required
    "groupctl dump decode --format nonsense sample-dump",
])
def test_a_broken_example_fails_to_parse(line: str):
    with pytest.raises(Exception) as raised:
        parse(groupctl_argvs(line)[0])
    assert raised.type.__name__ in ("NoSuchOption", "MissingParameter", "BadParameter", "BadOptionUsage")


def test_shell_lines_are_cut_into_commands():
    assert groupctl_argvs("kafka-topics.sh --list | groupctl regex validate -t - 'a.*'") == [
        ["regex", "validate", "-t", "-", "a.*"]]
    assert groupctl_argvs("GROUPCTL_OUTPUT=json groupctl dump locate g > out.json") == [["dump", "locate", "g"]]


def test_help_ends_with_the_examples(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")
    for path in ("", "dump decode", "local tick", "group offsets reset"):
        out = cli(*path.split(), "--help").out
        tail = out[out.index("Examples:"):]
        for e in examples(path.split()):
            assert f"# {e.why}" in tail and e.command in tail
        assert "╭" not in tail, "the examples come after every panel"


#: The commands whose examples run end to end, in this order, in one directory holding `sample-dump`:
#: the lab is built by the first ones and read by the others.
RUN = ("local topics create", "local member join", "local tick", "local member list", "group list",
       "group describe", "group config get", "", "dump groups", "dump decode", "dump audit", "dump locate")


def _runs_here(example: Example) -> bool:
    """One command, on the sample dump or the lab (no cluster, no broker's log dir, no Spark)."""
    line = example.command
    single = not set(line) & SHELL_OPERATORS
    return single and ("--local lab" in line or "sample-dump" in line or " dump locate " in line)


def test_examples_run(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    write_sample_dump(tmp_path / "sample-dump")
    ran = []
    for path in RUN:
        for example in filter(_runs_here, examples(path.split())):
            result = cli(*groupctl_argvs(example.command)[0])
            assert result.code == 0, (example.command, result.err)
            assert result.out.strip(), example.command
            ran.append(example.command)
    assert len(ran) >= 20
