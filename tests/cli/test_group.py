"""`groupctl group` on the local backend: list, describe, remove-members, config get/set/unset.

One DIR is built per module (a classic group with static members and a dynamic one, a KIP-848 group
with static members, a simple group with offsets only, a config override); tests that change it
work on a copy.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
import yaml

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.classic import COMPLETING_REBALANCE, STABLE, JoinGroupRequest, SyncGroupRequest
from groupctl.coordinator.consumer import HeartbeatRequest
from groupctl.coordinator.offsets import CommitPartition
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription

FORMATS = ("table", "wide", "json", "yaml", "csv")


def _classic_group(b: LocalBackend, group: str, topic: str, partitions: int, members: list[str | None]) -> dict:
    """Classic consumers (an instance id each, or None for a dynamic one) joined, synced, Stable.

    Returns instance id (or "dynamic-N") -> member id.
    """
    c = b.coordinator
    subscription = encode_subscription({"topics": [topic], "userData": None}, 0)
    ids: dict[str, str] = {}
    responses: dict[str, list] = {}

    def answered(name: str):
        def respond(response) -> None:
            responses[name].append(response)
            if response.member_id:
                ids[name] = response.member_id
        return respond

    for n, instance in enumerate(members):
        name = instance or f"dynamic-{n}"
        responses[name] = []
        for _ in range(2):  # a dynamic member first gets MEMBER_ID_REQUIRED, then joins with that id
            c.join_group(JoinGroupRequest(group, 10_000, 30_000, ids.get(name, ""), instance,
                                          protocols=[("range", subscription)], client_id=f"app-{name}",
                                          client_host=f"/10.0.0.{n + 1}"), answered(name))
            if not responses[name] or responses[name][-1].error_code == 0:
                break
    state = c.classic.groups[group]
    for _ in range(40):
        if state.state == COMPLETING_REBALANCE:
            break
        c.advance(1000)
    assert state.state == COMPLETING_REBALANCE
    joined = [r[-1] for r in responses.values() if r and r[-1].error_code == 0]
    leader_response = next(r for r in joined if r.members)
    order = [m[0] for m in leader_response.members]
    assignments = []
    for i, member_id in enumerate(order):
        mine = [p for p in range(partitions) if p % len(order) == i]
        assignments.append((member_id, encode_assignment(
            {"assignedPartitions": [{"topic": topic, "partitions": mine}], "userData": None}, 0)))
    by_member = {v: k for k, v in ids.items()}
    for member_id in sorted(order, key=lambda m: m == state.leader):  # the leader syncs last
        instance = by_member[member_id]
        c.sync_group(SyncGroupRequest(group, state.generation, member_id, None if instance.startswith("dynamic-")
                                      else instance, assignments=assignments if member_id == state.leader else []),
                     lambda r: None)
    assert state.state == STABLE
    for p in range(partitions):
        owner = order[p % len(order)]
        instance = by_member[owner]
        c.commit_offsets(group, owner, state.generation, [CommitPartition(topic, p, 100 + p)],
                         instance_id=None if instance.startswith("dynamic-") else instance)
    return ids


def _consumer_group(b: LocalBackend, group: str, topic: str, instances: list[str]) -> None:
    """KIP-848 members, each acknowledging what it gets, heartbeating until the group is Stable."""
    c = b.coordinator
    topic_id = b.topics.get(topic).topic_id
    owned: dict[str, tuple[int, list]] = {}
    for instance in instances:
        r = c.heartbeat(HeartbeatRequest(group, f"member-{instance}", 0, instance_id=instance,
                                         rebalance_timeout_ms=30_000, subscribed_topic_names=[topic],
                                         topic_partitions=[], client_id=f"app-{instance}"))
        assert r.error_code == 0, r
        owned[f"member-{instance}"] = (r.member_epoch, sorted((r.assignment or {}).items()))
    for _ in range(10):
        if c.describe(group).state == "Stable":
            break
        for member_id, (epoch, parts) in list(owned.items()):
            r = c.heartbeat(HeartbeatRequest(group, member_id, epoch, topic_partitions=parts,
                                             client_id=member_id.replace("member-", "app-")))
            assert r.error_code == 0, r
            owned[member_id] = (r.member_epoch, sorted(r.assignment.items()) if r.assignment is not None else parts)
    assert c.describe(group).state == "Stable"
    for member_id, (epoch, parts) in owned.items():
        commits = [CommitPartition(topic, p, 40) for t, ps in parts if t == topic_id for p in ps]
        c.commit_offsets(group, member_id, epoch, commits)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("group") / "local"
    with LocalBackend(directory, create=True) as b:
        b.coordinator.create_topic("orders", 6)
        b.coordinator.create_topic("payments", 4)
        b.coordinator.create_topic("invoices", 1)
        b.end_offsets_by_topic.update(orders=[150] * 6, payments=[50] * 4, invoices=[900])
        _classic_group(b, "orders-app", "orders", 6, ["orders-0", "orders-1", "orders-2", None])
        _consumer_group(b, "payments-app", "payments", ["pod-0", "pod-1", "pod-2"])
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 500)])
        b.alter_config("payments-app", {"consumer.session.timeout.ms": "50000"}, [])
    return directory


@pytest.fixture
def local(template: Path, tmp_path: Path) -> Path:
    """A copy of the module's DIR that a test may change."""
    shutil.copytree(template, tmp_path / "local")
    return tmp_path / "local"


