"""A tolerant scanner for RE2 pattern syntax that also names Java and Python constructs.

google-re2 gives the verdict; this scanner exists for what it cannot say: where the broker's
RE2/J and C++ RE2 part ways, what a lint rule should point at, and the structure the bounded
rewrite in `bounded.py` needs. It never raises, so it can describe patterns that do not compile.
Token boundaries follow RE2's own parser (classes end where RE2 ends them, `{` is a repetition
only in RE2's grammar), because the verdict shims cut patterns at these boundaries.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import Enum


class Kind(str, Enum):
    """What a token is in RE2's grammar (FOREIGN and BAD: what RE2 rejects)."""

    LITERAL = "literal"  # one character, in `value`
    CLASS = "class"  # [...]
    ESCAPE_CLASS = "escape-class"  # \d \D \s \S \w \W
    UNICODE_CLASS = "unicode-class"  # \pL \p{Greek} \P{^Greek}
    DOT = "dot"
    ASSERT = "assert"  # ^ $ \A \z \b \B
    ANY_BYTE = "any-byte"  # \C
    OPEN = "open"  # ( (?: (?P<n> (?<n> (?i:
    FLAGS = "flags"  # (?i) (?-s)
    CLOSE = "close"
    ALT = "alt"
    REPEAT = "repeat"  # * + ? {n} {n,} {n,m}, with a lazy `?`
    FOREIGN = "foreign"  # Java/Python syntax RE2 lacks; `construct` names it
    BAD = "bad"  # anything else RE2 rejects


@dataclass
class ClassItem:
    """A `\\p` escape inside a bracket class: RE2/J and C++ RE2 know different names."""

    start: int
    end: int
    name: str
    negated: bool


@dataclass
class Token:
    kind: Kind
    start: int
    end: int
    text: str
    value: str = ""  # LITERAL: the character; named OPEN: the name; FLAGS/OPEN: flag letters; UNICODE_CLASS: name
    min: int = 0
    max: int = -1  # -1: unbounded
    counted: bool = False  # a {n,m} repetition (the only kind C++ RE2 limits)
    valid_count: bool = True
    lazy: bool = False
    negated: bool = False
    construct: str = ""  # FOREIGN: the lint code of the construct; OPEN: "named-group" for (?P<n> and (?<n>
    opens: bool = False  # FOREIGN that opens a group: lookaround, atomic group, ...
    from_quote: bool = False  # LITERAL inside \Q...\E
    items: list[ClassItem] = field(default_factory=list)  # CLASS: its \p escapes
    foreign: list[Token] = field(default_factory=list)  # CLASS: its escapes from other dialects


RE2_FLAGS = frozenset("imsU")
_REPEAT = re.compile(r"\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}")
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")
_C_ESCAPES = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _escape(p: str, i: int, in_class: bool) -> Token:
    """The escape starting at p[i] == '\\' (not \\Q, which the caller handles)."""
    n = len(p)
    j = i + 1
    if j >= n:
        return Token(Kind.BAD, i, n, p[i:], value="trailing-backslash")
    c = p[j]

    def tok(kind: Kind, end: int, **kw) -> Token:
        return Token(kind, i, end, p[i:end], **kw)

    if c in "pP":
        if j + 1 < n and p[j + 1] == "{":
            k = p.find("}", j + 2)
            if k < 0:
                return tok(Kind.BAD, n)
            name, end = p[j + 2 : k], k + 1
        elif j + 1 < n:
            name, end = p[j + 1], j + 2
        else:
            return tok(Kind.BAD, n)
        negated = c == "P"
        if name.startswith("^"):
            negated, name = not negated, name[1:]
        return tok(Kind.UNICODE_CLASS, end, value=name, negated=negated)
    if c in "dDsSwW":
        return tok(Kind.ESCAPE_CLASS, j + 1)
    if not in_class:
        if c in "AbBz":
            return tok(Kind.ASSERT, j + 1)
        if c == "C":
            return tok(Kind.ANY_BYTE, j + 1)
    if c in _OCTAL and (c == "0" or (j + 1 < n and p[j + 1] in _OCTAL)):
        end = j + 1
        while end < n and end < j + 3 and p[end] in _OCTAL:
            end += 1
        return tok(Kind.LITERAL, end, value=chr(int(p[j:end], 8)))
    if c in "123456789":
        return tok(Kind.FOREIGN, j + 1, construct="backreference")
    if c == "x":
        if j + 1 < n and p[j + 1] == "{":
            k = p.find("}", j + 2)
            digits = p[j + 2 : k] if k >= 0 else ""
            if k >= 0 and digits and all(d in _HEX for d in digits) and int(digits, 16) <= 0x10FFFF:
                return tok(Kind.LITERAL, k + 1, value=chr(int(digits, 16)))
            return tok(Kind.BAD, k + 1 if k >= 0 else n)
        digits = p[j + 1 : j + 3]
        if len(digits) == 2 and all(d in _HEX for d in digits):
            return tok(Kind.LITERAL, j + 3, value=chr(int(digits, 16)))
        return tok(Kind.BAD, min(n, j + 3))
    if c in _C_ESCAPES:
        return tok(Kind.LITERAL, j + 1, value=_C_ESCAPES[c])
    if c.isascii() and not c.isalnum():
        return tok(Kind.LITERAL, j + 1, value=c)
    return _foreign_escape(p, i, j, c)


