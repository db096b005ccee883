"""A progress bar for long reads, on stderr, only when a person is watching and the data goes elsewhere.

Shown when stderr is a terminal and stdout is not (output piped or redirected), so it never mixes
with the data and never appears in a script's captured output. It never touches sys.stdout: the data
goes there byte for byte, whatever stderr is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

MIN_BYTES = 8 * 1024 * 1024


def wanted(total_bytes: int) -> bool:
    return total_bytes >= MIN_BYTES and sys.stderr.isatty() and not sys.stdout.isatty()


@contextmanager
def byte_progress(description: str, total_bytes: int) -> Iterator[Callable[[int], None]]:
    """Yields `advance(n)`; a no-op when no bar is wanted (rich is imported only when it is)."""
    if not wanted(total_bytes):
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        # rich would otherwise swap sys.stdout for its console (stderr) while the bar runs, and the
        # records printed meanwhile would go to the terminal instead of the file or pipe
        redirect_stdout=False,
        redirect_stderr=False,
    ) as bar:
        task = bar.add_task(description, total=total_bytes)
        yield lambda n: bar.advance(task, n)
