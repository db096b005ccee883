"""Options shared by many commands, defined once so every command spells them the same way."""

from __future__ import annotations

from dataclasses import dataclass

import typer

from groupctl.output import OutputFormat


@dataclass
class Settings:
    """Global options from the root callback; read by commands and by the error handler."""

    debug: bool = False
    output: OutputFormat | None = None


settings = Settings()

OutputOption = typer.Option(
    None,
    "--output",
    "-o",
    help="How to show the result: table, wide (more columns), json or yaml (one versioned "
    "envelope), csv. Defaults to the global --output, then table.",
    envvar="GROUPCTL_OUTPUT",
    case_sensitive=False,
)


def output_format(value: OutputFormat | None) -> OutputFormat:
    """The command's --output, else the global one, else table."""
    return value or settings.output or OutputFormat.table
