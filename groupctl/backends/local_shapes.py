"""The shape of a local DIR's JSON state files, checked as they are read.

A file holding valid JSON of the wrong shape (a hand edit, another tool's file, a damaged disk)
is the same fault as one that does not parse: the message names the file and the fix, never an
internal error. Each reader declares its file's check next to it (`is_*`); what a restore still
trips over in the content (`reading`) gets the same message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groupctl.errors import GroupctlError

#: What restoring a state file raises when a value in it is not what it should be.
_CONTENT_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


def damaged(path: Path, why: str) -> GroupctlError:
    """The one message for a state file that cannot be used, however it is wrong."""
    return GroupctlError(f"{path} is unreadable ({why}); restore it or start a new --local directory")


def checked(path: Path, data: Any, check: Callable[[Any], bool], what: str) -> Any:
    """`data` read from `path`, if it is missing (None) or passes `check`; else the damaged-file error."""
    if data is not None and not check(data):
        raise damaged(path, f"valid JSON, but not {what}")
    return data


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Restoring state from `path`: a value it trips over is a damaged file, not a bug report."""
    try:
        yield
    except _CONTENT_ERRORS as exc:
        raise damaged(path, f"a value of the wrong kind: {type(exc).__name__}: {exc}") from None


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_text(value: Any) -> bool:
    return isinstance(value, str)


def is_text_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def is_flag(value: Any) -> bool:
    return isinstance(value, bool)


def is_hex(value: Any) -> bool:
    """Text that `bytes.fromhex` reads (how the state files keep bytes)."""
    if not isinstance(value, str):
        return False
    try:
        bytes.fromhex(value)
    except ValueError:
        return False
    return True


def is_list_of(value: Any, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and all(check(v) for v in value)


def has(data: Any, **fields: Callable[[Any], bool]) -> bool:
    """`data` is an object whose present `fields` pass their checks."""
    return isinstance(data, dict) and all(check(data[name]) for name, check in fields.items() if name in data)
