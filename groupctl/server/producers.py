"""InitProducerId (22): producer ids for idempotent producers (the Java client's and kafka-python's
default), so they can produce to `groupctl serve`.

Ids come from blocks reserved in `DIR/producer-ids.json` before use, as Kafka's controller hands
out blocks, so an id is never given twice, not even across restarts: the batches already in the
partition logs keep their producers apart. There is no transaction coordinator, so a transactional
id is refused the way FindCoordinator refuses one.
"""

from __future__ import annotations

from pathlib import Path

from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.json_files import read_json, write_json_atomically
from groupctl.protocol.data.producers import InitProducerIdRequestData, InitProducerIdResponseData
from groupctl.server.dispatch import RequestContext, handles

PRODUCER_IDS_FILE = "producer-ids.json"
#: Kafka's `ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE`.
BLOCK_SIZE = 1000


class ProducerIds:
    """Hands out producer ids from a block reserved on disk first."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / PRODUCER_IDS_FILE
        self._next = self._end = int((read_json(self.path) or {}).get("nextBlockStart", 0))

    def allocate(self) -> int:
        if self._next >= self._end:
            self._end = self._next + BLOCK_SIZE
            write_json_atomically(self.path, {"nextBlockStart": self._end})
        allocated = self._next
        self._next += 1
        return allocated


# v6 (two-phase commit) is unstable in Kafka's trunk and not advertised by brokers.
@handles(22, range(0, 6))
async def init_producer_id(ctx: RequestContext, body: InitProducerIdRequestData) -> InitProducerIdResponseData:
    if body.transactional_id is not None:
        return InitProducerIdResponseData(error_code=KAFKA_ERROR_CODES["COORDINATOR_NOT_AVAILABLE"], producer_id=-1,
                                          producer_epoch=-1)
    broker = ctx.broker
    if broker.producer_ids is None:
        broker.producer_ids = ProducerIds(broker.directory)
    return InitProducerIdResponseData(error_code=0, producer_id=broker.producer_ids.allocate(), producer_epoch=0)
