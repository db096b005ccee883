"""The share coordinator's part, in process: each share-partition's state epoch and start offset.

On a broker these live in `__share_group_state` (ShareSnapshot records), apart from `__consumer_offsets`.
The lab keeps them in this small store instead, which the local backend saves beside the log as JSON:
a share-partition is initialized at start offset -1 (resolved by the first share fetch on a broker; the
lab has none, so only AlterShareGroupOffsets sets one) with the group's epoch as its state epoch.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

SharePartitionKey = tuple[str, uuid.UUID, int]


@dataclass(frozen=True, slots=True)
class ShareStart:
    """One share-partition's state as the share coordinator keeps it."""

    state_epoch: int
    start_offset: int  # -1: not resolved yet
    leader_epoch: int = -1


class ShareStarts:
    """The share coordinator's share-partition states, keyed by (group, topic id, partition)."""

    def __init__(self) -> None:
        self.partitions: dict[SharePartitionKey, ShareStart] = {}

    def get(self, group_id: str, topic_id: uuid.UUID, partition: int) -> ShareStart | None:
        return self.partitions.get((group_id, topic_id, partition))

    def initialize(self, group_id: str, topic_id: uuid.UUID, partition: int, state_epoch: int,
                   start_offset: int = -1) -> None:
        """A share-partition's state; a start offset set comes with leader epoch 0 (the lab's partitions
        never change leader)."""
        leader_epoch = 0 if start_offset >= 0 else -1
        self.partitions[(group_id, topic_id, partition)] = ShareStart(state_epoch, start_offset, leader_epoch)

    def drop(self, group_id: str, topic_ids: Iterable[uuid.UUID] | None = None) -> None:
        """Forget the group's share-partitions (of `topic_ids` only, when given)."""
        wanted = None if topic_ids is None else set(topic_ids)
        for key in [k for k in self.partitions if k[0] == group_id and (wanted is None or k[1] in wanted)]:
            del self.partitions[key]

    def to_jsonable(self) -> list[list]:
        return [[g, str(t), p, s.state_epoch, s.start_offset, s.leader_epoch]
                for (g, t, p), s in sorted(self.partitions.items(), key=lambda kv: (kv[0][0], str(kv[0][1]), kv[0][2]))]

    def load_jsonable(self, rows: Iterable[list]) -> None:
        self.partitions = {(g, uuid.UUID(t), int(p)): ShareStart(int(e), int(o), int(le)) for g, t, p, e, o, le in rows}
