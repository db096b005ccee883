"""Deleting groups and committed offsets: the plan, Kafka's refusals in words, and the results.

The broker decides (DeleteGroups, OffsetDelete); this module says beforehand what it will decide,
from a describe, and afterwards turns its error codes into sentences that name what is in the way:
the members still in a group, the topic a group still subscribes to.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from groupctl.errors import GroupctlError, GroupNotFound, KafkaError, UsageError
from groupctl.model import (
    DELETED,
    UNKNOWN_PARTITION,
    WOULD_DELETE,
    GroupDeletion,
    GroupDescription,
    GroupState,
    OffsetDeletion,
    TopicPartition,
)
from groupctl.plurals import counted, plural

if TYPE_CHECKING:
    from groupctl.backends.base import Backend

NON_EMPTY = "NON_EMPTY_GROUP"
NOT_FOUND = "GROUP_ID_NOT_FOUND"
SUBSCRIBED = "GROUP_SUBSCRIBED_TO_TOPIC"
UNKNOWN_TOPIC = "UNKNOWN_TOPIC_OR_PARTITION"
#: An offset-deletion row for a partition where the group has no committed offset: nothing to send.
NO_OFFSET = "no-offset"


def member_names(desc: GroupDescription) -> list[str]:
    """Each member as an operator finds its process: the instance id if static, else member id and client."""
    out = []
    for m in desc.members:
        if m.instance_id:
            out.append(m.instance_id)
        else:
            out.append(f"{m.member_id} ({m.client_id}@{m.host})" if m.client_id else m.member_id)
    return out


def non_empty_message(desc: GroupDescription) -> str:
    names = member_names(desc)
    who = f"{counted(len(names), 'member')} still in it: {', '.join(names)}" if names else "members are joining it"
    if desc.type == "share":  # share members are never static: they leave when their consumer stops
        return f"group '{desc.group_id}' is {desc.state}, {who}; stop those share consumers and retry"
    return (f"group '{desc.group_id}' is {desc.state}, {who}; stop those consumers (static members can be "
            "removed with `groupctl group remove-members`) and retry")


def group_non_empty_message(desc: GroupDescription) -> str:
    """Why DeleteGroups refuses: for a share group Kafka's words first (kafka-share-groups.sh --delete)."""
    if desc.type == "share":
        return f"Share group '{desc.group_id}' is not EMPTY. ({non_empty_message(desc)})"
    return non_empty_message(desc)


def _not_found_message(group_id: str, location: str) -> str:
    return f"group '{group_id}' does not exist on {location}"


# -- group delete ---------------------------------------------------------------------------------


def plan_group_deletion(backend: Backend, group_ids: Iterable[str]) -> list[GroupDeletion]:
    """What DeleteGroups would answer for each group: would-delete for an Empty group (with how many
    committed offsets go with it), NON_EMPTY_GROUP naming the members, GROUP_ID_NOT_FOUND."""
    plan = []
    for group_id in dict.fromkeys(group_ids):
        try:
            (desc,) = backend.describe_groups([group_id])
        except GroupNotFound:
            plan.append(GroupDeletion(group_id, NOT_FOUND, _not_found_message(group_id, backend.location)))
            continue
        if desc.members or desc.state not in (GroupState.EMPTY, GroupState.DEAD):
            plan.append(GroupDeletion(group_id, NON_EMPTY, group_non_empty_message(desc), member_names(desc)))
        elif desc.type == "share":
            count = len(desc.share_offsets)
            goes = plural(count, "goes", "go")
            plan.append(GroupDeletion(group_id, WOULD_DELETE, f"{counted(count, 'share-partition start offset')} "
                                      f"{goes} with it"))
        else:
            count = len(desc.offsets)
            goes = plural(count, "goes", "go")
            plan.append(GroupDeletion(group_id, WOULD_DELETE, f"{counted(count, 'committed offset')} {goes} with it"))
    return plan


def delete_groups(backend: Backend, group_ids: Iterable[str]) -> list[GroupDeletion]:
    """One DeleteGroups; a NON_EMPTY_GROUP answer is described again to name who is in the way."""
    results = backend.delete_groups(list(dict.fromkeys(group_ids)))
    for r in results:
        if r.outcome == NOT_FOUND:
            r.message = _not_found_message(r.group_id, backend.location)
        elif r.outcome == NON_EMPTY:
            try:
                (desc,) = backend.describe_groups([r.group_id])
            except GroupctlError:
                continue  # the broker's own words stay
            r.members = member_names(desc)
            r.message = group_non_empty_message(desc)
    return results


