"""`groupctl simulate rolling-bounce` through the real entry point: the issue's numbers, every output
format, the README's captured output, usage errors and exit codes."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from groupctl.simulation.rolling_bounce import MAX_MEMBERS

ROOT = Path(__file__).resolve().parents[2]
COMPARE = ("simulate", "rolling-bounce", "--compare", "--members", "10", "--partitions", "30")
REQUIRED_KEYS = {"protocol", "membership", "rebalances", "partitionMoves", "maxUnownedMs"}
#: What --migrate adds to every item (null without it, or when nothing converted), in this order.
MIGRATION_KEYS = ("migration", "groupTypeBefore", "groupTypeAfter", "convertedAtRestart", "convertedAtMs")


@pytest.fixture(scope="module")
def compare_json() -> dict[tuple[str, str], dict]:
    """One run of the issue's command with -o json (in a subprocess: the module-scoped result is shared)."""
    done = subprocess.run([sys.executable, "-m", "groupctl", *COMPARE, "-o", "json"], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    envelope = json.loads(done.stdout)
    assert (envelope["apiVersion"], envelope["kind"]) == ("groupctl/v1", "RollingBounce")
    return {(i["protocol"], i["membership"]): i for i in envelope["items"]}


def test_compare_numbers_are_the_kip345_claim(compare_json):
    assert list(compare_json) == [("classic", "static"), ("classic", "dynamic"), ("consumer", "static"),
                                  ("consumer", "dynamic")]
    for protocol in ("classic", "consumer"):
        static = compare_json[(protocol, "static")]
        assert (static["rebalances"], static["partitionMoves"]) == (0, 0)
        assert static["converged"] and not static["anomalies"]
    assert compare_json[("classic", "dynamic")]["rebalances"] >= 10
    assert compare_json[("consumer", "dynamic")]["rebalances"] >= 10


def test_json_items_have_the_issue_keys_and_the_documented_extras(compare_json):
    item = compare_json[("classic", "static")]
    assert set(item) >= REQUIRED_KEYS
    assert set(item) == REQUIRED_KEYS | set(MIGRATION_KEYS) | {
        "totalUnownedMs", "meanUnownedMs", "epochBefore", "epochAfter", "bounceMs", "converged", "members",
        "partitions", "sessionTimeoutMs", "restartTimeMs", "seed", "assignment", "anomalies",
    }
    assert [item[k] for k in MIGRATION_KEYS] == [None, "classic", "classic", None, None]
    assert (item["members"], item["partitions"], item["sessionTimeoutMs"], item["restartTimeMs"],
            item["seed"]) == (10, 30, 45_000, 10_000, 0)
    first = item["assignment"][0]
    assert first["member"] == first["instanceId"] == "member-0"
    assert first["topicPartitions"] == [{"topic": "orders", "partitions": [0, 1, 2]}]
    dynamic = compare_json[("classic", "dynamic")]["assignment"]
    assert all(m["instanceId"] is None for m in dynamic)
    assert sorted(p for m in dynamic for tp in m["topicPartitions"] for p in tp["partitions"]) == list(range(30))


def test_keys_are_camel_case_as_in_every_kind(compare_json, cli):
    def keys(value) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        return {k for v in value for k in keys(v)} if isinstance(value, list) else set()

    found = keys(list(compare_json.values()))
    assert "partitionMoves" in found and "topicPartitions" in found
    assert not [k for k in found if "_" in k]
    header = cli(*COMPARE, "-o", "csv").out.splitlines()[0].split(",")
    assert header[:5] == ["protocol", "membership", "rebalances", "partitionMoves", "maxUnownedMs"]
    assert not [k for k in header if "_" in k]


def test_table_is_what_the_readme_shows(cli):
    result = cli(*COMPARE)
    assert result.code == 0, result.err
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"\$ groupctl simulate rolling-bounce --compare --members 10 --partitions 30\n(.*?)```",
                      readme, re.S)
    assert block is not None, "README lost its simulate rolling-bounce example"
    assert result.out == block.group(1)
    header, *rows = result.out.splitlines()
    assert header.split() == ["PROTOCOL", "MEMBERSHIP", "REBALANCES", "PARTITION_MOVES", "MAX_UNOWNED_MS"]
    assert [r.split()[:4] for r in rows][::2] == [["classic", "static", "0", "0"], ["consumer", "static", "0", "0"]]


def test_wide_adds_columns_and_each_members_final_assignment(cli):
    result = cli("simulate", "rolling-bounce", "-n", "3", "-p", "7", "-o", "wide")
    assert result.code == 0, result.err
    summary, members = result.out.split("\n\n")
    assert "TOTAL_UNOWNED_MS" in summary and "MEAN_UNOWNED_MS" in summary and "CONVERGED" in summary
    lines = members.splitlines()
    assert lines[0].split() == ["PROTOCOL", "MEMBERSHIP", "MEMBER", "INSTANCE_ID", "MEMBER_ID", "ASSIGNMENT"]
    assert [line.split()[-1] for line in lines[1:]] == ["orders:0,1,2", "orders:3,4", "orders:5,6"]


def test_csv_and_yaml(cli):
    result = cli("simulate", "rolling-bounce", "-n", "2", "-p", "3", "--protocol", "consumer", "--dynamic",
                 "-o", "csv")
    assert result.code == 0, result.err
    (row,) = list(csv.DictReader(io.StringIO(result.out)))
    assert (row["protocol"], row["membership"]) == ("consumer", "dynamic")
    assert re.fullmatch(r"member-0=orders:[\d,]+ member-1=orders:[\d,]+", row["assignment"])
    result = cli("simulate", "rolling-bounce", "-n", "2", "-p", "3", "-o", "yaml")
    assert result.code == 0 and "kind: RollingBounce" in result.out and "partitionMoves: 0" in result.out


