"""Which cluster a group command talks to, and opening it for exactly one command.

Kept apart from the commands so every one of them selects a cluster with the same options, the
same environment variables and the same messages: `--local DIR` for the in-process coordinator,
or `--bootstrap-server` with `--command-config FILE` and `-X key=value` for a Kafka cluster, every
network operation bounded by `--timeout`, or a named context from the config file
(`groupctl.kafka.contexts`).

Precedence, for one setting: `-b` over `-X` over `--command-config` (and GROUPCTL_SASL_PASSWORD,
GROUPCTL_SSL_KEY_PASSWORD) over the context. A context named by `--context`/GROUPCTL_CONTEXT is the
base the others override one by one; the file's `current-context` applies only when neither `-b`
nor `--command-config` is given, so a cluster named on the command line never receives another
cluster's credentials.
"""

from __future__ import annotations

import functools
import inspect
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import typer

from groupctl.cli.completion import complete_contexts
from groupctl.cli.durations import duration_option, forms
from groupctl.cli.names import utf8_callback
from groupctl.cli.options import path_parser, settings
from groupctl.errors import UsageError

if TYPE_CHECKING:
    from groupctl.backends.base import Backend
    from groupctl.kafka.contexts import Context

LOCAL_ENV: Final = "GROUPCTL_LOCAL"
BOOTSTRAP_ENV: Final = "GROUPCTL_BOOTSTRAP_SERVER"
COMMAND_CONFIG_ENV: Final = "GROUPCTL_COMMAND_CONFIG"
CONTEXT_ENV: Final = "GROUPCTL_CONTEXT"
DEFAULT_TIMEOUT_S: Final = 30.0
#: How long remove-members waits before looking for removed members that came back: a member whose
#: process still runs rejoins on its next heartbeat (3 s for classic consumers and 5 s for KIP-848
#: groups by default). The local backend's simulated members act only when told, so it does not wait.
REJOIN_WAIT_S: Final = 6.0

_parse_timeout = duration_option(bare_unit="ms")


def _timeout(value: str | float) -> float:
    """--timeout's parser: Kafka's reading (a bare number is milliseconds), remembering a bare value under
    a second, which is more likely meant as seconds, so that a failure can say how to write those."""
    seconds = _parse_timeout(value)
    text = str(value).strip()
    if isinstance(value, str) and text.replace(".", "", 1).isdigit() and seconds < 1:
        settings.short_bare_timeout = text
    return seconds


LocalOption = typer.Option(
    None,
    "--local",
    metavar="DIR",
    envvar=LOCAL_ENV,
    parser=path_parser("directory of the local coordinator"),
    help="Use the in-process group coordinator whose state is in DIR (also GROUPCTL_LOCAL).",
)
BootstrapOption = typer.Option(
    None,
    "--bootstrap-server",
    "-b",
    metavar="HOST:PORT[,...]",
    envvar=BOOTSTRAP_ENV,
    callback=utf8_callback("bootstrap servers"),
    help="The Kafka cluster to use (also GROUPCTL_BOOTSTRAP_SERVER).",
)
CommandConfigOption = typer.Option(
    None,
    "--command-config",
    metavar="FILE",
    envvar=COMMAND_CONFIG_ENV,
    parser=path_parser("client properties file", directory=False),
    help="Client properties, Java or librdkafka names (security.protocol, sasl.*, ssl.* ...), the file "
    "kafka-consumer-groups.sh takes (also GROUPCTL_COMMAND_CONFIG). Secrets may also come from "
    "GROUPCTL_SASL_PASSWORD and GROUPCTL_SSL_KEY_PASSWORD.",
)
OverrideOption = typer.Option(
    None,
    "-X",
    metavar="KEY=VALUE",
    callback=utf8_callback("client property"),
    help="A client property, over the --command-config file (repeatable). Secrets are refused here: "
    "use the file, GROUPCTL_SASL_PASSWORD or GROUPCTL_SSL_KEY_PASSWORD.",
)
ContextOption = typer.Option(
    None,
    "--context",
    metavar="NAME",
    envvar=CONTEXT_ENV,
    callback=utf8_callback("context name"),
    help="A named cluster from the config file (GROUPCTL_CONFIG, else ~/.config/groupctl/config.toml; also "
    "GROUPCTL_CONTEXT); default its current-context when neither -b nor --command-config is given. -b, -X and "
    "--command-config override the context's settings one by one.",
    autocompletion=complete_contexts,
)
TimeoutOption = typer.Option(
    "30s",
    "--timeout",
    metavar="DURATION",
    parser=_timeout,
    help="Give up on the cluster after this long: each operation's connections, requests and retries "
    f"together. A duration: {forms('ms')}, from 1ms to 24h; --timeout 5000 is 5 s, as kafka-consumer-groups.sh "
    "reads it.",
)

