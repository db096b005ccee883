"""Client processes around the library's simulated clients, shared by the simulations that run classic clients
(tests/coordinator/test_simulation_classic.py, and test_simulation_mixed.py where classic and KIP-848 clients share
one group).

What a process adds to its client: a stall, a pending start, a death in the middle of a request (`Proc`); the link
through which its requests reach whichever coordinator the scenario has now, logged and checked on the way
(`Link`); and the JoinGroup/SyncGroup requests a coordinator holds until a rebalance completes (`ParkedRequests`),
which a failover answers with NOT_COORDINATOR as Kafka's `onUnloaded` does, and which the Java client gives up on
after request.timeout.ms when nobody will ever answer them. `ClassicReplay` checks a live classic group against its
last GroupMetadataValue and against what a coordinator rebuilt from the log loads. `process_scenario.py` puts
them together into the scenario both simulations build on.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any, Protocol

from groupctl.coordinator.runtime import DEFAULT_CALLER, Caller
from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.leaving import LeaveAnswer
from groupctl.model import GroupState
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.simulation.clients import ClassicClient, ConsumerClient
from tests.classic_requests import join_answer, sync_answer
from tests.simulation.runner import CurrentCoordinator

#: request.timeout.ms: how long the Java client waits for a SyncGroup answer before it gives up and rejoins.
REQUEST_TIMEOUT_MS = 30_000
NOT_COORDINATOR = KAFKA_ERROR_CODES["NOT_COORDINATOR"]


class Proc:
    """One client process (a pod's JVM): the simulated client plus what the harness knows about it."""

    def __init__(self, name: str, kind: str, *, version: int = 9, session_ms: int = 45_000) -> None:
        self.name = name
        self.kind = kind  # "classic" | "consumer"
        self.client: ClassicClient | ConsumerClient = None  # type: ignore[assignment]
        self.version = version  # the JoinGroup version it speaks (classic)
        self.session_ms = session_ms
        self.paused_until: int | None = None  # a stalled process (GC pause, a frozen VM)
        self.start_at: int | None = None  # a pending start: back from a bounce, or restarted by its supervisor
        self.anomalies: list[str] = []
        self.anomalies_seen = 0
        self.dead = False  # killed in the middle of a tick: whatever it still sends never arrives
        self.granted_at = -1  # the coordinator incarnation that granted its current member id

    def __repr__(self) -> str:
        return self.name

    @property
    def instance_id(self) -> str | None:
        return self.client.instance_id

    def ticking(self) -> bool:
        return self.client.running and self.paused_until is None and self.start_at is None and not self.dead


class Requests(Protocol):
    """What a scenario does with each request of a process on its way to the coordinator."""

    def on_join(self, proc: Any, req: JoinGroupRequestData, respond: Callable[[JoinGroupResponseData], None],
                caller: Caller) -> None: ...

    def on_sync(self, proc: Any, req: SyncGroupRequestData,
                respond: Callable[[SyncGroupResponseData], None]) -> None: ...

    def on_classic_heartbeat(self, proc: Any, req: HeartbeatRequestData) -> HeartbeatResponseData: ...

    def on_leave(self, proc: Any, group_id: str, identities: list) -> LeaveAnswer: ...

    def on_consumer_heartbeat(self, proc: Any, req: Any, caller: Caller) -> Any: ...


class Link(CurrentCoordinator):
    """The coordinator as one client process sees it: requests go to the scenario's current coordinator
    (so a failover redirects every client), and are logged and checked by the scenario on their way. A
    process killed mid-tick sends nothing more."""

    def __init__(self, sim: Any, proc: Proc) -> None:
        super().__init__(sim)
        self.sim: Requests = sim
        self.proc = proc

    def join_group(self, req: JoinGroupRequestData, respond: Callable[[JoinGroupResponseData], None],
                   caller: Caller = DEFAULT_CALLER) -> None:
        if not self.proc.dead:
            self.sim.on_join(self.proc, req, respond, caller)

    def sync_group(self, req: SyncGroupRequestData, respond: Callable[[SyncGroupResponseData], None]) -> None:
        if not self.proc.dead:
            self.sim.on_sync(self.proc, req, respond)

    def classic_heartbeat(self, req: HeartbeatRequestData) -> HeartbeatResponseData:
        if self.proc.dead:
            return HeartbeatResponseData()
        return self.sim.on_classic_heartbeat(self.proc, req)

    def leave_group(self, group_id: str, identities):
        if self.proc.dead:
            return LeaveAnswer()
        return self.sim.on_leave(self.proc, group_id, list(identities))

    def heartbeat(self, req, caller: Caller = DEFAULT_CALLER):
        return self.sim.on_consumer_heartbeat(self.proc, req, caller)


class ParkedRequests:
    """JoinGroup/SyncGroup requests the coordinator has not answered yet, each wrapped so that its answer is
    seen by the scenario (`seen(proc, api, req, answer)`) before the client gets it, and answered once only."""

    def __init__(self, seen: Callable[[Proc, str, Any, Any], None]) -> None:
        self.seen = seen
        self.entries: dict[int, tuple[Proc, str, Any, Callable, int]] = {}
        self.seq = 0

    def __contains__(self, key: int) -> bool:
        return key in self.entries

    def park(self, proc: Proc, api: str, req: Any, respond: Callable, now: int) -> tuple[int, Callable]:
        """The wrapped callback to hand the coordinator, and its key (in `self` while unanswered)."""
        self.seq += 1
        key = self.seq

        def answer(r: Any) -> None:
            if self.entries.pop(key, None) is None:
                return
            self.seen(proc, api, req, r)
            respond(r)

        self.entries[key] = (proc, api, req, answer, now)
        return key, answer

    def orphans(self, members: Container[str] | None) -> list[tuple[int, Callable]]:
        """Parked SyncGroups whose member is no longer among `members` (None: no group): nobody will answer them,
        in Kafka either; the Java client gives up after request.timeout.ms and joins again. (deadline, answer)"""
        return [(sent + REQUEST_TIMEOUT_MS, answer) for _, api, req, answer, sent in self.entries.values()
                if api == "SyncGroup" and (members is None or req.member_id not in members)]

    def time_out(self, t: int, members: Container[str] | None) -> int:
        """Answer the orphans due by `t` as the client's request timeout; how many."""
        due = [answer for deadline, answer in self.orphans(members) if deadline <= t]
        for answer in due:
            answer(sync_answer(error_code=KAFKA_ERROR_CODES["REQUEST_TIMED_OUT"]))
        return len(due)

    def unload(self) -> None:
        """The coordinator fails over: what it held is answered NOT_COORDINATOR (and never again)."""
        for _proc, api, req, answer, _sent in list(self.entries.values()):
            if api == "JoinGroup":
                answer(join_answer(error_code=NOT_COORDINATOR, member_id=req.member_id))
            else:
                answer(sync_answer(error_code=NOT_COORDINATOR))
        self.entries.clear()


def live_projection(group) -> tuple:
    """What a live classic group's GroupMetadataValue must say."""
    return (group.generation, group.protocol_type or "", group.protocol_name, group.leader,
            -1 if group.state_timestamp is None else group.state_timestamp,
            sorted((m.member_id, m.instance_id, m.client_id, m.session_timeout_ms, m.rebalance_timeout_ms,
                    bytes(m.metadata(group.protocol_name)), bytes(m.assignment)) for m in group.members.values()))


def persisted_projection(state) -> tuple:
    """The same fields, from the replayed GroupMetadataValue."""
    return (state.generation, state.protocol_type, state.protocol, state.leader, state.current_state_timestamp,
            sorted((m.member_id, m.group_instance_id, m.client_id, m.session_timeout,
                    m.rebalance_timeout, bytes(m.subscription), bytes(m.assignment))
                   for m in state.raw_members))


class ClassicReplay:
    """A Stable or Empty classic group is what its last GroupMetadataValue says, and what a coordinator rebuilt
    from the log loads (the rebuilt group is read once per rebuilt coordinator)."""

    def __init__(self, group_id: str) -> None:
        self.group_id = group_id
        self._loaded: tuple[object, tuple | None] | None = None  # (rebuilt coordinator, its group's projection)

    def problem(self, coord, rebuilt) -> str | None:
        """What differs (None: nothing, or the group is mid-rebalance, which no record describes)."""
        group = coord.classic.groups.get(self.group_id)
        if group is None or group.state not in (GroupState.STABLE, GroupState.EMPTY):
            return None
        persisted = coord.runtime.state.classic.get(self.group_id)
        if persisted is None:
            return f"a {group.state} classic group without a record"
        live, stored = live_projection(group), persisted_projection(persisted)
        if live != stored:
            return f"{group.state} group differs from its last record:\n  live   {live}\n  record {stored}"
        if self._loaded is None or self._loaded[0] is not rebuilt:
            loaded = rebuilt.classic.groups.get(self.group_id)
            self._loaded = (rebuilt, None if loaded is None else (loaded.state, live_projection(loaded)))
        expected = (GroupState.STABLE if group.members else GroupState.EMPTY, live)
        if self._loaded[1] != expected:
            return f"a coordinator rebuilt from the log loads {self._loaded[1]}, live is {(group.state, live)}"
        return None
