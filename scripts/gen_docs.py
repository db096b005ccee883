"""Regenerate `man/` and `completions/` from the Typer app; `--check` fails when they are stale.

Run after changing any command or option:  python scripts/gen_docs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from groupctl.cli.docs import stale_files, write_files

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    if "--check" in argv:
        stale = stale_files(ROOT)
        for rel in stale:
            print(f"stale: {rel}", file=sys.stderr)
        if stale:
            print("run: python scripts/gen_docs.py", file=sys.stderr)
        return 1 if stale else 0
    for rel in write_files(ROOT):
        print(rel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
