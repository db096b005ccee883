"""Java `.properties` files, as `Properties.load` reads them, and `-X key=value` overrides.

Operators pass the file their Java tools use (`--command-config client.properties`); the same
syntax also covers librdkafka files (plain `key=value` lines). Rules (java.util.Properties):
`#` or `!` starts a comment line; a key ends at the first unescaped `=`, `:` or whitespace; a
backslash at the end of a line continues it (the next line's leading whitespace dropped); `\\t \\n
\\r \\f \\uXXXX` are escapes and any other escaped character stands for itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

from groupctl.errors import GroupctlError, UsageError
from groupctl.small_files import read_small_bytes

_ESCAPES: Final = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_WHITESPACE: Final = " \t\f"
_UNICODE: Final = re.compile(r"[0-9a-fA-F]{4}")


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """`(first line number, logical line)`, joining continuations and skipping comments and blanks."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        number = i + 1
        line = lines[i].lstrip(_WHITESPACE)
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line) and i < len(lines):
            line = line[:-1] + lines[i].lstrip(_WHITESPACE)
            i += 1
        if _continues(line):
            line = line[:-1]
        yield number, line


def _continues(line: str) -> bool:
    """An odd number of trailing backslashes: the last one escapes the line break."""
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _unescape(text: str, where: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 == len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "u":
            digits = text[i + 2 : i + 6]
            if not _UNICODE.fullmatch(digits):
                raise GroupctlError(f"{where}: malformed \\uxxxx escape")
            out.append(chr(int(digits, 16)))
            i += 6
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        i += 2
    return "".join(out)


def _split(line: str) -> tuple[str, str]:
    """Key and raw value of one logical line."""
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "=:" or ch in _WHITESPACE:
            break
        i += 1
    key = line[:i]
    rest = line[i:].lstrip(_WHITESPACE)
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(_WHITESPACE)
    return key, rest


def parse_properties(text: str, source: str = "properties") -> dict[str, str]:
    """The key/value pairs of a properties text; a later key replaces an earlier one."""
    props: dict[str, str] = {}
    for number, line in _logical_lines(text):
        raw_key, raw_value = _split(line)
        where = f"{source}, line {number}"
        props[_unescape(raw_key, where)] = _unescape(raw_value, where)
    return props


def load_properties(path: str | Path) -> dict[str, str]:
    """Read a properties file: UTF-8, or ISO-8859-1 (Java's own encoding for them) when it is not."""
    path = Path(path)
    try:
        raw = read_small_bytes(path, "client config")
    except OSError as exc:
        raise GroupctlError(f"cannot read the client config {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("iso-8859-1")
    return parse_properties(text.removeprefix("\ufeff"), str(path))


def parse_overrides(items: Iterable[str]) -> dict[str, str]:
    """`-X key=value` arguments (librdkafka's and kcat's spelling), in order."""
    props: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"-X {item!r}: expected key=value")
        props[key] = value
    return props
