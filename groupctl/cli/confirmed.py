"""The flow every changing group command shares: plan, show the plan, confirm on a terminal, apply.

Removing members, deleting groups or offsets and resetting offsets all plan from what the cluster
holds now, show that plan, ask a person at a terminal (`--yes` skips the question, `--dry-run` stops
after the plan), and then make the change in one request. Kept here once so the commands cannot
drift apart in what they ask, when, and what a refusal says.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import typer

from groupctl.cli.cluster import open_cluster
from groupctl.errors import NotConfirmed, UsageError

if TYPE_CHECKING:
    from groupctl.backends.base import Backend
    from groupctl.cli.cluster import ClusterChoice

P = TypeVar("P")
R = TypeVar("R")


def confirm(question: str) -> bool:
    """Ask on the terminal (prompt on stderr, so stdout stays data); only y or yes agrees."""
    typer.echo(f"{question} [y/N] ", err=True, nl=False)
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def require_someone_to_ask(yes: bool, dry_run: bool, what: str, preview: str) -> None:
    """Without --yes or --dry-run the change needs a person to confirm it: refuse (exit 2) when
    standard input is not a terminal, before anything is asked of the cluster."""
    if not (yes or dry_run) and not sys.stdin.isatty():
        raise UsageError(f"standard input is not a terminal, so there is no one to confirm {what}: pass --yes "
                         f"(or --dry-run to {preview})")


def plan_confirm_apply(
    chosen: ClusterChoice,
    *,
    plan: Callable[[Backend], P],
    apply: Callable[[Backend, P], R],
    show: Callable[[P, str], None],
    question: Callable[[P, str], str | None],
    refused: str,
    yes: bool,
    dry_run: bool,
) -> tuple[P, R | None]:
    """The plan, and what applying it returned (None for a dry run).

    With --yes the plan is shown and applied on the same connection. Otherwise the plan is shown,
    the connection closed while a person reads it, and `question(plan, location)` asked; a refusal
    raises NotConfirmed(`refused`), `refused` saying what stays as it was. A question of None means
    the plan changes nothing: it is applied without asking, so the cluster's answers say why each
    item cannot be changed.
    """
    with open_cluster(chosen) as backend:
        planned = plan(backend)
        location = backend.location
        if yes and not dry_run:
            show(planned, location)
            return planned, apply(backend, planned)
    if dry_run:
        return planned, None
    show(planned, location)
    asked = question(planned, location)
    if asked is not None and not confirm(asked):
        raise NotConfirmed(refused)
    with open_cluster(chosen) as backend:
        return planned, apply(backend, planned)
