"""Tables on a terminal: fitted to its width, times as ISO-8601 UTC, nothing anyone copies cut.

Most tests set the width the table sees (`terminal_width`); the last ones run groupctl in a real
pseudo-terminal of 80 columns, where the width comes from the terminal itself.
"""

from __future__ import annotations

import functools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from groupctl.cells import cells
from groupctl.output import iso_ms
from tests.cli.conftest import run_in

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A --local DIR: a classic group and a KIP-848 group (static members, offsets committed)."""
    directory = tmp_path_factory.mktemp("tables") / "lab"

    run = functools.partial(run_in, directory)
    run("local", "topics", "create", "orders", "--partitions", "6", "--messages", "100")
    for i in range(3):
        run("local", "member", "join", f"c{i}", "--group", "classic-app", "--instance-id", f"c{i}", "--topics",
            "orders")
        run("local", "member", "join", f"k{i}", "--group", "kip-app", "--protocol", "consumer", "--instance-id",
            f"k{i}", "--topics", "orders")
    run("local", "tick", "10s")
    run("local", "member", "commit", "k0", "--offset", "40")
    run("local", "member", "crash", "c1")  # removed at the next long enough `local tick`
    return directory


@pytest.fixture
def lab(lab_template: Path, tmp_path: Path) -> Path:
    shutil.copytree(lab_template, tmp_path / "lab")
    return tmp_path / "lab"


@pytest.fixture
def columns(monkeypatch):
    """`columns(n)`: from now on tables see a terminal n cells wide."""
    def set_width(n: int) -> None:
        monkeypatch.setattr("groupctl.output.terminal_width", lambda out: n)
    return set_width


def _widest(text: str) -> int:
    return max(cells(line) for line in text.splitlines())


def _ok(r):
    assert r.code == 0, r.err
    return r


# -- every table fits ------------------------------------------------------------------------------

LAB_TABLES = [
    ("group", "list"),
    ("group", "list", "-o", "wide"),
    ("group", "describe", "--all"),
    ("group", "describe", "--all", "--verbose"),
    ("group", "describe", "--all", "--members"),
    ("group", "describe", "--all", "--members", "--verbose"),
    ("group", "describe", "--all", "--state"),
    ("group", "describe", "--all", "--state", "--verbose"),
    ("group", "describe", "--all", "--offsets", "--verbose"),
    ("group", "config", "get", "kip-app"),
    ("local", "member", "list"),
    ("local", "topics", "list"),
    ("local", "tick", "60s"),
]


@pytest.mark.parametrize("args", LAB_TABLES, ids=" ".join)
@pytest.mark.parametrize("width", [80, 100])
def test_every_group_and_local_table_fits_the_terminal(cli, lab, columns, args, width):
    columns(width)
    r = _ok(cli(*args, "--local", str(lab)))
    assert r.out and _widest(r.out) <= width


@pytest.mark.parametrize(("args", "code"), [
    (("dump", "decode", "{dump}"), 0),
    (("dump", "groups", "{dump}"), 0),
    (("dump", "groups", "{dump}", "--members", "--verbose"), 0),
    (("dump", "groups", "{dump}", "--state", "--verbose"), 0),
    (("dump", "audit", "{dump}"), 0),
    (("dump", "locate", "orders-app", "payments-app"), 0),
    (("regex", "validate", "orders-.*", "^topic*", "a("), 1),  # one pattern the broker rejects
    (("simulate", "rolling-bounce", "-n", "3", "-p", "6", "--compare"), 0),
], ids=lambda a: " ".join(a[:2]) if isinstance(a, tuple) else str(a))
def test_every_dump_regex_and_simulate_table_fits_at_80(cli, sample, columns, args, code):
    columns(80)
    r = cli(*(a.format(dump=sample) for a in args))
    assert r.code == code, r.err
    assert r.out and _widest(r.out) <= 80


def test_local_tick_details_are_cut_to_the_terminal_and_whole_in_wide(cli, lab, columns, tmp_path):
    twin = shutil.copytree(lab, tmp_path / "twin")
    columns(80)
    lines = _ok(cli("local", "tick", "60s", "--local", str(lab))).out.splitlines()
    assert lines[0].split() == ["AT", "GROUP", "MEMBER", "EVENT", "DETAIL"]
    removed = next(line for line in lines if "member-removed" in line)
    assert cells(removed) == 80 and removed.endswith("…")
    wide = _ok(cli("local", "tick", "60s", "--local", str(twin), "-o", "wide")).out.splitlines()
    removed = next(line for line in wide if "member-removed" in line)
    assert cells(removed) > 80 and "…" not in removed and re.search(r"member c1-[0-9a-f-]{36}\b", removed)


def test_describe_members_verbose_at_80_keeps_every_id_whole(cli, lab, columns):
    items = json.loads(_ok(cli("group", "describe", "--all", "--members", "-o", "json", "--local", str(lab))).out)
    ids = [m["memberId"] for g in items["items"] for m in g["members"]]
    assert len(ids) == 6 and any(len(i) > 30 for i in ids)  # the classic ids are long
    columns(80)
    out = _ok(cli("group", "describe", "--all", "--members", "--verbose", "--local", str(lab))).out
    assert _widest(out) <= 80
    for member_id in ids:
        assert re.search(rf"^CONSUMER-ID +{re.escape(member_id)}$", out, re.M), member_id
    assert "CURRENT-ASSIGNMENT  orders:" in out and "UPGRADED" in out
    wide = _ok(cli("group", "describe", "--all", "--members", "-o", "wide", "--local", str(lab))).out
    assert _widest(wide) > 80 and "…" not in wide  # -o wide: one row per line, nothing shortened
    assert wide.splitlines()[0].split()[-1] == "UPGRADED"


def test_a_table_that_fits_stays_a_table(cli, lab, columns):
    columns(250)
    out = _ok(cli("group", "describe", "--all", "--members", "--verbose", "--local", str(lab))).out
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID"] and len(lines) == 7


def test_piped_tables_are_not_shortened(cli, sample):
    out = _ok(cli("dump", "decode", str(sample))).out  # not a terminal: every character, as scripts expect
    values = [json.dumps(json.loads(line)["value"]["data"], separators=(",", ":"))
              for line in _ok(cli("dump", "decode", str(sample), "-f", "jsonl")).out.splitlines()
              if json.loads(line)["value"] is not None]
    longest = max(values, key=len)
    assert len(longest) > 1000 and longest in out and "…" not in out


# -- dump decode: VALUE follows the width ----------------------------------------------------------

@pytest.mark.parametrize("width", [140, 180, 240])
def test_decode_value_takes_the_rest_of_the_line(cli, sample, columns, width):
    columns(width)
    lines = _ok(cli("dump", "decode", str(sample))).out.splitlines()
    assert lines[0].split() == ["OFFSET", "TIMESTAMP", "TYPE", "GROUP", "KEY", "VALUE"]
    assert max(cells(line) for line in lines) == width
    cut = [line for line in lines if line.endswith("…")]
    assert cut and all(cells(line) == width for line in cut)


def test_decode_on_a_narrow_terminal_shows_a_block_per_record(cli, sample, columns):
    columns(80)
    lines = _ok(cli("dump", "decode", str(sample))).out.splitlines()
    assert lines[0].startswith("-[ 1 ]") and sum(line.startswith("-[ ") for line in lines) == 31
    assert lines[1:6] == ["OFFSET     0", "TIMESTAMP  2026-01-01T00:00:00.000Z", "TYPE       GROUP_METADATA",
                          "GROUP      orders-app", "KEY        -"]
    assert lines[6].startswith('VALUE      {"protocolType":"consumer"') and cells(lines[6]) == 80


# -- dump audit: one line a finding ----------------------------------------------------------------

def test_audit_findings_take_one_line_each_at_80(cli, sample, columns):
    report = json.loads(_ok(cli("dump", "audit", str(sample), "-o", "json")).out)["items"][0]
    columns(80)
    lines = _ok(cli("dump", "audit", str(sample))).out.splitlines()
    assert lines[0].split() == ["SEVERITY", "RULE", "GROUP", "EXPLANATION"]
    findings = lines[1:lines.index("")]
    assert len(findings) == len(report["findings"]) >= 1
    for line, finding in zip(findings, report["findings"], strict=True):
        assert line.split()[:3] == [finding["severity"], finding["rule"], finding["group"]]
        assert cells(line) <= 80 and line.endswith("…")
    wide = _ok(cli("dump", "audit", str(sample), "-o", "wide")).out.splitlines()
    assert wide[0].split() == ["SEVERITY", "RULE", "GROUP", "EVIDENCE", "EXPLANATION"]
    assert all(f["explanation"] in "\n".join(wide) for f in report["findings"])


# -- times -----------------------------------------------------------------------------------------

def test_times_in_tables_are_iso_and_epoch_ms_in_json_and_csv(cli, lab, sample):
    doc = json.loads(_ok(cli("group", "describe", "kip-app", "--offsets", "-o", "json", "--local", str(lab))).out)
    stamps = {o["commitTimestamp"] for o in doc["items"][0]["offsets"]}
    assert stamps and all(isinstance(s, int) for s in stamps)
    table = _ok(cli("group", "describe", "kip-app", "--offsets", "--verbose", "--local", str(lab))).out
    assert all(iso_ms(s) in table for s in stamps) and not any(str(s) in table for s in stamps)
    csv_text = _ok(cli("group", "describe", "kip-app", "--offsets", "-o", "csv", "--local", str(lab))).out
    assert all(str(s) in csv_text for s in stamps)

    report = json.loads(_ok(cli("dump", "audit", str(sample), "-o", "json")).out)["items"][0]
    wide = _ok(cli("dump", "audit", str(sample), "-o", "wide")).out
    first = report["byGroup"][0]["firstTimestamp"]
    assert iso_ms(first) in wide and str(first) not in wide
    assert re.search(r"^0\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\s", _ok(
        cli("dump", "decode", str(sample))).out.splitlines()[1])


# -- a real terminal -------------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _in_terminal(args: list[str], columns: int, tmp_path: Path, timeout: float = 60.0) -> str:
    """What groupctl prints to a pseudo-terminal of `columns` x 50 (its stdout; stderr is kept apart)."""
    pty = pytest.importorskip("pty", reason="no pseudo-terminals on this platform")
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    import struct

    try:
        master, slave = pty.openpty()
    except OSError as exc:
        pytest.skip(f"cannot open a pseudo-terminal: {exc}")
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # the terminal tells
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["NO_COLOR"] = "1"
    err_path = tmp_path / "stderr.txt"
    with err_path.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "groupctl", *args], stdin=subprocess.DEVNULL,
                                stdout=slave, stderr=err, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"groupctl {' '.join(args)} did not finish in {timeout} s"
            ready, _, _ = select.select([master], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the other side is closed, all is read
                break
            if not data:
                break
            chunks.append(data)
        proc.wait(timeout=max(deadline - time.monotonic(), 1))
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    assert proc.returncode in (0, 4), err_path.read_text()
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


@pytest.mark.parametrize("args", [
    ("group", "describe", "--all", "--members", "--verbose", "--local", "{lab}"),
    ("dump", "decode", "{dump}"),
    ("dump", "audit", "{dump}"),
], ids=lambda a: " ".join(a[:2]))
def test_in_a_real_terminal_of_80_columns_no_line_is_longer(lab, sample, tmp_path, args):
    out = _in_terminal([a.format(lab=lab, dump=sample) for a in args], 80, tmp_path)
    lines = out.splitlines()
    assert len(lines) > 5
    assert max(cells(line) for line in lines) <= 80, max(lines, key=cells)
    if args[1] == "describe":
        assert sum(line.startswith("CONSUMER-ID ") for line in lines) == 6
    elif args[1] == "decode":
        assert sum(line.startswith("-[ ") for line in lines) == 31
    else:
        assert lines[0].split() == ["SEVERITY", "RULE", "GROUP", "EXPLANATION"]
