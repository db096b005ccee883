"""The discrete-event simulation of test_simulation.py extended to classic groups: seeded random scenarios
of a classic group driven by the simulated Java-like clients of `groupctl.simulation.clients` (and, in a
fraction of them, a KIP-848 group of simulated consumers in the same coordinator at the same time), on
virtual time, with the protocol's safety rules checked after every step and convergence checked once the
inputs stop.

Each scenario (`Scenario(seed).run()`) draws its events from `random.Random(seed)`: classic members join
(static and dynamic; JoinGroup v0..v9, so both the KIP-394 MEMBER_ID_REQUIRED round trip and the direct
join of older clients; a few pods are killed between MEMBER_ID_REQUIRED and their second JoinGroup, so
pending members expire), leave gracefully (a dynamic member sends LeaveGroup, a static one says nothing),
bounce statically within their session timeout and longer than it, restart dynamically, crash (the
process stops heartbeating; a crashed static member may come back as a new process, and sometimes the
old process was only frozen and wakes up as a zombie that the new one fenced), heartbeat late (the
process stalls, sometimes past its session timeout); topics gain partitions and new topics appear (the
client's leader rejoins when the partition counts it assigned from change, as the Java consumer does); an
admin removes static members with one batch LeaveGroup naming instance ids, some unknown; and the
coordinator fails over mid-scenario (`coord.rebuild()`): the new coordinator loads the classic group
Stable or Empty from its last GroupMetadataValue, losing any rebalance in flight; the old one answers what
it had parked (JoinGroup/SyncGroup) with NOT_COORDINATOR as it unloads, as Kafka's `onUnloaded` does, and
the clients, which reach the coordinator through a `Link` to the scenario's current coordinator object, go
on with the new one and recover by the protocol. Some scenarios also let both groups settle and then
bounce one static member with nothing else happening (a "quiet" bounce).

The clients are the library's; the harness adds only what a process around them does: the JoinGroup
version it speaks, stalls and crashes, a supervisor restarting a process that died of a fatal error, and
the Java client's request timeout for a SyncGroup that nobody will answer (its member was removed by a
LeaveGroup while it waited; Kafka leaves that request unanswered too).

After every step (an instant at which timers fire and clients act, or an event):

* no partition is owned by two clients that are members of their group (classic: the eager owned sets
  of the clients; KIP-848: the consumers' owned partitions), a member client owns nothing outside what
  the coordinator has assigned to its member, and every owned or assigned partition exists;
* the generation never goes back: the live generation within one coordinator's lifetime, the persisted
  one (GroupMetadataValue) across failovers, and a failover only loses a generation that was never
  persisted (a rebalance in flight); the KIP-848 group epoch never goes back;
* the classic group's indexes are consistent (instance id -> member id, leader among the members), a
  Stable group's assignments are disjoint, and every member either awaits a JoinGroup/SyncGroup answer
  or has a session timer running (else it could never expire);
* whenever the classic group is Stable (or Empty), the persisted projection `coord.runtime.state.classic[gid]`
  (generation, protocol type and name, leader, state timestamp, members with instance ids, client ids,
  timeouts, subscriptions and assignments) equals the live group `coord.classic.groups[gid]`, and
  `coord.rebuild()` (the log replayed from scratch) loads the same group; replayed state == live state;
* a static member rejoining with an empty member id while the group is Stable and still holds its
  instance id is answered at once with the same generation, writes one record, takes over its
  predecessor's assignment under a new member id, and its SyncGroup returns exactly that assignment;
  a static member back later than its session timeout finds its instance id released;
* a static member bounced within its session timeout while the group was otherwise quiet never changes
  the generation and owns exactly its old partitions again, and nobody else's partitions moved;
* an admin batch LeaveGroup by instance id removes exactly the known instance ids and answers
  UNKNOWN_MEMBER_ID for the others;
* every error a client treats as an anomaly is one the scenario can explain (NOT_COORDINATOR only from a
  failover; FENCED_INSTANCE_ID only for a zombie's instance, or for a member id granted by a coordinator
  that has since failed over; UNRELEASED_INSTANCE_ID only after a crashed KIP-848 static member).

Then the inputs stop: pending restarts and wake-ups happen, every live client keeps going, and both groups
must become Stable within a bounded time with every subscribed partition assigned exactly once to a live
member, each client owning exactly what the coordinator assigned it; steady heartbeats then write nothing
and move no generation. (One exception, which Kafka documents: partitions added while a static leader was
restarting are not noticed by the leader that takes its place; see `classic_coverage`.)

A failure prints the seed, the event log so far and a command that reruns just that seed; a scenario
replays identically whatever PYTHONHASHSEED (checked in a subprocess). Bugs this simulation found are shown
on their own at the end of the file (strict xfail) and listed in KNOWN_BUGS.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable

from groupctl.coordinator.classic import COMPLETING_REBALANCE, EMPTY
from groupctl.coordinator.classic import STABLE as GROUP_STABLE
from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import DEFAULT_CALLER, Caller
from groupctl.coordinator.state import assignment_map
from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.protocol.consumer_protocol import decode_subscription
from groupctl.protocol.data.groups import (
    JoinGroupRequestData,
    JoinGroupResponseData,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.simulation.clients import CLIENT_STABLE, HEARTBEAT_INTERVAL_MS, ClassicClient, assignment_partitions
from tests.classic_requests import beat, join_req, sync_req
from tests.heartbeats import assigned, error
from tests.simulation import processes, runner
from tests.simulation.process_scenario import MAX_PASSES, ProcessScenario
from tests.simulation.processes import live_projection
from tests.simulation.runner import classic_session_deadline

GROUP = "cg"  # the classic group
KGROUP = "kg"  # the KIP-848 group beside it
SCENARIOS = int(os.environ.get("GROUPCTL_SIM_CLASSIC_SCENARIOS", "500"))
TOPIC_POOL = ("foo", "bar", "baz")
MAX_PARTITIONS = 10
MAX_CLASSIC = 6
MAX_CONSUMERS = 4
#: session.timeout.ms of the classic clients (the broker accepts 6000..1800000).
SESSION_TIMEOUTS = (6_000, 10_000, 30_000, 45_000)
#: The KIP-848 group's session timeout (the broker default).
KIP848_SESSION_MS = 45_000
#: The fraction of scenarios with a KIP-848 group in the same coordinator.
KIP848_SHARE = 0.3
#: Once the inputs stop, both groups must be Stable within this much simulated time (a zombie waking up
#: after twice its session timeout, a fenced process restarted by its supervisor, an UNRELEASED_INSTANCE_ID
#: loop until the crashed KIP-848 member's session expires, then rebalances and the initial delay).
CONVERGE_WITHIN_MS = 240_000
#: (action, weight) for the random phase.
ACTIONS = (
    ("tick", 45), ("advance", 5), ("join", 7), ("leave", 2), ("bounce", 6), ("long_bounce", 2), ("restart", 2),
    ("crash", 3), ("late", 3), ("add_partitions", 2), ("create_topic", 1), ("admin_leave", 2), ("rebuild", 3),
    ("quiet_bounce", 3),
)
CODE = KAFKA_ERROR_CODES


class Proc(processes.Proc):
    """One client process, with what this harness tracks about it besides the shared fields."""

    def __init__(self, name: str, kind: str, *, version: int = 9, session_ms: int = KIP848_SESSION_MS) -> None:
        super().__init__(name, kind, version=version, session_ms=session_ms)
        self.zombie = False  # its instance id was given to a new process while this one was frozen
        self.expect_sync: tuple[int, bytes] | None = None  # (generation, assignment) its SyncGroup must return
        self.expect_released = False  # a static member back after its session timeout: its instance id is free
        self.long_bounce_at = -1  # the coordinator incarnation at the stop of a long bounce
        self.fragile = False  # the pod is killed right after its first JoinGroup answer (MEMBER_ID_REQUIRED)


class Scenario(ProcessScenario):
    GROUP = GROUP
    ACTIONS = ACTIONS
    RERUN = "{seed_env}={seed} python3 -m pytest tests/coordinator/test_simulation_classic.py -k single_seed -s"
    CONVERGE_WITHIN_MS = CONVERGE_WITHIN_MS
    TOPIC_POOL = TOPIC_POOL
    MAX_PARTITIONS = MAX_PARTITIONS
    procs: list[Proc]
    all_procs: list[Proc]

    def __init__(self, seed: int, *, steps: int | None = None) -> None:
        super().__init__(seed, steps=steps)
        delay = self.rng.choice([0, 3_000, 3_000])
        self.coord = Coordinator(clock=self.clock, ids=IdGenerator(seed),
                                 classic_settings={"group.initial.rebalance.delay.ms": delay})
        self.client_ids = IdGenerator(self.rng.getrandbits(64))  # KIP-848 clients generate their member ids
        self.kip848 = self.rng.random() < KIP848_SHARE
        self.zombie_instances: set[str] = set()
        self.main_topics = sorted(self.rng.sample(["foo", "bar"], self.rng.choice([1, 1, 2])))
        # What the invariants remember between steps.
        self.live_gen = 0
        self.persisted_gen = 0
        self.kepoch = 0
        self.watch_generation: int | None = None
        # The metadata the classic group's assignment reflects: partition counts when the leader last computed it,
        # and the leader's last static takeover since (time, JoinGroup version, partition counts then).
        self.assign_meta: dict[str, int] = {}
        self.takeover: tuple[int, int, dict[str, int]] | None = None

    def setup(self) -> None:
        self.coord.create_topic("foo", self.rng.randint(1, 8))
        if "bar" in self.main_topics or self.rng.random() < 0.3:
            self.coord.create_topic("bar", self.rng.randint(1, 6))
        self.note(f"topics {self.topics_text()}; main subscription {self.main_topics}; initial rebalance delay "
                  f"{self.coord.classic.initial_delay_ms} ms; KIP-848 group {'yes' if self.kip848 else 'no'}")
        for _ in range(self.rng.randint(1, 4)):
            self.join_classic()
        if self.kip848:
            for _ in range(self.rng.randint(1, 3)):
                self.join_consumer()

    # -- formatting ------------------------------------------------------------------------------------------

    def describe_classic(self) -> str:
        group = self.coord.classic.groups.get(GROUP)
        return "no classic group" if group is None else self.classic_text(group)

    def group_text(self) -> str:
        return self.describe_classic()

    def describe_consumer(self) -> str:
        group = self.coord.runtime.state.consumer.get(KGROUP)
        if group is None:
            return "no KIP-848 group"
        names = {t.topic_id: t.name for t in self.coord.topics}
        members = ", ".join(
            f"{self.label(mid)}@{cur.member_epoch}:"
            f"{self.fmt((names[t], p) for t, ps in assignment_map(cur.assigned_partitions).items() for p in ps)}"
            for mid, cur in sorted(group.current.items(), key=lambda kv: self.label(kv[0])))
        return f"{group.state()} epoch {group.epoch} [{members}]"

    # -- processes -------------------------------------------------------------------------------------------

    def new_pod(self) -> str:
        self.pods += 1
        return f"c{self.pods}"

    def classic_procs(self, *, live_only: bool = True) -> list[Proc]:
        return [p for p in self.procs if p.kind == "classic" and (p.client.running or not live_only)]

    def make_classic(self, name: str, *, instance_id: str | None, version: int, session_ms: int,
                     topics: list[str]) -> Proc:
        return self.add_proc(Proc(name, "classic", version=version, session_ms=session_ms), GROUP, topics,
                             instance_id=instance_id)

    def make_consumer(self, name: str, *, instance_id: str | None, topics: list[str]) -> Proc:
        return self.add_proc(Proc(name, "consumer"), KGROUP, topics, instance_id=instance_id)

    def pick_topics(self) -> list[str]:
        if self.rng.random() < 0.7:
            return list(self.main_topics)
        return sorted(self.rng.sample(TOPIC_POOL, self.rng.randint(1, 2)))

    def join_classic(self) -> None:
        if len(self.classic_procs()) >= MAX_CLASSIC:
            return
        instance_id = None
        if self.rng.random() < 0.5:
            self.instances += 1
            instance_id = f"i{self.instances}"
            version = self.rng.choice([5, 6, 7, 8, 9, 9, 9])  # group.instance.id needs JoinGroup v5+
        else:
            version = self.rng.choice([0, 1, 2, 3, 4, 5, 7, 9, 9, 9])
        session_ms = self.rng.choice(SESSION_TIMEOUTS)
        proc = self.make_classic(self.new_pod(), instance_id=instance_id, version=version, session_ms=session_ms,
                                 topics=self.pick_topics())
        proc.fragile = instance_id is None and version >= 4 and self.rng.random() < 0.08
        proc.client.start()
        self.stats["classic joins"] += 1
        self.stats[f"JoinGroup v{'0-3' if version < 4 else '4+'}"] += 1
        self.note(f"{proc.name} starts: classic, JoinGroup v{version}, instance {instance_id}, session "
                  f"{session_ms} ms, topics {proc.client.topics}")
        self.tick_all()

    def join_consumer(self) -> None:
        if sum(1 for p in self.procs if p.kind == "consumer" and p.client.running) >= MAX_CONSUMERS:
            return
        instance_id = None
        if self.rng.random() < 0.4:
            self.instances += 1
            instance_id = f"i{self.instances}"
        proc = self.make_consumer(self.new_pod(), instance_id=instance_id, topics=self.pick_topics())
        proc.client.start()
        self.stats["KIP-848 joins"] += 1
        self.note(f"{proc.name} starts: KIP-848 consumer, instance {instance_id}, topics {proc.client.topics}")
        self.tick_all()

    def restart_as_new_process(self, old: Proc, delay: int) -> Proc:
        """A new process for the same pod and instance id (the old one crashed, or is frozen: a zombie)."""
        topics = list(old.client.topics)
        if old.kind == "classic":
            proc = self.make_classic(old.name + "'", instance_id=old.instance_id, version=old.version,
                                     session_ms=old.session_ms, topics=topics)
        else:
            proc = self.make_consumer(old.name + "'", instance_id=old.instance_id, topics=topics)
        proc.start_at = self.clock.now_ms() + delay
        return proc

    # -- time ------------------------------------------------------------------------------------------------

    def wakes_text(self, p: Proc) -> str:
        return f"{p.name} wakes up{' (a zombie)' if p.zombie else ''}"

    def starts_text(self, p: Proc) -> str:
        return f"{p.name} starts again (instance {p.instance_id})"

    def timer_views(self) -> tuple[str, ...]:
        return self.describe_classic(), self.describe_consumer()

    def supervise(self) -> None:
        """A process that died of a fatal error: its supervisor restarts it, unless it was a zombie. A zombie whose
        replacement is gone is just the instance's process again."""
        for p in [p for p in self.procs if p.dead]:
            self.procs.remove(p)
        for p in list(self.procs):
            if p.zombie and not any(q is not p and q.instance_id == p.instance_id for q in self.procs):
                p.zombie = False
                self.note(f"{p.name} is the only process of {p.instance_id} left: no longer a zombie")
            if p.client.running or p.start_at is not None:
                continue
            if p.zombie:
                self.note(f"{p.name} (a zombie) is gone")
                self.procs.remove(p)
            else:
                p.start_at = self.clock.now_ms() + self.rng.randint(1_000, 10_000)
                self.stats["supervisor restarts"] += 1
                self.note(f"{p.name} died; its supervisor restarts it at t={p.start_at}")

    # -- requests, as the coordinator sees them ----------------------------------------------------------------

    def on_join(self, proc: Proc, req: JoinGroupRequestData, respond: Callable[[JoinGroupResponseData], None],
                caller: Caller = DEFAULT_CALLER) -> None:
        """A JoinGroup; a static member's rejoin of a Stable group must be a takeover (`check_static_takeover`)."""
        coord = self.coord
        group = coord.classic.groups.get(GROUP)
        iid = req.group_instance_id
        takeover = None
        if req.member_id == "" and iid is not None and group is not None:
            others = any(q is not proc and q.instance_id == iid for q in self.procs)
            if proc.expect_released and proc.long_bounce_at == self.incarnation and not others:
                self.expect(iid not in group.static,
                            f"{proc.name} comes back after its session timeout, yet instance {iid} is still held by "
                            f"{self.label(group.static.get(iid))}")
                self.stats["static members expired"] += 1
            if iid in group.static and group.state == GROUP_STABLE:
                old = group.static[iid]
                takeover = (old, group.generation, group.members[old].assignment, coord.runtime.records_written,
                            group.leader == old)
        proc.expect_released = False
        key = self.send_join(proc, req, respond, caller)
        if takeover is not None:
            self.check_static_takeover(proc, req, takeover, key)

    def check_static_takeover(self, proc: Proc, req: JoinGroupRequestData, takeover: tuple, key: int) -> None:
        """KIP-345: a static member rejoining a Stable group takes over its predecessor's place without a rebalance."""
        old_id, generation, assignment, written, was_leader = takeover
        group = self.coord.classic.groups[GROUP]
        self.expect(key not in self.parked, f"{proc.name}'s static rejoin of a Stable group was parked")
        self.expect(group.state == GROUP_STABLE and group.generation == generation,
                    f"{proc.name}'s static rejoin moved the group to {group.state} gen {group.generation} "
                    f"(was Stable gen {generation})")
        new_id = group.static.get(req.group_instance_id)
        self.expect(new_id is not None and new_id != old_id and old_id not in group.members,
                    f"static rejoin: instance {req.group_instance_id} -> {self.label(new_id)}, old member "
                    f"{self.label(old_id)} {'still' if old_id in group.members else 'no longer'} in the group")
        self.expect(group.members[new_id].assignment == assignment,
                    f"static rejoin: {self.label(new_id)} holds "
                    f"{self.fmt(assignment_partitions(group.members[new_id].assignment))}, its predecessor held "
                    f"{self.fmt(assignment_partitions(assignment))}")
        self.expect(self.coord.runtime.records_written == written + 1,
                    f"static rejoin wrote {self.coord.runtime.records_written - written} records, not 1")
        proc.expect_sync = (generation, assignment)
        if was_leader:  # Java's leader keeps watching metadata from here (v9: skip assignment), or nobody does (v<9)
            self.takeover = (self.clock.now_ms(), proc.version, self.metadata())
            self.stats["static leader takeovers"] += 1
        self.stats["static takeovers while Stable"] += 1
        self.note(f"  static takeover of {req.group_instance_id}: {self.label(old_id)} -> {self.label(new_id)}, "
                  f"gen {generation}, {self.fmt(assignment_partitions(assignment))}")

    def joined(self, proc: Proc, req: JoinGroupRequestData, r: JoinGroupResponseData) -> None:
        """A JoinGroup answer: a fragile pod dies of MEMBER_ID_REQUIRED; a leader decodes every subscription, and
        only a v9 leader may skip the assignment."""
        super().joined(proc, req, r)
        if r.error_code:
            if proc.fragile and r.error_code == CODE["MEMBER_ID_REQUIRED"]:
                proc.dead = True
                self.stats["pending members abandoned"] += 1
                self.note(f"{proc.name}'s pod is killed before it joins again with {self.label(r.member_id)}")
            return
        group = self.coord.classic.groups.get(GROUP)
        leader = r.leader == r.member_id
        if group is not None and group.members.get(r.member_id) is not None:
            self.expect(r.generation_id == group.generation,
                        f"JoinGroup answered gen {r.generation_id}, the group is at {group.generation}")
        if r.skip_assignment:
            self.expect(leader and proc.version >= 9, f"skip_assignment for {proc.name} (v{proc.version}), leader "
                                                      f"{self.label(r.leader)}")
        if leader and r.members:
            for member in r.members:
                topics = decode_subscription(member.metadata)[1]["topics"]
                self.expect(all(isinstance(t, str) for t in topics), f"undecodable subscription of {member.member_id}")

    def leader_assigned(self) -> None:
        self.assign_meta, self.takeover = self.metadata(), None

    def synced(self, proc: Proc, req: SyncGroupRequestData, r: SyncGroupResponseData) -> None:
        """A SyncGroup answer: after a static takeover, exactly the predecessor's assignment."""
        super().synced(proc, req, r)
        if r.error_code:
            return
        mine = assignment_partitions(r.assignment)
        if proc.expect_sync is not None and proc.expect_sync[0] == req.generation_id:
            self.expect(r.assignment == proc.expect_sync[1],
                        f"{proc.name} took over its instance at gen {req.generation_id} with "
                        f"{self.fmt(assignment_partitions(proc.expect_sync[1]))}, SyncGroup gave {self.fmt(mine)}")
            self.stats["static takeovers synced"] += 1
        proc.expect_sync = None

    def on_consumer_heartbeat(self, proc: Proc, req, caller: Caller):
        r = self.coord.heartbeat(req, caller)
        if r.error_code or r.assignment is not None or req.member_epoch <= 0:
            names = {t.topic_id: t.name for t in self.coord.topics}
            got = "" if r.assignment is None else " " + self.fmt(
                (names[t], p) for t, ps in assigned(r).items() for p in ps)
            result = error(r) if r.error_code else f"epoch {r.member_epoch}{got}"
            self.note(f"{proc.name} ConsumerGroupHeartbeat {self.label(req.member_id)} epoch {req.member_epoch} -> "
                      f"{result}")
        return r

    # -- actions ---------------------------------------------------------------------------------------------

    def do_join(self) -> None:
        if self.kip848 and self.rng.random() < 0.3:
            self.join_consumer()
        else:
            self.join_classic()

    def running(self, *, kind: str | None = None, static: bool | None = None, stable: bool = False) -> list[Proc]:
        out = []
        for p in self.procs:
            if not p.ticking() or (kind is not None and p.kind != kind) or p.zombie:
                continue
            if static is not None and (p.instance_id is not None) != static:
                continue
            if stable and (p.kind != "classic" or p.client.state != CLIENT_STABLE):
                continue
            out.append(p)
        return out

    def do_bounce(self) -> None:
        """A static member restarts within its session timeout (the process closes, then starts again)."""
        procs = self.running(static=True)
        if not procs:
            return
        proc = self.rng.choice(procs)
        window = proc.session_ms - HEARTBEAT_INTERVAL_MS - 500
        delay = self.rng.randint(0, max(window, 0))
        self.note(f"{proc.name} ({proc.instance_id}) bounces: back in {delay} ms")
        proc.client.stop()
        proc.start_at = self.clock.now_ms() + delay
        self.stats["static bounces"] += 1

    def do_long_bounce(self) -> None:
        """A static classic member is down for longer than its session timeout: it comes back as a new member."""
        procs = self.running(kind="classic", static=True, stable=True)
        if not procs:
            return
        proc = self.rng.choice(procs)
        delay = self.rng.randint(proc.session_ms, 2 * proc.session_ms)
        self.note(f"{proc.name} ({proc.instance_id}) is down for {delay} ms, beyond its {proc.session_ms} ms session")
        proc.client.stop()
        proc.start_at = self.clock.now_ms() + delay
        proc.expect_released = True
        proc.long_bounce_at = self.incarnation
        self.stats["long static bounces"] += 1

    def do_restart(self) -> None:
        """A dynamic member restarts: it leaves, and a new member id joins."""
        procs = self.running(static=False)
        if not procs:
            return
        proc = self.rng.choice(procs)
        delay = self.rng.randint(0, 20_000)
        self.note(f"{proc.name} restarts: back in {delay} ms")
        proc.client.stop()
        proc.start_at = self.clock.now_ms() + delay
        self.stats["dynamic restarts"] += 1

    def do_crash(self) -> None:
        """The process dies without a word. A static one may come back as a new process; sometimes the old one
        was only frozen and wakes up later, a zombie whose instance id the new one took."""
        procs = self.running()
        if not procs:
            return
        proc = self.rng.choice(procs)
        session = proc.session_ms
        if proc.instance_id is not None and self.rng.random() < 0.6:
            delay = self.rng.randint(0, 2 * session)
            new = self.restart_as_new_process(proc, delay)
            self.crashed_instances.add(proc.instance_id)
            zombie = self.rng.random() < 0.35
            if zombie and proc.kind == "classic":  # (a KIP-848 zombie would keep its instance id: UNRELEASED)
                proc.zombie = True
                proc.paused_until = self.clock.now_ms() + self.rng.randint(1_000, 2 * session)
                self.zombie_instances.add(proc.instance_id)
                self.stats["zombies"] += 1
                self.note(f"{proc.name} ({proc.instance_id}) freezes; its supervisor thinks it crashed and starts "
                          f"{new.name} at t={new.start_at}; {proc.name} wakes at t={proc.paused_until}")
                return
            self.note(f"{proc.name} ({proc.instance_id}) crashes; {new.name} starts at t={new.start_at}")
        else:
            self.note(f"{proc.name} crashes")
        self.procs.remove(proc)
        self.stats["crashes"] += 1

    def do_admin_leave(self) -> None:
        """An admin removes static members by instance id, some unknown, in one batch LeaveGroup in an order of its
        own, which the answers keep."""
        group = self.coord.classic.groups.get(GROUP)
        if group is None:
            return
        picks = self.admin_picks(group.static, 0.5)
        self.rng.shuffle(picks)
        expected = {iid: group.static.get(iid) for iid in picks}
        departures = self.admin_leave(picks, expected)
        instances = [d.member.group_instance_id for d in departures]
        self.expect(instances == picks, "admin LeaveGroup answered out of order")
        for instance in instances:
            held = expected.get(instance)
            if held is None:
                self.stats["admin leaves of unknown instances"] += 1
            else:
                self.expect(instance not in group.static and held not in group.members,
                            f"admin LeaveGroup left {instance} in the group")
                self.stats["admin leaves of known instances"] += 1

    def do_rebuild(self) -> None:
        """Coordinator failover: the new coordinator loads the group from its last record; the old one answers
        what it had parked with NOT_COORDINATOR as it unloads (`onUnloaded`)."""
        group = self.coord.classic.groups.get(GROUP)
        persisted = self.coord.runtime.state.classic.get(GROUP)
        lost = [f"{g.group_id} {g.state} gen {g.generation}" for g in self.coord.classic.groups.values()]
        self.fail_over()
        new = self.coord.classic.groups.get(GROUP)
        self.note(f"coordinator fails over (was {lost}); loaded: {self.describe_classic()}")
        if group is None:
            self.expect(new is None, "a classic group appeared at failover")
            return
        self.expect(persisted is not None and new is not None, "the classic group was never persisted")
        self.expect(new.generation == persisted.generation and new.state == (GROUP_STABLE if persisted.raw_members
                                                                             else EMPTY),
                    f"failover loaded {new.state} gen {new.generation} from a record of gen {persisted.generation}")
        if group.state in (GROUP_STABLE, EMPTY):
            self.expect(live_projection(new) == live_projection(group),
                        f"failover of a {group.state} group lost something: {live_projection(group)} -> "
                        f"{live_projection(new)}")
        else:
            self.stats["failovers mid-rebalance"] += 1
            if new.generation < group.generation:
                self.stats["failovers losing a generation"] += 1
        self.live_gen = new.generation

    def do_quiet_bounce(self) -> None:
        """KIP-345's promise: with the group settled and nothing else going on, a static member that restarts
        within its session timeout changes nothing: same generation, same partitions for everyone."""
        if not self.quiet():
            self.do_tick()
            return
        procs = self.running(kind="classic", static=True, stable=True)
        if not procs:
            self.do_tick()
            return
        proc = self.rng.choice(procs)
        group = self.coord.classic.groups[GROUP]
        generation = group.generation
        owned = {p.name: p.client.owned for p in self.classic_procs()}
        delay = self.rng.randint(0, proc.session_ms - HEARTBEAT_INTERVAL_MS - 500)
        self.note(f"quiet bounce: {proc.name} ({proc.instance_id}) restarts, back in {delay} ms; "
                  f"{self.describe_classic()}")
        self.watch_generation = generation
        proc.client.stop()
        proc.start_at = self.clock.now_ms() + delay
        deadline = proc.start_at + 10_000
        while proc.start_at is not None or proc.client.state != CLIENT_STABLE:
            self.expect(self.clock.now_ms() <= deadline and self.step(),
                        f"quiet bounce: {proc.name} not back within 10 s: {self.describe_classic()}")
        group = self.coord.classic.groups[GROUP]
        self.expect(group.state == GROUP_STABLE and group.generation == generation
                    and proc.client.generation == generation,
                    f"quiet bounce of {proc.name}: group {group.state} gen {group.generation}, was gen {generation}")
        now_owned = {p.name: p.client.owned for p in self.classic_procs()}
        self.expect(now_owned == owned, lambda: "quiet bounce moved partitions: " + "; ".join(
            f"{n}: {self.fmt(owned.get(n, ()))} -> {self.fmt(now_owned.get(n, ()))}"
            for n in sorted(owned.keys() | now_owned.keys()) if owned.get(n) != now_owned.get(n)))
        self.watch_generation = None
        self.stats["quiet bounces"] += 1
        self.note(f"quiet bounce of {proc.name} done: gen {generation}, {self.fmt(proc.client.owned)}")

    def quiet(self) -> bool:
        """Nothing pending and both groups converged."""
        if any(p.start_at is not None or p.paused_until is not None or p.zombie for p in self.procs):
            return False
        return not self.classic_problems() and not self.consumer_problems()

    # -- invariants ------------------------------------------------------------------------------------------

    def check(self) -> None:
        self.check_replay()
        self.check_classic()
        self.check_consumer()
        self.check_anomalies()

    def check_classic(self) -> None:
        coord = self.coord
        group = coord.classic.groups.get(GROUP)
        if group is None:
            return
        self.expect(group.generation >= self.live_gen,
                    f"generation went back {self.live_gen} -> {group.generation} (no failover in between)")
        self.live_gen = group.generation
        if self.watch_generation is not None:
            self.expect(group.generation == self.watch_generation,
                        f"quiet static bounce: generation moved {self.watch_generation} -> {group.generation}: "
                        f"{self.describe_classic()}")
        persisted = coord.runtime.state.classic.get(GROUP)
        if persisted is not None:
            self.expect(persisted.generation >= self.persisted_gen,
                        f"persisted generation went back {self.persisted_gen} -> {persisted.generation}")
            self.persisted_gen = persisted.generation
            self.expect(group.generation >= persisted.generation,
                        f"live generation {group.generation} behind the persisted {persisted.generation}")
        self.check_classic_group(group)
        # The coordinator's assignments: existing partitions, disjoint while Stable.
        assigned: dict[tuple[str, int], str] = {}
        for member in group.members.values():
            for topic, partition in assignment_partitions(member.assignment):
                self.expect_exists(topic, partition, f"{self.label(member.member_id)}'s assignment")
                if group.state == GROUP_STABLE:
                    self.expect((topic, partition) not in assigned,
                                f"{topic}-{partition} assigned to {self.label(assigned.get((topic, partition)))} and "
                                f"{self.label(member.member_id)}")
                assigned[(topic, partition)] = member.member_id
        # The clients: those that are members never own the same partition, nor one outside their member's.
        owners: dict[tuple[str, int], str] = {}
        for p in self.classic_procs():
            client = p.client
            member = group.members.get(client.member_id) if client.member_id else None
            if member is None:
                continue
            for tp in client.owned:
                self.expect(tp not in owners, f"{tp[0]}-{tp[1]} owned by both {owners.get(tp)} and {p.name}, "
                                              f"members of {self.describe_classic()}")
                owners[tp] = p.name
                self.expect_exists(tp[0], tp[1], f"{p.name} owns")
            theirs = assignment_partitions(member.assignment)
            self.expect(client.owned <= theirs, f"{p.name} owns {self.fmt(client.owned - theirs)} outside its member "
                                                f"{self.label(member.member_id)}'s assignment {self.fmt(theirs)}")

    def check_consumer(self) -> None:
        group = self.coord.runtime.state.consumer.get(KGROUP)
        if group is None:
            return
        self.expect(group.epoch >= self.kepoch, f"KIP-848 group epoch went back {self.kepoch} -> {group.epoch}")
        self.kepoch = group.epoch
        names = {t.topic_id: t.name for t in self.coord.topics}
        owners: dict[tuple[str, int], str] = {}
        for p in self.procs:
            if p.kind != "consumer" or not p.client.running:
                continue
            cur = group.current.get(p.client.member_id)
            if cur is None:
                continue
            counted = {(names[t], q) for key in ("assigned_partitions", "partitions_pending_revocation")
                       for t, ps in assignment_map(getattr(cur, key)).items() for q in ps}
            mine = {(names[t], q) for t, ps in p.client.owned_ids.items() for q in ps}
            for tp in mine:
                self.expect(tp not in owners, f"{tp[0]}-{tp[1]} owned by both {owners.get(tp)} and {p.name} "
                                              f"({self.describe_consumer()})")
                owners[tp] = p.name
                self.expect_exists(tp[0], tp[1], f"{p.name} owns")
            self.expect(mine <= counted, f"{p.name} owns {self.fmt(mine - counted)} that the coordinator does not "
                                         f"count as its member's")

    def explained_here(self, p: Proc, text: str) -> bool | None:
        """FENCED_INSTANCE_ID for a zombie, or a process of an instance a zombie woke up in (otherwise, as in any
        scenario, for a member id that only an earlier coordinator knew: a static member replaced during a
        rebalance is persisted only once Stable)."""
        if "FENCED_INSTANCE_ID" in text and p.instance_id in self.zombie_instances:
            self.stats["zombies fenced"] += 1
            return True
        return None

    # -- convergence -----------------------------------------------------------------------------------------

    def describe(self) -> str:
        return f"classic: {self.describe_classic()}\nKIP-848: {self.describe_consumer()}"

    def after_convergence(self) -> None:
        topics = {t for p in self.classic_procs() for t in p.client.topics}
        if self.takeover is not None and any(self.metadata().get(t, 0) != self.assign_meta.get(t, 0) for t in topics):
            self.stats["partitions added during a static leader's restart, unnoticed (as in Kafka)"] += 1
        self.note(f"converged: {self.describe_classic()}; {self.describe_consumer()}")

    def steady_marks(self) -> object:
        """The classic generation may not move in the steady state."""
        group = self.coord.classic.groups.get(GROUP)
        return {"classic generation": group.generation if group is not None else None}

    def convergence_problems(self) -> list[str]:
        return self.classic_problems() + self.consumer_problems()


    def classic_problems(self) -> list[str]:
        group = self.coord.classic.groups.get(GROUP)
        live = self.classic_procs()
        if group is None:
            return [f"no classic group for {live}"] if live else []
        problems = []
        if not live:
            if group.state != EMPTY or group.members or group.pending_join:
                problems.append(f"no live classic client, group {self.describe_classic()}")
            return problems
        if group.state != GROUP_STABLE or group.pending_join:
            problems.append(f"classic group {group.state}")
        ids = {p.client.member_id: p for p in live}
        if set(group.members) != set(ids):
            problems.append(f"members {sorted(map(self.label, group.members))} != live clients "
                            f"{sorted(map(self.label, ids))}")
        owned: list[tuple[str, int]] = []
        for p in live:
            client = p.client
            member = group.members.get(client.member_id)
            if member is None:
                continue
            if client.state != CLIENT_STABLE or client.generation != group.generation:
                problems.append(f"{p.name} {client.state} at gen {client.generation}")
            if client.owned != assignment_partitions(member.assignment):
                problems.append(f"{p.name} owns {self.fmt(client.owned)}, its member has "
                                f"{self.fmt(assignment_partitions(member.assignment))}")
            # Not settled while a session runs out before the next heartbeat: a member that took long to send its
            # SyncGroup gets no new session from it in a Stable group (as in Kafka's GroupMetadataManager).
            deadline = classic_session_deadline(self.coord, GROUP, client.member_id)
            if deadline is not None and deadline <= client.next_heartbeat:
                problems.append(f"{p.name}'s session ends at t={deadline}, before its next heartbeat at "
                                f"t={client.next_heartbeat}")
            owned.extend(client.owned)
        wanted, unnoticed = self.classic_coverage(sorted({t for p in live for t in p.client.topics}))
        problems.extend(unnoticed)
        counts = Counter(owned)
        if set(counts) != wanted or any(n > 1 for n in counts.values()):
            twice = self.fmt(t for t, n in counts.items() if n > 1)
            problems.append(f"partitions not owned once: missing {self.fmt(wanted - set(counts))}, extra "
                            f"{self.fmt(set(counts) - wanted)}, twice {twice}")
        return problems

    def classic_coverage(self, topics: list[str]) -> tuple[set[tuple[str, int]], list[str]]:
        """The partitions the classic group must have assigned once it settles, and the metadata changes its
        leader failed to notice.

        The leader rejoins when the partition counts it assigned from change (the Java consumer's
        `rejoinNeededOrPending`), so every partition must be assigned. Except after a static takeover of the
        leader while Stable (KIP-345): a v9 leader skips the assignment and watches metadata from then on, so
        changes while it was down go unnoticed (Kafka says so) but later ones must not; a leader older than v9
        is not told it leads (Kafka answers with the old leader id), so nobody watches until the next rebalance.
        """
        now = self.metadata()
        if self.takeover is None:
            return {(t, q) for t in topics for q in range(now.get(t, 0))}, []
        at, version, then = self.takeover
        problems = []
        for t in topics:
            if version >= 9 and now.get(t, 0) != then.get(t, 0):
                problems.append(f"the leader did not notice {t} going from {then.get(t, 0)} to {now.get(t, 0)} "
                                f"partitions after its static takeover (v{version}) at t={at}")
        return {(t, q) for t in topics for q in range(self.assign_meta.get(t, 0))}, problems

    def consumer_problems(self) -> list[str]:
        group = self.coord.runtime.state.consumer.get(KGROUP)
        live = [p for p in self.procs if p.kind == "consumer" and p.client.running]
        if group is None:
            return ["no KIP-848 group"] if live else []
        problems = []
        ids = {p.client.member_id: p for p in live}
        if set(group.member_ids()) != set(ids):
            problems.append(f"KIP-848 members {sorted(map(self.label, group.member_ids()))} != live consumers "
                            f"{sorted(map(self.label, ids))}")
        if group.state() != ("Stable" if live else "Empty"):
            problems.append(f"KIP-848 group {group.state()}")
        names = {t.topic_id: t.name for t in self.coord.topics}
        owned: list[tuple[str, int]] = []
        for mid, cur in group.current.items():
            mine = assignment_map(cur.assigned_partitions)
            if mine != group.targets_map(mid) or cur.partitions_pending_revocation \
                    or cur.member_epoch != group.epoch:
                problems.append(f"{self.label(mid)} not reconciled at epoch {group.epoch}")
            p = ids.get(mid)
            if p is not None and (p.client.owned_ids != mine or p.client.epoch != cur.member_epoch):
                problems.append(f"{p.name} owns other partitions than its member")
            owned.extend((names[t], q) for t, ps in mine.items() for q in ps)
        wanted = {(t, q) for p in live for t in p.client.topics if (topic := self.coord.topics.get(t)) is not None
                  for q in range(topic.partitions)}
        counts = Counter(owned)
        if set(counts) != wanted or any(n > 1 for n in counts.values()):
            problems.append(f"KIP-848 partitions not assigned once: missing {self.fmt(wanted - set(counts))}")
        return problems