def test_static_restart_longer_than_the_session_timeout(cli):
    result = cli("simulate", "rolling-bounce", "-n", "4", "-p", "8", "--static", "--session-timeout", "6000",
                 "--restart-time", "10000", "-o", "json")
    assert result.code == 0, result.err
    (item,) = json.loads(result.out)["items"]
    assert item["rebalances"] == 8 and item["partitionMoves"] > 0


def test_output_does_not_depend_on_the_hash_seed(compare_json):
    """Deterministic for a seed whatever PYTHONHASHSEED: the same bytes from another interpreter."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-m", "groupctl", *COMPARE, "-o", "json"], capture_output=True,
                          text=True, cwd=ROOT, env=env, check=True)
    items = {(i["protocol"], i["membership"]): i for i in json.loads(done.stdout)["items"]}
    assert items == compare_json


@pytest.mark.parametrize(("args", "words"), [
    (("--members", "0"), "--members must be between 1 and"),
    (("--members", str(MAX_MEMBERS + 1)), "--members must be between 1 and"),
    (("--partitions", "0"), "--partitions must be between 1 and"),
    (("--restart-time", "-1"), "--restart-time must be between 0 and"),
    (("--session-timeout", "5000"), "--session-timeout must be between 6000 and 1800000"),
    (("--protocol", "consumer", "--session-timeout", "30000"),
     "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
    (("--compare", "--session-timeout", "70000"), "INVALID_CONFIG"),
    (("--compare", "--dynamic"), "--compare runs both protocols"),
    (("--compare", "--protocol", "classic"), "--compare runs both protocols"),
    (("--protocol", "share"), "'share' is not one of"),
    (("--members", "many"), "--members"),
    (("--migrate", "upgrade", "--protocol", "classic"), "--migrate sets the protocols itself"),
    (("--migrate", "downgrade", "--compare"), "--migrate sets the protocols itself"),
    (("--migrate", "upgrade", "--session-timeout", "10000"), "a migration runs both protocols"),
    (("--migrate", "sideways"), "'sideways' is not one of 'upgrade', 'downgrade'"),
])
def test_usage_errors_exit_2(cli, args, words):
    result = cli("simulate", "rolling-bounce", *args)
    assert result.code == 2
    assert words in result.err
    assert result.out == ""


def test_a_run_that_went_wrong_exits_1_after_showing_its_numbers(cli, monkeypatch):
    from groupctl.simulation import rolling_bounce

    real = rolling_bounce.run_rolling_bounce

    def broken(settings):
        result = real(settings)
        result.anomalies.append("0 ms member-0: JoinGroup answered UNKNOWN_SERVER_ERROR; rejoining")
        return result

    monkeypatch.setattr(rolling_bounce, "run_rolling_bounce", broken)
    result = cli("simulate", "rolling-bounce", "-n", "2", "-p", "2")
    assert result.code == 1
    assert "classic" in result.out
    assert "classic/static: 0 ms member-0: JoinGroup answered UNKNOWN_SERVER_ERROR" in result.err
    assert "did not run cleanly" in result.err


def test_help_explains_the_scenario_and_the_claim(cli):
    result = cli("simulate", "rolling-bounce", "--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    for words in ("KIP-345", "LeaveGroup", "epoch -1, or -2 when static", "range assignor",
                  "consumer.session.timeout.ms", "StatefulSet", f"1..{MAX_MEMBERS}", "--migrate upgrade",
                  "group.protocol=consumer", "CONVERTED", "convertedAtRestart",
                  "groupctl simulate rolling-bounce --migrate downgrade"):
        assert words in text, words


MIGRATIONS = (
    ("--migrate", "upgrade", "--members", "10", "--partitions", "30"),
    ("--migrate", "upgrade", "--dynamic", "--members", "10", "--partitions", "30"),
    ("--migrate", "downgrade", "--members", "10", "--partitions", "30"),
)


def test_migration_tables_are_what_the_readme_shows(cli):
    readme = (ROOT / "README.md").read_text()
    for args in MIGRATIONS:
        result = cli("simulate", "rolling-bounce", *args)
        assert result.code == 0, result.err
        command = "$ groupctl simulate rolling-bounce " + " ".join(args) + "\n"
        at = readme.find(command)
        assert at >= 0, f"README lost {command!r}"
        assert readme[at + len(command):].startswith(result.out)
        header, row = result.out.splitlines()
        assert header.split()[-1] == "CONVERTED"
        assert row.split()[0] == ("classic->consumer" if "upgrade" in args else "consumer->classic")


def test_a_migration_in_json(cli):
    result = cli("simulate", "rolling-bounce", "--migrate", "downgrade", "-n", "3", "-p", "6", "--dynamic",
                 "-o", "json")
    assert result.code == 0, result.err
    (item,) = json.loads(result.out)["items"]
    assert [item[k] for k in MIGRATION_KEYS] == ["downgrade", "consumer", "classic", 3, item["convertedAtMs"]]
    assert item["protocol"] == "consumer" and 0 < item["convertedAtMs"] <= item["bounceMs"]
    assert item["converged"] and not item["anomalies"]
    owned = sorted(p for m in item["assignment"] for tp in m["topicPartitions"] for p in tp["partitions"])
    assert owned == list(range(6))


def test_a_migration_in_csv_has_the_converted_column(cli):
    result = cli("simulate", "rolling-bounce", "--migrate", "upgrade", "-n", "2", "-p", "4", "-o", "csv")
    assert result.code == 0, result.err
    (row,) = list(csv.DictReader(io.StringIO(result.out)))
    assert (row["protocol"], row["converted"]) == ("classic->consumer", "restart 1 (+10000 ms)")
