"""The root Typer app: global options, the command tree, and the error contract.

Exit codes: 0 ok, 1 error, 2 usage, 3 partial failure, 4 findings at or above --fail-on.
Errors go to stderr as one line naming the problem; --verbose adds the trace.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

import typer

from groupctl import __version__
from groupctl.cli import demo, dump, group, local, regex, serve, simulate, spark
from groupctl.cli.faults import world_fault
from groupctl.cli.options import settings
from groupctl.errors import EXIT_ERROR, EXIT_USAGE, GroupctlError
from groupctl.output import OutputFormat

COMPLETE_VAR = "_GROUPCTL_COMPLETE"

app = typer.Typer(
    name="groupctl",
    help="Operate Kafka consumer groups: static members, KIP-848 epochs, group configs, and "
    "offline __consumer_offsets dumps.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(demo.app, name="demo")
app.add_typer(dump.app, name="dump")
app.add_typer(group.app, name="group")
app.add_typer(local.app, name="local")
app.add_typer(regex.app, name="regex")
app.command("serve", context_settings={"help_option_names": ["-h", "--help"]})(serve.serve)
app.add_typer(simulate.app, name="simulate")
app.add_typer(spark.app, name="spark")


def _version(value: bool) -> None:
    if value:
        from groupctl.log.fast import describe

        typer.echo(f"groupctl {__version__}\n{describe()}")
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
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show details, and a full trace when something fails."
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """groupctl: operate Kafka consumer groups from a shell."""
    settings.verbose = verbose
    settings.output = output


def _error(message: str) -> None:
    typer.echo(f"groupctl: error: {message}", err=True)


def _usage_or_click_error(exc: typer.TyperException) -> int:
    """Typer's parse errors: usage errors (exit 2) show the usage line and where to get help."""
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoArgsIsHelpError":
        return EXIT_USAGE  # Typer has already printed the help
    if exc.exit_code == EXIT_USAGE and ctx is not None:
        typer.echo(ctx.get_usage(), err=True)
        typer.echo(f"Try '{ctx.command_path} --help' for help.", err=True)
    _error(exc.format_message())
    return exc.exit_code


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
    args = sys.argv[1:] if argv is None else argv
    settings.verbose = any(a in ("-v", "--verbose") for a in args)
    try:
        code = command.main(args=args, prog_name="groupctl", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.Abort:
        _error("aborted")
        code = EXIT_ERROR
    except typer.TyperException as exc:
        code = _usage_or_click_error(exc)
    except GroupctlError as exc:
        if settings.verbose:
            traceback.print_exc()
        _error(str(exc))
        code = exc.exit_code
    except KeyboardInterrupt:
        _error("interrupted")
        code = 130
    except (OSError, UnicodeError, MemoryError, RecursionError) as exc:
        # The world's faults that escaped a more specific handler: say what and where, not "internal error".
        if settings.verbose:
            traceback.print_exc()
        _error(world_fault(exc))
        code = EXIT_ERROR
    except Exception as exc:  # a bug: say so plainly, trace only on request
        if settings.verbose:
            traceback.print_exc()
        _error(f"internal error: {type(exc).__name__}: {exc} (run with --verbose for the trace)")
        code = EXIT_ERROR
    sys.exit(code if isinstance(code, int) else 0)
