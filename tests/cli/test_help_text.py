"""Every command's rendered --help shows its help text as written: no bracketed text taken for Rich
markup, and paragraphs wrapped once, to the terminal's width."""

from __future__ import annotations

import itertools
import re

import pytest
import typer
from rich.text import Text

from groupctl.cli.app import app
from groupctl.cli.docs import PROG, walk
from groupctl.cli.examples import epilog
from groupctl.cli.help_text import escape_markup, reflow

COMMANDS = [(path[1:], command) for path, command in walk(typer.main.get_command(app), [PROG])]
IDS = [" ".join(path) or PROG for path, _ in COMMANDS]


def _help(cli, monkeypatch: pytest.MonkeyPatch, path: list[str], columns: int) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    result = cli(*path, "--help")
    assert result.code == 0, result.err
    return result.out


def _source_texts(path: list[str], command) -> list[str]:
    """Every help string of the command as written in the source, and its examples."""
    texts = [command.help or "", command.short_help or "", epilog(path)]
    texts += [getattr(p, "help", None) or "" for p in command.params]
    # a group's Commands panel shows each subcommand's first paragraph only
    texts += [sub.short_help or (sub.help or "").split("\n\n")[0]
              for sub in (getattr(command, "commands", None) or {}).values()]
    return texts


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_bracketed_text_survives(cli, monkeypatch, path, command):
    bracketed = {b for text in _source_texts(path, command) for b in re.findall(r"\[[^\[\]\n]*\]", text)}
    shown = _help(cli, monkeypatch, path, 1000)
    for text in bracketed:
        assert text in shown, f"{text!r} vanished from `{' '.join([PROG, *path])} --help`"


def test_the_reported_character_class_is_shown(cli, monkeypatch):
    assert "[a-zA-Z0-9._-]" in _help(cli, monkeypatch, ["local", "topics", "create"], 100)


@pytest.mark.parametrize("text", [
    "1-249 of [a-zA-Z0-9._-]", "local[*], local[N]", "[bold]not bold[/bold]", "[/]", "a \\[b] c",
    "C:\\\\[link=x]y", "trailing [#fff]", "[@click]", "[OPTIONS] [default: 0]",
])
def test_escaped_text_renders_as_itself(text):
    assert Text.from_markup(escape_markup(text)).plain == text


def _description(out: str) -> list[list[str]]:
    """The paragraphs between the usage line and the first panel (or the examples), as stripped lines."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:")) + 1
    paragraphs: list[list[str]] = [[]]
    for line in lines[start:]:
        text = line.strip()
        if text.startswith(("╭", "Examples:")):
            break
        if text:
            paragraphs[-1].append(text)
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_paragraphs_wrap_once(cli, monkeypatch, path, command, columns):
    """A greedy wrap to the width: every line but a paragraph's last is as full as the next word allows."""
    width = columns - 2  # one column of padding on either side
    shown = _help(cli, monkeypatch, path, columns)
    for paragraph in _description(shown):
        for line, following in itertools.pairwise(paragraph):
            assert len(line) + 1 + len(following.split()[0]) > width, (
                f"`{' '.join([PROG, *path])} --help` breaks a line early at {columns} columns:\n{line}\n{following}"
            )


def test_reflow_keeps_paragraphs_and_click_markers():
    assert reflow("First line\nwraps here.\n\n  Second\n  paragraph.\n") == (
        "First line wraps here.\n\nSecond paragraph.")
    assert reflow("Text.\n\n\b\nkept\n  as is\n\nShown.\fHidden") == "Text.\n\n\b\nkept\n  as is\n\nShown."
