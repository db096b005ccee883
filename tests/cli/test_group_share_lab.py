"""Share groups in the lab, through the command line: `--local DIR` and `groupctl serve` over the same DIR, with
classic, consumer and share groups side by side (`describe --all` must not fail on any of them), and the
share-group reset, offsets delete and delete with their refusals while share consumers are in the group."""

from __future__ import annotations

import io
import json
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from groupctl.cli.app import main
from tests.cli.test_group import Target, _target


def _run(*args: str) -> None:
    """One command through the real entry point, which must succeed (the module's DIRs are built this way)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            assert exc.code in (0, None), (args, err.getvalue())


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two DIRs built as an operator would: `live` with two share consumers in share-app, `left` after they
    left (the group Empty); both with a classic and a KIP-848 group beside it."""
    live = tmp_path_factory.mktemp("share") / "live"
    lab = ("--local", str(live))
    _run("local", "topics", "create", "orders", "--partitions", "3", "--messages", "100", *lab)
    _run("local", "member", "join", "c1", "--group", "classic-app", "--topics", "orders", *lab)
    _run("local", "member", "join", "k1", "--group", "kip848-app", "--protocol", "consumer", "--topics",
         "orders", *lab)
    for name in ("s1", "s2"):
        _run("local", "member", "join", name, "--group", "share-app", "--protocol", "share", "--topics",
             "orders", *lab)
    left = live.parent / "left"
    shutil.copytree(live, left)
    for name in ("s1", "s2"):
        _run("local", "member", "leave", name, "--local", str(left))
    return {"live": live, "left": left}


@pytest.fixture(params=("local", "serve"))
def where(request: pytest.FixtureRequest) -> str:
    return request.param


def lab(which: str, where: str, templates: dict[str, Path], tmp_path: Path, request: pytest.FixtureRequest) -> Target:
    directory = tmp_path / which
    shutil.copytree(templates[which], directory)
    return _target(where, directory, request)


def tables(out: str) -> list[list[list[str]]]:
    return [[re.split(r"\s{2,}", line.strip()) for line in block.splitlines() if line.strip()]
            for block in out.split("\n\n")]


def test_describe_all_over_classic_consumer_and_share_groups(cli, where, templates, tmp_path, request):
    target = lab("live", where, templates, tmp_path, request)
    for view in ("--offsets", "--members", "--state"):
        r = cli("group", "describe", "--all", view, *target.args)
        assert r.code == 0, r.err
        main, share = tables(r.out)
        assert {row[0] for row in main[1:]} == {"classic-app", "kip848-app"}
        assert {row[0] for row in share[1:]} == {"share-app"}
    members = tables(cli("group", "describe", "share-app", "--members", *target.args).out)[0]
    assert members[0] == ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"]
    assert sorted(row[3] for row in members[1:]) == ["s1", "s2"]
    assert sorted(p for row in members[1:] for p in row[5].removeprefix("orders:").split(",")) == ["0", "1", "2"]
    items = json.loads(cli("group", "describe", "--all", "-o", "json", *target.args).out)["items"]
    share = next(i for i in items if i["groupId"] == "share-app")
    assert (share["type"], share["state"], share["assignor"]) == ("share", "Stable", "simple")
    assert [(o["topic"], o["partition"]) for o in share["shareOffsets"]] == [("orders", p) for p in range(3)]
    listed = tables(cli("group", "list", "--type", "share", *target.args).out)[0]
    assert listed == [["GROUP", "TYPE", "STATE"], ["share-app", "share", "Stable"]]


def test_with_share_consumers_in_it_reset_offsets_delete_and_delete_are_refused(cli, where, templates, tmp_path,
                                                                                 request):
    target = lab("live", where, templates, tmp_path, request)
    r = cli("group", "offsets", "reset", "share-app", "--to-earliest", "--all-topics", "--yes", *target.args)
    assert r.code != 0 and "Share group 'share-app' is not empty." in r.err
    r = cli("group", "offsets", "delete", "share-app", "--topic", "orders", "--yes", *target.args)
    assert r.code == 1 and "The group is not empty." in r.err
    r = cli("group", "delete", "share-app", "--yes", *target.args)
    assert r.code == 3 and "Share group 'share-app' is not EMPTY." in r.err
    assert "share-app" in cli("group", "list", *target.args).out


def test_an_empty_share_group_is_reset_its_offsets_deleted_and_it_deleted(cli, where, templates, tmp_path, request):
    target = lab("left", where, templates, tmp_path, request)
    r = cli("group", "offsets", "reset", "share-app", "--to-latest", "--all-topics", "--dry-run", *target.args)
    assert r.code == 0, r.err
    r = cli("group", "offsets", "reset", "share-app", "--to-latest", "--topic", "orders:1", "--yes", *target.args)
    assert r.code == 0, r.err
    offsets = tables(cli("group", "describe", "share-app", *target.args).out)[0]
    assert offsets[1:] == [["share-app", "orders", "0", "-", "-"], ["share-app", "orders", "1", "100", "-"],
                           ["share-app", "orders", "2", "-", "-"]]
    r = cli("group", "offsets", "reset", "share-app", "--shift-by", "1", "--all-topics", "--yes", *target.args)
    assert r.code != 0 and "--to-earliest, --to-latest or --to-datetime" in r.err
    r = cli("group", "offsets", "delete", "share-app", "--topic", "orders", "--yes", "-o", "json", *target.args)
    assert r.code == 0, r.err
    assert [(i["topic"], i["outcome"]) for i in json.loads(r.out)["items"]] == [("orders", "deleted")]
    assert tables(cli("group", "describe", "share-app", *target.args).out)[0][1:] == []
    r = cli("group", "delete", "share-app", "--yes", *target.args)
    assert r.code == 0, r.err
    assert "share-app" not in cli("group", "list", *target.args).out