# -- the tests -----------------------------------------------------------------------------------------------

#: Checks each chunk of seeds must have exercised at least once (so a change to the weights cannot make them
#: vacuous).
MUST_EXERCISE = (
    "static takeovers while Stable", "static takeovers synced", "quiet bounces", "failovers",
    "failovers mid-rebalance", "admin leaves of known instances", "admin leaves of unknown instances",
    "static members expired", "JoinGroup v0-3", "JoinGroup v4+", "KIP-848 joins", "topics grown", "zombies",
    "pending members abandoned", "NOT_COORDINATOR after failover", "static leader takeovers", "stalls", "crashes",
)


#: Bugs found by this simulation and reported, each with the test that shows it on its own (strict xfail) and
#: what a scenario's failure looks like when it runs into it. A seed failing that way does not fail its chunk but
#: is listed in a warning. Once a bug is fixed its test XPASSes (strict: a failure); then delete the test's
#: xfail marker and the entry here.
KNOWN_BUGS: dict[str, re.Pattern[str]] = {}


@runner.chunks(SCENARIOS)
def test_random_classic_scenarios(first: int) -> None:
    runner.run_chunk(Scenario, first, SCENARIOS, runner.known_bugs(KNOWN_BUGS), MUST_EXERCISE)


def test_a_seed_replays_identically_in_another_process() -> None:
    """The rerun command must reproduce a failure: no dependence on hash randomization (set iteration order)
    in the coordinator, the clients or here."""
    runner.check_replays_identically(__file__, 7)


