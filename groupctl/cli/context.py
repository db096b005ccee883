"""`groupctl context`: the named clusters of the config file, and which one is current.

The file and its rules are `groupctl.kafka.contexts`; these commands only show it and switch the
current context, so nothing here needs a context's secrets.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import typer

from groupctl.cli.cluster import CONTEXT_ENV
from groupctl.cli.completion import complete_contexts
from groupctl.cli.options import OutputOption, output_format
from groupctl.errors import UsageError
from groupctl.output import Column, OutputFormat, render

if TYPE_CHECKING:
    from groupctl.kafka.contexts import ContextFile

app = typer.Typer(
    help="Named clusters (contexts) from the config file: list them, show one, choose the current one.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LIST_COLUMNS = [
    Column("current", "CURRENT", text=lambda row: "*" if row["current"] else ""),
    Column("name", "NAME"),
    Column("bootstrapServers", "BOOTSTRAP-SERVERS"),
    Column("properties", "PROPERTIES", wide_only=True),
]
SHOW_COLUMNS = [Column("name", "PROPERTY"), Column("value", "VALUE")]


def _no_contexts_note(loaded: ContextFile) -> None:
    from groupctl.kafka.contexts import shown_path

    state = "has no contexts" if loaded.exists else "does not exist"
    typer.echo(f"groupctl: note: {shown_path(loaded.path)} {state}; add a [contexts.NAME] table with bootstrap-servers "
               "(see the README's Contexts section)", err=True)


@app.command("list")
def list_contexts(output: OutputFormat = OutputOption) -> None:
    """List the contexts: the current one is marked with *; wide adds how many client properties each sets.

    The current context is GROUPCTL_CONTEXT when set, else the file's current-context.
    """
    from groupctl.kafka.contexts import load_contexts

    loaded = load_contexts()
    current = os.environ.get(CONTEXT_ENV) or loaded.current
    items = [
        {"name": c.name, "current": c.name == current, "bootstrapServers": c.bootstrap,
         "properties": len([k for k in c.values if k != "bootstrap.servers"])}
        for c in sorted(loaded.contexts.values(), key=lambda c: c.name)
    ]
    render("ContextList", items, LIST_COLUMNS, output_format(output))
    if not items:
        _no_contexts_note(loaded)


@app.command("show")
def show(
    name: str = typer.Argument(None, metavar="NAME", help="The context to show (default: the current one).",
                               autocompletion=complete_contexts),
    output: OutputFormat = OutputOption,
) -> None:
    """Show a context's bootstrap servers and client properties, secrets masked.

    A secret read from the environment or a file shows where it is read from; one written inline
    shows as [redacted]. Nothing is read from those places, so show works without them.
    """
    from groupctl.kafka.contexts import load_contexts, shown_path

    loaded = load_contexts()
    chosen = name or os.environ.get(CONTEXT_ENV) or loaded.current
    if chosen is None:
        known = ", ".join(sorted(loaded.contexts)) or "none"
        raise UsageError(f"no current context in {shown_path(loaded.path)}: name one (the contexts are: {known}), "
                         "or choose one with `groupctl context use NAME`")
    context = loaded.get(chosen, "context show")
    shown = context.shown()
    rows = [{"name": k, "value": v} for k, v in shown.items()]
    item = {"name": context.name, "current": context.name == (os.environ.get(CONTEXT_ENV) or loaded.current),
            "source": str(context.source), "bootstrapServers": context.bootstrap,
            "properties": {k: v for k, v in shown.items() if k != "bootstrap.servers"}}
    render("Context", rows, SHOW_COLUMNS, output_format(output), items=[item])


@app.command("use")
def use(
    name: str = typer.Argument(..., metavar="NAME", help="The context to make current.",
                               autocompletion=complete_contexts),
) -> None:
    """Make NAME the current context: cluster commands use it when no -b or --command-config is given.

    Only the file's current-context line is rewritten (atomically: the file is replaced whole, never
    half written); GROUPCTL_CONTEXT, when set, still wins for the commands run with it.
    """
    from groupctl.kafka.contexts import shown_path, use_context

    loaded = use_context(name)
    typer.echo(f"Switched to context \"{name}\" ({shown_path(loaded.path)}).")
    overriding = os.environ.get(CONTEXT_ENV)
    if overriding and overriding != name:
        typer.echo(f"groupctl: note: GROUPCTL_CONTEXT={overriding} is set and wins over the file's current-context "
                   "in this shell", err=True)
