"""Lets `python -m groupctl` behave exactly like the `groupctl` console script."""

from groupctl.cli.app import main

if __name__ == "__main__":
    main()