def test_single_seed() -> None:
    """Rerun one scenario: `GROUPCTL_SIM_SEED=123 python3 -m pytest tests/coordinator/test_simulation_classic.py
    -k single_seed -s` (`-s` shows its event log)."""
    runner.run_single_seed(Scenario)


# -- the bugs this simulation found, each on its own -----------------------------------------------------------

def _join(coord: Coordinator, instance_id: str | None, *, member_id: str = "", version: int = 9,
          group: str = "g") -> list[JoinGroupResponseData]:
    got: list[JoinGroupResponseData] = []
    coord.join_group(join_req(group, 10_000, 30_000, member_id, instance_id, protocols=[("range", b"")]),
                     got.append, Caller(api_version=version))
    return got


def test_bug_group_created_by_a_direct_join_is_persisted_with_its_leader() -> None:
    """A group created by a member that joins directly (a static member, or JoinGroup v0-v3) is written with
    `_record(group, None)` after the member was added: leader = that member, protocolType = "consumer". Kafka
    writes `newEmptyGroupMetadataRecord`: protocolType "", generation 0, protocol null, leader null, no members.

    After a failover before the first rebalance completes, the coordinator loads an Empty group whose leader is
    no member; the next rebalance then dies in `_elect_joined_leader` (`group.members[group.leader]`: KeyError).
    DES seeds: 1, 12, 44, 47, 72, 73, 86, 100, ... (42 of the 500)."""
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("foo", 3)
    _join(coord, "pod-a")
    record = coord.runtime.state.classic["g"]
    assert (record.protocol_type, record.generation, record.protocol, record.leader, record.raw_members) == \
        ("", 0, None, None, [])