def _rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line.strip()]


def _items(cli, *args: str, kind: str) -> list[dict]:
    r = cli(*args, "-o", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", kind)
    return doc["items"]


# -- cluster selection --------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("group", "list"),
    ("group", "describe", "g"),
    ("group", "remove-members", "g", "--instance-id", "a", "--yes"),
    ("group", "config", "get", "g"),
    ("group", "config", "set", "g", "consumer.session.timeout.ms=50000"),
    ("group", "config", "unset", "g", "consumer.session.timeout.ms"),
])
def test_no_cluster_selected_is_a_usage_error_naming_both_options(cli, monkeypatch, args):
    monkeypatch.delenv("GROUPCTL_LOCAL", raising=False)
    r = cli(*args)
    assert r.code == 2
    assert "--local DIR" in r.err and "--bootstrap-server" in r.err and "not available yet" in r.err
    assert "Traceback" not in r.err and r.out == ""


def test_local_from_the_environment(cli, monkeypatch, template):
    monkeypatch.setenv("GROUPCTL_LOCAL", str(template))
    r = cli("group", "list")
    assert r.code == 0 and "orders-app" in r.out


def test_a_directory_without_a_coordinator(cli, tmp_path):
    r = cli("group", "list", "--local", str(tmp_path))
    assert r.code == 1 and "holds no local coordinator" in r.err


def test_notices_of_the_backend_go_to_stderr(cli, local):
    segment = next((local / "__consumer_offsets-0").glob("*.log"))
    segment.write_bytes(segment.read_bytes() + b"\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00")  # a torn last batch
    r = cli("group", "list", "--local", str(local))
    assert r.code == 0, r.err
    assert r.err.startswith("groupctl: note: ") and "torn last batch" in r.err
    assert "orders-app" in r.out


# -- group list -----------------------------------------------------------------------------------------


def test_list(cli, template):
    r = cli("group", "list", "--local", str(template))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "TYPE", "STATE"]
    assert rows[1:] == [["billing", "classic", "Empty"], ["orders-app", "classic", "Stable"],
                        ["payments-app", "consumer", "Stable"]]
    wide = _rows(cli("group", "list", "--local", str(template), "-o", "wide").out)
    assert wide[0] == ["GROUP", "TYPE", "STATE", "PROTOCOL", "MEMBERS"]
    assert wide[1:] == [["billing", "classic", "Empty", "-", "0"], ["orders-app", "classic", "Stable", "consumer", "4"],
                        ["payments-app", "consumer", "Stable", "consumer", "3"]]


def test_list_every_format(cli, template, checks):
    checks.every_format(("group", "list", "--local", str(template)), "GroupList",
                   ["GROUP", "TYPE", "STATE"], ["PROTOCOL", "MEMBERS"])
    items = _items(cli, "group", "list", "--local", str(template), kind="GroupList")
    assert items[2] == {"groupId": "payments-app", "type": "consumer", "state": "Stable",
                        "protocolType": "consumer", "members": 3}
    r = cli("-o", "csv", "group", "list", "--local", str(template))  # the global -o
    assert r.out.splitlines()[0] == "group,type,state,protocol,members"


