"""Who consumes which partition, as the clients see it, and what a scenario did to that.

The coordinator's view is not enough: a static KIP-848 member that left with epoch -2 still holds its
partitions in the coordinator while nobody reads them. So ownership is what the simulated clients
hold, keyed by the process (pod) that runs them, which outlives member ids across restarts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

Partition = tuple[str, int]  # (topic name, partition)


@dataclass(slots=True)
class OwnershipTracker:
    """Counts partition moves and unowned time from the moment `begin` is called.

    A move is a partition taken by a different process than the last one that held it; a partition
    that comes back to the same process after a gap is not a move (its local state is still there).
    Unowned time is summed per partition; a partition held by two processes at once is a conflict.
    """

    partitions: list[Partition]
    owners: dict[Partition, set[str]] = field(default_factory=dict)
    last_owner: dict[Partition, str] = field(default_factory=dict)
    unowned_since: dict[Partition, int] = field(default_factory=dict)
    unowned_ms: dict[Partition, int] = field(default_factory=dict)
    moves: int = 0
    conflicts: list[str] = field(default_factory=list)
    _counting: bool = False

    def __post_init__(self) -> None:
        for tp in self.partitions:
            self.owners[tp] = set()
            self.unowned_since[tp] = 0
            self.unowned_ms[tp] = 0

    def begin(self, now_ms: int) -> None:
        """Start counting: moves and unowned time before this moment are forgotten."""
        self._counting = True
        self.moves = 0
        self.conflicts.clear()
        for tp in self.partitions:
            self.unowned_ms[tp] = 0
            if tp in self.unowned_since:
                self.unowned_since[tp] = now_ms

    def change(self, process: str, before: Iterable[Partition], after: Iterable[Partition], now_ms: int) -> None:
        """A process's client now holds `after` instead of `before`."""
        old, new = set(before), set(after)
        for tp in old - new:
            holders = self.owners[tp]
            holders.discard(process)
            if not holders:
                self.unowned_since[tp] = now_ms
        for tp in new - old:
            holders = self.owners[tp]
            if holders and self._counting:
                self.conflicts.append(f"{tp[0]}-{tp[1]} taken by {process} while {', '.join(sorted(holders))} "
                                      f"held it at {now_ms} ms")
            holders.add(process)
            since = self.unowned_since.pop(tp, None)
            if since is not None and self._counting:
                self.unowned_ms[tp] += now_ms - since
            previous = self.last_owner.get(tp)
            if previous is not None and previous != process and self._counting:
                self.moves += 1
            self.last_owner[tp] = process

    def unowned_totals(self, now_ms: int) -> dict[Partition, int]:
        """Unowned time per partition up to `now_ms`, gaps still open included."""
        return {tp: self.unowned_ms[tp] + (now_ms - self.unowned_since[tp] if tp in self.unowned_since else 0)
                for tp in self.partitions}
