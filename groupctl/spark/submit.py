"""The file to give spark-submit: `spark-submit [options] <this file> audit PATH... [options]`.

spark-submit runs Python applications from a .py file, not from a console script, so this one
hands its arguments to `groupctl spark`.
"""

from __future__ import annotations

import sys


def main() -> None:
    from groupctl.cli.app import main as groupctl

    groupctl(["spark", *sys.argv[1:]])


if __name__ == "__main__":
    main()
