"""InitProducerId (22): the producer id an idempotent producer stamps on its batches.

InitProducerId 0-6 (flexible from 2): ProducerId/ProducerEpoch in the request from 3 (resuming after
INVALID_PRODUCER_EPOCH), PRODUCER_FENCED from 4, TRANSACTION_ABORTABLE from 5, two-phase commit
fields from 6 (unstable in trunk: brokers do not advertise it).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

INIT_PRODUCER_ID_REQUEST: Final = message(
    "InitProducerIdRequest",
    "0-6",
    "2+",
    [
        field("TransactionalId", "string", nullable="0+"),
        field("TransactionTimeoutMs", "int32"),
        field("ProducerId", "int64", "3+", default=-1),
        field("ProducerEpoch", "int16", "3+", default=-1),
        field("Enable2Pc", "bool", "6+", default=False),
        field("KeepPreparedTxn", "bool", "6+", default=False),
    ],
    api_key=22,
)

INIT_PRODUCER_ID_RESPONSE: Final = message(
    "InitProducerIdResponse",
    "0-6",
    "2+",
    [
        field("ThrottleTimeMs", "int32", ignorable=True),
        field("ErrorCode", "int16"),
        field("ProducerId", "int64", default=-1),
        field("ProducerEpoch", "int16"),
        field("OngoingTxnProducerId", "int64", "6+", default=-1),
        field("OngoingTxnProducerEpoch", "int16", "6+", default=-1),
    ],
    api_key=22,
)
