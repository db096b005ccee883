"""The root Typer app: global options, the command tree, and the error contract.

Exit codes: 0 ok, 1 error, 2 usage, 3 partial failure, 4 findings at or above --fail-on.
Errors go to stderr as one line naming the problem; the global --debug adds the trace. `-v/--verbose`
belongs to the commands (more columns); before the command it is the old spelling of --debug, still
taken, with a note.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

import typer

from groupctl import __version__
from groupctl.cli import context, demo, dump, group, local, regex, serve, simulate, spark
from groupctl.cli.faults import world_fault
from groupctl.cli.help_text import install as install_help_text
from groupctl.cli.options import settings, short_timeout_note
from groupctl.errors import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_USAGE, GroupctlError, NotConfirmed
from groupctl.output import OutputFormat

COMPLETE_VAR = "_GROUPCTL_COMPLETE"
DEBUG_FLAGS = ("--debug", "--verbose", "-v")
"""The root's flags for a trace; `-v/--verbose` only in their old place, before the command."""
DEPRECATED_VERBOSE = ("groupctl: note: --verbose/-v before the command is deprecated: use --debug for details and "
                      "traces (after a command, -v/--verbose shows more columns)")

app = typer.Typer(
    name="groupctl",
    help="Operate Kafka consumer groups: static members, KIP-848 epochs, group configs, and "
    "offline __consumer_offsets dumps.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(context.app, name="context")
app.add_typer(dump.app, name="dump")
app.add_typer(group.app, name="group")
app.add_typer(local.app, name="local")
app.add_typer(regex.app, name="regex")
app.command("serve", context_settings={"help_option_names": ["-h", "--help"]})(serve.serve)
# A command, not a group: the tour has no subcommands, so its usage line names none.
app.command("demo", context_settings={"help_option_names": ["-h", "--help"]})(demo.demo)
app.add_typer(simulate.app, name="simulate")
app.add_typer(spark.app, name="spark")


def _version(value: bool) -> None:
    if value:
        from groupctl.coordinator.assignors import compiled
        from groupctl.log.fast import describe

        typer.echo(f"groupctl {__version__}\n{describe()}\n{compiled.describe()}")
        raise typer.Exit()


@app.callback()
def root(
    output: OutputFormat = typer.Option(
        None,
        "--output",
        "-o",
        help="Default output for every command: table, wide, json, yaml or csv.",
        envvar="GROUPCTL_OUTPUT",
        case_sensitive=False,
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Show details on stderr (client settings, bytes read, Spark's log), and a full "
        "trace when something fails.",
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", hidden=True),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """groupctl: operate Kafka consumer groups from a shell."""
    if verbose:
        typer.echo(DEPRECATED_VERBOSE, err=True)
    settings.debug = debug or verbose
    settings.output = output


def _error(message: str) -> None:
    typer.echo(f"groupctl: error: {message}", err=True)


def _debug_requested(args: list[str]) -> bool:
    """Whether the root's own options, before the first command name, ask for traces: known before
    parsing, so a failure while parsing is traced too. A command's `-v` (more columns) does not count."""
    takes_value = False
    for arg in args:
        if takes_value:
            takes_value = False
        elif arg in ("-o", "--output"):
            takes_value = True
        elif arg == "--" or not arg.startswith("-"):
            return False
        elif arg in DEBUG_FLAGS:
            return True
    return False


def _usage_or_click_error(exc: typer.TyperException) -> int:
    """Typer's parse errors: usage errors (exit 2) show the usage line and where to get help."""
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoArgsIsHelpError":
        return EXIT_USAGE  # Typer has already printed the help
    if exc.exit_code == EXIT_USAGE and ctx is not None:
        typer.echo(ctx.get_usage(), err=True)
        typer.echo(f"Try '{ctx.command_path} --help' for help.", err=True)
    message = _unknown_option(exc, ctx) if type(exc).__name__ == "NoSuchOption" else None
    _error(message or exc.format_message())
    return exc.exit_code


def _unknown_option(exc: typer.TyperException, ctx: typer.Context | None) -> str | None:
    """What to say about an option the command does not have: Kafka's and the old spellings get their
    alternative named, and only suggestions that start like the option given are kept (Click's nearest
    match may be any option: `--group` once drew "Possible options: --output")."""
    name: str = getattr(exc, "option_name", "")
    where = f"`{ctx.command_path}`" if ctx is not None else "this command"
    params = ctx.command.params if ctx is not None else []
    if name in ("-v", "--verbose"):
        wide = "; -o wide shows every column" if any(p.name == "output" for p in params) else ""
        command = ctx.command_path.partition(" ")[2] if ctx is not None else "COMMAND"
        return (f"{where} has no {name} (more columns){wide}; for details and a trace on failure, put --debug "
                f"before the command: groupctl --debug {command} ...")
    if name in ("--group", "--all-groups") and any(
            p.param_type_name == "argument" and p.name in ("group", "groups") for p in params):
        return f"{where} has no {name}: it takes the group id as its GROUP argument"
    stem = name.lstrip("-")[:1]
    near = [p for p in getattr(exc, "possibilities", None) or () if p.lstrip("-")[:1] == stem]
    said = f"No such option: {name}"
    return f"{said} (Possible options: {', '.join(sorted(near))})" if near else said


def _say_interrupted() -> None:
    """Ctrl-C: a terminal has echoed `^C` where the cursor was, mid-line (after a prompt, in a table), so
    the message starts on a line of its own there."""
    if sys.stderr.isatty():
        typer.echo("", err=True)
    _error("interrupted")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the app and maps every failure to the exit-code contract."""
    # A closed pipe (`| head`) ends the process quietly, as it does for coreutils.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if COMPLETE_VAR in os.environ:
        # Only a shell asking for completions pays for loading Typer's completion support.
        from typer.completion import completion_init

        completion_init()
    command = typer.main.get_command(app)
    install_help_text(command)
    args = sys.argv[1:] if argv is None else argv
    settings.debug = _debug_requested(args)
    settings.short_bare_timeout = None
    try:
        code = command.main(args=args, prog_name="groupctl", standalone_mode=False)
        if code == EXIT_INTERRUPTED:  # Typer turns Ctrl-C in a command into this exit code, silently
            _say_interrupted()
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.Abort:
        _error("aborted")
        code = EXIT_ERROR
    except typer.TyperException as exc:
        code = _usage_or_click_error(exc)
    except NotConfirmed as exc:  # an answer, not a failure
        typer.echo(f"groupctl: {exc}", err=True)
        code = exc.exit_code
    except GroupctlError as exc:
        if settings.debug:
            traceback.print_exc()
        _error(str(exc))
        if settings.short_bare_timeout is not None and exc.exit_code != EXIT_USAGE:
            typer.echo(short_timeout_note(settings.short_bare_timeout), err=True)
        code = exc.exit_code
    except KeyboardInterrupt:
        _say_interrupted()
        code = EXIT_INTERRUPTED
    except (OSError, UnicodeError, MemoryError, RecursionError) as exc:
        # The world's faults that escaped a more specific handler: say what and where, not "internal error".
        if settings.debug:
            traceback.print_exc()
        _error(world_fault(exc))
        code = EXIT_ERROR
    except Exception as exc:  # a bug: say so plainly, trace only on request
        if settings.debug:
            traceback.print_exc()
        _error(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the trace)")
        code = EXIT_ERROR
    sys.exit(code if isinstance(code, int) else 0)
