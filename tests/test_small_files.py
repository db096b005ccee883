"""Small input files are read with a limit: /dev/zero, a FIFO that never ends and a file one byte over
are refused, with the file and the limit named, at every place a command reads such a file."""

from __future__ import annotations

import contextlib
import io
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from groupctl import small_files
from groupctl.errors import UsageError
from groupctl.small_files import SMALL_FILE_LIMIT, read_small_bytes, read_small_stream, read_small_text

ZERO = "/dev/zero"
SMALL = 4096


@contextlib.contextmanager
def endless_fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO whose writer never stops on its own: it writes until the reader goes away (or 60 s pass)."""
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write() -> None:
        fd = os.open(fifo, os.O_WRONLY)  # waits for the reader
        try:
            chunk = b"topic,0,1\n" * 4096
            for _ in range(1_000_000):
                if stop.is_set():
                    break
                os.write(fd, chunk)
        except BrokenPipeError:
            pass
        finally:
            os.close(fd)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield fifo
    finally:
        stop.set()
        if writer.is_alive():  # nobody opened the FIFO: open it once so the writer's open returns
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(timeout=10)
        assert not writer.is_alive()


def test_a_file_up_to_the_limit_is_read_whole(tmp_path):
    path = tmp_path / "plan.csv"
    path.write_bytes(b"x" * SMALL)
    assert read_small_bytes(path, "plan file", limit=SMALL) == b"x" * SMALL
    assert read_small_text(path, "plan file", limit=SMALL) == "x" * SMALL


def test_one_byte_over_is_refused_naming_the_file_and_the_limit(tmp_path):
    path = tmp_path / "plan.csv"
    path.write_bytes(b"x" * (SMALL + 1))
    with pytest.raises(UsageError, match=rf"plan file '{path}' is larger than {SMALL} bytes, the most"):
        read_small_bytes(path, "plan file", limit=SMALL)


def test_dev_zero_is_refused_at_the_real_limit():
    with pytest.raises(UsageError, match=r"users file '/dev/zero' is larger than 64 MiB"):
        read_small_bytes(ZERO, "users file")
    assert SMALL_FILE_LIMIT == 64 * 1024 * 1024


def test_a_fifo_that_never_ends_is_refused(tmp_path):
    with endless_fifo(tmp_path) as fifo, pytest.raises(UsageError, match=r"is larger than 1 MiB"):
        read_small_text(fifo, "plan file", limit=1 << 20)


def test_standard_input_is_bounded_too():
    assert read_small_stream("instance-id list", io.StringIO("a\nb\n"), limit=SMALL) == "a\nb\n"
    with pytest.raises(UsageError, match="instance-id list '-' is larger than 4096 bytes"):
        read_small_stream("instance-id list", _Stdin("x" * (SMALL + 1)), limit=SMALL)


class _Stdin(io.StringIO):
    name = "-"


def test_text_that_is_not_utf8_is_the_callers_to_name(tmp_path):
    path = tmp_path / "ids"
    path.write_bytes(b"\xff")
    with pytest.raises(UnicodeDecodeError):
        read_small_text(path, "topic-id map")


# -- every command that reads a small file -----------------------------------------------------------------


@pytest.fixture
def lab(cli, tmp_path: Path) -> Path:
    lab = tmp_path / "lab"
    assert cli("local", "topics", "create", "t", "-p", "1", "--local", str(lab)).code == 0
    return lab


def _sites(lab: Path, dump: Path, source: str) -> dict[str, tuple[str, ...]]:
    return {
        "--topic-ids": ("dump", "groups", str(dump), "--topic-ids", source),
        "offsets reset --from-file": ("group", "offsets", "reset", "g", "--from-file", source, "--dry-run",
                                      "--local", str(lab)),
        "remove-members --from-file": ("group", "remove-members", "g", "--from-file", source, "--dry-run",
                                       "--local", str(lab)),
        "serve --sasl-users": ("serve", "--sasl-users", source, "--port", "0", "--local", str(lab)),
        "--command-config": ("group", "list", "--command-config", source, "-b", "127.0.0.1:1", "--timeout", "2s"),
        "regex --topics-file": ("regex", "validate", "orders.*", "--topics-file", source),
    }


SITES = ["--topic-ids", "offsets reset --from-file", "remove-members --from-file", "serve --sasl-users",
         "--command-config", "regex --topics-file"]
#: remove-members --from-file takes a regular file (or - for standard input), and says so for a device or a FIFO.
DEVICE_SITES = [s for s in SITES if s != "remove-members --from-file"]


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    from groupctl.log.synthetic import write_sample_dump

    write_sample_dump(tmp_path / "dump")
    return tmp_path / "dump"


@pytest.mark.parametrize("site", SITES)
def test_every_small_file_option_refuses_a_file_over_the_limit(cli, lab, dump, site, tmp_path, monkeypatch):
    monkeypatch.setattr(small_files, "SMALL_FILE_LIMIT", SMALL)
    big = tmp_path / "big"
    big.write_text("orders,0,1\n" * SMALL)
    r = cli(*_sites(lab, dump, str(big))[site])
    assert r.code == 2, (r.out, r.err[-500:])
    assert f"'{big}' is larger than {SMALL} bytes" in r.err


def test_remove_members_refuses_what_is_not_a_regular_file(cli, lab, dump):
    r = cli(*_sites(lab, dump, ZERO)["remove-members --from-file"])
    assert r.code == 2 and "is not a file" in r.err


@pytest.mark.parametrize("site", DEVICE_SITES)
def test_every_small_file_option_refuses_dev_zero(cli, lab, dump, site):
    r = cli(*_sites(lab, dump, ZERO)[site])
    assert r.code == 2, (r.out, r.err[-500:])
    assert "'/dev/zero' is larger than 64 MiB" in r.err


@pytest.mark.parametrize("site", DEVICE_SITES)
def test_every_small_file_option_refuses_an_endless_fifo(cli, lab, dump, site, tmp_path, monkeypatch):
    monkeypatch.setattr(small_files, "SMALL_FILE_LIMIT", 1 << 20)
    with endless_fifo(tmp_path) as fifo:
        r = cli(*_sites(lab, dump, str(fifo))[site])
    assert r.code == 2, (r.out, r.err[-500:])
    assert f"'{fifo}' is larger than 1 MiB" in r.err


def test_the_contexts_file_and_a_secret_file_are_bounded(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("GROUPCTL_CONFIG", ZERO)
    r = cli("context", "list")
    assert r.code == 2 and "'/dev/zero' is larger than 64 MiB" in r.err
    config = tmp_path / "config.toml"
    config.write_text('current-context = "lab"\n[contexts.lab]\nbootstrap-servers = "127.0.0.1:1"\n'
                      '[contexts.lab.properties]\nsecurity.protocol = "SASL_PLAINTEXT"\nsasl.mechanism = "PLAIN"\n'
                      'sasl.username = "u"\nsasl.password = { file = "/dev/zero" }\n')
    config.chmod(0o600)
    monkeypatch.setenv("GROUPCTL_CONFIG", str(config))
    r = cli("group", "list", "--timeout", "2s")
    assert r.code == 2 and "'/dev/zero' is larger than 64 MiB" in r.err


@pytest.mark.parametrize("args", [("group", "remove-members", "g", "--from-file", "-", "--dry-run"),
                                  ("regex", "validate", "orders.*", "--topics-file", "-")], ids=lambda a: a[1])
def test_standard_input_given_as_a_small_file_is_bounded(cli, lab, monkeypatch, args):
    monkeypatch.setattr(small_files, "SMALL_FILE_LIMIT", SMALL)
    monkeypatch.setattr("sys.stdin", _Stdin("pod-0\n" * SMALL))
    r = cli(*args, *(("--local", str(lab)) if args[0] == "group" else ()))
    assert r.code == 2 and "'-' is larger than 4096 bytes" in r.err
