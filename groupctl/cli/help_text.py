"""Help text made ready for Typer's Rich renderer, at the moment help is shown.

Typer reads every help string as Rich markup, so a `[a-z...]` in it is taken for a style tag and
vanishes; and it keeps a docstring's single line breaks after the first paragraph, so a paragraph
wrapped in the source wraps a second time on the screen. groupctl's help is plain prose, never
markup: `install` gives every command of the click tree a context whose `get_help` first reflows
and escapes that command's text (and its subcommands' summaries) and attaches its examples as the
epilog. Only a help request pays for it, so start-up stays as it was, and the tree that runs
commands and answers completions keeps its text as written.
"""

from __future__ import annotations

import re
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

#: What Rich takes for a tag: `[` then a lowercase letter, `#`, `/` or `@`, up to the next `]` with no
#: `[` in between. Backslashes right before it are Rich's escapes, so they are doubled to stay text.
_TAG = re.compile(r"(\\*)(\[[a-z#/@][^\[]*?\])")
_PREPARED = "_groupctl_help_ready"
_SUMMARISED = "_groupctl_summary_ready"


def escape_markup(text: str) -> str:
    """`text` as Rich shows it literally: each tag-like bracket escaped, backslashes before it kept."""
    return _TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), text)


def reflow(text: str) -> str:
    """Paragraphs joined into single lines, so the renderer wraps them once, to the terminal's width.

    A paragraph starting with click's `\\b` marker keeps its lines, as click's own formatter does;
    what follows a `\\f` is not shown at all.
    """
    paragraphs = re.split(r"\n[ \t]*\n", text.partition("\f")[0].strip())
    return "\n\n".join(p if p.lstrip(" ").startswith("\b") else " ".join(p.split()) for p in paragraphs)


def _summary(command: Any) -> None:
    """The text a group's command list shows for `command` (and the top of its own help); once."""
    if getattr(command, _SUMMARISED, False):
        return
    setattr(command, _SUMMARISED, True)
    if command.help:
        command.help = escape_markup(reflow(command.help))
    if command.short_help:
        command.short_help = escape_markup(command.short_help)


def prepare(command: Any, path: list[str]) -> None:
    """Ready `command` (at `path`, without the program name) and its subcommands' summaries; once."""
    if getattr(command, _PREPARED, False):
        return
    from groupctl.cli.examples import epilog

    setattr(command, _PREPARED, True)
    _summary(command)
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = escape_markup(text)
    command.epilog = escape_markup(epilog(path)) or command.epilog
    for sub in (getattr(command, "commands", None) or {}).values():
        _summary(sub)


class HelpContext(typer.Context):
    """A context that readies its command's help text when the help is asked for."""

    def get_help(self) -> str:
        from groupctl.cli.help_format import plain_flags

        prepare(self.command, self.command_path.split()[1:])
        plain_flags(self.command, self)
        return super().get_help()


def install(root: Any) -> None:
    """Give every Typer command under `root` the help-readying context (cheap: one attribute each)."""
    stack = [root]
    while stack:
        command = stack.pop()
        if isinstance(command, TyperCommand | TyperGroup):
            command.context_class = HelpContext
        stack.extend((getattr(command, "commands", None) or {}).values())
