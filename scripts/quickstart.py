"""Print the README's Quick start commands, one per line: the demo's, then the test suite's.

`.ci/run` runs exactly these lines, so what a new user copies from the README is what CI proves.
It fails (exit 1) unless the Quick start section holds exactly two one-line `sh` blocks.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def quick_start(text: str) -> list[str]:
    """The commands of the `## Quick start` section's `sh` blocks, in order."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.S | re.M)
    if section is None:
        raise ValueError("README.md has no '## Quick start' section")
    blocks = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    commands = [block.strip() for block in blocks]
    if len(commands) != 2 or any("\n" in c for c in commands):
        raise ValueError(f"the Quick start must have exactly two one-line sh blocks, found {commands!r}")
    return commands


def main() -> int:
    try:
        commands = quick_start(README.read_text(encoding="utf-8"))
    except ValueError as exc:
        print(f"quickstart: {exc}", file=sys.stderr)
        return 1
    print("\n".join(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
