"""`group offsets reset` as library calls over any `Backend`: parse the mode, plan, clamp, commit.

Kafka's rules, from `kafka-consumer-groups.sh --reset-offsets` (its GroupOffsetsResetter): only a
group with no active members (Empty or Dead, or one the coordinator does not know, whose offsets
are then created) is reset; an offset asked by --to-offset, --shift-by or a plan file outside
[log start, log end] is clamped into it; a time after the last record resets to the log end;
--to-current keeps the committed offset as it is (the log end where there is none).
The plan is computed once and is exactly what gets committed, one OffsetCommit per group.

A share group (KIP-932) has start offsets instead of committed ones: kafka-share-groups.sh resets them
--to-earliest, --to-latest or --to-datetime, only while the group has no active members ("Share group 'g'
is not empty."), with one AlterShareGroupOffsets; groupctl follows the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from groupctl.errors import GroupctlError, GroupNotFound, UsageError
from groupctl.model import GroupState, OffsetReset, TopicPartition
from groupctl.plurals import counted

if TYPE_CHECKING:
    from groupctl.backends.base import Backend

__all__ = [
    "WOULD_RESET",
    "GroupPlan",
    "ResetMode",
    "TopicSelector",
    "execute_reset",
    "parse_datetime",
    "parse_duration_ms",
    "parse_selector",
    "plan_reset",
]

WOULD_RESET = "would-reset"
RESET = "reset"
#: Per-partition reasons groupctl gives where no offset could be planned.
NO_CURRENT_OFFSET = "NO_CURRENT_OFFSET"
NO_SOURCE_OFFSET = "NO_SOURCE_OFFSET"
#: The modes whose asked offset may fall outside the log: Kafka's tool clamps --to-offset, --shift-by and
#: --from-file (checkOffsetsRange); --to-group is clamped alike. --to-current keeps the committed offset
#: as it is, and the other modes ask the log itself.
CLAMPED = ("offset", "shift", "file", "group")
#: Kafka's rule (ConsumerGroupCommand): only groups in these states may be reset.
RESETTABLE = (GroupState.EMPTY, GroupState.DEAD)
#: The modes kafka-share-groups.sh --reset-offsets offers (ShareGroupCommand: earliest, latest, datetime),
#: each with the option that asks for it, and the options of the others for the refusal.
SHARE_MODES = ("earliest", "latest", "time")
MODE_OPTIONS = {"earliest": "--to-earliest", "latest": "--to-latest", "current": "--to-current",
                "offset": "--to-offset", "shift": "--shift-by", "time": "--to-datetime", "duration": "--by-duration",
                "group": "--to-group", "file": "--from-file"}

_DURATION = re.compile(
    r"(?P<sign>[-+]?)P(?:(?P<days>[-+]?\d+)D)?"
    r"(?:T(?:(?P<hours>[-+]?\d+)H)?(?:(?P<minutes>[-+]?\d+)M)?(?:(?P<seconds>[-+]?\d+(?:[.,]\d{0,9})?)S)?)?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ResetMode:
    """Where to move: `kind` is earliest, latest, current, offset, shift, time, duration, group or
    file; `value` the offset, the shift, the timestamp (ms), the duration back from now (ms) or the
    other group's id."""

    kind: str
    value: int | str | None = None

    def number(self) -> int:
        """`value` as the offset, shift, timestamp or duration of those kinds (None is a TypeError, as in int())."""
        if self.value is None:
            raise TypeError(f"a {self.kind} reset without its value")
        return int(self.value)


@dataclass(frozen=True, slots=True)
class TopicSelector:
    """`--topic TOPIC[:P,P...]`: the topic, and its partitions (None: all of them)."""

    topic: str
    partitions: tuple[int, ...] | None = None


@dataclass(slots=True)
class GroupPlan:
    """One group's part of the reset: its state, why it is refused (if it is), and a row per partition."""

    group_id: str
    state: str | None  # None: the coordinator does not know the group
    rows: list[OffsetReset] = field(default_factory=list)
    refusal: str | None = None
    #: A share group: its start offsets are set with AlterShareGroupOffsets, not committed.
    share: bool = False

    @property
    def offsets(self) -> dict[TopicPartition, int]:
        """What to commit: the planned rows' new offsets."""
        return {TopicPartition(r.topic, r.partition): r.new_offset for r in self.rows
                if r.outcome == WOULD_RESET and r.new_offset is not None}


