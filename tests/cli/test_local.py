"""`groupctl local`: topics, simulated members and the virtual clock, driven one command at a time.

One DIR is built per module from `local` commands only (a classic group of three static members, a
KIP-848 group of three static members); tests that change it work on a copy.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from groupctl.backends import local_members
from groupctl.cli.local import parse_duration
from groupctl.errors import UsageError
from tests.cli.conftest import run_in


def _ok(result):
    assert result.code == 0, (result.out, result.err)
    return result


def _items(cli, *args: str, kind: str) -> list[dict]:
    doc = json.loads(_ok(cli(*args, "-o", "json")).out)
    assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", kind)
    return doc["items"]


def _state(cli, local: Path) -> dict[str, dict]:
    items = _items(cli, "group", "describe", "classic-app", "kip-app", "--state", "--local", str(local),
                   kind="GroupDescription")
    return {i["groupId"]: i for i in items}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("local") / "lab"

    run = functools.partial(run_in, directory)
    run("local", "topics", "create", "orders", "--partitions", "6", "--messages", "100")
    for i in range(3):
        run("local", "member", "join", f"c{i}", "--group", "classic-app", "--instance-id", f"c{i}", "--topics",
            "orders", "--session-timeout", "10000")
    for i in range(3):
        run("local", "member", "join", f"k{i}", "--group", "kip-app", "--protocol", "consumer", "--instance-id",
            f"k{i}", "--topics", "orders")
    return directory


@pytest.fixture
def local(template: Path, tmp_path: Path) -> Path:
    shutil.copytree(template, tmp_path / "lab")
    return tmp_path / "lab"


# -- the scenario the issue asks for ----------------------------------------------------------------


def test_static_bounces_keep_every_epoch_and_a_crash_past_the_session_timeout_rebalances(cli, local):
    d = str(local)
    before = _state(cli, local)
    assert before["classic-app"]["state"] == before["kip-app"]["state"] == "Stable"
    assert len(before["classic-app"]["members"]) == len(before["kip-app"]["members"]) == 3

    for name in ("c1", "k1"):
        r = _ok(cli("local", "member", "bounce", name, "--down", "5s", "--local", d))
        assert name in r.out and "unchanged" in r.err
    after = _state(cli, local)
    for group in ("classic-app", "kip-app"):
        assert after[group]["groupEpoch"] == before[group]["groupEpoch"]
        assert after[group]["state"] == "Stable" and after[group]["members"][0]["converged"]
        assert {m["instanceId"]: m["assignment"] for m in after[group]["members"]} == \
            {m["instanceId"]: m["assignment"] for m in before[group]["members"]}
    # A static member's restart gives it a new member id, in the same place.
    assert {m["memberId"] for m in after["classic-app"]["members"]} != \
        {m["memberId"] for m in before["classic-app"]["members"]}

    _ok(cli("local", "member", "crash", "c2", "--local", d))
    _ok(cli("local", "member", "crash", "k2", "--local", d))
    assert _state(cli, local) == after | {}  # nothing has happened yet: no time passed
    events = _items(cli, "local", "tick", "60s", "--local", d, kind="LocalEvent")
    removed = {(e["group"], e["member"]) for e in events if e["event"] == "member-removed"}
    assert removed == {("classic-app", "c2"), ("kip-app", "k2")}
    assert all("session timeout expired" in e["detail"] for e in events if e["event"] == "member-removed")
    crashed = _state(cli, local)
    for group in ("classic-app", "kip-app"):
        assert crashed[group]["groupEpoch"] > after[group]["groupEpoch"]
        assert crashed[group]["state"] == "Stable" and len(crashed[group]["members"]) == 2
        partitions = sorted(p["partition"] for m in crashed[group]["members"] for p in m["assignment"])
        assert partitions == list(range(6))


# -- cluster selection ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("local", "topics", "create", "t", "--partitions", "1"),
    ("local", "topics", "list"),
    ("local", "topics", "add-partitions", "t", "--partitions", "2"),
    ("local", "member", "join", "a", "--group", "g", "--topics", "t"),
    ("local", "member", "start", "a"),
    ("local", "member", "heartbeat", "a"),
    ("local", "member", "commit", "a"),
    ("local", "member", "leave", "a"),
    ("local", "member", "bounce", "a"),
    ("local", "member", "crash", "a"),
    ("local", "member", "list"),
    ("local", "tick", "1s"),
])
def test_no_cluster_selected(cli, monkeypatch, args):
    monkeypatch.delenv("GROUPCTL_LOCAL", raising=False)
    r = cli(*args)
    assert r.code == 2 and "--local DIR" in r.err and "--bootstrap-server" in r.err and r.out == ""


@pytest.mark.parametrize("args", [("local", "topics", "list"), ("local", "member", "list"), ("local", "tick", "1s")])
def test_only_topics_create_makes_a_directory(cli, tmp_path, args):
    r = cli(*args, "--local", str(tmp_path / "none"))
    assert r.code == 1 and "holds no local coordinator" in r.err and "local topics create" in r.err
    assert not (tmp_path / "none" / "__consumer_offsets-0").exists()


# -- local topics -----------------------------------------------------------------------------------


def test_topics_create_list_and_grow(cli, tmp_path, monkeypatch, checks):
    d = tmp_path / "new" / "lab"
    monkeypatch.setenv("GROUPCTL_LOCAL", str(d))
    created = _items(cli, "local", "topics", "create", "orders", "-p", "3", "-m", "7", kind="LocalTopic")
    assert d.is_dir() and created[0]["endOffsets"] == [7, 7, 7] and len(created[0]["topicId"]) == 22
    _ok(cli("local", "topics", "create", "payments", "--partitions", "1"))
    _ok(cli("local", "topics", "add-partitions", "orders", "--partitions", "5", "--messages", "2"))
    checks.every_format(("local", "topics", "list"), "LocalTopic", ["NAME", "TOPIC-ID", "PARTITIONS"],
                   ["END-OFFSETS"])
    listed = {t["name"]: t for t in _items(cli, "local", "topics", "list", kind="LocalTopic")}
    assert listed["orders"]["partitions"] == 5 and listed["orders"]["endOffsets"] == [7, 7, 7, 2, 2]
    assert listed["orders"]["topicId"] == created[0]["topicId"] and listed["payments"]["endOffsets"] == [0]
    wide = _ok(cli("local", "topics", "list", "-o", "wide")).out
    assert "7,7,7,2,2" in wide


@pytest.mark.parametrize(("args", "code", "message"), [
    (("create", "orders", "-p", "2"), 1, "TOPIC_ALREADY_EXISTS: Topic 'orders' already exists."),
    (("create", "bad name", "-p", "2"), 2, "INVALID_TOPIC_EXCEPTION: Topic name \"bad name\" is illegal"),
    (("create", "zero", "-p", "0"), 1, "INVALID_PARTITIONS: Number of partitions was set to an invalid"),
    (("create", "huge", "-p", "1000000"), 2, "at most 100000 partitions"),
    (("create", "neg", "-p", "1", "-m", "-1"), 2, "cannot be negative"),
    (("add-partitions", "orders", "-p", "3"), 1, "INVALID_PARTITIONS: Topic currently has 6 partitions, which is "
                                                 "higher than the requested 3."),
    (("add-partitions", "orders", "-p", "6"), 1, "INVALID_PARTITIONS: Topic already has 6 partitions."),
    (("add-partitions", "nope", "-p", "6"), 1, "UNKNOWN_TOPIC_OR_PARTITION: The topic 'nope' does not exist."),
])
def test_topic_errors_are_kafkas(cli, local, args, code, message):
    r = cli("local", "topics", *args, "--local", str(local))
    assert r.code == code and message in r.err, r.err


# -- local member -----------------------------------------------------------------------------------


def test_member_list_in_every_format(cli, local, checks):
    checks.every_format(("local", "member", "list", "--local", str(local)), "LocalMember",
                   ["NAME", "GROUP", "PROTOCOL", "INSTANCE-ID", "STATUS", "MEMBER-ID", "EPOCH", "ASSIGNMENT"],
                   ["CLIENT-STATE", "SUBSCRIPTION", "SESSION-TIMEOUT", "NEXT-HEARTBEAT-IN"])
    items = _items(cli, "local", "member", "list", "--group", "kip-app", "--local", str(local), kind="LocalMember")
    assert [i["name"] for i in items] == ["k0", "k1", "k2"]
    assert all(i["status"] == "running" and i["protocol"] == "consumer" and i["epoch"] == 3 for i in items)
    assert sorted(p["partition"] for i in items for p in i["assignment"]) == list(range(6))
    table = _ok(cli("local", "member", "list", "--local", str(local))).out
    assert "c0    classic-app  classic   c0           running  c0-" in table


def test_join_prints_the_member_and_how_the_group_settled(cli, local):
    d = str(local)
    r = _ok(cli("local", "member", "join", "d0", "--group", "dyn", "--topics", "orders", "--local", d))
    assert r.out.splitlines()[1].split()[:5] == ["d0", "dyn", "classic", "-", "running"]
    assert "orders:0,1,2,3,4,5" in r.out and "settled after" in r.err and "a new group, generation 1" in r.err
    (item,) = _items(cli, "local", "member", "join", "d1", "--group", "dyn", "--topics", "orders", "--local", d,
                     kind="LocalMember")
    assert item["epoch"] == 2 and item["run"]["settled"] and item["run"]["epochBefore"] == 1
    assert {e["event"] for e in item["run"]["events"]} >= {"member-joined", "rebalance", "assignment"}
    r = _ok(cli("local", "member", "join", "r0", "--group", "rx", "--protocol", "consumer", "--regex", "ord.*",
                "--assignor", "range", "--local", d, "-o", "wide"))
    assert "/ord.*/" in r.out and "range" in r.out
    r = _ok(cli("local", "member", "join", "n0", "--group", "later", "--topics", "nope", "--local", d))
    assert "topic 'nope' does not exist" in r.err


@pytest.mark.parametrize(("args", "code", "message"), [
    (("x", "--group", "g"), 2, "either --topics a,b or --regex R"),
    (("x", "--group", "g", "--topics", "orders", "--regex", "o.*"), 2, "either --topics a,b or --regex R"),
    (("x", "--group", "g", "-t", "orders", "--protocol", "consumer", "--session-timeout", "5000"), 2,
     "consumer.session.timeout.ms=MS"),
    (("x", "--group", "g", "-t", "orders", "--session-timeout", "5000"), 2, "INVALID_SESSION_TIMEOUT"),
    (("x", "--group", "g", "-t", "orders", "--assignor", "uniform"), 2, "KIP-848 server-side assignor"),
    (("bad name", "--group", "g", "-t", "orders"), 2, "member name 'bad name'"),
    (("x", "--group", "g", "-t", "orders", "-i", "a b"), 2, "is not a group.instance.id"),
    (("x", "--group", "", "-t", "orders"), 2, "INVALID_GROUP_ID"),
    (("x", "--group", "g", "--regex", "(?<=a)", "--protocol", "consumer"), 2, "INVALID_REGULAR_EXPRESSION"),
    (("x", "--group", "g", "--regex", "("), 2, "is not a valid pattern"),
    (("c0", "--group", "g", "-t", "orders"), 1, "member name 'c0' is already used"),
])
def test_join_errors(cli, local, args, code, message):
    r = cli("local", "member", "join", *args, "--local", str(local))
    assert r.code == code and message in r.err, r.err
    assert "Traceback" not in r.err


def test_a_member_that_stops_on_a_fatal_error_fails_the_command(cli, local):
    r = cli("local", "member", "join", "k9", "--group", "kip-app", "--protocol", "consumer", "-i", "k0", "-t",
            "orders", "--local", str(local))
    assert r.code == 1 and "stopped on an error" in r.err and "UNRELEASED_INSTANCE_ID" in r.err
    assert "failed" in r.out
    items = _items(cli, "local", "member", "list", "-g", "kip-app", "--local", str(local), kind="LocalMember")
    assert {i["name"]: i["status"] for i in items}["k9"] == "failed"


def test_a_group_that_does_not_settle_is_an_error(cli, local, monkeypatch):
    monkeypatch.setattr(local_members, "SETTLE_LIMIT_MS", 1_000)  # below the initial rebalance delay
    r = cli("local", "member", "join", "s0", "--group", "slow", "-t", "orders", "--local", str(local))
    assert r.code == 1 and "did not settle within 1000 ms of virtual time" in r.err and "s0" in r.out


def test_heartbeat(cli, local, checks):
    d = str(local)
    checks.every_format(("local", "member", "heartbeat", "k0", "--local", d), "LocalHeartbeat",
                   ["NAME", "GROUP", "API", "ERROR", "MEMBER-ID", "EPOCH", "ASSIGNMENT"], ["MESSAGE", "INTERVAL-MS"])
    (item,) = _items(cli, "local", "member", "heartbeat", "c0", "--local", d, kind="LocalHeartbeat")
    assert (item["api"], item["error"], item["epoch"]) == ("Heartbeat", "NONE", 3)
    # An admin removal starts a rebalance the members have not heard of yet.
    _ok(cli("group", "remove-members", "classic-app", "--instance-id", "c2", "--yes", "--local", d))
    r = cli("local", "member", "heartbeat", "c0", "--local", d)
    assert r.code == 1 and "REBALANCE_IN_PROGRESS" in r.out and "answered REBALANCE_IN_PROGRESS" in r.err
    _ok(cli("group", "remove-members", "kip-app", "--instance-id", "k2", "--yes", "--local", d))
    r = cli("local", "member", "heartbeat", "k2", "--local", d, "-o", "wide")
    assert r.code == 1 and "UNKNOWN_MEMBER_ID" in r.out and "ConsumerGroupHeartbeat" in r.out
    _ok(cli("local", "member", "crash", "k1", "--local", d))
    r = cli("local", "member", "heartbeat", "k1", "--local", d)
    assert r.code == 1 and "member 'k1' is crashed" in r.err and "local member start k1" in r.err


def test_commit_puts_lag_where_describe_shows_it(cli, local, checks):
    d = str(local)
    checks.every_format(("local", "member", "commit", "c0", "--lag", "10", "--local", d), "LocalCommit",
                   ["TOPIC", "PARTITION", "OFFSET", "LOG-END-OFFSET", "LAG", "RESULT"], [])
    _ok(cli("local", "member", "commit", "c1", "--offset", "40", "--local", d))
    rows = [line.split() for line in _ok(cli("group", "describe", "classic-app", "--local", d)).out.splitlines()[1:]]
    assert {(r[2], r[3], r[4], r[5]) for r in rows if r[3] != "-"} == \
        {("0", "90", "100", "10"), ("1", "90", "100", "10"), ("2", "40", "100", "60"), ("3", "40", "100", "60")}
    assert cli("local", "member", "commit", "c0", "--offset", "1", "--lag", "1", "--local", d).code == 2
    _ok(cli("local", "member", "crash", "c2", "--local", d))
    r = cli("local", "member", "commit", "c2", "--local", d)
    assert r.code == 1 and "cannot commit" in r.err


def test_leave_says_what_the_client_sent(cli, local):
    d = str(local)
    r = _ok(cli("local", "member", "leave", "c2", "--local", d))
    assert "sending nothing (a static classic member stays in the group until its session timeout" in r.err
    assert "stopped" in r.out
    assert len(_state(cli, local)["classic-app"]["members"]) == 3
    r = _ok(cli("local", "member", "leave", "k2", "--local", d, "-o", "yaml"))
    assert "epoch -2" in yaml.safe_load(r.out)["items"][0]["run"]["sent"]
    r = cli("local", "member", "leave", "k2", "--local", d)
    assert r.code == 1 and "member 'k2' is stopped" in r.err
    r = cli("local", "member", "leave", "zz", "--local", d)
    assert r.code == 1 and "no simulated member 'zz'" in r.err
    r = _ok(cli("local", "member", "start", "k2", "--local", d))
    assert "running" in r.out and "group epoch 3, unchanged" in r.err


def test_bounce_and_crash_outputs(cli, local, checks):
    d = str(local)
    (item,) = _items(cli, "local", "member", "bounce", "k0", "--down", "1500ms", "--local", d, kind="LocalMember")
    assert item["run"]["virtualMs"] >= 1500 and item["run"]["epochBefore"] == item["run"]["epochAfter"] == 3
    assert any(e["event"] == "member-replaced" for e in item["run"]["events"])
    for bad, message in (("soon", "is not a duration"), ("20m", "at most 600000 ms")):
        r = cli("local", "member", "bounce", "k0", "--down", bad, "--local", d)
        assert r.code == 2 and message in r.err
    checks.every_format(("local", "member", "crash", "--local", d), "LocalMember", ["STATUS"], ["ERROR"],
                   each=["c0", "c1", "c2", "k1", "k2"])


def test_tick(cli, local):
    d = str(local)
    r = _ok(cli("local", "tick", "2s", "--local", d))
    assert r.out.split() == ["AT", "GROUP", "MEMBER", "EVENT", "DETAIL"] and "nothing changed" in r.err
    assert "2026-01-01T" in r.err
    _ok(cli("local", "member", "crash", "c0", "--local", d))
    _ok(cli("local", "member", "crash", "k0", "--local", d))
    wide = _ok(cli("local", "tick", "12s", "--local", d, "-o", "wide")).out.splitlines()
    assert wide[0].split() == ["AT", "GROUP", "MEMBER", "EVENT", "DETAIL", "TIME"]
    assert any("member-removed" in line and "c0" in line and "2026-01-01T" in line for line in wide[1:])
    assert all(line.split()[0].startswith("+") and line.split()[0].endswith("ms") for line in wide[1:])
    rows = list(csv.DictReader(io.StringIO(_ok(cli("local", "tick", "40s", "--local", d, "-o", "csv")).out)))
    assert {(r["group"], r["member"], r["event"]) for r in rows} >= {("kip-app", "k0", "member-removed"),
                                                                     ("kip-app", "", "rebalance")}
    # Named for what they hold: milliseconds after the tick's start (the table's AT, `+300ms`), then ISO time.
    assert list(rows[0]) == ["offsetMs", "group", "member", "event", "detail", "time"]
    assert all(r["offsetMs"].isdigit() and 0 < int(r["offsetMs"]) <= 40_000 for r in rows)
    for fmt in ("json", "yaml"):
        r = _ok(cli("local", "tick", "5s", "--local", d, "-o", fmt))
        doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
        assert doc["kind"] == "LocalEvent" and doc["items"] == []
    for bad, message in (("3 weeks", "is not a duration"), ("25h", "at most 86400000 ms")):
        r = cli("local", "tick", bad, "--local", d)
        assert r.code == 2 and message in r.err


@pytest.mark.parametrize(("text", "ms"), [("30s", 30_000), ("1500ms", 1500), ("2m", 120_000), ("1h", 3_600_000),
                                          ("1.5s", 1500), ("250", 250)])
def test_durations(text, ms):
    assert parse_duration(text, "D") == ms


@pytest.mark.parametrize("text", ["", "s", "-1s", "0.5ms", "1d", "1 s s"])
def test_bad_durations(text):
    with pytest.raises(UsageError):
        parse_duration(text, "D")


# -- local settings and mixed groups (online migration) ---------------------------------------------


def _types(cli, local: Path) -> dict[str, str]:
    return {g["groupId"]: g["type"] for g in _items(cli, "group", "list", "--local", str(local), kind="GroupList")}


def _protocols(cli, local: Path, group: str) -> dict[str, str]:
    (item,) = _items(cli, "group", "describe", group, "--members", "--local", str(local), kind="GroupDescription")
    return {m["clientId"]: m["protocol"] for m in item["members"]}


def test_settings_show_set_and_reset(cli, local, checks):
    d = str(local)
    checks.every_format(("local", "settings", "--local", d), "LocalSetting", ["NAME", "VALUE", "SOURCE"],
                        ["DEFAULT", "DESCRIPTION"])
    shown = {i["name"]: i for i in _items(cli, "local", "settings", "--local", d, kind="LocalSetting")}
    assert shown["group.consumer.migration.policy"] == {
        **shown["group.consumer.migration.policy"], "value": "bidirectional", "source": "default"}
    assert {i["source"] for i in shown.values()} == {"default"} and not (local / "broker-settings.json").exists()
    r = _ok(cli("local", "settings", "group.consumer.migration.policy=Upgrade", "group.max.size=4", "--local", d))
    assert "group.consumer.migration.policy   upgrade     DIR" in r.out and "saved in" in r.err
    shown = {i["name"]: (i["value"], i["source"])
             for i in _items(cli, "local", "settings", "--reset", "group.max.size", "--local", d, kind="LocalSetting")}
    assert shown["group.consumer.migration.policy"] == ("upgrade", "DIR")
    assert shown["group.max.size"] == (2**31 - 1, "default")
    assert json.loads((local / "broker-settings.json").read_text())["settings"] == {
        "group.consumer.migration.policy": "upgrade"}


@pytest.mark.parametrize(("args", "message"), [
    (("group.consumer.migration.policy=sideways",), "must be one of disabled, upgrade, downgrade, bidirectional"),
    (("group.max.size=0",), "group.max.size: 0 is out of range; it takes 1 .. 2147483647"),
    (("group.max.size=4", "retention.ms=1"), "'retention.ms' is not a broker setting of a local DIR; the settings "
                                             "are: group.consumer.migration.policy, group.consumer.max.size"),
    (("group.max.size",), "is not KEY=VALUE"),
    (("--reset", "nope"), "--reset nope: not a broker setting"),
    (("group.max.size=3", "--reset", "group.max.size"), "group.max.size is both set and reset"),
])
def test_bad_settings_are_usage_errors_and_save_nothing(cli, local, args, message):
    r = cli("local", "settings", *args, "--local", str(local))
    assert (r.code, message in r.err, r.out) == (2, True, ""), r.err
    assert not (local / "broker-settings.json").exists()


def test_the_kafka_version_is_kept_in_dir(cli, local):
    d = str(local)
    r = _ok(cli("local", "settings", "--kafka-version", "4.0", "--local", d))
    assert re.search(r"kafka\.version +4\.0 +DIR", r.out), r.out
    assert json.loads((local / "broker-settings.json").read_text())["settings"]["kafka.version"] == "4.0"
    r = cli("local", "settings", "--kafka-version", "3.9", "--local", d)
    assert r.code == 2 and "Kafka version must be one of 4.0, 4.1, 4.2, 4.3" in r.err


def test_settings_reach_every_local_command(cli, local):
    d = str(local)
    _ok(cli("local", "settings", "group.min.session.timeout.ms=1000", "--local", d))
    _ok(cli("local", "member", "join", "quick", "--group", "fast", "-t", "orders", "--session-timeout", "2000",
            "--local", d))
    _ok(cli("local", "settings", "group.max.size=1", "--local", d))
    r = cli("local", "member", "join", "second", "--group", "fast", "-t", "orders", "--local", d)
    assert r.code == 1 and "GROUP_MAX_SIZE_REACHED" in r.err, r.err


def test_a_consumer_member_upgrades_a_classic_group_and_leaving_downgrades_it(cli, local):
    d = str(local)
    before = {c: m for c, m in _protocols(cli, local, "classic-app").items()}
    assert set(before.values()) == {"classic"}
    r = _ok(cli("local", "member", "join", "k9", "--group", "classic-app", "--protocol", "consumer", "-t", "orders",
                "--local", d, "-o", "json"))
    run = json.loads(r.out)["items"][0]["run"]
    found = re.search(r"migrated from a classic group, generation (\d+), to a consumer group, group epoch (\d+)", r.err)
    assert found and int(found[2]) == int(found[1]) + 1, r.err  # converted at the generation, then k9 joins
    assert [e["detail"] for e in run["events"] if e["event"] == "migrated"] == ["classic -> consumer group (upgrade)"]
    assert _types(cli, local)["classic-app"] == "consumer"
    protocols = _protocols(cli, local, "classic-app")
    assert protocols == {**before, "k9": "consumer"}
    members = _items(cli, "local", "member", "list", "-g", "classic-app", "--local", d, kind="LocalMember")
    owned = [(p["topic"], p["partition"]) for m in members for p in m["assignment"]]
    assert sorted(owned) == [("orders", p) for p in range(6)]  # every partition once, across both protocols
    r = _ok(cli("local", "member", "leave", "k9", "--local", d))
    back = re.search(r"migrated from a consumer group, group epoch (\d+), to a classic group, generation (\d+)", r.err)
    assert back and int(back[2]) == int(back[1]) + 1 and int(back[1]) >= int(found[2]), r.err
    assert _types(cli, local)["classic-app"] == "classic"
    assert _protocols(cli, local, "classic-app") == before


def test_a_classic_member_joins_a_consumer_group(cli, local):
    d = str(local)
    _ok(cli("local", "member", "join", "c9", "--group", "kip-app", "-t", "orders", "--local", d))
    assert _types(cli, local)["kip-app"] == "consumer"
    assert _protocols(cli, local, "kip-app") == {"k0": "consumer", "k1": "consumer", "k2": "consumer",
                                                 "c9": "classic"}


def test_with_policy_upgrade_the_group_stays_a_consumer_group(cli, local):
    d = str(local)
    _ok(cli("local", "settings", "group.consumer.migration.policy=upgrade", "--local", d))
    _ok(cli("local", "member", "join", "k9", "--group", "classic-app", "--protocol", "consumer", "-t", "orders",
            "--local", d))
    r = _ok(cli("local", "member", "leave", "k9", "--local", d))
    assert "migrated" not in r.err
    assert _types(cli, local)["classic-app"] == "consumer"
    assert set(_protocols(cli, local, "classic-app").values()) == {"classic"}


def test_with_policy_disabled_the_upgrade_is_refused_with_kafkas_message(cli, local):
    d = str(local)
    _ok(cli("local", "settings", "group.consumer.migration.policy=disabled", "--local", d))
    r = cli("local", "member", "join", "k9", "--group", "classic-app", "--protocol", "consumer", "-t", "orders",
            "--local", d)
    assert r.code == 1 and "Traceback" not in r.err
    assert ("member 'k9' stopped on an error while it joined: heartbeat answered GROUP_ID_NOT_FOUND: Cannot upgrade "
            "classic group classic-app to consumer group because online upgrade is disabled.") in r.err
    assert "group.consumer.migration.policy=upgrade" in r.err
    (k9,) = [m for m in _items(cli, "local", "member", "list", "--local", d, kind="LocalMember") if m["name"] == "k9"]
    assert k9["status"] == "failed" and "online upgrade is disabled" in k9["error"]
    assert _types(cli, local)["classic-app"] == "classic"


# -- share members (KIP-932) ------------------------------------------------------------------------


def _held(item: dict) -> list[int]:
    return sorted(p["partition"] for p in item["assignment"] if p["topic"] == "orders")


def test_share_members_share_the_partitions_and_leave(cli, local):
    d = str(local)
    (first,) = _items(cli, "local", "member", "join", "s0", "--group", "sg", "--protocol", "share", "--topics",
                      "orders", "--local", d, kind="LocalMember")
    assert (first["protocol"], first["epoch"], _held(first)) == ("share", 2, [0, 1, 2, 3, 4, 5])
    assert first["run"]["settled"] and {e["event"] for e in first["run"]["events"]} >= {"member-joined", "assignment"}
    (second,) = _items(cli, "local", "member", "join", "s1", "--group", "sg", "--protocol", "share", "--topics",
                       "orders", "--local", d, kind="LocalMember")
    assert second["run"]["settled"]
    items = {i["name"]: i for i in _items(cli, "local", "member", "list", "-g", "sg", "--local", d, kind="LocalMember")}
    held = [set(_held(items[n])) for n in ("s0", "s1")]
    assert sorted(map(len, held)) == [3, 3] and held[0] | held[1] == set(range(6))
    (listed,) = _items(cli, "group", "list", "--type", "share", "--local", d, kind="GroupList")
    assert (listed["groupId"], listed["type"], listed["state"]) == ("sg", "share", "Stable")
    r = _ok(cli("local", "member", "leave", "s0", "--local", d))
    assert "ShareGroupHeartbeat with epoch -1" in r.err
    items = {i["name"]: i for i in _items(cli, "local", "member", "list", "-g", "sg", "--local", d, kind="LocalMember")}
    assert _held(items["s1"]) == [0, 1, 2, 3, 4, 5] and items["s0"]["status"] == "stopped"


def test_a_crashed_share_member_expires_after_the_share_session_timeout(cli, local):
    d = str(local)
    for name in ("s0", "s1"):
        _ok(cli("local", "member", "join", name, "--group", "sg", "--protocol", "share", "-t", "orders", "--local", d))
    _ok(cli("local", "member", "crash", "s0", "--local", d))
    early = _items(cli, "local", "tick", "44s", "--local", d, kind="LocalEvent")
    assert not any(e["event"] == "member-removed" for e in early)
    late = _items(cli, "local", "tick", "2s", "--local", d, kind="LocalEvent")
    removed = [e for e in late if e["event"] == "member-removed"]
    assert [(e["member"], "session timeout expired" in e["detail"]) for e in removed] == [("s0", True)]
    items = {i["name"]: i for i in _items(cli, "local", "member", "list", "-g", "sg", "--local", d, kind="LocalMember")}
    assert _held(items["s1"]) == [0, 1, 2, 3, 4, 5]


def test_a_share_members_heartbeat(cli, local):
    d = str(local)
    _ok(cli("local", "member", "join", "s0", "--group", "sg", "--protocol", "share", "-t", "orders", "--local", d))
    (row,) = _items(cli, "local", "member", "heartbeat", "s0", "--local", d, kind="LocalHeartbeat")
    assert (row["api"], row["error"], row["epoch"], row["intervalMs"]) == ("ShareGroupHeartbeat", "NONE", 2, 5000)


@pytest.mark.parametrize(("args", "code", "message"), [
    (("x", "--group", "g", "--protocol", "share", "--regex", "o.*"), 2, "--protocol share takes --topics only"),
    (("x", "--group", "g", "--protocol", "share", "-t", "orders", "-i", "x"), 2, "no static members"),
    (("x", "--group", "g", "--protocol", "share", "-t", "orders", "--session-timeout", "50000"), 2,
     "share.session.timeout.ms"),
    (("x", "--group", "kip-app", "--protocol", "share", "-t", "orders"), 1, "Group kip-app is not a share group."),
])
def test_share_join_errors(cli, local, args, code, message):
    r = cli("local", "member", "join", *args, "--local", str(local))
    assert r.code == code and message in r.err, r.err
    assert "Traceback" not in r.err
