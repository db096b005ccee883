"""--help shows a flag as a flag: no `<bool>` in the column where an option's value is described.

Typer's Rich help fills that column from each option's type, flags included, so `--dry-run`,
`--yes` and `--help` itself read as if they took a value (`--yes <bool>`). An option's metavar, when
set, is what the column shows; a flag takes no value, so its metavar is made empty here, once, on the
built command tree. The `--help` option is made by Click per command on first use; it is made here
with the context the command will get (the same help option names), so it is the one later shown.
"""

from __future__ import annotations

from typing import Any


def _plain(option: Any) -> None:
    if getattr(option, "is_flag", False) or getattr(option, "count", False):
        option.metavar = ""


def plain_flags(command: Any, name: str = "groupctl", parent: Any = None) -> None:
    """Give every flag of `command` and its subcommands (and their --help) an empty metavar."""
    for param in command.params:
        _plain(param)
    ctx = command.context_class(command, info_name=name, parent=parent, **command.context_settings)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        _plain(help_option)
    for sub_name, sub in (getattr(command, "commands", None) or {}).items():
        plain_flags(sub, sub_name, ctx)