def parse_selector(text: str) -> TopicSelector:
    """`orders` or `orders:0,2` (Kafka's --topic syntax)."""
    topic, colon, parts = text.partition(":")
    if not topic.strip():
        raise UsageError(f"--topic '{text}' names no topic; write TOPIC or TOPIC:P[,P...]")
    if not colon:
        return TopicSelector(topic.strip())
    try:
        numbers = tuple(dict.fromkeys(int(p) for p in parts.split(",")))
    except ValueError:
        raise UsageError(f"--topic '{text}': partitions are whole numbers, e.g. {topic}:0,1,2") from None
    if not numbers or min(numbers) < 0:
        raise UsageError(f"--topic '{text}': partitions are whole numbers from 0, e.g. {topic}:0,1,2")
    return TopicSelector(topic.strip(), numbers)


def parse_datetime(text: str) -> int:
    """--to-datetime as Kafka's tool takes it (`Utils.getDateTime`): `YYYY-MM-DDTHH:mm:SS.sss` with an
    optional zone (Z, +hh, +hhmm, +hh:mm); without one the time is UTC, as Kafka appends `Z`. Seconds
    and milliseconds may be left out here (Kafka requires them). Returns epoch ms."""
    value = text.strip()
    if "T" not in value:
        raise UsageError(f"--to-datetime '{text}' does not contain a 'T': write YYYY-MM-DDTHH:mm:SS.sss with an "
                         "optional zone (Z, +hh:mm), e.g. 2026-01-31T08:00:00.000Z")
    if value.endswith(("z", "Z")):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(f"--to-datetime '{text}' is not YYYY-MM-DDTHH:mm:SS.sss with an optional zone (Z, "
                         "+hh:mm); e.g. 2026-01-31T08:00:00.000Z") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def parse_duration_ms(text: str) -> int:
    """--by-duration as ISO-8601 `PnDTnHnMnS` (Java's Duration.parse): how far back from now, in ms."""
    m = _DURATION.fullmatch(text.strip())
    if m is None or not any(m.group(k) for k in ("days", "hours", "minutes", "seconds")) or text.strip().upper(
    ).endswith("T"):
        raise UsageError(f"--by-duration '{text}' is not an ISO-8601 duration PnDTnHnMnS, e.g. PT30M, P1DT12H")
    seconds = m.group("seconds") or "0"
    delta = timedelta(days=int(m.group("days") or 0), hours=int(m.group("hours") or 0),
                      minutes=int(m.group("minutes") or 0), seconds=float(seconds.replace(",", ".")))
    ms = int(delta.total_seconds() * 1000) * (-1 if m.group("sign") == "-" else 1)
    if ms < 0:
        raise UsageError(f"--by-duration '{text}' is negative; it says how far back from now to go")
    return ms


def _refusal(desc_state: str, members: list[str], group: str) -> str:
    shown = ", ".join(members[:5]) + (f" and {len(members) - 5} more" if len(members) > 5 else "")
    return (f"group '{group}' has active members ({desc_state}): {shown or 'none listed'}; Kafka resets offsets only "
            "of a group with no active members (Empty or Dead): stop its consumers first")


def _partitions(backend: Backend, selectors: list[TopicSelector], fix: str = "") -> list[TopicPartition]:
    """The partitions selected, each checked to exist; `fix` says where to correct a wrong one (--topic when empty)."""
    counts = backend.partition_counts(list(dict.fromkeys(s.topic for s in selectors)))
    out: list[TopicPartition] = []
    for s in selectors:
        count = counts.get(s.topic)
        if count is None:
            hint = fix or "check --topic (`groupctl local topics list` or the cluster's topic list)"
            raise GroupctlError(f"topic '{s.topic}' does not exist on {backend.location}; {hint}")
        wanted = s.partitions if s.partitions is not None else tuple(range(count))
        bad = [p for p in wanted if p >= count]
        if bad:
            raise GroupctlError(f"topic '{s.topic}' has {counted(count, 'partition')} (0-{count - 1}) on "
                                f"{backend.location}, "
                                f"not {', '.join(map(str, bad))}; {fix or f'fix --topic {s.topic}:P[,P...]'}")
        out.extend(TopicPartition(s.topic, p) for p in wanted)
    return sorted(set(out))


def _clamp(asked: int, start: int | None, end: int | None) -> tuple[int, str | None]:
    if start is not None and asked < start:
        return start, f"clamped up to the log start {start} (asked {asked})"
    if end is not None and asked > end:
        return end, f"clamped down to the log end {end} (asked {asked})"
    return asked, None


