"""The describe views: rows and columns as kafka-consumer-groups.sh has them, plus epochs."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from groupctl.cli.group_views import View, member_rows, offset_rows, render_groups, state_row
from groupctl.model import (
    CommittedOffset,
    GroupDescription,
    Member,
    TopicPartition,
    attach_log_ends,
    described_partitions,
    format_assignment,
)
from groupctl.output import OutputFormat

TP = TopicPartition


def _group() -> GroupDescription:
    a = Member("m-a", "pod-0", "client-a", "/10.0.0.1", "consumer", member_epoch=7,
               assignment=[TP("orders", 1), TP("orders", 0)], target_assignment=[TP("orders", 0), TP("orders", 1)],
               subscribed_topics=["orders"])
    b = Member("m-b", None, "client-b", "/10.0.0.2", "consumer", member_epoch=6,
               assignment=[TP("orders", 2)], target_assignment=[TP("orders", 2), TP("orders", 3)],
               subscribed_regex="ord.*")
    return GroupDescription(
        "g", "consumer", "Reconciling", assignor="uniform", group_epoch=7, assignment_epoch=7,
        coordinator="__consumer_offsets-3", members=[b, a],
        offsets=[CommittedOffset("orders", 0, 10, leader_epoch=2), CommittedOffset("orders", 5, 3)],
    )


def test_format_assignment():
    assert format_assignment([TP("b", 3), TP("a", 2), TP("a", 0)]) == "a:0,2;b:3"
    assert format_assignment([]) == "-"
    assert format_assignment(None) == "-"


def test_offset_rows_in_kafka_tool_order():
    """Members with the most partitions first, each member's partitions in order (committed or not),
    a member without partitions left out (Kafka 4.0's tool prints no row for it), then committed
    partitions nobody holds."""
    group = _group()
    group.members.append(Member("m-c", None, "client-c", "/10.0.0.3", "consumer", member_epoch=7))
    attach_log_ends(group, {TP("orders", p): 20 + p for p in range(6)})
    rows = offset_rows(group)
    assert [(r["topic"], r["partition"], r["currentOffset"], r["logEndOffset"], r["lag"], r["consumerId"])
            for r in rows] == [
        ("orders", 0, 10, 20, 10, "m-a"), ("orders", 1, None, 21, None, "m-a"), ("orders", 2, None, 22, None, "m-b"),
        ("orders", 5, 3, 25, 22, None),
    ]
    assert [(u.partition, u.log_end_offset) for u in group.uncommitted] == [(1, 21), (2, 22)]
    assert described_partitions(group) == [TP("orders", p) for p in (0, 1, 2, 5)]


def test_lag_past_the_log_end_is_negative_as_kafka_prints_it():
    """kafka-consumer-groups.sh (4.0: oracle-lag, offset 120 on a log ending at 100) prints LAG -20."""
    group = _group()
    attach_log_ends(group, {TP("orders", p): 1 for p in range(6)})
    rows = {(r["topic"], r["partition"]): r for r in offset_rows(group)}
    assert (rows["orders", 0]["currentOffset"], rows["orders", 0]["lag"]) == (10, -9)
    assert " -9 " in _rendered([group], View.offsets, OutputFormat.table)


def test_member_rows_most_partitions_first():
    rows = member_rows(_group())
    assert [r["consumerId"] for r in rows] == ["m-a", "m-b"]
    assert rows[1]["targetAssignment"] == "orders:2,3" and rows[1]["subscription"] == "ord.*"
    assert rows[0]["subscription"] == "orders"


def test_state_row_convergence():
    row = state_row(_group())
    assert row["converged"] is False and row["members"] == 2 and row["groupEpoch"] == 7
    g = _group()
    g.state = "Stable"
    g.members[0].target_assignment = [TP("orders", 2)]
    assert state_row(g)["converged"] is True


def test_render_verbose_and_json():
    out = io.StringIO()
    with redirect_stdout(out):
        render_groups([_group()], View.members, OutputFormat.table, verbose=True)
    header = out.getvalue().splitlines()[0].split()
    assert header[-5:] == ["CURRENT-ASSIGNMENT", "TARGET-ASSIGNMENT", "PENDING-REVOCATION", "SUBSCRIPTION", "UPGRADED"]
    out = io.StringIO()
    with redirect_stdout(out):
        render_groups([_group()], View.state, OutputFormat.json)
    item = json.loads(out.getvalue())["items"][0]
    assert item["groupId"] == "g" and item["converged"] is False
    assert item["members"][0]["memberId"] == "m-b" and item["assignmentEpoch"] == 7
    assert item["members"][1]["converged"] is True


# -- groups in online migration: UPGRADED and MIGRATION ---------------------------------------------


def _mixed(*protocols: str, group_type: str = "consumer") -> GroupDescription:
    members = [Member(f"m-{n}", None, f"c-{n}", "/h", p, member_epoch=2 if group_type == "consumer" else None)
               for n, p in enumerate(protocols)]
    return GroupDescription(f"g-{len(protocols)}", group_type, "Stable", group_epoch=2, members=members)


def _rendered(descs: list[GroupDescription], view: View, fmt: OutputFormat, verbose: bool = False) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        render_groups(descs, view, fmt, verbose=verbose)
    return out.getvalue()


def test_member_rows_say_upgraded_as_kafka_prints_it_and_dash_in_classic_groups():
    rows = member_rows(_mixed("classic", "consumer")) + member_rows(_mixed("classic", group_type="classic"))
    assert [(r["protocol"], r["upgraded"]) for r in rows] == [("classic", False), ("consumer", True), ("classic", None)]
    lines = _rendered([_mixed("classic", "consumer"), _mixed("classic", group_type="classic")], View.members,
                      OutputFormat.wide).splitlines()
    assert [line.split()[-1] for line in lines] == ["UPGRADED", "false", "true", "-"]
    assert "UPGRADED" not in _rendered([_mixed("classic")], View.members, OutputFormat.table)
    csv_lines = _rendered([_mixed("classic", "consumer"), _mixed("classic", group_type="classic")], View.members,
                          OutputFormat.csv).splitlines()
    assert csv_lines[0].endswith(",upgraded") and [line.rsplit(",", 1)[1] for line in csv_lines[1:]] == [
        "false", "true", ""]


def test_member_items_carry_protocol_and_upgraded():
    doc = json.loads(_rendered([_mixed("classic", "consumer"), _mixed("classic", group_type="classic")],
                               View.members, OutputFormat.json))
    assert [[(m["protocol"], m["upgraded"]) for m in item["members"]] for item in doc["items"]] == [
        [("classic", False), ("consumer", True)], [("classic", None)]]


def test_state_rows_show_the_migration_with_its_counts():
    descs = [_mixed("classic", "classic", "consumer"), _mixed("classic", "classic", "classic"), _mixed("consumer"),
             _mixed("classic", group_type="classic")]
    lines = _rendered(descs, View.state, OutputFormat.table).splitlines()
    assert lines[0].split()[-2:] == ["CONVERGED", "MIGRATION"]
    assert [line.split("yes", 1)[1].strip() for line in lines[1:]] == [
        "upgrading (2 classic, 1 consumer)", "downgrading (3 classic)", "-", "-"]
    assert [state_row(d)["migration"] for d in descs] == ["upgrading", "downgrading", None, None]
    csv_lines = _rendered(descs, View.state, OutputFormat.csv).splitlines()
    assert [line.rsplit(",", 1)[1] for line in csv_lines] == ["migration", "upgrading", "downgrading", "", ""]


def test_state_items_say_mixed_migration_and_the_counts():
    descs = [_mixed("classic", "classic", "consumer"), _mixed("classic", "classic", "classic"), _mixed("consumer"),
             _mixed("classic", group_type="classic")]
    items = json.loads(_rendered(descs, View.state, OutputFormat.json))["items"]
    assert [(i["mixed"], i["migration"], i["classicMembers"], i["consumerMembers"]) for i in items] == [
        (True, "upgrading", 2, 1), (True, "downgrading", 3, 0), (False, None, 0, 1), (False, None, 1, 0)]
