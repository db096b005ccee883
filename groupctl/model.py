"""Backend-neutral results: what a group looks like, whoever answered (a dump, the local coordinator,
a cluster). The CLI renders only these, so a group rebuilt from a dump describes exactly like a
live one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum


class GroupState(StrEnum):
    """Kafka's group state names, as its tools print them; a StrEnum so JSON and string compares keep working."""

    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"  # classic
    COMPLETING_REBALANCE = "CompletingRebalance"  # classic
    ASSIGNING = "Assigning"  # consumer (KIP-848)
    RECONCILING = "Reconciling"  # consumer (KIP-848)
    STABLE = "Stable"
    DEAD = "Dead"


class MemberState(IntEnum):
    """A KIP-848 member's reconciliation state, by the id ConsumerGroupCurrentMemberAssignmentValue stores."""

    STABLE = 0
    UNREVOKED_PARTITIONS = 1
    UNRELEASED_PARTITIONS = 2
    UNKNOWN = 127

    @classmethod
    def name_of(cls, value: int) -> str:
        """The state's name for a stored id; UNKNOWN for an id this version does not know (a newer broker's)."""
        try:
            return cls(value).name
        except ValueError:
            return cls.UNKNOWN.name


#: The characters and length of a group.instance.id, matched in full; `is_instance_id` is the whole rule.
INSTANCE_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,249}")


def is_instance_id(text: str) -> bool:
    """Kafka's rule for a group.instance.id (`JoinGroupRequest.validateGroupInstanceId`, its topic-name
    rule): 1 to 249 ASCII letters, digits, '.', '_' and '-', and neither "." nor ".."."""
    return INSTANCE_ID_PATTERN.fullmatch(text) is not None and text not in (".", "..")


# Kafka's state names per group type, in the order its tools list them.
_G = GroupState
CLASSIC_STATES = tuple(s.value for s in (_G.EMPTY, _G.PREPARING_REBALANCE, _G.COMPLETING_REBALANCE, _G.STABLE, _G.DEAD))
CONSUMER_STATES = tuple(s.value for s in (_G.EMPTY, _G.ASSIGNING, _G.RECONCILING, _G.STABLE, _G.DEAD))
SHARE_STATES = tuple(s.value for s in (_G.EMPTY, _G.STABLE, _G.DEAD))


@dataclass(frozen=True, slots=True, order=True)
class TopicPartition:
    """A partition of a topic named by name, or by topic id (base64url) when no name is known."""

    topic: str
    partition: int


def format_assignment(partitions: Iterable[TopicPartition] | None) -> str:
    """Kafka's table form `topicA:0,1,2;topicB:3`: topics sorted, partitions sorted; `-` when empty."""
    if partitions is None:
        return "-"
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    if not by_topic:
        return "-"
    return ";".join(f"{t}:{','.join(str(p) for p in sorted(ps))}" for t, ps in sorted(by_topic.items()))


def empty_group_epochs(group_epoch: int, assignment_epoch: int) -> str:
    """How a consumer group without members stands by its epochs, by Kafka's rules: "equal", "behind"
    or "ahead" (the target assignment epoch against the group epoch).

    Kafka calls a group without members Empty whatever its epochs (`maybeUpdateGroupState` looks at
    the members first), and the next member to join bumps the group epoch past the assignment epoch,
    which computes a new target assignment. So "behind" is harmless: it is what brokers without the
    KAFKA-20442 fix leave when the last member is fenced (the group epoch is bumped, the assignment
    epoch is not), and fixed brokers write the assignment epoch too ("equal"). "Ahead" is what Kafka
    never writes: the target was computed at an epoch the group has not reached, and a member joining
    gets no new assignment until the group epoch passes it. `group describe`/`dump groups` (CONVERGED)
    and the audit (`empty-group-epoch-mismatch`) both judge by this.
    """
    if assignment_epoch == group_epoch:
        return "equal"
    return "behind" if assignment_epoch < group_epoch else "ahead"


@dataclass(slots=True)
class GroupListing:
    """One row of `group list`: ListGroups v5's fields plus what is known beyond them.

    `members` is the member count and `mixed` whether a consumer group holds classic-protocol members
    (`GroupDescription.mixed`); ListGroups carries neither, so both stay None where nobody looked.
    """

    group_id: str
    type: str  # classic, consumer, share, streams (wire names, lower case)
    state: str
    protocol_type: str = ""
    members: int | None = None
    mixed: bool | None = None