def _share_refusal(desc_state: str, members: list[str], group: str) -> str:
    """Kafka's words (ShareGroupCommand), then who is in the way."""
    shown = ", ".join(members[:5]) + (f" and {len(members) - 5} more" if len(members) > 5 else "")
    return (f"Share group '{group}' is not empty. It is {desc_state}, with share consumers {shown or 'joining'}; "
            "Kafka resets a share group's start offsets only when it has no active members: stop them first")


@dataclass(slots=True)
class _GroupNow:
    """A group as the reset finds it: its state (None: unknown to the coordinator), why it is refused,
    its offsets (committed, or a share group's start offsets), and the partitions --all-topics means."""

    state: str | None
    refusal: str | None
    committed: dict[TopicPartition, int]
    held: list[TopicPartition]
    share: bool = False


def _state(backend: Backend, group: str) -> _GroupNow:
    """The group now; a group the coordinator does not know may be reset (its offsets are created)."""
    try:
        (desc,) = backend.describe_groups([group])
    except GroupNotFound:
        committed = {TopicPartition(o.topic, o.partition): o.offset for o in backend.committed_offsets(group)}
        return _GroupNow(None, None, committed, sorted(committed))
    members = [f"{m.member_id}" + (f" (instance {m.instance_id})" if m.instance_id else "")
               + f" on {m.host or '?'}" for m in desc.members]
    if desc.type == "share":
        starts = {TopicPartition(o.topic, o.partition): o.start_offset for o in desc.share_offsets}
        refusal = None if desc.state in RESETTABLE else _share_refusal(desc.state, members, group)
        return _GroupNow(desc.state, refusal, {tp: o for tp, o in starts.items() if o is not None}, sorted(starts),
                         share=True)
    committed = {TopicPartition(o.topic, o.partition): o.offset for o in desc.offsets if o.offset >= 0}
    refusal = None if desc.state in RESETTABLE else _refusal(desc.state, members, group)
    return _GroupNow(desc.state, refusal, committed, sorted(committed))


def plan_reset(
    backend: Backend,
    groups: list[str],
    mode: ResetMode,
    selectors: list[TopicSelector],
    *,
    all_topics: bool = False,
    from_file: Mapping[str, Mapping[TopicPartition, int]] | None = None,
    now_ms: int | None = None,
) -> list[GroupPlan]:
    """The reset of each group, computed and checked; nothing is changed.

    A group with active members gets a `refusal` and no rows. Partitions: those of `selectors`, or
    with `all_topics` those the group has committed offsets for (with --to-group: those the other
    group has), or with a plan file those it names.
    """
    source: dict[TopicPartition, int] = {}
    if mode.kind == "group":
        other = str(mode.value)
        source = {TopicPartition(o.topic, o.partition): o.offset for o in backend.committed_offsets(other)
                  if o.offset >= 0}
        if not source:
            raise GroupctlError(f"group '{other}' has no committed offsets on {backend.location} to copy "
                                "(--to-group); check the group id with `groupctl group list`")
    named = _partitions(backend, selectors) if selectors else []
    if from_file is not None:  # as Kafka's tool, a plan naming a partition the cluster lacks changes nothing
        in_file = sorted({tp for offsets in from_file.values() for tp in offsets})
        _partitions(backend, [TopicSelector(tp.topic, (tp.partition,)) for tp in in_file],
                    "fix the plan file (--from-file); nothing was reset")
    plans = []
    for group in groups:
        now = _state(backend, group)
        plan = GroupPlan(group, now.state, refusal=now.refusal, share=now.share)
        plans.append(plan)
        if now.share and mode.kind not in SHARE_MODES:
            plan.refusal = (f"'{group}' is a share group: kafka-share-groups.sh resets share groups --to-earliest, "
                            f"--to-latest or --to-datetime only, and so does groupctl (not {MODE_OPTIONS[mode.kind]})")
        if plan.refusal is not None:
            continue
        if from_file is not None:
            wanted = sorted(from_file.get(group, {}))
        elif all_topics:
            wanted = sorted(source) if mode.kind == "group" else now.held
        else:
            wanted = named
        if not wanted:
            what = "share-partitions" if now.share else "committed offsets"
            plan.refusal = (f"no reset plan for group '{group}' in the plan file (--from-file); add its lines, or "
                            "do not name the group" if from_file is not None else
                            f"group '{group}' has no {what} on {backend.location}, so --all-topics "
                            "selects nothing; name the partitions with --topic")
            continue
        plan.rows = _rows(backend, group, mode, wanted, now.committed, source, from_file, now_ms)
    return plans


