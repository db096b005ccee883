"""InitProducerId: producer ids that never repeat, and idempotent producers (librdkafka's
`enable.idempotence`, kafka-python's default) writing through `groupctl serve`."""

from __future__ import annotations

from pathlib import Path

from confluent_kafka import Producer

from groupctl.log.segment import read_segment
from groupctl.protocol.data.producers import InitProducerIdRequestData
from groupctl.server.producers import BLOCK_SIZE
from groupctl.server.server import ServerOptions, ServerThread

from .frames import call


def test_ids_are_handed_out_in_order_at_every_version_and_never_twice(tmp_path: Path) -> None:
    directory = tmp_path / "cluster"
    with ServerThread(ServerOptions(directory, port=0)) as served:
        idempotent = InitProducerIdRequestData(transactional_id=None, transaction_timeout_ms=60_000)
        got = [call(served, 22, v, idempotent) for v in range(6)]
        assert [(r.error_code, r.producer_id, r.producer_epoch) for r in got] == [(0, i, 0) for i in range(6)]
        txn = call(served, 22, 4, InitProducerIdRequestData(transactional_id="tx", transaction_timeout_ms=60_000))
        assert (txn.error_code, txn.producer_id) == (15, -1)  # COORDINATOR_NOT_AVAILABLE: no transactions
    with ServerThread(ServerOptions(directory, port=0)) as served:
        after = call(served, 22, 4, idempotent)
    assert after.producer_id == BLOCK_SIZE  # the rest of the first block is skipped, never reused


def test_an_idempotent_librdkafka_producer_writes_each_message_once(served: ServerThread) -> None:
    served.call(lambda b: b.backend.create_topic("idem", 1))
    producer = Producer({"bootstrap.servers": served.bootstrap, "enable.idempotence": True, "linger.ms": 5,
                         "message.timeout.ms": 20_000})
    failures: list[str] = []
    for i in range(50):
        producer.produce("idem", value=f"m{i}".encode(),
                         on_delivery=lambda err, _m: failures.append(str(err)) if err else None)
    assert producer.flush(30) == 0 and failures == []
    assert served.call(lambda b: b.backend.end_offsets_by_topic["idem"]) == [50]
    served.call(lambda b: b.partitions.sync())
    directory = served.call(lambda b: b.directory)
    (segment,) = sorted((directory / "data" / "idem-0").glob("*.log"))
    batches = list(read_segment(segment, strict=True))
    assert {b.producer_id for b in batches} == {0} and batches[0].base_sequence == 0
    assert [r.value for b in batches for r in b.records] == [f"m{i}".encode() for i in range(50)]