# -- group offsets delete -------------------------------------------------------------------------


def parse_topic_partitions(values: Iterable[str]) -> list[tuple[str, list[int] | None]]:
    """`TOPIC` or `TOPIC:P[,P...]` (Kafka's --topic form) per value; None means every partition.

    A topic named twice merges; a bad partition list is a UsageError naming the value.
    """
    merged: dict[str, list[int] | None] = {}
    for value in values:
        topic, sep, parts = value.rpartition(":") if ":" in value else (value, "", "")
        topic = topic.strip()
        if not topic:
            raise UsageError(f"--topic '{value}': no topic name; give TOPIC or TOPIC:P[,P...]")
        partitions: list[int] | None = None
        if sep:
            try:
                partitions = [int(p) for p in parts.split(",") if p.strip()]
            except ValueError:
                raise UsageError(f"--topic '{value}': partitions must be numbers, as in {topic}:0,1,2") from None
            if not partitions or any(p < 0 for p in partitions):
                raise UsageError(f"--topic '{value}': give partitions as non-negative numbers, as in {topic}:0,1,2")
        if topic in merged and (merged[topic] is None or partitions is None):
            merged[topic] = None
        elif topic in merged:
            merged[topic] = list(dict.fromkeys((merged[topic] or []) + (partitions or [])))
        else:
            merged[topic] = partitions
    return list(merged.items())


def subscribed_topics(desc: GroupDescription) -> set[str]:
    """The topics a group with members reads: subscriptions by name, and what its members own or are
    given (a regex's topics show there)."""
    topics: set[str] = set()
    for m in desc.members:
        topics.update(m.subscribed_topics)
        topics.update(tp.topic for tp in m.assignment)
        topics.update(tp.topic for tp in m.target_assignment or ())
    return topics


def subscribed_message(group_id: str, topic: str) -> str:
    return (f"group '{group_id}' still subscribes to topic '{topic}' (a member reads it), so Kafka keeps its "
            "offsets: stop the consumers or change their subscription, then retry")


def plan_offset_deletion(
    backend: Backend, group_id: str, wanted: list[tuple[str, list[int] | None]]
) -> list[OffsetDeletion]:
    """One row per partition: would-delete (with the offset it holds), no-offset, or the error Kafka
    would answer. A topic without partitions means every partition where the group has an offset.

    A non-empty classic group that is not a consumer-protocol group is refused as a whole, as Kafka
    refuses it (GroupctlError naming the members); a missing group raises GroupNotFound.
    """
    (desc,) = backend.describe_groups([group_id])
    if desc.type == "share":
        return _plan_share_offset_deletion(backend, desc, wanted)
    if desc.members and desc.type == "classic" and desc.protocol_type not in ("consumer", None):
        raise GroupctlError(f"cannot delete offsets: {non_empty_message(desc)} (Kafka deletes offsets of a "
                            f"'{desc.protocol_type}' group only when it is Empty)")
    committed = {(o.topic, o.partition): o.offset for o in desc.offsets}
    known = set(backend.list_topics())
    subscribed = subscribed_topics(desc)
    plan: list[OffsetDeletion] = []
    for topic, partitions in wanted:
        if partitions is None:
            partitions = sorted(p for t, p in committed if t == topic)
            if not partitions:
                outcome, message = (NO_OFFSET, f"group '{group_id}' has no committed offset on topic '{topic}'") \
                    if topic in known else (UNKNOWN_TOPIC, UNKNOWN_PARTITION)
                plan.append(OffsetDeletion(group_id, topic, -1, outcome, message))
                continue
        for p in partitions:
            offset = committed.get((topic, p))
            if topic not in known:
                plan.append(OffsetDeletion(group_id, topic, p, UNKNOWN_TOPIC, UNKNOWN_PARTITION, offset))
            elif topic in subscribed:
                plan.append(OffsetDeletion(group_id, topic, p, SUBSCRIBED, subscribed_message(group_id, topic), offset))
            elif offset is None:
                plan.append(OffsetDeletion(group_id, topic, p, NO_OFFSET,
                                           f"group '{group_id}' has no committed offset on {topic}-{p}"))
            else:
                plan.append(OffsetDeletion(group_id, topic, p, WOULD_DELETE, None, offset))
    return plan


