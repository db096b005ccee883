"""`groupctl group delete` on the local backend and through `groupctl serve` (-b): empty groups go with
their offsets, groups with members are refused with the members named, missing groups are named,
exit 3 on any failure, --dry-run changes nothing, a terminal is asked; confluent-kafka's AdminClient
agrees with groupctl on the same DIR."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from confluent_kafka.admin import AdminClient

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from groupctl.protocol.data.groups import MemberIdentity
from tests.heartbeats import hb
from tests.server.waits import WAIT_S

from .test_group import _classic_group, _consumer_group

KIND = "GroupDeletion"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Busy groups (a classic one with static members, a KIP-848 one), an emptied classic group, an emptied
    consumer group, and a simple group with offsets only."""
    directory = tmp_path_factory.mktemp("delete") / "local"
    with LocalBackend(directory, create=True) as b:
        c = b.coordinator
        for name, partitions in (("orders", 3), ("payments", 2), ("invoices", 1), ("audit", 2)):
            c.create_topic(name, partitions)
            b.end_offsets_by_topic[name] = [200] * partitions
        _classic_group(b, "orders-app", "orders", 3, ["orders-0", "orders-1"])
        _consumer_group(b, "payments-app", "payments", ["pod-0", "pod-1"])
        _classic_group(b, "old-classic", "audit", 2, ["old-0"])
        answer = c.leave_group("old-classic", [MemberIdentity(group_instance_id="old-0")])
        assert [m.error_code for m in answer.response.members] == [0]
        _consumer_group(b, "old-consumer", "invoices", ["gone-0"])
        epoch = c.describe("old-consumer").members[0].member_epoch
        assert c.heartbeat(hb("old-consumer", "member-gone-0", -1)).error_code == 0, epoch
        c.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 500)])
    return directory


@pytest.fixture(params=("local", "serve"))
def target(request: pytest.FixtureRequest, template: Path, tmp_path: Path) -> tuple[tuple[str, ...], str]:
    """(the command-line arguments selecting a fresh copy of the DIR, how messages name it)."""
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    if request.param == "local":
        return ("--local", str(directory)), f"local {directory}"
    served = request.getfixturevalue("serve")(directory, "serve")
    return served.args, served.location


def _groups(cli, args: tuple[str, ...]) -> list[str]:
    r = cli("group", "list", *args, "-o", "json")
    assert r.code == 0, r.err
    return sorted(i["groupId"] for i in json.loads(r.out)["items"])


ALL = ["billing", "old-classic", "old-consumer", "orders-app", "payments-app"]


