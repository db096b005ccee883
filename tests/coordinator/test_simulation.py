"""A discrete-event simulation of one KIP-848 consumer group: seeded random scenarios of simulated
clients against the coordinator, with the protocol's safety rules checked after every step and
convergence checked once the inputs stop.

The clients are the library's simulated KIP-848 consumers (`groupctl.simulation.clients.ConsumerClient`);
the harness adds what a process around one does: when it heartbeats, responses lost on the way, a slow
rebalance listener, and a supervisor restarting a process that died of a fatal error. The scenario
runner (seeds, time, failover, convergence, failure reports) is `tests/simulation/runner.py`.

Each scenario (`Scenario(seed).run()`) draws its events from `random.Random(seed)`: members join
(some static, some v0 clients whose member id the coordinator generates, some subscribing by regex,
some asking for the range or uniform assignor by name), leave (-1), bounce statically (-2, then a new
incarnation with a new member id and the same instance id rejoins, mostly within the session
timeout), crash (stop heartbeating: the session timeout removes them; a crashed static member may be
restarted, and gets UNRELEASED_INSTANCE_ID until then, a fatal error its supervisor answers by starting
it again), heartbeat late, reconcile slowly (past the rebalance timeout at times), lose heartbeat
responses (one or two in a row), change subscriptions (names, or from one regex to another); topics gain
partitions and new topics appear; time passes; and the coordinator is rebuilt from its log mid-scenario
while the clients carry on.

After every step (every heartbeat, timer firing and event):

* no partition is owned by two members (assigned + pending revocation, from the coordinator's state),
  and no two live clients that are members think they own the same partition; a client owns nothing
  the coordinator does not count as its;
* epochs never go back: group epoch, target assignment epoch, and each member id's epoch while it is
  a member (a static member's -2 is the one allowed step down); member epoch <= target epoch <= group
  epoch; targets never overlap;
* every assigned, pending and target partition exists in `coord.topics`;
* the coordinator's indexes equal what its state implies (owners, static members, subscriptions);
* replay(log) == live state: `coord.rebuild()` (the log replayed from scratch) holds the same state
  and indexes as `coord` (replayed again whenever the log grew; an unchanged log replays the same);
* an error is one the step can explain (e.g. UNRELEASED_INSTANCE_ID only while the instance id's
  member has not left with -2);
* a static member's temporary leave (-2) is one record: the member stays at epoch -2 with what it
  owned, nothing rebalances;
* a static member that rejoins while its -2 member is still in the group (within the session
  timeout) takes over. It gets nothing outside its target; subscribing as before, it keeps every
  partition it had that is still in its target, and the group epoch does not move unless topic
  metadata changed meanwhile; and when nothing changed in between (same group epoch, no metadata
  change, the member was reconciled when it left) it gets exactly its previous partitions at its
  previous epoch, with its target unchanged.

Then the inputs stop: every live client heartbeats on its interval (the pending restarts happen) and
the group must become Stable within a bounded time, with every member's assignment equal to its
target, every client owning exactly that, every partition of every subscribed topic assigned, only the
live clients as members, and steady heartbeats writing no records.

A failure prints the seed, the event log so far and a command that reruns just that seed; a scenario
replays identically whatever PYTHONHASHSEED (checked in a subprocess).
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections import Counter
from types import SimpleNamespace

from groupctl.coordinator.clock import ManualClock
from groupctl.coordinator.consumer import LEAVE_EPOCH, STATIC_LEAVE_EPOCH
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.state import assignment_map
from groupctl.regex import compile_topic_regex
from groupctl.simulation.clients import REJOIN_ERRORS, ConsumerClient
from tests.heartbeats import assigned, error
from tests.simulation import runner
from tests.simulation.runner import CurrentCoordinator, log_end

GROUP = "g"
SCENARIOS = int(os.environ.get("GROUPCTL_SIM_SCENARIOS", "500"))
SESSION_MS = 45_000
HEARTBEAT_MS = 5_000
TOPIC_POOL = ("foo", "bar", "baz", "qux")
#: Regexes some clients subscribe with (RE2/J, full match): some match nothing until a topic appears.
REGEXES = ("ba.*", "foo|qux", "q.*", "b[a-z]r", ".*")
MAX_PARTITIONS = 12
MAX_CLIENTS = 8
#: Once the inputs stop, the group must be Stable within this much simulated time (a crashed member's
#: session timeout, a late restart, a fenced member waiting for its eviction, then a rebalance).
CONVERGE_WITHIN_MS = 300_000
#: (action, weight) for the random phase.
ACTIONS = (
    ("tick", 60), ("join", 6), ("leave", 2), ("bounce", 4), ("crash", 2), ("late", 3), ("slow", 3),
    ("lose", 3), ("add_partitions", 2), ("create_topic", 1), ("subscribe", 1), ("advance", 2), ("rebuild", 2),
)


class Proc:
    """A live client process: the simulated consumer plus when it next acts."""

    def __init__(self, client: ConsumerClient, next_at: int, slowness: int = 0) -> None:
        self.client = client
        self.next_at = next_at
        self.slowness = slowness  # ms a slow rebalance listener takes; 0: reconciles at once
        self.ack_at: int | None = None  # when the pending slow reconciliation completes
        self.lose_next = 0  # how many of the next responses are lost
        self.errors = 0  # consecutive error responses

    def __repr__(self) -> str:
        return f"{self.client.name}"


class Scenario(runner.Scenario):
    ACTIONS = ACTIONS
    RERUN = "{seed_env}={seed} python3 -m pytest tests/coordinator/test_simulation.py -k single_seed"
    CONVERGE_WITHIN_MS = CONVERGE_WITHIN_MS
    IDLE_MS = HEARTBEAT_MS
    STEADY_MS = 2 * HEARTBEAT_MS + 200
    TOPIC_POOL = TOPIC_POOL
    MAX_PARTITIONS = MAX_PARTITIONS

    def __init__(self, seed: int, kit: SimpleNamespace, *, steps: int | None = None) -> None:
        super().__init__(seed, steps=steps)
        self.kit = kit
        # Client-generated member ids come from their own stream: the coordinator's IdGenerator(seed) draws
        # from random.Random(seed) too, and the same stream would make v0 ids collide with v1 ones. (Not
        # seed + a constant: random.Random(2) and random.Random(2 + 2**32) draw the same numbers.)
        self.client_ids = IdGenerator(int.from_bytes(hashlib.sha256(f"client member ids {seed}".encode()).digest()[:8]))
        self.clock = ManualClock()
        self.coord = Coordinator(clock=self.clock, ids=IdGenerator(seed))
        self.link = CurrentCoordinator(self)
        self.anomalies: list[str] = []  # what the clients report; `check_error` judges every error itself
        self.procs: list[Proc] = []
        self.names = 0
        self.instances = 0
        self.restarts_until = 0
        self.checked: tuple[int, int, int] | None = None  # (events, log end, coordinator) at the last check
        # What the invariants remember between steps.
        self.group_epoch = 0
        self.assignment_epoch = 0
        self.member_epochs: dict[str, int] = {}
        self.static_left: dict[str, dict] = {}  # instance id -> what its -2 member had when it left
        self.main_subscription = sorted(self.rng.sample(["foo", "bar"], self.rng.choice([1, 2])))

    def setup(self) -> None:
        self.coord.create_topic("foo", self.rng.randint(1, 8))
        if self.rng.random() < 0.5:
            self.coord.create_topic("bar", self.rng.randint(1, 6))
        self.note(f"topics {self.topics_text()}; main subscription {self.main_subscription}")
        for _ in range(self.rng.randint(1, 4)):
            self.do_join()

    # -- formatting ------------------------------------------------------------------------------------------

    def fmt(self, assignment) -> str:
        if assignment is None:
            return "-"
        by_id = {t.topic_id: t.name for t in self.coord.topics}
        parts = sorted((by_id.get(t, str(t)[:8]), sorted(ps)) for t, ps in dict(assignment).items() if ps)
        return " ".join(f"{t}:{','.join(map(str, ps))}" for t, ps in parts) or "{}"

    @staticmethod
    def short(member_id: str) -> str:
        return member_id[:6] if member_id else "''"

    # -- time ------------------------------------------------------------------------------------------------

    def fire_timers(self, t: int) -> None:
        """The coordinator's timers due by `t` fire (a step of its own: the invariants are checked after it)."""
        coord = self.coord
        deadline = coord.runtime.timers.next_deadline()
        if deadline is None or deadline > t:
            super().fire_timers(t)
            return
        group = coord.runtime.state.consumer.get(GROUP)
        before = {m: (c.member_epoch, c.state) for m, c in group.current.items()} if group else {}
        epoch = self.group_state_epoch()
        coord.advance_to(t)
        after = self.member_set()
        if set(before) != after or epoch != self.group_state_epoch():
            gone = ", ".join(f"{self.short(m)} (was {self.kit.STATE_NAMES.get(before[m][1])} at epoch "
                             f"{before[m][0]})" for m in sorted(set(before) - after))
            self.note(f"timer: removed {gone or 'nothing'}; group epoch {self.group_state_epoch()}")
        self.check()

    def next_client_action(self) -> int | None:
        proc = self.next_proc()
        return None if proc is None else self.due(proc)

    def clients_act(self, t: int) -> None:
        """Every client due by `t` heartbeats, each a step of its own (the runner checks after the last)."""
        first = True
        while (proc := self.next_proc()) is not None and self.due(proc) <= t:
            if not first:
                self.check()
            self.heartbeat(proc)
            first = False

    def member_set(self) -> set[str]:
        group = self.coord.runtime.state.consumer.get(GROUP)
        return set(group.member_ids()) if group is not None else set()

    def group_state_epoch(self) -> int:
        group = self.coord.runtime.state.consumer.get(GROUP)
        return group.epoch if group is not None else 0

    @staticmethod
    def due(proc: Proc) -> int:
        return min(proc.next_at, proc.ack_at) if proc.ack_at is not None else proc.next_at

    def next_proc(self) -> Proc | None:
        if not self.procs:
            return None
        return min(self.procs, key=lambda p: (self.due(p), p.client.name))

    # -- actions ---------------------------------------------------------------------------------------------

    def do_tick(self) -> None:
        """The next client heartbeats (timers due before it fire first)."""
        proc = self.next_proc()
        if proc is None:
            self.advance_to(self.now + HEARTBEAT_MS)
            return
        self.advance_to(max(self.due(proc), self.now))

    def make_client(self, *, instance_id: str | None, subscription: list[str], version: int,
                    assignor: str | None = None, regex: str | None = None) -> ConsumerClient:
        """A started client process (v1: with the member id it generated; v0: the coordinator gives one)."""
        self.names += 1
        client = ConsumerClient(
            self.link, f"c{self.names}", GROUP, subscription, instance_id=instance_id, ids=self.client_ids,
            observe=lambda *_: None, anomalies=self.anomalies, regex=regex, assignor=assignor, version=version,
            rebalance_timeout_ms=self.rng.choice([10_000, 30_000, 60_000]),
        )
        client.start()
        return client

    def do_join(self) -> None:
        if len(self.procs) >= MAX_CLIENTS:
            return
        instance_id = None
        if self.rng.random() < 0.4:
            self.instances += 1
            instance_id = f"i{self.instances}"
        regex = None
        roll = self.rng.random()
        if roll < 0.65:
            subscription = list(self.main_subscription)
        elif roll < 0.85:
            subscription = sorted(self.rng.sample(TOPIC_POOL, self.rng.randint(1, 3)))
        else:  # a regex subscription (ConsumerGroupHeartbeat v1)
            subscription, regex = [], self.rng.choice(REGEXES)
        # Most clients leave the assignor to the group (uniform); some ask for range or uniform by name, so the
        # group's assignor changes as they come and go.
        assignor = self.rng.choice([None] * 6 + ["range", "uniform"])
        version = 1 if regex is not None or self.rng.random() < 0.8 else 0
        client = self.make_client(instance_id=instance_id, subscription=subscription, version=version,
                                  assignor=assignor, regex=regex)
        self.procs.append(Proc(client, self.now + self.rng.randint(0, 1_000)))
        self.note(f"{client.name} starts (v{client.version}, {self.short(client.member_id)}, instance "
                  f"{instance_id}, subscribes {subscription if regex is None else 'regex ' + regex}, assignor "
                  f"{assignor}, rebalance timeout {client.rebalance_timeout_ms})")

    def joined(self) -> list[Proc]:
        return [p for p in self.procs if p.client.epoch > 0]

    def do_leave(self) -> None:
        procs = self.joined()
        if not procs:
            return
        proc = self.rng.choice(procs)
        client = proc.client
        r = client.leave(LEAVE_EPOCH)
        self.expect(r is not None, f"{client.name} sent no leave")
        self.note(f"{client.name} {self.short(client.member_id)} leaves (-1) -> {error(r)}")
        self.expect(r.error_code == 0 or error(r) == "UNKNOWN_MEMBER_ID", f"leave failed: {r}")
        self.procs.remove(proc)

    def do_bounce(self) -> None:
        procs = [p for p in self.joined() if p.client.instance_id is not None]
        if not procs:
            return
        proc = self.rng.choice(procs)
        client = proc.client
        group = self.coord.runtime.state.consumer.get(GROUP)
        before = group.current.get(client.member_id) if group is not None else None
        epoch, offset = self.group_state_epoch(), log_end(self.coord)
        r = client.leave(STATIC_LEAVE_EPOCH)
        self.expect(r is not None, f"{client.name} sent no leave")
        self.note(f"{client.name} {self.short(client.member_id)} leaves temporarily (-2) -> {error(r)}")
        self.expect(r.error_code == 0 or error(r) == "UNKNOWN_MEMBER_ID", f"static leave failed: {r}")
        self.procs.remove(proc)
        if r.error_code == 0 and before is not None:
            # A temporary leave is one record, the member's assignment at epoch -2 (what it owns is kept, what
            # it was revoking is released); no rebalance.
            group = self.coord.runtime.state.consumer[GROUP]
            after = group.current.get(client.member_id)
            self.expect(group.epoch == epoch and log_end(self.coord) == offset + 1,
                        f"static leave wrote {log_end(self.coord) - offset} records, group epoch {epoch} -> "
                        f"{group.epoch}")
            self.expect(after is not None and after.member_epoch == -2 and not after.partitions_pending_revocation
                        and after.assigned_partitions == before.assigned_partitions,
                        f"static leave left the member as {after}, was {before}")
            self.static_left[client.instance_id] = {
                "member_id": client.member_id,
                "group_epoch": group.epoch,
                "epoch": before.member_epoch,
                "assigned": assignment_map(before.assigned_partitions),
                "target": group.targets_map(client.member_id),
                "reconciled": before.state == 0 and before.member_epoch == group.assignment_epoch
                and group.epoch == group.assignment_epoch,
            }
        # The restarted process: same instance id and subscription, a new member id; mostly back well within
        # the session timeout, sometimes too late.
        delay = self.rng.randint(0, SESSION_MS * 2 // 3) if self.rng.random() < 0.8 else \
            self.rng.randint(SESSION_MS * 2 // 3, SESSION_MS * 2)
        self.restart(client, delay)

    def restart(self, client, delay: int) -> None:
        new = self.make_client(instance_id=client.instance_id, subscription=client.topics,
                               version=client.version, assignor=client.assignor, regex=client.regex)
        new.rebalance_timeout_ms = client.rebalance_timeout_ms
        self.procs.append(Proc(new, self.now + delay))
        self.note(f"{new.name} ({self.short(new.member_id)}) will restart instance {client.instance_id} "
                  f"in {delay} ms")

    def do_crash(self) -> None:
        if not self.procs:
            return
        proc = self.rng.choice(self.procs)
        client = proc.client
        self.procs.remove(proc)
        client.crash()
        self.note(f"{client.name} {self.short(client.member_id)} crashes")
        if client.instance_id is not None and self.rng.random() < 0.6:
            self.restart(client, self.rng.randint(0, 90_000))

    def do_late(self) -> None:
        if not self.procs:
            return
        proc = self.rng.choice(self.procs)
        delay = self.rng.randint(HEARTBEAT_MS, 60_000)
        proc.next_at += delay
        self.note(f"{proc.client.name}'s next heartbeat is {delay} ms late")

    def do_slow(self) -> None:
        if not self.procs:
            return
        proc = self.rng.choice(self.procs)
        proc.client.auto_ack = False
        proc.slowness = self.rng.randint(500, proc.client.rebalance_timeout_ms * 3 // 2)
        self.note(f"{proc.client.name}'s rebalance listener now takes {proc.slowness} ms")

    def do_lose(self) -> None:
        if not self.procs:
            return
        proc = self.rng.choice(self.procs)
        proc.lose_next = self.rng.choice([1, 1, 2])
        self.note(f"{proc.client.name}'s next {proc.lose_next} heartbeat response(s) will be lost")

    def do_subscribe(self) -> None:
        if not self.procs:
            return
        proc = self.rng.choice(self.procs)
        if proc.client.regex is not None:
            proc.client.regex = self.rng.choice(REGEXES)
            self.note(f"{proc.client.name} subscribes to regex {proc.client.regex}")
        else:
            proc.client.topics = sorted(self.rng.sample(TOPIC_POOL, self.rng.randint(1, 3)))
            self.note(f"{proc.client.name} subscribes to {proc.client.topics}")

    def do_rebuild(self) -> None:
        self.fail_over()
        self.note("coordinator rebuilt from its log (failover)")

    # -- one heartbeat ---------------------------------------------------------------------------------------

    def heartbeat(self, proc: Proc) -> None:
        coord, client = self.coord, proc.client
        now = self.now
        if proc.ack_at is not None and now >= proc.ack_at:
            client.finish_reconciliation()
            proc.ack_at = None
        group = coord.runtime.state.consumer.get(GROUP)
        idx = coord.runtime.state.indexes.get(GROUP)
        # What the coordinator knows about this client's instance id before the request.
        existing = idx.static.get(client.instance_id) if idx is not None and client.instance_id else None
        existing_cur = group.current.get(existing) if group is not None and existing is not None else None
        existing_meta = group.members.get(existing) if group is not None and existing is not None else None
        pre_group_epoch = group.epoch if group is not None else 0
        refresh_pending = GROUP in coord.runtime.metadata_refresh
        lose = proc.lose_next > 0 and not self.inputs_stopped
        proc.lose_next = max(proc.lose_next - 1, 0)

        req = client.request()
        owned = None if req.topic_partitions is None else {t.topic_id: t.partitions for t in req.topic_partitions}
        sent = (f"{client.name} {self.short(req.member_id)} epoch {req.member_epoch} owned "
                f"{self.fmt(owned) if owned is not None else '-'}")
        r = coord.heartbeat(req, client.caller)
        if r.error_code:
            self.note(f"{sent} -> {error(r)}: {r.error_message}")
        else:
            self.note(f"{sent} -> {self.short(r.member_id or '')} epoch {r.member_epoch} assignment "
                      f"{self.fmt(assigned(r))}{' (response lost)' if lose else ''}")
        self.check_error(req, r, existing, existing_cur)
        if req.member_epoch == 0 and existing_cur is not None and existing != r.member_id and r.error_code == 0:
            # What is kept holds for the same subscription; the group epoch may only move for a change (topic
            # metadata, or a subscription the new incarnation changed: its other metadata is taken over as it was).
            same = existing_meta is not None and \
                sorted(set(req.subscribed_topic_names or ())) == existing_meta.subscribed_topic_names and \
                (req.subscribed_topic_regex or None) == (existing_meta.subscribed_topic_regex or None)
            self.check_static_rejoin(client, r, existing, existing_cur, pre_group_epoch, same, refresh_pending)

        owned_before = client.owned_ids
        if lose:
            client.response_lost()
        else:
            client.handle(req, r)
        if not client.running:  # a fatal error (UNRELEASED_INSTANCE_ID): the supervisor starts the process again
            client.start()
            self.note(f"  {client.name} died of {error(r)}; started again as {self.short(client.member_id)}")
        if client.pending_assignment is None:
            proc.ack_at = None
        elif proc.ack_at is None:
            proc.ack_at = now + proc.slowness
        interval = r.heartbeat_interval_ms or HEARTBEAT_MS
        proc.errors = proc.errors + 1 if r.error_code and not lose else 0
        if proc.errors == 1 and error(r) in REJOIN_ERRORS:
            proc.next_at = now + self.rng.randint(1, 500)  # rejoin at once
        elif proc.errors:
            proc.next_at = now + interval + self.rng.randint(0, 100)  # again: back off
        elif client.owned_ids != owned_before:
            proc.next_at = now + self.rng.randint(1, 200)  # acknowledge the new assignment at once
        else:
            proc.next_at = now + interval + self.rng.randint(0, 100)

    def check_error(self, req, r, existing: str | None, existing_cur: dict | None) -> None:
        if not r.error_code:
            return
        if error(r) in ("FENCED_MEMBER_EPOCH", "UNKNOWN_MEMBER_ID"):
            return
        if error(r) == "UNRELEASED_INSTANCE_ID":
            self.expect(req.member_epoch == 0 and existing is not None and existing_cur is not None
                        and existing_cur.member_epoch != -2,
                        f"UNRELEASED_INSTANCE_ID although the instance's member {existing} has left: {existing_cur}")
            return
        self.fail(f"unexpected error {error(r)}: {r.error_message}")

    def check_static_rejoin(self, client, r, old_id: str, old_cur: dict, pre_epoch: int, same_subscription: bool,
                            refresh_pending: bool) -> None:
        """A new incarnation took over the instance id from its member (`old_id`).

        It never gets anything outside its target. Subscribing as the old member did, it keeps every partition
        it had that is still in its target (with another subscription, partitions of topics it left go), and
        unless topic metadata changed meanwhile the group epoch does not move.
        """
        group = self.coord.runtime.state.consumer[GROUP]
        self.expect(old_cur.member_epoch == -2,
                    f"{client.name} took over instance {client.instance_id} from {old_id}, which had not left")
        self.expect(old_id not in group.member_ids(), f"the replaced member {old_id} is still in the group")
        prev = {(t, p) for t, ps in assignment_map(old_cur.assigned_partitions).items() for p in ps}
        target = {(t, p) for t, ps in group.targets_map(r.member_id).items() for p in ps}
        got = {(t, p) for t, ps in (assigned(r) or {}).items() for p in ps}
        self.expect(got <= target, f"static rejoin got partitions outside its target: {sorted(got - target)}")
        unchanged = same_subscription and not refresh_pending
        if same_subscription:
            self.expect(prev & target <= got, f"static rejoin lost partitions it had and still targets: "
                                              f"had {sorted(prev)}, target {sorted(target)}, got {sorted(got)}")
        self.note(f"  static takeover of {client.instance_id} from {self.short(old_id)}: kept "
                  f"{len(prev & target)} of {len(prev)}, target {len(target)}")
        if unchanged:
            # The rejoin itself does not bump (its response carries the old epoch at most). Its heartbeat may run
            # a due regex refresh afterwards (Kafka's background executor), and that may bump.
            regex_refresh = any(v.timestamp == self.now for v in group.regexes.values())
            self.expect(r.member_epoch <= pre_epoch and (group.epoch == pre_epoch or regex_refresh),
                        f"static rejoin bumped the group epoch {pre_epoch} -> {group.epoch} (member epoch "
                        f"{r.member_epoch})")
        left = self.static_left.get(client.instance_id)
        if left is not None and left["member_id"] == old_id and left["group_epoch"] == pre_epoch \
                and left["reconciled"] and unchanged:
            self.expect(got == prev and r.member_epoch == left["epoch"],
                        f"static rejoin with nothing changed: expected {sorted(prev)} at epoch {left['epoch']}, "
                        f"got {sorted(got)} at epoch {r.member_epoch}")
            self.expect(group.targets_map(r.member_id) == left["target"], "static rejoin changed the target")
            self.note(f"  static rejoin of {client.instance_id} with nothing changed: same partitions, same epoch, "
                      "no bump")

    # -- invariants ------------------------------------------------------------------------------------------

    def check(self) -> None:
        # Everything checked here changes only with the log, the coordinator, or a client's heartbeat or event
        # (each noted): with none of those since the last check, it holds still and is not checked twice.
        mark = (len(self.events), log_end(self.coord), id(self.coord))
        if mark == self.checked:
            return
        self.checked = mark
        coord = self.coord
        group = coord.runtime.state.consumer.get(GROUP)
        self.check_replay()
        if group is None:
            return
        # Epochs never go back; member epoch <= target epoch <= group epoch.
        self.expect(group.epoch >= self.group_epoch, f"group epoch went back {self.group_epoch} -> {group.epoch}")
        self.expect(group.assignment_epoch >= self.assignment_epoch,
                    f"target epoch went back {self.assignment_epoch} -> {group.assignment_epoch}")
        self.expect(group.assignment_epoch <= group.epoch,
                    f"target epoch {group.assignment_epoch} ahead of group epoch {group.epoch}")
        self.group_epoch, self.assignment_epoch = group.epoch, group.assignment_epoch
        self.expect(set(group.members) == set(group.current),
                    f"members without metadata or assignment: {set(group.members) ^ set(group.current)}")
        self.expect(set(group.targets) <= set(group.members), f"targets of non-members: "
                                                               f"{set(group.targets) - set(group.members)}")
        epochs: dict[str, int] = {}
        for mid, cur in group.current.items():
            epoch = cur.member_epoch
            if epoch != -2:
                self.expect(epoch >= self.member_epochs.get(mid, 0),
                            f"member {mid} epoch went back {self.member_epochs.get(mid)} -> {epoch}")
                self.expect(0 < epoch <= group.assignment_epoch,
                            f"member {mid} epoch {epoch} outside (0, target epoch {group.assignment_epoch}]")
            epochs[mid] = epoch
        self.member_epochs = epochs

        # Ownership: each partition once (assigned or pending revocation); everything exists.
        owners: dict[tuple[uuid.UUID, int], tuple[str, int]] = {}
        for mid, cur in group.current.items():
            for key in ("assigned_partitions", "partitions_pending_revocation"):
                for tps in getattr(cur, key):
                    for p in tps.partitions:
                        tp = (tps.topic_id, p)
                        self.expect(tp not in owners, f"partition {self.fmt({tp[0]: [p]})} owned by {owners.get(tp)} "
                                                      f"and {mid}")
                        owners[tp] = (mid, cur.member_epoch)
                        self.expect_exists(tp, f"{mid} {key}")
        targeted: dict[tuple[uuid.UUID, int], str] = {}
        for mid, target in group.targets.items():
            for tp in ((t.topic_id, p) for t in target.topic_partitions for p in t.partitions):
                self.expect(tp not in targeted, f"partition {tp} in the targets of {targeted.get(tp)} and {mid}")
                targeted[tp] = mid
                self.expect_exists(tp, f"{mid} target")

        # The indexes are what the state implies.
        idx = coord.runtime.state.indexes.get(GROUP)
        self.expect(idx is not None, "no index for the group")
        self.expect(idx.owners == owners, f"owners index {idx.owners} != state {owners}")
        static = {m.instance_id: mid for mid, m in group.members.items() if m.instance_id}
        self.expect(idx.static == static, f"static index {idx.static} != state {static}")
        names = Counter(n for m in group.members.values() for n in m.subscribed_topic_names or ())
        self.expect(idx.names == dict(names), f"subscription index {idx.names} != state {dict(names)}")

        # Clients: those still members never own the same partition, nor one the coordinator does not count.
        seen: dict[tuple[uuid.UUID, int], str] = {}
        for proc in self.procs:
            client = proc.client
            cur = group.current.get(client.member_id)
            if cur is None:
                continue
            mine = {(t, p) for t, ps in client.owned_ids.items() for p in ps}
            for tp in mine:
                self.expect(tp not in seen, f"clients {seen.get(tp)} and {client.name} both own {tp}")
                seen[tp] = client.name
            counted = {tp for tp, (mid, _) in owners.items() if mid == client.member_id}
            self.expect(mine <= counted, f"{client.name} owns {self.fmt(_pairs_map(mine - counted))} which the "
                                         f"coordinator does not count as its")

    def expect_exists(self, tp: tuple[uuid.UUID, int], where: str) -> None:
        topic = self.coord.topics.by_id(tp[0])
        self.expect(topic is not None and 0 <= tp[1] < topic.partitions, f"{where}: partition {tp} does not exist")

    def check_replay(self) -> None:
        """replay(log) == live state, indexes included (the runner replays the log again whenever it grew)."""
        coord = self.coord
        replayed = self.rebuilt().runtime.state
        self.expect(replayed == coord.runtime.state, "replay(log) != live state")
        self.expect(replayed.indexes.get(GROUP) == coord.runtime.state.indexes.get(GROUP),
                    "indexes rebuilt from the log differ from the live ones")

    # -- convergence -----------------------------------------------------------------------------------------

    def stop_inputs(self) -> None:
        """Faults stop: no lost answers, listeners reconcile at once, late heartbeats come on their interval."""
        self.note("inputs stop: live clients heartbeat on their interval from now on")
        for proc in self.procs:
            proc.client.auto_ack = True
            proc.slowness = 0
            proc.lose_next = 0
            if proc.client.epoch > 0:  # a late heartbeat is an input too: from now on every interval
                proc.next_at = min(proc.next_at, self.now + HEARTBEAT_MS)
            if proc.client.finish_reconciliation() or proc.ack_at is not None:
                proc.ack_at = None
                proc.next_at = min(proc.next_at, self.now + 1)
        self.restarts_until = max((p.next_at for p in self.procs if p.client.epoch == 0), default=0)

    def pending(self) -> bool:
        """The pending restarts happen before the group can settle."""
        return self.now < self.restarts_until

    def describe(self) -> str:
        return f"group: {self.describe_group()}"

    def after_convergence(self) -> None:
        self.note(f"converged: {self.describe_group()}")
        self.check_replay()

    def convergence_problems(self) -> list[str]:
        coord = self.coord
        group = coord.runtime.state.consumer.get(GROUP)
        live = {p.client.member_id: p.client for p in self.procs}
        if group is None:
            return [] if not live else ["no group"]
        problems: list[str] = []
        if set(group.member_ids()) != set(live):
            problems.append(f"members {sorted(map(self.short, group.member_ids()))} != live clients "
                            f"{sorted(map(self.short, live))}")
        state = group.state()
        if state != ("Stable" if live else "Empty"):
            problems.append(f"state {state}")
        subscribed: dict[uuid.UUID, int] = {}
        existing = coord.topics.names()
        for client in live.values():
            names = set(client.topics)
            if client.regex is not None:
                matched = compile_topic_regex(client.regex).select(existing)
                names.update(matched)
                resolved = group.regexes.get(client.regex)
                if resolved is None or sorted(resolved.topics) != matched:
                    problems.append(f"regex {client.regex} resolved to "
                                    f"{None if resolved is None else resolved.topics}, matches {matched}")
            for name in names:
                topic = coord.topics.get(name)
                if topic is not None:
                    subscribed[topic.topic_id] = topic.partitions
        assigned = set()
        for mid, cur in group.current.items():
            mine = assignment_map(cur.assigned_partitions)
            if mine != group.targets_map(mid):
                problems.append(f"{self.short(mid)} has {self.fmt(mine)}, target {self.fmt(group.targets_map(mid))}")
            if cur.partitions_pending_revocation:
                problems.append(f"{self.short(mid)} still revoking")
            if cur.member_epoch != group.epoch:
                problems.append(f"{self.short(mid)} at epoch {cur.member_epoch}, group at {group.epoch}")
            client = live.get(mid)
            if client is not None and (client.owned_ids != mine or client.epoch != cur.member_epoch):
                problems.append(f"client {client.name} has {self.fmt(client.owned_ids)} at {client.epoch}")
            meta = group.members.get(mid)
            sub_topics = meta.subscribed_topic_names if meta is not None else None
            sub_regex = meta.subscribed_topic_regex if meta is not None else None
            if client is not None and (client.topics != sub_topics
                                       or (client.regex or None) != (sub_regex or None)):
                problems.append(f"client {client.name}'s subscription {client.topics} {client.regex} not sent")
            sub_names = set(sub_topics or ())
            if sub_regex in group.regexes:
                sub_names.update(group.regexes[sub_regex].topics)
            subs = set()
            for name in sub_names:
                topic = coord.topics.get(name)
                if topic is not None:
                    subs.add(topic.topic_id)
            for t, ps in mine.items():
                if t not in subs:
                    problems.append(f"{self.short(mid)} assigned {self.fmt({t: ps})} it does not subscribe to")
                assigned.update((t, p) for p in ps)
        missing = {(t, p) for t, n in subscribed.items() for p in range(n)} - assigned
        if missing:
            problems.append(f"unassigned: {self.fmt(_pairs_map(missing))}")
        return problems

    def describe_group(self) -> str:
        group = self.coord.runtime.state.consumer.get(GROUP)
        if group is None:
            return "no group"
        members = []
        for m, c in sorted(group.current.items()):
            state = self.kit.STATE_NAMES.get(c.state, c.state)
            text = f"{self.short(m)}@{c.member_epoch}/{state}:{self.fmt(assignment_map(c.assigned_partitions))}"
            if c.partitions_pending_revocation:
                text += f" revoking {self.fmt(assignment_map(c.partitions_pending_revocation))}"
            members.append(f"{text} target {self.fmt(group.targets_map(m))}")
        return f"{group.state()} epoch {group.epoch} target epoch {group.assignment_epoch}; {', '.join(members)}"


def _pairs_map(pairs) -> dict[uuid.UUID, list[int]]:
    out: dict[uuid.UUID, list[int]] = {}
    for t, p in sorted(pairs, key=lambda tp: (tp[0].bytes, tp[1])):
        out.setdefault(t, []).append(p)
    return out


@runner.chunks(SCENARIOS)
def test_random_scenarios(kit: SimpleNamespace, first: int) -> None:
    runner.run_chunk(lambda seed: Scenario(seed, kit), first, SCENARIOS)


def test_a_seed_replays_identically_in_another_process() -> None:
    """The rerun command must reproduce a failure: a scenario may not depend on hash randomization (set
    iteration order) in the coordinator, the clients or here."""
    runner.check_replays_identically(__file__, 6)


def test_single_seed(kit: SimpleNamespace) -> None:
    """Rerun one scenario: `GROUPCTL_SIM_SEED=123 python3 -m pytest tests/coordinator/test_simulation.py -k
    single_seed` (add `-s` to see its event log)."""
    runner.run_single_seed(lambda seed: Scenario(seed, kit))
