"""Man pages and shell-completion scripts generated from the Typer app itself.

Generated, not written by hand, so they cannot drift from the commands; a test compares the
committed files in `man/` and `completions/` with what this module produces now.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from groupctl import __version__

PROG = "groupctl"
SHELLS = {"bash": "groupctl.bash", "zsh": "_groupctl", "fish": "groupctl.fish"}


def _roff(text: str) -> str:
    """Escape text for roff: backslashes, and lines that would start with a control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines():
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def _paragraphs(text: str) -> str:
    blocks = [b.strip() for b in (text or "").strip().split("\n\n") if b.strip()]
    return "\n.PP\n".join(_roff(" ".join(b.split())) for b in blocks)


def walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    for name in sorted(getattr(command, "commands", {}) or {}):
        sub = command.commands[name]
        if not getattr(sub, "hidden", False):
            yield from walk(sub, [*path, name])


def _option_lines(ctx: Any, command: Any) -> list[str]:
    out: list[str] = []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        out.append(".TP")
        out.append(f"\\fB{_roff(names)}\\fR")
        out.append(_roff(" ".join(help_text.split())) if help_text else "")
    return out


def _arguments(command: Any) -> list[str]:
    out: list[str] = []
    for param in command.params:
        if param.param_type_name == "argument" and getattr(param, "help", None):
            out.append(".TP")
            label = param.metavar or (param.name or "").upper()
            out.append(f"\\fI{_roff(label)}\\fR")
            out.append(_roff(" ".join(param.help.split())))
    return out


def man_pages() -> dict[str, str]:
    """One page per command path: groupctl.1, groupctl-dump.1, groupctl-dump-decode.1, ..."""
    import typer

    from groupctl.cli.app import app

    root = typer.main.get_command(app)
    pages: dict[str, str] = {}
    for path, command in walk(root, [PROG]):
        name = "-".join(path)
        ctx = command.make_context(" ".join(path), [], resilient_parsing=True)
        usage = " ".join(command.collect_usage_pieces(ctx))
        short = (command.get_short_help_str(limit=200) or "").rstrip(".")
        lines = [
            f'.TH "{name.upper()}" "1" "" "groupctl {__version__}" "groupctl manual"',
            ".SH NAME",
            f"{_roff(name)} \\- {_roff(short)}",
            ".SH SYNOPSIS",
            f"\\fB{_roff(' '.join(path))}\\fR {_roff(usage)}",
            ".SH DESCRIPTION",
            _paragraphs(command.help or ""),
        ]
        args = _arguments(command)
        if args:
            lines += [".SH ARGUMENTS", *args]
        options = _option_lines(ctx, command)
        if options:
            lines += [".SH OPTIONS", *options]
        subs = sorted(getattr(command, "commands", {}) or {})
        if subs:
            lines.append(".SH COMMANDS")
            for sub in subs:
                sub_cmd = command.commands[sub]
                lines += [
                    ".TP",
                    f"\\fB{_roff(' '.join([*path, sub]))}\\fR",
                    _roff(sub_cmd.get_short_help_str(limit=200)),
                ]
            lines += [
                ".SH SEE ALSO",
                ", ".join(f"\\fB{_roff('-'.join([*path, s]))}\\fR(1)" for s in subs),
            ]
        pages[f"{name}.1"] = "\n".join(lines) + "\n"
    return pages


def completion_scripts() -> dict[str, str]:
    """bash, zsh and fish scripts that ask `groupctl` itself for completions (Typer's protocol)."""
    from typer._completion_shared import get_completion_script

    from groupctl.cli.app import COMPLETE_VAR

    return {
        filename: get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)
        for shell, filename in SHELLS.items()
    }


def generated_files() -> dict[str, str]:
    """Every generated file, keyed by its path relative to the repository root."""
    files = {f"man/{n}": text for n, text in man_pages().items()}
    files.update({f"completions/{n}": text for n, text in completion_scripts().items()})
    return files


def stale_files(root: Path) -> list[str]:
    """Paths under `root` whose content differs from what the app generates, or that should not exist."""
    expected = generated_files()
    stale = [p for p, text in expected.items() if not (root / p).is_file() or (root / p).read_text() != text]
    for folder in ("man", "completions"):
        for existing in sorted((root / folder).glob("*")) if (root / folder).is_dir() else []:
            rel = f"{folder}/{existing.name}"
            if rel not in expected:
                stale.append(rel)
    return stale


def write_files(root: Path) -> list[str]:
    """Write every generated file under `root`, remove stale ones; return the paths written."""
    expected = generated_files()
    for rel in stale_files(root):
        if rel not in expected:
            (root / rel).unlink()
    for rel, text in expected.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return sorted(expected)
