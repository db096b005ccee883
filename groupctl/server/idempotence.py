"""What an idempotent producer's batches must satisfy on one partition: Kafka's sequence checks.

A producer (an id from InitProducerId, an epoch, a sequence per partition) retries a batch it got no
answer for; the broker keeps the last five batches of each producer per partition and answers a
retry with the offset the first copy got, so nothing is written twice. A batch that skips ahead
is OUT_OF_ORDER_SEQUENCE_NUMBER, an older epoch INVALID_PRODUCER_EPOCH. The state is rebuilt from
the log on start, as Kafka rebuilds it from its snapshots and the log.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from groupctl.errors import KafkaError

#: Kafka keeps this many batches per producer per partition (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
BATCHES_RETAINED = 5
_INT32_MAX = 2**31 - 1


def next_sequence(sequence: int, count: int) -> int:
    """The sequence after `count` records from `sequence` (sequences wrap to 0 after int32 max)."""
    following = sequence + count
    return following - _INT32_MAX - 1 if following > _INT32_MAX else following


@dataclass
class ProducerEntry:
    epoch: int
    #: (first sequence, last sequence, base offset) of the producer's latest batches, oldest first.
    batches: deque[tuple[int, int, int]] = field(default_factory=lambda: deque(maxlen=BATCHES_RETAINED))


class ProducerStates:
    """Per-producer sequence state of one partition."""

    def __init__(self) -> None:
        self.producers: dict[int, ProducerEntry] = {}

    def check(self, producer_id: int, epoch: int, first_seq: int, count: int, offset: int,
              topic_partition: str) -> int | None:
        """The base offset of the earlier copy when this batch is a retry, None when it is new;
        KafkaError when it must be refused."""
        entry = self.producers.get(producer_id)
        if entry is None:
            return None  # a producer seen first here (or whose state is gone): any sequence starts it
        last_seq = next_sequence(first_seq, count - 1)
        if epoch < entry.epoch:
            raise KafkaError("INVALID_PRODUCER_EPOCH", f"Epoch of producer {producer_id} at offset {offset} in "
                             f"{topic_partition} is {epoch}, which is smaller than the last seen epoch {entry.epoch}")
        if epoch > entry.epoch:
            if first_seq != 0:
                raise KafkaError("OUT_OF_ORDER_SEQUENCE_NUMBER",
                                 f"Invalid sequence number for new epoch of producer {producer_id} at offset {offset} "
                                 f"in partition {topic_partition}: {epoch} (request epoch), {first_seq} (seq. number), "
                                 f"{entry.epoch} (current producer epoch)")
            return None
        for first, last, base_offset in entry.batches:
            if (first, last) == (first_seq, last_seq):
                return base_offset
        expected = next_sequence(entry.batches[-1][1], 1) if entry.batches else 0
        if entry.batches and first_seq != expected:
            raise KafkaError("OUT_OF_ORDER_SEQUENCE_NUMBER", f"Out of order sequence number for producer {producer_id} "
                             f"at offset {offset} in partition {topic_partition}: {first_seq} (incoming seq. number), "
                             f"{entry.batches[-1][1]} (current end sequence number)")
        return None

    def record(self, producer_id: int, epoch: int, first_seq: int, count: int, base_offset: int) -> None:
        """Remember a batch written at `base_offset` (after `check` let it through)."""
        entry = self.producers.get(producer_id)
        if entry is None or epoch > entry.epoch:
            entry = self.producers[producer_id] = ProducerEntry(epoch)
        entry.batches.append((first_seq, next_sequence(first_seq, count - 1), base_offset))