def test_bug_failover_before_the_first_rebalance_breaks_the_next_one() -> None:
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("foo", 3)
    _join(coord, "pod-a")
    coord = coord.rebuild()  # failover during the initial rebalance delay: the group loads Empty
    group = coord.classic.groups["g"]
    assert group.state == EMPTY and (group.leader is None or group.leader in group.members)
    got = _join(coord, "pod-b")
    coord.advance(3_000)  # the initial rebalance completes
    assert got and got[-1].error_code == 0 and got[-1].leader == got[-1].member_id


def test_bug_static_leader_before_v9_is_told_the_old_leader_id() -> None:
    """KIP-345 before KIP-814: a static leader that rejoins a Stable group with JoinGroup v5-v8 gets the old
    leader id (Kafka's `currentLeader`, taken before `replaceStaticMember`) so that it does not run an assignment
    the Stable group would ignore. groupctl answers with the new member id as leader and an empty member list
    (`_replace_static` builds the answer after moving the leadership)."""
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("foo", 3)
    first = _join(coord, "pod-a", version=8)
    coord.advance(3_000)
    leader = first[-1]
    synced: list[SyncGroupResponseData] = []
    coord.sync_group(sync_req("g", leader.generation_id, leader.member_id, "pod-a",
                              assignments=[(leader.member_id, b"")]), synced.append)
    assert coord.classic.groups["g"].state == GROUP_STABLE and leader.leader == leader.member_id
    again = _join(coord, "pod-a", version=8)[-1]
    assert again.error_code == 0 and again.member_id != leader.member_id and not again.skip_assignment
    assert again.leader == leader.member_id


