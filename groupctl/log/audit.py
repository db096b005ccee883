"""Audit a `__consumer_offsets` dump: findings an operator should act on, and what the dump holds.

An `Auditor` sits beside a `Replay`: `observe` looks at each record against the state *before* it
(a commit lower than the one it replaces, a transaction being aborted, commits for a group that was
deleted) and then lets the replay apply it; rules about the final state (hanging transactions,
expired offsets, KIP-848 leftovers, partitions owned twice, duplicate static members, undecodable
subscriptions) run once in `finish`. The audit must cost little more than decoding (see
benchmarks/bench_audit.py), so the per-record path is a handful of dict and list operations and a
finding is built only when a rule fires.

Evidence values are plain JSON values; `logOffset` (every record-related finding has one, used for
sorting) and `logOffsets` are offsets in `__consumer_offsets`; partitions are written
`topic-partition` as Kafka prints them, topic ids in Kafka's base64url form.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from groupctl.errors import DecodeError
from groupctl.model import Finding, empty_group_epochs
from groupctl.plurals import counted, plural
from groupctl.protocol.consumer_protocol import ASSIGNMENT, SUBSCRIPTION, reads_as_earlier_version, version_of
from groupctl.protocol.member_bytes import current_held
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import RECORD_TYPE_NAMES, RecordKey, encode_key

if TYPE_CHECKING:
    from groupctl.log.decode import DecodedRecord
    from groupctl.log.replay import Replay
    from groupctl.log.segment import BatchObserver
    from groupctl.protocol.data.records import ConsumerGroupCurrentMemberAssignmentValue

__all__ = ["RULES", "SEVERITIES", "AuditReport", "Auditor", "at_or_above", "merge"]

SEVERITIES = ("error", "warning", "info")
_RANK = {s: i for i, s in enumerate(SEVERITIES)}

RULES: dict[str, str] = {
    "hanging-transaction": "error",
    "partition-owned-twice": "error",
    "duplicate-instance-id": "error",
    "invalid-batch": "error",
    "undecodable-record": "error",
    "offset-rewind": "warning",
    "offset-expired": "warning",
    "recommitted-after-delete": "warning",
    "orphan-member-records": "warning",
    "empty-group-epoch-mismatch": "warning",
    "undecodable-subscription": "warning",
    "unknown-record-type": "warning",
    "aborted-commit": "info",
}
"""Every rule id and its severity, for documentation and for filtering by rule. Two rules are `info`
for their harmless cause: `empty-group-epoch-mismatch` when the assignment epoch is behind (the
KAFKA-20442 leftover), `undecodable-subscription` when the bytes are a whole earlier version of the
message (kafka-go's)."""

_NO_TS = 1 << 62  # "no timestamp seen yet" for a running minimum
_UNKNOWN_PREFIX = "Unknown record type "
# Per-group counters, a list for speed: records, bytes, tombstones, commits, first ts, last ts.
_RECORDS, _BYTES, _TOMBSTONES, _COMMITS, _FIRST, _LAST = range(6)
# Member record types whose last log offset is kept for evidence: metadata, target, current assignment.
_MEMBER_SLOT = {5: 0, 7: 1, 8: 2}
# A classic member's consumer-protocol fields and the message each holds.
_EMBEDDED = {"subscription": SUBSCRIPTION, "assignment": ASSIGNMENT}


def at_or_above(finding: Finding, threshold: str) -> bool:
    """Whether `finding` is at least as severe as `threshold` (error > warning > info), for --fail-on."""
    try:
        return _RANK[finding.severity] <= _RANK[threshold]
    except KeyError:
        raise ValueError(f"unknown severity {threshold!r}; expected one of {', '.join(SEVERITIES)}") from None


def _finding(rule: str, group: str | None, explanation: str, evidence: dict, severity: str | None = None) -> Finding:
    return Finding(severity or RULES[rule], rule, group, explanation, evidence)


def _sort_key(f: Finding) -> tuple:
    where = f.evidence.get("logOffset", f.evidence.get("position"))
    return (
        _RANK.get(f.severity, len(SEVERITIES)),
        f.group is not None,
        f.group or "",
        f.rule,
        where if isinstance(where, int) else -1,
        str(f.evidence.get("file", "")),
    )


def _tp(topic: str, partition: int) -> str:
    return f"{topic}-{partition}"


@dataclass
class AuditReport:
    """Findings and the summaries the `dump audit` command prints.

    `findings` are sorted by severity (error first), group (findings about no group first), rule and
    log offset. `by_group` rows (most records first): group, records, bytes (key + value sizes),
    tombstones, commits (offset commit records, tombstones excluded), firstTimestamp/lastTimestamp
    (earliest/latest record timestamp), commitsPerMinute (commits over that span; None under one
    commit or with no span). `by_type` rows: type, name (Kafka's constant; UNKNOWN for unknown type
    ids, CONTROL and UNDECODABLE with type None), records, bytes, tombstones. `totals`: records,
    bytes, tombstones, tombstoneRatio, groups, firstTimestamp, lastTimestamp, invalidBatches.
    """

    findings: list[Finding] = field(default_factory=list)
    by_group: list[dict] = field(default_factory=list)
    by_type: list[dict] = field(default_factory=list)
    totals: dict = field(default_factory=dict)


class _CompiledCommits:
    """The compiled audit path as a segment reader's `BatchObserver`: plain batches of offset commits are
    observed from their bytes, their values held in the auditor's CommitTable."""

    __slots__ = ("take_batches", "take_records")

    def __init__(self, take_batches: Callable[[Any, int], int | None], take_records: Callable[..., bool]) -> None:
        self.take_batches = take_batches
        self.take_records = take_records


class Auditor:
    """Feed it every record in log order (`observe`) and every reader problem, then call `finish`."""

    #: The attributes the compiled audit (`_fastlog.c`'s observe_batch, audit_batch, audit_records, settle)
    #: reads and calls on an auditor by name, in the order it binds them (`bind_audit`): renaming one means
    #: changing it here, and tests/log/test_audit.py checks each exists on an instance.
    COMPILED_CONTRACT: ClassVar[tuple[str, ...]] = (
        "_commits", "_last", "_deleted", "observe", "_check_rewind", "_recommitted",
    )

    __slots__ = (
        "_apply", "_commits", "_deleted", "_findings", "_first_ts", "_group_offsets", "_groups", "_last", "_last_ts",
        "_member_offsets", "_native", "_other", "_problems", "_producers", "_replay", "_table", "_txn_first",
        "_types", "_unknown",
    )

    def __init__(self, replay: Replay | None = None) -> None:
        if replay is None:
            from groupctl.log.replay import Replay

            replay = Replay()
        self._replay = replay
        self._apply = replay.apply
        # the compiled loop's CommitTable once attached: plain commits whose values the replay has not got yet
        self._table: Any = None
        # group -> [commits, bytes, first ts, last ts] of its decoded type-1 commits (the short path)
        self._commits: dict[str, list[int]] = {}
        # type-1 key bytes -> the offset last committed there, as far as this auditor saw: a cheap hint
        # that a commit goes backwards, confirmed against the replay before anything is reported
        self._last: dict[bytes, int] = {}
        # group -> [records, bytes, tombstones, commits, first ts, last ts] of all its other records
        self._groups: dict[str, list[int]] = {}
        # indexed by record type: [records, bytes, tombstones]
        self._types: list[list[int]] = [[0, 0, 0] for _ in range(max(RECORD_TYPE_NAMES) + 1)]
        # rows without a known record type: (type or None, name) -> [records, bytes, tombstones]
        self._other: dict[tuple[int | None, str], list[int]] = {}
        self._findings: list[Finding] = []
        self._first_ts = _NO_TS  # over records without a group (markers, unknown types)
        self._last_ts = -1
        self._deleted: dict[str, list[Any]] = {}  # group -> [tombstone log offset, type, Finding | None]
        self._txn_first: dict[int, int] = {}  # producer id -> first log offset of its open transaction
        self._producers: set[int] = set()  # every producer id with a transactional commit or a marker seen
        self._member_offsets: dict[tuple[str, str], list[int | None]] = {}  # (group, member) -> offsets of 5/7/8
        self._group_offsets: dict[str, list[int | None]] = {}  # group -> offsets of its type 3 and 6 records
        self._unknown: dict[int, list[int]] = {}  # unknown type -> [count, first log offset]
        self._problems = 0
        self._native: Any = None  # (compiled observe_batch, OffsetEntry) or False, chosen at the first batch

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # Pickled (a Spark task ships its auditor) with what the compiled loop holds handed over: the copy
        # has no table, and attaching it to a reader makes a new one.
        self._settle()
        return None, {name: getattr(self, name) for name in self.__slots__ if name != "_table"}

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        self._table = None
        for name, value in state[1].items():
            setattr(self, name, value)

    @property
    def replay(self) -> Replay:
        """The replay this auditor feeds, with every commit observed so far in it."""
        self._settle()
        return self._replay

    def _settle(self) -> None:
        """Hand what the compiled loop holds to the replay (its commits) and to this auditor (the counters in
        `_commits`): before anything reads them all (the rules at the end, `scope`, `merge`, `replay`)."""
        if self._table is not None:
            self._native[4](self._table, self, self._replay, self._native[1])

    def _settle_groups(self, batch: Any, records: list[DecodedRecord]) -> None:
        """Settle the groups whose committed offsets these records can read or change: each offset record's
        group, and for a transaction marker the groups of the producer's pending commits. Group records
        (types 2 and up) touch other state only; the held commits' share of it (the group's dict in
        `offsets`, its mark in `_simple`) was written when they were observed."""
        groups = set()
        for rec in records:
            key = rec[2]
            if key is not None:
                if key[0] <= 1:
                    groups.add(key[1]["group"])
            elif rec[5] is not None or batch.is_control:
                groups.update(g for g, _, _ in self._replay.pending.get(batch.producer_id, ()))
        if groups:
            self._native[4](self._table, self, self._replay, self._native[1], groups)

    def scope(self) -> set[tuple[str, str | int]]:
        """What the state built so far is keyed by: ("group", id) and ("producer", id) pairs.

        Auditors of two stretches of input whose scopes do not meet hold independent state (a group's
        offsets and records, a producer's open transaction), which is what `merge` needs.
        """
        self._settle()
        return {("group", g) for g in self._groups.keys() | self._commits.keys()} | {
            ("producer", p) for p in self._producers}

    # --- per record ------------------------------------------------------------------------------

    def observe(self, rec: DecodedRecord) -> None:
        """Check `rec` against the state before it, then apply it to the replay.

        Decoded type-1 commits (nearly every record) take this short path, kept to as few bytecodes as
        possible (the audit's cost is mostly here); everything else goes to `_observe_rare`. A record
        with an error never has a value, so `value is None` routes those too.
        """
        value = rec[3]
        if value is None:
            self._observe_rare(rec)
            return
        key = rec[2]
        if key[0] != 1:
            self._observe_rare(rec)
            return
        record = rec[1]
        group = key[1]["group"]
        s = self._commits.get(group)
        if s is None:
            s = self._commits[group] = [0, 0, record.timestamp, record.timestamp]
        s[0] += 1
        s[1] += record.key_size + record.value_size
        ts = record.timestamp
        if ts > s[3]:
            s[3] = ts
        elif ts < s[2]:  # (-1, no timestamp, only from magic 0, leaves the first unknown)
            s[2] = ts
        if rec[0].producer_id == -1:  # as the replay: a batch without a producer id commits at once
            new = value[1]["offset"]
            last = self._last.get(record.key)
            self._last[record.key] = new
            if last is None or last > new:
                self._check_rewind(group, key[1], new, record.offset)
        elif rec[0].producer_id not in self._txn_first:
            self._txn_first[rec[0].producer_id] = record.offset
            self._producers.add(rec[0].producer_id)
        if self._deleted and group in self._deleted:
            self._recommitted(group, self._deleted[group], key[1], record.offset)
        self._apply(rec)

    def observe_batch(self, batch: Any, records: list[DecodedRecord]) -> None:
        """`observe` each record of a batch, in order. With the compiled loop, the short path of plain
        offset commits (and of the replay's `apply` for them) runs in C without a Python call per
        record; every other record, and every finding, still goes through `observe`'s own code."""
        native = self._native
        if native is None:
            native = self._native = self._compiled()
        if native:
            table = self._table
            if table is not None and table.pending:
                self._settle_groups(batch, records)
            native[0](self, self._replay, batch, records, native[1])
            return
        observe = self.observe
        for rec in records:
            observe(rec)

    def attach(self, reader: Any) -> None:
        """Let a segment reader (`BatchIterator`, before it is iterated) hand plain batches of offset
        commits straight to the compiled loop (`batch_observer`), which observes them from the segment's (or
        the decompressed) bytes without building their records; the reader yields every other batch for
        `observe_batch` as before. Their values wait in C (a CommitTable) until Python reads their group,
        so records of an attached reader go through `observe_batch`, never `observe` alone. A no-op
        without the compiled loop, for a reader that is not a segment's (None), and for one already being
        read (its batches all come to `observe_batch` then)."""
        from groupctl.log.segment import BatchIterator

        if isinstance(reader, BatchIterator) and not reader.started:
            observer = self.batch_observer()
            if observer is not None:
                reader.attach(observer)

    def batch_observer(self) -> BatchObserver | None:
        """The compiled audit path as an observer for a segment reader (`BatchIterator.attach`); None
        without the compiled loop. Every observer of one auditor holds its commits in the same table."""
        native = self._native
        if native is None:
            native = self._native = self._compiled()
        if not native:
            return None
        if self._table is None:
            self._table = native[5]()
        replay, entry, table = self._replay, native[1], self._table
        return _CompiledCommits(functools.partial(native[2], self, replay, entry, table),
                                functools.partial(native[3], self, replay, entry, table))

    def _compiled(self) -> tuple[Any, ...] | bool:
        """The compiled observe_batch, when it runs and this auditor uses a plain Replay it can update."""
        from groupctl.log import fast
        from groupctl.log.replay import OffsetEntry, Replay

        native = fast.module()
        replay = self._replay
        if native is None or type(replay) is not Replay or self._apply != replay.apply:
            return False
        native.bind_audit(Auditor.COMPILED_CONTRACT, Replay.COMPILED_CONTRACT)
        return (native.observe_batch, OffsetEntry, native.audit_batch, native.audit_records, native.settle,
                native.CommitTable)

    def _check_rewind(self, group: str, data: dict, new: int, log_offset: int) -> None:
        """Report a rewind if the replay's committed offset (before this commit) is above `new`."""
        committed = self._replay.offsets.get(group)
        prev = None if committed is None else committed.get((data["topic"], data["partition"]))
        if prev is not None and prev.offset > new:
            self._rewind(group, data, new, log_offset, prev)

    def _observe_rare(self, rec: DecodedRecord) -> None:
        """Every record but a decoded type-1 commit: full accounting, then the type's own checks."""
        key = rec.key
        if key is None or rec.error is not None:
            self._observe_unkeyed(rec)
            return
        record = rec.record
        t, data = key
        ks, vs = record.key_size, record.value_size
        size = (ks if ks > 0 else 0) + (vs if vs > 0 else 0)
        group = data["group"] if t < 3 else data["groupId"]
        self._count_group(group, size, record.timestamp)
        ty = self._types[t]
        ty[0] += 1
        ty[1] += size
        tombstone = rec.value is None
        if tombstone:
            self._groups[group][_TOMBSTONES] += 1
            ty[2] += 1
        if t >= 2:
            self._group_record(rec, t, group, data, tombstone)
            return
        # an offset tombstone, or a legacy (type 0) commit; both keep the type-1 hints in step
        hint = record.key if t == 1 else b"\x00\x01" + record.key[2:]
        if tombstone:
            self._last.pop(hint, None)
        else:
            self._groups[group][_COMMITS] += 1
            pid = rec.batch.producer_id
            new = rec.value.data["offset"]
            if pid == -1:
                self._check_rewind(group, data, new, record.offset)
                self._last[hint] = new
            elif pid not in self._txn_first:
                self._txn_first[pid] = record.offset
                self._producers.add(pid)
            if group in self._deleted:
                self._recommitted(group, self._deleted[group], data, record.offset)
        self._apply(rec)

    def _count_group(self, group: str, size: int, ts: int) -> None:
        s = self._groups.get(group)
        if s is None:
            s = self._groups[group] = [0, 0, 0, 0, _NO_TS, -1]
        s[_RECORDS] += 1
        s[_BYTES] += size
        if ts > s[_LAST]:
            s[_LAST] = ts
        if 0 <= ts < s[_FIRST]:
            s[_FIRST] = ts

    def _group_record(self, rec: DecodedRecord, t: int, group: str, data: dict, tombstone: bool) -> None:
        """Types 2 and up (rare next to commits): deletions, conversions, offsets kept for evidence."""
        offset = rec.record.offset
        if t == 2 or t == 3:
            gone = self._deleted.get(group)
            if tombstone:
                self._deleted[group] = [offset, t, None]
            elif gone is not None and gone[1] != t and gone[2] is None:
                # classic <-> consumer conversion: one kind of metadata replaced by the other, not a deletion
                del self._deleted[group]
        if t == 3 or t == 6:
            slots = self._group_offsets.get(group)
            if slots is None:
                slots = self._group_offsets[group] = [None, None]
            slots[0 if t == 3 else 1] = offset
        elif t in _MEMBER_SLOT:
            member = (group, data["memberId"])
            slots = self._member_offsets.get(member)
            if slots is None:
                slots = self._member_offsets[member] = [None, None, None]
            slots[_MEMBER_SLOT[t]] = offset
        self._apply(rec)

    def _observe_unkeyed(self, rec: DecodedRecord) -> None:
        """Markers, unknown record types and undecodable records."""
        record = rec.record
        ks, vs = record.key_size, record.value_size
        size = (ks if ks > 0 else 0) + (vs if vs > 0 else 0)
        ts = record.timestamp
        error = rec.error
        group = None
        if error is None:
            row: tuple[int | None, str] = (None, "CONTROL")
            if isinstance(rec.control, tuple):
                self._marker(rec, rec.control[0])
        elif error.startswith(_UNKNOWN_PREFIX):
            word = error[len(_UNKNOWN_PREFIX):].split(" ", 1)[0]
            unknown = int(word) if word.lstrip("-").isdigit() else -1
            row = (unknown, "UNKNOWN")
            seen = self._unknown.get(unknown)
            if seen is None:
                self._unknown[unknown] = [1, record.offset]
            else:
                seen[0] += 1
        else:
            row = (None, "UNDECODABLE")
            key = rec.key  # None when the key itself, or a dump-log text line, gave nothing to read
            group = None if key is None else key.data.get("group", key.data.get("groupId"))
            self._undecodable(rec, key, group)
        if group is not None:
            self._count_group(group, size, ts)
        else:
            if ts > self._last_ts:
                self._last_ts = ts
            if 0 <= ts < self._first_ts:
                self._first_ts = ts
        counts = self._other.get(row)
        if counts is None:
            counts = self._other[row] = [0, 0, 0]
        counts[0] += 1
        counts[1] += size
        self._apply(rec)

    def observe_problem(self, problem: DecodeError) -> None:
        """A damaged batch or dump-log line the reader skipped: its records are missing from the audit."""
        self._problems += 1
        evidence: dict[str, Any] = {"reason": problem.reason}
        if problem.path is not None:
            evidence["file"] = str(problem.path)
        if problem.position is not None:
            evidence["position"] = problem.position
        self._findings.append(_finding(
            "invalid-batch", None,
            f"damaged input skipped ({problem.reason}): the records in it were not read, so this audit "
            "and the rebuilt group state may be incomplete",
            evidence,
        ))

    # --- findings raised while reading -----------------------------------------------------------

    def _rewind(self, group: str, key: dict, new: int, log_offset: int, prev: Any, **extra: int) -> None:
        old = prev.offset
        tp = _tp(key["topic"], key["partition"])
        self._findings.append(_finding(
            "offset-rewind", group,
            f"the committed offset of {tp} went back from {old} to {new}: the group re-reads "
            f"{counted(old - new, 'message')}, after a deliberate offset reset or a consumer re-processing from an "
            "older position",
            {"topic": key["topic"], "partition": key["partition"], "oldOffset": old, "newOffset": new,
             "oldLogOffset": prev.log_offset, "logOffset": log_offset, **extra},
        ))

    def _recommitted(self, group: str, gone: list[Any], key: dict, log_offset: int) -> None:
        finding = gone[2]
        if finding is not None:
            finding.evidence["commits"] += 1
            return
        gone[2] = _finding(
            "recommitted-after-delete", group,
            f"the group was deleted at log offset {gone[0]} but offsets were committed for it again from log "
            f"offset {log_offset}: a client still uses this group id, starting from auto.offset.reset or "
            "explicit offsets rather than the deleted ones",
            {"deleteLogOffset": gone[0], "deleteRecordType": gone[1], "logOffset": log_offset,
             "partition": _tp(key["topic"], key["partition"]), "commits": 1},
        )
        self._findings.append(gone[2])

    def _marker(self, rec: DecodedRecord, kind: str) -> None:
        """A COMMIT or ABORT marker (`kind`), before the replay settles the producer's pending commits."""
        batch = rec.batch
        pid = batch.producer_id
        self._producers.add(pid)
        first = self._txn_first.pop(pid, None)
        pending = self._replay.pending.get(pid)
        if not pending:
            return
        marker_offset = rec.record.offset
        if kind == "ABORT":
            per_group: dict[str, list[tuple[str, int, Any]]] = {}
            for (group, topic, partition), entry in pending.items():
                per_group.setdefault(group, []).append((topic, partition, entry))
            for group, entries in per_group.items():
                entries.sort(key=lambda e: (e[2].log_offset, e[0], e[1]))
                self._findings.append(_finding(
                    "aborted-commit", group,
                    f"producer {pid}'s transactional commit of {counted(len(entries), 'offset')} was aborted: those "
                    "offsets were never applied and the group resumes from its previous commit "
                    "(expected after a failed or fenced transaction)",
                    {"producerId": pid, "producerEpoch": batch.producer_epoch, "logOffset": marker_offset,
                     "partitions": [_tp(t, p) for t, p, _ in entries],
                     "commitLogOffsets": [e.log_offset for _, _, e in entries],
                     **({"firstLogOffset": first} if first is not None else {})},
                ))
        elif kind == "COMMIT":
            offsets = self._replay.offsets
            for (group, topic, partition), entry in sorted(pending.items(), key=lambda kv: kv[1].log_offset):
                prev = offsets.get(group, {}).get((topic, partition))
                if prev is not None and entry.log_offset > prev.log_offset and entry.offset < prev.offset:
                    self._rewind(group, {"topic": topic, "partition": partition}, entry.offset, entry.log_offset,
                                 prev, producerId=pid, markerLogOffset=marker_offset)
                # forget the short path's hint: the next commit there compares with the replay itself
                self._last.pop(encode_key(1, {"group": group, "topic": topic, "partition": partition}), None)

    def _undecodable(self, rec: DecodedRecord, key: RecordKey | None, group: str | None) -> None:
        error = rec.error or ""
        offset = rec.record.offset
        reason = error
        prefix = f"Error at offset {offset}, skipping. "
        if reason.startswith(prefix):
            reason = reason[len(prefix):]
        evidence: dict[str, Any] = {"logOffset": offset, "reason": reason}
        if key is not None:
            evidence["recordType"] = key.type
        self._findings.append(_finding(
            "undecodable-record", group,
            f"the record at log offset {offset} could not be decoded and was skipped ({reason}); "
            "the state rebuilt around it may be incomplete",
            evidence,
        ))

    def _absorb(self, other: Auditor) -> None:
        """Take over `other`'s state as if its records came next (see `merge`).

        Keyed state moves over as is (the scopes are disjoint); counters add up; timestamps are
        running minima and maxima; first-seen values stay this auditor's, whose input came first.
        """
        self._settle()
        other._settle()
        self._commits.update(other._commits)
        self._last.update(other._last)
        self._groups.update(other._groups)
        for mine, theirs in zip(self._types, other._types, strict=True):
            for i, n in enumerate(theirs):
                mine[i] += n
        for row, counts in other._other.items():
            mine = self._other.setdefault(row, [0, 0, 0])
            for i, n in enumerate(counts):
                mine[i] += n
        self._findings += other._findings
        self._first_ts = min(self._first_ts, other._first_ts)
        self._last_ts = max(self._last_ts, other._last_ts)
        self._deleted.update(other._deleted)
        self._txn_first.update(other._txn_first)
        self._producers |= other._producers
        self._member_offsets.update(other._member_offsets)
        self._group_offsets.update(other._group_offsets)
        for t, (count, first) in other._unknown.items():
            seen = self._unknown.get(t)
            if seen is None:
                self._unknown[t] = [count, first]
            else:
                seen[0] += count
        self._problems += other._problems
        self._replay.absorb(other.replay)

    # --- end of the dump -------------------------------------------------------------------------

    def finish(self) -> AuditReport:
        """Run the rules about the final state and build the summaries (the auditor can keep observing)."""
        self._settle()
        by_group, by_type, totals = self._summaries()
        findings = list(self._findings)
        findings += self._hanging()
        findings += self._expired(totals["lastTimestamp"])
        findings += self._consumer_group_rules()
        findings += self._classic_rules()
        findings += self._unknown_types()
        findings.sort(key=_sort_key)
        return AuditReport(findings, by_group, by_type, totals)

    def _summaries(self) -> tuple[list[dict], list[dict], dict]:
        merged = {g: list(row) for g, row in self._groups.items()}
        type1 = self._types[1][:]
        for group, (commits, size, c_first, c_last) in self._commits.items():
            row = merged.get(group)
            if row is None:
                row = merged[group] = [0, 0, 0, 0, _NO_TS, -1]
            row[_RECORDS] += commits
            row[_BYTES] += size
            row[_COMMITS] += commits
            if c_first >= 0:
                row[_FIRST] = min(row[_FIRST], c_first)
            row[_LAST] = max(row[_LAST], c_last)
            type1[0] += commits
            type1[1] += size
        by_group: list[dict[str, Any]] = []
        first, last = self._first_ts, self._last_ts
        for group, (records, size, tombstones, commits, g_first, g_last) in merged.items():
            span = g_last - g_first if g_first != _NO_TS and g_last >= 0 else 0
            rate = commits * 60_000 / span if commits >= 1 and span > 0 else None
            by_group.append({
                "group": group, "records": records, "bytes": size, "tombstones": tombstones, "commits": commits,
                "firstTimestamp": None if g_first == _NO_TS else g_first,
                "lastTimestamp": None if g_last < 0 else g_last,
                "commitsPerMinute": rate,
            })
            first = min(first, g_first)
            last = max(last, g_last)
        by_group.sort(key=lambda row: (-row["records"], row["group"]))

        by_type: list[dict[str, Any]] = [
            {"type": t, "name": RECORD_TYPE_NAMES[t], "records": c[0], "bytes": c[1], "tombstones": c[2]}
            for t, c in enumerate([*self._types[:1], type1, *self._types[2:]]) if c[0]
        ]
        by_type += [
            {"type": t, "name": name, "records": c[0], "bytes": c[1], "tombstones": c[2]}
            for (t, name), c in self._other.items()
        ]
        by_type.sort(key=lambda row: (row["name"] in ("CONTROL", "UNDECODABLE"), row["name"] == "UNKNOWN",
                                      row["type"] if row["type"] is not None else 0, row["name"]))
        records = sum(row["records"] for row in by_type)
        tombstones = sum(row["tombstones"] for row in by_type)
        totals = {
            "records": records,
            "bytes": sum(row["bytes"] for row in by_type),
            "tombstones": tombstones,
            "tombstoneRatio": tombstones / records if records else 0.0,
            "groups": len(by_group),
            "firstTimestamp": None if first == _NO_TS else first,
            "lastTimestamp": None if last < 0 else last,
            "invalidBatches": self._problems,
        }
        return by_group, by_type, totals

    def _hanging(self) -> list[Finding]:
        out = []
        for pid, pending in self._replay.pending.items():
            if not pending:
                continue
            groups = sorted({g for g, _, _ in pending})
            first = self._txn_first.get(pid, min(e.log_offset for e in pending.values()))
            out.append(_finding(
                "hanging-transaction", groups[0] if len(groups) == 1 else None,
                f"producer {pid} has transactional offset commits open since log offset {first} with no COMMIT "
                "or ABORT marker by the end of the dump: an open transaction holds back this partition's last "
                "stable offset and its offsets stay invisible until it completes or is aborted "
                "(kafka-transactions.sh), unless the dump was cut while it was in flight",
                {"producerId": pid, "groups": groups, "logOffset": first,
                 "partitions": sorted({_tp(t, p) for _, t, p in pending}),
                 "logOffsets": sorted(e.log_offset for e in pending.values())},
            ))
        return out

    def _expired(self, last_ts: int | None) -> list[Finding]:
        if last_ts is None:
            return []
        out = []
        for group, committed in self._replay.offsets.items():
            hits = sorted(
                ((e.log_offset, tp, e.expire_timestamp) for tp, e in committed.items()
                 if e.expire_timestamp is not None and 0 <= e.expire_timestamp < last_ts),
            )
            if not hits:
                continue
            out.append(_finding(
                "offset-expired", group,
                f"{counted(len(hits), 'committed offset')} {plural(len(hits), 'carries', 'carry')} an expire timestamp "
                "before the dump's last record "
                f"({last_ts}): the broker drops them at its next retention check, and the group then starts "
                "from auto.offset.reset",
                {"logOffset": hits[0][0], "partitions": [_tp(*tp) for _, tp, _ in hits],
                 "logOffsets": [o for o, _, _ in hits], "expireTimestamps": [x for _, _, x in hits],
                 "lastTimestamp": last_ts},
            ))
        return out

    def _member_evidence(self, group: str, members: Iterable[str], slot: int | None = None) -> list[int]:
        offsets = []
        for m in members:
            known = self._member_offsets.get((group, m))
            if known is not None:
                offsets += [o for i, o in enumerate(known) if o is not None and (slot is None or i == slot)]
        return sorted(offsets)

    def _consumer_group_rules(self) -> list[Finding]:
        out = []
        for group, state in self._replay.consumer.items():
            members = set(state.members)
            assigned = set(state.targets) | set(state.current)
            if not state.has_metadata and (members or assigned):
                ids = sorted(members | assigned)
                offsets = self._member_evidence(group, ids)
                out.append(_finding(
                    "orphan-member-records", group,
                    f"records for {counted(len(ids), 'member')} but no ConsumerGroupMetadata record: leftovers of a "
                    "deletion "
                    "or downgrade whose tombstones were compacted away (KAFKA-17306); loading them can fail or "
                    "resurrect a group that no longer exists",
                    {"memberIds": ids, "logOffset": offsets[0] if offsets else -1, "logOffsets": offsets},
                ))
            elif assigned - members:
                ids = sorted(assigned - members)
                offsets = self._member_evidence(group, ids)
                out.append(_finding(
                    "orphan-member-records", group,
                    f"assignment records for {counted(len(ids), 'member')} without member metadata: leftovers of a "
                    "member "
                    "removal whose tombstones were compacted away; the coordinator rebuilds members without "
                    "subscription or client details",
                    {"memberIds": ids, "logOffset": offsets[0] if offsets else -1, "logOffsets": offsets},
                ))
            verdict = empty_group_epochs(state.epoch, state.assignment_epoch)
            if state.has_metadata and not members and verdict != "equal":
                where = self._group_offsets.get(group, [None, None])
                evidence: dict[str, Any] = {"groupEpoch": state.epoch, "assignmentEpoch": state.assignment_epoch,
                                            "logOffset": where[0] if where[0] is not None else -1}
                if where[1] is not None:
                    evidence["assignmentLogOffset"] = where[1]
                if verdict == "behind":
                    explanation = (
                        f"the group has no members and its assignment epoch {state.assignment_epoch} is behind its "
                        f"group epoch {state.epoch}: what a broker without the KAFKA-20442 fix leaves when the last "
                        "member is fenced; harmless, Kafka loads the group as Empty and the next member to join "
                        "gets a new assignment")
                else:
                    explanation = (
                        f"the group has no members but its assignment epoch {state.assignment_epoch} is ahead of "
                        f"its group epoch {state.epoch}, which Kafka never writes: a member joining gets no new "
                        "assignment until the group epoch passes it (leftover records of a deletion or downgrade)")
                out.append(_finding("empty-group-epoch-mismatch", group, explanation, evidence,
                                    "info" if verdict == "behind" else None))
            out += self._owned_twice(group, state.current)
            out += self._duplicate_ids(
                group,
                [(m, meta.instance_id) for m, meta in state.members.items()],
                lambda ids, g=group: self._member_evidence(g, ids, 0),
            )
        return out

    def _owned_twice(self, group: str, current: dict[str, ConsumerGroupCurrentMemberAssignmentValue]) -> list[Finding]:
        owners: dict[tuple[Any, int], list[str]] = {}
        for member_id, assignment in current.items():
            for tp in current_held(assignment):
                owners.setdefault(tp, []).append(member_id)
        out = []
        for (topic_id, p), ids in owners.items():
            if len(ids) < 2:
                continue
            ids = sorted(ids)
            offsets = self._member_evidence(group, ids, 2)
            tid = uuid_to_kafka(topic_id) if hasattr(topic_id, "bytes") else str(topic_id)
            out.append(_finding(
                "partition-owned-twice", group,
                f"partition {tid}-{p} is owned by {len(ids)} members at once (assigned or pending revocation): "
                "two consumers may process it together, duplicating work and overwriting each other's commits",
                {"topicId": tid, "partition": p, "memberIds": ids,
                 "logOffset": offsets[0] if offsets else -1, "logOffsets": offsets},
            ))
        out.sort(key=lambda f: (f.evidence["topicId"], f.evidence["partition"]))
        return out

    def _duplicate_ids(self, group: str, pairs: list[tuple[str, Any]], where: Any) -> list[Finding]:
        holders: dict[str, list[str]] = {}
        for member_id, instance_id in pairs:
            if instance_id is not None:
                holders.setdefault(instance_id, []).append(member_id)
        out = []
        for instance_id, ids in sorted(holders.items()):
            if len(ids) < 2:
                continue
            ids = sorted(ids)
            offsets = where(ids)
            out.append(_finding(
                "duplicate-instance-id", group,
                f"static member id (group.instance.id) {instance_id!r} is held by {len(ids)} members at once: "
                "the older one should have been fenced, and two processes with the same id keep fencing each "
                "other out",
                {"instanceId": instance_id, "memberIds": ids,
                 "logOffset": offsets[0] if offsets else -1, "logOffsets": offsets},
            ))
        return out

    def _classic_rules(self) -> list[Finding]:
        """Duplicate static ids and undecodable consumer-protocol bytes, in each group's latest metadata.

        Only the latest GroupMetadataValue of a group is checked: the replay decodes member bytes
        lazily, and decoding every superseded value would cost more than the rest of the audit.
        """
        out = []
        for group, state in self._replay.classic.items():
            pairs = [(m.member_id, m.group_instance_id) for m in state.raw_members]
            out += self._duplicate_ids(group, pairs, lambda _ids, o=state.log_offset: [o])
            if state.protocol_type != "consumer":
                continue
            for member in state.members:
                raw = {"subscription": member.metadata.subscription, "assignment": member.metadata.assignment}
                bad = [name for name, decoded in (("subscription", member.subscription),
                                                   ("assignment", member.assignment))
                       if decoded is None and raw[name]]
                if not bad:
                    continue
                member_id = member.metadata.member_id
                earlier = {name: reads_as_earlier_version(_EMBEDDED[name], raw[name]) for name in bad}
                evidence = {"memberId": member_id, "fields": bad, "logOffset": state.log_offset,
                            "generation": state.generation}
                if all(v is not None for v in earlier.values()):
                    labelled = sorted({v for name in bad if (v := version_of(raw[name])) is not None})
                    evidence["readsAsVersions"] = [earlier[name] for name in bad]  # one per field
                    out.append(_finding(
                        "undecodable-subscription", group,
                        f"member {member_id}'s {' and '.join(bad)} bytes say version "
                        f"{'/'.join(map(str, labelled))} but hold a whole earlier version (as kafka-go writes them): "
                        "Kafka leaves them undecoded too (base64) and the group works; an online upgrade to the "
                        "consumer protocol is refused while this member is in the group",
                        evidence, "info",
                    ))
                    continue
                out.append(_finding(
                    "undecodable-subscription", group,
                    f"member {member_id}'s {' and '.join(bad)} bytes do not decode as any version of the consumer "
                    "protocol (Kafka shows them as base64): a faulty client or damaged bytes; tools cannot show its "
                    "topics or partitions, and an online upgrade to the consumer protocol is refused",
                    evidence,
                ))
        return out

    def _unknown_types(self) -> list[Finding]:
        return [
            _finding(
                "unknown-record-type", None,
                f"{counted(count, 'record')} of unknown type {t}: written by a newer broker or left from an aborted "
                "upgrade; this version's coordinator skips them, so whatever they hold is ignored",
                {"recordType": t, "records": count, "logOffset": first},
            )
            for t, (count, first) in sorted(self._unknown.items())
        ]


def merge(parts: Iterable[Auditor]) -> Auditor:
    """One auditor holding what `parts` observed, as if one auditor had observed their inputs in turn.

    This lets a dump be audited one `__consumer_offsets` partition at a time, in parallel (a group,
    and in practice a transactional producer, lives in one partition); `finish` on the result runs
    the rules about the final state once, so expired offsets are judged against the last timestamp
    of all parts. It is exact only for independent parts, so parts whose `scope`s meet are refused
    (ValueError): audit their inputs with one auditor instead. Parts must come in input order
    (finding order and first-seen evidence follow it) and are not to be used afterwards: their
    state is taken over, not copied.
    """
    merged = Auditor()
    seen: set[tuple[str, str | int]] = set()
    for part in parts:
        scope = part.scope()
        shared = seen & scope
        if shared:
            named = ", ".join(f"{kind} {key}" for kind, key in sorted(shared, key=str)[:3])
            raise ValueError(f"these audits share state ({named}): audit their inputs with one Auditor")
        seen |= scope
        merged._absorb(part)
    return merged