def test_list_filters_are_case_insensitive(cli, template):
    def groups(*args: str) -> list[str]:
        return [i["groupId"] for i in _items(cli, "group", "list", "--local", str(template), *args, kind="GroupList")]

    assert groups("--type", "CONSUMER") == ["payments-app"]
    assert groups("--type", "classic,consumer", "--state", "stable") == ["orders-app", "payments-app"]
    assert groups("--state", "empty", "--state", "Assigning") == ["billing"]
    assert groups("--type", "share,streams") == []


@pytest.mark.parametrize(("args", "message"), [
    (("--type", "classic,cosumer"), "unknown type 'cosumer' in --type; valid types (any case): classic, consumer, "
                                    "share, streams"),
    (("--state", "Rebalancing"), "unknown state 'Rebalancing' in --state; valid states (any case): Empty, "
                                 "PreparingRebalance, CompletingRebalance, Stable, Dead, Assigning, Reconciling"),
])
def test_list_rejects_unknown_types_and_states(cli, template, args, message):
    r = cli("group", "list", "--local", str(template), *args)
    assert r.code == 2 and message in r.err


# -- group describe -------------------------------------------------------------------------------------


def test_describe_offsets_is_the_default(cli, template):
    r = cli("group", "describe", "orders-app", "--local", str(template))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID",
                       "HOST", "CLIENT-ID"]
    assert [row[:6] for row in rows[1:]] == [["orders-app", "orders", str(p), str(100 + p), "150", str(50 - p)]
                                             for p in range(6)]
    assert rows[1:] == _rows(cli("group", "describe", "orders-app", "--offsets", "--local", str(template)).out)[1:]


def test_describe_members(cli, template):
    r = cli("group", "describe", "payments-app", "--members", "--local", str(template))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "PROTOCOL", "MEMBER-EPOCH",
                       "#PARTITIONS"]
    assert sorted(row[2] for row in rows[1:]) == ["pod-0", "pod-1", "pod-2"]
    assert {row[5] for row in rows[1:]} == {"consumer"}
    assert sum(int(row[7]) for row in rows[1:]) == 4
    verbose = cli("group", "describe", "payments-app", "--members", "--verbose", "--local", str(template))
    head = verbose.out.splitlines()[0].split()
    assert head[-4:] == ["CURRENT-ASSIGNMENT", "TARGET-ASSIGNMENT", "PENDING-REVOCATION", "SUBSCRIPTION"]
    assert "payments:" in verbose.out
    assert verbose.out == cli("group", "describe", "payments-app", "--members", "-o", "wide",
                              "--local", str(template)).out


def test_describe_state(cli, template):
    r = cli("group", "describe", "--all", "--state", "--local", str(template))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "COORDINATOR", "(ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH",
                       "ASSIGNMENT-EPOCH", "#MEMBERS", "CONVERGED"]
    by_group = {row[0]: row for row in rows[1:]}
    assert set(by_group) == {"billing", "orders-app", "payments-app"}
    assert by_group["orders-app"][3:] == ["range", "Stable", "1", "-", "4", "yes"]
    assert by_group["payments-app"][3:6] == ["uniform", "Stable", by_group["payments-app"][6]]
    assert by_group["payments-app"][7:] == ["3", "yes"]
    assert by_group["orders-app"][1] == str(template)


def test_describe_every_format_and_view(cli, template, checks):
    base = ("group", "describe", "orders-app", "payments-app", "--local", str(template))
    checks.every_format((*base, "--offsets"), "GroupDescription", ["CURRENT-OFFSET", "LAG"], ["LEADER-EPOCH"])
    checks.every_format((*base, "--members"), "GroupDescription", ["MEMBER-EPOCH"], ["TARGET-ASSIGNMENT"])
    checks.every_format((*base, "--state"), "GroupDescription", ["GROUP-EPOCH", "CONVERGED"], ["TYPE"])
    items = _items(cli, *base, kind="GroupDescription")
    assert [(i["groupId"], i["type"], i["converged"]) for i in items] == [("orders-app", "classic", True),
                                                                          ("payments-app", "consumer", True)]
    orders = items[0]
    assert sorted(m["instanceId"] or "-" for m in orders["members"]) == ["-", "orders-0", "orders-1", "orders-2"]
    assert [o["logEndOffset"] for o in orders["offsets"]] == [150] * 6


