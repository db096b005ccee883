"""`group describe` and `group list` on consumer groups in online migration (classic-protocol members
inside a KIP-848 group), on the local backend and through `groupctl serve` (the Kafka backend).

The groups are written from records (tests/mixed_groups.py): an upgrading group (2 classic members, 1
consumer-protocol member), a downgrading one (3 classic), Kafka 4.0's oracle-mixed, a consumer group
that is not migrating, and a simple (classic) group with offsets only.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition
from tests.fake_broker import NO_REPLY
from tests.mixed_groups import ORACLE_CLASSIC, ORACLE_CONSUMER, write_groups
from tests.server.waits import promptly

MIGRATION = {"legacy-app": "downgrading (3 classic)", "oracle-mixed": "upgrading (1 classic, 1 consumer)",
             "orders-app": "upgrading (2 classic, 1 consumer)", "payments-app": "-", "billing": "-"}
MIXED = {"billing": "-", "legacy-app": "yes", "oracle-mixed": "yes", "orders-app": "yes", "payments-app": "-"}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = write_groups(tmp_path_factory.mktemp("mixed") / "local")
    with LocalBackend(directory) as b:
        b.coordinator.create_topic("invoices", 1)
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 5)])
    return directory


@pytest.fixture(params=("local", "serve"))
def cluster(request: pytest.FixtureRequest, template: Path, tmp_path: Path) -> tuple[str, ...]:
    """The command-line arguments selecting the groups: `--local DIR`, or `-b` to a serve over a copy."""
    if request.param == "local":
        return ("--local", str(template))
    shutil.copytree(template, tmp_path / "served")
    return request.getfixturevalue("serve")(tmp_path / "served", "serve").args


def _rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line.strip()]


def _items(cli: Any, *args: str) -> list[dict]:
    r = cli(*args, "-o", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)["items"]


def test_classic_members_of_a_consumer_group_show_classic_and_upgraded_false(cli, cluster):
    r = cli("group", "describe", "orders-app", "oracle-mixed", "--members", *cluster)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0][5] == "PROTOCOL" and "UPGRADED" not in rows[0]
    protocols = {row[1]: row[5] for row in rows[1:]}
    assert protocols == {"orders-0-3a4d": "classic", "orders-1-7c2e": "classic", "kXq0rV3mT2a8w1yZp9LbCg": "consumer",
                         ORACLE_CLASSIC: "classic", ORACLE_CONSUMER: "consumer"}
    verbose = _rows(cli("group", "describe", "orders-app", "oracle-mixed", "--members", "--verbose", *cluster).out)
    assert verbose[0][-1] == "UPGRADED"
    assert {row[1]: row[-1] for row in verbose[1:]} == {
        m: "true" if p == "consumer" else "false" for m, p in protocols.items()}
    items = _items(cli, "group", "describe", "orders-app", "--members", *cluster)
    assert sorted((m["protocol"], m["upgraded"]) for m in items[0]["members"]) == [
        ("classic", False), ("classic", False), ("consumer", True)]


def test_the_state_view_says_which_way_each_group_migrates(cli, cluster):
    r = cli("group", "describe", "--all", "--state", *cluster)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split()[-2:] == ["CONVERGED", "MIGRATION"]
    start = lines[0].index("MIGRATION")
    assert {line.split()[0]: line[start:] for line in lines[1:]} == MIGRATION
    items = {i["groupId"]: i for i in _items(cli, "group", "describe", "--all", "--state", *cluster)}
    assert {g: (i["mixed"], i["migration"], i["classicMembers"], i["consumerMembers"]) for g, i in items.items()} == {
        "billing": (False, None, 0, 0), "legacy-app": (True, "downgrading", 3, 0),
        "oracle-mixed": (True, "upgrading", 1, 1), "orders-app": (True, "upgrading", 2, 1),
        "payments-app": (False, None, 0, 2)}


def test_list_wide_says_which_consumer_groups_are_mixed(cli, cluster):
    r = cli("group", "list", *cluster, "-o", "wide")
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0][-1] == "MIXED"
    assert {row[0]: row[-1] for row in rows[1:]} == MIXED
    local = cluster[0] == "--local"
    # JSON is not wide: a cluster's consumer groups are not described for it, so their `mixed` is unknown.
    assert {i["groupId"]: i["mixed"] for i in _items(cli, "group", "list", *cluster)} == {
        "billing": False, **{g: (m == "yes") if local else None for g, m in MIXED.items() if g != "billing"}}


def test_a_failed_describe_leaves_mixed_empty_and_the_listing_stands(cli, fake_cluster):
    (broker,) = fake_cluster()
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [
        {"groupId": g, "protocolType": "consumer", "groupState": "Stable", "groupType": t}
        for g, t in (("old", "classic"), ("upgrading", "consumer"))]})
    broker.on(69, lambda r, s: NO_REPLY)
    with promptly("the listing's 1 s --timeout, not the 30 s default"):
        r = cli("group", "list", "-b", broker.address, "--timeout", "1s", "-o", "wide")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[1].split() == ["old", "classic", "Stable", "consumer", "-", "-"]
    assert lines[2].split() == ["upgrading", "consumer", "Stable", "consumer", "-"]  # MIXED left blank
    assert lines[2].endswith(" ")
    assert "whether the consumer groups are mixed is unknown (MIXED left empty)" in r.err
