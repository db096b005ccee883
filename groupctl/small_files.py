"""The small files a command is given (plans, topic-id maps, users, client properties, contexts), read
with a size limit.

Such a file is a few kilobytes, but the path is the user's: `/dev/zero`, a FIFO whose writer never
stops, or a log given by mistake would otherwise be read into memory until it runs out. Each is read
up to the limit and one byte more, and refused (a usage error naming the file and the limit) when
that byte is there. The limit is generous: a `--from-file` plan for 100,000 partitions is about
5 MiB with ordinary names and 53 MiB with 249-character group and topic names, so 64 MiB refuses
no real file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any, AnyStr, overload

from groupctl.errors import UsageError

__all__ = ["SMALL_FILE_LIMIT", "read_small_bytes", "read_small_stream", "read_small_text"]

SMALL_FILE_LIMIT = 64 * 1024 * 1024


def _limit(limit: int | None) -> int:
    """The limit asked, else the module's (read at call time, so a test may lower it)."""
    return SMALL_FILE_LIMIT if limit is None else limit


def _too_large(what: str, name: str, limit: int) -> UsageError:
    size = f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"
    return UsageError(f"{what} '{name}' is larger than {size}, the most groupctl reads from such a file; check "
                      "that it is the right file (a device or a pipe that never ends is refused too)")


def read_small_bytes(path: str | Path, what: str, *, limit: int | None = None) -> bytes:
    """The bytes of `path`, at most `limit`; OSError as `open` raises it (the caller names the problem)."""
    most = _limit(limit)
    with open(path, "rb") as fh:
        data = fh.read(most + 1)
    if len(data) > most:
        raise _too_large(what, str(path), most)
    return data


def read_small_text(path: str | Path, what: str, *, limit: int | None = None, encoding: str = "utf-8") -> str:
    """The text of `path` (strictly decoded: UnicodeDecodeError for the caller), at most `limit` bytes."""
    return read_small_bytes(path, what, limit=limit).decode(encoding)


@overload
def read_small_stream(what: str, stream: None = None, *, limit: int | None = None) -> str: ...


@overload
def read_small_stream(what: str, stream: IO[AnyStr], *, limit: int | None = None) -> AnyStr: ...


def read_small_stream(what: str, stream: IO[Any] | None = None, *, limit: int | None = None) -> str | bytes:
    """All of `stream` (default standard input), at most `limit` characters or bytes."""
    most = _limit(limit)
    source: IO[Any] = sys.stdin if stream is None else stream
    data = source.read(most + 1)
    if len(data) > most:
        raise _too_large(what, "-" if stream is None else getattr(source, "name", "-"), most)
    return data
