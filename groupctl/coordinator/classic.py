"""Classic groups (JoinGroup/SyncGroup/Heartbeat/LeaveGroup) with static membership (KIP-345) and
member ids required (KIP-394), as Kafka 4.x's `GroupMetadataManager` and `ClassicGroup` run them.

A classic group's rebalance is soft state (who is awaiting join or sync, pending members, the
state machine); Kafka persists only GroupMetadataValue snapshots at the points it writes them
(group created, rebalance completed by the leader's SyncGroup, group emptied, a static member
replaced while Stable). The live group is kept here; the records go through the log and replay,
and a rebuilt coordinator loads each group as Kafka loads it: Stable with its members, or Empty.

Parked requests (a JoinGroup waiting for the rebalance, a SyncGroup waiting for the leader) are
answered through the callback given with the request, when the coordinator completes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from groupctl.describe import classic_description, classic_member_from_bytes
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.model import GroupDescription
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE
from groupctl.protocol.records import encode_key, encode_value

if TYPE_CHECKING:
    from groupctl.coordinator.coordinator import Coordinator
    from groupctl.log.replay import ClassicGroupState

EMPTY = "Empty"
PREPARING_REBALANCE = "PreparingRebalance"
COMPLETING_REBALANCE = "CompletingRebalance"
STABLE = "Stable"
DEAD = "Dead"
#: JoinGroup v4+ (KIP-394): a member without an id gets one and must join again with it.
MEMBER_ID_REQUIRED_VERSION = 4
#: JoinGroup v9: the leader of a Stable group re-joining statically may skip the assignment.
SKIP_ASSIGNMENT_VERSION = 9
#: `GROUP_METADATA_VALUE_VERSION`: the version Kafka writes, with groupInstanceId.
GROUP_METADATA_VERSION = 3
NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000
_CAN_REBALANCE_FROM = {STABLE, COMPLETING_REBALANCE, EMPTY}

NONE = 0
_CODE = KAFKA_ERROR_CODES


@dataclass(slots=True)
class JoinGroupRequest:
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int = -1  # v0 has none: the session timeout is used
    member_id: str = ""
    group_instance_id: str | None = None
    protocol_type: str = PROTOCOL_TYPE
    protocols: list[tuple[str, bytes]] = field(default_factory=list)
    reason: str | None = None
    client_id: str = "groupctl"
    client_host: str = "/127.0.0.1"
    version: int = 9


@dataclass(slots=True)
class JoinGroupResponse:
    error_code: int = NONE
    generation_id: int = -1
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader: str = ""
    skip_assignment: bool = False
    member_id: str = ""
    members: list[tuple[str, str | None, bytes]] = field(default_factory=list)  # only for the leader


@dataclass(slots=True)
class SyncGroupRequest:
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None = None
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignments: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class SyncGroupResponse:
    error_code: int = NONE
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignment: bytes = b""


@dataclass(slots=True)
class DescribedMember:
    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    metadata: bytes
    assignment: bytes


@dataclass(slots=True)
class DescribedGroup:
    """One group of a DescribeGroups response."""

    group_id: str
    state: str
    protocol_type: str = ""
    protocol_data: str = ""
    members: list[DescribedMember] = field(default_factory=list)
    error_code: int = NONE
    error_message: str | None = None


JoinCallback = Callable[[JoinGroupResponse], None]
SyncCallback = Callable[[SyncGroupResponse], None]


@dataclass(slots=True, eq=False)
class ClassicMember:
    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: list[tuple[str, bytes]]
    assignment: bytes = b""
    awaiting_join: JoinCallback | None = None
    awaiting_sync: SyncCallback | None = None
    is_new: bool = False

    def metadata(self, protocol: str | None) -> bytes:
        for name, data in self.protocols:
            if name == protocol:
                return data
        return b""

    def vote(self, candidates: set[str]) -> str | None:
        """The member's most preferred protocol among those every member supports."""
        for name, _ in self.protocols:
            if name in candidates:
                return name
        return None

    def matches(self, protocols: list[tuple[str, bytes]]) -> bool:
        return [(n, bytes(d)) for n, d in self.protocols] == [(n, bytes(d)) for n, d in protocols]