def test_describe_all_narrowed_by_type(cli, template):
    items = _items(cli, "group", "describe", "--all", "--type", "consumer", "--local", str(template),
                   kind="GroupDescription")
    assert [i["groupId"] for i in items] == ["payments-app"]


def test_describe_empty_group_notes_it(cli, template):
    r = cli("group", "describe", "billing", "--local", str(template))
    assert r.code == 0
    assert _rows(r.out)[1][:6] == ["billing", "invoices", "0", "500", "900", "400"]
    assert "group 'billing' has no active members" in r.err


def test_describe_unknown_group(cli, template):
    r = cli("group", "describe", "nope", "--local", str(template))
    assert r.code == 1
    assert r.err.strip() == f"groupctl: error: group 'nope' does not exist on local {template}"
    r = cli("group", "describe", "orders-app", "nope", "--state", "--local", str(template))
    assert r.code == 3 and "orders-app" in r.out
    assert f"group 'nope' does not exist on local {template}" in r.err
    r = cli("group", "describe", "nope", "nada", "--local", str(template), "-o", "json")
    assert r.code == 1 and json.loads(r.out)["items"] == []


@pytest.mark.parametrize(("args", "message"), [
    (("orders-app", "--members", "--state"), "only one of --members, --offsets and --state"),
    (("orders-app", "--all"), "not both"),
    ((), "name the groups to describe, or pass --all"),
    (("orders-app", "--type", "classic"), "--type narrows --all"),
    (("--all", "--type", "nope"), "unknown type 'nope'"),
])
def test_describe_usage_errors(cli, template, args, message):
    r = cli("group", "describe", *args, "--local", str(template))
    assert r.code == 2 and message in r.err


# -- group remove-members -------------------------------------------------------------------------------


def _members(cli, local: Path, group: str) -> list[str]:
    (item,) = _items(cli, "group", "describe", group, "--local", str(local), kind="GroupDescription")
    return sorted(m["instanceId"] or m["memberId"] for m in item["members"])


def test_remove_static_members_of_a_consumer_group(cli, local):
    r = cli("group", "remove-members", "payments-app", "--instance-id", "pod-1,pod-2", "--yes", "--local", str(local))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["INSTANCE-ID", "MEMBER-ID", "RESULT", "PARTITIONS"]
    assert [row[:3] for row in rows[1:]] == [["pod-1", "member-pod-1", "removed"], ["pod-2", "member-pod-2", "removed"]]
    assert all(row[3].startswith("payments:") for row in rows[1:])
    assert "members to remove" in r.err and "pod-1" in r.err  # the plan, shown before the removal
    assert _members(cli, local, "payments-app") == ["pod-0"]


def test_remove_members_of_a_classic_group_by_instance_and_member_id(cli, local):
    (item,) = _items(cli, "group", "describe", "orders-app", "--local", str(local), kind="GroupDescription")
    dynamic = next(m["memberId"] for m in item["members"] if m["instanceId"] is None)
    items = _items(cli, "group", "remove-members", "orders-app", "-i", "orders-2", "--member-id", dynamic, "--yes",
                   "--local", str(local), kind="MemberRemoval")
    assert [(i["instanceId"], i["memberId"], i["outcome"], i["removed"]) for i in items] == [
        ("orders-2", items[0]["memberId"], "removed", True), (None, dynamic, "removed", True)]
    assert items[0]["memberId"].startswith("orders-2-")
    assert items[0]["partitions"] and {tp["topic"] for tp in items[0]["partitions"]} == {"orders"}


def test_a_kip848_member_cannot_be_named_by_member_id(cli, local):
    args = ("group", "remove-members", "payments-app", "--member-id", "member-pod-0", "--yes", "--local", str(local))
    (planned,) = _items(cli, *args, "--dry-run", kind="MemberRemoval")
    assert planned["outcome"] == "UNKNOWN_MEMBER_ID" and "--instance-id" in planned["message"]
    r = cli(*args, "-o", "json")
    assert r.code == 3
    (result,) = json.loads(r.out)["items"]
    assert (result["outcome"], result["message"]) == ("UNKNOWN_MEMBER_ID",
                                                      "Member member-pod-0 does not use the classic protocol.")


