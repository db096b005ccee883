"""How a described group is shown: the offsets, members and state views of `group describe`.

Shared by every command that describes groups (`dump groups` now, `group describe` on a live
backend later), so a group rebuilt from a dump and a live group look the same. Column names follow
kafka-consumer-groups.sh where it has them; the epochs, protocol and convergence are groupctl's.
One table holds every group described, so a column Kafka prints for some groups only (UPGRADED, for
consumer groups) is there for all, with `-` where it does not apply.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from groupctl.model import GroupDescription, Member, TopicPartition, format_assignment
from groupctl.output import Column, OutputFormat, render, to_item


class View(str, Enum):
    offsets = "offsets"
    members = "members"
    state = "state"


def _true_false(row: dict[str, Any]) -> str:
    """UPGRADED as Kafka prints it (`true`/`false`); `-` in a classic group, which has no such column."""
    upgraded = row.get("upgraded")
    return "-" if upgraded is None else str(upgraded).lower()


def migration_text(row: dict[str, Any]) -> str:
    """`upgrading (2 classic, 1 consumer)`, `downgrading (3 classic)`, or `-` for a group not migrating."""
    migration = row.get("migration")
    if migration is None:
        return "-"
    counts = [f"{row['classicMembers']} classic"]
    if row["consumerMembers"]:
        counts.append(f"{row['consumerMembers']} consumer")
    return f"{migration} ({', '.join(counts)})"


OFFSET_COLUMNS = [
    Column("group", "GROUP"),
    Column("topic", "TOPIC"),
    Column("partition", "PARTITION"),
    Column("leaderEpoch", "LEADER-EPOCH", wide_only=True),
    Column("currentOffset", "CURRENT-OFFSET"),
    Column("logEndOffset", "LOG-END-OFFSET"),
    Column("lag", "LAG"),
    Column("consumerId", "CONSUMER-ID"),
    Column("host", "HOST"),
    Column("clientId", "CLIENT-ID"),
    Column("commitTimestamp", "COMMIT-TIMESTAMP", wide_only=True, timestamp=True),
    Column("metadata", "METADATA", wide_only=True, free=True),
]

MEMBER_COLUMNS = [
    Column("group", "GROUP"),
    Column("consumerId", "CONSUMER-ID"),
    Column("instanceId", "GROUP-INSTANCE-ID"),
    Column("host", "HOST"),
    Column("clientId", "CLIENT-ID"),
    Column("protocol", "PROTOCOL"),
    Column("memberEpoch", "MEMBER-EPOCH"),
    Column("partitions", "#PARTITIONS"),
    Column("currentAssignment", "CURRENT-ASSIGNMENT", wide_only=True, free=True),
    Column("targetAssignment", "TARGET-ASSIGNMENT", wide_only=True, free=True),
    Column("pendingRevocation", "PENDING-REVOCATION", wide_only=True, free=True),
    Column("subscription", "SUBSCRIPTION", wide_only=True, free=True),
    Column("upgraded", "UPGRADED", wide_only=True, text=_true_false),
]

STATE_COLUMNS = [
    Column("group", "GROUP"),
    Column("coordinator", "COORDINATOR (ID)"),
    Column("assignor", "ASSIGNMENT-STRATEGY"),
    Column("state", "STATE"),
    Column("type", "TYPE", wide_only=True),
    Column("groupEpoch", "GROUP-EPOCH"),
    Column("assignmentEpoch", "ASSIGNMENT-EPOCH"),
    Column("members", "#MEMBERS"),
    Column("converged", "CONVERGED"),
    Column("migration", "MIGRATION", text=migration_text),
]

DUMP_STATE_COLUMNS = [
    *STATE_COLUMNS[:2], Column("hashedCoordinator", "HASHED-PARTITION", wide_only=True), *STATE_COLUMNS[2:]
]
"""`dump groups --state`: COORDINATOR is the partition the records were read from; the one the group id
hashes to is beside it in -o wide."""

COLUMNS = {View.offsets: OFFSET_COLUMNS, View.members: MEMBER_COLUMNS, View.state: STATE_COLUMNS}


def _by_partition_count(desc: GroupDescription) -> list[Member]:
    """Members with the most partitions first, as kafka-consumer-groups.sh sorts them."""
    return sorted(desc.members, key=lambda m: (-len(m.assignment), m.member_id))


def offset_rows(desc: GroupDescription) -> list[dict[str, Any]]:
    """Rows as kafka-consumer-groups.sh --describe --offsets prints them: each member's partitions
    (members with the most first, then by topic and partition; a member without any is left out, as
    Kafka's tool leaves it out: `--members` shows it), with the committed offset or `-`, then
    committed partitions no member holds."""
    committed = {TopicPartition(o.topic, o.partition): o for o in desc.offsets}
    ends = {TopicPartition(u.topic, u.partition): u.log_end_offset for u in desc.uncommitted}

    def row(tp: TopicPartition | None, owner: Member | None) -> dict[str, Any]:
        off = committed.get(tp) if tp is not None else None
        return {
            "group": desc.group_id, "topic": tp.topic if tp else None, "partition": tp.partition if tp else None,
            "leaderEpoch": off.leader_epoch if off else None, "currentOffset": off.offset if off else None,
            "logEndOffset": off.log_end_offset if off else ends.get(tp) if tp else None,
            "lag": off.lag if off else None, "consumerId": owner.member_id if owner else None,
            "host": owner.host if owner else None, "clientId": owner.client_id if owner else None,
            "commitTimestamp": off.commit_timestamp if off else None, "metadata": off.metadata if off else None,
        }

    rows: list[dict[str, Any]] = []
    held: set[TopicPartition] = set()
    for member in _by_partition_count(desc):
        held.update(member.assignment)
        rows.extend(row(tp, member) for tp in sorted(member.assignment))
    rows.extend(row(tp, None) for tp in sorted(committed) if tp not in held)
    return rows


def member_rows(desc: GroupDescription) -> list[dict[str, Any]]:
    """One row per member: most partitions first, as kafka-consumer-groups.sh sorts them."""
    rows = []
    for m in _by_partition_count(desc):
        rows.append({
            "group": desc.group_id, "consumerId": m.member_id, "instanceId": m.instance_id, "host": m.host,
            "clientId": m.client_id, "protocol": m.protocol, "memberEpoch": m.member_epoch,
            "partitions": len(m.assignment), "currentAssignment": format_assignment(m.assignment),
            "targetAssignment": format_assignment(m.target_assignment),
            "pendingRevocation": format_assignment(m.pending_revocation),
            "subscription": m.subscribed_regex if m.subscribed_regex else ",".join(sorted(m.subscribed_topics)) or None,
            "upgraded": desc.upgraded(m),
        })
    return rows


def state_row(desc: GroupDescription) -> dict[str, Any]:
    return {
        "group": desc.group_id, "coordinator": desc.coordinator, "hashedCoordinator": desc.hashed_coordinator,
        "assignor": desc.assignor, "state": desc.state,
        "type": desc.type, "groupEpoch": desc.group_epoch, "assignmentEpoch": desc.assignment_epoch,
        "members": len(desc.members), "converged": desc.converged, "migration": desc.migration,
        "classicMembers": desc.classic_members, "consumerMembers": desc.consumer_members,
    }


def description_item(desc: GroupDescription) -> dict[str, Any]:
    """The whole description for JSON/YAML: every field, whatever the view."""
    item = to_item(desc)
    item["converged"] = desc.converged
    item.update(mixed=desc.mixed, migration=desc.migration, classicMembers=desc.classic_members,
                consumerMembers=desc.consumer_members)
    for member, raw in zip(desc.members, item["members"], strict=True):
        raw["converged"] = member.converged
        raw["upgraded"] = desc.upgraded(member)
    for offset, raw in zip(desc.offsets, item["offsets"], strict=True):
        raw["lag"] = offset.lag  # a property, which to_item does not carry: the LAG column's value
    return item


def render_groups(descs: list[GroupDescription], view: View, fmt: OutputFormat, verbose: bool = False,
                  columns: list[Column] | None = None) -> None:
    """Print descriptions in one view (`columns` in place of the view's own); --verbose adds wide's
    columns, still fitted to the terminal."""
    if view is View.offsets:
        rows = [row for d in descs for row in offset_rows(d)]
    elif view is View.members:
        rows = [row for d in descs for row in member_rows(d)]
    else:
        rows = [state_row(d) for d in descs]
    render("GroupDescription", rows, columns or COLUMNS[view], fmt, items=[description_item(d) for d in descs],
           extra=verbose)
