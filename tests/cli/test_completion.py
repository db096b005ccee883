"""Shell completion as bash asks for it: `groupctl` run with _GROUPCTL_COMPLETE, COMP_WORDS and COMP_CWORD
(what completions/groupctl.bash sets), in a subprocess, against a local DIR and a `serve` in the test."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.conftest import Served, run_in
from tests.server.waits import WAIT_S

ROOT = Path(__file__).resolve().parents[2]
#: A completion that ran past its lookup bound would still finish within this; one that hangs would not.
PROCESS_TIMEOUT_S = 2 * WAIT_S

#: `python -m groupctl` with completion.LOOKUP_BOUND_S set to argv[1]: on a loaded machine a lookup that
#: finds names may take longer than the 1 s a TAB waits, and would then complete nothing.
_WITH_BOUND = ("import sys\n"
               "from groupctl.cli import completion\n"
               "completion.LOOKUP_BOUND_S = float(sys.argv.pop(1))\n"
               "from groupctl.cli.app import main\n"
               "main()\n")


def complete(*words: str, bound_s: float | None = WAIT_S, **env: str) -> list[str]:
    """What bash would offer for the last of `words` (give "" to complete a new word); fails on any output
    on stderr or a non-zero exit, as the shell would show those. The lookup waits `bound_s` (None: the
    product's own LOOKUP_BOUND_S, for the tests of what a TAB does when the bound runs out)."""
    line = ["groupctl", *words]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GROUPCTL_", "COMP_"))}
    base["PYTHONPATH"] = str(ROOT) + os.pathsep + base.get("PYTHONPATH", "")
    base["GROUPCTL_CONFIG"] = os.environ["GROUPCTL_CONFIG"]
    command = ["-m", "groupctl"] if bound_s is None else ["-c", _WITH_BOUND, str(bound_s)]
    run = subprocess.run(
        [sys.executable, *command], capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S,
        env={**base, "_GROUPCTL_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(line),
             "COMP_CWORD": str(len(line) - 1), **env},
    )
    assert (run.returncode, run.stderr) == (0, ""), run
    return run.stdout.split()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DIR with a classic group (instances c0, c1) and a KIP-848 group (k0, k1). Served, it runs on the wall
    clock and the members never heartbeat: their sessions are the longest allowed (30 min classic, 60 s
    KIP-848), and the served test asks for the KIP-848 members first."""
    d = tmp_path_factory.mktemp("completion") / "lab"
    run_in(d, "local", "topics", "create", "orders", "--partitions", "4")
    for name, group, protocol in (("c0", "classic-app", "classic"), ("c1", "classic-app", "classic"),
                                  ("k0", "kip-app", "consumer"), ("k1", "kip-app", "consumer")):
        session = ("--session-timeout", "1800000") if protocol == "classic" else ()
        run_in(d, "local", "member", "join", name, "--group", group, "--protocol", protocol, "--instance-id", name,
               "--topics", "orders", *session)
    run_in(d, "group", "config", "set", "kip-app", "consumer.session.timeout.ms=60000")
    return d


def _snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(directory)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(directory.rglob("*")) if p.is_file()}


def test_group_ids_and_instance_ids_come_from_a_local_dir_which_is_left_as_it_was(lab: Path) -> None:
    before = _snapshot(lab)
    d = str(lab)
    assert complete("group", "describe", "--local", d, "") == ["classic-app", "kip-app"]
    assert complete("group", "describe", "--local", d, "k") == ["kip-app"]
    for words in (("remove-members", "--local", d), ("delete", "--local", d), ("config", "get", "--local", d),
                  ("config", "set", "--local", d), ("offsets", "delete", "--local", d),
                  ("offsets", "reset", "--local", d), ("offsets", "reset", "g", "--local", d, "--to-group")):
        assert complete("group", *words, "cl") == ["classic-app"], words
    assert complete("group", "remove-members", "kip-app", "--local", d, "--instance-id", "") == ["k0", "k1"]
    for words in (("describe",), ("delete",), ("offsets", "delete"), ("offsets", "reset", "classic-app")):
        assert complete("group", *words, "--local", d, "--group", "k") == ["kip-app"], words
    assert complete("group", "remove-members", "--local", d, "classic-app", "-i", "c0,") == ["c0,c1"]
    assert complete("group", "remove-members", "--local", d, "nosuch", "-i", "") == []
    assert complete("group", "describe", "", GROUPCTL_LOCAL=d) == ["classic-app", "kip-app"]
    assert complete("local", "member", "list", "--local", d, "--group", "") == ["classic-app", "kip-app"]
    assert complete("local", "member", "join", "m9", "--group", "k", GROUPCTL_LOCAL=d) == ["kip-app"]
    assert _snapshot(lab) == before


def test_a_dir_that_is_no_coordinator_completes_nothing_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here"
    assert complete("group", "describe", "--local", str(missing), "") == []
    assert not missing.exists()


@pytest.fixture
def served_lab(lab: Path, tmp_path: Path, serve: Callable[[Path, str], Served]) -> Served:
    import shutil

    copy = tmp_path / "served"
    shutil.copytree(lab, copy)
    return serve(copy, "serve")


def test_group_ids_and_instance_ids_come_from_a_served_cluster(served_lab: Served, tmp_path: Path) -> None:
    bootstrap = served_lab.server.bootstrap
    assert complete("group", "remove-members", "-b", bootstrap, "kip-app", "--instance-id", "") == ["k0", "k1"]
    assert complete("group", "remove-members", "-b", bootstrap, "classic-app", "-i", "") == ["c0", "c1"]
    assert complete("group", "describe", "-b", bootstrap, "") == ["classic-app", "kip-app"]
    assert complete("group", "delete", "k", GROUPCTL_BOOTSTRAP_SERVER=bootstrap) == ["kip-app"]
    config = tmp_path / "config.toml"
    config.write_text(f'[contexts.lab]\nbootstrap-servers = "{bootstrap}"\n')
    assert complete("group", "describe", "--context", "lab", "", GROUPCTL_CONFIG=str(config)) == [
        "classic-app", "kip-app"]
    assert complete("group", "describe", "", GROUPCTL_CONFIG=str(config), GROUPCTL_CONTEXT="lab") == [
        "classic-app", "kip-app"]
    assert complete("group", "list", "--context", "", GROUPCTL_CONFIG=str(config)) == ["lab"]
    # The local commands never ask a cluster, whatever context is current.
    assert complete("local", "member", "list", "--group", "", GROUPCTL_CONFIG=str(config),
                    GROUPCTL_CONTEXT="lab") == []


@pytest.fixture
def silent_broker() -> Iterator[str]:
    """A 127.0.0.1 listener that accepts connections and never answers: a broker that hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.2)
        stop = threading.Event()
        held: list[socket.socket] = []

        def accept() -> None:
            while not stop.is_set():
                try:
                    held.append(listener.accept()[0])
                except OSError:
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        try:
            yield f"127.0.0.1:{listener.getsockname()[1]}"
        finally:
            stop.set()
            thread.join(5)
            for conn in held:
                conn.close()


