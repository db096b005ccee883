"""What the `dump groups` and `dump audit` commands do, as library calls over dump inputs.

Rebuilding groups from a `__consumer_offsets` dump (replaying every record, noting which partition each
group's records came from, describing the groups asked for) and auditing a dump are what a script or
another front end needs as much as the CLI. Here they take the inputs as `FileDump`s (from
`groupctl.log.decode.open_inputs`, or any reader of segments) and return model objects; they never
print, so the CLI only parses, calls and renders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING

from groupctl.log.audit import Auditor, AuditReport
from groupctl.log.share_offsets import ShareStateReplay
from groupctl.model import GroupDescription, GroupState, ShareOffset

if TYPE_CHECKING:
    from groupctl.log.decode import FileDump
    from groupctl.log.replay import Replay

__all__ = [
    "OFFSETS_TOPIC",
    "DumpGroups",
    "ReplayedDump",
    "Stray",
    "audit_dumps",
    "describe_dump_groups",
    "replay_dumps",
    "source_partition",
]

OFFSETS_TOPIC = "__consumer_offsets"
_PARTITION_DIR = re.compile(OFFSETS_TOPIC + r"-(\d+)")


def source_partition(path: str) -> int | None:
    """The `__consumer_offsets` partition a file was read from: its directory's name (a segment in
    `__consumer_offsets-7/`, or the file a kafka-dump-log text names in its `Dumping` line); None
    when the path does not say (a pipe, a segment copied elsewhere)."""
    parent = PurePath(path).parent.name
    match = _PARTITION_DIR.fullmatch(parent)
    return int(match.group(1)) if match else None


# -- rebuilding groups -----------------------------------------------------------------------------


@dataclass(slots=True)
class ReplayedDump:
    """Every record of a dump replayed into one state, and where each group's records were read from.

    `partitions` maps a group id to the `__consumer_offsets` partitions its records were read from, in
    the order first seen; a group read only from inputs whose path names no partition has none.
    `share_state` is the share-partitions' state folded from the `__share_group_state` inputs.
    """

    replay: Replay
    partitions: dict[str, list[int]] = field(default_factory=dict)
    share_state: ShareStateReplay = field(default_factory=ShareStateReplay)


def replay_dumps(dumps: Iterable[FileDump]) -> ReplayedDump:
    """Replay every record of the inputs, in order, into one state (as the broker's loader would)."""
    from groupctl.log.replay import Replay

    replay = Replay()
    apply = replay.apply
    where: dict[str, list[int]] = {}
    share_state = ShareStateReplay()
    for dump in dumps:
        if dump.topic != OFFSETS_TOPIC:  # __share_group_state: share-partitions, not group records
            for _batch, recs in dump.batches:
                for rec in recs:
                    share_state.apply(rec)
            continue
        partition = source_partition(dump.path)
        groups: set[str | None] = set()
        add = groups.add
        for _batch, recs in dump.batches:
            for rec in recs:
                apply(rec)
                key = rec[2]
                if key is not None:
                    add(key.data["group"] if key.type <= 2 else key.data.get("groupId"))
        if partition is not None:
            for group in groups:
                if group is None:  # a key without its group id names no group to place
                    continue
                found = where.setdefault(group, [])
                if partition not in found:
                    found.append(partition)
    return ReplayedDump(replay, where, share_state)


@dataclass(frozen=True, slots=True)
class Stray:
    """A group whose records were read from other partitions than the one its id hashes to: the broker
    looks for it only in `hashed`, so either the partition count or the directories' names are off."""

    group_id: str
    read_from: tuple[int, ...]
    hashed: int


@dataclass(slots=True)
class DumpGroups:
    """The groups asked for, described from a replayed dump.

    `descriptions` are in the order asked (every group of the dump, in the replay's order, when none
    was named); `missing` are the ids asked for that the dump does not hold; `strays` the described
    groups read from another partition than the one their id hashes to.
    """

    descriptions: list[GroupDescription]
    missing: list[str]
    strays: list[Stray]


def describe_dump_groups(
    replayed: ReplayedDump,
    wanted: Iterable[str] = (),
    *,
    partitions: int = 50,
    topic_names: Mapping[str, str] | None = None,
) -> DumpGroups:
    """Describe the `wanted` groups (all when none is named) as they stand at the end of the dump.

    KIP-848 records name topics by id: they are shown by the names the dump itself holds, then by
    `topic_names` (id in base64url -> name) for the rest. A group's coordinator is the partition its
    records were read from (the one its id hashes to with `partitions` when it was read from that
    one too); `hashed_coordinator` is always the hashed one.
    """
    from groupctl.describe import describe_replayed
    from groupctl.log.partitioning import partition_for
    from groupctl.log.topic_ids import dump_topic_names
    from groupctl.share_groups import describe_share_group

    replay = replayed.replay
    names = dict(topic_names or {})
    names.update(dump_topic_names(replay))
    asked = list(wanted)
    existing = sorted({*replay.group_ids(), *replayed.share_state.group_ids()})
    missing = [g for g in asked if g not in existing]
    selected = [g for g in asked if g not in missing] if asked else existing
    descriptions = []
    strays = []
    for g in selected:
        read_from = replayed.partitions.get(g, [])
        hashed = partition_for(g, partitions)
        shown = hashed if hashed in read_from else read_from[-1] if read_from else None
        coordinator = None if shown is None else f"{OFFSETS_TOPIC}-{shown}"
        share = replay.share.get(g)
        if share is not None:
            desc = describe_share_group(g, share, topic_names=names, coordinator=coordinator)
        elif not replay.exists(g):  # named only by __share_group_state records
            desc = GroupDescription(g, "share", GroupState.DEAD, protocol_type="share", coordinator=coordinator)
        else:
            desc = describe_replayed(replay, g, topic_names=names, coordinator=coordinator)
        held = replayed.share_state.of_group(g)
        if held and desc.type == "share":
            desc.share_offsets = _with_share_state(desc.share_offsets, held, names)
        desc.hashed_coordinator = f"{OFFSETS_TOPIC}-{hashed}"
        descriptions.append(desc)
        if read_from and read_from != [hashed]:
            strays.append(Stray(g, tuple(read_from), hashed))
    return DumpGroups(descriptions, missing, strays)


def _with_share_state(listed: list[ShareOffset], held: list, names: Mapping[str, str]) -> list[ShareOffset]:
    """The group's share-partitions with their state from `__share_group_state` (start offsets, epochs,
    in-flight batches), beside those the group's type-15 record lists and the share state lacks."""
    from groupctl.protocol.primitives import uuid_to_kafka

    found = {}
    for topic_id, partition, state in held:
        text = uuid_to_kafka(topic_id)
        offset = state.to_model(names.get(text, text), partition)
        found[(offset.topic, partition)] = offset
    for offset in listed:
        found.setdefault((offset.topic, offset.partition), offset)
    return [found[k] for k in sorted(found)]


# -- auditing --------------------------------------------------------------------------------------


def audit_dumps(dumps: Iterable[FileDump]) -> AuditReport:
    """Audit whole inputs: every record of each dump, then that dump's problems (known once it is read).

    Each segment reader is attached to the auditor first (`Auditor.attach`), so its plain batches of
    offset commits take the compiled path when there is one. `__share_group_state` inputs are read (their
    damage is reported) but not audited.
    """
    auditor = Auditor()
    observe_batch = auditor.observe_batch
    for dump in dumps:
        if dump.topic != OFFSETS_TOPIC:  # the rules are __consumer_offsets' (a snapshot is no offset commit)
            for _ in dump.batches:
                pass
            continue
        auditor.attach(dump.reader)
        for batch, recs in dump.batches:
            observe_batch(batch, recs)
        for problem in dump.problems:
            auditor.observe_problem(problem)
    return auditor.finish()