@dataclass(slots=True)
class _Known:
    """What one group's plan is computed from, looked up once."""

    committed: dict[TopicPartition, int]
    source: dict[TopicPartition, int]  # the other group's offsets (--to-group)
    planned: Mapping[TopicPartition, int]  # the plan file's offsets for this group (--from-file)
    starts: dict[TopicPartition, int]
    ends: dict[TopicPartition, int]


def _targets(
    backend: Backend, mode: ResetMode, wanted: list[TopicPartition], known: _Known, now_ms: int | None
) -> dict[TopicPartition, int | str]:
    """The offset asked for each partition, or the reason there is none."""
    kind = mode.kind
    if kind in ("time", "duration"):
        if kind == "duration" and now_ms is None:
            raise ValueError("a --by-duration plan needs now_ms")
        stamp = mode.number() if kind == "time" else (now_ms or 0) - mode.number()
        # Before 1970 is before every record; ListOffsets reserves negative timestamps (-1 latest, -2 earliest ...).
        return dict(backend.offsets_for_time(wanted, max(stamp, 0)))
    out: dict[TopicPartition, int | str] = {}
    for tp in wanted:
        if kind == "earliest":
            out[tp] = known.starts.get(tp, 0)
        elif kind == "latest":
            out[tp] = known.ends.get(tp, 0)
        elif kind == "current":
            out[tp] = known.committed.get(tp, known.ends.get(tp, 0))
        elif kind == "offset":
            out[tp] = mode.number()
        elif kind == "shift":
            current = known.committed.get(tp)
            out[tp] = NO_CURRENT_OFFSET if current is None else current + mode.number()
        elif kind == "group":
            out[tp] = known.source.get(tp, NO_SOURCE_OFFSET)
        elif kind == "file":
            out[tp] = known.planned[tp]
        else:
            raise ValueError(f"unknown reset mode {kind}")
    return out


_REASONS = {
    NO_CURRENT_OFFSET: "the group has no committed offset here to shift from",
    NO_SOURCE_OFFSET: "the other group (--to-group) has no committed offset here",
}


def _rows(
    backend: Backend, group: str, mode: ResetMode, wanted: list[TopicPartition], committed: dict[TopicPartition, int],
    source: dict[TopicPartition, int], from_file: Mapping[str, Mapping[TopicPartition, int]] | None,
    now_ms: int | None,
) -> list[OffsetReset]:
    known = _Known(committed, source, (from_file or {}).get(group, {}), backend.start_offsets(wanted),
                   backend.end_offsets(wanted))
    asked = _targets(backend, mode, wanted, known, now_ms)
    rows = []
    for tp in wanted:
        start, end = known.starts.get(tp), known.ends.get(tp)
        target = asked.get(tp)
        row = OffsetReset(group, tp.topic, tp.partition, committed.get(tp), None, start, end, WOULD_RESET)
        if end is None:
            row.outcome, row.note = "UNKNOWN_TOPIC_OR_PARTITION", "the cluster has no log end offset for it"
        elif isinstance(target, str) or target is None:
            reason = target or "NO_OFFSET"
            row.outcome, row.note = reason, _REASONS.get(reason, "no offset found for it")
        elif mode.kind in CLAMPED:
            row.new_offset, row.note = _clamp(target, start, end)
        else:
            row.new_offset = target
        rows.append(row)
    return rows


def execute_reset(backend: Backend, plans: list[GroupPlan]) -> None:
    """Commit each group's planned offsets (one OffsetCommit per group) and record each partition's
    outcome on its row; a group-level failure marks every planned row of that group with it."""
    for plan in plans:
        offsets = plan.offsets
        if plan.refusal is not None or not offsets:
            continue
        try:
            if plan.share:
                errors = backend.alter_share_offsets(plan.group_id, offsets)
            else:
                errors = backend.alter_offsets(plan.group_id, offsets)
        except GroupctlError as exc:
            name = getattr(exc, "name", None) or "FAILED"
            for row in plan.rows:
                if row.outcome == WOULD_RESET:
                    row.outcome, row.note = name, str(exc)
            continue
        for row in plan.rows:
            if row.outcome != WOULD_RESET:
                continue
            error = errors.get(TopicPartition(row.topic, row.partition), "UNKNOWN_SERVER_ERROR")
            if error is None:
                row.outcome = RESET
            else:
                row.outcome = error
                row.note = f"not committed: {error}" + (f"; {row.note}" if row.note else "")
