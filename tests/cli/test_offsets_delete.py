"""`groupctl group offsets delete` on the local backend and through `groupctl serve` (-b): offsets on
topics no member reads go, a subscribed topic is refused in words (GROUP_SUBSCRIBED_TO_TOPIC), a
non-consumer classic group with members is refused whole, unknown topics are named, exit 3 on any
failed partition, --dry-run changes nothing, a terminal is asked; confluent-kafka's AdminClient
agrees with groupctl on the same DIR; `dump audit` finds nothing wrong in what an admin deleted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from confluent_kafka import ConsumerGroupTopicPartitions
from confluent_kafka.admin import AdminClient
from kafka.admin import KafkaAdminClient
from kafka.errors import GroupSubscribedToTopicError, NoError
from kafka.structs import TopicPartition as KafkaPartition

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from tests.classic_requests import join_req
from tests.server.waits import WAIT_S

from .test_group import SESSION_MS, _classic_group, _consumer_group

KIND = "OffsetDeletion"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """orders-app (classic, Stable, reads orders, also holds offsets on old-orders); payments-app (KIP-848,
    reads payments, also holds offsets on refunds); billing (offsets only); connect-app (a classic
    group of protocol type connect with a member)."""
    directory = tmp_path_factory.mktemp("offsets-delete") / "local"
    with LocalBackend(directory, create=True) as b:
        c = b.coordinator
        for name, partitions in (("orders", 2), ("old-orders", 2), ("payments", 2), ("refunds", 2), ("invoices", 1)):
            c.create_topic(name, partitions)
            b.end_offsets_by_topic[name] = [300] * partitions
        ids = _classic_group(b, "orders-app", "orders", 2, ["orders-0"])
        generation = c.classic.groups["orders-app"].generation
        c.commit_offsets("orders-app", ids["orders-0"], generation,
                         [CommitPartition("old-orders", 0, 7), CommitPartition("old-orders", 1, 8)],
                         instance_id="orders-0")
        _consumer_group(b, "payments-app", "payments", ["pod-0"])
        member = c.describe("payments-app").members[0]
        c.commit_offsets("payments-app", member.member_id, member.member_epoch,
                         [CommitPartition("refunds", 0, 11), CommitPartition("refunds", 1, 12)])
        c.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 500), CommitPartition("refunds", 1, 9)])
        c.commit_offsets("connect-app", "", -1, [CommitPartition("invoices", 0, 3)])
        c.join_group(join_req("connect-app", SESSION_MS, 30_000, "", "worker-0", protocol_type="connect",
                              protocols=[("default", b"\x00")]), lambda _r: None)
        c.advance(5_000)
    return directory


@pytest.fixture(params=("local", "serve"))
def target(request: pytest.FixtureRequest, template: Path, tmp_path: Path) -> tuple[tuple[str, ...], str]:
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    if request.param == "local":
        return ("--local", str(directory)), f"local {directory}"
    served = request.getfixturevalue("serve")(directory, "serve")
    return served.args, served.location


def _offsets(cli, args: tuple[str, ...], group: str) -> dict[str, int]:
    r = cli("group", "describe", group, *args, "-o", "json")
    assert r.code == 0, r.err
    return {f"{o['topic']}-{o['partition']}": o["offset"] for o in json.loads(r.out)["items"][0]["offsets"]}


def _items(r) -> list[tuple]:
    doc = json.loads(r.out)
    assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", KIND)
    return [(i["topic"], i["partition"], i["offset"], i["outcome"]) for i in doc["items"]]


def test_offsets_of_a_topic_no_member_reads_go(cli, target):
    args, _ = target
    r = cli("group", "offsets", "delete", "orders-app", "--topic", "old-orders", "--yes", *args, "-o", "json")
    assert r.code == 0, r.err
    assert _items(r) == [("old-orders", 0, 7, "deleted"), ("old-orders", 1, 8, "deleted")]
    assert "committed offsets to delete" in r.err  # the plan came first
    assert _offsets(cli, args, "orders-app") == {"orders-0": 100, "orders-1": 101}
    r = cli("group", "offsets", "delete", "payments-app", "--topic", "refunds:1", "--yes", *args, "-o", "json")
    assert r.code == 0, r.err
    assert _items(r) == [("refunds", 1, 12, "deleted")]
    assert _offsets(cli, args, "payments-app") == {"payments-0": 40, "payments-1": 40, "refunds-0": 11}


def test_a_subscribed_topic_is_refused_in_words_and_exits_3(cli, target):
    args, _ = target
    r = cli("group", "offsets", "delete", "payments-app", "--topic", "payments", "--topic", "refunds:0", "--yes",
            *args, "-o", "wide")
    assert r.code == 3, r.err
    rows = [line.split(None, 4) for line in r.out.splitlines()[1:]]
    assert [row[:4] for row in rows] == [["payments", "0", "40", "GROUP_SUBSCRIBED_TO_TOPIC"],
                                         ["payments", "1", "40", "GROUP_SUBSCRIBED_TO_TOPIC"],
                                         ["refunds", "0", "11", "deleted"]]
    assert "group 'payments-app' still subscribes to topic 'payments'" in rows[0][4]
    assert "2 of 3 partitions of group 'payments-app' kept their offsets" in r.err
    r = cli("group", "offsets", "delete", "orders-app", "--topic", "orders:1", "--yes", *args)
    assert r.code == 3 and "GROUP_SUBSCRIBED_TO_TOPIC" in r.out
    assert _offsets(cli, args, "orders-app")["orders-1"] == 101


def test_unknown_topics_partitions_without_offsets_and_missing_groups(cli, target):
    args, location = target
    r = cli("group", "offsets", "delete", "billing", "--topic", "nope", "--topic", "invoices:0,5", "--topic",
            "orders", "--yes", *args, "-o", "json")
    assert r.code == 3, r.err
    assert _items(r) == [("nope", None, None, "UNKNOWN_TOPIC_OR_PARTITION"), ("invoices", 0, 500, "deleted"),
                         ("invoices", 5, None, "UNKNOWN_TOPIC_OR_PARTITION"), ("orders", None, None, "no-offset")]
    assert _offsets(cli, args, "billing") == {"refunds-1": 9}
    r = cli("group", "offsets", "delete", "ghost", "--topic", "orders", "--yes", *args)
    assert r.code == 1 and f"group 'ghost' does not exist on {location}" in r.err


def test_a_busy_group_of_another_protocol_is_refused_whole(cli, target):
    args, _ = target
    r = cli("group", "offsets", "delete", "connect-app", "--topic", "invoices", "--yes", *args)
    assert r.code == 1
    assert "cannot delete offsets: group 'connect-app' is CompletingRebalance" in r.err and "worker-0" in r.err
    assert _offsets(cli, args, "connect-app") == {"invoices-0": 3}


def test_dry_run_and_confirmation(cli_input, target):
    args, location = target
    r = cli_input("group", "offsets", "delete", "billing", "--topic", "invoices", "--dry-run", *args, "-o", "json")
    assert r.code == 0, r.err
    assert _items(r) == [("invoices", 0, 500, "would-delete")]
    assert json.loads(r.out)["items"][0]["dryRun"] is True
    assert "dry run: no offset of group 'billing' was deleted" in r.err
    r = cli_input("group", "offsets", "delete", "billing", "--topic", "invoices", *args, tty=False)
    assert r.code == 2 and "pass --yes" in r.err
    r = cli_input("group", "offsets", "delete", "billing", "--topic", "invoices", *args, input="n\n", tty=True)
    assert r.code == 1 and f"Delete 1 committed offset of group 'billing' on {location}?" in r.err
    assert _offsets(cli_input, args, "billing") == {"invoices-0": 500, "refunds-1": 9}
    r = cli_input("group", "offsets", "delete", "billing", "--topic", "invoices", *args, input="y\n", tty=True)
    assert r.code == 0, r.err
    assert r.out.split()[:9] == ["TOPIC", "PARTITION", "OFFSET", "RESULT", "invoices", "0", "500", "deleted"][:9]
    assert _offsets(cli_input, args, "billing") == {"refunds-1": 9}


@pytest.mark.parametrize(("value", "message"), [
    ("orders:a", "partitions must be numbers"),
    ("orders:", "give partitions as non-negative numbers"),
    (":1", "no topic name"),
])
def test_bad_topic_values_are_usage_errors(cli, target, value, message):
    args, _ = target
    r = cli("group", "offsets", "delete", "billing", "--topic", value, "--yes", *args)
    assert r.code == 2 and message in r.err


def test_kafka_admin_clients_agree(cli, serve, template, tmp_path):
    """confluent-kafka's Python AdminClient has no delete_consumer_group_offsets, so kafka-python's
    KafkaAdminClient sends the OffsetDelete; confluent-kafka reads the offsets back."""
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    served = serve(directory, "serve")
    peer = KafkaAdminClient(bootstrap_servers=served.location, request_timeout_ms=int(WAIT_S * 1000))
    try:
        answer = peer.delete_group_offsets("payments-app", [KafkaPartition("refunds", 0),
                                                            KafkaPartition("payments", 1)])
        assert answer == {KafkaPartition("refunds", 0): NoError,
                          KafkaPartition("payments", 1): GroupSubscribedToTopicError}
        assert peer.delete_group_offsets("billing", [KafkaPartition("invoices", 0)]) == {
            KafkaPartition("invoices", 0): NoError}
    finally:
        peer.close()
    assert _offsets(cli, served.args, "payments-app") == {"payments-0": 40, "payments-1": 40, "refunds-1": 12}
    r = cli("group", "offsets", "delete", "billing", "--topic", "refunds", "--yes", *served.args, "-o", "json")
    assert _items(r) == [("refunds", 1, 9, "deleted")]
    admin = AdminClient({"bootstrap.servers": served.location})
    (listed,) = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions("billing")]).values()
    assert listed.result(timeout=WAIT_S).topic_partitions == []


def _rules(out: str) -> list[str]:
    return sorted(f["rule"] for f in json.loads(out)["items"][0]["findings"])


def test_dump_audit_finds_nothing_in_admin_deletions(cli, template, tmp_path):
    """Offsets an admin deleted (and offsets recommitted after that) are not findings; a group deleted and
    then committed to again still is (recommitted-after-delete)."""
    directory = tmp_path / "dir"
    shutil.copytree(template, directory)
    args = ("--local", str(directory))
    log = str(directory / "__consumer_offsets-0")
    before = cli("dump", "audit", log, "-o", "json")
    assert before.code == 0, before.err
    for group, topics in (("orders-app", ["old-orders"]), ("payments-app", ["refunds"]),
                          ("billing", ["invoices", "refunds"])):  # billing is left with no offset at all
        assert cli("group", "offsets", "delete", group, *[f"--topic={t}" for t in topics], "--yes", *args).code == 0
    with LocalBackend(directory) as b:
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 2)])
    after = cli("dump", "audit", log, "-o", "json")
    assert after.code == 0, after.err
    assert _rules(after.out) == _rules(before.out)
    assert cli("group", "delete", "billing", "--yes", *args).code == 0
    with LocalBackend(directory) as b:
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 4)])
    again = cli("dump", "audit", log, "-o", "json")
    assert _rules(again.out) == [*_rules(before.out), "recommitted-after-delete"]
