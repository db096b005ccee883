"""Dump inputs that are not plain files: FIFOs, /dev/stdin, `<(cat seg)`; and paths that cannot be read.

Special files are read once into a temporary file, so detecting the format does not consume what
decoding needs. Unreadable inputs are one-line errors naming the path (exit 1), wrong arguments
exit 2, damaged content exit 3, and none of them is ever an "internal error".
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.server.waits import WAIT_S

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def segment(sample: Path) -> Path:
    return sample / "__consumer_offsets-0" / "00000000000000000000.log"


@pytest.fixture
def text(cli, sample: Path, tmp_path: Path) -> Path:
    path = tmp_path / "dump.txt"
    path.write_text(cli("dump", "decode", "--format", "dump-log", str(sample)).out)
    return path


def _records(jsonl: str) -> list[tuple[int, object]]:
    """The records of jsonl output, without the file each came from (that differs by input path)."""
    import json

    return [(d["offset"], d["value"]) for d in map(json.loads, jsonl.splitlines())]


def _feed_fifo(fifo: Path, data: bytes) -> threading.Thread:
    """A writer for the FIFO: it blocks until the command opens the other end, then writes and closes."""

    def write() -> None:
        fd = os.open(fifo, os.O_WRONLY)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _groupctl(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "groupctl", *args], cwd=ROOT, capture_output=True, timeout=60,
                          **kw)


@pytest.mark.parametrize("kind", ["segment", "text"])
def test_a_fifo_is_read_whatever_its_format(cli, segment, text, tmp_path, kind) -> None:
    source = segment if kind == "segment" else text
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    writer = _feed_fifo(fifo, source.read_bytes())
    r = cli("dump", "decode", "--format", "jsonl", str(fifo))
    writer.join(timeout=WAIT_S)
    assert not writer.is_alive()
    assert r.code == 0, r.err
    assert _records(r.out) == _records(cli("dump", "decode", "--format", "jsonl", str(segment)).out)
    assert len(r.out.splitlines()) == 31


def test_dev_stdin_from_a_file_and_from_a_pipe(cli, segment) -> None:
    expected = _records(cli("dump", "decode", "--format", "jsonl", str(segment)).out)
    with segment.open("rb") as fh:
        from_file = _groupctl("dump", "decode", "--format", "jsonl", "/dev/stdin", stdin=fh)
    from_pipe = _groupctl("dump", "decode", "--format", "jsonl", "/dev/stdin", input=segment.read_bytes())
    for r in (from_file, from_pipe):
        assert r.returncode == 0, r.stderr
        assert _records(r.stdout.decode()) == expected


@pytest.mark.skipif(shutil.which("bash") is None, reason="process substitution needs bash")
@pytest.mark.parametrize("command", [["decode", "--format", "jsonl"], ["groups"], ["audit"]])
def test_process_substitution(cli, segment, text, command) -> None:
    expected = cli("dump", *command, str(segment)).out
    for source in (segment, text):
        line = " ".join([sys.executable, "-m", "groupctl", "dump", *command, f"<(cat '{source}')"])
        r = subprocess.run(["bash", "-c", line], cwd=ROOT, capture_output=True, timeout=60)
        assert r.returncode == 0, r.stderr
        if command[0] == "decode":
            assert _records(r.stdout.decode()) == _records(expected)
        else:
            assert r.stdout.decode() == expected


def test_an_unreadable_file_is_a_one_line_error(cli, segment, monkeypatch) -> None:
    # Tests run as root, whom chmod 000 does not stop: the refusal is simulated where the file is opened.
    real_open = Path.open

    def refuse(self, *args, **kwargs):
        if self == segment:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    for command in (["decode"], ["groups"], ["audit"]):
        r = cli("dump", *command, str(segment))
        assert r.code == 1
        assert r.err == f"groupctl: error: cannot read '{segment}': Permission denied; check the path and its " \
            "permissions\n"


def test_an_unreadable_directory_is_a_one_line_error(cli, sample, monkeypatch) -> None:
    real_iterdir = Path.iterdir

    def refuse(self):
        if self == sample:
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", refuse)
    r = cli("dump", "decode", str(sample))
    assert r.code == 1
    assert r.err == f"groupctl: error: cannot read '{sample}': Permission denied; check the path and its permissions\n"


def test_wrong_paths_are_usage_errors(cli, segment, tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    cases = {
        str(tmp_path / "empty"): "holds no .log segment files",
        str(tmp_path / "missing.log"): "does not exist",
        str(segment / "inside-a-file"): "does not exist",  # NotADirectoryError underneath
    }
    for path, message in cases.items():
        r = cli("dump", "decode", path)
        assert r.code == 2 and message in r.err and path in r.err
        assert len(r.err.splitlines()) == 1 and "internal error" not in r.err


def test_a_text_file_that_is_not_utf8_is_damaged_not_a_crash(cli, text, tmp_path) -> None:
    lines = text.read_bytes().split(b"\n")
    lines[3] = lines[3][:40] + b"\xc3\x28\xff" + lines[3][40:]
    bad = tmp_path / "latin.txt"
    bad.write_bytes(b"\n".join(lines))
    r = cli("dump", "decode", "--format", "jsonl", str(bad))
    assert r.code == 3
    assert f"{bad}:4: the line is not valid UTF-8" in r.err
    assert len(r.out.splitlines()) == 30


def test_a_text_line_with_hostile_numbers_is_damaged_and_the_rest_decoded(cli, text, tmp_path) -> None:
    lines = text.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"leaderEpoch":0', b'"leaderEpoch":' + b"9" * 30, 1)
    lines[6] = lines[6].replace(b'"metadata":""', b'"metadata":' + b"[" * 10_000 + b"]" * 10_000, 1)
    bad = tmp_path / "hostile.txt"
    bad.write_bytes(b"\n".join(lines))
    for command in (["decode", "--format", "jsonl"], ["audit"], ["groups"]):
        r = cli("dump", *command, str(bad))
        assert r.code == 3, r.err
        assert f"{bad}:6: " in r.err and f"{bad}:7: " in r.err
        assert "internal error" not in r.err
    assert len(cli("dump", "decode", "--format", "jsonl", str(bad)).out.splitlines()) == 29


def test_a_file_name_with_odd_bytes_prints_on_a_strict_stdout(segment, tmp_path) -> None:
    odd = os.fsencode(tmp_path) + b"/seg\xff\xfe.log"
    shutil.copyfile(segment, odd)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict: a raw surrogate would fail the write
    for fmt in ("jsonl", "dump-log", "table"):
        r = subprocess.run([sys.executable, "-m", "groupctl", "dump", "decode", "--format", fmt, odd], cwd=ROOT,
                           capture_output=True, timeout=60, env=env)
        assert r.returncode == 0, r.stderr
        if fmt == "dump-log":
            assert r.stdout.startswith(b"Dumping " + os.fsencode(tmp_path) + b"/seg\\xff\\xfe.log\n")


def test_a_topic_id_map_that_is_not_utf8_is_a_usage_error(cli, sample, tmp_path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_bytes(b"orders \xff\xfe\n")
    r = cli("dump", "groups", str(sample), "--topic-ids", str(ids))
    assert r.code == 2
    assert r.err == f"groupctl: error: the topic-id map '{ids}' is not UTF-8 text (byte 7); give kafka-topics.sh " \
        "--describe output, JSON, or 'name id' lines\n"


def test_groups_with_a_path_that_cannot_be_looked_at(cli, sample, monkeypatch) -> None:
    hidden = sample / "locked" / "00000000000000000000.log"
    real_stat = Path.stat

    def refuse(self, *args, **kwargs):
        if self == hidden:
            raise PermissionError(13, "Permission denied", str(self))
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", refuse)
    r = cli("dump", "groups", str(hidden), "orders-app")
    assert r.code == 1
    assert r.err == f"groupctl: error: cannot read '{hidden}': Permission denied; check the path and its permissions\n"
