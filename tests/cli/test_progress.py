"""The progress bar appears only for a person watching while the data goes elsewhere, and only on stderr:
stdout carries the same bytes whatever stderr is."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest

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



def test_the_bar_leaves_sys_stdout_alone(monkeypatch):
    """What a command prints while the bar runs goes to its stdout, not to the bar's stderr."""
    import io

    class _Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = io.StringIO(), _Tty()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with progress.byte_progress("decoding", progress.MIN_BYTES) as advance:
        assert sys.stdout is out and sys.stderr is err
        print("a record")
        advance(progress.MIN_BYTES // 2)
    assert out.getvalue() == "a record\n"
    assert "a record" not in err.getvalue()


# -- a real terminal on one stream, a file on the other: the data is the same bytes either way ----------

BIG_METADATA = 32_000  # near the 32767 bytes an OffsetCommitValue v3's metadata string holds
COMMANDS = {
    "decode": ("dump", "decode", "-f", "jsonl"),
    "groups": ("dump", "groups", "--partitions", "1", "-o", "json"),
    "audit": ("dump", "audit", "-o", "json"),
}
BAR_WORDS = {"decode": b"decoding", "groups": b"replaying", "audit": b"auditing"}


@pytest.fixture(scope="module")
def big_dump(tmp_path_factory) -> Path:
    """A partition directory of more than MIN_BYTES in few records (big commit metadata), quick to read."""
    from groupctl.log.synthetic import BASE_TS
    from groupctl.log.writer import SegmentWriter, SimpleRecord
    from groupctl.protocol.records import encode_key, encode_value

    partition = tmp_path_factory.mktemp("big") / "__consumer_offsets-0"
    with SegmentWriter(partition) as writer:
        for n in range(progress.MIN_BYTES // BIG_METADATA + 8):
            value = {"offset": n, "leaderEpoch": 0, "metadata": f"{n:08d}" + "m" * BIG_METADATA,
                     "commitTimestamp": BASE_TS + n}
            writer.append([SimpleRecord(encode_key(1, {"group": f"g{n % 4}", "topic": "orders", "partition": n % 3}),
                                        encode_value(1, 3, value), BASE_TS + n)])
    assert sum(f.stat().st_size for f in partition.iterdir()) >= progress.MIN_BYTES
    return partition


def _groupctl(*args: str) -> list[str]:
    return [sys.executable, "-m", "groupctl", *args]


def _drain(fd: int, proc: subprocess.Popen, limit_s: float = 120.0) -> bytes:
    """Everything written to the pty until the child exits (bounded), so the child never blocks on it."""
    got = bytearray()
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:  # EIO: every slave end is closed
                break
            if not chunk:
                break
            got += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    return bytes(got)


def _with_pty(args: list[str], *, pty_for: str, file: Path) -> tuple[int, bytes]:
    """Run with one of stdout/stderr on a raw pty and the other on `file`: (exit code, what the pty got)."""
    master, slave = pty.openpty()
    tty.setraw(slave)  # no \n -> \r\n: the pty receives the bytes as written
    try:
        with file.open("wb") as fh:
            out, err = (slave, fh) if pty_for == "stdout" else (fh, slave)
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        os.close(slave)
        slave = -1
        got = _drain(master, proc)
        return proc.returncode, got
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)


def _plain(args: list[str], tmp_path: Path) -> tuple[int, bytes]:
    """The same command with both streams on files: the reference output."""
    with (tmp_path / "ref.out").open("wb") as out, (tmp_path / "ref.err").open("wb") as err:
        code = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=out, stderr=err, timeout=300).returncode
    return code, (tmp_path / "ref.out").read_bytes()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_data_to_a_file_while_stderr_is_a_terminal(command, big_dump, tmp_path):
    args = _groupctl(*COMMANDS[command], str(big_dump))
    code, expected = _plain(args, tmp_path)
    assert code == 0 and expected
    got_code, on_terminal = _with_pty(args, pty_for="stderr", file=tmp_path / "out")
    assert got_code == 0, on_terminal[-2000:]
    assert (tmp_path / "out").read_bytes() == expected
    assert BAR_WORDS[command] in on_terminal  # the bar was shown there...
    assert b"orders" not in on_terminal  # ...and nothing else


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_data_to_a_terminal_while_stderr_is_a_file(command, big_dump, tmp_path):
    args = _groupctl(*COMMANDS[command], str(big_dump))
    code, expected = _plain(args, tmp_path)
    got_code, on_terminal = _with_pty(args, pty_for="stdout", file=tmp_path / "err")
    assert (got_code, code) == (0, 0)
    assert on_terminal == expected
    assert (tmp_path / "err").read_bytes() == b""  # no bar without a terminal to watch it
