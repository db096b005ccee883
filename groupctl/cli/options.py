"""Options shared by many commands, defined once so every command spells them the same way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import typer

from groupctl.output import OutputFormat


@dataclass
class Settings:
    """Global options from the root callback; read by commands and by the error handler."""

    debug: bool = False
    output: OutputFormat | None = None
    #: A bare --timeout under a second as given (`15`: 15 ms); a failure then says how to write seconds.
    short_bare_timeout: str | None = None


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


def path_parser(what: str, *, directory: bool = True) -> Callable[[str | Path], Path]:
    """A Typer `parser=` for a path option: an empty value is a usage error (exit 2), where Path("") would
    silently be the current directory. An empty environment variable never gets here: Click takes it as unset."""

    def parse(value: str | Path) -> Path:
        if isinstance(value, Path):
            return value
        if value == "":
            hint = " (`.` for the current directory)" if directory else ""
            raise typer.BadParameter(f"the value is empty; give the {what}{hint}")
        return Path(value)

    return parse


INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
_WIDTHS = {32: INT32_MAX, 64: INT64_MAX}


def kafka_int(field: str, width: int = 64) -> Callable[[typer.Context, typer.CallbackParam, int | None], int | None]:
    """A Typer callback bounding an integer option to the Kafka field it ends up in (`field`, an int32 or
    int64), so a value no record or request can hold is a usage error (exit 2) at parse time, not a
    failure when a record is encoded. Signs and smaller ranges stay the command's own checks."""
    high = _WIDTHS[width]

    def callback(ctx: typer.Context, param: typer.CallbackParam, value: int | None) -> int | None:
        if ctx.resilient_parsing or value is None:
            return value
        if not -high - 1 <= value <= high:
            raise typer.BadParameter(f"{value} does not fit {field}, an int{width} in Kafka "
                                     f"({-high - 1} .. {high})")
        return value

    return callback


def short_timeout_note(given: str) -> str:
    """What to say after a failure when --timeout was a bare number under a second."""
    return (f"groupctl: note: --timeout {given} is {given} ms: a bare number is milliseconds, as "
            f"kafka-consumer-groups.sh reads it; for {given} seconds give --timeout {given}s")
