"""Peak memory (and time) of `groupctl dump` on one big segment and on the record-bomb inputs.

Each command runs in a child process of its own, started by a small intermediate process that
reports the child's peak RSS, so nothing of this script's own memory is in the figure. Bars (issue 15): `dump decode
--format dump-log` and `dump audit` on a single segment of about 286 MB under 150 MiB, and every bomb
reported as a damaged batch (exit 3) with bounded memory.

Inputs are generated under the temporary directory (never in the repository) and reused by later
runs. Usage: python3 benchmarks/bench_dump_memory.py [--records 4000000] [--dir DIR] [--skip-big]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BAR_MIB = 150


# A small intermediate process runs the command and reports its child's peak RSS. Measuring from this
# script directly would be wrong: Linux starts a spawned child's peak RSS at its parent's, and this
# script holds the generated dump in memory.
_MEASURE = (
    "import os, resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def run(args: list[str]) -> tuple[int, float, float]:
    """(exit code, peak RSS in MiB, seconds) of `python -m groupctl ARGS`, output discarded."""
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "groupctl", *args], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1]) / 1024, time.monotonic() - start


def big_segment(directory: Path, records: int) -> Path:
    from groupctl.log.synthetic import mixed_dump

    path = directory / f"mixed-{records}.log"
    if not path.exists():
        print(f"generating {records} records into {path} ...", file=sys.stderr)
        tmp = path.with_suffix(".part")
        tmp.write_bytes(mixed_dump(records))
        tmp.rename(path)
    return path


def bombs(directory: Path) -> list[tuple[str, Path]]:
    from tests.log.bombs import legacy_gzip_bomb, zstd_bomb

    made = []
    for name, build in (
        ("7 KB zstd batch", lambda: zstd_bomb(7 * 1024)[0]),
        ("22 KB zstd batch", lambda: zstd_bomb(22 * 1024)[0]),
        ("7 KB zstd batch claiming 100 records", lambda: zstd_bomb(7 * 1024, claimed=100)[0]),
        ("732 KB legacy gzip wrapper", lambda: legacy_gzip_bomb(732 * 1024)[0]),
    ):
        path = directory / ("bomb-" + name.replace(" ", "-") + ".log")
        if not path.exists():
            path.write_bytes(build())
        made.append((name, path))
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=4_000_000)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "groupctl-bench-dump")
    parser.add_argument("--skip-big", action="store_true", help="only the bombs")
    opts = parser.parse_args()
    opts.dir.mkdir(parents=True, exist_ok=True)
    failed = False
    if not opts.skip_big:
        seg = big_segment(opts.dir, opts.records)
        size = seg.stat().st_size
        print(f"single segment: {opts.records} records, {size / 1e6:.0f} MB")
        for label, args in (
            ("dump audit", ["dump", "audit", str(seg)]),
            ("dump decode --format dump-log", ["dump", "decode", "-f", "dump-log", str(seg)]),
        ):
            code, rss, secs = run(args)
            ok = rss < BAR_MIB and code in (0, 4)
            failed |= not ok
            print(f"  {label:32} exit {code}  peak RSS {rss:6.1f} MiB  {secs:6.1f} s  {'ok' if ok else 'OVER BAR'}")
    print("record bombs (dump decode --format jsonl):")
    for name, path in bombs(opts.dir):
        code, rss, secs = run(["dump", "decode", "-f", "jsonl", str(path)])
        ok = code == 3
        failed |= not ok
        print(f"  {name:38} {path.stat().st_size:7} bytes  exit {code}  peak RSS {rss:6.1f} MiB  {secs:5.2f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
