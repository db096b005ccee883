"""The simulated members of a local DIR (`groupctl local member ...`), kept in `members.json`.

A member is one consumer process (a pod) that behaves as the Java consumer does (the clients of
`groupctl.simulation.clients`). Its client state is saved in DIR at the end of each invocation and
restored, bound to the coordinator reloaded from the log, by the next one, so a shell script can
build a scenario one command at a time. No time passes between invocations: the virtual clock
moves only while a command runs the world, that is every running member of DIR heartbeating as
due and the coordinator's timers firing, in small steps of virtual time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from groupctl.backends.local_shapes import checked, has, is_hex, is_int, is_list_of, is_text, is_text_or_none, reading
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import KAFKA_ERROR_NAMES, GroupctlError
from groupctl.json_files import read_json
from groupctl.model import GroupState, MemberState, TopicPartition, format_assignment
from groupctl.simulation.clients import (
    CLASSIC_CLIENT_STATES,
    CLIENT_STABLE,
    CLIENT_UNJOINED,
    ClassicClient,
    ConsumerClient,
    HeartbeatResult,
    SimulatedClient,
    assignment_partitions,
    restore_client,
)
from groupctl.simulation.driver import VirtualTimeDriver
from groupctl.simulation.ownership import Partition
from groupctl.simulation.share_client import ShareClient

if TYPE_CHECKING:
    from groupctl.backends.local import LocalBackend

MEMBERS_FILE = "members.json"
FILE_VERSION = 1
PROTOCOLS = ("classic", "consumer", "share")
#: session.timeout.ms's default in the Java consumer (classic members send it in JoinGroup).
DEFAULT_SESSION_TIMEOUT_MS = 45_000
#: How long a command waits for a group to settle: two rebalance timeouts (max.poll.interval.ms, 300 s,
#: what a classic rebalance waits for a member that does not rejoin), enough for any healthy group.
SETTLE_LIMIT_MS = 600_000
#: The most one `local tick` may move the clock: a day.
MAX_TICK_MS = 86_400_000

RUNNING, STOPPED, CRASHED, FAILED = "running", "stopped", "crashed", "failed"
_ANOMALY = re.compile(r"(\d+) ms (\S+): (.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class MemberLaunch:
    """What `local member join` was asked for."""

    name: str
    group: str
    protocol: str = "classic"
    topics: tuple[str, ...] = ()
    regex: str | None = None
    instance_id: str | None = None
    session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS  # classic only; KIP-848's is a group config
    assignor: str | None = None  # KIP-848 only: ServerAssignor


@dataclass(slots=True)
class MemberView:
    """A simulated member as `local member list` shows it."""

    name: str
    group: str
    protocol: str
    instance_id: str | None
    status: str  # running, stopped (closed), crashed, failed (stopped itself on a fatal error)
    member_id: str | None
    epoch: int  # the generation (classic) or the member epoch (KIP-848) the member last saw
    client_state: str
    assignment: list[TopicPartition]
    topics: list[str]
    regex: str | None
    session_timeout_ms: int | None
    assignor: str | None
    next_heartbeat_in_ms: int | None
    error: str | None


@dataclass(slots=True)
class Event:
    """Something the world did: a member joined or expired, a rebalance, an assignment that changed."""

    at_ms: int
    group: str
    event: str
    member: str | None  # the simulated member's name, when it is one of DIR's
    detail: str


@dataclass(slots=True)
class RunResult:
    """What a command that ran the world saw: the member afterwards, and what changed on the way."""

    member: MemberView | None
    group: str | None
    started_ms: int
    ended_ms: int
    settled: bool
    epoch_before: int | None
    epoch_after: int | None
    events: list[Event] = field(default_factory=list)
    sent: str | None = None  # what closing the member sent (leave, bounce)
    heartbeat: HeartbeatResult | None = None
    type_before: str | None = None  # classic or consumer: they differ when the group migrated
    type_after: str | None = None

    @property
    def virtual_ms(self) -> int:
        return self.ended_ms - self.started_ms


@dataclass(frozen=True, slots=True)
class Commit:
    """One partition of a member's OffsetCommit and its answer."""

    partition: TopicPartition
    offset: int
    log_end_offset: int
    error: str  # Kafka's error name, NONE when committed


@dataclass(frozen=True, slots=True)
class _Mark:
    """A group as one step left it, to tell what the next step changed."""

    type: str
    state: str
    epoch: int
    members: dict[str, str | None]  # member id -> instance id


