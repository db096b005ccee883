"""--help shows a flag as a flag: no `<bool>` in the column where an option's value is described.

An argument is shown by its name (GROUP, PATH...), which says what it takes; Typer's type label beside
it (`<list[str]>`, `<str>`) only repeats the Python type, so it is dropped too, keeping a label that
lists choices.

Typer's Rich help fills that column from each option's type, flags included, so `--dry-run`,
`--yes` and `--help` itself read as if they took a value (`--yes <bool>`). An option's metavar, when
set, is what the column shows; a flag takes no value, so its metavar is made empty, when the help is
shown (see `help_text.HelpContext`): the command's own flags, and the `--help` option Click makes
for that context.
"""

from __future__ import annotations

from typing import Any


def _plain(option: Any) -> None:
    if getattr(option, "is_flag", False) or getattr(option, "count", False):
        option.metavar = ""


def _untyped(argument: Any) -> None:
    shown = getattr(argument, "display_type_rich", None)
    if shown is None:
        return

    def label(ctx: Any, _shown: Any = shown) -> str | None:
        text = _shown(ctx=ctx)
        return text if text and "|" in text else None

    argument.display_type_rich = label


def plain_flags(command: Any, ctx: Any) -> None:
    """Give every flag of `command`, and its --help in `ctx`, an empty metavar; arguments lose the
    Python type label."""
    for param in command.params:
        _plain(param)
        if getattr(param, "param_type_name", "") == "argument":
            _untyped(param)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        _plain(help_option)
