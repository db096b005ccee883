"""Finding group coordinators, and running group RPCs on them with Kafka's retry rules.

FindCoordinator v4+ takes many group ids in one request (KIP-699); older brokers get one request
per group. A group RPC answered with NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE means the group
moved or its coordinator is starting: look it up again. COORDINATOR_LOAD_IN_PROGRESS means the
right broker is still loading the group: ask it again. Both after a backoff (100 ms doubling to
1 s, Kafka's retry.backoff.ms and retry.backoff.max.ms defaults), never past the deadline.

A coordinator whose connection breaks is looked up again too: after a failover, FindCoordinator
names the new one. But a coordinator that refuses connections again and again (`REFUSED_LIMIT`
times in a row, under a second with the backoff) is a broker that went away: waiting out the
deadline would only turn "connection refused" into "timed out", so the call fails at once with that
cause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from groupctl.kafka.cluster import Broker, Cluster
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.deadline import Deadline, seconds_text
from groupctl.kafka.errors import (
    COORDINATOR_LOAD_IN_PROGRESS,
    COORDINATOR_NOT_AVAILABLE,
    NOT_COORDINATOR,
    REFUSED,
    ConnectionFailed,
    CoordinatorUnavailable,
    broker_error,
    error_name,
)
from groupctl.plurals import counted, plural
from groupctl.protocol.data.group_admin import FindCoordinatorRequestData, FindCoordinatorResponseData

FIND_COORDINATOR: Final = 10
FIND_COORDINATOR_VERSIONS: Final = range(0, 7)
BATCHED_FROM: Final = 4
ERROR_MESSAGE_FROM: Final = 1
GROUP_KEY_TYPE: Final = 0
RETRIABLE: Final = frozenset({COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR})
REDISCOVER: Final = frozenset({COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR})
INITIAL_BACKOFF_S: Final = 0.1
MAX_BACKOFF_S: Final = 1.0
REFUSED_LIMIT: Final = 3

T = TypeVar("T")


@dataclass(frozen=True)
class CoordinatorAnswer:
    """FindCoordinator's answer for one group id."""

    key: str
    node_id: int
    host: str
    port: int
    error_code: int
    error_message: str | None = None

    @property
    def broker(self) -> Broker:
        return Broker(self.node_id, self.host, self.port)


def find_coordinator_request(version: int, keys: Sequence[str]) -> FindCoordinatorRequestData:
    """All keys at v4+; exactly one below."""
    if version >= BATCHED_FROM:
        return FindCoordinatorRequestData(key_type=GROUP_KEY_TYPE, coordinator_keys=list(keys))
    if len(keys) != 1:
        raise ValueError(f"FindCoordinator v{version} takes one key, got {len(keys)}")
    return FindCoordinatorRequestData(key=keys[0], key_type=GROUP_KEY_TYPE)


def parse_find_coordinator(
    body: FindCoordinatorResponseData, version: int, keys: Sequence[str]
) -> dict[str, CoordinatorAnswer]:
    if version >= BATCHED_FROM:
        return {
            c.key: CoordinatorAnswer(c.key, c.node_id, c.host, c.port, c.error_code, c.error_message)
            for c in body.coordinators
        }
    (key,) = keys
    message = body.error_message if version >= ERROR_MESSAGE_FROM else None  # v0's is the class default, ""
    return {key: CoordinatorAnswer(key, body.node_id, body.host, body.port, body.error_code, message)}


def find_coordinators(
    cluster: Cluster, group_ids: Sequence[str], deadline: Deadline, conn: BrokerConnection | None = None
) -> dict[str, CoordinatorAnswer]:
    """One lookup round for `group_ids` (no retries) on `conn` or any open connection; every group
    gets an answer or an error code."""
    conn = conn if conn is not None else cluster.any_connection(deadline)
    version = conn.version_for(FIND_COORDINATOR, FIND_COORDINATOR_VERSIONS)
    batches = [list(group_ids)] if version >= BATCHED_FROM else [[g] for g in group_ids]
    answers: dict[str, CoordinatorAnswer] = {}
    for batch in batches:
        body = conn.request(FIND_COORDINATOR, version, find_coordinator_request(version, batch), deadline)
        answers.update(parse_find_coordinator(body, version, batch))
    missing = [g for g in group_ids if g not in answers]
    for g in missing:
        answers[g] = CoordinatorAnswer(g, -1, "", -1, COORDINATOR_NOT_AVAILABLE, "no answer for this group")
    return answers


