"""Replay: `__consumer_offsets` records folded into group state the way Kafka's loader does.

The rules follow the broker's own replay methods (`OffsetMetadataManager.replay` and
`replayEndTransactionMarker`, `GroupMetadataManager.replay`, `ConsumerGroup`, `ClassicGroup`), so
a group rebuilt from a dump is the group the broker would load from it:

* offsets (types 0, 1): a batch without a producer id commits at once; a producer's records wait
  in `pending` until its COMMIT marker (each one kept only if written after the offset it would
  replace: the newer record wins) or ABORT marker (dropped). A tombstone removes the committed
  offset and every producer's pending offset for that partition, whichever batch carries it.
* classic groups (type 2): the latest GroupMetadataValue replaces the group; a tombstone removes
  it. Like the broker, a type-2 record replaces (value) or removes (tombstone) a consumer group of
  the same id, and the first KIP-848 record of a group replaces a classic one.
* consumer groups (types 3-8, 16): created by the first value record of any of these types;
  tombstones of a group that does not exist are ignored; a type-3 tombstone removes the group.
* share groups (types 10-15, `groupctl.log.share_groups`): the same way, a type-11 tombstone
  removing the group. Kafka keeps one group per id and refuses a share record for a group of another
  type (and a consumer record for a share group); such records are counted in `skipped_types`.
* a committed offset with no group creates an empty "simple" classic group, as on the broker.

Offset commits are kept as the decoded values (`OffsetEntry` reads their dicts on demand), so the
hot path is a few dict operations per record. Group records (types 2-8, 16) become the generated
record classes (`groupctl.protocol.data.records`, `Cls.from_dict` of the decoded dict, as
`Data.reader` builds it): one type per record from the log to the state, read by attribute.
This module only folds: reading the state as model objects (`GroupDescription`) is
`groupctl.describe`'s job.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from groupctl.log.decode import DecodedRecord
from groupctl.log.share_groups import SHARE_GROUP_TYPES, ShareGroupState
from groupctl.model import GroupState, MemberState
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE
from groupctl.protocol.data.records import (
    ConsumerGroupCurrentMemberAssignmentValue,
    ConsumerGroupMemberMetadataValue,
    ConsumerGroupMetadataValue,
    ConsumerGroupPartitionMetadataValue,
    ConsumerGroupRegularExpressionValue,
    ConsumerGroupTargetAssignmentMemberValue,
    ConsumerGroupTargetAssignmentMetadataValue,
    GroupMetadataValue,
    MemberMetadata,
)
from groupctl.protocol.member_bytes import decode_member_bytes

__all__ = [
    "DEFAULT_ASSIGNOR",
    "SKIPPED_TYPES",
    "ClassicGroupState",
    "ConsumerGroupState",
    "OffsetEntry",
    "Replay",
    "ShareGroupState",
    "StoredClassicMember",
]

NO_PRODUCER_ID = -1
#: The epoch a member gets when its current assignment is tombstoned (ConsumerGroupHeartbeatRequest).
LEAVE_GROUP_MEMBER_EPOCH = -1
#: `modern/MemberState.java`; other values print as UNKNOWN.
#: The first of `group.consumer.assignors` (default `uniform, range`): used when no member names one.
DEFAULT_ASSIGNOR = "uniform"
#: 4.0's share partition metadata (9) and streams (17-24) records: known to the decoder, not modelled here.
SKIPPED_TYPES = frozenset({9}) | frozenset(range(17, 25))
_SHARE_GROUP_METADATA = 11
_UNKNOWN_PREFIX = "Unknown record type "
_new_entry = tuple.__new__  # an OffsetEntry without NamedTuple's keyword-handling __new__ (hot path)
#: Each group record value class's compiled reader (`Data.reader`: `from_dict` as one function).
_READ: dict[type, Callable[[dict], Any]] = {cls: cls.reader() for cls in (
    GroupMetadataValue, ConsumerGroupMetadataValue, ConsumerGroupPartitionMetadataValue,
    ConsumerGroupMemberMetadataValue, ConsumerGroupTargetAssignmentMetadataValue,
    ConsumerGroupTargetAssignmentMemberValue, ConsumerGroupCurrentMemberAssignmentValue,
    ConsumerGroupRegularExpressionValue,
)}


class OffsetEntry(NamedTuple):
    """One committed or pending offset, with where it came from (the newer-record-wins rule needs it).

    It keeps the decoded value itself and reads its fields on demand, so replaying an offset commit
    (most records of any dump) costs one small tuple. OffsetAndMetadata.fromRecord's rules apply:
    an expire timestamp of -1 and the zero topic id mean none; the leader epoch stays as recorded.
    """

    value: Any  # RecordValue of type 0/1
    log_offset: int  # offset of the record that wrote it
    producer_id: int  # -1 for a non-transactional commit

    @property
    def offset(self) -> int:
        return self.value.data["offset"]

    @property
    def leader_epoch(self) -> int:
        return self.value.data.get("leaderEpoch", -1)

    @property
    def metadata(self) -> str:
        return self.value.data["metadata"]

    @property
    def commit_timestamp(self) -> int:
        return self.value.data["commitTimestamp"]

    @property
    def expire_timestamp(self) -> int | None:
        expire = self.value.data.get("expireTimestamp", -1)
        return None if expire == -1 else expire

    @property
    def topic_id(self) -> uuid.UUID | None:
        topic_id = self.value.data.get("topicId")
        return topic_id if topic_id is not None and topic_id.int else None


@dataclass(slots=True, frozen=True)
class StoredClassicMember:
    """A GroupMetadataValue member with its consumer-protocol bytes decoded.

    `subscription` and `assignment` are the decoded ConsumerProtocolSubscription / Assignment (dicts),
    None when the group does not use the consumer protocol or the bytes do not decode (Kafka then
    leaves them undecoded too).
    """

    metadata: MemberMetadata
    subscription: dict | None
    assignment: dict | None


@dataclass(slots=True, eq=False)
class ClassicGroupState:
    """A classic group as its latest GroupMetadataValue (type 2) leaves it.

    `raw_members` are the value's members as recorded. `members` are the same members with their
    consumer-protocol bytes decoded, on first use: most values are replaced by a newer one before
    anyone looks, and decoding costs far more than replaying.
    """

    protocol_type: str
    generation: int
    protocol: str | None
    leader: str | None
    current_state_timestamp: int
    raw_members: list[MemberMetadata]
    log_offset: int
    _members: list[StoredClassicMember] | None = field(default=None, repr=False)

    @property
    def members(self) -> list[StoredClassicMember]:
        """The members with their consumer-protocol bytes decoded (once, on first use)."""
        if self._members is None:
            consumer = self.protocol_type == PROTOCOL_TYPE
            self._members = [StoredClassicMember(m, *decode_member_bytes(m.subscription, m.assignment, consumer))
                             for m in self.raw_members]
        return self._members

    def _key(self) -> tuple:
        return (self.protocol_type, self.generation, self.protocol, self.leader, self.current_state_timestamp,
                self.raw_members, self.log_offset)

    def __eq__(self, other: object) -> bool:
        # `members` is a function of the other fields: whether it was decoded yet does not matter.
        if not isinstance(other, ClassicGroupState):
            return NotImplemented
        return self._key() == other._key()

    # Defining __eq__ leaves __hash__ None: a state that changes is not hashable.


@dataclass(slots=True)
class ConsumerGroupState:
    """A KIP-848 group as records 3-8 and 16 leave it: several records, so a class of its own, holding
    each record's value as its generated class.

    Kafka's member set is the union of `members` (type 5) and `current` (type 8): either record
    creates the member. A current-assignment tombstone leaves the member at epoch -1 with nothing
    assigned (as Kafka does), a member-metadata tombstone removes it.
    """

    has_metadata: bool = False  # a type-3 record was seen (False: an orphan made of member records)
    epoch: int = 0  # group epoch (Kafka's TimelineInteger starts at 0)
    assignment_epoch: int = 0  # target assignment epoch: 0 until type 6, -1 after its tombstone
    members: dict[str, ConsumerGroupMemberMetadataValue] = field(default_factory=dict)  # memberId -> type 5
    targets: dict[str, ConsumerGroupTargetAssignmentMemberValue] = field(default_factory=dict)  # memberId -> type 7
    current: dict[str, ConsumerGroupCurrentMemberAssignmentValue] = field(default_factory=dict)  # memberId -> type 8
    regexes: dict[str, ConsumerGroupRegularExpressionValue] = field(default_factory=dict)  # regex -> type 16
    partition_metadata: ConsumerGroupPartitionMetadataValue | None = None  # type 4 (deprecated in 4.1, replayed)
    metadata_hash: int = 0  # type-3 MetadataHash (4.1+): what the subscribed topics looked like

    def targets_map(self, member_id: str) -> dict[uuid.UUID, frozenset[int]]:
        """A member's target assignment as {topic id: partitions} (empty when it has none)."""
        target = self.targets.get(member_id)
        if target is None:
            return {}
        out: dict[uuid.UUID, frozenset[int]] = {}
        for tps in target.topic_partitions:
            if tps.partitions:
                out[tps.topic_id] = out.get(tps.topic_id, frozenset()) | frozenset(tps.partitions)
        return out

    def member_ids(self) -> list[str]:
        """Every member Kafka would list, sorted."""
        return sorted(self.members.keys() | self.current.keys())

    def state(self) -> str:
        """Kafka's `ConsumerGroup.maybeUpdateGroupState`, evaluated on the current records."""
        ids = self.members.keys() | self.current.keys()
        if not ids:
            return GroupState.EMPTY
        if self.epoch > self.assignment_epoch:
            return GroupState.ASSIGNING
        target = self.assignment_epoch
        for mid in ids:
            cur = self.current.get(mid)
            # A member without a type-8 record has Kafka's builder defaults: epoch 0, STABLE.
            epoch, state = (cur.member_epoch, cur.state) if cur is not None else (0, MemberState.STABLE)
            if state != MemberState.STABLE or epoch != target:
                return GroupState.RECONCILING
        return GroupState.STABLE

    def preferred_assignor(self) -> str:
        """The server assignor most members ask for (ties: the first by name), else Kafka's default."""
        return preferred_assignor(self.members.values())

