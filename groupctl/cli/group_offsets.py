"""`groupctl group offsets`: reset and delete a group's committed offsets."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Reset or delete a group's committed offsets (the group must have no active members).",
    no_args_is_help=True,
)
