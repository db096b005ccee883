"""`groupctl serve`: the local coordinator in DIR behind a Kafka protocol listener, until stopped.

Parsing and reporting only: the options become a `ServerOptions` (users file and TLS context read
by `groupctl.server.auth`), `serve_until_signalled` runs the listener, and the one line on stdout
says where it is, so a script can start it with `--port 0` and read the port back.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groupctl.cli.cluster import LOCAL_ENV
from groupctl.cli.completion import complete_coordinator_versions, complete_sasl_mechanisms
from groupctl.cli.options import OutputOption, output_format, path_parser
from groupctl.errors import GroupctlError, UsageError
from groupctl.output import Column, OutputFormat, envelope, render

if TYPE_CHECKING:
    from groupctl.server.broker import Listener

#: Kafka's `socket.request.max.bytes` default, and the most a request size prefix can say.
DEFAULT_MAX_REQUEST_BYTES = 100 * 1024 * 1024
MAX_REQUEST_BYTES_LIMIT = 2**31 - 1
_WILDCARDS = ("0.0.0.0", "::", "")
_COLUMNS = [Column("bootstrap", "BOOTSTRAP"), Column("listener", "LISTENER"), Column("dir", "DIR")]


def _security_hint(protocol: str, mechanisms: tuple[str, ...], users: Path | None) -> str:
    parts = [f"security.protocol={protocol}"] if protocol != "PLAINTEXT" else []
    if mechanisms:
        parts.append(f"sasl.mechanism={mechanisms[0]}" + (f" (or {', '.join(mechanisms[1:])})" if mechanisms[1:]
                                                            else ""))
        parts.append(f"sasl.username/sasl.password of a user in {users}")
    if protocol.endswith("SSL"):
        parts.append("ssl.ca.location=<the CA that signed --tls-cert>")
    return ", ".join(parts)


def serve(
    local: Path = typer.Option(
        None, "--local", metavar="DIR", envvar=LOCAL_ENV, parser=path_parser("directory of the state to serve"),
        help="The coordinator state to serve (also GROUPCTL_LOCAL); created if missing.",
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 for every interface."),
    port: int = typer.Option(9092, "--port", min=0, max=65535, help="Port to listen on; 0 picks a free one."),
    advertised_host: str = typer.Option(
        None, "--advertised-host", metavar="HOST",
        help="Host clients are told to connect to (Metadata, FindCoordinator); default --host.",
    ),
    tls_cert: Path = typer.Option(None, "--tls-cert", metavar="FILE",
                                  help="PEM certificate chain: serve over TLS (SSL, or SASL_SSL with --sasl-users)."),
    tls_key: Path = typer.Option(None, "--tls-key", metavar="FILE", help="PEM private key of --tls-cert."),
    sasl_users: Path = typer.Option(
        None, "--sasl-users", metavar="FILE",
        help="Require SASL: one user:password per line ('#' comments). SCRAM credentials are derived at start.",
    ),
    sasl_mechanisms: str = typer.Option(
        None, "--sasl-mechanisms", metavar="LIST",
        help="SASL mechanisms offered, comma-separated: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (default: all three).",
        autocompletion=complete_sasl_mechanisms,
    ),
    max_connections: int = typer.Option(1000, "--max-connections", min=1,
                                        help="Connections served at once; more are closed on arrival."),
    max_request_bytes: int = typer.Option(
        DEFAULT_MAX_REQUEST_BYTES, "--max-request-bytes", min=1, max=MAX_REQUEST_BYTES_LIMIT,
        help="Largest request accepted (Kafka's socket.request.max.bytes); a larger size prefix closes the "
        "connection.",
    ),
    broker_config: list[str] = typer.Option(
        None, "--broker-config", metavar="KEY=VALUE",
        help="A broker setting for this run (repeatable), e.g. group.consumer.migration.policy=upgrade: it "
        "overrides DIR's saved settings (`groupctl local settings`) without saving them.",
    ),
    kafka: str = typer.Option(
        None, "--kafka-version", metavar="X.Y",
        help="The Kafka release to stand in for, 4.0 to 4.3: its coordinator records are written (the same as "
        "--broker-config kafka.version=X.Y; default DIR's setting, else the newest).",
        autocompletion=complete_coordinator_versions,
    ),
    output: OutputFormat = OutputOption,
) -> None:
    """Serve the in-process coordinator of DIR to real Kafka clients, until Ctrl-C or SIGTERM.

    A single-node cluster (node 1, also the controller) on 127.0.0.1:9092 by default. Served:
    ApiVersions, Metadata, FindCoordinator, DescribeCluster; CreateTopics and CreatePartitions;
    Produce, Fetch and ListOffsets on per-partition logs in DIR, InitProducerId for idempotent
    producers; the classic group protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) with
    static membership, and KIP-848 ConsumerGroupHeartbeat; OffsetCommit, OffsetFetch, ListGroups,
    DescribeGroups, ConsumerGroupDescribe, DeleteGroups; DescribeConfigs and IncrementalAlterConfigs for GROUP
    configs (TOPIC and BROKER configs are read-only); SASL PLAIN and SCRAM-SHA-256/512, and TLS,
    when configured.

    Not served: transactions (there is no transaction coordinator), topic deletion, automatic
    topic creation (create topics first, with a client or `groupctl local topics create`), the
    legacy AlterConfigs, ACLs, quotas, SCRAM credential changes, share and streams groups, and
    replication (one node, replication factor 1).

    The group coordinator runs with DIR's broker settings (`groupctl local settings`), among them
    group.consumer.migration.policy (default bidirectional): classic and consumer-protocol members
    may share a group.id, the group becoming a consumer group while any consumer-protocol member is
    in it and classic again after the last one leaves. --broker-config overrides them for one run.

    The coordinator runs on the wall clock. On stdout: one line saying where to connect (the
    bootstrap address; with -o json, one JSON line with listener, bootstrap and dir). On stderr:
    the listener and how to connect. While it runs, other groupctl commands on DIR refuse with a
    message naming the listener; on SIGINT or SIGTERM it closes every connection, saves DIR and
    exits 0.
    """
    if local is None:
        raise UsageError(f"groupctl serve needs the state to serve: --local DIR (or {LOCAL_ENV}=DIR); DIR is created "
                         "if missing")
    if local.exists() and not local.is_dir():
        raise UsageError(f"--local: '{local}' is not a directory")
    if (tls_cert is None) != (tls_key is None):
        raise UsageError("--tls-cert and --tls-key go together: give the PEM certificate and its private key")
    if sasl_mechanisms is not None and sasl_users is None:
        raise UsageError("--sasl-mechanisms needs --sasl-users FILE (the users SASL checks)")
    fmt = output_format(output)
    given = _broker_config([*(broker_config or []), *([f"kafka.version={kafka}"] if kafka is not None else [])])

    from groupctl.server.auth import parse_mechanisms, read_users, tls_context
    from groupctl.server.connection import Limits
    from groupctl.server.server import ServerOptions, serve_until_signalled

    mechanisms: tuple[str, ...] = ()
    users = {}
    if sasl_users is not None:
        mechanisms = parse_mechanisms(sasl_mechanisms or "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512")
        users = read_users(sasl_users, mechanisms)
    tls = tls_context(tls_cert, tls_key) if tls_cert is not None and tls_key is not None else None
    if advertised_host is None and host in _WILDCARDS:
        advertised_host = "127.0.0.1"
        typer.echo("groupctl serve: note: listening on every interface but telling clients 127.0.0.1; give "
                   "--advertised-host HOST for clients on other machines", err=True)
    options = ServerOptions(
        local, host=host, port=port, advertised_host=advertised_host, tls=tls, sasl_mechanisms=mechanisms,
        users=users, limits=Limits(max_request_bytes=max_request_bytes, max_connections=max_connections),
        broker_settings=given,
    )

    def ready(listener: Listener) -> None:
        bootstrap = f"{listener.host}:{listener.port}"
        protocol = listener.protocol
        item = {"listener": str(listener), "bootstrap": bootstrap, "dir": str(local.resolve()),
                "securityProtocol": protocol, "saslMechanisms": list(mechanisms)}
        try:
            if fmt is OutputFormat.json:
                typer.echo(json.dumps(envelope("Listener", [item]), ensure_ascii=False))
            elif fmt in (OutputFormat.table, OutputFormat.wide):
                typer.echo(bootstrap)
            else:
                render("Listener", [item], _COLUMNS, fmt)
            sys.stdout.flush()
        except BrokenPipeError:
            _stdout_gone()
        security = _security_hint(protocol, mechanisms, sasl_users)
        _note(f"listening on {listener} (state in {local})")
        _note(f"connect Kafka clients with bootstrap.servers={bootstrap}" + (f", {security}" if security else "")
              + f"; e.g. kafka-consumer-groups.sh --bootstrap-server {bootstrap} --list")
        _note("Ctrl-C or SIGTERM stops it and saves DIR")

    try:
        serve_until_signalled(options, ready)
    except OSError as exc:
        raise GroupctlError(f"cannot serve '{local}': {exc.strerror or exc}") from exc
    _note(f"stopped; {local} is saved")


def _broker_config(pairs: list[str]) -> dict[str, int | str]:
    """--broker-config's KEY=VALUE pairs, checked as `groupctl local settings` checks them (exit 2)."""
    from groupctl.backends.local_settings import SettingError, parse_assignments

    try:
        return parse_assignments(pairs)
    except SettingError as exc:
        raise UsageError(f"--broker-config: {exc}") from None


def _note(text: str) -> None:
    """A line on stderr; one nobody reads any more (a closed pipe) must not stop the server."""
    from groupctl.server.peer_log import to_stderr

    to_stderr(f"groupctl serve: {text}")


def _stdout_gone() -> None:
    """Whoever read stdout has gone (`| head -0`): serve on, with stdout pointed at /dev/null so that
    nothing, not even the flush at exit, writes to the closed pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
