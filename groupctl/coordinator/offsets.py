"""OffsetCommit and OffsetFetch with the consumer group's member-epoch checks (Kafka 4.x
`OffsetMetadataManager` and `ConsumerGroup.validateOffsetCommit/validateOffsetFetch`).

Offsets change only by replay: a commit returns its OffsetCommit records for the router to append."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from groupctl.coordinator.classic import ClassicGroups
from groupctl.coordinator.consumer import member_assignment
from groupctl.coordinator.consumer.membership import uses_classic
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Result, Runtime
from groupctl.errors import KafkaError
from groupctl.protocol.records import encode_key, encode_value

#: `offset.metadata.max.bytes` default.
MAX_METADATA_BYTES = 4096
#: OffsetCommit v9+: GROUP_ID_NOT_FOUND for a missing group; older versions get ILLEGAL_GENERATION.
GROUP_ID_NOT_FOUND_VERSION = 9


@dataclass(slots=True)
class CommitPartition:
    topic: str
    partition: int
    offset: int
    leader_epoch: int = -1
    metadata: str = ""
    error_code: int = 0


@dataclass(slots=True)
class FetchedOffset:
    topic: str
    partition: int
    offset: int = -1
    leader_epoch: int = -1
    metadata: str = ""
    error_code: int = 0


def _stale(received: int, expected: int) -> KafkaError:
    return KafkaError(
        "STALE_MEMBER_EPOCH",
        f"The received member epoch {received} does not match the expected member epoch {expected}.",
    )


class Offsets:
    """OffsetCommit/OffsetFetch over the runtime; classic groups validate commits through `classic`."""

    def __init__(self, runtime: Runtime, classic: ClassicGroups) -> None:
        self.rt = runtime
        self.classic = classic

    def _validate_consumer(self, group_id: str, member_id: str | None, epoch: int, version: int, commit: bool) -> None:
        group = self.rt.state.consumer[group_id]
        if commit:
            if epoch < 0 and not group.member_ids():
                return
        elif member_id is None and epoch < 0:
            return
        if member_id is None or (member_id not in group.members and member_id not in group.current):
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {group_id}.")
        classic = uses_classic(group.members.get(member_id))
        if commit and not classic and version < GROUP_ID_NOT_FOUND_VERSION:
            raise KafkaError(
                "UNSUPPORTED_VERSION", "OffsetCommit version 9 or above must be used by members using the modern "
                "group protocol",
            )
        expected = member_assignment(group.current.get(member_id)).member_epoch
        if epoch != expected:
            if classic:
                raise KafkaError(
                    "ILLEGAL_GENERATION",
                    f"The request generation id {epoch} is not equal to the member epoch {expected} of member "
                    f"{member_id}.",
                )
            raise _stale(epoch, expected)

    def commit(
        self, group_id: str, member_id: str, epoch: int, partitions: list[CommitPartition], *, version: int = 9,
        retention_ms: int = -1, instance_id: str | None = None,
    ) -> Result[list[CommitPartition]]:
        """Commit offsets; errors for the whole request are raised, per-partition ones set on the items."""
        rt = self.rt
        if group_id in rt.state.consumer:
            self._validate_consumer(group_id, member_id, epoch, version, commit=True)
        elif self.classic.exists(group_id):
            self.classic.validate_offset_commit(group_id, member_id, instance_id, epoch)
        elif epoch >= 0:
            if version >= GROUP_ID_NOT_FOUND_VERSION:
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.")
            raise KafkaError("ILLEGAL_GENERATION")
        now = rt.now_ms()
        records = []
        for p in partitions:
            if len(p.metadata.encode("utf-8")) > MAX_METADATA_BYTES:
                p.error_code = KafkaError("OFFSET_METADATA_TOO_LARGE").code
                continue
            topic = rt.topics.get(p.topic)
            records.append(offset_commit(
                group_id, p.topic, p.partition, offset=p.offset, leader_epoch=p.leader_epoch, metadata=p.metadata,
                commit_timestamp=now, expire_timestamp=now + retention_ms if retention_ms >= 0 else None,
                topic_id=topic.topic_id if topic is not None else None, kafka_40=rt.kafka_40_records,
            ))
        return Result(partitions, records)

    def fetch(
        self, group_id: str, topics: list[tuple[str, list[int]]] | None = None, *, member_id: str | None = None,
        epoch: int = -1, require_stable: bool = False,
    ) -> list[FetchedOffset]:
        """Committed offsets of the named partitions (None: all the group has)."""
        state = self.rt.state
        if group_id in state.consumer:
            self._validate_consumer(group_id, member_id, epoch, 9, commit=False)
        committed = state.offsets.get(group_id, {})
        pending = {key[1:] for entries in state.pending.values() for key in entries if key[0] == group_id}
        wanted = sorted(committed) if topics is None else [(t, p) for t, ps in topics for p in ps]
        out = []
        for topic, partition in wanted:
            item = FetchedOffset(topic, partition)
            if require_stable and (topic, partition) in pending:
                item.error_code = KafkaError("UNSTABLE_OFFSET_COMMIT").code
            elif (entry := committed.get((topic, partition))) is not None:
                item.offset, item.leader_epoch, item.metadata = entry.offset, entry.leader_epoch, entry.metadata
            out.append(item)
        return out


def offset_commit(
    group_id: str,
    topic: str,
    partition: int,
    *,
    offset: int,
    leader_epoch: int,
    metadata: str,
    commit_timestamp: int,
    expire_timestamp: int | None = None,
    topic_id: uuid.UUID | None = None,
    kafka_40: bool = False,
) -> Record:
    """OffsetCommitValue: v1 when the commit carries an expire timestamp, else v4 with the topic id
    (Kafka 4.1+), or v3 as Kafka 4.0 writes it."""
    key = encode_key(1, {"group": group_id, "topic": topic, "partition": partition})
    value: dict = {"offset": offset, "leaderEpoch": leader_epoch, "metadata": metadata,
                   "commitTimestamp": commit_timestamp}
    if expire_timestamp is not None:
        value["expireTimestamp"] = expire_timestamp
        return key, encode_value(1, 1, value)
    if kafka_40:
        return key, encode_value(1, 3, value)
    if topic_id is not None:
        value["topicId"] = topic_id
    return key, encode_value(1, 4, value)


def offset_tombstone(group_id: str, topic: str, partition: int) -> Record:
    return encode_key(1, {"group": group_id, "topic": topic, "partition": partition}), None
