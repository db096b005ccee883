"""The coordinator's view of a share group's share-partitions (record type 15), keyed as it plans with them.

The share groups themselves are the replay's (`groupctl.log.share_groups`, the fold `dump groups` uses too);
this module reads each group's type-15 value into which share-partitions are initializing, initialized or
being deleted in `__share_group_state`, by topic id.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from groupctl.log.share_groups import ShareGroupState


@dataclass(frozen=True, slots=True)
class InitTopic:
    """One topic of a type-15 list: its name and the share-partitions in that list."""

    name: str
    partitions: frozenset[int]


@dataclass(slots=True)
class SharePartitionsState:
    """A type-15 value: which share-partitions of the group are initializing, initialized, deleting."""

    initializing: dict[uuid.UUID, InitTopic] = field(default_factory=dict)
    initialized: dict[uuid.UUID, InitTopic] = field(default_factory=dict)
    deleting: dict[uuid.UUID, str] = field(default_factory=dict)


def share_partitions(groups: Mapping[str, ShareGroupState]) -> dict[str, SharePartitionsState]:
    """Each share group's type-15 value, for the groups that have one."""
    out = {}
    for group_id, group in groups.items():
        v = group.partition_state
        if v is None:
            continue
        out[group_id] = SharePartitionsState(
            {t.topic_id: InitTopic(t.topic_name, frozenset(t.partitions)) for t in v.initializing_topics},
            {t.topic_id: InitTopic(t.topic_name, frozenset(t.partitions)) for t in v.initialized_topics},
            {t.topic_id: t.topic_name for t in v.deleting_topics},
        )
    return out
