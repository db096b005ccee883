"""Shell completion of real names: group ids and instance ids from the cluster on the command line,
context names from the config file, and the values of options that take a fixed set of words.

The shell scripts in `completions/` run `groupctl` with `_GROUPCTL_COMPLETE` set; typer's click parses the
words typed so far (without validating them) and calls these functions with that context. A TAB
must never hang, print or write: a lookup runs in a daemon thread that is abandoned after
`LOOKUP_BOUND_S` (the process exits right after answering), every failure completes nothing, and a
`--local DIR` is read as a dump (its log replayed), never opened as the coordinator, which would
lock and write DIR.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import typer

#: How long a TAB may wait for names from a cluster, connecting included.
LOOKUP_BOUND_S: Final = 1.0

Completer = Callable[[typer.Context, list[str], str], list[str]]


def _bounded(lookup: Callable[[], Iterable[str]]) -> list[str]:
    """`lookup()`'s names, or none when it fails or takes longer than LOOKUP_BOUND_S."""
    box: list[list[str]] = []

    def run() -> None:
        try:
            box.append(sorted(set(lookup())))
        except BaseException:
            return

    worker = threading.Thread(target=run, name="groupctl-completion", daemon=True)
    worker.start()
    worker.join(LOOKUP_BOUND_S)
    return box[0] if box else []


def _params(ctx: typer.Context) -> dict[str, Any]:
    """The values parsed so far, from this command up to the root (cluster options sit on the command)."""
    out: dict[str, Any] = {}
    while ctx is not None:
        for name, value in ctx.params.items():
            out.setdefault(name, value)
        ctx = ctx.parent  # type: ignore[assignment]  # typer's vendored click Context, which typer does not export
    return out


def _read_local(directory: Path) -> Any:
    """DIR's groups replayed from its log, read-only: what a describe would show, without the lock."""
    from groupctl.backends.local import LOG_DIR
    from groupctl.log.decode import open_inputs
    from groupctl.log.replay import Replay

    replay = Replay()
    log = directory / LOG_DIR
    if log.is_dir():
        for dump in open_inputs([log]):
            for _batch, records in dump.batches:
                for record in records:
                    replay.apply(record)
    return replay


def _open_kafka(params: dict[str, Any]) -> Any:
    """A Kafka backend for the cluster the line selects (context, -b, --command-config, -X), bounded."""
    import os

    from groupctl.backends.kafka import KafkaBackend
    from groupctl.cli.cluster import choose_cluster
    from groupctl.kafka.config import load_client_config

    choice = choose_cluster(None, params.get("bootstrap"), params.get("command_config"), params.get("overrides"),
                            LOOKUP_BOUND_S, params.get("context"))
    base = choice.context.properties(os.environ) if choice.context is not None else {}
    config = load_client_config(choice.command_config, choice.overrides, bootstrap_servers=choice.bootstrap,
                                environ=os.environ, base=base)
    return KafkaBackend(config, timeout=LOOKUP_BOUND_S)


def _group_ids(params: dict[str, Any]) -> list[str]:
    local = params.get("local")
    if local is not None:
        return _read_local(Path(local)).group_ids()
    backend = _open_kafka(params)
    try:
        return [g.group_id for g in backend.list_groups()]
    finally:
        backend.close()


def _instance_ids(params: dict[str, Any], group: str) -> list[str]:
    local = params.get("local")
    if local is not None:
        from groupctl.describe import describe_replayed

        replay = _read_local(Path(local))
        members = describe_replayed(replay, group).members if replay.exists(group) else []
    else:
        backend = _open_kafka(params)
        try:
            members = [m for d in backend.describe_groups([group]) for m in d.members]
        finally:
            backend.close()
    return [m.instance_id for m in members if m.instance_id]