@dataclass(slots=True)
class Member:
    """One group member. Classic members have no member epoch; consumer-group members may speak the
    classic protocol inside a consumer group (`protocol == "classic"`, Kafka's "upgraded" false)."""

    member_id: str
    instance_id: str | None
    client_id: str
    host: str
    protocol: str  # "classic", "consumer" or "share": the protocol this member speaks
    member_epoch: int | None = None
    previous_member_epoch: int | None = None
    member_state: str | None = None  # consumer groups: STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS
    assignment: list[TopicPartition] = field(default_factory=list)
    target_assignment: list[TopicPartition] | None = None
    pending_revocation: list[TopicPartition] = field(default_factory=list)
    subscribed_topics: list[str] = field(default_factory=list)
    subscribed_regex: str | None = None
    rack: str | None = None
    server_assignor: str | None = None
    rebalance_timeout_ms: int | None = None
    session_timeout_ms: int | None = None

    @property
    def converged(self) -> bool:
        """Owns exactly its target, with nothing pending revocation (always true for classic members)."""
        if self.target_assignment is None:
            return not self.pending_revocation
        return not self.pending_revocation and sorted(self.assignment) == sorted(self.target_assignment)


@dataclass(slots=True)
class CommittedOffset:
    """A committed offset of the group, with the log end offset and lag where the source knows them."""

    topic: str
    partition: int
    offset: int
    metadata: str = ""
    leader_epoch: int | None = None
    commit_timestamp: int | None = None
    expire_timestamp: int | None = None
    log_end_offset: int | None = None

    @property
    def lag(self) -> int | None:
        """Log end minus the committed offset, as kafka-consumer-groups.sh computes it: negative for an
        offset committed past the log end (a reset too far, a truncated log), where clamping would hide it."""
        if self.log_end_offset is None or self.offset < 0:
            return None
        return self.log_end_offset - self.offset


@dataclass(slots=True)
class UncommittedPartition:
    """A partition a member is assigned with no committed offset yet: `describe` still shows its log
    end offset, as kafka-consumer-groups.sh does (its lag is unknown until a commit)."""

    topic: str
    partition: int
    log_end_offset: int | None = None


#: A share-partition's in-flight record states as `__share_group_state` stores them (Kafka's RecordState ids).
SHARE_DELIVERY_STATES = {0: "Available", 1: "Acquired", 2: "Acknowledged", 4: "Archived"}


@dataclass(frozen=True, slots=True)
class ShareStateBatch:
    """A range of a share-partition's records past its start offset with one delivery state and count:
    records Acquired or Available again after several deliveries are the ones stuck in redelivery."""

    first_offset: int
    last_offset: int
    delivery_state: str  # SHARE_DELIVERY_STATES' names; "Unknown(N)" for an id this version does not know
    delivery_count: int


@dataclass(slots=True)
class ShareOffset:
    """A share group's position on one partition: its start offset (None until the share-partition is
    initialised, shown `-` as kafka-share-groups.sh does), and the lag where the broker reports it
    (DescribeShareGroupOffsets v1, Kafka 4.2+). A dump adds the state epoch and the in-flight batches."""

    topic: str
    partition: int
    start_offset: int | None
    leader_epoch: int | None = None
    lag: int | None = None
    state_epoch: int | None = None
    batches: list[ShareStateBatch] = field(default_factory=list)


