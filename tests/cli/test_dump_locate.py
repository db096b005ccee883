"""`groupctl dump locate`: the partition the broker's partitionFor picks."""

from __future__ import annotations

import json


def test_locate_table(cli):
    r = cli("dump", "locate", "polygenelubricants", "a")
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[0].split() == ["GROUP", "PARTITION"]
    assert lines[1].split() == ["polygenelubricants", "0"]
    assert lines[2].split() == ["a", "47"]


def test_locate_partitions_option_and_json(cli):
    r = cli("dump", "locate", "hello", "--partitions", "7", "-o", "json")
    assert r.code == 0
    item = json.loads(r.out)["items"][0]
    assert item == {
        "group": "hello",
        "partition": 99162322 % 7,
        "directory": f"__consumer_offsets-{99162322 % 7}",
        "hashCode": 99162322,
    }


def test_locate_rejects_zero_partitions(cli):
    r = cli("dump", "locate", "g", "--partitions", "0")
    assert r.code == 2
