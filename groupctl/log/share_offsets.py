"""Share-partitions' state folded from `__share_group_state` records, as Kafka's share coordinator
replays them (ShareCoordinatorShard): a ShareSnapshot (type 0) is a share-partition's whole state and
replaces what was there, its tombstone deletes it; a ShareUpdate (type 1) is a delta applied on the
state so far: a start offset or leader epoch of -1 keeps the old one, the state epoch and snapshot
epoch stay the snapshot's, and the in-flight batches are combined (PersisterStateBatchCombiner).
An update with no snapshot before it (a dump that starts after the snapshot) is the state, with state
epoch -1, as Kafka takes it.

Combining batches: those wholly below the start offset are dropped and one across it is cut to it;
where batches overlap, each offset takes the batch with the higher delivery count, then the higher
delivery state (Kafka's priority when it splits overlapping batches); touching or overlapping ranges
with the same state and count are merged. The result is sorted and non-overlapping.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from groupctl.model import SHARE_DELIVERY_STATES, ShareOffset, ShareStateBatch
from groupctl.protocol.share_state_schemas import SHARE_SNAPSHOT, SHARE_UPDATE

__all__ = ["Batch", "SharePartitionState", "ShareStateReplay", "combine_batches"]

UNINITIALIZED = -1


class Batch(NamedTuple):
    """An in-flight range as the records store it (DeliveryState id, DeliveryCount)."""

    first_offset: int
    last_offset: int
    delivery_state: int
    delivery_count: int


@dataclass(slots=True)
class SharePartitionState:
    """One share-partition's state: what Kafka's ShareGroupOffset holds."""

    snapshot_epoch: int
    state_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int
    batches: list[Batch]

    def to_model(self, topic: str, partition: int) -> ShareOffset:
        """As the model shows it: no start offset while uninitialised (-1), state names for the ids."""
        return ShareOffset(
            topic, partition,
            None if self.start_offset == UNINITIALIZED else self.start_offset,
            leader_epoch=None if self.leader_epoch == UNINITIALIZED else self.leader_epoch,
            state_epoch=None if self.state_epoch == UNINITIALIZED else self.state_epoch,
            batches=[ShareStateBatch(b.first_offset, b.last_offset, _state_name(b.delivery_state), b.delivery_count)
                     for b in self.batches],
        )


def _state_name(state: int) -> str:
    return SHARE_DELIVERY_STATES.get(state, f"Unknown({state})")


def _batches(value: dict) -> list[Batch]:
    return [Batch(b["firstOffset"], b["lastOffset"], b["deliveryState"], b["deliveryCount"])
            for b in value["stateBatches"]]


def combine_batches(so_far: Iterable[Batch], new: Iterable[Batch], start_offset: int) -> list[Batch]:
    """The batches of a share-partition after an update (see the module docstring)."""
    pruned = []
    for b in (*so_far, *new):
        if start_offset != UNINITIALIZED:
            if b.last_offset < start_offset:
                continue
            if b.first_offset < start_offset:
                b = b._replace(first_offset=start_offset)
        pruned.append(b)
    if len(pruned) < 2:
        return pruned
    # Elementary ranges between every batch edge, each taking its highest-priority batch.
    edges = sorted({b.first_offset for b in pruned} | {b.last_offset + 1 for b in pruned})
    out: list[Batch] = []
    for lo, hi in itertools.pairwise(edges):
        covering = [b for b in pruned if b.first_offset <= lo and hi - 1 <= b.last_offset]
        if not covering:
            continue
        best = max(covering, key=lambda b: (b.delivery_count, b.delivery_state))
        last = out[-1] if out else None
        if (last is not None and last.last_offset + 1 == lo and last.delivery_state == best.delivery_state
                and last.delivery_count == best.delivery_count):
            out[-1] = last._replace(last_offset=hi - 1)
        else:
            out.append(Batch(lo, hi - 1, best.delivery_state, best.delivery_count))
    return out


@dataclass(slots=True)
class ShareStateReplay:
    """Every share-partition's state, keyed by (group id, topic id, partition), in the order first seen."""

    partitions: dict[tuple[str, uuid.UUID, int], SharePartitionState] = field(default_factory=dict)
    records: int = 0
    undecodable: int = 0  # records whose key or value did not decode: not applied

    def apply(self, rec: Any) -> None:
        """Fold one `__share_group_state` DecodedRecord (control records and errors are not applied)."""
        self.records += 1
        key, value = rec.key, rec.value
        if rec.control is not None:
            return
        if key is None or rec.error is not None:
            self.undecodable += 1
            return
        kd = key.data
        where = (kd["groupId"], kd["topicId"], kd["partition"])
        if key.type == SHARE_SNAPSHOT:
            if value is None:
                self.partitions.pop(where, None)
                return
            v = value.data
            self.partitions[where] = SharePartitionState(
                v["snapshotEpoch"], v["stateEpoch"], v["leaderEpoch"], v["startOffset"],
                v.get("deliveryCompleteCount", -1), _batches(v))
        elif key.type == SHARE_UPDATE and value is not None:
            v = value.data
            old = self.partitions.get(where)
            if old is None:
                self.partitions[where] = SharePartitionState(
                    v["snapshotEpoch"], UNINITIALIZED, v["leaderEpoch"], v["startOffset"],
                    v.get("deliveryCompleteCount", -1), _batches(v))
                return
            start = old.start_offset if v["startOffset"] == UNINITIALIZED else v["startOffset"]
            old.leader_epoch = old.leader_epoch if v["leaderEpoch"] == UNINITIALIZED else v["leaderEpoch"]
            old.batches = combine_batches(old.batches, _batches(v), start)
            old.start_offset = start
            count = v.get("deliveryCompleteCount", -1)
            if count != -1:
                old.delivery_complete_count = count

    def group_ids(self) -> list[str]:
        return sorted({g for g, _, _ in self.partitions})

    def of_group(self, group_id: str) -> list[tuple[uuid.UUID, int, SharePartitionState]]:
        """The group's share-partitions, by topic id and partition."""
        found = [(t, p, s) for (g, t, p), s in self.partitions.items() if g == group_id]
        return sorted(found, key=lambda x: (str(x[0]), x[1]))
