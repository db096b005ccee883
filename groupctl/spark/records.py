"""The records DataFrame: one typed row per `__consumer_offsets` record, built next to the audit.

Columns are flat (CSV can hold them) and named in snake_case. Fields a record type does not have
are null: `topic`/`partition`/`committed_offset` belong to offset commits, `member_id` to KIP-848
member records, `group_epoch` is a consumer group's epoch (type 3) or a classic group's generation
(type 2), and so on. `type_name` is the name the audit's per-type summary uses (Kafka's constant,
or CONTROL, UNKNOWN, UNDECODABLE).
"""

from __future__ import annotations

from typing import Any

from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import RECORD_TYPE_NAMES

FIELDS: list[tuple[str, str]] = [
    ("offsets_partition", "int"),  # the __consumer_offsets partition, from the directory name
    ("file", "string"),
    ("log_offset", "bigint"),
    ("timestamp", "bigint"),
    ("record_type", "smallint"),
    ("type_name", "string"),
    ("version", "smallint"),  # the value's schema version (null for tombstones)
    ("group_id", "string"),
    ("topic", "string"),
    ("topic_id", "string"),  # Kafka's base64 form; offset commits v4+ only
    ("partition", "int"),
    ("committed_offset", "bigint"),
    ("commit_timestamp", "bigint"),
    ("expire_timestamp", "bigint"),
    ("leader_epoch", "int"),
    ("metadata_size", "int"),  # UTF-8 bytes of the commit's metadata string
    ("tombstone", "boolean"),
    ("producer_id", "bigint"),  # -1 outside transactions
    ("producer_epoch", "smallint"),
    ("transactional", "boolean"),
    ("control", "string"),  # COMMIT or ABORT for transaction markers
    ("member_id", "string"),
    ("instance_id", "string"),
    ("client_id", "string"),
    ("client_host", "string"),
    ("member_epoch", "int"),
    ("group_epoch", "int"),
    ("assignment_epoch", "int"),
    ("members", "int"),  # members in a classic group's metadata
    ("protocol_type", "string"),
    ("key_size", "int"),
    ("value_size", "int"),
    ("error", "string"),  # why the record could not be decoded
]
SCHEMA_DDL = ", ".join(f"{name} {kind}" for name, kind in FIELDS)
"""The records' Spark schema, as DDL."""

_UNKNOWN_PREFIX = "Unknown record type "
_EMPTY: dict = {}


def _unknown_type(error: str) -> int:
    word = error[len(_UNKNOWN_PREFIX):].split(" ", 1)[0]
    return int(word) if word.lstrip("-").isdigit() else -1


def record_row(partition: int | None, file: str, rec: Any) -> tuple:
    """One record as a tuple in `FIELDS` order."""
    batch, record, key, value, error, control, _ = rec
    kd = _EMPTY if key is None else key.data
    vd = _EMPTY if value is None else value.data
    t = None if key is None else key.type
    if error is not None:
        if error.startswith(_UNKNOWN_PREFIX):
            name, t = "UNKNOWN", _unknown_type(error)
        else:
            name = "UNDECODABLE"
    elif key is None:
        name = "CONTROL"
    else:
        name = RECORD_TYPE_NAMES.get(key.type, "UNKNOWN")
    topic_id = vd.get("topicId")
    expire = vd.get("expireTimestamp")
    leader = vd.get("leaderEpoch")
    metadata = vd.get("metadata") if t is not None and t <= 1 else None
    members = vd.get("members") if t == 2 else None
    return (
        partition, file, record.offset, record.timestamp, t, name,
        None if value is None else value.version,
        kd.get("group", kd.get("groupId")),
        kd.get("topic"),
        uuid_to_kafka(topic_id) if topic_id is not None and topic_id.int else None,
        kd.get("partition"),
        vd.get("offset") if t is not None and t <= 1 else None,
        vd.get("commitTimestamp"),
        None if expire is None or expire == -1 else expire,
        None if leader is None or leader == -1 else leader,
        None if metadata is None else len(metadata.encode()),
        error is None and key is not None and value is None,
        batch.producer_id, batch.producer_epoch, batch.is_transactional,
        control[0] if isinstance(control, tuple) else control,
        kd.get("memberId"),
        vd.get("instanceId"),
        vd.get("clientId"),
        vd.get("clientHost"),
        vd.get("memberEpoch"),
        vd.get("generation") if t == 2 else vd.get("epoch"),
        vd.get("assignmentEpoch"),
        None if members is None else len(members),
        vd.get("protocolType"),
        record.key_size, record.value_size, error,
    )


def arrow_batch(rows: list[tuple]) -> Any:
    """Rows from `record_row` as one Arrow record batch of the records schema."""
    import pyarrow as pa

    schema = arrow_schema()
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(FIELDS)
    return pa.RecordBatch.from_arrays(
        [pa.array(col, type=f.type) for col, f in zip(columns, schema, strict=True)], schema=schema
    )


def arrow_schema() -> Any:
    import pyarrow as pa

    kinds = {"int": pa.int32(), "bigint": pa.int64(), "smallint": pa.int16(), "string": pa.string(),
             "boolean": pa.bool_()}
    return pa.schema([(name, kinds[kind]) for name, kind in FIELDS])
