"""The rate-limited stderr lines of `groupctl serve`: per host, with what was suppressed said later."""

from __future__ import annotations

import sys

import pytest

from groupctl.server.peer_log import PeerLog


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_host_gets_its_lines_per_interval_and_hears_what_was_suppressed() -> None:
    clock, lines = Clock(), []
    log = PeerLog(per_interval=3, interval_s=10.0, clock=clock, write=lines.append)
    for n in range(50):
        log.line(f"10.0.0.1:{4000 + n}", f"closing 10.0.0.1:{4000 + n}: garbage")
    log.line("10.0.0.2:5000", "closing 10.0.0.2:5000: garbage")
    assert lines == [f"groupctl serve: closing 10.0.0.1:{4000 + n}: garbage" for n in range(3)] + [
        "groupctl serve: closing 10.0.0.2:5000: garbage"]
    clock.now += 9.9
    log.line("10.0.0.1:1", "still within the interval")
    assert len(lines) == 4
    clock.now += 0.1
    log.line("10.0.0.1:2", "closing 10.0.0.1:2: garbage")
    assert lines[-1] == "groupctl serve: closing 10.0.0.1:2: garbage (48 more from 10.0.0.1 suppressed)"
    log.line("10.0.0.1:3", "next")
    assert lines[-1] == "groupctl serve: next"


def test_flush_says_what_is_still_suppressed_and_ipv6_peers_group_by_host() -> None:
    clock, lines = Clock(), []
    log = PeerLog(per_interval=1, interval_s=60.0, clock=clock, write=lines.append)
    for port in (1, 2, 3):
        log.line(f"::1:{port}", f"failed authentication with ::1:{port}")
    log.line("127.0.0.1:9", "once")
    log.flush()
    assert lines == ["groupctl serve: failed authentication with ::1:1", "groupctl serve: once",
                     "groupctl serve: 2 more lines about ::1 suppressed"]
    log.flush()
    assert len(lines) == 3


class _BrokenPipe:
    def write(self, _text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_lines_go_to_stderr_and_a_broken_stderr_is_not_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    PeerLog().line("127.0.0.1:1", "visible")
    assert capsys.readouterr().err == "groupctl serve: visible\n"
    monkeypatch.setattr(sys, "stderr", _BrokenPipe())
    PeerLog().line("127.0.0.1:1", "lost")