def _foreign_escape(p: str, i: int, j: int, c: str) -> Token:
    """Escapes RE2 rejects: name the Java/Python meaning where there is one."""
    n = len(p)

    def tok(end: int, construct: str, value: str = "") -> Token:
        return Token(Kind.FOREIGN, i, end, p[i:end], value=value, construct=construct)

    if c == "Z":
        return tok(j + 1, "capital-z-anchor")
    if c in "kg" and j + 1 < n and p[j + 1] in "<{'":
        close = {"<": ">", "{": "}", "'": "'"}[p[j + 1]]
        k = p.find(close, j + 2)
        return tok(k + 1 if k >= 0 else n, "backreference")
    if c == "g" and j + 1 < n and (p[j + 1].isdigit() or p[j + 1] == "-"):
        end = j + 2
        while end < n and p[end].isdigit():
            end += 1
        return tok(end, "backreference")
    if c == "u" and all(d in _HEX for d in p[j + 1 : j + 5]) and len(p[j + 1 : j + 5]) == 4:
        return tok(j + 5, "unsupported-escape", chr(int(p[j + 1 : j + 5], 16)))
    if c == "N" and j + 1 < n and p[j + 1] == "{":
        k = p.find("}", j + 2)
        if k >= 0:
            try:
                value = unicodedata.lookup(p[j + 2 : k])
            except KeyError:
                value = ""
            return tok(k + 1, "unsupported-escape", value)
    if c == "c" and j + 1 < n and p[j + 1].isascii():
        return tok(j + 2, "unsupported-escape", chr(ord(p[j + 1].upper()) ^ 0x40))
    if c in "ehHRXVGK":
        return tok(j + 1, "unsupported-escape", "\x1b" if c == "e" else "")
    return Token(Kind.BAD, i, j + 1, p[i : j + 1])