def test_empty_groups_of_every_kind_go_with_their_offsets(cli, target):
    args, _ = target
    r = cli("group", "delete", "old-classic", "old-consumer", "billing", "--yes", *args, "-o", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["kind"] == KIND
    assert [(i["groupId"], i["outcome"], i["deleted"], i["dryRun"]) for i in doc["items"]] == [
        ("old-classic", "deleted", True, False), ("old-consumer", "deleted", True, False),
        ("billing", "deleted", True, False)]
    assert "Groups to delete" in r.err and "2 committed offsets go with it" in r.err  # the plan came first
    assert _groups(cli, args) == ["orders-app", "payments-app"]
    described = cli("group", "describe", "billing", *args)
    assert described.code == 1 and "group 'billing' does not exist" in described.err


def test_groups_with_members_are_refused_naming_them_and_missing_ones_named(cli, target):
    args, location = target
    r = cli("group", "delete", "payments-app", "orders-app", "nope", "billing", "--yes", *args, "-o", "wide")
    assert r.code == 3, r.err
    rows = {line.split()[0]: line for line in r.out.splitlines()[1:]}
    assert rows["payments-app"].split()[1:3] == ["NON_EMPTY_GROUP", "pod-0,pod-1"]
    assert rows["orders-app"].split()[1:3] == ["NON_EMPTY_GROUP", "orders-0,orders-1"]
    assert "stop those consumers" in rows["orders-app"]
    assert rows["nope"].split()[1] == "GROUP_ID_NOT_FOUND" and f"does not exist on {location}" in rows["nope"]
    assert rows["billing"].split()[1] == "deleted"
    assert "3 of 4 groups were not deleted" in r.err
    assert "error: NON_EMPTY_GROUP: group 'payments-app' is Stable, 2 members still in it: pod-0, pod-1" in r.err
    assert _groups(cli, args) == ["old-classic", "old-consumer", "orders-app", "payments-app"]


def test_dry_run_shows_the_plan_and_changes_nothing(cli, target):
    args, _ = target
    r = cli("group", "delete", "old-classic", "payments-app", "--dry-run", *args, "-o", "yaml")
    assert r.code == 0, r.err
    items = yaml.safe_load(r.out)["items"]
    assert [(i["groupId"], i["outcome"], i["members"], i["dryRun"]) for i in items] == [
        ("old-classic", "would-delete", [], True), ("payments-app", "NON_EMPTY_GROUP", ["pod-0", "pod-1"], True)]
    assert "dry run: no group was deleted" in r.err
    assert _groups(cli, args) == ALL


def test_confirmation_on_a_terminal_and_none_without_one(cli_input, target):
    args, location = target
    r = cli_input("group", "delete", "billing", *args, tty=False)
    assert r.code == 2 and "pass --yes" in r.err
    r = cli_input("group", "delete", "billing", *args, input="n\n", tty=True)
    assert r.code == 1 and f"Delete 1 group and its committed offsets on {location}?" in r.err
    assert r.err.endswith("groupctl: not confirmed: nothing changed (no group was deleted)\n") and r.out == ""
    assert "error" not in r.err
    assert _groups(cli_input, args) == ALL
    r = cli_input("group", "delete", "billing", *args, input="y\n", tty=True)
    assert r.code == 0, r.err
    assert r.out.split()[:6] == ["GROUP", "RESULT", "MEMBERS", "billing", "deleted", "-"]
    assert "billing" not in _groups(cli_input, args)


def test_every_format(cli, target):
    args, _ = target
    for fmt, group in zip(("table", "csv"), ("old-classic", "old-consumer"), strict=True):
        r = cli("group", "delete", group, "ghost", "--yes", *args, "-o", fmt)
        assert r.code == 3, (fmt, r.err)
        if fmt == "csv":
            assert r.out.splitlines()[:2] == ["group,result,members,message", f"{group},deleted,,"]
        else:
            assert "MESSAGE" not in r.out and "GROUP_ID_NOT_FOUND" in r.out


def test_the_log_holds_kafkas_tombstones(cli, tmp_path, template):
    """The records a deleted classic group leaves are those of kafka-consumer-groups.sh --delete on Kafka
    4.0 (../shared/kafka-4.0-broker-vectors, partition 0): the offset tombstones, then the group's."""
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    assert cli("group", "delete", "old-classic", "--yes", "--local", str(directory)).code == 0
    r = cli("dump", "decode", str(directory / "__consumer_offsets-0"), "--group", "old-classic", "--format", "jsonl")
    assert r.code == 0, r.err
    records = [json.loads(line) for line in r.out.splitlines() if line.strip()]
    tail = [(rec["key"]["type"], rec["key"]["data"].get("partition"), rec["value"]) for rec in records[-3:]]
    assert tail == [(1, 0, None), (1, 1, None), (2, None, None)]


def test_confluent_kafka_admin_client_agrees(cli, serve, template, tmp_path):
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    served = serve(directory, "serve")
    admin = AdminClient({"bootstrap.servers": served.location})
    futures = admin.delete_consumer_groups(["old-consumer", "payments-app"], request_timeout=WAIT_S)
    futures["old-consumer"].result(timeout=WAIT_S)
    with pytest.raises(Exception) as refused:
        futures["payments-app"].result(timeout=WAIT_S)
    assert refused.value.args[0].name() == "NON_EMPTY_GROUP"
    assert _groups(cli, served.args) == ["billing", "old-classic", "orders-app", "payments-app"]
    r = cli("group", "delete", "old-consumer", "--yes", *served.args)
    assert r.code == 3 and "GROUP_ID_NOT_FOUND" in r.out
    assert cli("group", "delete", "old-classic", "--yes", *served.args).code == 0
    listed = {g.group_id for g in admin.list_consumer_groups().result(timeout=WAIT_S).valid}
    assert listed == {"billing", "orders-app", "payments-app"}
