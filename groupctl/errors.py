"""groupctl's own errors, each carrying the exit code the CLI contract gives it.

The CLI catches `GroupctlError` and prints its message on stderr; anything else is a bug and
shows a trace only with --verbose.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_PARTIAL = 3
EXIT_FINDINGS = 4


class GroupctlError(Exception):
    """A failure the operator can act on; the message names the thing and the fix."""

    exit_code = EXIT_ERROR


class UsageError(GroupctlError):
    """Bad command-line input (exit 2)."""

    exit_code = EXIT_USAGE


class DecodeError(GroupctlError):
    """Bytes that do not parse as what they claim to be.

    `path` and `position` (byte offset in the file) are filled in by whoever knows them, so the
    operator sees where the damage is. Decoding commands exit 3 when they skipped such input.
    """

    exit_code = EXIT_PARTIAL

    def __init__(self, reason: str, *, path: str | None = None, position: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path
        self.position = position

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}"
            if self.position is not None:
                where += f" at byte {self.position}"
            where += ": "
        elif self.position is not None:
            where = f"at byte {self.position}: "
        return where + self.reason


class PartialFailure(GroupctlError):
    """Some items failed while others succeeded (exit 3); the output holds what succeeded."""

    exit_code = EXIT_PARTIAL


class FindingsReached(GroupctlError):
    """An audit found something at or above --fail-on (exit 4); the report itself went to stdout."""

    exit_code = EXIT_FINDINGS
