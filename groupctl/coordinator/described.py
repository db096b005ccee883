"""ConsumerGroupDescribe's answer for one consumer group, built from the coordinator's view of it.

Kafka's `ConsumerGroup.asDescribedGroup` writes the generated `DescribedGroup` from the group's state;
here the state is first read into a `GroupDescription` (what `group describe` shows), and this turns
that into the wire answer: assignments by topic with ids and names, members by protocol.
"""

from __future__ import annotations

from collections.abc import Iterable

from groupctl.coordinator.topics import TopicImage
from groupctl.model import GroupDescription, TopicPartition
from groupctl.protocol.data.consumer_groups import (
    DescribedGroup,
    Member,
    MemberAssignment,
    MemberAssignmentTopicPartitions,
)

#: ConsumerGroupDescribe v1's MemberType of a member speaking each protocol.
MEMBER_TYPES = {"classic": 0, "consumer": 1}


def described_consumer_group(d: GroupDescription, topics: TopicImage, default_assignor: str) -> DescribedGroup:
    """The group as ConsumerGroupDescribe answers it; `default_assignor` names the assignor of a group
    whose members name none."""
    return DescribedGroup(
        group_id=d.group_id,
        group_state=d.state,
        group_epoch=d.group_epoch if d.group_epoch is not None else 0,
        assignment_epoch=d.assignment_epoch if d.assignment_epoch is not None else 0,
        assignor_name=d.assignor or default_assignor,
        members=[
            Member(
                member_id=m.member_id,
                instance_id=m.instance_id,
                rack_id=m.rack,
                member_epoch=m.member_epoch if m.member_epoch is not None else 0,
                client_id=m.client_id,
                client_host=m.host,
                subscribed_topic_names=list(m.subscribed_topics),
                subscribed_topic_regex=m.subscribed_regex,
                assignment=_assignment(topics, m.assignment),
                target_assignment=_assignment(topics, m.target_assignment or []),
                member_type=MEMBER_TYPES["classic" if m.protocol == "classic" else "consumer"],
            )
            for m in d.members
        ],
    )


def _assignment(topics: TopicImage, partitions: Iterable[TopicPartition]) -> MemberAssignment:
    """An assignment by topic, with ids; topics the cluster no longer has are left out, as Kafka does."""
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    out = []
    for name, parts in sorted(by_topic.items()):
        topic = topics.get(name)
        if topic is not None:
            out.append(MemberAssignmentTopicPartitions(topic_id=topic.topic_id, topic_name=name,
                                                       partitions=sorted(parts)))
    return MemberAssignment(topic_partitions=out)
