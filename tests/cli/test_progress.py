"""The progress bar appears only for a person watching while the data goes elsewhere."""

from __future__ import annotations

import sys

from groupctl.cli import progress


class _Stream:
    def __init__(self, tty: bool) -> None:
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_wanted_only_with_a_terminal_on_stderr_and_data_redirected(monkeypatch):
    big = progress.MIN_BYTES
    for err_tty, out_tty, size, expected in [
        (True, False, big, True),
        (True, True, big, False),
        (False, False, big, False),
        (True, False, big - 1, False),
    ]:
        monkeypatch.setattr(sys, "stderr", _Stream(err_tty))
        monkeypatch.setattr(sys, "stdout", _Stream(out_tty))
        assert progress.wanted(size) is expected

