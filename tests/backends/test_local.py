"""The local backend: state in a directory that survives invocations, a lock, torn-tail repair."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from groupctl.backends.local import LOCK_FILE, LOG_DIR, SERVING_FILE, LocalBackend, _alive
from groupctl.coordinator.offsets import CommitPartition
from groupctl.errors import GroupctlError, GroupNotFound
from groupctl.model import TopicPartition
from groupctl.protocol.data.groups import MemberIdentity
from tests.classic_requests import join_req
from tests.heartbeats import hb
from tests.mixed_groups import write_groups
from tests.server.waits import WAIT_S, wait_until
from tests.test_json_files import disk_events


def join(backend: LocalBackend, member: str, instance: str | None = None) -> None:
    r = backend.coordinator.heartbeat(hb(
        "g", member, 0, instance_id=instance, rebalance_timeout_ms=1000, subscribed_topic_names=["orders"],
        topic_partitions=[],
    ))
    assert r.error_code == 0, r


def test_state_survives_invocations_and_reads_like_a_broker_dump(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        b.end_offsets_by_topic["orders"] = [10, 20, 30]
        join(b, "a", "pod-a")
        b.clock.set(b.clock.now_ms() + 5_000)
        now = b.clock.now_ms()
    with LocalBackend(tmp_path) as b:
        assert b.clock.now_ms() == now
        assert b.list_topics() == ["orders"]
        (described,) = b.describe_groups(["g"])
        assert [m.instance_id for m in described.members] == ["pod-a"]
        assert b.end_offsets([TopicPartition("orders", 2), TopicPartition("orders", 7)]) == {
            TopicPartition("orders", 2): 30
        }
    from groupctl.log.decode import open_inputs
    from groupctl.log.replay import Replay

    replay = Replay()
    for dump in open_inputs([tmp_path / LOG_DIR]):
        for _batch, records in dump.batches:
            replay.apply_all(records)
    assert replay.group_ids() == ["g"]


def test_the_listing_says_which_consumer_groups_are_mixed_whatever_is_asked(tmp_path: Path) -> None:
    """Known from the replayed state, so filled without asking (`mixed` matters on a cluster only)."""
    write_groups(tmp_path)
    with LocalBackend(tmp_path) as b:
        b.coordinator.create_topic("invoices", 1)
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 5)])  # a simple group
        for asked in (False, True):
            listed = {g.group_id: (g.type, g.mixed) for g in b.list_groups(mixed=asked)}
            assert listed == {"billing": ("classic", False), "legacy-app": ("consumer", True),
                              "oracle-mixed": ("consumer", True), "orders-app": ("consumer", True),
                              "payments-app": ("consumer", False)}
        assert [g.mixed for g in b.list_groups(types=["consumer"], states=["Stable"])] == [True, True, True, False]


def test_missing_directory_and_group(tmp_path: Path) -> None:
    with pytest.raises(GroupctlError, match="holds no local coordinator"):
        LocalBackend(tmp_path / "nothing")
    with LocalBackend(tmp_path, create=True) as b, pytest.raises(GroupNotFound, match="group 'nope' does not exist"):
        b.describe_groups(["nope"])


def test_torn_tail_is_cut_off_and_reported_and_acknowledged_records_stay(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        join(b, "a")
        join(b, "b")
    segment = next((tmp_path / LOG_DIR).glob("*.log"))
    whole = segment.read_bytes()
    with LocalBackend(tmp_path) as b:
        join(b, "c")
    grown = segment.read_bytes()
    segment.write_bytes(grown[: len(whole) + (len(grown) - len(whole)) // 2])  # killed mid-write
    with LocalBackend(tmp_path) as b:
        assert b.notices and "a write cut short" in b.notices[0] and "no whole valid batch" in b.notices[0]
        assert sorted(m.member_id for m in b.describe_groups(["g"])[0].members) == ["a", "b"]
    assert segment.read_bytes() == whole


def test_remove_members_results(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        for m in "abc":
            join(b, m, f"pod-{m}")
    with LocalBackend(tmp_path) as b:
        targets = [MemberIdentity(group_instance_id=i, reason="scale down") for i in ("pod-a", "pod-x")]
        results = b.remove_members("g", targets)
    assert [(r.instance_id, r.outcome, r.member_id) for r in results] == [
        ("pod-a", "removed", "a"), ("pod-x", "UNKNOWN_MEMBER_ID", None)
    ]
    assert results[0].partitions == [TopicPartition("orders", p) for p in range(3)]


def test_config_round_trip_and_validation(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.alter_config("g", {"consumer.session.timeout.ms": "50000"}, [])
        with pytest.raises(GroupctlError, match=r"must be less than or equal to group\.consumer\.max\.session"):
            b.alter_config("g", {"consumer.session.timeout.ms": "90000"}, [], validate_only=True)
    with LocalBackend(tmp_path) as b:
        entry = b.get_config("g", ["consumer.session.timeout.ms"])[0]
        assert (entry.value, entry.source) == (50_000, "DYNAMIC_GROUP_CONFIG")


def test_a_member_that_stopped_heartbeating_still_expires_across_invocations(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        join(b, "a")
    for _ in range(5):  # five invocations of 10 s each: the session (45 s) must not restart each time
        with LocalBackend(tmp_path) as b:
            b.coordinator.advance(10_000)
    with LocalBackend(tmp_path) as b:
        assert b.describe_groups(["g"])[0].members == []


def test_a_classic_rebalance_in_progress_carries_on_in_the_next_invocation(tmp_path: Path) -> None:
    from groupctl.coordinator.classic import PREPARING_REBALANCE

    got: list = []
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        b.coordinator.join_group(join_req("c", 10_000, 30_000, "", "pod-a", protocols=[("range", b"")]),
                                 got.append)
        assert b.coordinator.classic.groups["c"].state == PREPARING_REBALANCE
    with LocalBackend(tmp_path) as b:
        group = b.coordinator.classic.groups["c"]
        assert group.state == PREPARING_REBALANCE and list(group.static) == ["pod-a"]
        b.coordinator.advance(3_000)  # the initial rebalance delay, restored from timers.json
        assert b.coordinator.classic.groups["c"].state == "CompletingRebalance"
    # A process that appended records and died before saving its snapshot: the snapshot is stale.
    from groupctl.coordinator.offsets import offset_commit
    from groupctl.log.writer import SegmentWriter, SimpleRecord

    with SegmentWriter(tmp_path / LOG_DIR) as writer:
        key, value = offset_commit("other", "orders", 0, offset=1, leader_epoch=-1, metadata="", commit_timestamp=0)
        writer.append([SimpleRecord(key, value, 0)])
    with LocalBackend(tmp_path) as b:
        assert any("older than the log" in n for n in b.notices)
        assert b.coordinator.classic.groups["c"].state == "Empty"  # reloaded from its last record


def test_served_on_the_wall_clock_members_keep_their_session_and_time_never_goes_back(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.coordinator.create_topic("orders", 3)
        join(b, "m1")
        saved = b.clock.now_ms()  # 2026-01-01: months behind the wall clock
    opened_ms = int(time.time() * 1000)
    with LocalBackend(tmp_path, wall_clock=True) as served:
        assert served.clock.now_ms() >= opened_ms  # the wall clock from here on, whatever the machine's load
        served.coordinator.fire_due()
        assert [m.member_id for m in served.describe_groups(["g"])[0].members] == ["m1"]
    with LocalBackend(tmp_path) as again:
        assert again.clock.now_ms() > saved


def test_an_assigned_partition_without_a_commit_still_shows_its_log_end_offset(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as b:
        b.create_topic("orders", 3, messages=70)
        join(b, "a")
        (desc,) = b.describe_groups(["g"])
    assert desc.offsets == []
    assert [(u.topic, u.partition, u.log_end_offset) for u in desc.uncommitted] == [("orders", p, 70) for p in range(3)]


def test_a_command_s_state_files_are_renamed_together_then_the_directory_fsynced(tmp_path, monkeypatch):
    with LocalBackend(tmp_path / "lab", create=True) as backend:
        backend.create_topic("orders", 2)
    events = disk_events(monkeypatch)
    with LocalBackend(tmp_path / "lab") as backend:
        backend.add_partitions("orders", 3)
        backend.alter_config("g", {"consumer.session.timeout.ms": "50000"}, [])
    replaced = [e for e in events if e[0] == "replace"]
    assert sorted(p for _, p in replaced) == [str(tmp_path / "lab" / n) for n in ("group-configs.json", "topics.json")]
    assert events[len(replaced):] == [("fsync-dir", str(tmp_path / "lab"))]


# -- serving.json: a running `groupctl serve`, one still loading, one that was killed ------------------------------

_HOLD_LOCK = ("import fcntl, sys\n"
              "lock = open(sys.argv[1], 'a+')\n"
              "fcntl.flock(lock, fcntl.LOCK_EX)\n"
              "print('locked', flush=True)\n"
              "sys.stdin.read()\n")


@contextmanager
def lock_held(directory: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding DIR's lock (as serve or a long invocation does) until the block ends."""
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(directory / LOCK_FILE)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        yield holder
    finally:
        holder.kill()
        holder.wait(10)


