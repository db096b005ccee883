"""Compiled topic regexes with the broker's semantics: RE2/J's verdict, full matching.

This is the API the group coordinator uses for KIP-848 SubscribedTopicRegex: validate with
`compile_topic_regex` (InvalidRegex carries RE2/J's description), resolve with `select`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from groupctl.regex.bounded import BoundedMatcher, parse
from groupctl.regex.engine import compile_cpp, without_surrogates
from groupctl.regex.messages import broker_error_message
from groupctl.regex.syntax import Kind, Token, literal_source, tokenize
from groupctl.regex.validation import re2j_error


class InvalidRegex(ValueError):
    """A pattern the broker rejects; `description` is RE2/J's wording, str() the broker's message."""

    def __init__(self, pattern: str, description: str) -> None:
        super().__init__(broker_error_message(pattern, description))
        self.pattern = pattern
        self.description = description


# `\p{Unknown}` (unassigned code points) is RE2/J-only. C++ RE2 gets the complement of every category
# it knows; inside a class, where that cannot be written, U+0378 (unassigned) stands in. Both are
# exact for ASCII, which holds every legal topic-name character.
_ASSIGNED = "\\pL\\pM\\pN\\pP\\pS\\pZ\\pC"
_UNKNOWN = {False: f"[^{_ASSIGNED}]", True: f"[{_ASSIGNED}]"}
_UNKNOWN_IN_CLASS = {False: "\\x{378}", True: "\\x00-\\x{377}\\x{379}-\\x{10FFFF}"}


def _class_for_cpp(tok: Token) -> str:
    out, pos = [], tok.start
    for item in tok.items:
        if item.name == "Unknown":
            out.append(tok.text[pos - tok.start : item.start - tok.start])
            out.append(_UNKNOWN_IN_CLASS[item.negated])
            pos = item.end
    out.append(tok.text[pos - tok.start :])
    return "".join(out)


def _atom_for_cpp(tok: Token) -> str:
    """One atom written so that C++ RE2 matches what RE2/J matches."""
    if tok.kind is Kind.LITERAL:
        return literal_source(tok)
    if tok.kind is Kind.UNICODE_CLASS and tok.value == "Unknown":
        return _UNKNOWN[tok.negated]
    if tok.kind is Kind.CLASS:
        return _class_for_cpp(tok)
    return tok.text


def _needs_rewrite(tokens: list[Token]) -> bool:
    for tok in tokens:
        if tok.kind is Kind.UNICODE_CLASS and tok.value == "Unknown":
            return True
        if tok.kind is Kind.CLASS and any(i.name == "Unknown" for i in tok.items):
            return True
    return False


def _text_for_cpp(pattern: str, tokens: list[Token]) -> str:
    if not _needs_rewrite(tokens):
        return pattern
    return "".join(_atom_for_cpp(t) if t.kind in (Kind.LITERAL, Kind.UNICODE_CLASS, Kind.CLASS) else t.text
                   for t in tokens)


class TopicRegex:
    """A SubscribedTopicRegex as the broker holds it: `matches` is `Pattern.matcher(t).matches()`."""

    __slots__ = ("_bounded", "_regex", "pattern")

    def __init__(self, pattern: str, tokens: list[Token]) -> None:
        self.pattern = pattern
        regex, _error = compile_cpp(_text_for_cpp(pattern, tokens))
        self._regex = regex
        # C++ RE2 refused a pattern RE2/J accepts (nested counts, size): match through bounded rewrites.
        self._bounded = None if regex is not None else BoundedMatcher(parse(tokens, _atom_for_cpp))

    def matches(self, topic: str) -> bool:
        """Whether the whole topic name matches (never a search for a substring)."""
        if self._bounded is not None:
            return self._bounded.fullmatch(topic)
        try:
            return self._regex.fullmatch(topic) is not None
        except UnicodeEncodeError:  # a lone surrogate, which UTF-8 cannot carry
            return self._regex.fullmatch(without_surrogates(topic)) is not None

    def select(self, topics: Iterable[str]) -> list[str]:
        """The matching names, sorted and without repeats (as the coordinator stores a resolved regex)."""
        return sorted({t for t in topics if self.matches(t)})

    def __repr__(self) -> str:
        return f"TopicRegex({self.pattern!r})"


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> TopicRegex | str:
    """The compiled pattern, or RE2/J's description of why it is invalid (cached either way)."""
    tokens = tokenize(pattern)
    description = re2j_error(pattern, tokens)
    if description is not None:
        return description
    return TopicRegex(pattern, tokens)


def compile_topic_regex(pattern: str) -> TopicRegex:
    """Compile as the broker does; raises InvalidRegex with RE2/J's description when it would refuse."""
    result = _compiled(pattern)
    if isinstance(result, str):
        raise InvalidRegex(pattern, result)
    return result


def is_valid(pattern: str) -> bool:
    """Whether the broker accepts the pattern."""
    return not isinstance(_compiled(pattern), str)