def test_classic_removal_is_seen_by_the_next_invocation(cli, local):
    assert cli("group", "remove-members", "orders-app", "-i", "orders-2", "--yes", "--local", str(local)).code == 0
    assert "orders-2" not in _members(cli, local, "orders-app")


def test_unknown_instance_id_is_a_partial_failure_with_its_row(cli, local):
    r = cli("group", "remove-members", "payments-app", "-i", "pod-0", "-i", "pod-9", "--yes", "--reason", "scale to 2",
            "--local", str(local))
    assert r.code == 3
    rows = _rows(r.out)
    assert rows[1][:3] == ["pod-0", "member-pod-0", "removed"]
    assert rows[2] == ["pod-9", "-", "UNKNOWN_MEMBER_ID", "-"]
    assert "1 of 2 members were not removed from group 'payments-app'" in r.err
    wide = cli("group", "remove-members", "payments-app", "-i", "pod-9", "--yes", "-o", "wide", "--local", str(local))
    assert wide.code == 3 and "Instance id pod-9 is unknown." in wide.out


def test_remove_members_every_format(cli, local):
    for n, fmt in enumerate(FORMATS):
        r = cli("group", "remove-members", "orders-app", "-i", f"orders-{n % 3}", "-i", "ghost", "--yes", "-o", fmt,
                "--local", str(local))
        assert r.code == 3, (fmt, r.err)
        if fmt in ("table", "wide"):
            assert "UNKNOWN_MEMBER_ID" in r.out and ("MESSAGE" in r.out) == (fmt == "wide")
        elif fmt in ("json", "yaml"):
            doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
            assert doc["kind"] == "MemberRemoval" and doc["items"][1]["outcome"] == "UNKNOWN_MEMBER_ID"
        else:
            rows = list(csv.reader(io.StringIO(r.out)))
            assert rows[0] == ["instanceId", "memberId", "result", "partitions", "message"]
            assert rows[2][:3] == ["ghost", "", "UNKNOWN_MEMBER_ID"]


def test_dry_run_shows_the_plan_and_changes_nothing(cli, local):
    r = cli("group", "remove-members", "payments-app", "-i", "pod-0,pod-9", "--dry-run", "--local", str(local))
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[1][:3] == ["pod-0", "member-pod-0", "would-remove"] and rows[1][3].startswith("payments:")
    assert rows[2][:3] == ["pod-9", "-", "UNKNOWN_MEMBER_ID"]
    assert "dry run: nothing was removed" in r.err
    items = _items(cli, "group", "remove-members", "payments-app", "-i", "pod-0", "--dry-run", "--local", str(local),
                   kind="MemberRemoval")
    assert items[0]["dryRun"] is True and items[0]["removed"] is False
    assert _members(cli, local, "payments-app") == ["pod-0", "pod-1", "pod-2"]


