"""Names checked as Kafka checks them, at parse time, so a bad one is refused before anything is written.

Kafka sends group ids, member ids, instance ids and topic names as STRINGs: UTF-8 behind an int16
length, so at most 32767 bytes. A shell can pass bytes that are not UTF-8 (`$'grp-\\xff'`); Python
hands them over as lone surrogates, which a local DIR would store and then fail to encode on every
later command. Topic names follow Kafka's `Topic.validate` as well. Each check is a Typer callback
on the option or argument, and refuses with a usage error (exit 2) naming the option and the fix.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from groupctl.errors import KafkaError, UsageError

__all__ = [
    "MAX_STRING_BYTES",
    "check_group_id",
    "check_name",
    "check_topic",
    "group_ids_callback",
    "name_callback",
    "shown",
    "topics_callback",
    "utf8_callback",
]

#: The longest Kafka STRING (an int16 length), in UTF-8 bytes.
MAX_STRING_BYTES = 32767
_PREVIEW = 40

Value = str | list[str] | None
Callback = Callable[[typer.Context, typer.CallbackParam, Value], Value]


def shown(value: str) -> str:
    """`value` as the user typed it: bytes that are not UTF-8 as \\xNN, long names cut short."""
    text = value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text if len(text) <= _PREVIEW else f"{text[:_PREVIEW]}... ({len(text)} characters)"


def check_name(value: str, option: str, what: str) -> str:
    """Any string Kafka can carry: valid UTF-8 and at most 32767 bytes in it."""
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise UsageError(f"{option}: '{shown(value)}' is not valid UTF-8, and Kafka sends a {what} as UTF-8; "
                         "pass the name in UTF-8 (check the shell's quoting and the terminal's encoding)") from None
    if size > MAX_STRING_BYTES:
        raise UsageError(f"{option}: the {what} '{shown(value)}' is {size} bytes in UTF-8, over the "
                         f"{MAX_STRING_BYTES} a Kafka string can hold; use a shorter one")
    return value


def check_group_id(value: str, option: str = "GROUP") -> str:
    return check_name(value, option, "group id")


def check_topic(value: str, option: str = "NAME") -> str:
    """A UTF-8 name, then Kafka's topic rules: 1-249 of [a-zA-Z0-9._-], not '.' or '..'."""
    from groupctl.coordinator.topics import validate_topic_name

    check_name(value, option, "topic name")
    try:
        validate_topic_name(value)
    except KafkaError as exc:
        raise UsageError(f"{option}: {exc}; Kafka's topic names are 1 to 249 ASCII letters, digits, '.', '_' "
                         "and '-'") from None
    return value


def _option(param: typer.CallbackParam) -> str:
    opts = [o for o in param.opts if o.startswith("--")]
    return opts[0] if opts else (getattr(param, "metavar", None) or (param.name or "value").upper())


def _each(ctx: typer.Context, value: Value, check: Callable[[str], object]) -> Value:
    if ctx.resilient_parsing or value is None:  # shell completion parses without validating
        return value
    for item in [value] if isinstance(value, str) else value:
        check(item)
    return value


def group_ids_callback(ctx: typer.Context, param: typer.CallbackParam, value: Value) -> Value:
    """Typer callback for a group id option or argument (one or many)."""
    return _each(ctx, value, lambda v: check_group_id(v, _option(param)))


def topics_callback(ctx: typer.Context, param: typer.CallbackParam, value: Value) -> Value:
    """Typer callback for topic names; a comma-separated list is checked name by name."""
    def check(item: str) -> None:
        for name in item.split(","):
            if name.strip():
                check_topic(name.strip(), _option(param))

    return _each(ctx, value, check)


def name_callback(what: str) -> Callback:
    """A Typer callback for any other Kafka string (member id, instance id, member name, reason, regex)."""
    def callback(ctx: typer.Context, param: typer.CallbackParam, value: Value) -> Value:
        return _each(ctx, value, lambda v: check_name(v, _option(param), what))

    return callback


def utf8_callback(what: str) -> Callback:
    """A Typer callback for an option that is text, not a Kafka STRING (a bootstrap address, a client
    property): it must still be valid UTF-8, since it is sent, or handed to librdkafka, as UTF-8."""
    def callback(ctx: typer.Context, param: typer.CallbackParam, value: Value) -> Value:
        option = next((o for o in param.opts if o.startswith("--")), param.opts[0] if param.opts else "value")

        def check(item: str) -> None:
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise UsageError(f"{option}: '{shown(item)}' is not valid UTF-8; give the {what} in UTF-8 "
                                 "(check the shell's quoting and the terminal's encoding)") from None

        return _each(ctx, value, check)

    return callback
