"""google-re2 (C++ RE2) as this package uses it: quiet, and with room for large programs.

RE2/J has no limit on the size of a compiled pattern, so C++ RE2's default 8 MiB budget would
refuse patterns the broker accepts (`\\pL{1000}`); the budget here is larger. Patterns beyond it
still match, through the bounded rewrite in `bounded.py`.
"""

from __future__ import annotations

import re

import re2

MAX_MEM = 64 << 20


def _options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # C++ RE2 would otherwise log every rejected pattern on stderr
    options.max_mem = MAX_MEM
    return options


OPTIONS = _options()
_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


def compile_cpp(text: str):
    """(compiled, None) or (None, C++ RE2's error message).

    Lone surrogates (a Java string may hold them, UTF-8 cannot) become U+FFFD, another character
    no topic name contains.
    """
    text = without_surrogates(text)
    try:
        return re2.compile(text, OPTIONS), None
    except re2.error as exc:
        raw = exc.args[0] if exc.args else b""
        return None, raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def cpp_error(text: str) -> str | None:
    """C++ RE2's error message for `text`, or None when it compiles."""
    return compile_cpp(text)[1]


TOO_LARGE = "pattern too large"
