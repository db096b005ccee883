"""Which cluster a group command talks to, and opening it for exactly one command.

Kept apart from the commands so every one of them selects a cluster with the same option, the
same environment variable and the same message when none is given.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groupctl.errors import UsageError

if TYPE_CHECKING:
    from groupctl.backends.base import Backend

LOCAL_ENV = "GROUPCTL_LOCAL"

LocalOption = typer.Option(
    None,
    "--local",
    metavar="DIR",
    envvar=LOCAL_ENV,
    help="Use the in-process group coordinator whose state is in DIR (also GROUPCTL_LOCAL).",
)

NO_CLUSTER = (
    "no cluster selected: pass --local DIR (or set GROUPCTL_LOCAL) to use the in-process coordinator; "
    "connecting to a Kafka cluster with --bootstrap-server is not available yet in this build"
)


def _print_notices(backend: Backend, already: int) -> int:
    """Say on stderr what the backend repaired or noticed; returns how many have been said."""
    for notice in backend.notices[already:]:
        typer.echo(f"groupctl: note: {notice}", err=True)
    return len(backend.notices)


@contextmanager
def open_cluster(local: Path | None) -> Iterator[Backend]:
    """The selected backend, open for one command; closed (and, locally, unlocked) on the way out."""
    if local is None:
        raise UsageError(NO_CLUSTER)
    from groupctl.backends.local import LocalBackend  # the coordinator is costly to import: only when used

    backend = LocalBackend(local)
    shown = _print_notices(backend, 0)
    try:
        yield backend
    finally:
        backend.close()
        _print_notices(backend, shown)