NO_CLUSTER: Final = (
    "no cluster selected: pass --bootstrap-server HOST:PORT (or set GROUPCTL_BOOTSTRAP_SERVER, or give a "
    "--command-config file with bootstrap.servers) or --context NAME (or `groupctl context use NAME`) for a Kafka "
    "cluster, or --local DIR (or set GROUPCTL_LOCAL) for the in-process coordinator"
)
NO_LOCAL: Final = (
    "no local coordinator selected: pass --local DIR (or set GROUPCTL_LOCAL); these commands drive the "
    "in-process coordinator only, so --bootstrap-server does not apply"
)


@dataclass(frozen=True)
class ClusterChoice:
    """The cluster the command line selected, checked; open it with `open_cluster`."""

    local: Path | None = None
    bootstrap: str | None = None
    command_config: Path | None = None
    overrides: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT_S
    context: Context | None = None

    @property
    def rejoin_wait_s(self) -> float:
        """remove-members' default wait before it looks for removed members that are back."""
        return 0.0 if self.local is not None else REJOIN_WAIT_S


def _named(option: str, value: object, env: str) -> str:
    """The option as the user gave it: on the command line, or through its environment variable."""
    return f"{env} (--{option})" if value is not None and os.environ.get(env) == str(value) else f"--{option}"