def _class(p: str, i: int) -> Token:
    """The bracket class at p[i] == '[', ended where RE2 ends it."""
    n = len(p)
    j = i + 1
    negated = j < n and p[j] == "^"
    if negated:
        j += 1
    first = True
    items: list[ClassItem] = []
    foreign: list[Token] = []
    while True:
        if j >= n:
            return Token(Kind.CLASS, i, n, p[i:], negated=negated, items=items, foreign=foreign)  # no `]`
        c = p[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if p.startswith("[:", j):
            k = p.find(":]", j + 2)
            if k >= 0:
                j = k + 2
                continue
        if c == "\\":
            esc = _escape(p, j, in_class=True)
            if esc.kind is Kind.UNICODE_CLASS:
                items.append(ClassItem(esc.start, esc.end, esc.value, esc.negated))
            elif esc.kind is Kind.FOREIGN:
                foreign.append(esc)
            j = max(esc.end, j + 1)
            continue
        j += 1
    return Token(Kind.CLASS, i, j, p[i:j], negated=negated, items=items, foreign=foreign)


def _perl_group(p: str, i: int) -> Token:
    """Everything that starts with `(?`: RE2's named groups and flags, and what only Java/Python have."""
    n = len(p)
    rest = p[i:]

    def foreign(construct: str, end: int, *, opens: bool, value: str = "") -> Token:
        return Token(Kind.FOREIGN, i, end, p[i:end], construct=construct, opens=opens, value=value)

    def to_paren(start: int) -> int:
        k = p.find(")", start)
        return k + 1 if k >= 0 else n

    if rest.startswith(("(?=", "(?!")):
        return foreign("lookahead", i + 3, opens=True)
    if rest.startswith(("(?<=", "(?<!")):
        return foreign("lookbehind", i + 4, opens=True)
    if rest.startswith(("(?P<", "(?<")):
        begin = i + (4 if rest.startswith("(?P<") else 3)
        k = p.find(">", begin)
        if k < 0:
            return Token(Kind.BAD, i, begin, p[i:begin])
        return Token(Kind.OPEN, i, k + 1, p[i : k + 1], value=p[begin:k], construct="named-group")
    if rest.startswith("(?>"):
        return foreign("atomic-group", i + 3, opens=True)
    if rest.startswith("(?#"):
        return foreign("inline-comment", to_paren(i + 3), opens=False)
    if rest.startswith("(?P="):
        return foreign("backreference", to_paren(i + 4), opens=False)
    if rest.startswith(("(?P>", "(?&", "(?R)", "(?+")) or re.match(r"\(\?-?\d", rest):
        return foreign("recursion", to_paren(i + 2), opens=False)
    if rest.startswith("(?'"):
        k = p.find("'", i + 3)
        end = k + 1 if k >= 0 else n
        return foreign("quoted-group-name", end, opens=True, value=p[i + 3 : k] if k >= 0 else "")
    if rest.startswith("(?("):
        return foreign("conditional", to_paren(i + 3), opens=True)
    if rest.startswith("(?|"):
        return foreign("branch-reset", i + 3, opens=True)
    # Flags: RE2 takes [imsU]* optionally followed by '-' and at least one more flag, then ':' or ')'.
    j = i + 2
    while j < n and p[j] not in ":)" and (p[j].isalpha() or p[j] == "-"):
        j += 1
    if j >= n or p[j] not in ":)":
        return Token(Kind.BAD, i, min(n, j + 1), p[i : min(n, j + 1)])
    letters = p[i + 2 : j]
    opens = p[j] == ":"
    if set(letters) - RE2_FLAGS - {"-"}:
        return foreign("unsupported-flag", j + 1, opens=opens, value=letters)
    _on, dash, off = letters.partition("-")
    if (dash and not off) or "-" in off:
        return Token(Kind.BAD, i, j + 1, p[i : j + 1], value=letters)
    return Token(Kind.OPEN if opens else Kind.FLAGS, i, j + 1, p[i : j + 1], value=letters)


def _repeat(p: str, i: int) -> Token | None:
    """A `{n}`, `{n,}` or `{n,m}` repetition at p[i] in RE2's grammar, or None when `{` is a literal."""
    m = _REPEAT.match(p, i)
    if not m:
        return None
    lo = int(m.group(1))
    hi = lo if not m.group(2) else (int(m.group(3)) if m.group(3) is not None else -1)
    valid = lo <= 1000 and (hi == -1 or (hi <= 1000 and lo <= hi))
    return Token(Kind.REPEAT, i, m.end(), m.group(0), min=lo, max=hi, counted=True, valid_count=valid)


def tokenize(p: str) -> list[Token]:
    """Split a pattern into RE2 tokens; \\Q...\\E becomes one LITERAL per quoted character."""
    tokens: list[Token] = []
    n = len(p)
    i = 0
    while i < n:
        c = p[i]
        tok: Token | None
        if c == "\\":
            if p.startswith("\\Q", i):
                k = p.find("\\E", i + 2)
                stop = k if k >= 0 else n
                tokens.extend(
                    Token(Kind.LITERAL, j, j + 1, p[j], value=p[j], from_quote=True) for j in range(i + 2, stop)
                )
                i = k + 2 if k >= 0 else n
                continue
            tok = _escape(p, i, in_class=False)
        elif c == "[":
            tok = _class(p, i)
        elif c == "(":
            tok = _perl_group(p, i) if p.startswith("(?", i) else Token(Kind.OPEN, i, i + 1, "(")
        elif c == ")":
            tok = Token(Kind.CLOSE, i, i + 1, c)
        elif c == "|":
            tok = Token(Kind.ALT, i, i + 1, c)
        elif c in "^$":
            tok = Token(Kind.ASSERT, i, i + 1, c)
        elif c == ".":
            tok = Token(Kind.DOT, i, i + 1, c)
        elif c in "*+?":
            tok = Token(Kind.REPEAT, i, i + 1, c, min=0 if c != "+" else 1, max=1 if c == "?" else -1)
        elif c == "{":
            tok = _repeat(p, i) or Token(Kind.LITERAL, i, i + 1, c, value=c)
        else:
            tok = Token(Kind.LITERAL, i, i + 1, c, value=c)
        if tok.kind is Kind.REPEAT and tok.end < n and p[tok.end] == "?":
            tok.end += 1
            tok.text += "?"
            tok.lazy = True
        tokens.append(tok)
        i = max(tok.end, i + 1)
    return tokens


_META = frozenset("\\.+*?()|[]{}^$-&#~")


def literal_source(tok: Token) -> str:
    """A LITERAL token written back into a pattern, lexed the same whatever precedes it.

    A plain character stays as it was. One that came from an escape or from \\Q...\\E is written as
    `\\x{..}` when it is a letter or digit, so that it cannot join a preceding escape (`\\0`
    followed by a quoted `1` would otherwise read as the octal escape `\\01`).
    """
    if tok.text == tok.value and not tok.from_quote:
        return tok.text
    if tok.value.isascii() and tok.value.isalnum():
        return f"\\x{{{ord(tok.value):X}}}"
    return literal_text(tok.value)


def literal_text(c: str) -> str:
    """A character written so that RE2 reads it as itself, inside a class or out."""
    if c in _META:
        return "\\" + c
    if c.isprintable() and c != " ":
        return c
    return f"\\x{{{ord(c):X}}}"
