"""A damaged tail on the local DIR's log is recovered as Kafka recovers a segment: every `--local`
command works again, and the note says exactly what was cut, from where, and why."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from groupctl.backends.local import LOG_DIR
from groupctl.cli.app import main
from groupctl.log.segment import read_segment

ROOT = Path(__file__).resolve().parents[2]
SEGMENT = f"{LOG_DIR}/00000000000000000000.log"


class Lab(NamedTuple):
    directory: Path
    size: int
    next_offset: int
    last_batch: bytes
    describe: list[dict]


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def _offsets(directory: Path) -> list[dict]:
    code, out, err = _run("group", "describe", "g", "--offsets", "--local", str(directory), "-o", "json")
    assert code == 0, err
    return [{k: v for k, v in item.items() if k != "coordinator"} for item in json.loads(out)["items"]]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Lab:
    directory = tmp_path_factory.mktemp("recovery") / "lab"
    for args in (
        ("local", "topics", "create", "orders", "--partitions", "2", "--messages", "50"),
        ("local", "member", "join", "pod-0", "--group", "g", "--topics", "orders"),
        ("local", "member", "commit", "pod-0", "--lag", "5"),
    ):
        code, _, err = _run(*args, "--local", str(directory))
        assert code == 0, (args, err)
    segment = directory / SEGMENT
    data = segment.read_bytes()
    batches = list(read_segment(segment, strict=True))
    last = batches[-1]
    return Lab(directory, len(data), last.last_offset + 1, data[last.position:], _offsets(directory))


def _at(batch: bytes, offset: int) -> bytes:
    """The batch moved to `offset`: the base offset lies outside the CRC, so it stays valid."""
    return struct.pack(">q", offset) + batch[8:]


def _flipped(batch: bytes, at: int) -> bytes:
    return batch[:at] + bytes([batch[at] ^ 0xFF]) + batch[at + 1:]


def _with(batch: bytes, at: int, fmt: str, value: int) -> bytes:
    return batch[:at] + struct.pack(fmt, value) + batch[at + struct.calcsize(fmt):]


class Tail(NamedTuple):
    """What is appended, how many of its bytes stay (a valid batch at the front), and what the note says."""

    name: str
    make: Callable[[Lab], bytes]
    kept: Callable[[Lab], int]
    says: tuple[str, ...]


def _none(_: Lab) -> int:
    return 0


def _noise(n: int) -> bytes:
    return random.Random(n).randbytes(n)


TAILS = [
    Tail("zeros-short", lambda _: bytes(7), _none, ("too few for a batch header", "all zeros")),
    Tail("zeros-header", lambda _: bytes(40), _none, ("invalid batch size 0", "all zeros")),
    Tail("zeros-long", lambda _: bytes(65536), _none, ("invalid batch size 0", "all zeros")),
    Tail("ones", lambda _: b"\xff" * 300, _none, ("invalid batch size -1", "no whole valid batch")),
    Tail("random-short", lambda _: _noise(13), _none, ("too few for a batch header", "no whole valid batch")),
    Tail("random-long", lambda _: _noise(5000), _none, ("no whole valid batch",)),
    Tail("bad-crc", lambda lab: _flipped(_at(lab.last_batch, lab.next_offset), len(lab.last_batch) - 3), _none,
         ("bad CRC at byte {size}", "CRC mismatch: stored", "no whole valid batch")),
    Tail("bad-magic", lambda lab: _with(_at(lab.last_batch, lab.next_offset), 16, ">b", 7), _none,
         ("bad magic 7 at byte {size}",)),
    Tail("truncated-header", lambda lab: _at(lab.last_batch, lab.next_offset)[:40], _none,
         ("claims", "only 40 are left", "a write cut short")),
    Tail("truncated-body", lambda lab: _at(lab.last_batch, lab.next_offset)[:-1], _none,
         ("only {batch_minus_1} are left",)),
    Tail("size-beyond-file", lambda lab: _with(_at(lab.last_batch, lab.next_offset), 8, ">i", 1 << 30), _none,
         (f"claims {(1 << 30) + 12} bytes",)),
    Tail("negative-size", lambda lab: _with(_at(lab.last_batch, lab.next_offset), 8, ">i", -20), _none,
         ("invalid batch size -20 at byte {size}",)),
    Tail("size-below-v2-header", lambda lab: _with(_at(lab.last_batch, lab.next_offset), 8, ">i", 20), _none,
         ("batch size 20 at byte {size} is below the 49 a magic 2 header needs",)),
    Tail("offset-going-back", lambda lab: _at(lab.last_batch, 0), _none,
         ("starts at offset 0", "must grow", "held 1 whole batch", "from byte {size}")),
    Tail("valid-then-garbage", lambda lab: _at(lab.last_batch, lab.next_offset) + _noise(64),
         lambda lab: len(lab.last_batch), ("no whole valid batch",)),
    Tail("garbage-then-valid", lambda lab: _noise(64) + _at(lab.last_batch, lab.next_offset), _none,
         ("1 whole batch with a valid CRC", "from byte {size_plus_64}", "those records are lost")),
    Tail("bad-crc-then-valid",
         lambda lab: _flipped(_at(lab.last_batch, lab.next_offset), 70) + _at(lab.last_batch, lab.next_offset + 1),
         _none, ("bad CRC at byte {size}", "1 whole batch with a valid CRC", "those records are lost")),
]


@pytest.mark.parametrize("tail", TAILS, ids=[t.name for t in TAILS])
def test_a_damaged_tail_is_cut_once_with_a_true_note_and_every_command_works(
    lab: Lab, tail: Tail, tmp_path: Path
) -> None:
    directory = tmp_path / "lab"
    shutil.copytree(lab.directory, directory)
    segment = directory / SEGMENT
    garbage = tail.make(lab)
    segment.write_bytes(segment.read_bytes() + garbage)
    kept = tail.kept(lab)
    cut_at, cut = lab.size + kept, len(garbage) - kept

    code, out, err = _run("group", "list", "--local", str(directory), "-o", "json")
    assert code == 0, err
    assert [g["groupId"] for g in json.loads(out)["items"]] == ["g"]
    notes = [line for line in err.splitlines() if "recovered the log" in line]
    assert len(notes) == 1 and notes[0].startswith(f"groupctl: note: {segment}: "), err
    note = notes[0]
    assert f"cutting off {cut} bytes from byte {cut_at} of {lab.size + len(garbage)}: " in note
    fill = {"size": cut_at, "size_plus_64": cut_at + 64, "batch_minus_1": len(lab.last_batch) - 1}
    for words in tail.says:
        assert words.format(**fill) in note, note
    assert segment.stat().st_size == cut_at
    assert _offsets(directory) == lab.describe

    for args in (("local", "topics", "list"), ("local", "member", "list"), ("local", "tick", "1s"),
                 ("local", "member", "commit", "pod-0", "--lag", "5")):
        code, _, err = _run(*args, "--local", str(directory))
        assert (code, "recovered the log" in err) == (0, False), (args, err)


def test_the_cli_process_recovers_a_bad_crc_tail_and_says_so(lab: Lab, tmp_path: Path) -> None:
    directory = tmp_path / "lab"
    shutil.copytree(lab.directory, directory)
    segment = directory / SEGMENT
    segment.write_bytes(segment.read_bytes() + _flipped(_at(lab.last_batch, lab.next_offset), 70))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPCTL_")} | {"PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "groupctl", "group", "describe", "g", "--local", str(directory)],
                         capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert f"cutting off {len(lab.last_batch)} bytes from byte {lab.size}" in run.stderr
    assert f"bad CRC at byte {lab.size}" in run.stderr
    assert "orders" in run.stdout