def test_an_unreachable_or_hung_cluster_completes_nothing_silently(silent_broker: str, closed_port: int) -> None:
    assert complete("group", "describe", "-b", silent_broker, "", bound_s=None) == []
    assert complete("group", "remove-members", "-b", silent_broker, "g", "--instance-id", "", bound_s=None) == []
    assert complete("group", "describe", "-b", f"127.0.0.1:{closed_port}", "") == []
    assert complete("group", "describe", "--context", "nosuch", "") == []


def test_option_values(tmp_path: Path) -> None:
    assert complete("group", "list", "--type", "") == ["classic", "consumer", "share", "streams"]
    assert complete("group", "describe", "--all", "-t", "classic,c") == ["classic,consumer"]
    assert complete("group", "list", "--state", "st") == ["stable"]
    assert complete("group", "list", "-s", "Empty,Pre") == ["Empty,PreparingRebalance"]
    assert complete("dump", "decode", "--record-type", "GROUP_METADATA,OFFSET_") == ["GROUP_METADATA,OFFSET_COMMIT"]
    assert complete("dump", "decode", "--format", "") == ["table", "dump-log", "jsonl"]
    assert complete("dump", "decode", "--kafka-version", "4.") == ["4.0", "4.1", "4.2", "4.3"]
    assert complete("spark", "audit", "--master", "local[")[:2] == ["local[*]", "local[1]"]
    assert complete("serve", "--sasl-mechanisms", "PLAIN,SCRAM-SHA-5") == ["PLAIN,SCRAM-SHA-512"]
    assert complete("local", "settings", "--kafka-version", "") == ["4.0", "4.1", "4.2", "4.3"]
    assert complete("dump", "audit", "--fail-on", "w") == ["warning"]


def test_share_group_ids_complete_where_group_ids_do(lab: Path, tmp_path: Path,
                                                     serve: Callable[[Path, str], Served]) -> None:
    import shutil

    d = tmp_path / "with-share"
    shutil.copytree(lab, d)
    run_in(d, "local", "member", "join", "s0", "--group", "share-app", "--protocol", "share", "--topics", "orders")
    for words in (("describe",), ("delete",), ("offsets", "delete"), ("offsets", "reset")):
        assert complete("group", *words, "--local", str(d), "s") == ["share-app"], words
    served = serve(d, "serve")
    assert complete("group", "describe", "-b", served.server.bootstrap, "") == ["classic-app", "kip-app",
                                                                                 "share-app"]
