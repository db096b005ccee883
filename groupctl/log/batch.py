"""The data model of a log segment: `Batch` and `Record`, as Kafka's dump tool shows them.

A `Batch` is what `kafka-dump-log` prints as one batch line; its fields carry Kafka's names and
semantics, including for the legacy formats (see `AbstractLegacyRecordBatch`): a magic 0/1
"batch" is the shallow message, i.e. a compressed wrapper or a single uncompressed message.
Its `last_offset` is that message's offset, its `base_offset` the first inner record's offset,
and producer id/epoch, sequences and partition leader epoch are all -1.

Both classes are mutable slots dataclasses so that other readers (the dump-log text reader) can
build them field by field; the segment reader fills them positionally on its hot path.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

__all__ = [
    "CONTROL_TYPE_NAMES",
    "MAX_BATCH_RECORDS",
    "MAX_RECORDS_PER_COMPRESSED_BYTE",
    "NO_PARTITION_LEADER_EPOCH",
    "NO_PRODUCER_EPOCH",
    "NO_PRODUCER_ID",
    "NO_SEQUENCE",
    "NO_TIMESTAMP",
    "RECORD_ALLOWANCE",
    "Batch",
    "Record",
    "control_marker",
    "increment_sequence",
    "suspicious",
    "wrap_long",
]

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
NO_PARTITION_LEADER_EPOCH = -1
NO_TIMESTAMP = -1

#: The most records one batch may hold (a v2 header's count, or a legacy wrapper's inner messages).
#: Kafka's default message.max.bytes (1 MiB) fits about 150,000 of the smallest possible records and
#: far fewer real `__consumer_offsets` records; the cap keeps a hostile batch from costing millions
#: of objects.
MAX_BATCH_RECORDS = 1 << 17
#: Records a compressed batch (or legacy wrapper) may hold per byte of compressed payload, beyond
#: RECORD_ALLOWANCE. Every record Kafka's group coordinator writes has a key (at least 11 bytes a record
#: with its framing) and its batches compress a few times, so they stay well under one record a
#: compressed byte; a batch of thousands of empty records per compressed byte is no coordinator's and is
#: suspicious. Beyond the bound a batch is reported with the records it claims and not read, so the work
#: stays proportional to the input and to what is printed (otherwise every empty record prints a line).
MAX_RECORDS_PER_COMPRESSED_BYTE = 2
RECORD_ALLOWANCE = 4096

#: ControlRecordType ids -> names (`clients/.../record/ControlRecordType.java`); other ids are UNKNOWN.
CONTROL_TYPE_NAMES: dict[int, str] = {
    0: "ABORT",
    1: "COMMIT",
    2: "LEADER_CHANGE",
    3: "SNAPSHOT_HEADER",
    4: "SNAPSHOT_FOOTER",
    5: "KRAFT_VERSION",
    6: "KRAFT_VOTERS",
}

_INT32_MAX = 0x7FFFFFFF
_KEY = struct.Struct(">hh")
_MARKER_VALUE = struct.Struct(">hi")


@dataclass(slots=True)
class Record:
    """One record (v2) or one message (v0/v1).

    `key_size`/`value_size` are -1 for null. `sequence` is the batch's base sequence plus the
    record's offset delta (wrapping like Kafka), -1 without a producer sequence and for legacy
    messages. `crc`/`crc_valid` are the legacy message's own CRC-32; v2 records have no checksum of
    their own (`crc` None, `crc_valid` True). Control records keep their raw key and value; see
    `control_marker`.
    """

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]
    sequence: int
    key_size: int
    value_size: int
    crc: int | None = None
    crc_valid: bool = True


@dataclass(slots=True)
class Batch:
    """One record batch (v2) or one shallow message (v0/v1) and its records, in file order.

    `position` is the byte position in the file and `size` the whole batch including the 12-byte
    log overhead. `crc` is the stored checksum (CRC-32C for v2, CRC-32 for v0/v1) and `crc_valid`
    whether it matches the bytes. `compression` is one of none/gzip/snappy/lz4/zstd and
    `timestamp_type` one of CreateTime/LogAppendTime/NoTimestampType. `count` is the v2 header's
    record count, or the number of inner messages for v0/v1.
    """

    base_offset: int
    last_offset: int
    count: int
    base_sequence: int
    last_sequence: int
    producer_id: int
    producer_epoch: int
    partition_leader_epoch: int
    is_transactional: bool
    is_control: bool
    delete_horizon_ms: int | None
    position: int
    size: int
    magic: int
    compression: str
    timestamp_type: str
    max_timestamp: int
    crc: int
    crc_valid: bool
    records: list[Record]


def suspicious(codec: str, what: str, records: int | str, compressed: int) -> str:
    """Why a compressed batch holding more records than its compressed bytes can honestly carry is not read."""
    return (
        f"suspicious {codec} {what}: it holds {records} records in {compressed} compressed bytes, more than "
        f"{MAX_RECORDS_PER_COMPRESSED_BYTE} a byte (Kafka's group coordinator writes far fewer): not read"
    )


def wrap_long(x: int) -> int:
    """`x` as a Java long: Kafka adds offsets and timestamps to their deltas in long arithmetic, which wraps."""
    return ((x + (1 << 63)) & 0xFFFFFFFFFFFFFFFF) - (1 << 63)


def increment_sequence(sequence: int, increment: int) -> int:
    """Kafka's `DefaultRecordBatch.incrementSequence`: int32 addition that wraps to 0 past Integer.MAX_VALUE."""

    def i32(x: int) -> int:
        return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000

    if sequence > i32(_INT32_MAX - increment):
        return i32(increment - i32(_INT32_MAX - sequence) - 1)
    return i32(sequence + increment)


def control_marker(record: Record) -> tuple[str, int] | str | None:
    """What a control record says: ("COMMIT"|"ABORT", coordinatorEpoch), or another type's name.

    The key is `int16 version + int16 type` (ControlRecordTypeSchema); for ABORT/COMMIT the value
    is `int16 version + int32 coordinatorEpoch` (EndTxnMarker). Newer key/value versions are read
    as the highest known one, as Kafka does. Returns the type name ("LEADER_CHANGE", "UNKNOWN", ...)
    for control types other than the two transaction markers, and None when the key or the
    marker value cannot be read (missing, too short, or a negative version, which Kafka rejects as
    corruption).
    """
    key = record.key
    if key is None or len(key) < 4:
        return None
    version, ctype = _KEY.unpack_from(key)
    if version < 0:
        return None
    name = CONTROL_TYPE_NAMES.get(ctype, "UNKNOWN")
    if ctype not in (0, 1):
        return name
    value = record.value
    if value is None or len(value) < 6:
        return None
    value_version, coordinator_epoch = _MARKER_VALUE.unpack_from(value)
    if value_version < 0:
        return None
    return name, coordinator_epoch
