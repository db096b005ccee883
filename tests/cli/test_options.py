"""Options shared by many commands (`groupctl.cli.options`): numbers bound at parse time to the width
of the Kafka field they end up in, so a value no record can hold is a usage error, never a failed commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.cli.options import INT32_MAX, INT64_MAX

OVER_INT64 = str(INT64_MAX + 1)
OVER_INT32 = str(INT32_MAX + 1)
UNDER_INT64 = str(-(INT64_MAX + 2))
UNDER_INT32 = str(-(INT32_MAX + 2))


@pytest.fixture
def lab(cli, tmp_path: Path) -> Path:
    """A DIR with topic t (3 partitions, log end 10) and member m1 of group g owning them."""
    lab = tmp_path / "lab"
    assert cli("local", "topics", "create", "t", "-p", "3", "-m", "10", "--local", str(lab)).code == 0
    assert cli("local", "member", "join", "m1", "-g", "g", "-t", "t", "--local", str(lab)).code == 0
    return lab


def _refused(r, option: str) -> None:
    assert r.code == 2, (r.out, r.err)
    assert f"'{option}'" in r.err and "internal error" not in r.err
    assert r.out == ""


@pytest.mark.parametrize(("args", "option"), [
    (("local", "topics", "create", "u", "-p", "1", "--messages", OVER_INT64), "--messages"),
    (("local", "topics", "add-partitions", "t", "-p", "4", "--messages", OVER_INT64), "--messages"),
    (("local", "topics", "create", "u", "-p", UNDER_INT32), "--partitions"),
    (("local", "topics", "add-partitions", "t", "-p", OVER_INT32), "--partitions"),
    (("local", "member", "commit", "m1", "--offset", OVER_INT64), "--offset"),
    (("local", "member", "commit", "m1", "--lag", OVER_INT64), "--lag"),
    (("local", "member", "join", "m2", "-g", "g", "-t", "t", "--session-timeout", OVER_INT32), "--session-timeout"),
    (("group", "offsets", "reset", "h", "--all-topics", "--yes", "--to-offset", OVER_INT64), "--to-offset"),
    (("group", "offsets", "reset", "h", "--all-topics", "--yes", "--shift-by", OVER_INT64), "--shift-by"),
    (("group", "offsets", "reset", "h", "--all-topics", "--yes", "--shift-by", UNDER_INT64), "--shift-by"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v[:3]))
def test_a_number_wider_than_its_kafka_field_is_a_usage_error(cli, lab, args, option):
    r = cli(*args, "--local", str(lab))
    _refused(r, option)
    assert "int64" in r.err or "int32" in r.err


def test_the_widest_values_still_pass(cli, lab):
    r = cli("local", "topics", "create", "u", "-p", "1", "--messages", str(INT64_MAX), "--local", str(lab))
    assert r.code == 0, r.err
    r = cli("local", "member", "commit", "m1", "--offset", str(INT64_MAX), "--local", str(lab))
    assert r.code == 0, r.err
    assert str(INT64_MAX) in r.out


def test_dump_groups_partitions_is_an_int32(cli, tmp_path):
    from groupctl.log.synthetic import write_sample_dump

    write_sample_dump(tmp_path / "dump")
    _refused(cli("dump", "groups", str(tmp_path / "dump"), "--partitions", OVER_INT32), "--partitions")