def _reaped_pid() -> int:
    """The pid of a process that has exited and been reaped: `os.kill(pid, 0)` finds no such process."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(10)
    return process.pid


def announce(directory: Path, pid: int) -> None:
    (directory / SERVING_FILE).write_text(json.dumps(
        {"pid": pid, "listeners": "PLAINTEXT://127.0.0.1:19092", "bootstrap": "127.0.0.1:19092"}))


def test_a_serve_holding_the_lock_fails_the_command_at_once_naming_the_bootstrap(tmp_path: Path) -> None:
    LocalBackend(tmp_path, create=True).close()
    with lock_held(tmp_path) as holder:
        announce(tmp_path, holder.pid)
        failed: list[BaseException] = []
        opening = threading.Thread(target=_open_into, args=(tmp_path, failed), daemon=True)
        opening.start()
        opening.join(WAIT_S)  # the holder keeps the lock until the block ends: an open that waited would not end
        assert not opening.is_alive(), "LocalBackend waited for a DIR that serve holds"
        (error,) = failed
        assert isinstance(error, GroupctlError), error
        assert "reach it with -b 127.0.0.1:19092 instead of --local" in str(error)
        assert (tmp_path / SERVING_FILE).exists()


def _open_into(directory: Path, failed: list[BaseException]) -> None:
    """Open DIR and close it again; what it raised goes into `failed`."""
    try:
        LocalBackend(directory).close()
    except BaseException as exc:
        failed.append(exc)


def test_a_stale_serving_json_is_removed_while_waiting_for_a_short_lived_holder(tmp_path: Path) -> None:
    LocalBackend(tmp_path, create=True).close()
    opened: list[LocalBackend] = []
    with lock_held(tmp_path):
        announce(tmp_path, _reaped_pid())
        waiter = threading.Thread(target=lambda: opened.append(LocalBackend(tmp_path)), daemon=True)
        waiter.start()
        wait_until(lambda: not (tmp_path / SERVING_FILE).exists(), "the stale serving.json is removed")
        assert waiter.is_alive() and not opened
    waiter.join(WAIT_S)
    (backend,) = opened
    with backend:
        assert any("serving.json: removed" in n and "no longer running" in n for n in backend.notices)


def test_a_stale_serving_json_on_a_free_directory_is_removed_with_a_note(tmp_path: Path) -> None:
    LocalBackend(tmp_path, create=True).close()
    pid = _reaped_pid()
    announce(tmp_path, pid)
    with LocalBackend(tmp_path) as backend:
        assert backend.notices == [f"{tmp_path / SERVING_FILE}: removed; it was left by a `groupctl serve` "
                                   f"(pid {pid}) that is no longer running"]
    assert not (tmp_path / SERVING_FILE).exists()


def test_on_a_free_directory_serving_json_is_stale_whatever_its_pid(tmp_path: Path) -> None:
    """A serve keeps DIR's lock for its life, so a free lock means no serve: a reused pid (here this very
    process, alive) does not keep a killed serve's file."""
    LocalBackend(tmp_path, create=True).close()
    announce(tmp_path, os.getpid())
    with LocalBackend(tmp_path) as backend:
        assert any("serving.json: removed" in n for n in backend.notices)
    assert not (tmp_path / SERVING_FILE).exists()


def test_a_killed_serve_not_yet_reaped_is_not_alive() -> None:
    """Signal 0 reaches a zombie; the serving.json of a serve killed a moment ago must read as stale."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert _alive(process.pid)
        process.kill()  # not waited for: a zombie until reaped
        wait_until(lambda: _state(process.pid) == "Z", "the process is a zombie")
        assert not _alive(process.pid)
    finally:
        process.kill()
        process.wait(10)


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