@dataclass(slots=True)
class GroupDescription:
    """A group as `group describe` shows it.

    `group_epoch` is the consumer group's epoch or the classic group's generation;
    `assignment_epoch` the consumer group's target-assignment epoch (None for classic groups).
    `coordinator` names who answered: `host:port (id)` live; for a dump, the `__consumer_offsets-N`
    its records were read from, and `hashed_coordinator` the one its id hashes to (where the broker
    looks for it; None live).
    """

    group_id: str
    type: str  # "classic", "consumer" or "share" (wire names, lower case)
    state: str
    protocol_type: str | None = None  # classic: "consumer", "connect", "" for simple groups ...
    assignor: str | None = None
    group_epoch: int | None = None
    assignment_epoch: int | None = None
    coordinator: str | None = None
    hashed_coordinator: str | None = None
    leader: str | None = None
    state_timestamp: int | None = None
    members: list[Member] = field(default_factory=list)
    offsets: list[CommittedOffset] = field(default_factory=list)
    #: Filled by live backends: assigned partitions without a committed offset, with their log end.
    uncommitted: list[UncommittedPartition] = field(default_factory=list)
    #: Share groups: each share-partition's start offset; a share group commits no offsets.
    share_offsets: list[ShareOffset] = field(default_factory=list)
    #: Set instead of the rest when the group could not be described by its type's API (a type this
    #: groupctl or this broker cannot describe): one row saying why, so `describe --all` goes on.
    unsupported: str | None = None

    @property
    def converged(self) -> bool:
        """Stable, and every member owns exactly its target assignment; Empty, with epochs a member
        joining can start from (`empty_group_epochs`)."""
        if self.state not in ("Stable", "Empty"):
            return False
        if (self.state == "Empty" and self.group_epoch is not None and self.assignment_epoch is not None
                and empty_group_epochs(self.group_epoch, self.assignment_epoch) == "ahead"):
            return False
        return all(m.converged for m in self.members)

    # -- online migration (KIP-848): classic-protocol members inside a consumer group ---------------

    @property
    def classic_members(self) -> int:
        """Members speaking the classic protocol (JoinGroup/SyncGroup): every member of a classic group."""
        return sum(m.protocol == "classic" for m in self.members)

    @property
    def consumer_members(self) -> int:
        """Members speaking the consumer protocol (ConsumerGroupHeartbeat)."""
        return sum(m.protocol == "consumer" for m in self.members)

    @property
    def mixed(self) -> bool:
        """A consumer group holding at least one classic-protocol member: Kafka is migrating it."""
        return self.type == "consumer" and self.classic_members > 0

    @property
    def migration(self) -> str | None:
        """Which way a mixed group is going, by who is left in it.

        `upgrading`: a consumer group with both classic- and consumer-protocol members (the classic
        ones have yet to restart with group.protocol=consumer). `downgrading`: a consumer group whose
        members all speak classic (the last consumer-protocol member left, yet the group is still a
        consumer group). None otherwise: a classic group, or a consumer group without classic members.
        """
        if not self.mixed:
            return None
        return "upgrading" if self.consumer_members else "downgrading"

    def upgraded(self, member: Member) -> bool | None:
        """Kafka's UPGRADED for a member: in a consumer group, whether it speaks the consumer protocol
        (false for a classic member inside it); None in a classic group, where Kafka has no such column."""
        if self.type != "consumer":
            return None
        return member.protocol == "consumer"


#: Kafka's config sources, as its admin client and tools name them (a group's own override is
#: GROUP_CONFIG, id 8, on the wire; `kafka-configs.sh` prints it as DYNAMIC_GROUP_CONFIG).
SOURCE_GROUP = "DYNAMIC_GROUP_CONFIG"
SOURCE_STATIC_BROKER = "STATIC_BROKER_CONFIG"
SOURCE_DEFAULT = "DEFAULT_CONFIG"


@dataclass(slots=True)
class ConfigEntry:
    """One group config as `group config get` shows it: the value in force, where it comes from,
    and the broker bounds it must stay within."""

    name: str
    value: int | bool | str | None
    default: int | bool | str | None
    source: str  # SOURCE_GROUP (an override), SOURCE_STATIC_BROKER, SOURCE_DEFAULT
    minimum: int | None = None
    maximum: int | None = None
    minimum_name: str | None = None
    maximum_name: str | None = None


@dataclass(slots=True)
class RemovalResult:
    """What happened to one member named in `group remove-members`."""

    group_id: str
    instance_id: str | None
    member_id: str | None  # the member removed (or the one named, when nothing was removed)
    outcome: str  # "removed", or the Kafka error name (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID ...)
    message: str | None = None
    partitions: list[TopicPartition] = field(default_factory=list)

    @property
    def removed(self) -> bool:
        return self.outcome == "removed"


