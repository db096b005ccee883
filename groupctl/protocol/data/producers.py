"""The producers API messages, as classes: generated from `groupctl.protocol.messages.producers`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import Data, FieldTable, TaggedFields


class InitProducerIdRequestData(Data):
    """InitProducerIdRequest, versions 0-6."""

    __slots__ = (
        "enable2_pc",
        "keep_prepared_txn",
        "producer_epoch",
        "producer_id",
        "transaction_timeout_ms",
        "transactional_id",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("transactional_id", "transactionalId", None),
        ("transaction_timeout_ms", "transactionTimeoutMs", None),
        ("producer_id", "producerId", None),
        ("producer_epoch", "producerEpoch", None),
        ("enable2_pc", "enable2Pc", None),
        ("keep_prepared_txn", "keepPreparedTxn", None),
    )
    SCHEMA_NAME: ClassVar[str] = "InitProducerIdRequest"

    transactional_id: str | None
    transaction_timeout_ms: int
    producer_id: int
    producer_epoch: int
    enable2_pc: bool
    keep_prepared_txn: bool

    def __init__(
        self,
        *,
        transactional_id: str | None = "",
        transaction_timeout_ms: int = 0,
        producer_id: int = -1,
        producer_epoch: int = -1,
        enable2_pc: bool = False,
        keep_prepared_txn: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.enable2_pc = enable2_pc
        self.keep_prepared_txn = keep_prepared_txn
        self.unknown_tagged_fields = unknown_tagged_fields


class InitProducerIdResponseData(Data):
    """InitProducerIdResponse, versions 0-6."""

    __slots__ = (
        "error_code",
        "ongoing_txn_producer_epoch",
        "ongoing_txn_producer_id",
        "producer_epoch",
        "producer_id",
        "throttle_time_ms",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("error_code", "errorCode", None),
        ("producer_id", "producerId", None),
        ("producer_epoch", "producerEpoch", None),
        ("ongoing_txn_producer_id", "ongoingTxnProducerId", None),
        ("ongoing_txn_producer_epoch", "ongoingTxnProducerEpoch", None),
    )
    SCHEMA_NAME: ClassVar[str] = "InitProducerIdResponse"

    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    ongoing_txn_producer_id: int
    ongoing_txn_producer_epoch: int

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        producer_id: int = -1,
        producer_epoch: int = 0,
        ongoing_txn_producer_id: int = -1,
        ongoing_txn_producer_epoch: int = -1,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.ongoing_txn_producer_id = ongoing_txn_producer_id
        self.ongoing_txn_producer_epoch = ongoing_txn_producer_epoch
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "InitProducerIdRequest": InitProducerIdRequestData,
    "InitProducerIdResponse": InitProducerIdResponseData,
}
"""Schema name -> class, for the 2 top-level classes."""