def preferred_assignor(
    members: Iterable[ConsumerGroupMemberMetadataValue], default: str = DEFAULT_ASSIGNOR
) -> str:
    """The ServerAssignor most of these type-5 member values name (ties: the first by name), else `default`."""
    counts: dict[str, int] = {}
    for meta in members:
        name = meta.server_assignor
        if name is not None:
            counts[name] = counts.get(name, 0) + 1
    if not counts:
        return default
    return min(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]


def _unknown_type(error: str | None) -> int:
    """The record type an "Unknown record type N at offset ..." error names, else -1."""
    if error and error.startswith(_UNKNOWN_PREFIX):
        number = error[len(_UNKNOWN_PREFIX):].split(" ", 1)[0]
        try:
            return int(number)
        except ValueError:
            return -1
    return -1


def _entry(value: Any, log_offset: int, producer_id: int) -> OffsetEntry:
    return _new_entry(OffsetEntry, (value, log_offset, producer_id))

class Replay:
    """Group state folded from records, one at a time, in log order.

    Feed it every record of one `__consumer_offsets` partition (or of several partitions of the
    same cluster: a group lives in exactly one) in order; replaying N records then M more gives
    the same state as replaying the N+M at once.
    """

    #: The attributes the compiled audit (`_fastlog.c`, bound by `Auditor._compiled`) reads and writes on a
    #: replay by name, in the order it binds them: renaming one means changing it here, and
    #: tests/log/test_audit.py checks each exists on an instance.
    COMPILED_CONTRACT: ClassVar[tuple[str, ...]] = ("offsets", "_simple", "records", "first_timestamp",
                                                    "last_timestamp")

    def __init__(self) -> None:
        self.offsets: dict[str, dict[tuple[str, int], OffsetEntry]] = {}
        self.pending: dict[int, dict[tuple[str, str, int], OffsetEntry]] = {}
        self.classic: dict[str, ClassicGroupState] = {}
        self.consumer: dict[str, ConsumerGroupState] = {}
        self.share: dict[str, ShareGroupState] = {}
        self.unknown_types: dict[int, int] = {}  # type (-1: key unreadable) -> records skipped
        self.skipped_types: dict[int, int] = {}  # type 9/streams type -> records skipped (and refused share ones)
        self.undecodable_values = 0  # records whose key decoded but whose value did not: not applied
        self.records = 0  # every record given to apply (control and skipped ones included)
        self.first_timestamp: int | None = None  # first / last record timestamp seen (-1 ignored)
        self.last_timestamp: int | None = None
        # Topic id -> name from every ConsumerGroupPartitionMetadata value replayed, kept when the group
        # later drops the topic or is deleted: KIP-848 records name topics by id, and these are the
        # dump's own names for them (`dump_topic_names` adds the offset commits' ids).
        self.topic_names: dict[uuid.UUID, str] = {}
        # Groups with an offset commit record since the group was last removed: when no classic or
        # consumer group holds the id, the broker has the empty "simple" group the commit created.
        self._simple: set[str] = set()
        self._handlers: dict[int, Callable[[dict, Any, int], None]] = {
            2: self._group_metadata,
            3: self._consumer_metadata,
            4: self._partition_metadata,
            5: self._member_metadata,
            6: self._target_epoch,
            7: self._target_member,
            8: self._current_member,
            16: self._regex,
        }

    def __eq__(self, other: object) -> bool:
        # Two replays are equal when they hold the same state: what incremental replays are checked by.
        if not isinstance(other, Replay):
            return NotImplemented
        return self._comparable() == other._comparable()

    # Defining __eq__ leaves __hash__ None: a state that changes is not hashable.

    def _comparable(self) -> tuple:
        return (self.offsets, self.pending, self.classic, self.consumer, self.share, self.unknown_types,
                self.skipped_types,
                self.undecodable_values, self.records, self.first_timestamp, self.last_timestamp, self._simple,
                self.topic_names)

    # -- applying records ---------------------------------------------------------------------

    def apply(self, rec: DecodedRecord) -> None:
        """Fold one record into the state (Kafka's CoordinatorLoader: data record or marker)."""
        batch, record, key, value, error, control, _ = rec
        self.records += 1
        ts = record.timestamp
        if ts >= 0:
            if self.first_timestamp is None:
                self.first_timestamp = ts
            self.last_timestamp = ts
        # The hot path, inline: a non-transactional offset commit, most records of any dump.
        # A value implies a decoded key.
        if value is not None and key.type <= 1 and batch.producer_id == NO_PRODUCER_ID:
            kd = key.data
            group = kd["group"]
            committed = self.offsets.get(group)
            if committed is None:
                committed = self.offsets[group] = {}
                self._simple.add(group)
            committed[(kd["topic"], kd["partition"])] = _new_entry(OffsetEntry, (value, record.offset, NO_PRODUCER_ID))
            return
        self._dispatch(batch, record, key, value, error, control)

    def apply_all(self, records: Iterable[DecodedRecord]) -> None:
        """`apply` each record in order."""
        apply = self.apply
        for rec in records:
            apply(rec)

    def absorb(self, other: Replay) -> None:
        """Take over the state of a replay of later records that name other groups and producers.

        The result is what replaying this replay's records and then `other`'s gives, so partitions
        can be replayed apart (in parallel) and joined. Keyed state moves over as is (the caller
        makes sure no group or producer id is in both), counters add up, and the first and last
        timestamps are those of the first and last record across both, in that order. `other` is
        not to be used afterwards.
        """
        self.offsets.update(other.offsets)
        self.pending.update(other.pending)
        self.classic.update(other.classic)
        self.consumer.update(other.consumer)
        self.share.update(other.share)
        for t, n in other.unknown_types.items():
            self.unknown_types[t] = self.unknown_types.get(t, 0) + n
        for t, n in other.skipped_types.items():
            self.skipped_types[t] = self.skipped_types.get(t, 0) + n
        self.undecodable_values += other.undecodable_values
        self.records += other.records
        if self.first_timestamp is None:
            self.first_timestamp = other.first_timestamp
        if other.last_timestamp is not None:
            self.last_timestamp = other.last_timestamp
        self._simple |= other._simple
        self.topic_names.update(other.topic_names)

    def _dispatch(self, batch: Any, record: Any, key: Any, value: Any, error: str | None, control: Any) -> None:
        """Every record but a plain offset commit: markers, tombstones, group records, the unreadable."""
        if key is None:
            if control is not None or batch.is_control:
                if control.__class__ is tuple:
                    self._end_transaction(batch.producer_id, control[0] == "COMMIT")
                return
            t = _unknown_type(error)
            self.unknown_types[t] = self.unknown_types.get(t, 0) + 1
            return
        if error is not None:
            self.undecodable_values += 1
            return
        t = key.type
        if t <= 1:
            self._offset_commit(key.data, value, record.offset, batch.producer_id)
            return
        handler = self._handlers.get(t)
        if handler is not None:
            if t != 2 and self.share and key.data["groupId"] in self.share:  # "Group G is not a consumer group."
                self.skipped_types[t] = self.skipped_types.get(t, 0) + 1
            else:
                handler(key.data, value, record.offset)
        elif t in SHARE_GROUP_TYPES:
            self._share_record(t, key.data, value)
        elif t in SKIPPED_TYPES:
            self.skipped_types[t] = self.skipped_types.get(t, 0) + 1
        else:
            self.unknown_types[t] = self.unknown_types.get(t, 0) + 1

    def _offset_commit(self, kd: dict, value: Any, log_offset: int, producer_id: int) -> None:
        """OffsetMetadataManager.replay: commit, transactional (pending) commit, or tombstone."""
        group = kd["group"]
        if value is None:
            tp = (kd["topic"], kd["partition"])
            committed = self.offsets.get(group)
            if committed is not None and committed.pop(tp, None) is not None and not committed:
                del self.offsets[group]
            if self.pending:
                pkey = (group, tp[0], tp[1])
                for producer_entries in self.pending.values():
                    producer_entries.pop(pkey, None)
            return
        self._simple.add(group)
        entry = _entry(value, log_offset, producer_id)
        if producer_id == NO_PRODUCER_ID:
            committed = self.offsets.get(group)
            if committed is None:
                committed = self.offsets[group] = {}
            committed[(kd["topic"], kd["partition"])] = entry
        else:
            entries = self.pending.get(producer_id)
            if entries is None:
                entries = self.pending[producer_id] = {}
            entries[(group, kd["topic"], kd["partition"])] = entry

    def _end_transaction(self, producer_id: int, commit: bool) -> None:
        entries = self.pending.pop(producer_id, None)
        if not entries or not commit:
            return
        offsets = self.offsets
        for (group, topic, partition), entry in entries.items():
            committed = offsets.get(group)
            if committed is None:
                committed = offsets[group] = {}
            tp = (topic, partition)
            existing = committed.get(tp)
            if existing is None or entry.log_offset > existing.log_offset:
                committed[tp] = entry

    def _share_record(self, record_type: int, kd: dict, value: Any) -> None:
        """GroupMetadataManager's replay of share-group records (see `groupctl.log.share_groups`)."""
        group = kd["groupId"]
        state = self.share.get(group)
        if state is None:
            if value is None:
                return
            if group in self.consumer or group in self.classic:  # "Group G is not a share group."
                self.skipped_types[record_type] = self.skipped_types.get(record_type, 0) + 1
                return
            state = self.share[group] = ShareGroupState()
            self._simple.discard(group)
        if record_type == _SHARE_GROUP_METADATA:
            if value is None:
                del self.share[group]
            else:
                state.set_metadata(value)
            return
        state.apply(record_type, kd, value)
        if record_type == 15 and value is not None:
            self.topic_names.update(state.topic_names())

    def _group_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group = kd["group"]
        # The broker keeps one group per id: this record replaces (or removes) whatever was there.
        self._simple.discard(group)
        self.consumer.pop(group, None)
        self.share.pop(group, None)
        if value is None:
            self.classic.pop(group, None)
            return
        v: GroupMetadataValue = _READ[GroupMetadataValue](value.data)
        self.classic[group] = ClassicGroupState(
            v.protocol_type, v.generation, v.protocol, v.leader, v.current_state_timestamp, v.members, log_offset,
        )

    def _consumer_group(self, group: str) -> ConsumerGroupState:
        """The group a KIP-848 value record updates, created on first sight (replacing a classic one)."""
        state = self.consumer.get(group)
        if state is None:
            state = self.consumer[group] = ConsumerGroupState()
            self.classic.pop(group, None)
            self._simple.discard(group)
        return state

    def _consumer_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group = kd["groupId"]
        if value is None:
            if self.consumer.pop(group, None) is not None:
                self._simple.discard(group)
            return
        metadata: ConsumerGroupMetadataValue = _READ[ConsumerGroupMetadataValue](value.data)
        state = self._consumer_group(group)
        state.epoch = metadata.epoch
        state.metadata_hash = metadata.metadata_hash
        state.has_metadata = True

    def _partition_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group = kd["groupId"]
        if value is not None:
            metadata: ConsumerGroupPartitionMetadataValue = _READ[ConsumerGroupPartitionMetadataValue](value.data)
            self._consumer_group(group).partition_metadata = metadata
            for topic in metadata.topics:
                self.topic_names[topic.topic_id] = topic.topic_name
        elif (state := self.consumer.get(group)) is not None:
            state.partition_metadata = None

    def _member_metadata(self, kd: dict, value: Any, log_offset: int) -> None:
        group, member = kd["groupId"], kd["memberId"]
        if value is not None:
            self._consumer_group(group).members[member] = _READ[ConsumerGroupMemberMetadataValue](value.data)
        elif (state := self.consumer.get(group)) is not None:
            state.members.pop(member, None)
            state.current.pop(member, None)

    def _target_epoch(self, kd: dict, value: Any, log_offset: int) -> None:
        group = kd["groupId"]
        if value is not None:
            target: ConsumerGroupTargetAssignmentMetadataValue = (
                _READ[ConsumerGroupTargetAssignmentMetadataValue](value.data))
            self._consumer_group(group).assignment_epoch = target.assignment_epoch
        elif (state := self.consumer.get(group)) is not None:
            state.assignment_epoch = -1

    def _target_member(self, kd: dict, value: Any, log_offset: int) -> None:
        group, member = kd["groupId"], kd["memberId"]
        if value is not None:
            self._consumer_group(group).targets[member] = _READ[ConsumerGroupTargetAssignmentMemberValue](value.data)
        elif (state := self.consumer.get(group)) is not None:
            state.targets.pop(member, None)

    def _current_member(self, kd: dict, value: Any, log_offset: int) -> None:
        group, member = kd["groupId"], kd["memberId"]
        if value is not None:
            current: ConsumerGroupCurrentMemberAssignmentValue = (
                _READ[ConsumerGroupCurrentMemberAssignmentValue](value.data))
            self._consumer_group(group).current[member] = current
            return
        state = self.consumer.get(group)
        if state is None or (member not in state.members and member not in state.current):
            return
        previous = state.current.get(member)
        state.current[member] = ConsumerGroupCurrentMemberAssignmentValue(
            member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
            previous_member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
            state=MemberState.STABLE if previous is None else previous.state,
        )

    def _regex(self, kd: dict, value: Any, log_offset: int) -> None:
        group = kd["groupId"]
        if value is not None:
            self._consumer_group(group).regexes[kd["regularExpression"]] = (
                _READ[ConsumerGroupRegularExpressionValue](value.data))
        elif (state := self.consumer.get(group)) is not None:
            state.regexes.pop(kd["regularExpression"], None)

    # -- reading the state --------------------------------------------------------------------

    def exists(self, group_id: str) -> bool:
        """Whether the group exists now: classic metadata, a consumer or share group, or offsets."""
        return (group_id in self.classic or group_id in self.consumer or group_id in self.share
                or group_id in self._simple or bool(self.offsets.get(group_id)))

    def group_ids(self) -> list[str]:
        """Every group that exists now (classic metadata, consumer or share group, or offsets), sorted."""
        ids = self.classic.keys() | self.consumer.keys() | self.share.keys() | self._simple
        ids.update(g for g, committed in self.offsets.items() if committed)
        return sorted(ids)