@dataclass(slots=True)
class Finding:
    """One thing an audit found: how bad, about which group, where, and what it means."""

    severity: str  # "error", "warning" or "info"
    rule: str  # a stable kebab-case id, e.g. "hanging-transaction"
    group: str | None
    explanation: str  # one line
    evidence: dict = field(default_factory=dict)  # offsets, positions, producer ids ... as plain values


def described_partitions(desc: GroupDescription) -> list[TopicPartition]:
    """Every partition `describe --offsets` shows: the committed ones, and those assigned to members."""
    shown = {TopicPartition(o.topic, o.partition) for o in desc.offsets}
    shown.update(tp for m in desc.members for tp in m.assignment)
    return sorted(shown)


def attach_log_ends(desc: GroupDescription, ends: dict[TopicPartition, int]) -> None:
    """Fill in the log end offsets a backend looked up for `described_partitions(desc)`: on each
    committed offset, and as `uncommitted` entries for assigned partitions without a commit."""
    committed = set()
    for offset in desc.offsets:
        tp = TopicPartition(offset.topic, offset.partition)
        committed.add(tp)
        offset.log_end_offset = ends.get(tp)
    assigned = sorted({tp for m in desc.members for tp in m.assignment} - committed)
    desc.uncommitted = [UncommittedPartition(tp.topic, tp.partition, ends.get(tp)) for tp in assigned]


@dataclass(slots=True)
class OffsetReset:
    """One partition of `group offsets reset`: where the group is, where it goes, and what happened.

    `outcome` is "would-reset" in a plan, "reset" once committed, or the Kafka error name (or a
    groupctl reason such as NO_CURRENT_OFFSET) for a partition that was not changed. `note` says
    when the new offset was clamped into [log start, log end], as Kafka's tool clamps it.
    """

    group_id: str
    topic: str
    partition: int
    current_offset: int | None
    new_offset: int | None
    log_start: int | None
    log_end: int | None
    outcome: str
    note: str | None = None

    @property
    def lag_before(self) -> int | None:
        if self.current_offset is None or self.log_end is None:
            return None
        return max(self.log_end - self.current_offset, 0)

    @property
    def lag_after(self) -> int | None:
        if self.new_offset is None or self.log_end is None:
            return None
        return max(self.log_end - self.new_offset, 0)

    @property
    def failed(self) -> bool:
        return self.outcome not in ("would-reset", "reset")


#: The outcome of an item that was (or, in a plan, would be) deleted; anything else is a Kafka error name.
DELETED = "deleted"
WOULD_DELETE = "would-delete"
#: Kafka's message for UNKNOWN_TOPIC_OR_PARTITION, which OffsetDelete answers for a partition the cluster lacks.
UNKNOWN_PARTITION = "This server does not host this topic-partition."
#: Kafka's message for GROUP_SUBSCRIBED_TO_TOPIC (`Errors.java`).
SUBSCRIBED_MESSAGE = "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."
#: The words OffsetDelete's per-partition error codes carry, for backends whose wire answer has none.
OFFSET_DELETE_MESSAGES = {
    "GROUP_SUBSCRIBED_TO_TOPIC": SUBSCRIBED_MESSAGE,
    "UNKNOWN_TOPIC_OR_PARTITION": UNKNOWN_PARTITION,
}


@dataclass(slots=True)
class GroupDeletion:
    """What happened (or would happen) to one group named in `group delete`.

    `members` names who is still in a group that could not go (NON_EMPTY_GROUP), so the operator
    knows which processes to stop first.
    """

    group_id: str
    outcome: str  # "deleted", "would-delete", or the Kafka error name (NON_EMPTY_GROUP, GROUP_ID_NOT_FOUND ...)
    message: str | None = None
    members: list[str] = field(default_factory=list)

    @property
    def deleted(self) -> bool:
        return self.outcome == DELETED


@dataclass(slots=True)
class OffsetDeletion:
    """What happened (or would happen) to one partition's committed offset in `group offsets delete`."""

    group_id: str
    topic: str
    partition: int
    outcome: str  # "deleted", "would-delete", or the Kafka error name (GROUP_SUBSCRIBED_TO_TOPIC ...)
    message: str | None = None
    offset: int | None = None  # the committed offset it held before, when known

    @property
    def deleted(self) -> bool:
        return self.outcome == DELETED