def choose_cluster(
    local: Path | None,
    bootstrap: str | None = None,
    command_config: Path | None = None,
    overrides: list[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    context: str | None = None,
) -> ClusterChoice:
    """Check the cluster options together: exactly one cluster, and no secret in -X (usage errors).

    The named context, or else the config file's current one when no -b or --command-config is given
    (and no --local), becomes the base of the Kafka settings (see the module's precedence)."""
    extra = tuple(overrides or ())
    kafka = [
        name
        for name, given in (
            (_named("bootstrap-server", bootstrap, BOOTSTRAP_ENV), bootstrap),
            (_named("command-config", command_config, COMMAND_CONFIG_ENV), command_config),
            ("-X", extra or None),
            (_named("context", context, CONTEXT_ENV), context),
        )
        if given
    ]
    if local is not None and kafka:
        raise UsageError(
            f"{_named('local', local, LOCAL_ENV)} selects the in-process coordinator and {', '.join(kafka)} a Kafka "
            "cluster: give one of them"
        )
    chosen = None if local is not None else _context(context, bootstrap is not None or command_config is not None)
    if local is None and not kafka and chosen is None:
        raise UsageError(NO_CLUSTER)
    if command_config is not None:
        _check_readable(command_config, _named("command-config", command_config, COMMAND_CONFIG_ENV))
    if extra:
        from groupctl.kafka.config import refuse_secret_overrides  # the Kafka client only when it is used

        refuse_secret_overrides(extra)
    return ClusterChoice(local, bootstrap, command_config, extra, timeout, chosen)


def _context(name: str | None, explicit_cluster: bool) -> Context | None:
    """The context named, else the config file's current one unless the command line names a cluster."""
    if name is None and explicit_cluster:
        return None
    from groupctl.kafka.contexts import load_contexts, shown_path

    contexts = load_contexts()
    if name is not None:
        return contexts.get(name, _named("context", name, CONTEXT_ENV))
    if contexts.current is None:
        return None
    return contexts.get(contexts.current, f"{shown_path(contexts.path)}: current-context")


def _check_readable(path: Path, option: str) -> None:
    """The client properties file is part of the command line: one that is missing, a directory or
    unreadable is a usage error (exit 2), said before anything is asked of the cluster."""
    if not path.exists():
        raise UsageError(f"{option} {path}: no such file; give the client properties file "
                         "(what kafka-consumer-groups.sh --command-config takes)")
    if path.is_dir():
        raise UsageError(f"{option} {path} is a directory; give the client properties file in it")
    try:
        if path.is_file():  # not a pipe (`<(vault read ...)`): opening one waits for its writer
            with path.open("rb"):
                pass
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot read it ({exc.strerror or exc}); check its permissions") from None


@dataclass(frozen=True)
class ClusterOptions:
    """The cluster options as given; `choose()` checks them (a usage error when they do not select one)."""

    local: Path | None
    bootstrap: str | None
    command_config: Path | None
    overrides: list[str] | None
    timeout: float
    context: str | None = None

    def choose(self) -> ClusterChoice:
        return choose_cluster(self.local, self.bootstrap, self.command_config, self.overrides, self.timeout,
                              self.context)


#: The options `with_cluster_options` adds to a command: (name, Typer option, type).
_CLUSTER_PARAMETERS = (
    ("local", LocalOption, Path),
    ("bootstrap", BootstrapOption, str),
    ("command_config", CommandConfigOption, Path),
    ("overrides", OverrideOption, list[str]),
    ("context", ContextOption, str),
    ("timeout", TimeoutOption, float),
)


def with_cluster_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command every cluster option (--local, --bootstrap-server, --command-config, -X,
    --context, --timeout) as one `cluster: ClusterOptions` argument, so the options are declared once.

    The options appear in --help before `--output` (or last), in the order above.
    """
    signature = inspect.signature(command)
    kept = [p for name, p in signature.parameters.items() if name != "cluster"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
             for name, option, kind in _CLUSTER_PARAMETERS]
    at = next((i for i, p in enumerate(kept) if p.name == "output"), len(kept))
    kept = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in kept]

    @functools.wraps(command)
    def run(**kwargs: Any) -> None:
        given = {name: kwargs.pop(name) for name, _, _ in _CLUSTER_PARAMETERS}
        return command(cluster=ClusterOptions(**given), **kwargs)

    shown = signature.replace(parameters=kept[:at] + added + kept[at:])
    run.__signature__ = shown  # type: ignore[attr-defined]  # what inspect.signature (and Typer) reads; not declared
    run.__annotations__ = {**{k: v for k, v in command.__annotations__.items() if k != "cluster"},
                           **{name: kind for name, _, kind in _CLUSTER_PARAMETERS}}
    return run


def _print_notices(backend: Backend, already: int) -> int:
    """Say on stderr what the backend repaired or noticed; returns how many have been said."""
    for notice in backend.notices[already:]:
        typer.echo(f"groupctl: note: {notice}", err=True)
    return len(backend.notices)


def _open(choice: ClusterChoice) -> Backend:
    if choice.local is not None:
        from groupctl.backends.local import LocalBackend  # the coordinator is costly to import: only when used

        return LocalBackend(choice.local)
    from groupctl.backends.kafka import KafkaBackend
    from groupctl.kafka.config import load_client_config

    base = {}
    if choice.context is not None:
        warning = choice.context.world_readable_warning()
        if warning:
            typer.echo(f"groupctl: warning: {warning}", err=True)
        base = choice.context.properties(os.environ)
    config = load_client_config(
        choice.command_config, choice.overrides, bootstrap_servers=choice.bootstrap, environ=os.environ, base=base
    )
    if settings.debug:
        shown = ", ".join(f"{k}={v}" for k, v in config.redacted().items())
        named = f" (context '{choice.context.name}')" if choice.context is not None else ""
        typer.echo(f"groupctl: client settings for {config.bootstrap_text}{named}: {shown}", err=True)
    return KafkaBackend(config, timeout=choice.timeout)


@contextmanager
def _sockets_may_break() -> Iterator[None]:
    """SIGPIPE ignored while a cluster is open: the CLI sets its default action so that `| head` ends
    groupctl quietly, but a broker closing a connection must be an error with a message (EPIPE),
    not a silent death."""
    if not hasattr(signal, "SIGPIPE") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGPIPE, previous)


@contextmanager
def open_cluster(choice: ClusterChoice) -> Iterator[Backend]:
    """The selected backend, open for one command; closed (and, locally, unlocked) on the way out."""
    with _sockets_may_break():
        backend = _open(choice)
        shown = _print_notices(backend, 0)
        try:
            with backend:  # a local DIR rolls back a command that failed on the way
                yield backend
        finally:
            _print_notices(backend, shown)
