"""How a described group is shown: the offsets, members and state views of `group describe`.

Shared by every command that describes groups (`dump groups` now, `group describe` on a live
backend later), so a group rebuilt from a dump and a live group look the same. Column names follow
kafka-consumer-groups.sh where it has them; the epochs, protocol and convergence are groupctl's.
One table holds every group described, so a column Kafka prints for some groups only (UPGRADED, for
consumer groups) is there for all, with `-` where it does not apply.
"""

from __future__ import annotations

import sys
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

# Share groups (KIP-932), as kafka-share-groups.sh --describe prints them; LEADER-EPOCH, MEMBER-EPOCH and the
# epochs of the state view are its --verbose columns, in its order. LAG is Kafka 4.2's (`-` from a 4.1 broker).
SHARE_OFFSET_COLUMNS = [
    Column("group", "GROUP"),
    Column("topic", "TOPIC"),
    Column("partition", "PARTITION"),
    Column("leaderEpoch", "LEADER-EPOCH", wide_only=True),
    Column("startOffset", "START-OFFSET"),
    Column("lag", "LAG"),
]

SHARE_MEMBER_COLUMNS = [
    Column("group", "GROUP"),
    Column("consumerId", "CONSUMER-ID"),
    Column("host", "HOST"),
    Column("clientId", "CLIENT-ID"),
    Column("partitions", "#PARTITIONS"),
    Column("memberEpoch", "MEMBER-EPOCH", wide_only=True),
    Column("assignment", "ASSIGNMENT", free=True),
    # groupctl's: where the target is known (a dump, the lab); ShareGroupDescribe carries none (`-`).
    Column("targetAssignment", "TARGET-ASSIGNMENT", wide_only=True, free=True),
    Column("subscription", "SUBSCRIPTION", wide_only=True, free=True),
]

SHARE_STATE_COLUMNS = [
    Column("group", "GROUP"),
    Column("coordinator", "COORDINATOR (ID)"),
    Column("state", "STATE"),
    Column("groupEpoch", "GROUP-EPOCH", wide_only=True),
    Column("assignmentEpoch", "ASSIGNMENT-EPOCH", wide_only=True),
    Column("members", "#MEMBERS"),
]

SHARE_COLUMNS = {View.offsets: SHARE_OFFSET_COLUMNS, View.members: SHARE_MEMBER_COLUMNS,
                 View.state: SHARE_STATE_COLUMNS}

DUMP_SHARE_STATE_COLUMNS = [
    *SHARE_STATE_COLUMNS[:2], Column("hashedCoordinator", "HASHED-PARTITION", wide_only=True), *SHARE_STATE_COLUMNS[2:]
]

#: Groups that no API groupctl has could describe (a streams group, a share group on a broker without
#: ShareGroupDescribe v1): one row each, in every view.
UNSUPPORTED_COLUMNS = [
    Column("group", "GROUP"),
    Column("type", "TYPE"),
    Column("state", "STATE"),
    Column("note", "NOT-DESCRIBED", free=True),
]


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


def share_offset_rows(desc: GroupDescription) -> list[dict[str, Any]]:
    """One row per share-partition, by topic and partition: the start offset (`-` before it is initialised)."""
    return [{"group": desc.group_id, "topic": o.topic, "partition": o.partition, "leaderEpoch": o.leader_epoch,
             "startOffset": o.start_offset, "lag": o.lag} for o in desc.share_offsets]


def share_member_rows(desc: GroupDescription) -> list[dict[str, Any]]:
    """One row per share member, by member id as kafka-share-groups.sh sorts them; members share partitions,
    so the same partition may be in several rows."""
    return [{"group": desc.group_id, "consumerId": m.member_id, "host": m.host, "clientId": m.client_id,
             "partitions": len(m.assignment), "memberEpoch": m.member_epoch,
             "assignment": format_assignment(m.assignment),
             "targetAssignment": format_assignment(m.target_assignment),
             "subscription": ",".join(sorted(m.subscribed_topics)) or None}
            for m in sorted(desc.members, key=lambda m: m.member_id)]


def share_state_row(desc: GroupDescription) -> dict[str, Any]:
    return {"group": desc.group_id, "coordinator": desc.coordinator, "hashedCoordinator": desc.hashed_coordinator,
            "state": desc.state, "groupEpoch": desc.group_epoch, "assignmentEpoch": desc.assignment_epoch,
            "members": len(desc.members)}


def unsupported_row(desc: GroupDescription) -> dict[str, Any]:
    return {"group": desc.group_id, "type": desc.type, "state": desc.state, "note": desc.unsupported}


def _rows(descs: list[GroupDescription], view: View) -> list[dict[str, Any]]:
    if view is View.offsets:
        return [row for d in descs for row in offset_rows(d)]
    if view is View.members:
        return [row for d in descs for row in member_rows(d)]
    return [state_row(d) for d in descs]


def _share_rows(descs: list[GroupDescription], view: View) -> list[dict[str, Any]]:
    if view is View.offsets:
        return [row for d in descs for row in share_offset_rows(d)]
    if view is View.members:
        return [row for d in descs for row in share_member_rows(d)]
    return [share_state_row(d) for d in descs]


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
                  columns: list[Column] | None = None, share_columns: list[Column] | None = None) -> None:
    """Print descriptions in one view (`columns` in place of the view's own); --verbose adds wide's
    columns, still fitted to the terminal.

    JSON and YAML carry every group in one envelope. Tables and CSV put classic and consumer groups in one
    table, share groups (whose columns are kafka-share-groups.sh's) in a second, and groups no API could
    describe in a third, each with its header, separated by a blank line; a table with no group is left out.
    """
    items = [description_item(d) for d in descs]
    if fmt not in (OutputFormat.table, OutputFormat.wide, OutputFormat.csv):
        render("GroupDescription", [], columns or COLUMNS[view], fmt, items=items)
        return
    unsupported = [d for d in descs if d.unsupported is not None]
    share = [d for d in descs if d.type == "share" and d.unsupported is None]
    others = [d for d in descs if d.type != "share" and d.unsupported is None]
    tables = [(others, _rows(others, view), columns or COLUMNS[view])]
    if share:
        tables.append((share, _share_rows(share, view), share_columns or SHARE_COLUMNS[view]))
    if unsupported:
        tables.append((unsupported, [unsupported_row(d) for d in unsupported], UNSUPPORTED_COLUMNS))
    shown = [t for t in tables if t[0]] or tables[:1]
    for i, (_, rows, cols) in enumerate(shown):
        if i:
            sys.stdout.write("\n")
        render("GroupDescription", rows, cols, fmt, extra=verbose)
