"""The broker's verdict on a pattern: C++ RE2's parser, corrected where RE2/J disagrees.

RE2/J and C++ RE2 share a grammar but not every rule:

- `\\C` (any byte): C++ RE2 accepts it, RE2/J rejects it ("invalid escape sequence").
- Group names: RE2/J rejects a repeated name ("duplicate capture group name") and names outside
  [A-Za-z0-9_] ("invalid named capture"); C++ RE2 accepts both.
- Nested repetition: C++ RE2 refuses `(a{2}){501}` (the counts multiply past 1000) and large
  programs (`\\pL{1000}`); RE2/J checks each count alone and has no size limit.
- `\\p{...}` names: RE2/J has Unicode 6.0 tables and an `Unknown` script; C++ RE2 has newer
  scripts and no `Unknown`.
- Counts with more digits than an int holds (`a{1234567890123}`): literal text for C++ RE2, an
  invalid repeat count for RE2/J.

So C++ RE2 parses a neutralised copy: counts set to 1, named groups made plain, `\\C` and RE2/J-known
`\\p` names replaced by equivalents it accepts. What it still rejects is an error for RE2/J
too. The RE2/J-only errors found by the scanner are then ordered against C++ RE2's first error
by parsing the prefix before them, because both parsers stop at the first error, left to right.
"""

from __future__ import annotations

from groupctl.regex import re2j
from groupctl.regex.engine import TOO_LARGE, cpp_error
from groupctl.regex.syntax import Kind, Token, literal_source, tokenize


def _unicode(name: str, negated: bool, original: str) -> str:
    if name in re2j.UNICODE_NAMES:
        return "\\PL" if negated else "\\pL"
    return original


def _class_text(tok: Token, stop: int | None = None) -> str:
    """The class with RE2/J-known `\\p` names neutralised; up to `stop` (a position) when given."""
    out, pos = [], tok.start
    end = tok.end if stop is None else stop
    for item in tok.items:
        if item.start >= end:
            break
        out.append(_pattern_slice(tok, pos, item.start))
        out.append(_unicode(item.name, item.negated, _pattern_slice(tok, item.start, item.end)))
        pos = item.end
    out.append(_pattern_slice(tok, pos, end))
    return "".join(out)


def _pattern_slice(tok: Token, start: int, end: int) -> str:
    return tok.text[start - tok.start : end - tok.start]


def neutral_text(tokens: list[Token]) -> str:
    """The tokens as a pattern C++ RE2 parses exactly when RE2/J does, apart from RE2/J-only errors."""
    out = []
    for tok in tokens:
        if tok.kind is Kind.LITERAL:
            out.append(literal_source(tok))
        elif tok.kind is Kind.REPEAT and tok.counted and tok.valid_count:
            out.append("{1}?" if tok.lazy else "{1}")
        elif tok.kind is Kind.ANY_BYTE:
            out.append(".")
        elif tok.kind is Kind.OPEN and tok.construct == "named-group" and re2j.valid_group_name(tok.value):
            out.append("(?:")
        elif tok.kind is Kind.UNICODE_CLASS:
            out.append(_unicode(tok.value, tok.negated, tok.text))
        elif tok.kind is Kind.CLASS:
            out.append(_class_text(tok))
        else:
            out.append(tok.text)
    return "".join(out)


def _re2j_only_error(tokens: list[Token]) -> tuple[str, str] | None:
    """The first error RE2/J raises that C++ RE2 does not: (the neutral text before it, description)."""
    names: set[str] = set()
    for k, tok in enumerate(tokens):
        description = None
        prefix_extra = ""
        if tok.kind is Kind.ANY_BYTE:
            description = re2j.INVALID_ESCAPE
        elif tok.kind is Kind.REPEAT and not tok.valid_count:
            # C++ RE2 reads a count too long for an int as literal text; RE2/J rejects every bad count.
            description = re2j.INVALID_REPEAT_SIZE
        elif tok.kind is Kind.OPEN and tok.construct == "named-group":
            if not re2j.valid_group_name(tok.value):
                description = re2j.INVALID_NAMED_CAPTURE
            elif tok.value in names:
                description = re2j.DUPLICATE_NAMED_CAPTURE
            names.add(tok.value)
        elif tok.kind is Kind.UNICODE_CLASS and tok.value not in re2j.UNICODE_NAMES:
            description = re2j.INVALID_CHAR_RANGE
        elif tok.kind is Kind.CLASS:
            bad = next((i for i in tok.items if i.name not in re2j.UNICODE_NAMES), None)
            if bad is not None:
                description = re2j.INVALID_CHAR_RANGE
                # Close the class right after a harmless stand-in, so C++ RE2 judges what comes before.
                prefix_extra = _class_text(tok, bad.start) + "\\pL]"
        if description is not None:
            return neutral_text(tokens[:k]) + prefix_extra, description
    return None


def re2j_error(pattern: str, tokens: list[Token] | None = None) -> str | None:
    """RE2/J's description of why it rejects `pattern`, or None when the broker accepts it."""
    tokens = tokenize(pattern) if tokens is None else tokens
    first = _re2j_only_error(tokens)
    if first is not None:
        prefix, description = first
        earlier = cpp_error(prefix)
        if earlier is not None and not earlier.startswith(("missing )", TOO_LARGE)):
            return re2j.description_from_cpp(earlier)
        return description
    message = cpp_error(neutral_text(tokens))
    if message is None or message.startswith(TOO_LARGE):
        return None
    return re2j.description_from_cpp(message)