def complete_group_ids(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Group ids on the selected cluster (`--local DIR`, else the Kafka cluster) that start as typed."""
    params = _params(ctx)
    return [g for g in _bounded(lambda: _group_ids(params)) if g.startswith(incomplete)]


def complete_local_group_ids(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """Group ids of `--local DIR` (or GROUPCTL_LOCAL) only: for the commands that drive the local coordinator."""
    local = _params(ctx).get("local")
    if local is None:
        return []
    return [g for g in _bounded(lambda: _read_local(Path(local)).group_ids()) if g.startswith(incomplete)]


def complete_instance_ids(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """The group.instance.ids of the members of the group named on the line; after a comma, the next one."""
    params = _params(ctx)
    group = params.get("group")
    if not isinstance(group, str) or not group:
        # Completing an option's value, click's parse of the line stops at that option and leaves the
        # positional words unassigned, in ctx.args: GROUP is the first of them.
        group = next((a for a in ctx.args if not a.startswith("-")), None)
    if not group:
        return []
    done, _, last = incomplete.rpartition(",")
    head = f"{done}," if done else ""
    taken = set(done.split(",")) if done else set()
    return [head + i for i in _bounded(lambda: _instance_ids(params, group)) if i.startswith(last) and i not in taken]


def complete_contexts(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    """The context names in the config file."""
    from groupctl.kafka.contexts import load_contexts

    try:
        names = load_contexts().contexts
    except Exception:
        return []
    return sorted(n for n in names if n.startswith(incomplete))


def words(values: Iterable[str] | Callable[[], Iterable[str]], *, comma_list: bool = False) -> Completer:
    """A completer offering `values` (or what calling it returns: a module that is costly to import is
    then imported only on a TAB); with `comma_list`, the item after the last comma of TYPE,TYPE...

    Matching ignores case, as the options themselves do: the letters typed are kept as typed (`st` offers
    `stable` for Stable), since the shell keeps only what starts with them."""

    def complete(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
        offered = list(values() if callable(values) else values)
        done, _, last = incomplete.rpartition(",") if comma_list else ("", "", incomplete)
        head = f"{done}," if done else ""
        taken = {d.lower() for d in done.split(",")} if done else set()
        return [head + last + v[len(last):] for v in offered
                if v.lower().startswith(last.lower()) and v.lower() not in taken]

    return complete


def _dump_versions() -> tuple[str, ...]:
    from groupctl.log.kafka_versions import SUPPORTED_VERSIONS

    return SUPPORTED_VERSIONS


def _coordinator_versions() -> tuple[str, ...]:
    from groupctl.coordinator.layout import KAFKA_VERSIONS

    return KAFKA_VERSIONS


def _record_types() -> list[str]:
    from groupctl.protocol.records import RECORD_TYPE_NAMES

    return [name for _, name in sorted(RECORD_TYPE_NAMES.items())]


def _sasl_mechanisms() -> tuple[str, ...]:
    from groupctl.sasl import SUPPORTED_MECHANISMS

    return SUPPORTED_MECHANISMS


def _spark_masters() -> list[str]:
    """Spark's local masters for this machine's cores, then the cluster managers' prefixes."""
    import os

    cores = os.cpu_count() or 1
    return ["local[*]", *(f"local[{n}]" for n in sorted({1, 2, cores} | {c for c in (4, 8) if c < cores})),
            "spark://", "yarn", "k8s://"]


#: `dump decode --kafka-version`: the kafka-dump-log.sh releases groupctl copies.
complete_dump_versions: Final = words(_dump_versions)
#: `serve`/`local settings --kafka-version`: the releases the in-process coordinator stands in for.
complete_coordinator_versions: Final = words(_coordinator_versions)
#: `dump decode --record-type`: the record type names, comma-separated.
complete_record_types: Final = words(_record_types, comma_list=True)
#: `serve --sasl-mechanisms`: comma-separated.
complete_sasl_mechanisms: Final = words(_sasl_mechanisms, comma_list=True)
#: `spark audit --master`.
complete_spark_masters: Final = words(_spark_masters)