@dataclass(slots=True)
class _Member:
    client: SimulatedClient
    status: str
    error: str | None = None

    @property
    def shown_status(self) -> str:
        return FAILED if self.status == RUNNING and not self.client.running else self.status


def _partition(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and is_text(value[0]) and is_int(value[1]) and value[1] >= 0


def _by_topic_id(value: Any) -> bool:
    return isinstance(value, dict) and all(is_list_of(ps, lambda p: is_int(p) and p >= 0) for ps in value.values())


def _answer(value: Any) -> bool:
    """A JoinGroup or SyncGroup answer waiting in a classic client's inbox."""
    if not isinstance(value, dict):
        return False
    common = {"errorCode": is_int, "protocolType": is_text_or_none, "protocolName": is_text_or_none}
    if value.get("api") == "JoinGroup":
        fields = {**common, "generationId": is_int, "leader": is_text, "skipAssignment": lambda v: isinstance(v, bool),
                  "memberId": is_text, "members": lambda v: is_list_of(v, lambda m: isinstance(m, list) and len(m) == 3
                                                                     and is_text(m[0]) and is_text_or_none(m[1])
                                                                     and is_hex(m[2]))}
    elif value.get("api") == "SyncGroup":
        fields = {**common, "assignment": is_hex}
    else:
        return False
    return has(value, **fields) and fields.keys() <= value.keys()


_CLIENT = {"protocol": lambda v: v in PROTOCOLS, "name": is_text, "groupId": is_text,
           "topics": lambda v: is_list_of(v, is_text), "regex": is_text_or_none, "instanceId": is_text_or_none,
           "memberId": is_text, "owned": lambda v: is_list_of(v, _partition), "running": lambda v: isinstance(v, bool),
           "incarnation": is_int, "clientId": is_text, "nextHeartbeatMs": is_int}
_CLASSIC_CLIENT = {"sessionTimeoutMs": is_int, "generation": is_int, "protocolName": is_text_or_none,
                   "state": lambda v: v in CLASSIC_CLIENT_STATES,
                   "assignedMetadata": lambda v: v is None or (isinstance(v, dict) and all(is_int(n) and n >= 0
                                                                                         for n in v.values())),
                   "inbox": lambda v: is_list_of(v, _answer)}
_CONSUMER_CLIENT = {"assignor": is_text_or_none, "epoch": is_int, "ownedIds": _by_topic_id,
                    "sentOwned": lambda v: v is None or _by_topic_id(v), "full": lambda v: isinstance(v, bool)}


def _is_client(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    fields = {**_CLIENT, **(_CLASSIC_CLIENT if data.get("protocol") == "classic" else _CONSUMER_CLIENT)}
    return has(data, **fields) and fields.keys() <= data.keys()


def _is_member(entry: Any) -> bool:
    return (has(entry, status=lambda v: v in (RUNNING, STOPPED, CRASHED), error=is_text_or_none, client=_is_client)
            and {"status", "client"} <= entry.keys())


def _is_members(data: Any) -> bool:
    """members.json: {"version": 1, "members": [{"status", "error", "client": what `to_jsonable` writes}]},
    each name once."""
    return (has(data, members=lambda v: is_list_of(v, _is_member))
            and len({m["client"]["name"] for m in data.get("members", ())}) == len(data.get("members", ())))


class LocalMembers(VirtualTimeDriver):
    """DIR's simulated members, bound to an open LocalBackend; `save()` before the backend closes."""

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend
        self.coord = backend.coordinator
        self.path = backend.directory / MEMBERS_FILE
        self.anomalies: list[str] = []
        self._ids = IdGenerator()
        self._members: dict[str, _Member] = {}
        self._dirty = False
        self._owned_before: dict[str, frozenset[Partition]] = {}
        self._owned_at: dict[str, int] = {}
        self._events: list[Event] = []
        data = checked(self.path, read_json(self.path), _is_members, "a list of simulated members") or {}
        if data and data.get("version") != FILE_VERSION:
            raise GroupctlError(f"{self.path} has version {data.get('version')}, this groupctl reads version "
                                f"{FILE_VERSION}; start a new --local directory")
        with reading(self.path):
            for entry in data.get("members", ()):
                client = restore_client(self.coord, entry["client"], observe=self._observe,
                                        anomalies=self.anomalies, ids=self._ids)
                self._members[client.name] = _Member(client, entry["status"], entry.get("error"))
        self._marks: dict[str, _Mark] = {}
        self._deadlines: dict[tuple[str, str], tuple[int | None, int | None]] = {}
        self._remember(self._take_marks())

    # -- persistence ------------------------------------------------------------------------------

    def save(self) -> None:
        """Have members.json written with the backend's state files when anything changed: the two are one
        change (a member the coordinator holds is one members.json knows), applied when the backend closes."""
        if not self._dirty:
            return
        members = [{"status": m.status, "error": m.error, "client": m.client.to_jsonable()}
                   for m in self._members.values()]
        self.backend.stage(self.path, {"version": FILE_VERSION, "members": members})
        self._dirty = False

    # -- what is there ----------------------------------------------------------------------------

    def names(self) -> list[str]:
        return list(self._members)

    def views(self, group: str | None = None) -> list[MemberView]:
        members = sorted(self._members.values(), key=lambda m: (m.client.group_id, m.client.name))
        return [self._view(m) for m in members if group is None or m.client.group_id == group]

    def view(self, name: str) -> MemberView:
        return self._view(self._get(name))

    def _get(self, name: str) -> _Member:
        member = self._members.get(name)
        if member is None:
            known = ", ".join(sorted(self._members)) or "none yet"
            raise GroupctlError(f"no simulated member '{name}' in {self.backend.directory} (members: {known}); "
                                f"add one with `groupctl local member join {name} --group G --topics T`")
        return member

    def _view(self, m: _Member) -> MemberView:
        c = m.client
        if isinstance(c, ClassicClient):
            epoch, state, session, assignor = c.generation, c.state, c.session_timeout_ms, None
        else:
            assert isinstance(c, ConsumerClient | ShareClient)
            epoch, session = c.epoch, None
            assignor = c.assignor if isinstance(c, ConsumerClient) else None
            state = "stopped" if not c.running else "joining" if c.epoch == 0 else "member"
        due = c.next_due()
        return MemberView(
            c.name, c.group_id, c.protocol, c.instance_id, m.shown_status, c.member_id or None, epoch, state,
            [TopicPartition(t, p) for t, p in sorted(c.owned)], list(c.topics), c.regex, session, assignor,
            None if due is None else max(due - self.now, 0), m.error,
        )

    def group_epoch(self, group: str) -> int | None:
        """The classic generation or the KIP-848 group epoch; None when there is no such group."""
        classic = self.coord.classic_group(group)
        if classic is not None:
            return classic.generation
        consumer = self.coord.consumer_group(group) or self.coord.share_group(group)
        return None if consumer is None else consumer.epoch

    def group_type(self, group: str) -> str | None:
        if self.coord.consumer_group(group) is not None:
            return "consumer"
        if self.coord.share_group(group) is not None:
            return "share"
        return "classic" if self.coord.group_exists(group) else None

    # -- commands ---------------------------------------------------------------------------------

    def join(self, spec: MemberLaunch) -> RunResult:
        """A new member, started, and the world run until its group has settled."""
        if spec.name in self._members:
            old = self._members[spec.name]
            raise GroupctlError(
                f"member name '{spec.name}' is already used in {self.backend.directory} (group "
                f"'{old.client.group_id}', {old.shown_status}); pick another name, or restart it with "
                f"`groupctl local member start {spec.name}` / `bounce {spec.name}`"
            )
        client: SimulatedClient
        if spec.protocol == "share":
            if spec.regex is not None or spec.instance_id is not None or spec.assignor is not None:
                raise GroupctlError("a share member subscribes to topics by name only: no --regex, --instance-id "
                                    "or --assignor (share groups have no static members and one assignor, simple)")
            client = ShareClient(self.coord, spec.name, spec.group, list(spec.topics), ids=self._ids,
                                 observe=self._observe, anomalies=self.anomalies, client_id=spec.name)
        elif spec.protocol == "classic":
            client = ClassicClient(self.coord, spec.name, spec.group, list(spec.topics), instance_id=spec.instance_id,
                                   session_timeout_ms=spec.session_timeout_ms, client_id=spec.name,
                                   observe=self._observe, anomalies=self.anomalies, regex=spec.regex)
        else:
            client = ConsumerClient(self.coord, spec.name, spec.group, list(spec.topics), instance_id=spec.instance_id,
                                    ids=self._ids, observe=self._observe, anomalies=self.anomalies,
                                    regex=spec.regex, assignor=spec.assignor, client_id=spec.name)
        member = _Member(client, RUNNING)
        self._members[spec.name] = member
        return self._run(member, lambda: client.start())

    def start(self, name: str) -> RunResult:
        """A stopped, crashed or failed member's process starts again (a new incarnation)."""
        member = self._get(name)
        if member.client.running:
            raise GroupctlError(f"member '{name}' is already running; `groupctl local member bounce {name}` "
                                "restarts it")

        def start() -> None:
            member.status, member.error = RUNNING, None
            member.client.start()

        return self._run(member, start)

    def leave(self, name: str) -> RunResult:
        """`KafkaConsumer.close()`; the rest of the group then settles."""
        member = self._running(name, "leave")
        sent = self._closing(member.client)

        def stop() -> None:
            member.client.stop()
            member.status = STOPPED

        result = self._run(member, stop)
        result.sent = sent
        return result

    def bounce(self, name: str, down_ms: int) -> RunResult:
        """Close, stay down `down_ms` while the others run, start again, and settle: one rolling-bounce step."""
        member = self._running(name, "bounce")
        sent = self._closing(member.client)

        def bounce() -> None:
            member.client.stop()
            self.after_step()
            self.run_until(self.now + down_ms)
            member.client.start()

        result = self._run(member, bounce)
        result.sent = sent
        return result

    def crash(self, name: str) -> RunResult:
        """The process dies without a word; no time passes."""
        member = self._running(name, "crash")

        def crash() -> None:
            member.client.crash()
            member.status = CRASHED

        return self._run(member, crash, settle=False, react=False)

    def heartbeat(self, name: str) -> RunResult:
        """One heartbeat now, whatever is due; the answer is acted on as a due heartbeat's would be."""
        member = self._running(name, "heartbeat")
        answer: list[HeartbeatResult] = []
        result = self._run(member, lambda: answer.append(member.client.heartbeat_now()), settle=False, react=False)
        result.heartbeat = answer[0]
        return result

    def commit(self, name: str, *, offset: int | None = None, lag: int = 0) -> list[Commit]:
        """`commitSync()` of the partitions the member owns: at `offset`, or `lag` behind each log end offset.

        Sent with the member's id and generation (classic) or member epoch (KIP-848), so a member that
        missed a rebalance gets Kafka's ILLEGAL_GENERATION / STALE_MEMBER_EPOCH (raised as KafkaError).
        """
        member = self._running(name, "commit")
        client = member.client
        if isinstance(client, ShareClient):
            raise GroupctlError(f"member '{name}' is a share consumer: share groups commit no offsets (a share "
                                "consumer acknowledges records instead)")
        owned = [TopicPartition(t, p) for t, p in sorted(client.owned)]
        if not owned:
            raise GroupctlError(f"member '{name}' owns no partitions now, so it has nothing to commit")
        ends = self.backend.end_offsets(owned)
        wanted = [(tp, offset if offset is not None else max(ends.get(tp, 0) - lag, 0)) for tp in owned]
        epoch = client.generation if isinstance(client, ClassicClient) else getattr(client, "epoch", -1)
        answers = self.coord.commit_offsets(client.group_id, client.member_id, epoch,
                                            [CommitPartition(tp.topic, tp.partition, o) for tp, o in wanted],
                                            instance_id=client.instance_id)
        return [Commit(tp, o, ends.get(tp, 0), KAFKA_ERROR_NAMES.get(a.error_code, str(a.error_code)))
                for (tp, o), a in zip(wanted, answers, strict=True)]

    def tick(self, ms: int) -> RunResult:
        """Move the clock `ms` forward with every running member heartbeating as due and timers firing."""
        return self._run(None, lambda: self.run_until(self.now + ms), settle=False)

    # -- helpers of the commands ------------------------------------------------------------------

    def _running(self, name: str, what: str) -> _Member:
        member = self._get(name)
        if not member.client.running:
            raise GroupctlError(f"member '{name}' is {member.shown_status}, so it cannot {what}: a process that is "
                                f"not running sends nothing; start it with `groupctl local member start {name}`")
        return member

    def _closing(self, client: SimulatedClient) -> str:
        """What `close()` will send, in words."""
        if isinstance(client, ClassicClient):
            if client.instance_id is None:
                return "LeaveGroup" if client.member_id and client.state != CLIENT_UNJOINED else "nothing (not joined)"
            return (f"nothing (a static classic member stays in the group until its session timeout, "
                    f"{client.session_timeout_ms} ms, expires)")
        if isinstance(client, ShareClient):
            return "ShareGroupHeartbeat with epoch -1" if client.epoch > 0 else "nothing (not joined)"
        assert isinstance(client, ConsumerClient)
        if client.epoch <= 0:
            return "nothing (not joined)"
        return ("ConsumerGroupHeartbeat with epoch -2 (static: the assignment is kept for the session timeout)"
                if client.instance_id is not None else "ConsumerGroupHeartbeat with epoch -1")

    def _run(self, member: _Member | None, action: Callable[[], object], *, settle: bool = True,
             react: bool = True) -> RunResult:
        """Do `action`, let the clients react at once (unless not `react`), then settle the member's group."""
        self._dirty = True
        self._owned_before, self._owned_at, self._events = {}, {}, []
        group = member.client.group_id if member is not None else None
        before = self.group_epoch(group) if group is not None else None
        type_before = self.group_type(group) if group is not None else None
        started = self.now
        action()
        if react:
            self.after_step()
        else:
            self._observe_groups()
        settled = True
        if settle and group is not None:
            settled = self.run_until(started + SETTLE_LIMIT_MS, lambda: self.settled(group))
        self._assignment_events()
        return RunResult(
            self._view(member) if member is not None else None, group, started, self.now, settled, before,
            self.group_epoch(group) if group is not None else None, sorted(self._events, key=lambda e: e.at_ms),
            type_before=type_before, type_after=self.group_type(group) if group is not None else None,
        )

    # -- time -------------------------------------------------------------------------------------

    def _running_clients(self) -> list[SimulatedClient]:
        return [m.client for m in self._members.values() if m.client.running]

    def active_clients(self) -> list[SimulatedClient]:
        return self._running_clients()

    def after_step(self) -> None:
        """Let every client act on what it learnt at this instant, then note what changed."""
        self.tick_all()
        self._observe_groups()

    def settled(self, group: str) -> bool:
        """Every running member of `group` in the current generation or assignment epoch, owning what it was given.

        Classic: the group is Stable. KIP-848: the target assignment is up to date and every running
        member reconciled to it, classic-protocol members of the group (online migration) included;
        members that are not running may still hold theirs (a static member
        that left with epoch -2, a crashed one), which leaves Kafka's group state at Reconciling
        until they come back or their session expires.
        """
        running = [c for c in self._running_clients() if c.group_id == group]
        if not running:
            return True
        classic = self.coord.classic_group(group)
        if classic is not None:
            if classic.state != GroupState.STABLE or classic.pending_join:
                return False
            for c in running:
                member = classic.members.get(c.member_id)
                if not isinstance(c, ClassicClient) or member is None or c.state != CLIENT_STABLE or c.inbox \
                        or c.generation != classic.generation or c.owned != assignment_partitions(member.assignment):
                    return False
            return True
        share = self.coord.share_group(group)
        if share is not None:
            if share.epoch != share.assignment_epoch or self.coord.share_assignment_pending(group):
                return False
            for c in running:
                held = share.members.get(c.member_id)
                current = held.current if held is not None else None
                if not isinstance(c, ShareClient) or current is None or current.member_epoch != share.assignment_epoch \
                        or c.epoch != current.member_epoch or c.owned_ids != current.assigned:
                    return False
            return True
        state = self.coord.consumer_group(group)
        if state is None or state.epoch != state.assignment_epoch:
            return False
        for c in running:
            held = state.members.get(c.member_id)
            current = held.current if held is not None else None
            if current is None or current.state != MemberState.STABLE \
                    or current.member_epoch != state.assignment_epoch:
                return False
            assigned = current.assigned
            if isinstance(c, ClassicClient):
                # A classic-protocol member of a consumer group (online migration): its generation is its
                # member epoch, and it owns what it was given once it has synced.
                names = {(topic.name, p) for tid, ps in assigned.items() if (topic := self.coord.topics.by_id(tid))
                         for p in ps}
                if c.state != CLIENT_STABLE or c.inbox or c.generation != current.member_epoch or c.owned != names:
                    return False
            elif not isinstance(c, ConsumerClient) or c.epoch != current.member_epoch or c.owned_ids != assigned:
                return False
        return True

    # -- what changed -----------------------------------------------------------------------------

    def _observe(self, name: str, before: frozenset[Partition], after: frozenset[Partition], now: int) -> None:
        self._owned_before.setdefault(name, before)
        self._owned_at[name] = now

    def _assignment_events(self) -> None:
        for name, before in self._owned_before.items():
            member = self._members.get(name)
            if member is None or member.client.owned == before:
                continue
            after = member.client.owned
            self._events.append(Event(self._owned_at[name], member.client.group_id, "assignment", name,
                                      f"{_format(before)} -> {_format(after)}"))

    def _take_marks(self) -> dict[str, _Mark]:
        marks = {}
        for g in self.coord.group_views():  # a consumer group after a classic one by its id: the consumer one
            members = {m.member_id: m.instance_id for m in g.members.values()}
            marks[g.group_id] = _Mark(g.type, g.state, g.epoch, members)
        return marks

    def _observe_groups(self) -> None:
        """Events for what the last step changed in any group, and the members' errors."""
        now = self.now
        marks = self._take_marks()
        pods = {(m.client.group_id, m.client.member_id): name for name, m in self._members.items()}
        pods_by_instance = {(m.client.group_id, m.client.instance_id): name for name, m in self._members.items()
                            if m.client.instance_id is not None}

        def pod(gid: str, member_id: str, instance_id: str | None) -> str | None:
            return pods.get((gid, member_id)) or (pods_by_instance.get((gid, instance_id)) if instance_id else None)

        for gid, mark in marks.items():
            old = self._marks.get(gid)
            if old is None:
                old = _Mark(mark.type, GroupState.EMPTY, 0, {})
            gone = old.members.keys() - mark.members.keys()
            came = mark.members.keys() - old.members.keys()
            returned = {mark.members[m]: m for m in came if mark.members[m] is not None}
            for mid in sorted(gone):
                instance = old.members[mid]
                name = pod(gid, mid, instance)
                if instance is not None and instance in returned:
                    new_id = returned.pop(instance)
                    came.discard(new_id)
                    self._events.append(Event(now, gid, "member-replaced", name,
                                              f"instance {instance} is back as member {new_id} (was {mid})"))
                    continue
                reason = self._removal_reason(gid, mid, old, mark)
                self._events.append(Event(now, gid, "member-removed", name, f"member {mid}{_instance(instance)}: "
                                                                             f"{reason}"))
            for mid in sorted(came):
                instance = mark.members[mid]
                self._events.append(Event(now, gid, "member-joined", pod(gid, mid, instance),
                                          f"member {mid}{_instance(instance)}"))
            if mark.type != old.type:
                way = "upgrade" if mark.type == "consumer" else "downgrade"
                self._events.append(Event(now, gid, "migrated", None, f"{old.type} -> {mark.type} group ({way})"))
            if mark.epoch != old.epoch:
                kind = "generation" if mark.type == "classic" else "group epoch"
                self._events.append(Event(now, gid, "rebalance", None, f"{kind} {old.epoch} -> {mark.epoch}"))
            if mark.state != old.state:
                self._events.append(Event(now, gid, "state", None, f"{old.state} -> {mark.state}"))
        self._remember(marks)
        while self.anomalies:
            self._anomaly(self.anomalies.pop(0))

    def _remember(self, marks: dict[str, _Mark]) -> None:
        """The groups as they are now, with their members' timeout deadlines (to tell why one goes)."""
        self._marks = marks
        self._deadlines = {
            (gid, mid): self.coord.member_deadlines(gid, mid) for gid, mark in marks.items() for mid in mark.members
        }

    def _removal_reason(self, gid: str, mid: str, old: _Mark, new: _Mark) -> str:
        session, rebalance = self._deadlines.get((gid, mid), (None, None))
        now = self.now
        if session is not None and session <= now:
            return "session timeout expired"
        if rebalance is not None and rebalance <= now:
            return "rebalance timeout expired (did not revoke in time)"
        if old.type == "classic" and new.epoch != old.epoch:
            return "did not rejoin before the rebalance timeout"
        return "left the group"

    def _anomaly(self, text: str) -> None:
        found = _ANOMALY.fullmatch(text)
        name, detail = (found.group(2), found.group(3)) if found else (None, text)
        member = self._members.get(name or "")
        if member is not None:
            member.error = detail
        group = member.client.group_id if member is not None else ""
        self._events.append(Event(self.now, group, "error", name, detail))


def _format(partitions: Iterable[Partition]) -> str:
    return format_assignment(TopicPartition(t, p) for t, p in partitions)


def _instance(instance_id: str | None) -> str:
    return f" (instance {instance_id})" if instance_id is not None else ""
