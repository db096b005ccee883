"""The scenario the simulations whose clients are processes share (tests/coordinator/test_simulation_classic.py:
a classic group beside a KIP-848 group; test_simulation_mixed.py: one group whose members speak both protocols).

What they have in common, on top of the runner: the processes (`processes.Proc`, each with a library client that
reaches the current coordinator through a `Link`), how time moves them (stalled processes wake, pending starts
happen, orphaned SyncGroups time out, then every ticking client acts until none does), the JoinGroup/SyncGroup
requests parked until their answer (logged and checked on the way), a failover that answers what was parked
with NOT_COORDINATOR, the events both have (stalls, graceful leaves, an admin's batch removal by instance ids),
the classic group's own invariants (indexes, leader, a session timer for every member that awaits nothing), the
replay check and the errors a client may report for reasons any such scenario explains. A harness adds its
processes' `running` and `supervise`, its other events and invariants and its convergence criterion; where the two
differ only in what they log or count, a small method says it (`group_text`, `wakes_text`, `starts_text`,
`timer_views`, `track`, `leader_assigned`, `check_rebuilt`, `explained_here`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from groupctl.coordinator.classic import ClassicGroup
from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import DEFAULT_CALLER, Caller
from groupctl.errors import KAFKA_ERROR_CODES, KAFKA_ERROR_NAMES
from groupctl.leaving import Departure, LeaveAnswer
from groupctl.model import GroupState
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    MemberIdentity,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.simulation.clients import HEARTBEAT_INTERVAL_MS, ClassicClient, ConsumerClient, assignment_partitions
from tests.simulation import runner
from tests.simulation.processes import ClassicReplay, Link, ParkedRequests, Proc
from tests.simulation.runner import classic_session_deadline, timers_due

#: A single instant may wake further clients (an answer queued during another's request); passes are bounded.
MAX_PASSES = 64


def error_name(code: int) -> str:
    """An error code as the log names it."""
    return KAFKA_ERROR_NAMES.get(code, str(code))


class ProcessScenario(runner.Scenario):
    """A scenario of client processes around the library's classic and KIP-848 clients."""

    #: The group the classic clients join (whose members' parked SyncGroups are not orphans).
    GROUP: ClassVar[str]
    IDLE_MS = HEARTBEAT_INTERVAL_MS
    #: Two heartbeat intervals of a KIP-848 member (the broker's default, 5 s), and a little.
    STEADY_MS = 2 * 5_000 + 200

    client_ids: IdGenerator  # where the KIP-848 clients draw their member ids from (a harness's own stream)

    def __init__(self, seed: int, *, steps: int | None = None) -> None:
        super().__init__(seed, steps=steps)
        self.clock = ManualClock()  # the coordinator's (a harness makes the coordinator)
        self.procs: list[Any] = []  # the processes running or about to start (a harness's Proc)
        self.all_procs: list[Any] = []  # every process there ever was (for their anomalies)
        self.pods = 0
        self.instances = 0
        self.ghosts = 0  # unknown instance ids an admin named
        self.incarnation = 0  # coordinator failovers so far
        self.parked = ParkedRequests(self.answered)
        self.classic_replay = ClassicReplay(self.GROUP)
        self.labels: dict[str, str] = {}
        self.crashed_instances: set[str] = set()  # instance ids whose process died without leaving

    # -- formatting ------------------------------------------------------------------------------------------

    def label(self, member_id: str | None) -> str:
        """Member ids are long: the log names them m1, m2, ... in order of appearance."""
        if not member_id:
            return "''"
        found = self.labels.get(member_id)
        if found is None:
            found = self.labels[member_id] = f"m{len(self.labels) + 1}"
        return found

    @staticmethod
    def fmt(partitions) -> str:
        by_topic: dict[str, list[int]] = {}
        for t, p in sorted(partitions):
            by_topic.setdefault(t, []).append(p)
        return " ".join(f"{t}:{','.join(map(str, ps))}" for t, ps in by_topic.items()) or "{}"

    def metadata(self) -> dict[str, int]:
        return {t.name: t.partitions for t in self.coord.topics}

    def classic_text(self, group: ClassicGroup) -> str:
        """A classic group for the log: state, generation, members (instance id, * the leader, assignment)."""
        members = ", ".join(
            f"{self.label(m.member_id)}{'(' + m.instance_id + ')' if m.instance_id else ''}"
            f"{'*' if m.member_id == group.leader else ''}:{self.fmt(assignment_partitions(m.assignment))}"
            for m in group.members.values())
        pending = f" pending {[self.label(m) for m in sorted(group.pending_join)]}" if group.pending_join else ""
        return f"{group.state} gen {group.generation} [{members}]{pending}"

    def group_text(self) -> str:
        """The group the classic requests go to, as the log shows it after a request."""
        raise NotImplementedError

    def observe(self, name: str, before, after, now: int) -> None:
        self.note(f"  {name} owns {self.fmt(after)}")

    # -- processes -------------------------------------------------------------------------------------------

    def add_proc(self, proc: Proc, group_id: str, topics: list[str], *, instance_id: str | None) -> Any:
        """`proc` with a client of its kind, reaching the coordinator through a `Link`, counted in."""
        link = Link(self, proc)
        if proc.kind == "classic":
            proc.client = ClassicClient(link, proc.name, group_id, topics, instance_id=instance_id,
                                        session_timeout_ms=proc.session_ms, client_id=f"consumer-{group_id}-1",
                                        observe=self.observe, anomalies=proc.anomalies)
        else:
            proc.client = ConsumerClient(link, proc.name, group_id, topics, instance_id=instance_id,
                                         ids=self.client_ids, observe=self.observe, anomalies=proc.anomalies)
        self.procs.append(proc)
        self.all_procs.append(proc)
        return proc

    # -- time ------------------------------------------------------------------------------------------------

    def classic_member_ids(self) -> Container[str] | None:
        """The classic group's member ids (None: no classic group): a parked SyncGroup of anyone else is an
        orphan."""
        group = self.coord.classic.groups.get(self.GROUP)
        return None if group is None else group.members

    def next_client_action(self) -> int | None:
        due = [deadline for deadline, _ in self.parked.orphans(self.classic_member_ids())]
        for p in self.procs:
            if p.start_at is not None:
                due.append(p.start_at)
            elif p.paused_until is not None:
                due.append(p.paused_until)
            elif p.client.running and (d := p.client.next_due()) is not None:
                due.append(d)
        return min(due) if due else None

    def clients_act(self, t: int) -> None:
        """Orphaned SyncGroups time out, stalled processes wake, pending starts happen, clients act."""
        self.stats["orphaned SyncGroups timed out"] += self.parked.time_out(t, self.classic_member_ids())
        for p in list(self.procs):
            if p.paused_until is not None and p.paused_until <= t:
                p.paused_until = None
                self.note(self.wakes_text(p))
            if p.start_at is not None and p.start_at <= t:
                p.start_at = None
                p.client.start()
                self.note(self.starts_text(p))
        self.tick_all()

    def wakes_text(self, p: Any) -> str:
        return f"{p.name} wakes up"

    def starts_text(self, p: Any) -> str:
        return f"{p.name} starts ({p.kind}, instance {p.instance_id})"

    def fire_timers(self, t: int) -> None:
        """Due timers fire; what they changed in `timer_views` is logged, then `track`ed."""
        due = timers_due(self.coord, t)
        if not due:
            super().fire_timers(t)
            return
        before = self.timer_views()
        self.coord.advance_to(t)
        after = self.timer_views()
        if before != after:
            changed = [a for b, a in zip(before, after, strict=True) if a != b]
            self.note(f"timers {', '.join(due)}: {'; '.join(changed)}")
        self.track(f"timers {', '.join(due)}")

    def timer_views(self) -> tuple[str, ...]:
        """The groups as the log shows them, one string each, to name what a timer changed."""
        raise NotImplementedError

    def tick_all(self) -> None:
        for _ in range(MAX_PASSES):
            acted = False
            for p in list(self.procs):
                if p.ticking():
                    acted |= p.client.tick()
            self.supervise()
            if not acted:
                return
        self.fail(f"clients still acting after {MAX_PASSES} passes at one instant (a livelock)")

    def supervise(self) -> None:
        """What happens to processes that stopped (a fatal error, a zombie gone): the harness's supervisor."""
        raise NotImplementedError

    # -- requests, as the coordinator sees them ----------------------------------------------------------------

    def track(self, after: str) -> None:
        """After every request and timer firing: what a harness checks then (nothing by default)."""

    def answered(self, proc: Any, api: str, req: Any, r: Any) -> None:
        """A parked JoinGroup/SyncGroup's answer (called inside the coordinator, possibly during another request)."""
        (self.joined if api == "JoinGroup" else self.synced)(proc, req, r)

    def send_join(self, proc: Any, req: JoinGroupRequestData, respond: Callable[[JoinGroupResponseData], None],
                  caller: Caller = DEFAULT_CALLER) -> int:
        """The JoinGroup in the version the process speaks, logged and parked until answered; its parked key."""
        caller = replace(caller, api_version=proc.version)
        if proc.version == 0:
            req.rebalance_timeout_ms = -1  # v0 has none: the coordinator uses the session timeout
        self.note(f"{proc.name} JoinGroup v{caller.api_version} member {self.label(req.member_id)} instance "
                  f"{req.group_instance_id}")
        key, answer = self.parked.park(proc, "JoinGroup", req, respond, self.now)
        self.coord.join_group(req, answer, caller)
        if key in self.parked:
            self.note(f"  {proc.name}'s JoinGroup is parked: {self.group_text()}")
        return key

    def on_join(self, proc: Any, req: JoinGroupRequestData, respond: Callable[[JoinGroupResponseData], None],
                caller: Caller = DEFAULT_CALLER) -> None:
        self.send_join(proc, req, respond, caller)
        self.track(f"{proc.name}'s JoinGroup")

    def joined(self, proc: Any, req: JoinGroupRequestData, r: JoinGroupResponseData) -> None:
        """A JoinGroup answer, logged; a member id granted is dated by the coordinator's incarnation."""
        if r.error_code:
            self.note(f"  -> {proc.name} JoinGroup: {error_name(r.error_code)} member {self.label(r.member_id)}")
            return
        proc.granted_at = self.incarnation
        leader = r.leader == r.member_id
        self.note(f"  -> {proc.name} JoinGroup: gen {r.generation_id} member {self.label(r.member_id)} leader "
                  f"{self.label(r.leader)}{' (me, ' + str(len(r.members)) + ' members)' if leader else ''}"
                  f"{' skip assignment' if r.skip_assignment else ''}")

    def on_sync(self, proc: Any, req: SyncGroupRequestData, respond: Callable[[SyncGroupResponseData], None]) -> None:
        what = f" with {len(req.assignments)} assignments" if req.assignments else ""
        self.note(f"{proc.name} SyncGroup gen {req.generation_id} member {self.label(req.member_id)}{what}")
        group = self.coord.classic.groups.get(self.GROUP)
        assigns = group is not None and group.state == GroupState.COMPLETING_REBALANCE \
            and group.leader == req.member_id and group.generation == req.generation_id and bool(req.assignments)
        key, answer = self.parked.park(proc, "SyncGroup", req, respond, self.now)
        self.coord.sync_group(req, answer)
        if key in self.parked:
            self.note(f"  {proc.name}'s SyncGroup is parked")
        group = self.coord.classic.groups.get(self.GROUP)
        if assigns and group is not None and group.state == GroupState.STABLE and group.generation == req.generation_id:
            self.leader_assigned()
        self.track(f"{proc.name}'s SyncGroup")

    def leader_assigned(self) -> None:
        """The leader's SyncGroup completed the rebalance: its assignment reflects the metadata it sees now."""

    def synced(self, proc: Any, req: SyncGroupRequestData, r: SyncGroupResponseData) -> None:
        """A SyncGroup answer, logged; every partition it gives exists."""
        if r.error_code:
            self.note(f"  -> {proc.name} SyncGroup: {error_name(r.error_code)}")
            return
        mine = assignment_partitions(r.assignment)
        self.note(f"  -> {proc.name} SyncGroup: {self.fmt(mine)}")
        for topic, partition in mine:
            self.expect_exists(topic, partition, f"{proc.name}'s SyncGroup answer")

    def on_classic_heartbeat(self, proc: Any, req: HeartbeatRequestData) -> HeartbeatResponseData:
        answer = self.coord.classic_heartbeat(req)
        if answer.error_code:
            self.note(f"{proc.name} Heartbeat gen {req.generation_id} member {self.label(req.member_id)} -> "
                      f"{error_name(answer.error_code)}")
        self.track(f"{proc.name}'s Heartbeat")
        return answer

    def on_leave(self, proc: Any, group_id: str, identities: list) -> LeaveAnswer:
        answer = self.coord.leave_group(group_id, identities)
        text = ", ".join(f"{self.label(m.member_id)}: {error_name(m.error_code) if m.error_code else 'left'}"
                         for m in answer.response.members)
        self.note(f"{proc.name} LeaveGroup -> {text}; {self.group_text()}")
        self.track(f"{proc.name}'s LeaveGroup")
        return answer

    # -- actions ---------------------------------------------------------------------------------------------

    def do_tick(self) -> None:
        """The next instant at which anything is due (or a heartbeat interval of nothing)."""
        if not self.step():
            self.advance_to(self.now + HEARTBEAT_INTERVAL_MS)

    def running(self) -> list[Any]:
        """The processes an action may pick (ticking ones)."""
        raise NotImplementedError

    def do_leave(self) -> Any:
        """A process closes for good: a dynamic classic member sends LeaveGroup, a static one nothing (its session
        timeout removes it); a KIP-848 member leaves with -1, or -2 when static. The process (None: none ran)."""
        procs = self.running()
        if not procs:
            return None
        proc = self.rng.choice(procs)
        self.note(f"{proc.name} closes for good")
        proc.client.stop()
        self.procs.remove(proc)
        self.stats["graceful leaves"] += 1
        return proc

    def do_late(self) -> None:
        """A process stalls: its next heartbeats are late, sometimes past its session timeout."""
        procs = self.running()
        if not procs:
            return
        proc = self.rng.choice(procs)
        pause = self.rng.randint(HEARTBEAT_INTERVAL_MS, 2 * proc.session_ms)
        proc.paused_until = self.now + pause
        self.stats["stalls"] += 1
        self.note(f"{proc.name} stalls for {pause} ms (session {proc.session_ms} ms)")

    def admin_picks(self, known: Iterable[str], unknown_share: float) -> list[str]:
        """The instance ids an admin names: up to two of the `known` ones, and an unknown one (always when it names
        none of those, else with probability `unknown_share`)."""
        known = sorted(known)
        picks = self.rng.sample(known, self.rng.randint(0, min(2, len(known))))
        if not picks or self.rng.random() < unknown_share:
            self.ghosts += 1
            picks.append(f"ghost-{self.ghosts}")
        return picks

    def admin_leave(self, picks: list[str], held: Mapping[str, str | None]) -> list[Departure]:
        """`kafka-consumer-groups --delete ... --members`-style removal: one batch LeaveGroup by instance ids, logged;
        each answer removes the member `held` names for its instance id, or is UNKNOWN_MEMBER_ID for an instance
        id nobody holds. The answers."""
        identities = [MemberIdentity(group_instance_id=iid, reason="removed by an admin") for iid in picks]
        departures = self.coord.leave_group(self.GROUP, identities).departures
        self.note("admin LeaveGroup " + ", ".join(
            f"{d.member.group_instance_id}: "
            + (error_name(d.member.error_code) if d.member.error_code else "removed " + self.label(d.removed_member_id))
            for d in departures) + f"; {self.group_text()}")
        self.track("an admin LeaveGroup")
        for d in departures:
            instance, code = d.member.group_instance_id, d.member.error_code
            member = held.get(instance)
            if member is None:
                self.expect(code == KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"],
                            f"admin LeaveGroup of unknown instance {instance} answered {error_name(code)}")
            else:
                self.expect(code == 0 and d.removed_member_id == member,
                            f"admin LeaveGroup of {instance} (member {self.label(member)}) answered "
                            f"{error_name(code)}, removed {self.label(d.removed_member_id)}")
        return departures

    def fail_over(self) -> Coordinator:
        """The runner's failover; then the old coordinator answers what it had parked with NOT_COORDINATOR as it
        unloads (`onUnloaded`)."""
        old = super().fail_over()
        self.incarnation += 1
        self.stats["failovers"] += 1
        self.parked.unload()
        return old

    # -- invariants ------------------------------------------------------------------------------------------

    def expect_exists(self, topic: str, partition: int, where: str) -> None:
        found = self.coord.topics.get(topic)
        self.expect(found is not None and 0 <= partition < found.partitions,
                    f"{where}: partition {topic}-{partition} does not exist ({self.topics_text()})")

    def check_replay(self) -> None:
        """replay(log) == live state (and what `check_rebuilt` adds); a Stable or Empty classic group is what its
        last record says, and what a coordinator rebuilt from the log loads. The log is replayed again whenever it
        grew."""
        coord = self.coord
        rebuilt = self.rebuilt()
        self.expect(rebuilt.runtime.state == coord.runtime.state, "replay(log) != live state")
        self.check_rebuilt(rebuilt)
        problem = self.classic_replay.problem(coord, rebuilt)
        self.expect(problem is None, lambda: str(problem))

    def check_rebuilt(self, rebuilt: Coordinator) -> None:
        """What else a coordinator rebuilt from the log must have as the live one does (nothing by default)."""

    def check_classic_group(self, group: ClassicGroup) -> None:
        """The classic group's indexes (instance id -> member id, leader among the members), and the liveness of
        the session timeout: a member either awaits an answer (its heartbeat is then satisfied) or has a session
        timer running (the coordinator's timer key, as `_reschedule_heartbeat` names it)."""
        for iid, mid in group.static.items():
            member = group.members.get(mid)
            self.expect(member is not None and member.instance_id == iid,
                        f"instance {iid} -> {self.label(mid)}, which is not its member")
        statics = {m.instance_id for m in group.members.values() if m.instance_id is not None}
        self.expect(statics == set(group.static), f"static members {statics} != instance index {set(group.static)}")
        self.expect((group.leader in group.members) if group.members else group.leader is None,
                    f"leader {self.label(group.leader)} not a member: {self.group_text()}")
        for member in group.members.values():
            waiting = member.awaiting_join is not None or member.awaiting_sync is not None
            self.expect(waiting or classic_session_deadline(self.coord, self.GROUP, member.member_id) is not None,
                        f"member {self.label(member.member_id)} ({member.instance_id}) has no session timer and awaits "
                        f"nothing: it can never expire; {self.group_text()}")

    def check_anomalies(self) -> None:
        """What a client reports as out of the ordinary must have a cause in the scenario."""
        for p in self.all_procs:
            for text in p.anomalies[p.anomalies_seen:]:
                self.note(f"  {p.name} anomaly: {text}")
                self.expect(self.explained(p, text), f"{p.name}: unexplained {text!r}")
            p.anomalies_seen = len(p.anomalies)

    def explained(self, p: Any, text: str) -> bool:
        """Whether the scenario explains what a client reported: the causes any such scenario has, and the
        harness's own (`explained_here`, asked after a failover's and before the others)."""
        if "SyncGroup answered REQUEST_TIMED_OUT" in text:
            return True  # an orphaned SyncGroup, answered by the harness as the client's request timeout
        if "NOT_COORDINATOR" in text:
            self.stats["NOT_COORDINATOR after failover"] += 1
            return self.incarnation > 0
        here = self.explained_here(p, text)
        if here is not None:
            return here
        if "FENCED_INSTANCE_ID" in text:  # a member id only an earlier coordinator knew (never persisted)
            self.stats["fenced after a failover lost the member id"] += 1
            return p.granted_at < self.incarnation
        if "LeaveGroup answered UNKNOWN_MEMBER_ID" in text:
            return True
        if "leave heartbeat" in text and ("UNKNOWN_MEMBER_ID" in text or "FENCED_MEMBER_EPOCH" in text):
            return True
        if "UNRELEASED_INSTANCE_ID" in text:
            self.stats["UNRELEASED_INSTANCE_ID after a crash"] += 1
            return p.instance_id in self.crashed_instances
        return False

    def explained_here(self, p: Any, text: str) -> bool | None:
        """The harness's own causes of what a client reported (None: none of them)."""
        return None

    # -- convergence -----------------------------------------------------------------------------------------

    def pending(self) -> bool:
        """Pending restarts and wake-ups happen before the group(s) can settle."""
        return any(p.start_at is not None or p.paused_until is not None for p in self.procs)

    def stop_inputs(self) -> None:
        self.note("inputs stop: pending restarts and wake-ups happen, live clients carry on")
