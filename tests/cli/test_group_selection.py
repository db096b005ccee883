"""`--group G` and `--all-groups` beside the GROUP arguments, as kafka-consumer-groups.sh spells them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.offsets import CommitPartition


@pytest.fixture
def lab(tmp_path: Path) -> tuple[str, ...]:
    """Three groups holding offsets only (Empty): billing, ledger, audit; the args selecting the DIR."""
    directory = tmp_path / "local"
    with LocalBackend(directory, create=True) as b:
        b.coordinator.create_topic("orders", 2)
        b.end_offsets_by_topic.update(orders=[50, 50])
        for group in ("billing", "ledger", "audit"):
            b.coordinator.commit_offsets(group, "", -1, [CommitPartition("orders", 0, 10),
                                                         CommitPartition("orders", 1, 20)])
    return ("--local", str(directory))


def _groups(cli, *args: str) -> list[str]:
    r = cli(*args, "-o", "json")
    assert r.code == 0, r.err
    return list(dict.fromkeys(item.get("groupId") or item.get("group") for item in json.loads(r.out)["items"]))


def test_describe_takes_group_options_after_the_arguments(cli, lab):
    assert _groups(cli, "group", "describe", "--group", "ledger", "-g", "billing", *lab) == ["ledger", "billing"]
    assert _groups(cli, "group", "describe", "audit", "--group", "billing", "--group", "audit", *lab) == [
        "audit", "billing"]


def test_all_groups_is_describe_all(cli, lab):
    assert sorted(_groups(cli, "group", "describe", "--all-groups", *lab)) == ["audit", "billing", "ledger"]
    r = cli("group", "describe", "--all-groups", "--group", "billing", *lab)
    assert r.code == 2 and "give GROUP names (or --group) or --all, not both" in r.err


def test_offsets_reset_and_group_delete_take_group_options(cli, lab):
    rows = _groups(cli, "group", "offsets", "reset", "--group", "ledger", "billing", "--to-earliest",
                   "--all-topics", "--dry-run", *lab)
    assert rows == ["billing", "ledger"]
    assert _groups(cli, "group", "delete", "-g", "audit", "--dry-run", *lab) == ["audit"]


def test_offsets_delete_takes_its_one_group_either_way(cli, lab):
    for given in (("billing",), ("--group", "billing"), ("billing", "--group", "billing")):
        r = cli("group", "offsets", "delete", *given, "--topic", "orders:0", "--dry-run", "-o", "json", *lab)
        assert r.code == 0, r.err
        assert [i["partition"] for i in json.loads(r.out)["items"]] == [0]
    r = cli("group", "offsets", "delete", "billing", "--group", "ledger", "--topic", "orders", "--dry-run", *lab)
    assert r.code == 2 and "one group at a time (given: billing, ledger)" in r.err
    r = cli("group", "offsets", "delete", "--topic", "orders", "--dry-run", *lab)
    assert r.code == 2 and "name the group: group offsets delete GROUP, or --group GROUP" in r.err


@pytest.mark.parametrize(("path", "args", "alternative"), [
    ("group delete", (), "name the groups to delete (GROUP... or --group GROUP); `groupctl group list --state Empty`"),
    ("group offsets delete", ("--topic", "orders"), "it deletes one group's offsets at a time, as "
     "kafka-consumer-groups.sh --delete-offsets does: give GROUP or --group GROUP"),
])
def test_changing_commands_refuse_all_groups_naming_the_alternative(cli, lab, path, args, alternative):
    r = cli(*path.split(), *args, "--all-groups", "--dry-run", *lab)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith(f"groupctl: error: `groupctl {path}` has no --all-groups: {alternative}")
    assert "Possible options" not in r.err


def test_no_group_at_all_is_a_usage_error_naming_both_forms(cli, lab):
    for command in (("group", "delete", "--dry-run"), ("group", "offsets", "reset", "--to-earliest", "--all-topics",
                                                       "--dry-run")):
        r = cli(*command, *lab)
        assert r.code == 2 and "GROUP... or --group GROUP" in r.err


def test_commands_without_group_option_say_how_to_give_the_group(cli, lab):
    r = cli("group", "config", "get", "--group", "billing", *lab)
    assert r.code == 2
    assert r.err.splitlines()[-1] == ("groupctl: error: `groupctl group config get` has no --group: it takes the "
                                      "group id as its GROUP argument")


def test_an_unlike_option_is_not_suggested(cli, lab):
    r = cli("group", "list", "--group", "billing", *lab)
    assert r.code == 2 and r.err.splitlines()[-1] == "groupctl: error: No such option: --group"
    r = cli("group", "remove-members", "billing", "--dryrun", *lab)
    assert r.code == 2 and r.err.splitlines()[-1] == "groupctl: error: No such option: --dryrun (Possible options: " \
        "--dry-run)"
