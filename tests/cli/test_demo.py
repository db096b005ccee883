"""`groupctl demo`: the tour runs end to end and shows what it promises."""

from __future__ import annotations

import json
import re
from pathlib import Path


def test_the_tour_runs_and_shows_a_bounce_without_rebalance(cli, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    r = cli("demo", "--local", str(lab))
    assert r.code == 0, r.err
    out = r.out
    for step in range(1, 9):
        assert f"\n## {step}. " in out
    assert "$ groupctl local member bounce orders-2 --down 10s" in out
    assert "generation 3, unchanged" in r.err and "group epoch 3, unchanged" in r.err
    assert re.search(r"pay-9\s+-\s+UNKNOWN_MEMBER_ID", out)  # the scale-down's error row
    assert "$ groupctl dump groups" in out and "Done. The lab is in" in out
    # The lab's log holds every group in one partition, and the tour says so with --partitions 1.
    assert "__consumer_offsets-0  uniform" in out and "read from another partition" not in r.err
    # The kept lab answers the same commands afterwards.
    described = cli("group", "describe", "orders-app", "payments-app", "--state", "-o", "json", "--local", str(lab))
    items = {i["groupId"]: i for i in json.loads(described.out)["items"]}
    assert items["orders-app"]["groupEpoch"] == 3 and items["orders-app"]["state"] == "Stable"
    assert sorted(m["instanceId"] for m in items["payments-app"]["members"]) == ["pay-0", "pay-1"]


def test_the_tour_refuses_a_directory_in_use(cli, tmp_path: Path) -> None:
    (tmp_path / "something").write_text("x")
    r = cli("demo", "--local", str(tmp_path))
    assert r.code == 2 and "not empty" in r.err


def test_the_default_tour_leaves_nothing_behind(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    r = cli("demo")
    assert r.code == 0, r.err
    assert list(tmp_path.iterdir()) == []
