"""Java bracket classes with nesting and `&&`, evaluated over ASCII to suggest an RE2 class.

RE2 has neither class union by nesting (`[a-c[x-z]]`) nor intersection (`[a-z&&[^aeiou]]`);
it reads the inner `[` and `&` as literal characters. Every legal topic-name character is
ASCII, so the Java class's ASCII members, written as one flat RE2 class, select the same topics.
"""

from __future__ import annotations

import unicodedata

ASCII = frozenset(chr(c) for c in range(128))
_DIGITS = frozenset("0123456789")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SPACE = frozenset(" \t\n\x0b\f\r")
_POSIX = {
    "Lower": frozenset("abcdefghijklmnopqrstuvwxyz"),
    "Upper": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "ASCII": ASCII,
    "Alpha": frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "Digit": _DIGITS,
    "Alnum": _WORD - {"_"},
    "Punct": frozenset(c for c in ASCII if c.isprintable() and not c.isalnum() and c != " "),
    "Graph": frozenset(chr(c) for c in range(0x21, 0x7F)),
    "Print": frozenset(chr(c) for c in range(0x20, 0x7F)),
    "Blank": frozenset(" \t"),
    "Cntrl": frozenset(chr(c) for c in range(0x20)) | {"\x7f"},
    "XDigit": frozenset("0123456789abcdefABCDEF"),
    "Space": _SPACE,
}
_ESCAPE_SETS = {"d": _DIGITS, "w": _WORD, "s": _SPACE}
_SIMPLE = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\a", "e": "\x1b"}


class _GiveUp(Exception):
    pass


def _property(name: str) -> frozenset[str]:
    if name in _POSIX:
        return _POSIX[name]
    name = name.removeprefix("Is")
    if 1 <= len(name) <= 2 and name[0].isupper():
        return frozenset(c for c in ASCII if unicodedata.category(c).startswith(name))
    raise _GiveUp


def _escape(p: str, j: int) -> tuple[frozenset[str], int]:
    """The members of the Java escape at p[j] == '\\' and the position after it."""
    if j + 1 >= len(p):
        raise _GiveUp
    c = p[j + 1]
    if c.lower() in _ESCAPE_SETS:
        members = _ESCAPE_SETS[c.lower()]
        return (ASCII - members if c.isupper() else members), j + 2
    if c in "pP":
        if p.startswith("{", j + 2):
            k = p.find("}", j + 3)
            if k < 0:
                raise _GiveUp
            name, end = p[j + 3 : k], k + 1
        else:
            name, end = p[j + 2 : j + 3], j + 3
        members = _property(name)
        return (ASCII - members if c == "P" else members), end
    if c in _SIMPLE:
        return frozenset(_SIMPLE[c]), j + 2
    if c == "x" and len(p) >= j + 4:
        return frozenset(chr(int(p[j + 2 : j + 4], 16))), j + 4
    if c == "u" and len(p) >= j + 6:
        return frozenset(chr(int(p[j + 2 : j + 6], 16))), j + 6
    if c.isascii() and not c.isalnum():
        return frozenset(c), j + 2
    raise _GiveUp


def _single(p: str, j: int) -> tuple[str, int]:
    """One character (a range end) at p[j]."""
    if p[j] == "\\":
        members, end = _escape(p, j)
        if len(members) != 1:
            raise _GiveUp
        return next(iter(members)), end
    return p[j], j + 1


def _parse(p: str, i: int) -> tuple[frozenset[str], int]:
    n = len(p)
    j = i + 1
    negated = j < n and p[j] == "^"
    if negated:
        j += 1
    operands: list[frozenset[str]] = []
    current: set[str] = set()
    first = True
    while True:
        if j >= n:
            raise _GiveUp
        c = p[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if p.startswith("&&", j):
            operands.append(frozenset(current))
            current = set()
            j += 2
        elif c == "[":
            members, j = _parse(p, j)
            current |= members
        elif c == "\\" and p[j + 1 : j + 2] in ("d", "D", "w", "W", "s", "S", "p", "P"):
            members, j = _escape(p, j)
            current |= members
        else:
            lo, j = _single(p, j)
            if p.startswith("-", j) and j + 1 < n and p[j + 1] not in "][":
                hi, j = _single(p, j + 1)
                if hi < lo:
                    raise _GiveUp
                current |= {chr(x) for x in range(ord(lo), ord(hi) + 1) if x < 128}
            else:
                current.add(lo)
    members = frozenset(current)
    for operand in operands:
        members &= operand
    members &= ASCII
    return (ASCII - members if negated else members), j


def java_class(p: str, i: int) -> tuple[frozenset[str], int] | None:
    """The ASCII members of the Java class starting at p[i] == '[' and where it ends, or None."""
    try:
        return _parse(p, i)
    except (_GiveUp, ValueError):
        return None


def _class_char(c: str) -> str:
    if c in "]\\^-[":
        return "\\" + c
    if c.isprintable() and c != " ":
        return c
    return f"\\x{{{ord(c):02X}}}"


def re2_class(members: frozenset[str]) -> str:
    """The members as one RE2 class with ranges (`[b-df-hj-np-tv-z]`)."""
    codes = sorted(ord(c) for c in members)
    parts: list[str] = []
    k = 0
    while k < len(codes):
        start = k
        while k + 1 < len(codes) and codes[k + 1] == codes[k] + 1:
            k += 1
        lo, hi = chr(codes[start]), chr(codes[k])
        if k - start >= 2:
            parts.append(f"{_class_char(lo)}-{_class_char(hi)}")
        else:
            parts.extend(_class_char(chr(c)) for c in codes[start : k + 1])
        k += 1
    if not parts:
        return "[^\\x00-\\x{10FFFF}]"
    return "[" + "".join(parts) + "]"
