"""Durations on the command line: `30s`, `5000ms`, `2m`, `1.5s`, `1h`; a bare number is seconds.

Operators copy values from Kafka settings (milliseconds) and from other tools (seconds, minutes),
so every option that takes a time says its unit or takes seconds, except where a Kafka tool's option
of the same name takes milliseconds: `--timeout 5000` is 5 s, as kafka-consumer-groups.sh reads it.
The range is checked here, at parse time, so a value no socket or librdkafka call can take is a usage
error (exit 2) naming the accepted forms, never a ValueError deep in a client library.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Final

import typer

UNITS: Final = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
MIN_S: Final = 0.001
"""1 ms: the finest step Kafka's own timeouts (`*.ms` settings) take."""
MAX_S: Final = 24 * 3600.0
"""24 h: far above any wait a command needs, and well inside what sockets, threads and librdkafka accept."""
BARE_UNITS: Final = {"s": "seconds", "ms": "milliseconds"}


def forms(bare_unit: str = "s") -> str:
    """The accepted forms, for help texts and error messages."""
    return f"30s, 5000ms, 2m or 1.5s (a bare number is {BARE_UNITS[bare_unit]})"


_DURATION: Final = re.compile(r"(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(?P<unit>[a-z]*)")


def _text(seconds: float) -> str:
    return f"{seconds * 1000:g}ms" if seconds < 1 else f"{seconds:g}s"


def parse_duration(value: str | float, *, allow_zero: bool = False, bare_unit: str = "s") -> float:
    """Seconds for `value`, a number without a unit being in `bare_unit`; ValueError with the accepted
    forms and range when it is not one. A number that is not text is seconds."""
    accepted = forms(bare_unit)
    low = f"0 ({_text(MIN_S)} and more)" if allow_zero else _text(MIN_S)
    span = f"from {low} to {MAX_S / 3600:g}h"
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        text = value.strip().lower()
        match = _DURATION.fullmatch(text)
        if match is None:
            sign = "a duration cannot be negative; " if text.startswith("-") else ""
            raise ValueError(f"'{value}' is not a duration: {sign}write {accepted}, {span}")
        unit = match.group("unit") or bare_unit
        if unit not in UNITS:
            raise ValueError(f"'{value}': unknown unit '{unit}'; the units are {', '.join(UNITS)}: write {accepted}")
        seconds = float(match.group("number")) * UNITS[unit]
    zero_ok = allow_zero and seconds == 0
    if not math.isfinite(seconds) or seconds > MAX_S or (seconds < MIN_S and not zero_ok):
        raise ValueError(f"'{value}' is out of range: give {span}, e.g. {accepted}")
    return seconds


def duration_option(*, allow_zero: bool = False, bare_unit: str = "s") -> Callable[[str | float], float]:
    """A Typer `parser=` for a duration option: a bad value is Click's usage error (exit 2)."""

    def parse(value: str | float) -> float:
        try:
            return parse_duration(value, allow_zero=allow_zero, bare_unit=bare_unit)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    return parse