#: The broker's words when a share group with members is asked to delete offsets (DeleteShareGroupOffsets 68).
SHARE_NOT_EMPTY = "The group is not empty."


def _plan_share_offset_deletion(
    backend: Backend, desc: GroupDescription, wanted: list[tuple[str, list[int] | None]]
) -> list[OffsetDeletion]:
    """A share group's start offsets go per topic (DeleteShareGroupOffsets names topics, not partitions), and
    only while it has no members, as the broker refuses otherwise (NON_EMPTY_GROUP, "The group is not empty.")."""
    named = [f"{topic}:{','.join(map(str, parts))}" for topic, parts in wanted if parts is not None]
    if named:
        raise UsageError(f"'{desc.group_id}' is a share group, whose start offsets are deleted per topic "
                         f"(DeleteShareGroupOffsets): give --topic TOPIC, not {', '.join(named)}")
    if desc.members:
        raise GroupctlError(f"cannot delete offsets: {SHARE_NOT_EMPTY} ({non_empty_message(desc)})")
    known = set(backend.list_topics())
    held = {o.topic for o in desc.share_offsets}
    plan = []
    for topic, _ in wanted:
        if topic not in known:
            plan.append(OffsetDeletion(desc.group_id, topic, -1, UNKNOWN_TOPIC, UNKNOWN_PARTITION))
        elif topic not in held:
            plan.append(OffsetDeletion(desc.group_id, topic, -1, NO_OFFSET,
                                       f"share group '{desc.group_id}' has no start offset on topic '{topic}'"))
        else:
            plan.append(OffsetDeletion(desc.group_id, topic, -1, WOULD_DELETE))
    return plan


def _delete_share_offsets(backend: Backend, group_id: str, plan: list[OffsetDeletion]) -> list[OffsetDeletion]:
    """One DeleteShareGroupOffsets for the planned topics; a NON_EMPTY_GROUP refusal names the members."""
    sendable = [r.topic for r in plan if r.outcome == WOULD_DELETE]
    try:
        answers = {a.topic: a for a in backend.delete_share_offsets(group_id, sendable)} if sendable else {}
    except KafkaError as exc:
        if exc.name != NON_EMPTY:
            raise
        (desc,) = backend.describe_groups([group_id])
        raise GroupctlError(f"cannot delete offsets: {SHARE_NOT_EMPTY} ({non_empty_message(desc)})") from exc
    return [answers.get(r.topic, r) for r in plan]


def delete_offsets(backend: Backend, group_id: str, plan: list[OffsetDeletion]) -> list[OffsetDeletion]:
    """One OffsetDelete for every planned partition that names one, so the broker has the last word on
    partitions beyond a topic's count; a partition without an offset it answers for stays no-offset.
    GROUP_SUBSCRIBED_TO_TOPIC is said in words, and a NON_EMPTY_GROUP refusal names the members.

    A share group's plan deletes whole topics (its would-delete rows have no partition, -1, which a consumer
    group's never have): it goes as one DeleteShareGroupOffsets instead."""
    if any(r.outcome == WOULD_DELETE and r.partition < 0 for r in plan):
        return _delete_share_offsets(backend, group_id, plan)
    sendable = [TopicPartition(r.topic, r.partition) for r in plan if r.partition >= 0]
    try:
        answers = backend.delete_offsets(group_id, sendable) if sendable else []
    except KafkaError as exc:
        if exc.name != NON_EMPTY:
            raise
        (desc,) = backend.describe_groups([group_id])
        raise GroupctlError(f"cannot delete offsets: {non_empty_message(desc)}") from exc
    by_tp = {(a.topic, a.partition): a for a in answers}
    out = []
    for row in plan:
        answer = by_tp.get((row.topic, row.partition))
        if answer is None or (answer.deleted and row.outcome == NO_OFFSET):
            out.append(row)
            continue
        answer.offset = row.offset
        if answer.outcome == SUBSCRIBED:
            answer.message = subscribed_message(group_id, row.topic)
        out.append(answer)
    return out


def failed(results: Iterable[GroupDeletion | OffsetDeletion]) -> list[GroupDeletion | OffsetDeletion]:
    """The items that did not go: anything but deleted (and, for offsets, nothing-to-delete)."""
    return [r for r in results if r.outcome not in (DELETED, NO_OFFSET)]