def test_from_file_with_comments_duplicates_and_stdin(cli_input, local, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("# scaled down from 3 to 1\npod-1\n\npod-2   # last one\npod-1\n")
    r = cli_input("group", "remove-members", "payments-app", "--from-file", str(ids), "-i", "pod-2", "--dry-run",
                  "--local", str(local))
    assert r.code == 0, r.err
    assert [row[0] for row in _rows(r.out)[1:]] == ["pod-2", "pod-1"]  # options first, then the file; each once
    r = cli_input("group", "remove-members", "payments-app", "--from-file", "-", "--yes", "--local", str(local),
                  input="pod-1\npod-2\n")
    assert r.code == 0, r.err
    assert _members(cli_input, local, "payments-app") == ["pod-0"]


def test_confirmation_on_a_terminal(cli_input, local):
    args = ("group", "remove-members", "payments-app", "-i", "pod-1", "--local", str(local))
    r = cli_input(*args, input="n\n", tty=True)
    assert r.code == 1 and "Remove 1 member(s) from group 'payments-app'" in r.err
    assert "not confirmed: nothing was removed" in r.err and r.out == ""
    assert _members(cli_input, local, "payments-app") == ["pod-0", "pod-1", "pod-2"]
    r = cli_input(*args, input="yes\n", tty=True)
    assert r.code == 0, r.err
    assert _rows(r.out)[1][:3] == ["pod-1", "member-pod-1", "removed"]
    assert _members(cli_input, local, "payments-app") == ["pod-0", "pod-2"]


def test_no_terminal_and_no_yes_is_refused(cli_input, local):
    r = cli_input("group", "remove-members", "payments-app", "-i", "pod-1", "--local", str(local), tty=False)
    assert r.code == 2 and "pass --yes" in r.err
    r = cli_input("group", "remove-members", "payments-app", "--from-file", "-", "--local", str(local), tty=True)
    assert r.code == 2 and "pass --yes" in r.err
    assert _members(cli_input, local, "payments-app") == ["pod-0", "pod-1", "pod-2"]


@pytest.mark.parametrize(("args", "code", "message"), [
    (("nope", "-i", "a", "--yes"), 1, "group 'nope' does not exist on local "),
    (("payments-app", "--yes"), 2, "name the members to remove"),
    (("payments-app", "-i", "pod 1", "--yes"), 2, "'pod 1' is not a group.instance.id"),
    (("payments-app", "--from-file", "missing.txt", "--yes"), 2, "instance-id file 'missing.txt' does not exist"),
])
def test_remove_members_errors_change_nothing(cli, local, args, code, message):
    r = cli("group", "remove-members", *args, "--local", str(local))
    assert r.code == code and message in r.err
    assert _members(cli, local, "payments-app") == ["pod-0", "pod-1", "pod-2"]


def test_bad_line_in_the_file_names_it(cli, local, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("pod-1\npod-2 pod-3\n")
    r = cli("group", "remove-members", "payments-app", "-f", str(ids), "--yes", "--local", str(local))
    assert r.code == 2 and f"{ids}, line 2: 'pod-2 pod-3' is not a group.instance.id" in r.err
    assert _members(cli, local, "payments-app") == ["pod-0", "pod-1", "pod-2"]


# -- group config ---------------------------------------------------------------------------------------


def test_config_get(cli, template):
    r = cli("group", "config", "get", "payments-app", "consumer.session.timeout.ms", "consumer.heartbeat.interval.ms",
            "--local", str(template))
    assert r.code == 0, r.err
    assert _rows(r.out) == [["NAME", "VALUE", "DEFAULT", "SOURCE"],
                            ["consumer.session.timeout.ms", "50000", "45000", "GROUP_CONFIG"],
                            ["consumer.heartbeat.interval.ms", "5000", "5000", "DEFAULT_CONFIG"]]
    wide = _rows(cli("group", "config", "get", "payments-app", "consumer.session.timeout.ms", "-o", "wide",
                     "--local", str(template)).out)
    assert wide == [["NAME", "VALUE", "DEFAULT", "SOURCE", "MIN", "MIN-CONFIG", "MAX", "MAX-CONFIG"],
                    ["consumer.session.timeout.ms", "50000", "45000", "GROUP_CONFIG", "45000",
                     "group.consumer.min.session.timeout.ms", "60000", "group.consumer.max.session.timeout.ms"]]
    everything = _items(cli, "group", "config", "get", "orders-app", "--local", str(template), kind="GroupConfig")
    assert "share.isolation.level" in {i["name"] for i in everything}


def test_config_get_every_format(cli, template, checks):
    checks.every_format(("group", "config", "get", "payments-app", "--local", str(template)), "GroupConfig",
                   ["NAME", "VALUE", "DEFAULT", "SOURCE"], ["MIN-CONFIG", "MAX-CONFIG"])
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.session.timeout.ms",
                     "--local", str(template), kind="GroupConfig")
    assert item == {"group": "payments-app", "name": "consumer.session.timeout.ms", "value": 50000, "default": 45000,
                    "source": "GROUP_CONFIG", "minimum": 45000, "maximum": 60000,
                    "minimumName": "group.consumer.min.session.timeout.ms",
                    "maximumName": "group.consumer.max.session.timeout.ms"}


def test_config_get_unknown_name(cli, template):
    r = cli("group", "config", "get", "payments-app", "session.timeout.ms", "--local", str(template))
    assert r.code == 1 and "Unknown group config name: session.timeout.ms" in r.err
    assert "consumer.session.timeout.ms" in r.err  # the names that exist


def test_config_set_and_unset(cli, local):
    r = cli("group", "config", "set", "orders-app", "consumer.session.timeout.ms=55000",
            "consumer.heartbeat.interval.ms=6000", "--local", str(local))
    assert r.code == 0, r.err
    assert _rows(r.out) == [["NAME", "ACTION", "OLD-VALUE", "NEW-VALUE"],
                            ["consumer.session.timeout.ms", "set", "45000", "55000"],
                            ["consumer.heartbeat.interval.ms", "set", "5000", "6000"]]
    (item,) = _items(cli, "group", "config", "get", "orders-app", "consumer.heartbeat.interval.ms",
                     "--local", str(local), kind="GroupConfig")
    assert (item["value"], item["source"]) == (6000, "GROUP_CONFIG")
    items = _items(cli, "group", "config", "unset", "orders-app", "consumer.heartbeat.interval.ms",
                   "--local", str(local), kind="GroupConfigChange")
    assert items == [{"group": "orders-app", "name": "consumer.heartbeat.interval.ms", "action": "unset",
                      "oldValue": 6000, "newValue": 5000, "source": "DEFAULT_CONFIG", "dryRun": False}]


def test_config_set_dry_run_validates_and_changes_nothing(cli, local):
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=60000", "--dry-run",
            "--local", str(local))
    assert r.code == 0, r.err
    assert _rows(r.out)[1] == ["consumer.session.timeout.ms", "would-set", "50000", "60000"]
    assert "dry run: validated, nothing was changed" in r.err
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=70000", "--dry-run",
            "--local", str(local))
    assert r.code == 1 and "must be less than or equal to group.consumer.max.session.timeout.ms" in r.err
    r = cli("group", "config", "unset", "payments-app", "consumer.session.timeout.ms", "--dry-run",
            "--local", str(local))
    assert r.code == 0 and _rows(r.out)[1] == ["consumer.session.timeout.ms", "would-unset", "50000", "45000"]
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.session.timeout.ms",
                     "--local", str(local), kind="GroupConfig")
    assert item["value"] == 50000


