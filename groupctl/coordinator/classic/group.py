"""A classic group as the coordinator holds it live: members, static ids, the rebalance in flight.

Only GroupMetadataValue snapshots of it reach the log; the rest (who is awaiting join or sync,
pending members, the state) is soft state, as in Kafka's `ClassicGroup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from groupctl.coordinator.classic.messages import JoinCallback, SyncCallback
from groupctl.errors import KafkaError
from groupctl.model import GroupState
from groupctl.protocol.data.groups import JoinGroupResponseMember

#: JoinGroup v4+ (KIP-394): a member without an id gets one and must join again with it.
MEMBER_ID_REQUIRED_VERSION = 4
#: JoinGroup v9: the leader of a Stable group re-joining statically may skip the assignment.
SKIP_ASSIGNMENT_VERSION = 9
NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000
CAN_REBALANCE_FROM = {GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY}


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
    state: GroupState = GroupState.EMPTY
    previous_state: GroupState | None = None
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
        if self.state == GroupState.EMPTY:
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

    def current_members(self) -> list[JoinGroupResponseMember]:
        """The member list a leader's JoinGroup answer carries: each member's metadata of the chosen protocol."""
        return [
            JoinGroupResponseMember(member_id=m.member_id, group_instance_id=m.instance_id,
                                    metadata=m.metadata(self.protocol_name))
            for m in self.members.values()
        ]

