"""The local backend under real processes: one killed mid-write, two writing at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from groupctl.backends.local import LOG_DIR, LocalBackend
from groupctl.log.segment import read_segment

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import sys, time
    from groupctl.backends.local import LocalBackend
    from groupctl.coordinator.offsets import CommitPartition
    from groupctl.log.writer import SegmentWriter

    directory, first, count, partitions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    stall_at = int(sys.argv[5]) if len(sys.argv) > 5 else -1
    real_write = SegmentWriter._write

    def half_then_stall(self, data, base, last):
        # Fault injection: the first half of the batch reaches the file, then the process hangs
        # inside the write until it is killed.
        self._fh.write(data[: len(data) // 2])
        self._fh.flush()
        print("stalled", flush=True)
        time.sleep(60)
        return real_write(self, data, base, last)

    for n in range(first, first + count):
        if n == stall_at:
            SegmentWriter._write = half_then_stall
        with LocalBackend(directory, create=True) as backend:
            if "orders" not in backend.topics:
                backend.coordinator.create_topic("orders", partitions)
            offsets = [CommitPartition("orders", p, n) for p in range(partitions)]
            backend.coordinator.commit_offsets(f"g{n}", "", -1, offsets)
        print(f"ack {n}", flush=True)  # after close: the batch was fsynced before commit_offsets returned
""")


def _writer(directory: Path, first: int, count: int, partitions: int, stall_at: int = -1) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-c", WRITER, str(directory), str(first), str(count), str(partitions), str(stall_at)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def _committed_groups(directory: Path) -> set[str]:
    with LocalBackend(directory) as backend:
        return {g.group_id for g in backend.list_groups()}


def test_a_process_killed_mid_write_loses_nothing_acknowledged(tmp_path: Path) -> None:
    proc = _writer(tmp_path, 0, 10, 500, stall_at=6)  # the 7th commit hangs with half its batch written
    acked: list[int] = []
    stalled = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("stalled"):
            stalled = True
            break
        acked.append(int(line.split()[1]))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert stalled and acked == list(range(6))
    segment = next((tmp_path / LOG_DIR).glob("*.log"))
    torn = read_segment(segment)
    assert sum(1 for _ in torn) == 6 and torn.trailing_bytes  # the torn half batch is there
    with LocalBackend(tmp_path) as backend:
        groups = {g.group_id for g in backend.list_groups()}
        notices = list(backend.notices)
    assert groups == {f"g{n}" for n in acked}  # every acknowledged commit survived; the torn one is gone
    assert any("a write cut short" in n and "no whole valid batch" in n for n in notices)
    reader = read_segment(segment, strict=True)
    assert sum(1 for _ in reader) == 6 and not reader.trailing_bytes  # repaired: the log reads cleanly


def test_two_processes_writing_at_once_leave_a_log_that_replays_cleanly(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as backend:
        backend.coordinator.create_topic("orders", 4)
    procs = [_writer(tmp_path, 0, 15, 4), _writer(tmp_path, 100, 15, 4)]
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        assert len(out.split("\n")) >= 15
    assert _committed_groups(tmp_path) == {f"g{n}" for n in (*range(15), *range(100, 115))}
    reader = read_segment(next((tmp_path / LOG_DIR).glob("*.log")), strict=True)
    assert sum(1 for _ in reader) == 30 and not reader.trailing_bytes and not reader.problems
