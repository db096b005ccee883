"""The Java consumer's default classic assignor (`RangeAssignor`), as a group leader runs it.

The leader only sees the JoinGroup members list, so the order it sorts members in decides who gets
which range: static members by group.instance.id first (KIP-345 added the ids to the list for this),
then dynamic members by member id. A dynamic member's id is new after every restart, so its range
can land anywhere; that is where a dynamic rolling bounce's partition moves come from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RangeMember:
    member_id: str
    instance_id: str | None
    topics: tuple[str, ...]

    def sort_key(self) -> tuple[int, str]:
        """`MemberInfo.compareTo`: instance ids before member ids."""
        return (0, self.instance_id) if self.instance_id is not None else (1, self.member_id)


def range_assign(members: Sequence[RangeMember], partition_count: Callable[[str], int | None]
                 ) -> dict[str, dict[str, list[int]]]:
    """member id -> topic -> partitions: per topic, consecutive ranges, the first members one longer."""
    out: dict[str, dict[str, list[int]]] = {m.member_id: {} for m in members}
    for topic in sorted({t for m in members for t in m.topics}):
        count = partition_count(topic)
        if not count:
            continue
        consumers = sorted((m for m in members if topic in m.topics), key=RangeMember.sort_key)
        per, extra = divmod(count, len(consumers))
        for i, member in enumerate(consumers):
            start = per * i + min(i, extra)
            length = per + (1 if i < extra else 0)
            if length:
                out[member.member_id][topic] = list(range(start, start + length))
    return out