@dataclass(slots=True, eq=False)
class ClassicGroup:
    group_id: str
    state: str = EMPTY
    previous_state: str | None = None
    generation: int = 0
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader: str | None = None
    state_timestamp: int | None = None
    members: dict[str, ClassicMember] = field(default_factory=dict)  # in join order (Kafka: hash order)
    static: dict[str, str] = field(default_factory=dict)  # instance id -> member id
    pending_join: set[str] = field(default_factory=set)
    pending_sync: set[str] = field(default_factory=set)
    new_member_added: bool = False

    def awaiting_join_count(self) -> int:
        return sum(1 for m in self.members.values() if m.awaiting_join is not None)

    def all_joined(self) -> bool:
        return self.awaiting_join_count() == len(self.members) and not self.pending_join

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def supports(self, protocol_type: str, names: set[str]) -> bool:
        if self.state == EMPTY:
            return bool(protocol_type) and bool(names)
        if self.protocol_type != protocol_type:
            return False
        if not self.members:  # every member left mid-rebalance: any protocol is one all of none support
            return bool(names)
        return bool(names & self._common_protocols())

    def _common_protocols(self) -> set[str]:
        """The protocols every member supports (one pass over the members, as Kafka's counts are)."""
        counts: dict[str, int] = {}
        for member in self.members.values():
            for name in {n for n, _ in member.protocols}:
                counts[name] = counts.get(name, 0) + 1
        return {name for name, count in counts.items() if count == len(self.members)}

    def select_protocol(self) -> str | None:
        candidates = self._common_protocols()
        votes: dict[str, int] = {}
        for member in self.members.values():
            choice = member.vote(candidates)
            if choice is not None:
                votes[choice] = votes.get(choice, 0) + 1
        if not votes:
            return None
        best = max(votes.values())
        return min(name for name, count in votes.items() if count == best)

    def add(self, member: ClassicMember) -> None:
        if not self.members:
            self.protocol_type = member.protocol_type
        self.members[member.member_id] = member
        if member.instance_id is not None:
            self.static[member.instance_id] = member.member_id
        if self.leader is None:
            self.leader = member.member_id
        self.pending_join.discard(member.member_id)

    def remove(self, member_id: str) -> ClassicMember | None:
        member = self.members.pop(member_id, None)
        if member is not None and member.instance_id is not None and self.static.get(member.instance_id) == member_id:
            del self.static[member.instance_id]
        if self.leader == member_id:
            self.leader = next(iter(self.members), None)
        self.pending_join.discard(member_id)
        self.pending_sync.discard(member_id)
        return member

    def validate_member(self, member_id: str, instance_id: str | None) -> None:
        """`ClassicGroup.validateMember`: the instance id maps to this member id, and the member exists."""
        if instance_id is not None:
            existing = self.static.get(instance_id)
            if existing is None:
                raise KafkaError("UNKNOWN_MEMBER_ID")
            if existing != member_id:
                raise KafkaError("FENCED_INSTANCE_ID")
        if member_id not in self.members:
            raise KafkaError("UNKNOWN_MEMBER_ID")

    def current_members(self) -> list[tuple[str, str | None, bytes]]:
        return [(m.member_id, m.instance_id, m.metadata(self.protocol_name)) for m in self.members.values()]


