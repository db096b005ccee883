"""One stderr line per connection that `groupctl serve` drops for cause, rate-limited per client host.

An operator needs to see that a client sends garbage or oversized frames, or fails to authenticate,
without one retrying client filling the log: each host gets at most `per_interval` lines per
`interval_s`; what it would have logged beyond that is counted and said, as "(K more from HOST
suppressed)", on its next line after the interval or when the server stops. Writing never raises:
a closed stderr must not take the listener down.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

PREFIX = "groupctl serve: "
#: Hosts remembered at most; older windows are forgotten first (their suppressed counts are said).
_MAX_HOSTS = 1024


@dataclass
class _Window:
    start: float
    lines: int = 0
    suppressed: int = 0


def to_stderr(line: str) -> None:
    """Print `line` on stderr; a closed or broken stderr is ignored, not fatal."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


class PeerLog:
    """Rate-limited one-line reports about peers; `line(peer, text)` with `peer` as `host:port`."""

    def __init__(self, per_interval: int = 5, interval_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, write: Callable[[str], None] = to_stderr) -> None:
        self.per_interval = per_interval
        self.interval_s = interval_s
        self._clock = clock
        #: Where lines go (stderr); tests collect them.
        self.write = write
        self._windows: dict[str, _Window] = {}

    def line(self, peer: str, text: str) -> None:
        """Log `text` about `peer` unless its host has used up this interval's lines."""
        host = peer.rsplit(":", 1)[0] if ":" in peer else peer
        now = self._clock()
        window = self._windows.get(host)
        if window is None or now - window.start >= self.interval_s:
            if window is not None and window.suppressed:
                text = f"{text} ({window.suppressed} more from {host} suppressed)"
            window = _Window(now)
            self._windows.pop(host, None)
            self._windows[host] = window
            self._forget_old()
        if window.lines >= self.per_interval:
            window.suppressed += 1
            return
        window.lines += 1
        self.write(PREFIX + text)

    def flush(self) -> None:
        """Say what is still suppressed (the server is stopping)."""
        for host, window in self._windows.items():
            if window.suppressed:
                self.write(f"{PREFIX}{window.suppressed} more lines about {host} suppressed")
        self._windows.clear()

    def _forget_old(self) -> None:
        while len(self._windows) > _MAX_HOSTS:
            host = next(iter(self._windows))
            window = self._windows.pop(host)
            if window.suppressed:
                self.write(f"{PREFIX}{window.suppressed} more lines about {host} suppressed")