def on_coordinators(
    cluster: Cluster,
    group_ids: Iterable[str],
    send: Callable[[BrokerConnection, list[str], Deadline], dict[str, T]],
    error_code_of: Callable[[T], int],
    deadline: Deadline,
    what: str,
) -> dict[str, T]:
    """Run `send(connection, groups, deadline)` on each group's coordinator until every group has an
    answer whose error is not a coordinator error, rediscovering and backing off in between.

    `send` returns one answer per group it was given. When the deadline passes first,
    `CoordinatorUnavailable` names the groups still waiting and the last thing each one met.
    """
    pending = list(dict.fromkeys(group_ids))
    results: dict[str, T] = {}
    last: dict[str, str] = {}
    refused: dict[str, int] = {}
    backoff = INITIAL_BACKOFF_S
    while pending:
        located = _locate(cluster, pending, deadline, last)
        by_node: dict[int, tuple[Broker, list[str]]] = {}
        for group, broker in located.items():
            by_node.setdefault(broker.node_id, (broker, []))[1].append(group)
        for broker, groups in by_node.values():
            try:
                conn = cluster.connection(broker, deadline)
                answers = send(conn, groups, deadline)
            except ConnectionFailed as exc:
                cluster.drop(broker.node_id)
                for group in groups:
                    cluster.forget_coordinator(group)
                    last[group] = str(exc)
                refused[broker.address] = refused.get(broker.address, 0) + 1 if exc.refused else 0
                if refused[broker.address] >= REFUSED_LIMIT:
                    raise _gone(broker, groups, what, refused[broker.address]) from exc
                continue
            refused.pop(broker.address, None)
            for group in groups:
                if group not in answers:
                    last[group] = f"{broker} sent no answer for it"
                    continue
                code = error_code_of(answers[group])
                if code in RETRIABLE:
                    last[group] = f"{error_name(code)} from {broker}"
                    if code in REDISCOVER:
                        cluster.forget_coordinator(group)
                else:
                    results[group] = answers[group]
        pending = [g for g in pending if g not in results]
        if not pending:
            break
        if deadline.remaining() <= 0:
            break
        deadline.sleep(backoff)
        backoff = min(backoff * 2, MAX_BACKOFF_S)
        if deadline.expired:
            break
    if pending:
        details = "; ".join(f"'{g}': {last.get(g, 'not tried')}" for g in pending)
        raise CoordinatorUnavailable(
            f"{what}: no coordinator answered within {seconds_text(deadline.total)} for "
            f"{counted(len(pending), 'group')} ({details}); "
            "the group may be moving or loading: try again, or give more time with --timeout"
        )
    return results


def _gone(broker: Broker, groups: list[str], what: str, attempts: int) -> ConnectionFailed:
    named = ", ".join(f"'{g}'" for g in groups)
    return ConnectionFailed(
        broker.address,
        f"{REFUSED} {attempts} times in a row by node {broker.node_id}, the coordinator of "
        f"{plural(len(groups), 'group')} {named} "
        f"({what}); the broker went away: start it again, or retry once its groups have moved to another broker",
    )


def _locate(cluster: Cluster, groups: list[str], deadline: Deadline, last: dict[str, str]) -> dict[str, Broker]:
    """The known coordinator of each group, looking up the unknown ones once. A lookup whose
    connection breaks is retried by the caller; a cluster that cannot be reached at all is not."""
    found = {g: cluster.coordinators[g] for g in groups if g in cluster.coordinators}
    missing = [g for g in groups if g not in found]
    if not missing:
        return found
    conn = cluster.any_connection(deadline)  # an unreachable cluster fails here, at once
    try:
        answers = find_coordinators(cluster, missing, deadline, conn)
    except ConnectionFailed as exc:
        for g in missing:
            last[g] = f"FindCoordinator: {exc}"
        return found
    for group, answer in answers.items():
        if answer.error_code == 0:
            cluster.coordinators[group] = found[group] = answer.broker
        elif answer.error_code in RETRIABLE:
            last[group] = f"FindCoordinator: {error_name(answer.error_code)}"
        else:
            raise broker_error(answer.error_code, answer.error_message, f"FindCoordinator for group '{group}'")
    return found
