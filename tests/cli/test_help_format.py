"""--help shows flags as flags (no `<bool>` value placeholder), and commands without subcommands name none."""

from __future__ import annotations

import typer

from groupctl.cli.app import app


def _paths(command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    subs = getattr(command, "commands", None) or {}
    return [path, *(p for name, sub in subs.items() for p in _paths(sub, (*path, name)))]


def test_no_help_shows_a_value_placeholder_on_a_flag(cli):
    paths = _paths(typer.main.get_command(app))
    assert len(paths) > 30
    for path in paths:
        r = cli(*path, "--help")
        assert r.code == 0, (path, r.err)
        assert "<bool>" not in r.out, path
        assert "Show this message and exit." in " ".join(r.out.replace("│", " ").split()), path


def test_a_flag_still_shows_its_name_and_a_valued_option_its_placeholder(cli):
    out = cli("group", "remove-members", "--help").out
    cells = next(line for line in out.splitlines() if "--dry-run" in line).replace("│", " ").split()
    assert cells[:2] == ["--dry-run", "Show"]
    cells = next(line for line in out.splitlines() if "--instance-id" in line).replace("│", " ").split()
    assert cells[:3] == ["--instance-id", "-i", "ID[,ID...]"]


def test_demo_has_no_phantom_command(cli):
    out = cli("demo", "--help").out
    assert "Usage: groupctl demo [OPTIONS]" in out
    assert "COMMAND" not in out
    assert cli("demo", "extra").code == 2


def test_an_argument_shows_its_name_not_its_python_type(cli):
    paths = _paths(typer.main.get_command(app))
    for path in paths:
        out = cli(*path, "--help").out
        for label in ("<str>", "<list[str]>", "<path>", "<list[path]>"):
            panel = out.split("Arguments", 1)[1].split("╰", 1)[0] if "Arguments" in out else ""
            assert label not in panel, (path, label)
    out = cli("group", "describe", "--help").out
    cells = next(line for line in out.splitlines() if "GROUP " in line and "│" in line)
    assert cells.replace("│", " ").split()[:4] == ["GROUP", "The", "groups", "to"]
