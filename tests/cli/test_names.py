"""Group ids, topics, member and instance ids that Kafka could not carry are refused as usage errors
before anything is written: bytes that are not UTF-8, strings past the int16 length, bad topic names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from groupctl.cli.names import MAX_STRING_BYTES, check_group_id, check_topic, shown
from groupctl.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
BAD = "grp-\udcff"  # what Python makes of the argv bytes b"grp-\xff" (surrogateescape)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from groupctl.cli.app import main

    directory = tmp_path_factory.mktemp("names") / "lab"
    for args in (("local", "topics", "create", "t", "-p", "2"),
                 ("local", "member", "join", "pod", "--group", "g", "--topics", "t")):
        with pytest.raises(SystemExit) as done:
            main([*args, "--local", str(directory), "-o", "json"])
        assert done.value.code in (0, None)
    return directory


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPCTL_")}
    return env | {"PYTHONPATH": str(ROOT)}


def test_non_utf8_argv_bytes_are_refused_and_nothing_is_written(lab: Path) -> None:
    before = _snapshot(lab)
    run = subprocess.run(
        [sys.executable, "-m", "groupctl", "local", "member", "join", "pod-1", "--group", b"grp-\xff",
         "--topics", "t", "--local", os.fsencode(lab)],
        capture_output=True, timeout=60, env=_env(), cwd=ROOT,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.decode() == ("groupctl: error: --group: 'grp-\\xff' is not valid UTF-8, and Kafka sends a "
                                   "group id as UTF-8; pass the name in UTF-8 (check the shell's quoting and the "
                                   "terminal's encoding)\n")
    assert _snapshot(lab) == before
    after = subprocess.run([sys.executable, "-m", "groupctl", "group", "list", "--local", str(lab)],
                           capture_output=True, text=True, timeout=60, env=_env(), cwd=ROOT)
    assert after.returncode == 0 and after.stdout.split()[3:] == ["g", "classic", "Stable"], after


LONG_GROUP = "g" * (MAX_STRING_BYTES + 1)
LONG_WIDE_GROUP = "é" * (MAX_STRING_BYTES // 2 + 1)  # 32768 bytes in only 16384 characters

REFUSED = [
    (("group", "describe", "g", BAD), "GROUP"),
    (("group", "describe", LONG_GROUP), "GROUP"),
    (("group", "describe", LONG_WIDE_GROUP), "GROUP"),
    (("group", "remove-members", BAD, "--instance-id", "pod", "--yes"), "GROUP"),
    (("group", "remove-members", "g", "--instance-id", BAD, "--yes"), "--instance-id"),
    (("group", "remove-members", "g", "--member-id", BAD, "--yes"), "--member-id"),
    (("group", "remove-members", "g", "--member-id", "m", "--reason", BAD, "--yes"), "--reason"),
    (("group", "config", "get", BAD), "GROUP"),
    (("group", "config", "set", BAD, "consumer.session.timeout.ms=50000"), "GROUP"),
    (("group", "config", "unset", LONG_GROUP, "consumer.session.timeout.ms"), "GROUP"),
    (("local", "topics", "create", BAD, "-p", "1"), "NAME"),
    (("local", "topics", "create", "x" * 250, "-p", "1"), "NAME"),
    (("local", "topics", "add-partitions", "bad/name", "-p", "3"), "NAME"),
    (("local", "member", "join", BAD, "--group", "g", "--topics", "t"), "NAME"),
    (("local", "member", "join", "pod-1", "--group", BAD, "--topics", "t"), "--group"),
    (("local", "member", "join", "pod-1", "--group", LONG_GROUP, "--topics", "t"), "--group"),
    (("local", "member", "join", "pod-1", "--group", "g", "--topics", "t", "--instance-id", BAD), "--instance-id"),
    (("local", "member", "join", "pod-1", "--group", "g", "--topics", f"t,{BAD}"), "--topics"),
    (("local", "member", "join", "pod-1", "--group", "g", "--topics", "t", "--topics", "no way"), "--topics"),
    (("local", "member", "join", "pod-1", "--group", "g", "--regex", f"{BAD}.*"), "--regex"),
    (("local", "member", "start", BAD), "NAME"),
    (("local", "member", "heartbeat", BAD), "NAME"),
    (("local", "member", "commit", BAD), "NAME"),
    (("local", "member", "leave", BAD), "NAME"),
    (("local", "member", "bounce", BAD), "NAME"),
    (("local", "member", "crash", BAD), "NAME"),
    (("local", "member", "list", "--group", BAD), "--group"),
]


@pytest.mark.parametrize(("args", "option"), REFUSED, ids=[f"{' '.join(a[:3])[:40]}-{i}" for i, (a, _) in
                                                           enumerate(REFUSED)])
def test_every_name_taking_command_refuses_before_opening_the_dir(cli, lab: Path, args, option) -> None:
    before = _snapshot(lab)
    r = cli(*args, "--local", str(lab))
    assert (r.code, r.out) == (2, ""), r.err
    assert r.err.startswith(f"groupctl: error: {option}: ") and r.err.count("\n") == 1, r.err
    assert "\udcff" not in r.err and "internal error" not in r.err
    assert _snapshot(lab) == before


def test_the_limits_themselves_pass(cli, lab: Path) -> None:
    longest = "é" * (MAX_STRING_BYTES // 2) + "g"  # 32767 bytes
    r = cli("group", "describe", longest, "--local", str(lab))
    assert r.code == 1 and "does not exist" in r.err, r.err[:300]
    r = cli("local", "topics", "add-partitions", "x" * 249, "-p", "3", "--local", str(lab))
    assert r.code == 1 and "UNKNOWN_TOPIC_OR_PARTITION" in r.err, r.err[:300]


def test_messages_show_the_bytes_as_typed() -> None:
    assert shown(BAD) == "grp-\\xff"
    assert shown("x" * 100) == "x" * 40 + "... (100 characters)"
    with pytest.raises(UsageError, match=r"^--group: 'grp-\\xff' is not valid UTF-8"):
        check_group_id(BAD, "--group")
    with pytest.raises(UsageError, match="is 32768 bytes in UTF-8, over the 32767"):
        check_group_id(LONG_WIDE_GROUP)
    assert check_group_id("日本-group") == "日本-group"
    with pytest.raises(UsageError, match=r"Topic name cannot be \"\.\" or \"\.\.\""):
        check_topic("..")
    with pytest.raises(UsageError, match="can't be longer than 249 characters"):
        check_topic("x" * 250)
    assert check_topic("orders.v2_eu-1") == "orders.v2_eu-1"


@pytest.mark.parametrize(("args", "option"), [
    (("regex", "validate", f"{BAD}.*"), "PATTERN"),
    (("regex", "validate", "ok.*", LONG_GROUP), "PATTERN"),
    (("dump", "locate", BAD), "GROUP"),
    (("dump", "locate", "g", LONG_WIDE_GROUP), "GROUP"),
])
def test_commands_without_a_dir_refuse_names_kafka_could_not_carry(cli, args, option) -> None:
    r = cli(*args)
    assert (r.code, r.out) == (2, ""), r.err
    assert r.err.startswith(f"groupctl: error: {option}: ") and "internal error" not in r.err, r.err
