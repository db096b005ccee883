"""Man pages, shell-completion scripts and the README's generated parts, from the Typer app itself.

Generated, not written by hand, so they cannot drift from the commands; a test compares the
committed files in `man/` and `completions/`, and the README's marked blocks, with what this module
produces now. The man pages' EXAMPLES come from `examples`, EXIT STATUS from `errors.EXIT_STATUSES`
(as does the README's table), ENVIRONMENT from the options' environment variables and a small table
of the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from groupctl import __version__
from groupctl.errors import EXIT_FINDINGS, EXIT_STATUSES

PROG = "groupctl"
README = "README.md"
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


def _subtree(command: Any) -> Iterator[Any]:
    for _path, each in walk(command, []):
        yield each


def _option_names(command: Any) -> set[str]:
    return {name for each in _subtree(command) for p in each.params for name in p.opts}


def exit_statuses(command: Any) -> list[tuple[int, str]]:
    """The exit codes a command (or any of its subcommands) can end with, and what each means."""
    fail_on = "--fail-on" in _option_names(command)
    return [(code, meaning) for code, meaning in EXIT_STATUSES if code != EXIT_FINDINGS or fail_on]


def other_environment() -> dict[str, tuple[str, str | None]]:
    """Variables read other than as an option's default: name -> (meaning, the option of the commands
    that read it; None: the program itself)."""
    from groupctl.cli.app import COMPLETE_VAR
    from groupctl.kafka.config import SECRET_ENV
    from groupctl.log.fast import PURE_ENV

    table: dict[str, tuple[str, str | None]] = {
        variable: (f"The client property {prop}, over the --command-config file: a secret kept out of the "
                   "file, the shell history and ps.", "--command-config")
        for prop, variable in SECRET_ENV.items()
    }
    table["JAVA_HOME"] = ("The Java runtime (17 or later) Spark runs on; else the java on PATH.", "--master")
    table["GROUPCTL_CONFIG"] = ("The config file of named clusters (contexts); else "
                                "$XDG_CONFIG_HOME/groupctl/config.toml, else ~/.config/groupctl/config.toml.",
                                "--context")
    table[PURE_ENV] = ("Set to 1, the dump commands read with the pure-Python record loop and the uniform "
                       "assignor runs its pure-Python builders, rather than the compiled ones (same "
                       "output, slower); groupctl --version says which run.", None)
    table["GROUPCTL_EVENT_LOOP"] = ("asyncio or uvloop: the event loop serve runs on (default uvloop where "
                                    "installed); both serve alike.", "--max-connections")
    table[COMPLETE_VAR] = ("Set by the scripts in completions/ to ask groupctl for completions; not for "
                           "use by hand.", None)
    return table


def environment(command: Any, *, root: bool) -> list[tuple[str, str]]:
    """Every environment variable a command (or any of its subcommands) reads, with what it does."""
    found: dict[str, str] = {}
    for each in _subtree(command):
        for param in each.params:
            envvar = getattr(param, "envvar", None)
            for variable in [envvar] if isinstance(envvar, str) else envvar or []:
                if variable not in found:
                    names = ", ".join(param.opts)
                    found[variable] = f"The default of {names}: " + " ".join((param.help or "").split())
    options = _option_names(command)
    for variable, (meaning, option) in other_environment().items():
        if (option is None and root) or (option is not None and option in options):
            found.setdefault(variable, meaning)
    return sorted(found.items())


def _examples_section(path: list[str]) -> list[str]:
    from groupctl.cli.examples import examples

    lines: list[str] = []
    for example in examples(path[1:]):
        lines += [".PP", _roff(example.why + ":"), ".RS 4", ".nf", f"\\fB{_roff(example.command)}\\fR", ".fi",
                  ".RE"]
    return [".SH EXAMPLES", *lines] if lines else []


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
        lines.append(".SH EXIT STATUS")
        for code, meaning in exit_statuses(command):
            lines += [".TP", f"\\fB{code}\\fR", _roff(meaning.replace("`", ""))]
        variables = environment(command, root=len(path) == 1)
        if variables:
            lines.append(".SH ENVIRONMENT")
            for variable, meaning in variables:
                lines += [".TP", f"\\fB{_roff(variable)}\\fR", _roff(meaning)]
        lines += _examples_section(path)
        if subs:
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


def readme_blocks() -> dict[str, str]:
    """The README's generated parts, by name: each sits between its two marker comments."""
    rows = "".join(f"| {code} | {meaning} |\n" for code, meaning in EXIT_STATUSES)
    # Blank lines around each part keep the marker comments out of the Markdown table.
    return {"exit-codes": "\n| exit | meaning |\n|---|---|\n" + rows + "\n"}


_README_BLOCK = re.compile(
    r"(?P<start><!-- generated by scripts/gen_docs.py: (?P<name>[a-z-]+) -->\n).*?(?P<end><!-- end of (?P=name) -->)",
    re.S,
)


def readme_text(current: str) -> str:
    """`current` README text with every generated part as the app makes it now (the rest as written)."""
    blocks = readme_blocks()
    return _README_BLOCK.sub(lambda m: m["start"] + blocks[m["name"]] + m["end"], current)


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
    readme = root / README
    if readme.is_file() and readme_text(text := readme.read_text()) != text:
        stale.append(README)
    return stale


def write_files(root: Path) -> list[str]:
    """Write every generated file under `root` and the README's generated parts, remove stale files;
    return the paths written."""
    expected = generated_files()
    for rel in stale_files(root):
        if rel not in expected and rel != README:
            (root / rel).unlink()
    for rel, text in expected.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    readme = root / README
    if readme.is_file():
        readme.write_text(readme_text(readme.read_text()))
        expected[README] = ""
    return sorted(expected)
