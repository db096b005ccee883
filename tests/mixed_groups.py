"""Consumer groups in online migration (classic-protocol members inside a KIP-848 group), built from
their records.

The in-process coordinator cannot yet convert a group by requests, so these groups are written as
Kafka writes them (`groupctl.coordinator.consumer.records`): a classic member is a member whose
ConsumerGroupMemberMetadataValue carries `classicMemberMetadata`. The same records feed a replay, a
coordinator (a local DIR, a served one) and a dump, so every backend describes the same groups.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Result
from groupctl.log.writer import SegmentWriter, SimpleRecord
from groupctl.model import MemberState
from groupctl.protocol.consumer_protocol import encode_subscription
from groupctl.protocol.data.records import ClassicMemberMetadata, ClassicProtocol, ConsumerGroupMemberMetadataValue

TS = 1_767_225_600_000
#: Kafka 4.0's own mixed group in ../shared/kafka-4.0-broker-vectors/live (group oracle-mixed on
#: oc-mixed, 4 partitions): its classic member and its consumer-protocol member, as it named them.
ORACLE_CLASSIC = "mixed-classic-4001f6aa-ab9b-4f45-8d42-78e2b7039166"
ORACLE_CONSUMER = "Leb/xtY9SEy6oMgtV0oQgg"


@dataclass(frozen=True)
class Joined:
    """One member of a group to write: its id, client id, protocol and the partitions it owns."""

    member_id: str
    client_id: str
    classic: bool
    partitions: tuple[int, ...]
    instance_id: str | None = None


def member_value(topic: str, m: Joined) -> ConsumerGroupMemberMetadataValue:
    """A ConsumerGroupMemberMetadataValue; classic members keep their JoinGroup protocols in it."""
    classic = None
    if m.classic:
        subscription = encode_subscription({"topics": [topic], "userData": None}, 0)
        classic = ClassicMemberMetadata(session_timeout_ms=45_000,
                                        supported_protocols=[ClassicProtocol(name="range", metadata=subscription)])
    return ConsumerGroupMemberMetadataValue(
        instance_id=m.instance_id, rack_id=None, client_id=m.client_id, client_host="/127.0.0.1",
        subscribed_topic_names=[topic], subscribed_topic_regex=None, rebalance_timeout_ms=300_000,
        server_assignor=None if m.classic else "uniform", classic_member_metadata=classic,
    )


def group_records(group: str, topic: str, topic_id: uuid.UUID, members: Sequence[Joined], epoch: int) -> list[Record]:
    """A Stable consumer group at `epoch`, every member owning its target, in Kafka's record order."""
    out = [rec.member_metadata(group, m.member_id, member_value(topic, m)) for m in members]
    out.append(rec.group_epoch(group, epoch, 0))
    out += [rec.target_member(group, m.member_id, {topic_id: m.partitions}) for m in members]
    out.append(rec.target_epoch(group, epoch))
    out += [rec.current_assignment(group, m.member_id, member_epoch=epoch, previous_member_epoch=epoch - 1,
                                   state=MemberState.STABLE, assigned={topic_id: m.partitions}, pending_revocation={})
            for m in members]
    return out


def oracle_members() -> list[Joined]:
    """Kafka 4.0's oracle-mixed: one classic member (oc-mixed 0,1), one consumer-protocol member (2,3)."""
    return [Joined(ORACLE_CLASSIC, "mixed-classic", True, (0, 1)), Joined(ORACLE_CONSUMER, "mixed-848", False, (2, 3))]


#: The groups of `write_groups`: name -> (topic, partitions, members, group epoch).
GROUPS: dict[str, tuple[str, int, list[Joined], int]] = {
    "oracle-mixed": ("oc-mixed", 4, oracle_members(), 2),
    "orders-app": ("orders", 6, [
        Joined("orders-0-3a4d", "orders-0", True, (0, 1), "orders-0"),
        Joined("orders-1-7c2e", "orders-1", True, (2, 3), "orders-1"),
        Joined("kXq0rV3mT2a8w1yZp9LbCg", "orders-2", False, (4, 5), "orders-2"),
    ], 4),
    "legacy-app": ("legacy", 3, [
        Joined(f"legacy-{n}-9f1b", f"legacy-{n}", True, (n,)) for n in range(3)
    ], 5),
    "payments-app": ("payments", 4, [
        Joined("pE3s9QwYRZ6m0x4vBnU1Tg", "app-pod-0", False, (0, 1), "pod-0"),
        Joined("Zt7hK2cLQe2xN8oRw5sJdA", "app-pod-1", False, (2, 3), "pod-1"),
    ], 3),
}


def add_groups(coordinator: Coordinator, names: Sequence[str] | None = None) -> None:
    """Write the named groups of GROUPS (all by default) through the coordinator's log, creating their topics."""
    for name in names or list(GROUPS):
        topic, count, members, epoch = GROUPS[name]
        found = coordinator.topics.get(topic)
        topic_id = found.topic_id if found is not None else coordinator.create_topic(topic, count).topic_id
        coordinator.runtime.complete(Result(records=group_records(name, topic, topic_id, members, epoch)))


def write_groups(directory: Path) -> Path:
    """A local DIR holding GROUPS: an upgrading group, a downgrading one, Kafka's oracle-mixed and a
    consumer group that is not migrating; each topic's log end is 20."""
    with LocalBackend(directory, create=True) as backend:
        add_groups(backend.coordinator)
        for topic, count, _, _ in GROUPS.values():
            backend.end_offsets_by_topic[topic] = [20] * count
    return directory


def write_dump(directory: Path, names: Sequence[str] | None = None) -> Path:
    """GROUPS (or the named ones) as a broker's `__consumer_offsets-0`, for `dump groups`; topic ids are
    made up (uuid5 of the topic name)."""
    records: list[Record] = []
    for name in names or list(GROUPS):
        topic, _, members, epoch = GROUPS[name]
        records += group_records(name, topic, uuid.uuid5(uuid.NAMESPACE_URL, topic), members, epoch)
    with SegmentWriter(directory / "__consumer_offsets-0") as writer:
        writer.append([SimpleRecord(key, value, TS) for key, value in records])
    return directory