def _drive(coord: Coordinator, clients: list, until: int) -> None:
    """Clients and timers on virtual time until `until`."""
    while True:
        due = [d for c in clients if (d := c.next_due()) is not None]
        if (timer := coord.runtime.timers.next_deadline()) is not None:
            due.append(timer)
        if not due or min(due) > until:
            break
        coord.advance_to(max(min(due), coord.clock.now_ms()))
        for _ in range(MAX_PASSES):
            if not any([c.tick() for c in clients]):
                break
    coord.advance_to(until)


def test_bug_classic_leader_stops_watching_metadata_after_skipping_the_assignment() -> None:
    """The Java consumer's leader keeps `assignmentSnapshot = metadataSnapshot` on the skip-assignment path
    (KIP-814: "This allows the leader to continue monitoring metadata changes for the group"), so partitions
    added after a static leader's restart start a rebalance. `ClassicClient._on_join` resets
    `assigned_metadata` to None and only `_assign` sets it again, so after a v9 static leader bounce nobody
    watches and new partitions stay unassigned. DES seed: 269."""
    coord = Coordinator(clock=ManualClock(), ids=IdGenerator(1))
    coord.create_topic("foo", 4)
    clients = [ClassicClient(coord, f"pod-{i}", "g", ["foo"], instance_id=f"pod-{i}", session_timeout_ms=30_000,
                             client_id="consumer-g-1", observe=lambda *_: None, anomalies=[]) for i in range(2)]
    for client in clients:
        client.start()
    _drive(coord, clients, 10_000)
    group = coord.classic.groups["g"]
    assert group.state == GROUP_STABLE
    leader = next(c for c in clients if c.member_id == group.leader)
    leader.stop()  # a rolling restart of the leader, back well within its session timeout
    _drive(coord, clients, 12_000)
    leader.start()
    _drive(coord, clients, 15_000)
    generation = group.generation
    assert leader.member_id == group.leader and leader.state == CLIENT_STABLE
    coord.add_partitions("foo", 6)
    _drive(coord, clients, 30_000)
    owned = sorted(tp for c in clients for tp in c.owned)
    assert group.generation > generation and owned == [("foo", p) for p in range(6)]


