"""Idempotent producers: Kafka's per-partition sequence checks, and retries answered, not rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.errors import KafkaError
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.server.idempotence import ProducerStates, next_sequence
from groupctl.server.partitions import PartitionStore


def batch(pid: int, epoch: int, seq: int, n: int = 2) -> bytes:
    records = [SimpleRecord(b"k", f"v{seq + i}".encode(), 1_000 + i) for i in range(n)]
    return build_batch(records, producer_id=pid, producer_epoch=epoch, base_sequence=seq)


def test_sequences_wrap_after_int32_max() -> None:
    assert next_sequence(5, 3) == 8
    assert next_sequence(2**31 - 1, 1) == 0
    assert next_sequence(2**31 - 2, 4) == 2


def test_the_checks() -> None:
    states = ProducerStates()
    assert states.check(7, 0, 40, 2, 0, "t-0") is None  # first seen: any sequence starts it
    states.record(7, 0, 40, 2, 100)
    assert states.check(7, 0, 40, 2, 102, "t-0") == 100  # a retry of the batch written at 100
    assert states.check(7, 0, 42, 3, 102, "t-0") is None
    with pytest.raises(KafkaError) as gap:
        states.check(7, 0, 45, 1, 102, "t-0")
    assert gap.value.name == "OUT_OF_ORDER_SEQUENCE_NUMBER" and "45 (incoming seq. number), 41" in str(gap.value)
    states.record(7, 1, 0, 1, 102)
    with pytest.raises(KafkaError) as fenced:
        states.check(7, 0, 42, 1, 103, "t-0")
    assert fenced.value.name == "INVALID_PRODUCER_EPOCH"
    with pytest.raises(KafkaError) as new_epoch:
        states.check(7, 2, 5, 1, 103, "t-0")
    assert new_epoch.value.name == "OUT_OF_ORDER_SEQUENCE_NUMBER"
    assert states.check(7, 2, 0, 1, 103, "t-0") is None


def test_only_the_last_five_batches_are_remembered() -> None:
    states = ProducerStates()
    for k in range(6):
        states.record(1, 0, 2 * k, 2, 10 * k)
    assert states.check(1, 0, 2, 2, 60, "t-0") == 10
    with pytest.raises(KafkaError):
        states.check(1, 0, 0, 2, 60, "t-0")  # the sixth-newest is forgotten: no longer a known retry


def test_a_retried_batch_is_not_written_twice_even_after_a_restart(tmp_path: Path) -> None:
    store = PartitionStore(tmp_path, {"t": [0]})
    log = store.log("t", 0)
    assert log.append(batch(3, 0, 0)) == 0
    assert log.append(batch(3, 0, 2)) == 2
    assert log.append(batch(3, 0, 2)) == 2
    assert log.end_offset == 4
    store.close()
    again = PartitionStore(tmp_path, {"t": [4]})
    log = again.log("t", 0)
    assert log.append(batch(3, 0, 0)) == 0
    with pytest.raises(KafkaError):
        log.append(batch(3, 0, 7))
    assert log.append(batch(3, 0, 4)) == 4
    assert log.end_offset == 6
    again.close()