def test_config_change_every_format(cli, local):
    for fmt in FORMATS:
        r = cli("group", "config", "set", "orders-app", f"consumer.session.timeout.ms={50000 + len(fmt)}", "-o", fmt,
                "--local", str(local))
        assert r.code == 0, (fmt, r.err)
        if fmt in ("json", "yaml"):
            doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
            assert doc["kind"] == "GroupConfigChange" and doc["items"][0]["newValue"] == 50000 + len(fmt)
        elif fmt == "csv":
            assert r.out.splitlines()[0] == "name,action,oldValue,newValue,source"
        else:
            assert ("SOURCE" in r.out) == (fmt == "wide") and str(50000 + len(fmt)) in r.out


def test_invalid_config_value_gets_kafkas_message_and_nothing_changes(cli, local):
    r = cli("group", "config", "set", "payments-app", "consumer.heartbeat.interval.ms=6000",
            "consumer.session.timeout.ms=1000", "--local", str(local))
    assert r.code == 1
    assert ("consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
            in r.err)
    assert "nothing was changed" in r.err and r.out == ""
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.heartbeat.interval.ms",
                     "--local", str(local), kind="GroupConfig")
    assert item["value"] == 5000  # the valid half of the change was not applied
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=soon", "--local", str(local))
    assert r.code == 1 and "Invalid value soon for configuration consumer.session.timeout.ms" in r.err


def test_config_unknown_names(cli, local):
    r = cli("group", "config", "set", "payments-app", "session.timeout.ms=50000", "--local", str(local))
    assert r.code == 1 and "Unknown group config name: session.timeout.ms" in r.err
    r = cli("group", "config", "unset", "payments-app", "x", "--local", str(local))
    assert r.code == 1 and "Unknown group config name: x" in r.err


@pytest.mark.parametrize(("pair", "message"), [
    ("consumer.session.timeout.ms", "is not KEY=VALUE"),
    ("=5", "is not KEY=VALUE"),
    ("consumer.session.timeout.ms =5", "is not KEY=VALUE"),
    ("consumer.session.timeout.ms=", "has no value"),
])
def test_config_set_parses_key_value_strictly(cli, local, pair, message):
    r = cli("group", "config", "set", "payments-app", pair, "--local", str(local))
    assert r.code == 2 and message in r.err


def test_config_set_same_key_twice(cli, local):
    r = cli("group", "config", "set", "g", "consumer.session.timeout.ms=50000", "consumer.session.timeout.ms=55000",
            "--local", str(local))
    assert r.code == 2 and "given twice" in r.err
