"""The local backend: the in-process coordinator with its state in a directory.

DIR holds `__consumer_offsets-0/` (one segment in Kafka's format, so `groupctl dump` reads it like
a broker's), `topics.json` (topic ids, partition counts, log end offsets), `group-configs.json`,
`clock.json` (the virtual clock), `share-state.json` (share-partitions' start offsets: the share
coordinator's state, which a broker keeps in `__share_group_state`) and, once any is set,
`broker-settings.json` (the coordinator's broker settings, `local_settings`); `data/` holds the
partition logs `groupctl serve` writes, and when it does, their log end offsets win over topics.json's
(serve may have died before saving).
Every invocation takes an exclusive lock on DIR, loads the coordinator by replaying the log
(Kafka's failover), runs, fsyncs what it appended, and writes the JSON files atomically. On open
the log is recovered as Kafka recovers a segment: from the first batch that is not whole and valid
(a process killed mid-write, zeros, a bad CRC, garbage) to the end, the bytes are cut off, and
`notices` says how many, from where, why, and whether any whole batch was among them (a torn last
write never was acknowledged: appends return after fsync).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from groupctl.backends.local_classic import is_snapshot
from groupctl.backends.local_readonly import ReadOnlyDir, ReadOnlySegment
from groupctl.backends.local_settings import coordinator_settings, group_config_broker, read_settings
from groupctl.backends.local_shapes import checked, has, is_int, is_list_of, is_text, reading
from groupctl.coordinator.clock import Clock, ManualClock, WallClock
from groupctl.coordinator.configs import GroupConfigs
from groupctl.coordinator.coordinator import Coordinator, known_partitions
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.log import SegmentLog
from groupctl.coordinator.runtime import TIMER_KINDS
from groupctl.coordinator.share.starts import ShareStarts
from groupctl.coordinator.soft_state import SoftState
from groupctl.coordinator.topics import Topic, TopicImage
from groupctl.errors import KAFKA_ERROR_NAMES, GroupctlError, GroupNotFound, KafkaError
from groupctl.json_files import StateNotWritten, json_bytes, read_json, write_files
from groupctl.leaving import removal_results
from groupctl.log.writer import SegmentWriter
from groupctl.model import (
    DELETED,
    UNKNOWN_PARTITION,
    CommittedOffset,
    ConfigEntry,
    GroupDeletion,
    GroupDescription,
    GroupListing,
    OffsetDeletion,
    RemovalResult,
    TopicPartition,
    attach_log_ends,
    described_partitions,
)
from groupctl.protocol.data.groups import MemberIdentity

LOG_DIR = "__consumer_offsets-0"
TOPICS_FILE = "topics.json"
CONFIGS_FILE = "group-configs.json"
CLOCK_FILE = "clock.json"
TIMERS_FILE = "timers.json"
CLASSIC_FILE = "classic-groups.json"
#: The share-partitions' start offsets (the share coordinator's state, which is not in the log).
SHARE_STATE_FILE = "share-state.json"
#: Timers that outlive an invocation: sessions, revocation and rebalance deadlines. Kafka restarts
#: them on failover; a local DIR is the same coordinator carrying on between invocations, so a
#: member that stopped heartbeating still expires and a rebalance still times out.
_PERSISTED_TIMERS = TIMER_KINDS
LOCK_FILE = ".lock"
#: Written by `groupctl serve` while it holds DIR, so that other commands can say where it is.
SERVING_FILE = "serving.json"
#: Where `groupctl serve` keeps the partition logs of produced records (groupctl.server.partitions).
DATA_DIR = "data"
#: How often a command waiting for DIR's lock looks again (and re-reads serving.json).
_LOCK_POLL_S = 0.05
#: Where a new DIR's virtual clock starts: 2026-01-01T00:00:00Z, so timestamps look like times.
EPOCH_MS = 1_767_225_600_000
#: Why opening DIR's lock for writing fails on a DIR that can be read but not written.
_READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
__all__ = ["LocalBackend", "ReadOnlyDir", "StateNotWritten"]


def _alive(pid: object) -> bool:
    """Whether process `pid` exists (another user's counts: signalling it is merely not allowed)."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A process killed but not yet reaped by its parent still answers signal 0; on Linux its state says Z."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


#: The latest time clock.json may hold: the end of year 9999 (UTC), the last instant a timestamp prints as a date;
#: far enough below int64's limit that ticks (a day at most each) still fit every record's int64 timestamps.
MAX_CLOCK_MS = 253_402_300_799_999


def _is_clock(data: Any) -> bool:
    """clock.json: {"nowMs": ms}, a time from the epoch to MAX_CLOCK_MS."""
    return has(data, nowMs=lambda v: is_int(v) and 0 <= v <= MAX_CLOCK_MS)


def _is_topic(data: Any) -> bool:
    return (has(data, name=lambda v: isinstance(v, str), topicId=lambda v: isinstance(v, str), partitions=is_int,
                endOffsets=lambda v: is_list_of(v, is_int))
            and {"name", "topicId", "partitions"} <= data.keys() and data["partitions"] >= 0)


def _is_topics(data: Any) -> bool:
    """topics.json: {"topics": [{"name", "topicId", "partitions", "endOffsets"}], "version", "newTopicsVersion"}."""
    return has(data, topics=lambda v: is_list_of(v, _is_topic), version=is_int, newTopicsVersion=is_int)


def _is_configs(data: Any) -> bool:
    """group-configs.json: {"overrides": {group: {name: value}}}."""
    return has(data, overrides=lambda v: isinstance(v, dict) and all(
        isinstance(g, str) and isinstance(c, dict) and all(isinstance(n, str) for n in c) for g, c in v.items()))


def _check_overrides(configs: GroupConfigs) -> None:
    """Each saved group config is one of Kafka's with a value it takes (ValueError, KeyError if not)."""
    from groupctl.coordinator.configs import GROUP_CONFIGS, parse_value

    for group, values in configs.overrides.items():
        try:
            for name, value in values.items():
                if isinstance(value, bool) or parse_value(GROUP_CONFIGS[name], value) != value:
                    raise ValueError(f"{name}: {value!r}")
            configs.plan(group)
        except KafkaError as exc:
            raise ValueError(exc.message or exc.name) from None


def _is_timer(entry: Any) -> bool:
    return (isinstance(entry, list) and len(entry) >= 2 and entry[0] in _PERSISTED_TIMERS
            and all(isinstance(part, str) for part in entry[1:-1]) and is_int(entry[-1]))


def _is_timers(data: Any) -> bool:
    """timers.json: {"timers": [[kind, key parts..., deadline ms]]}."""
    return has(data, timers=lambda v: is_list_of(v, _is_timer))


def _is_uuid_text(value: Any) -> bool:
    if not is_text(value):
        return False
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def _is_share_state(data: Any) -> bool:
    """share-state.json: {"partitions": [[group, topic id, partition, state epoch, start offset, leader epoch]]}."""
    def row(entry: Any) -> bool:
        return (isinstance(entry, list) and len(entry) == 6 and is_text(entry[0]) and _is_uuid_text(entry[1])
                and all(is_int(v) for v in entry[2:]))
    return has(data, partitions=lambda v: is_list_of(v, row)) and "partitions" in data


def _disk_bytes(path: Path) -> bytes | None:
    """What `path` holds now; None when it is missing (or cannot be read: it is then written anew)."""
    try:
        return path.read_bytes()
    except OSError:
        return None


class LocalBackend:
    """One invocation's view of DIR; use as a context manager (the lock is held until close).

    A command is applied whole or not at all: the log records it appends (fsynced as they go) and
    the state files it changes are one change. The state files are written last, all or none
    (`groupctl.json_files.write_files`); when they cannot be (a full disk), or anything fails on the way, the
    log is cut back to where the command found it, so DIR is as it was and the command says so (exit
    1). `groupctl serve` is the exception: it has acknowledged every append to a client when it
    saves, so its log is never cut back (`acknowledges_appends`), and the state files follow it.
    A DIR that cannot be written (a read-only mount) opens read-only: everything can be read, and
    the first change a command makes fails with `ReadOnlyDir` before anything is applied.
    """

    #: Whether every log append has been acknowledged to a client by the time the state is saved.
    acknowledges_appends = False

    def __init__(self, directory: str | Path, *, create: bool = False, wall_clock: bool = False,
                 broker_settings: Mapping[str, int | str] | None = None) -> None:
        """`broker_settings` are laid over DIR's saved ones for this invocation only (serve's --broker-config)."""
        self.directory = Path(directory)
        self.wall_clock = wall_clock
        self._given_settings = dict(broker_settings or {})
        self.location = f"local {self.directory}"
        self.notices: list[str] = []
        #: Why DIR cannot be written, when it cannot (None: it can).
        self.read_only: str | None = None
        #: State files to write with this command's others (members.json, broker-settings.json); None removes.
        self._staged: dict[Path, bytes | None] = {}
        if not (self.directory / LOG_DIR).is_dir():
            if not create:
                raise GroupctlError(
                    f"{self.directory} holds no local coordinator; create one with "
                    f"`groupctl local topics create TOPIC --local {self.directory}` or `groupctl demo --local DIR`"
                )
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                (self.directory / LOG_DIR).mkdir(exist_ok=True)
            except OSError as exc:
                if exc.errno in _READ_ONLY_ERRNOS:
                    raise ReadOnlyDir(f"cannot create {self.directory / LOG_DIR}: {exc.strerror}; nothing was "
                                      "done: create the local DIR where it can be written") from None
                raise
        self._lock = self._open_lock()
        self._take_lock()
        try:
            self._open()
        except BaseException:
            self._unlock()
            raise

    def _open_lock(self) -> Any:
        """DIR's lock file, for writing; on a DIR that cannot be written, for reading (or None if it is
        missing there), and the backend is read-only."""
        path = self.directory / LOCK_FILE
        try:
            return open(path, "a+")
        except OSError as exc:
            if exc.errno not in _READ_ONLY_ERRNOS:
                raise
            self.read_only = (f"{self.directory} is read-only ({exc.strerror} opening {path} for writing): this "
                              "command changes it, so nothing was done; run it where DIR can be written")
        try:
            return open(path)
        except FileNotFoundError:
            return None

    def _take_lock(self) -> None:
        """Wait for other invocations, but not for a running `groupctl serve`: that never lets go.

        The lock is polled rather than waited on, and `serving.json` read at each poll: `serve`
        writes it as soon as it holds the lock (before loading DIR), so a command started while
        it loads fails at once. A `serving.json` whose pid is dead (a killed serve) is stale and
        removed; none means a short-lived invocation holds the lock, worth waiting for.
        """
        path = self.directory / SERVING_FILE
        if self._lock is None:
            return  # a read-only DIR without a lock file: nobody writes it through this path
        mode = fcntl.LOCK_SH if self.read_only else fcntl.LOCK_EX
        while True:
            try:
                fcntl.flock(self._lock, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass
            serving = read_json(path)
            if isinstance(serving, dict) and _alive(serving.get("pid")):
                self._lock.close()
                raise GroupctlError(
                    f"{self.directory} is being served by `groupctl serve` on {serving.get('listeners')} "
                    f"(pid {serving.get('pid')}): reach it with -b {serving.get('bootstrap')} instead of --local, "
                    "or stop it first"
                )
            if serving is not None and not self.read_only:
                self._remove_stale(path)
            time.sleep(_LOCK_POLL_S)
        if path.exists() and not self.read_only:
            self._remove_stale(path, locked=True)

    def _remove_stale(self, path: Path, *, locked: bool = False) -> None:
        """Remove a `serving.json` naming a dead pid. It is renamed aside and read again first: a serve
        that took the lock meanwhile may just have replaced it with its own, which goes back. Once this
        invocation holds the lock (`locked`), no serve holds DIR (a serve keeps the lock for its life),
        so the file is stale whatever its pid says: a killed serve not yet reaped, or a reused pid."""
        aside = path.with_name(f".{path.name}.{os.getpid()}.stale")
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            return
        serving = read_json(aside)
        pid = serving.get("pid") if isinstance(serving, dict) else None
        if not locked and _alive(pid):
            os.replace(aside, path)
            return
        aside.unlink(missing_ok=True)
        self.notices.append(f"{path}: removed; it was left by a `groupctl serve` (pid {pid}) that is no longer "
                            "running")

    def _open(self) -> None:
        #: DIR's saved broker settings, and the ones this invocation runs with (given ones over them).
        self.saved_settings = read_settings(self.directory)
        self.broker_settings = {**self.saved_settings, **self._given_settings}
        d = self.directory
        #: Each state file as read (None: missing), to tell at save which ones this command changes.
        read: dict[Path, Any] = {}

        def load(name: str, check: Callable[[Any], bool], what: str) -> Any:
            read[d / name] = checked(d / name, read_json(d / name), check, what)
            return read[d / name]

        clock = load(CLOCK_FILE, _is_clock, "a clock (nowMs)") or {}
        topics = load(TOPICS_FILE, _is_topics, "a list of topics")
        configs = load(CONFIGS_FILE, _is_configs, "group configs")
        saved = int(clock.get("nowMs", EPOCH_MS))
        self.clock: Clock = WallClock(saved) if self.wall_clock else ManualClock(saved)
        with reading(d / TOPICS_FILE):
            self.topics = TopicImage.from_jsonable(topics) if topics else TopicImage()
        self.end_offsets_by_topic: dict[str, list[int]] = {
            t["name"]: list(t.get("endOffsets", [])) for t in (topics or {}).get("topics", ())
        }
        self._recover_partition_ends()
        self.configs = GroupConfigs(group_config_broker(self.broker_settings))
        if configs:
            with reading(d / CONFIGS_FILE):
                self.configs.load_jsonable(configs)
                _check_overrides(self.configs)
        log: SegmentLog | ReadOnlySegment
        self.writer: SegmentWriter | ReadOnlySegment
        if self.read_only:
            self.writer = log = ReadOnlySegment(self.directory / LOG_DIR, self.read_only)
        else:
            writer = SegmentWriter(self.directory / LOG_DIR, fsync=True, truncate_torn_tail=True)
            self.writer, log = writer, SegmentLog(writer)
        if self.writer.truncation:
            self.notices.append(f"{self.writer.path}: recovered the log as Kafka does, cutting off "
                                f"{self.writer.truncation}")
        share_state = load(SHARE_STATE_FILE, _is_share_state, "share-partition states")
        starts = ShareStarts()
        if share_state:
            with reading(d / SHARE_STATE_FILE):
                starts.load_jsonable(share_state["partitions"])
        self.coordinator = Coordinator(clock=self.clock, ids=IdGenerator(), topics=self.topics, configs=self.configs,
                                       log=log, share_starts=starts, **coordinator_settings(self.broker_settings))
        self._share_starts = starts
        self._share_file = share_state is not None
        #: Where the log ended when this command found it: the point a failed command is cut back to.
        self._log_start = (self.writer.position, self.writer.next_offset)
        classic = load(CLASSIC_FILE, is_snapshot, "classic groups' state")
        kept = SoftState()
        if classic is not None:
            if classic.get("logEndOffset") == self.writer.next_offset:
                kept.classic_groups = classic["groups"]
            else:
                self.notices.append(
                    f"{self.directory / CLASSIC_FILE} is older than the log: classic groups were reloaded from their "
                    "last GroupMetadata record, as a broker does after a failover (rebalances in progress restart)"
                )
        # Served on the wall clock, the time the DIR lay unused does not count against its members:
        # their deadlines move by it, as a broker restarts session timers when it loads a partition.
        shift = max(0, self.clock.now_ms() - saved) if self.wall_clock else 0
        kept.timers = (load(TIMERS_FILE, _is_timers, "a list of timers") or {}).get("timers", [])
        # timers.json passed its shape check whole; what a restore can still trip over is in the classic groups.
        with reading(d / CLASSIC_FILE):
            self.coordinator.restore(kept, timer_shift_ms=shift)
        #: The state as this invocation found it, and its files as DIR holds them (in the form every writer
        #: lays them out): what save() compares.
        self._found = self._state_files()
        self._on_disk = {path: None if data is None or not path.is_file() else json_bytes(data)  # not a file: replaced
                         for path, data in read.items()}

    def _recover_partition_ends(self) -> None:
        """Take each partition's log end offset from serve's logs in DIR/data when there are any.

        topics.json has them only as of serve's last save; after a `kill -9` it can be behind the
        logs, and lag would be computed against an old end (LOG-END below CURRENT-OFFSET).
        """
        from groupctl.log.partition_ends import partition_log_ends

        found = partition_log_ends(self.directory / DATA_DIR)
        self.notices.extend(found.notes)
        changed = []
        for (topic, partition), end in sorted(found.ends.items()):
            ends = self.end_offsets_by_topic.setdefault(topic, [])
            if len(ends) <= partition:
                ends.extend([0] * (partition + 1 - len(ends)))
            if ends[partition] != end:
                changed.append(f"{topic}-{partition} {ends[partition]} -> {end}")
                ends[partition] = end
        if changed:
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            self.notices.append(
                f"{self.directory / TOPICS_FILE} was behind the partition logs in {self.directory / DATA_DIR} "
                f"(`groupctl serve` stopped before saving it?): log end offsets taken from the logs: {shown}"
            )

    def _state_files(self) -> dict[Path, bytes]:
        """The clock, topics, configs, timers and classic soft state as their files would hold them now."""
        topics = self.topics.to_jsonable()
        for entry in topics["topics"]:
            ends = self.end_offsets_by_topic.get(entry["name"], [])
            entry["endOffsets"] = (ends + [0] * entry["partitions"])[: entry["partitions"]]
        kept = self.coordinator.snapshot()
        files = {
            self.directory / TOPICS_FILE: json_bytes(topics),
            self.directory / CONFIGS_FILE: json_bytes(self.configs.to_jsonable()),
            self.directory / CLOCK_FILE: json_bytes({"nowMs": self.clock.now_ms()}),
            self.directory / TIMERS_FILE: json_bytes({"timers": kept.timers}),
            self.directory / CLASSIC_FILE: json_bytes({
                "logEndOffset": self.writer.next_offset, "groups": kept.classic_groups,
            }),
        }
        rows = self._share_starts.to_jsonable()
        if rows or self._share_file:  # a DIR that never had a share group gets no such file
            files[self.directory / SHARE_STATE_FILE] = json_bytes({"partitions": rows})
        return files

    def stage(self, path: Path, data: Any) -> None:
        """Have `path` written with this command's other state files (None removes it): all or none."""
        content = None if data is None else json_bytes(data)
        if path not in self._on_disk:
            self._on_disk[path] = _disk_bytes(path)
        if content != self._on_disk[path]:
            self._staged[path] = content
        else:
            self._staged.pop(path, None)

    def changed(self) -> bool:
        """Whether this invocation changed DIR's state: appended to the log, or changed a state file."""
        return (bool(self._staged) or self.writer.position != self._log_start[0]
                or self._state_files() != self._found)

    def save(self) -> None:
        """Persist the clock, topics, configs, timers, classic state and staged files that differ from DIR's.

        All or none (`StateNotWritten` names the file that failed). An invocation that changed nothing
        writes nothing, so reading works on a full disk; what it found to repair (a topics.json behind
        the partition logs ...) is then written only if it can be. Read-only: `ReadOnlyDir` if changed.
        """
        state = self._state_files()
        own = bool(self._staged) or self.writer.position != self._log_start[0] or state != self._found
        files: dict[Path, bytes | None] = {**state, **self._staged}
        wanted = {path: data for path, data in files.items() if data != self._on_disk.get(path)}
        if own and self.read_only:
            raise ReadOnlyDir(self.read_only)
        if not wanted or self.read_only:
            return
        try:
            self.notices.extend(write_files(wanted))
        except StateNotWritten as exc:
            if own:
                raise
            self.notices.append(f"{exc.path} was not brought up to date ({exc.cause.strerror}); it will be by the "
                                "next command that changes DIR")
            return
        self._on_disk.update(wanted)
        self._found, self._staged = state, {}
        self._log_start = (self.writer.position, self.writer.next_offset)

    def close(self) -> None:
        """Save and let DIR go; when saving fails, the command's log records are cut off again (see the class)."""
        try:
            self.save()
        except StateNotWritten as exc:
            self._undo()
            raise StateNotWritten(f"{exc}; {self._not_applied(exc.cause)}", exc.path, exc.cause) from exc.cause
        finally:
            try:
                self.writer.close()
            finally:
                self._unlock()

    def abort(self, cause: BaseException | None = None) -> None:
        """Let DIR go without this command's changes: the log is cut back to where it was, nothing saved.

        An OSError `cause` (a full disk while appending ...) is raised again as `StateNotWritten`,
        naming the file and saying that nothing was applied.
        """
        try:
            self._undo()
        finally:
            with contextlib.suppress(OSError):
                self.writer.close()
            self._unlock()
        if isinstance(cause, OSError):
            path = Path(cause.filename) if cause.filename is not None else self.directory
            raise StateNotWritten(f"cannot write {path}: {cause.strerror or cause}; {self._not_applied(cause)}",
                                  path, cause) from cause

    def _undo(self) -> None:
        """Cut the log back to where this command found it (serve's acknowledged appends stay)."""
        position, next_offset = self._log_start
        if self.read_only or self.acknowledges_appends or not isinstance(self.writer, SegmentWriter):
            return
        if self.writer.size() != position:  # a failed append may have left bytes the writer did not count
            self.writer.rollback(position, next_offset)

    def _not_applied(self, cause: OSError) -> str:
        hint = ("free space on the file system holding it" if cause.errno in (errno.ENOSPC, errno.EDQUOT)
                else "fix that")
        if self.acknowledges_appends:
            return f"the log is kept; {hint}"
        return f"nothing of this command was applied to {self.directory}: {hint} and run it again"

    def _unlock(self) -> None:
        if self._lock is not None and not self._lock.closed:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        """Save what the command did, unless it failed on the way (a full disk, a bug, Ctrl-C): then
        nothing of it is applied. A GroupctlError is the command's answer, given after what it did."""
        if exc is None or (isinstance(exc, GroupctlError) and not isinstance(exc, ReadOnlyDir | StateNotWritten)):
            self.close()
        else:
            self.abort(exc)

    # -- the Backend protocol ----------------------------------------------------------------------

    def list_groups(
        self, types: Iterable[str] | None = None, states: Iterable[str] | None = None, *, mixed: bool = False
    ) -> list[GroupListing]:
        """The coordinator's listing, with member counts and, whatever `mixed` says (the state is at
        hand), whether each consumer group holds classic-protocol members."""
        return self.coordinator.group_listings(states=states, types=types, mixed=True)

    def describe_groups(self, group_ids: Iterable[str]) -> list[GroupDescription]:
        out = []
        for group_id in group_ids:
            if not self.coordinator.group_exists(group_id):
                raise GroupNotFound(group_id, self.location)
            described = self.coordinator.describe(group_id)
            described.coordinator = f"{self.directory} (1)"
            attach_log_ends(described, self.end_offsets(described_partitions(described)))
            out.append(described)
        return out

    def remove_members(self, group_id: str, members: Iterable[MemberIdentity]) -> list[RemovalResult]:
        if not self.coordinator.group_exists(group_id):
            raise GroupNotFound(group_id, self.location)
        targets = list(members)
        try:
            answer = self.coordinator.leave_group(group_id, targets)
        except KafkaError as exc:
            raise GroupctlError(f"LeaveGroup for group '{group_id}' failed on {self.location}: {exc}") from exc
        return removal_results(group_id, targets, answer)

    def get_config(self, group_id: str, names: Iterable[str] | None = None) -> list[ConfigEntry]:
        try:
            values = self.coordinator.describe_configs(group_id, list(names) if names is not None else None)
        except KafkaError as exc:
            raise GroupctlError(exc.message or exc.name) from exc
        return [ConfigEntry(v.name, v.value, v.default, v.source, v.minimum, v.maximum, v.minimum_name,
                            v.maximum_name) for v in values]

    def alter_config(
        self, group_id: str, set_values: Mapping[str, str], delete: Iterable[str], *, validate_only: bool = False
    ) -> None:
        try:
            self.coordinator.alter_configs(group_id, dict(set_values), list(delete), validate_only=validate_only)
        except KafkaError as exc:
            raise GroupctlError(f"INVALID_CONFIG: {exc.message}") from exc

    def list_topics(self) -> list[str]:
        return self.topics.names()

    def committed_offsets(self, group_id: str) -> list[CommittedOffset]:
        return self.coordinator.committed_offsets(group_id)

    # -- local only: the topics `groupctl local topics` makes --------------------------------------

    def create_topic(self, name: str, partitions: int, messages: int = 0) -> Topic:
        """CreateTopics with Kafka's errors; every partition's log end offset is `messages`."""
        topic = self.coordinator.create_topic(name, partitions)
        self.end_offsets_by_topic[name] = [messages] * partitions
        return topic

    def add_partitions(self, name: str, total: int, messages: int = 0) -> Topic:
        """CreatePartitions with Kafka's errors; the new partitions' log end offset is `messages`."""
        before = self.topics.get(name)
        old = before.partitions if before is not None else 0
        topic = self.coordinator.add_partitions(name, total)
        ends = (self.end_offsets_by_topic.get(name, []) + [0] * old)[:old]
        self.end_offsets_by_topic[name] = ends + [messages] * (total - old)
        return topic

    def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        out = {}
        for tp in partitions:
            topic = self.topics.get(tp.topic)
            if topic is None or tp.partition >= topic.partitions:
                continue
            ends = self.end_offsets_by_topic.get(tp.topic, [])
            out[tp] = ends[tp.partition] if tp.partition < len(ends) else 0
        return out

    # -- offsets reset: log starts, offsets by time, the admin commit ------------------------------

    def partition_counts(self, topics: Iterable[str]) -> dict[str, int]:
        return {name: topic.partitions for name in topics if (topic := self.topics.get(name)) is not None}

    def start_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """Where serve's log of the partition under DIR/data starts; a partition without one holds no
        records, so it starts at its log end, as `groupctl serve` answers ListOffsets (earliest) for it
        (said in `notices`, since a local DIR's offsets are otherwise only numbers)."""
        from groupctl.backends.local_offsets import log_start

        out: dict[TopicPartition, int] = {}
        empty: list[str] = []
        for tp, end in self.end_offsets(partitions).items():
            start = log_start(self.directory / DATA_DIR, tp)
            if start is None and end > 0:
                empty.append(f"{tp.topic}-{tp.partition}")
            out[tp] = min(start, end) if start is not None else end
        if empty:
            shown = ", ".join(empty[:3]) + (f" and {len(empty) - 3} more" if len(empty) > 3 else "")
            self.notices.append(
                f"{shown}: no records in {self.directory / DATA_DIR} (only a log end offset in {TOPICS_FILE}), so the "
                "log starts at its end, as `groupctl serve` answers for it"
            )
        return out

    def offsets_for_time(self, partitions: Iterable[TopicPartition], timestamp_ms: int) -> dict[TopicPartition, int]:
        """From serve's partition logs; a partition with no log has no timestamps, so it answers its
        log end, as Kafka does for a time after the last record (said once in `notices`)."""
        from groupctl.backends.local_offsets import offset_for_time

        data = self.directory / DATA_DIR
        out: dict[TopicPartition, int] = {}
        without: list[str] = []
        for tp, end in self.end_offsets(partitions).items():
            found = offset_for_time(data, tp, timestamp_ms)
            if found is None and not (data / f"{tp.topic}-{tp.partition}").is_dir() and end > 0:
                without.append(f"{tp.topic}-{tp.partition}")
            out[tp] = min(found, end) if found is not None else end
        if without:
            shown = ", ".join(without[:3]) + (f" and {len(without) - 3} more" if len(without) > 3 else "")
            self.notices.append(
                f"{shown}: no records in {data} (only a log end offset in {TOPICS_FILE}), so no timestamps: the "
                "log end was taken, as Kafka answers for a time after the last record"
            )
        return out

    def alter_offsets(self, group_id: str, offsets: Mapping[TopicPartition, int]) -> dict[TopicPartition, str | None]:
        """One OffsetCommit as the admin client sends it: generation -1, no member id."""
        from groupctl.coordinator.offsets import CommitPartition

        out: dict[TopicPartition, str | None] = {}
        valid = []
        for tp, offset in offsets.items():
            topic = self.topics.get(tp.topic)
            if topic is None or not 0 <= tp.partition < topic.partitions:
                out[tp] = "UNKNOWN_TOPIC_OR_PARTITION"
            else:
                valid.append(CommitPartition(tp.topic, tp.partition, offset))
        if not valid:
            return out
        try:
            done = self.coordinator.commit_offsets(group_id, "", -1, valid)
        except KafkaError as exc:
            out.update({TopicPartition(p.topic, p.partition): exc.name for p in valid})
            return out
        for p in done:
            out[TopicPartition(p.topic, p.partition)] = KAFKA_ERROR_NAMES.get(p.error_code) if p.error_code else None
        return out

    # -- deletion: DeleteGroups and OffsetDelete --------------------------------------------------

    def delete_groups(self, group_ids: Iterable[str]) -> list[GroupDeletion]:
        return [GroupDeletion(g, DELETED) if e is None else GroupDeletion(g, e.name, e.message)
                for g, e in self.coordinator.delete_groups(list(group_ids))]

    # -- share groups: AlterShareGroupOffsets and DeleteShareGroupOffsets ----------------------------

    def alter_share_offsets(self, group_id: str,
                            offsets: Mapping[TopicPartition, int]) -> dict[TopicPartition, str | None]:
        try:
            answers = self.coordinator.alter_share_offsets(
                group_id, {(tp.topic, tp.partition): offset for tp, offset in offsets.items()})
        except KafkaError as exc:
            raise self._share_refusal("AlterShareGroupOffsets", group_id, exc) from exc
        return {TopicPartition(t, p): None if e is None else e.name for (t, p), e in answers.items()}

    def delete_share_offsets(self, group_id: str, topics: Iterable[str]) -> list[OffsetDeletion]:
        try:
            answers = self.coordinator.delete_share_offsets(group_id, list(dict.fromkeys(topics)))
        except KafkaError as exc:
            raise self._share_refusal("DeleteShareGroupOffsets", group_id, exc) from exc
        return [OffsetDeletion(group_id, name, -1, DELETED) if e is None
                else OffsetDeletion(group_id, name, -1, e.name, e.message) for name, _, e in answers]

    def _share_refusal(self, api: str, group_id: str, exc: KafkaError) -> GroupctlError:
        """A group-level refusal: GroupNotFound for no group of that id, else the KafkaError naming the group."""
        if exc.name == "GROUP_ID_NOT_FOUND" and not self.coordinator.group_exists(group_id):
            return GroupNotFound(group_id, self.location)
        exc.args = (f"{api} for group '{group_id}' on {self.location} failed with {exc}",)
        return exc

    def delete_offsets(self, group_id: str, partitions: Iterable[TopicPartition]) -> list[OffsetDeletion]:
        """As `serve` answers: partitions the cluster lacks are UNKNOWN_TOPIC_OR_PARTITION, the rest the
        coordinator's; results in the order asked."""
        wanted = list(dict.fromkeys(partitions))
        by_topic: dict[str, list[int]] = {}
        for tp in wanted:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        asked, unknown = known_partitions(self.topics, list(by_topic.items()))
        try:
            deleted = self.coordinator.delete_offsets(group_id, asked)
        except KafkaError as exc:
            if exc.name == "GROUP_ID_NOT_FOUND":
                raise GroupNotFound(group_id, self.location) from exc
            exc.args = (f"OffsetDelete for group '{group_id}' on {self.location} failed with {exc}",)
            raise
        answers = {TopicPartition(t, p): (None if e is None else (e.name, e.message)) for t, p, e in deleted}
        answers.update({TopicPartition(t, p): ("UNKNOWN_TOPIC_OR_PARTITION", UNKNOWN_PARTITION) for t, p in unknown})
        out = []
        for tp in wanted:
            answer = answers[tp]
            out.append(OffsetDeletion(group_id, tp.topic, tp.partition, DELETED) if answer is None
                       else OffsetDeletion(group_id, tp.topic, tp.partition, answer[0], answer[1]))
        return out
