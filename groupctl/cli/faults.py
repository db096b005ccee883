"""One line for a fault of the machine or the input that no command caught more precisely.

Commands turn the faults they expect into GroupctlErrors with their own words; this is the net
under them, so that a file that cannot be read or a disk that is full is never reported as a bug
("internal error"). Each message names the thing (the path, when the OS gave one) and a way on.
"""

from __future__ import annotations

import errno
import socket

_HINTS = {
    errno.EACCES: "check its permissions, or run as a user who may use it",
    errno.EPERM: "check its permissions, or run as a user who may use it",
    errno.ENOENT: "check the path",
    errno.EISDIR: "name a file, not a directory",
    errno.ENOTDIR: "a part of the path is a file, not a directory: check the path",
    errno.EEXIST: "remove it or choose another name",
    errno.ENOSPC: "free some space on that file system and try again",
    errno.EDQUOT: "free some space (the disk quota is reached) and try again",
    errno.EROFS: "the file system is read-only: choose a writable location",
    errno.ENAMETOOLONG: "use a shorter name",
    errno.EMFILE: "too many open files: raise the limit (ulimit -n) or close other programs",
    errno.ENFILE: "too many open files on the system: try again later",
    errno.EIO: "the device reported an I/O error: check the disk",
}


def world_fault(exc: BaseException) -> str:
    """The user-facing sentence for an OSError, a text that is not valid UTF-8, or exhausted memory/recursion."""
    if isinstance(exc, ConnectionError | TimeoutError | socket.gaierror):
        reason = exc.strerror or str(exc) or type(exc).__name__
        return f"network: {reason}; check the address and that the server there is running and reachable"
    if isinstance(exc, OSError):
        where = f"{exc.filename}" if exc.filename is not None else "a file or connection"
        if exc.filename2 is not None:
            where += f" -> {exc.filename2}"
        reason = exc.strerror or str(exc) or type(exc).__name__
        hint = _HINTS.get(exc.errno or 0, "check the path and try again")
        return f"{where}: {reason}; {hint}"
    if isinstance(exc, UnicodeError):
        return (f"text that is not valid UTF-8 ({exc}); give UTF-8 input, or check that the file is the kind "
                "this command reads")
    if isinstance(exc, MemoryError):
        return "ran out of memory; the input may be damaged or far larger than expected (try a smaller input)"
    return "the input is nested too deeply to process; it is probably damaged"