class ClassicGroups:
    """The classic-protocol half of the coordinator."""

    def __init__(self, coordinator: Coordinator) -> None:
        self.c = coordinator
        self.groups: dict[str, ClassicGroup] = {}
        self.min_session_timeout_ms = int(coordinator.classic_settings["group.min.session.timeout.ms"])
        self.max_session_timeout_ms = int(coordinator.classic_settings["group.max.session.timeout.ms"])
        self.initial_delay_ms = int(coordinator.classic_settings["group.initial.rebalance.delay.ms"])
        self.max_size = int(coordinator.classic_settings["group.max.size"])

    # -- loading and persistence -------------------------------------------------------------------

    def load(self, group_id: str, state: ClassicGroupState) -> ClassicGroup:
        """A group as Kafka loads it from its last GroupMetadataValue: Stable with members, or Empty."""
        group = ClassicGroup(
            group_id, STABLE if state.raw_members else EMPTY, None, state.generation,
            state.protocol_type or None, state.protocol, state.leader,
            None if state.current_state_timestamp == -1 else state.current_state_timestamp,
        )
        for m in state.raw_members:
            rebalance = m.get("rebalanceTimeout", -1)
            member = ClassicMember(
                m["memberId"], m.get("groupInstanceId"), m["clientId"], m["clientHost"],
                m["sessionTimeout"] if rebalance == -1 else rebalance, m["sessionTimeout"], state.protocol_type,
                [(state.protocol or "", bytes(m["subscription"]))], bytes(m["assignment"]),
            )
            group.members[member.member_id] = member
            if member.instance_id is not None:
                group.static[member.instance_id] = member.member_id
        self.groups[group_id] = group
        for member in group.members.values():
            self._reschedule_heartbeat(group, member)
        return group

    def snapshot(self) -> list[dict]:
        """The live groups' soft state as plain values (a rebalance in progress included).

        A broker keeps this in memory; a coordinator that stops between invocations (the local
        backend) keeps it on disk, so a rebalance carries on where it was. Parked requests are not
        kept: a member that was waiting is marked as such and its answer, when it comes, is dropped
        (the client asks again).
        """
        out = []
        for group in self.groups.values():
            out.append({
                "groupId": group.group_id, "state": group.state, "previousState": group.previous_state,
                "generation": group.generation, "protocolType": group.protocol_type,
                "protocolName": group.protocol_name, "leader": group.leader, "stateTimestamp": group.state_timestamp,
                "pendingJoin": sorted(group.pending_join), "pendingSync": sorted(group.pending_sync),
                "newMemberAdded": group.new_member_added,
                "members": [{
                    "memberId": m.member_id, "instanceId": m.instance_id, "clientId": m.client_id,
                    "clientHost": m.client_host, "rebalanceTimeoutMs": m.rebalance_timeout_ms,
                    "sessionTimeoutMs": m.session_timeout_ms, "protocolType": m.protocol_type,
                    "protocols": [[name, data.hex()] for name, data in m.protocols],
                    "assignment": m.assignment.hex(), "awaitingJoin": m.awaiting_join is not None,
                    "awaitingSync": m.awaiting_sync is not None, "isNew": m.is_new,
                } for m in group.members.values()],
            })
        return out

    def restore(self, snapshot: list[dict]) -> None:
        """Replace the groups loaded from the log with a `snapshot` taken at the same log end."""
        self.groups.clear()
        for g in snapshot:
            group = ClassicGroup(
                g["groupId"], g["state"], g["previousState"], g["generation"], g["protocolType"], g["protocolName"],
                g["leader"], g["stateTimestamp"], pending_join=set(g["pendingJoin"]),
                pending_sync=set(g["pendingSync"]), new_member_added=g["newMemberAdded"],
            )
            for m in g["members"]:
                member = ClassicMember(
                    m["memberId"], m["instanceId"], m["clientId"], m["clientHost"], m["rebalanceTimeoutMs"],
                    m["sessionTimeoutMs"], m["protocolType"], [(n, bytes.fromhex(d)) for n, d in m["protocols"]],
                    bytes.fromhex(m["assignment"]), is_new=m["isNew"],
                )
                if m["awaitingJoin"]:
                    member.awaiting_join = _dropped
                if m["awaitingSync"]:
                    member.awaiting_sync = _dropped
                group.members[member.member_id] = member
                if member.instance_id is not None:
                    group.static[member.instance_id] = member.member_id
            self.groups[group.group_id] = group
            self._rearm(group)

    def _rearm(self, group: ClassicGroup) -> None:
        """The timers a group in this state has running (their deadlines are restored by the caller)."""
        c = self.c
        now = c.clock.now_ms()
        for member in group.members.values():
            self._reschedule_heartbeat(group, member)
        for member_id in group.pending_join:
            gid = group.group_id
            c.timers.schedule(("heartbeat", gid, member_id), now + self.max_session_timeout_ms,
                              lambda gid=gid, mid=member_id: self._expire_heartbeat(gid, mid))
        if group.state == PREPARING_REBALANCE:
            c.timers.schedule(("join", group.group_id), now + group.rebalance_timeout_ms(),
                              lambda: self._complete_join(group))
        elif group.state == COMPLETING_REBALANCE:
            generation = group.generation
            c.timers.schedule(("sync", group.group_id), now + group.rebalance_timeout_ms(),
                              lambda: self._expire_sync(group, generation))

    def _empty_record(self, group: ClassicGroup) -> tuple[bytes, bytes]:
        """`newEmptyGroupMetadataRecord`: a new group before its first rebalance, whoever joined it."""
        value = {
            "protocolType": "", "generation": 0, "protocol": None, "leader": None,
            "currentStateTimestamp": group.state_timestamp if group.state_timestamp is not None else -1,
            "members": [],
        }
        return encode_key(2, {"group": group.group_id}), encode_value(2, GROUP_METADATA_VERSION, value)

    def _record(self, group: ClassicGroup, assignment: dict[str, bytes] | None) -> tuple[bytes, bytes]:
        """GroupMetadataValue v3 of the group as it stands (`newGroupMetadataRecord`)."""
        members = []
        for m in group.members.values() if assignment is not None else ():
            members.append({
                "memberId": m.member_id, "groupInstanceId": m.instance_id, "clientId": m.client_id,
                "clientHost": m.client_host, "rebalanceTimeout": m.rebalance_timeout_ms,
                "sessionTimeout": m.session_timeout_ms, "subscription": m.metadata(group.protocol_name),
                "assignment": assignment.get(m.member_id, b""),  # type: ignore[union-attr]
            })
        value = {
            "protocolType": group.protocol_type or "", "generation": group.generation,
            "protocol": group.protocol_name, "leader": group.leader,
            "currentStateTimestamp": group.state_timestamp if group.state_timestamp is not None else -1,
            "members": members,
        }
        return encode_key(2, {"group": group.group_id}), encode_value(2, GROUP_METADATA_VERSION, value)

    def describe(self, group: ClassicGroup, coordinator: str | None = None) -> GroupDescription:
        """The live group as `group describe` shows it (members with their decoded subscriptions)."""
        consumer = group.protocol_type == PROTOCOL_TYPE
        members = [
            classic_member_from_bytes(
                m.member_id, m.instance_id, m.client_id, m.client_host, m.metadata(group.protocol_name),
                m.assignment, consumer=consumer, rebalance_timeout_ms=m.rebalance_timeout_ms,
                session_timeout_ms=m.session_timeout_ms,
            )
            for m in group.members.values()
        ]
        return classic_description(
            group.group_id, group.state, protocol_type=group.protocol_type or "", protocol=group.protocol_name,
            generation=group.generation, leader=group.leader, state_timestamp=group.state_timestamp,
            members=members, coordinator=coordinator,
        )

    def describe_groups(self, group_ids: list[str], version: int = 5) -> list[DescribedGroup]:
        """DescribeGroups: member metadata and assignments only while Stable; a missing group is Dead
        (v6+: with GROUP_ID_NOT_FOUND, KIP-1043)."""
        out = []
        for group_id in group_ids:
            group = self.groups.get(group_id)
            if group is None and self.c.group_exists(group_id) and group_id not in self.c.state.consumer:
                group = ClassicGroup(group_id)  # a simple group: Empty, no protocol type
            if group is None:
                message = (f"Group {group_id} is not a classic group." if group_id in self.c.state.consumer
                           else f"Group {group_id} not found.")
                described = DescribedGroup(group_id, DEAD)
                if version >= 6:
                    described.error_code, described.error_message = _CODE["GROUP_ID_NOT_FOUND"], message
                out.append(described)
                continue
            stable = group.state == STABLE
            out.append(DescribedGroup(
                group_id, group.state, group.protocol_type or "", (group.protocol_name or "") if stable else "",
                [DescribedMember(m.member_id, m.instance_id, m.client_id, m.client_host,
                                 m.metadata(group.protocol_name) if stable else b"", m.assignment if stable else b"")
                 for m in group.members.values()],
            ))
        return out

    def validate_offset_commit(self, group: ClassicGroup, member_id: str, instance_id: str | None,
                               generation: int) -> None:
        """`ClassicGroup.validateOffsetCommit` for a non-transactional commit."""
        if generation < 0 and group.state == EMPTY:
            return
        if generation >= 0 or member_id != "" or instance_id is not None:
            group.validate_member(member_id, instance_id)
            if generation != group.generation:
                raise KafkaError("ILLEGAL_GENERATION")
        elif group.state != EMPTY:
            raise KafkaError("UNKNOWN_MEMBER_ID")
        if group.state == COMPLETING_REBALANCE:
            raise KafkaError("REBALANCE_IN_PROGRESS")

    def _transition(self, group: ClassicGroup, state: str) -> None:
        group.previous_state = group.state
        group.state = state
        group.state_timestamp = self.c.clock.now_ms()

    # -- JoinGroup ---------------------------------------------------------------------------------

    def join(self, req: JoinGroupRequest, respond: JoinCallback) -> None:
        """JoinGroup: `respond` is called now for an immediate answer, later when the rebalance completes."""
        try:
            self._join(req, respond)
        except KafkaError as exc:
            respond(JoinGroupResponse(error_code=exc.code, member_id=req.member_id))
        finally:
            self.c.run_tasks()

    def _join(self, req: JoinGroupRequest, respond: JoinCallback) -> None:
        c = self.c
        if req.group_id == "":
            raise KafkaError("INVALID_GROUP_ID")
        if not self.min_session_timeout_ms <= req.session_timeout_ms <= self.max_session_timeout_ms:
            raise KafkaError("INVALID_SESSION_TIMEOUT")
        if req.rebalance_timeout_ms == -1:
            req.rebalance_timeout_ms = req.session_timeout_ms
        unknown = req.member_id == ""
        group = self.groups.get(req.group_id)
        new_group = False
        if group is None:
            if req.group_id in c.state.consumer:
                raise KafkaError(
                    "INCONSISTENT_GROUP_PROTOCOL",
                    f"Group {req.group_id} is a consumer group: classic members joining it (KIP-848 online "
                    "migration) are not modelled by groupctl's coordinator.",
                )
            if not c.group_exists(req.group_id):
                if not unknown:
                    raise KafkaError("GROUP_ID_NOT_FOUND", f"Classic group {req.group_id} not found.")
                new_group = True
            group = self._create(req.group_id)
        if not self._accepts(group, req.member_id):
            group.remove(req.member_id)
            respond(JoinGroupResponse(error_code=_CODE["GROUP_MAX_SIZE_REACHED"], member_id=""))
            return
        names = {n for n, _ in req.protocols}
        if not group.supports(req.protocol_type, names):
            raise KafkaError("INCONSISTENT_GROUP_PROTOCOL")
        records: list = []
        if unknown:
            prefix = req.group_instance_id if req.group_instance_id is not None else req.client_id
            new_id = f"{prefix}-{c.ids.uuid()}"
            if req.group_instance_id is not None:
                existing = group.static.get(req.group_instance_id)
                if existing is not None:
                    records = self._replace_static(group, req, existing, new_id, respond)
                else:
                    self._add_member(group, req, new_id, respond)
            elif req.version >= MEMBER_ID_REQUIRED_VERSION:
                group.pending_join.add(new_id)
                c.timers.schedule(("heartbeat", group.group_id, new_id), c.clock.now_ms() + req.session_timeout_ms,
                                  lambda: self._expire_heartbeat(group.group_id, new_id))
                respond(JoinGroupResponse(error_code=_CODE["MEMBER_ID_REQUIRED"], member_id=new_id))
            else:
                self._add_member(group, req, new_id, respond)
        else:
            self._join_existing(group, req, respond)
        if new_group and not records:
            records = [self._empty_record(group)]
        c.append(records)

    def _create(self, group_id: str) -> ClassicGroup:
        group = ClassicGroup(group_id)
        self.groups[group_id] = group
        return group

    def _accepts(self, group: ClassicGroup, member_id: str) -> bool:
        if group.state in (EMPTY, DEAD):
            return True
        if group.state == PREPARING_REBALANCE:
            member = group.members.get(member_id)
            return (member is not None and member.awaiting_join is not None) or \
                group.awaiting_join_count() < self.max_size
        return member_id in group.members or len(group.members) < self.max_size

    def _join_existing(self, group: ClassicGroup, req: JoinGroupRequest, respond: JoinCallback) -> None:
        if req.member_id in group.pending_join:
            self._add_member(group, req, req.member_id, respond)
            return
        group.validate_member(req.member_id, req.group_instance_id)
        member = group.members[req.member_id]
        if group.state == PREPARING_REBALANCE:
            self._update_member(group, member, req, respond)
            self._maybe_prepare_or_complete(group)
        elif group.state == COMPLETING_REBALANCE:
            if member.matches(req.protocols):
                respond(self._join_response(group, member.member_id))
            else:
                self._update_member(group, member, req, respond)
                self._maybe_prepare_or_complete(group)
        elif group.state == STABLE:
            if group.leader == member.member_id or not member.matches(req.protocols):
                self._update_member(group, member, req, respond)
                self._maybe_prepare_or_complete(group)
            else:
                response = self._join_response(group, member.member_id)
                response.members = []
                respond(response)
        else:
            respond(JoinGroupResponse(error_code=_CODE["UNKNOWN_MEMBER_ID"], member_id=req.member_id))

    def _join_response(self, group: ClassicGroup, member_id: str) -> JoinGroupResponse:
        return JoinGroupResponse(
            generation_id=group.generation, protocol_type=group.protocol_type, protocol_name=group.protocol_name,
            leader=group.leader or "", member_id=member_id,
            members=group.current_members() if group.leader == member_id else [],
        )

    def _add_member(self, group: ClassicGroup, req: JoinGroupRequest, member_id: str, respond: JoinCallback) -> None:
        member = ClassicMember(
            member_id, req.group_instance_id, req.client_id, req.client_host, req.rebalance_timeout_ms,
            req.session_timeout_ms, req.protocol_type, list(req.protocols), awaiting_join=respond, is_new=True,
        )
        if group.state == PREPARING_REBALANCE and group.previous_state == EMPTY:
            group.new_member_added = True
        group.add(member)
        self._reschedule_heartbeat(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS)
        self._maybe_prepare_or_complete(group)

    def _update_member(
        self, group: ClassicGroup, member: ClassicMember, req: JoinGroupRequest, respond: JoinCallback | None
    ) -> None:
        member.protocols = list(req.protocols)
        member.rebalance_timeout_ms = req.rebalance_timeout_ms
        member.session_timeout_ms = req.session_timeout_ms
        member.awaiting_join = respond

    def _replace_static(
        self, group: ClassicGroup, req: JoinGroupRequest, old_id: str, new_id: str, respond: JoinCallback
    ) -> list:
        """`updateStaticMemberThenRebalanceOrCompleteJoin`: the instance takes a new member id."""
        current_leader = group.leader
        old = group.members.pop(old_id)
        if old.awaiting_join is not None:
            old.awaiting_join(JoinGroupResponse(error_code=_CODE["FENCED_INSTANCE_ID"], member_id=old_id))
        if old.awaiting_sync is not None:
            old.awaiting_sync(SyncGroupResponse(error_code=_CODE["FENCED_INSTANCE_ID"]))
        self.c.timers.cancel(("heartbeat", group.group_id, old_id))
        member = ClassicMember(new_id, old.instance_id, old.client_id, old.client_host, old.rebalance_timeout_ms,
                               old.session_timeout_ms, old.protocol_type, old.protocols, old.assignment)
        group.members[new_id] = member
        group.pending_sync.discard(old_id)
        if group.leader == old_id:
            group.leader = new_id
        group.static[req.group_instance_id] = new_id  # type: ignore[index]
        self._reschedule_heartbeat(group, member)
        self._update_member(group, member, req, respond)
        if group.state == STABLE:
            if (group.protocol_name or "") == group.select_protocol():
                member.awaiting_join = None
                response = self._join_response(group, new_id)
                if req.version >= SKIP_ASSIGNMENT_VERSION:
                    response.skip_assignment = group.leader == new_id  # the leader keeps its member list
                else:
                    # Older clients cannot skip the assignment: they are told the leader as it was, so a
                    # returning leader does not think it must assign (KIP-345's refined form).
                    response.leader, response.members = current_leader or "", []
                respond(response)
                assignment = {m.member_id: m.assignment for m in group.members.values()}
                return [self._record(group, assignment)]
            self._maybe_prepare_or_complete(group)
            return []
        if group.state == COMPLETING_REBALANCE:
            self._prepare_rebalance(group)
            return []
        self._maybe_complete_join(group)
        return []

    # -- rebalancing -------------------------------------------------------------------------------

    def _maybe_prepare_or_complete(self, group: ClassicGroup) -> None:
        if group.state in _CAN_REBALANCE_FROM:
            self._prepare_rebalance(group)
        else:
            self._maybe_complete_join(group)

    def _maybe_complete_join(self, group: ClassicGroup) -> None:
        if group.state == PREPARING_REBALANCE and group.all_joined() and group.previous_state != EMPTY:
            self._complete_join(group)

    def _prepare_rebalance(self, group: ClassicGroup) -> None:
        c = self.c
        if group.state == COMPLETING_REBALANCE:
            for member in group.members.values():
                member.assignment = b""
                if member.awaiting_sync is not None:
                    callback, member.awaiting_sync = member.awaiting_sync, None
                    callback(SyncGroupResponse(error_code=_CODE["REBALANCE_IN_PROGRESS"]))
                    # As Kafka's propagateAssignment: a session that lapsed while the member waited for
                    # the leader was ignored then, so it starts again now.
                    self._reschedule_heartbeat(group, member)
        group.pending_sync.clear()
        c.timers.cancel(("sync", group.group_id))
        initial = group.state == EMPTY
        if initial:
            delay = self.initial_delay_ms
            remaining = max(group.rebalance_timeout_ms() - delay, 0)
            self._schedule_initial(group, delay, remaining)
        self._transition(group, PREPARING_REBALANCE)
        if not initial:
            if group.all_joined():
                self._complete_join(group)
            else:
                c.timers.schedule(("join", group.group_id), c.clock.now_ms() + group.rebalance_timeout_ms(),
                                  lambda: self._complete_join(group))

    def _schedule_initial(self, group: ClassicGroup, delay: int, remaining: int) -> None:
        def fire() -> None:
            if group.new_member_added and remaining != 0:
                group.new_member_added = False
                self._schedule_initial(group, min(self.initial_delay_ms, remaining), max(remaining - delay, 0))
            else:
                self._complete_join(group)

        self.c.timers.schedule(("join", group.group_id), self.c.clock.now_ms() + delay, fire)

    def _complete_join(self, group: ClassicGroup) -> None:
        """`completeClassicGroupJoin`: drop dynamic members that did not rejoin, then the next generation."""
        c = self.c
        c.timers.cancel(("join", group.group_id))
        if self.groups.get(group.group_id) is not group:
            return
        for member in [m for m in group.members.values() if m.awaiting_join is None and m.instance_id is None]:
            group.remove(member.member_id)
            c.timers.cancel(("heartbeat", group.group_id, member.member_id))
        if group.members and not self._elect_joined_leader(group):
            c.timers.schedule(("join", group.group_id), c.clock.now_ms() + group.rebalance_timeout_ms(),
                              lambda: self._complete_join(group))
            return
        group.generation += 1
        group.pending_sync.clear()
        if not group.members:
            group.protocol_name = None
            self._transition(group, EMPTY)
            c.append([self._record(group, {})])
            return
        group.protocol_name = group.select_protocol()
        self._transition(group, COMPLETING_REBALANCE)
        for member in list(group.members.values()):
            if member.awaiting_join is not None:
                callback, member.awaiting_join = member.awaiting_join, None
                callback(self._join_response(group, member.member_id))
            self._reschedule_heartbeat(group, member)
            member.is_new = False
            group.pending_sync.add(member.member_id)
        generation = group.generation
        c.timers.schedule(("sync", group.group_id), c.clock.now_ms() + group.rebalance_timeout_ms(),
                          lambda: self._expire_sync(group, generation))

    @staticmethod
    def _elect_joined_leader(group: ClassicGroup) -> bool:
        if group.leader is None:
            return False
        if group.members[group.leader].awaiting_join is not None:
            return True
        for member in group.members.values():
            if member.awaiting_join is not None:
                group.leader = member.member_id
                return True
        return False

    def _expire_sync(self, group: ClassicGroup, generation: int) -> None:
        if generation != group.generation or group.state not in (COMPLETING_REBALANCE, STABLE):
            return
        if group.pending_sync:
            for member_id in list(group.pending_sync):
                group.remove(member_id)
                self.c.timers.cancel(("heartbeat", group.group_id, member_id))
            self._prepare_rebalance(group)

    def _reschedule_heartbeat(self, group: ClassicGroup, member: ClassicMember, timeout_ms: int | None = None) -> None:
        c = self.c
        timeout = member.session_timeout_ms if timeout_ms is None else timeout_ms
        gid, mid = group.group_id, member.member_id
        c.timers.schedule(("heartbeat", gid, mid), c.clock.now_ms() + timeout, lambda: self._expire_heartbeat(gid, mid))

    def _expire_heartbeat(self, group_id: str, member_id: str) -> None:
        group = self.groups.get(group_id)
        if group is None:
            return
        if member_id in group.pending_join:
            group.pending_join.discard(member_id)
            self._maybe_complete_pending(group)
            return
        member = group.members.get(member_id)
        if member is None:
            return
        satisfied = not member.is_new and (member.awaiting_join is not None or member.awaiting_sync is not None)
        if not satisfied:
            self._remove_member(group, member)

    def _maybe_complete_pending(self, group: ClassicGroup) -> None:
        if group.state == PREPARING_REBALANCE and group.all_joined():
            self._complete_join(group)

    def _remove_member(self, group: ClassicGroup, member: ClassicMember) -> None:
        if member.awaiting_join is not None:
            callback, member.awaiting_join = member.awaiting_join, None
            callback(JoinGroupResponse(error_code=_CODE["UNKNOWN_MEMBER_ID"], member_id=""))
        group.remove(member.member_id)
        if group.state in (STABLE, COMPLETING_REBALANCE):
            self._maybe_prepare_or_complete(group)
        elif group.state == PREPARING_REBALANCE and group.all_joined():
            self._complete_join(group)

    # -- SyncGroup, Heartbeat, LeaveGroup -----------------------------------------------------------

    def sync(self, req: SyncGroupRequest, respond: SyncCallback) -> None:
        try:
            self._sync(req, respond)
        except KafkaError as exc:
            respond(SyncGroupResponse(error_code=exc.code))
        finally:
            self.c.run_tasks()

    def _group(self, group_id: str) -> ClassicGroup:
        group = self.groups.get(group_id)
        if group is None:
            if group_id in self.c.state.consumer:
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a classic group.")
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Group {group_id} not found.")
        return group

    def _sync(self, req: SyncGroupRequest, respond: SyncCallback) -> None:
        group = self._group(req.group_id)
        group.validate_member(req.member_id, req.group_instance_id)
        if req.generation_id != group.generation:
            raise KafkaError("ILLEGAL_GENERATION")
        if _inconsistent(req.protocol_type, group.protocol_type) or _inconsistent(req.protocol_name,
                                                                                 group.protocol_name):
            raise KafkaError("INCONSISTENT_GROUP_PROTOCOL")
        if group.state == EMPTY:
            raise KafkaError("UNKNOWN_MEMBER_ID")
        if group.state == PREPARING_REBALANCE:
            raise KafkaError("REBALANCE_IN_PROGRESS")
        member = group.members[req.member_id]
        if group.state == STABLE:
            self._sync_received(group, req.member_id)
            respond(SyncGroupResponse(NONE, group.protocol_type, group.protocol_name, member.assignment))
            return
        member.awaiting_sync = respond
        self._sync_received(group, req.member_id)
        if group.leader != req.member_id:
            return
        assignment = dict(req.assignments)
        for m in group.members.values():
            assignment.setdefault(m.member_id, b"")
        for m in group.members.values():
            m.assignment = assignment[m.member_id]
        self._transition(group, STABLE)
        self.c.append([self._record(group, assignment)])
        for m in group.members.values():
            if m.awaiting_sync is not None:
                callback, m.awaiting_sync = m.awaiting_sync, None
                callback(SyncGroupResponse(NONE, group.protocol_type, group.protocol_name, m.assignment))
                self._reschedule_heartbeat(group, m)

    def _sync_received(self, group: ClassicGroup, member_id: str) -> None:
        group.pending_sync.discard(member_id)
        if not group.pending_sync:
            self.c.timers.cancel(("sync", group.group_id))

    def heartbeat(self, group_id: str, generation_id: int, member_id: str, instance_id: str | None = None) -> int:
        """Heartbeat: the error code Kafka answers with (0 when all is well)."""
        try:
            group = self._group(group_id)
            group.validate_member(member_id, instance_id)
            if generation_id != group.generation:
                raise KafkaError("ILLEGAL_GENERATION")
        except KafkaError as exc:
            return exc.code
        finally:
            self.c.run_tasks()
        if group.state == EMPTY:
            return _CODE["UNKNOWN_MEMBER_ID"]
        self._reschedule_heartbeat(group, group.members[member_id])
        return _CODE["REBALANCE_IN_PROGRESS"] if group.state == PREPARING_REBALANCE else NONE

    def leave(
        self, group_id: str, identities: list[tuple[str, str | None, str | None]]
    ) -> list[tuple[str, str | None, int]]:
        """LeaveGroup: (member id, instance id, reason) each; per member (member id, instance id, error code)."""
        group = self._group(group_id)
        results: list[tuple[str, str | None, int]] = []
        left = False
        for member_id, instance_id, _reason in identities:
            if member_id == "":
                target = group.static.get(instance_id) if instance_id is not None else None
                if target is None:
                    results.append((member_id, instance_id, _CODE["UNKNOWN_MEMBER_ID"]))
                    continue
                self._leave_member(group, target)
            elif member_id in group.pending_join:
                group.pending_join.discard(member_id)
                self.c.timers.cancel(("heartbeat", group_id, member_id))
            else:
                try:
                    group.validate_member(member_id, instance_id)
                except KafkaError as exc:
                    results.append((member_id, instance_id, exc.code))
                    continue
                self._leave_member(group, member_id)
            results.append((member_id, instance_id, NONE))
            left = True
        if left:
            if group.state in (STABLE, COMPLETING_REBALANCE):
                self._maybe_prepare_or_complete(group)
            elif group.state == PREPARING_REBALANCE:
                self._maybe_complete_join(group)
        self.c.run_tasks()
        return results

    def _leave_member(self, group: ClassicGroup, member_id: str) -> None:
        member = group.members[member_id]
        self.c.timers.cancel(("heartbeat", group.group_id, member_id))
        if member.awaiting_join is not None:
            callback, member.awaiting_join = member.awaiting_join, None
            callback(JoinGroupResponse(error_code=_CODE["UNKNOWN_MEMBER_ID"], member_id=""))
        group.remove(member_id)


def _dropped(_response: object) -> None:
    """The answer to a request parked by an earlier process: nobody is waiting for it any more."""


def _inconsistent(requested: str | None, current: str | None) -> bool:
    return requested is not None and current is not None and requested != current
