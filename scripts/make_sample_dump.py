"""Write a small `__consumer_offsets` partition directory to decode (the Quick start's input).

Usage: python3 scripts/make_sample_dump.py DIR   ->  DIR/__consumer_offsets-0/00000000000000000000.log
"""

from __future__ import annotations

import sys
from pathlib import Path

from groupctl.log.synthetic import write_sample_dump


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    segment = write_sample_dump(Path(argv[0]))
    print(f"wrote {segment}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
