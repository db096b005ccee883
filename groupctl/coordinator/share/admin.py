"""The share groups' admin requests: ShareGroupDescribe, Describe/Alter/DeleteShareGroupOffsets and the
share side of DeleteGroups, with Kafka 4.1's refusals.

A share-partition's start offset belongs to the share coordinator (`__share_group_state` on a broker), not
to `__consumer_offsets`: it is the runtime's `ShareStarts` here. Which share-partitions exist is still the
type-15 record's business.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Result, Runtime
from groupctl.coordinator.share import records as rec
from groupctl.coordinator.share.starts import ShareStarts
from groupctl.coordinator.share.state import InitTopic, SharePartitionsState
from groupctl.errors import KafkaError
from groupctl.log.share_groups import ShareGroupState
from groupctl.model import GroupDescription, Member, ShareOffset, TopicPartition
from groupctl.protocol.data.share_groups import DescribedGroup, MemberAssignment, MemberAssignmentTopicPartitions
from groupctl.protocol.data.share_groups import Member as DescribedMember

#: The share groups' only assignor.
ASSIGNOR = "simple"
NOT_EMPTY = "The group is not empty."


class ShareAdmin:
    """The admin side of share groups over the runtime and the share-partition states."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self.starts: ShareStarts = runtime.share_starts

    # -- reading -------------------------------------------------------------------------------------------

    def _names(self) -> dict[uuid.UUID, str]:
        return {t.topic_id: t.name for t in self.rt.topics}

    def describe(self, group_id: str, group: ShareGroupState) -> GroupDescription:
        """The share group as `group describe` shows it: members with their assignment, and the start offset of
        every initialized share-partition (None where it is not resolved yet)."""
        names = self._names()
        members = []
        for member_id in group.member_ids():
            meta, current = group.members.get(member_id), group.current.get(member_id)
            assigned = group.assigned_to(member_id)
            members.append(Member(
                member_id=member_id, instance_id=None,
                client_id=meta.client_id if meta is not None else "",
                host=meta.client_host if meta is not None else "",
                protocol="share",
                member_epoch=current.member_epoch if current is not None else 0,
                assignment=sorted(TopicPartition(names.get(t, str(t)), p) for t, ps in assigned.items() for p in ps),
                subscribed_topics=sorted(meta.subscribed_topic_names) if meta is not None else [],
                rack=meta.rack_id if meta is not None else None,
            ))
        return GroupDescription(
            group_id, "share", group.state(), protocol_type="share", assignor=ASSIGNOR, group_epoch=group.epoch,
            assignment_epoch=group.assignment_epoch, members=members, share_offsets=self.share_offsets(group_id),
        )

    def share_offsets(self, group_id: str) -> list[ShareOffset]:
        info = self.rt.state.share_partitions.get(group_id)
        if info is None:
            return []
        out = []
        for topic_id, topic in info.initialized.items():
            for p in sorted(topic.partitions):
                start = self.starts.get(group_id, topic_id, p)
                offset = start.start_offset if start is not None and start.start_offset >= 0 else None
                out.append(ShareOffset(topic.name, p, offset,
                                       leader_epoch=start.leader_epoch if start is not None and offset is not None
                                       else None,
                                       state_epoch=start.state_epoch if start is not None else None))
        return sorted(out, key=lambda o: (o.topic, o.partition))

    # -- validation ----------------------------------------------------------------------------------------

    @staticmethod
    def check_empty(group: ShareGroupState) -> None:
        """`ShareGroup.validateDeleteGroup` / the offsets requests' check: members mean NON_EMPTY_GROUP."""
        if group.member_ids():
            raise KafkaError("NON_EMPTY_GROUP", NOT_EMPTY)

    # -- AlterShareGroupOffsets ----------------------------------------------------------------------------

    def alter(self, group_id: str, group: ShareGroupState,
              offsets: Mapping[tuple[str, int], int]) -> Result[dict[tuple[str, int], KafkaError | None]]:
        """Set start offsets of an empty share group: each (topic, partition) None when set, or its error.

        A topic the cluster lacks, or a partition past its end, is UNKNOWN_TOPIC_OR_PARTITION; the others are
        initialized at that offset (a type-15 record when new share-partitions are) with the group's epoch.
        """
        self.check_empty(group)
        info = self.rt.state.share_partitions.get(group_id) or SharePartitionsState()
        initialized = dict(info.initialized)
        answers: dict[tuple[str, int], KafkaError | None] = {}
        changed = False
        for (name, partition), offset in sorted(offsets.items()):
            topic = self.rt.topics.get(name)
            if topic is None or not 0 <= partition < topic.partitions:
                answers[(name, partition)] = KafkaError("UNKNOWN_TOPIC_OR_PARTITION")
                continue
            answers[(name, partition)] = None
            self.starts.initialize(group_id, topic.topic_id, partition, group.epoch, offset)
            have = initialized.get(topic.topic_id)
            if have is None or partition not in have.partitions:
                parts = (have.partitions if have is not None else frozenset()) | {partition}
                initialized[topic.topic_id] = InitTopic(name, parts)
                changed = True
        records: list[Record] = []
        if changed:
            initializing = {t: InitTopic(i.name, i.partitions - initialized[t].partitions) if t in initialized else i
                            for t, i in info.initializing.items()}
            initializing = {t: i for t, i in initializing.items() if i.partitions}
            records.append(rec.state_partitions(group_id, initializing=initializing, initialized=initialized,
                                                deleting={t: n for t, n in info.deleting.items()
                                                          if t not in initialized}))
        return Result(answers, records)

    # -- DeleteShareGroupOffsets ---------------------------------------------------------------------------

    def delete_offsets(self, group_id: str, group: ShareGroupState,
                       topics: Iterable[str]) -> Result[list[tuple[str, uuid.UUID | None, KafkaError | None]]]:
        """Delete the share-partition state of whole topics of an empty group: per topic (name, id, error).

        A topic the cluster lacks is UNKNOWN_TOPIC_OR_PARTITION; a topic the group holds state for moves to
        deleting (one type-15 record) and leaves the record once the state is gone (a second one, in a task
        of its own, as the share coordinator answers later).
        """
        self.check_empty(group)
        info = self.rt.state.share_partitions.get(group_id) or SharePartitionsState()
        answers: list[tuple[str, uuid.UUID | None, KafkaError | None]] = []
        gone: dict[uuid.UUID, str] = {}
        for name in topics:
            topic = self.rt.topics.get(name)
            if topic is None:
                answers.append((name, None, KafkaError("UNKNOWN_TOPIC_OR_PARTITION")))
                continue
            answers.append((name, topic.topic_id, None))
            if topic.topic_id in info.initialized or topic.topic_id in info.initializing:
                gone[topic.topic_id] = name
        if not gone:
            return Result(answers)
        initialized = {t: i for t, i in info.initialized.items() if t not in gone}
        initializing = {t: i for t, i in info.initializing.items() if t not in gone}
        deleting = {**info.deleting, **gone}
        self.starts.drop(group_id, gone)

        def deleted() -> Result[None]:
            now = self.rt.state.share_partitions.get(group_id)
            if now is None:
                return Result()
            left = {t: n for t, n in now.deleting.items() if t not in gone}
            return Result(None, [rec.state_partitions(group_id, initializing=now.initializing,
                                                      initialized=now.initialized, deleting=left)])

        self.rt.schedule_task(f"share-delete-offsets:{group_id}", deleted)
        return Result(answers, [rec.state_partitions(group_id, initializing=initializing, initialized=initialized,
                                                     deleting=deleting)])

    # -- DeleteGroups --------------------------------------------------------------------------------------

    def group_tombstones(self, group_id: str, group: ShareGroupState) -> list[Record]:
        """`ShareGroup.createGroupTombstoneRecords` (members' records, target epoch, group epoch), then the
        share-partition metadata's tombstone; the share-partition states go with them."""
        out: list[Record] = []
        for member_id in group.member_ids():
            out += [rec.current_assignment_tombstone(group_id, member_id),
                    rec.target_member_tombstone(group_id, member_id), rec.member_tombstone(group_id, member_id)]
        out += [rec.target_epoch_tombstone(group_id), rec.group_tombstone(group_id)]
        if group_id in self.rt.state.share_partitions:
            out.append(rec.state_partitions_tombstone(group_id))
        self.starts.drop(group_id)
        return out


def described_share_group(d: GroupDescription, topic_ids: Mapping[str, uuid.UUID]) -> DescribedGroup:
    """ShareGroupDescribe's answer for a share group (authorized operations left to the caller)."""
    members = []
    for m in d.members:
        by_topic: dict[str, list[int]] = {}
        for tp in m.assignment:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        members.append(DescribedMember(
            member_id=m.member_id, rack_id=m.rack, member_epoch=m.member_epoch or 0, client_id=m.client_id,
            client_host=m.host, subscribed_topic_names=list(m.subscribed_topics),
            assignment=MemberAssignment(topic_partitions=[
                MemberAssignmentTopicPartitions(topic_id=topic_ids[name], topic_name=name, partitions=sorted(ps))
                for name, ps in sorted(by_topic.items()) if name in topic_ids
            ]),
        ))
    return DescribedGroup(group_id=d.group_id, group_state=d.state, group_epoch=d.group_epoch or 0,
                          assignment_epoch=d.assignment_epoch or 0, assignor_name=d.assignor or ASSIGNOR,
                          members=members)
