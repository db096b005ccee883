"""Record bombs (issue 15): small compressed batches that expand into millions of tiny records are
damaged batches (exit 3), reported in one line, quickly and in bounded memory, never a traceback.

Each run is a child process whose peak RSS and CPU time are measured on their own; 300 MiB is generous
(the reader stays near 40 MiB plus at most one 64 MiB batch buffer). "Quickly" is CPU time, the work the
reader did, which other processes loading the machine do not inflate as they do the wall clock.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from groupctl.log import fast
from tests.log.bombs import legacy_gzip_bomb, padded_zstd_bomb, zstd_bomb

ROOT = Path(__file__).resolve().parents[2]
RSS_BOUND_MIB = 300
CPU_BOUND_S = 10  # the unbounded reader took 15 s to 93 s on these inputs; the bounded one takes under 1 s


# A small intermediate process runs the command and reports its child's peak RSS and CPU time: on Linux a
# spawned child's peak starts at its parent's, and this test process holds the bombs it built.
_MEASURE = (
    "import resource, subprocess, sys\n"
    "child = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "sys.stderr.buffer.write(child.stderr)\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(child.returncode, used.ru_maxrss, used.ru_utime + used.ru_stime)\n"
)


def run_measured(*args: str) -> tuple[int, str, float, float]:
    """(exit code, stderr, peak RSS in MiB, CPU seconds) of `python -m groupctl ARGS` run from this checkout."""
    r = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "groupctl", *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    code, kib, cpu = r.stdout.split()
    return int(code), r.stderr, int(kib) / 1024, float(cpu)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The issue's inputs: 7 KB and 22 KB zstd batches (honest counts, and one claiming 100 records
    while holding millions), and a 732 KB legacy gzip wrapper."""
    where = tmp_path_factory.mktemp("bombs")
    built = {
        "zstd-7k": zstd_bomb(7 * 1024)[0],
        "zstd-22k": zstd_bomb(22 * 1024)[0],
        "zstd-7k-lying-count": zstd_bomb(7 * 1024, claimed=100)[0],
        "gzip-legacy-732k": legacy_gzip_bomb(732 * 1024)[0],
    }
    paths = {}
    for name, data in built.items():
        paths[name] = where / f"{name}.log"
        paths[name].write_bytes(data)
    return paths


@pytest.mark.parametrize("name", ["zstd-7k", "zstd-22k", "zstd-7k-lying-count", "gzip-legacy-732k"])
def test_bomb_is_one_damaged_batch_in_bounded_time_and_memory(bombs: dict[str, Path], name: str) -> None:
    code, err, rss, cpu = run_measured("dump", "decode", "--format", "jsonl", str(bombs[name]))
    assert code == 3, err
    damaged = [line for line in err.splitlines() if "damaged batch at offset 0: " in line]
    assert len(damaged) == 1, err
    assert str(bombs[name]) in damaged[0]
    assert "Traceback" not in err and "internal error" not in err
    assert cpu < CPU_BOUND_S, f"{cpu:.1f} s of CPU"
    assert rss < RSS_BOUND_MIB, f"peak RSS {rss:.0f} MiB"


def test_bomb_sizes_are_the_issues(bombs: dict[str, Path]) -> None:
    sizes = {name: path.stat().st_size for name, path in bombs.items()}
    assert 6 * 1024 < sizes["zstd-7k"] < 8 * 1024
    assert 21 * 1024 < sizes["zstd-22k"] < 23 * 1024
    assert 720 * 1024 < sizes["gzip-legacy-732k"] < 760 * 1024


@pytest.mark.parametrize("command", [["audit"], ["groups"], ["decode", "--format", "dump-log"]])
def test_bomb_in_other_commands(bombs: dict[str, Path], command: list[str]) -> None:
    code, err, rss, cpu = run_measured("dump", *command, str(bombs["gzip-legacy-732k"]))
    assert code == 3, err
    assert "damaged batch at offset 0: gzip wrapper: decompressed size exceeds the limit" in err
    assert "Traceback" not in err and "internal error" not in err
    assert rss < RSS_BOUND_MIB and cpu < CPU_BOUND_S


@pytest.mark.parametrize("command", [["decode"], ["groups"], ["audit"]])
def test_batches_of_far_more_records_than_kafka_writes_are_reported_not_read(tmp_path: Path, command: list[str]
                                                                            ) -> None:
    """200 zstd batches of 131072 empty records each (3.2 MB, padded to 8 records a compressed byte): each is
    reported once as suspicious, with its records, and none is read, on both paths alike; they took minutes."""
    bomb = padded_zstd_bomb()
    segment = tmp_path / "00000000000000000000.log"
    segment.write_bytes(b"".join(struct.pack(">q", i << 17) + bomb[8:] for i in range(200)))  # offsets outside the CRC
    runs = []
    for pure in (True, False):
        env = {k: v for k, v in os.environ.items() if k != fast.PURE_ENV}
        if pure:
            env[fast.PURE_ENV] = "1"
        r = subprocess.run([sys.executable, "-m", "groupctl", "dump", *command, str(segment)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120, check=False)
        runs.append((r.returncode, r.stdout, r.stderr))
    assert runs[0] == runs[1]
    code, out, err = runs[0]
    assert code == 3, err
    suspicious = [line for line in err.splitlines() if "suspicious zstd batch: it holds 131072 records" in line]
    assert len(suspicious) == 200, err
    assert len(out.splitlines()) < 20 + 200, out[:2000]  # at most a line a batch (the audit's findings)