def test_bug_member_whose_session_expired_awaiting_sync_is_never_expired_again() -> None:
    """A member waiting for the leader's SyncGroup satisfies its heartbeat expectation, so a session timer that
    fires then does nothing and is not rescheduled. Kafka's `propagateAssignment` therefore reschedules the
    heartbeat of every member whose SyncGroup it answers, errors included ("if any member's session expired while
    we were still awaiting ... the leader sync group ..., its expiration will be ignored and no future heartbeat
    expectations will not be scheduled"). groupctl's `_prepare_rebalance` answers the waiting SyncGroups of a
    CompletingRebalance group with REBALANCE_IN_PROGRESS and reschedules nothing: a member whose process died
    while it waited is never expired; the next rebalance waits the whole rebalance timeout for it, a static one
    is even kept then, and only the SyncGroup timeout of the generation after removes it (2 x max.poll.interval.ms
    with the Java defaults, the group rebalancing or lacking the member's partitions all along).
    DES seeds: 134, 150, 182, 188, 202, 245, 310, 379, 414, 426, 446 (caught by the session-timer invariant)."""
    coord = Coordinator(ids=IdGenerator(1))
    coord.create_topic("foo", 3)
    a = _join(coord, "pod-a")
    b = _join(coord, "pod-b")
    group = coord.classic.groups["g"]
    while group.state != COMPLETING_REBALANCE:  # the initial rebalance delay, extended once for pod-b
        coord.advance(1_000)
    assert a[-1].error_code == 0 and a[-1].leader == a[-1].member_id
    coord.sync_group(sync_req("g", b[-1].generation_id, b[-1].member_id, "pod-b"), lambda _: None)
    # pod-b's process dies while its SyncGroup waits for the leader; the leader is slow but heartbeats.
    for _ in range(4):
        coord.advance(3_000)
        assert coord.classic_heartbeat(beat("g", a[-1].generation_id, a[-1].member_id, "pod-a")).error_code == 0
    assert "pod-b" in group.static  # its session expired while it waited: that is allowed
    _join(coord, "pod-c")  # a new member: the rebalance starts again, pod-b's SyncGroup is answered
    assert group.state == "PreparingRebalance"
    again = _join(coord, "pod-a", member_id=a[-1].member_id)
    for _ in range(4):  # pod-b's session timeout (10 s) after its SyncGroup was answered
        coord.advance(3_000)
    assert "pod-b" not in group.static
    assert again and again[-1].error_code == 0 and group.generation == 2
