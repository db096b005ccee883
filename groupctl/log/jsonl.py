"""Decoded records as plain objects: the `--format jsonl` lines and the rows of the record table.

Key and value use Kafka's JSON (the console formatters' shape, type and version as numbers);
batch fields sit beside the record's own so one line says everything about one record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

import orjson

from groupctl.log.decode import DecodedRecord, FileDump, RecordFilter
from groupctl.log.sink import byte_sink
from groupctl.protocol import share_state
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import RECORD_TYPE_NAMES, key_to_jsonable, value_to_jsonable
from groupctl.protocol.share_state import SHARE_STATE_RECORD_TYPE_NAMES, ShareStateKey


def _key_jsonable(key: Any) -> dict[str, Any]:
    """A `__consumer_offsets` or a `__share_group_state` key as JSON objects (the key's class tells which)."""
    return share_state.key_to_jsonable(key) if type(key) is ShareStateKey else key_to_jsonable(key)


def _value_jsonable(key: Any, value: Any) -> dict[str, Any]:
    if type(key) is ShareStateKey:
        return share_state.value_to_jsonable(key.type, value)
    return value_to_jsonable(key.type, value)


def _type_name(key: Any) -> str:
    names = SHARE_STATE_RECORD_TYPE_NAMES if type(key) is ShareStateKey else RECORD_TYPE_NAMES
    return names.get(key.type, str(key.type))


def batch_fields(b: Any) -> dict[str, Any]:
    """The batch header as DumpLogSegments names it, in camelCase."""
    return {
        "baseOffset": b.base_offset,
        "lastOffset": b.last_offset,
        "count": b.count,
        "baseSequence": b.base_sequence,
        "lastSequence": b.last_sequence,
        "producerId": b.producer_id,
        "producerEpoch": b.producer_epoch,
        "partitionLeaderEpoch": b.partition_leader_epoch,
        "isTransactional": b.is_transactional,
        "isControl": b.is_control,
        "deleteHorizonMs": b.delete_horizon_ms,
        "position": b.position,
        "timestampType": b.timestamp_type,
        "maxTimestamp": b.max_timestamp,
        "size": b.size,
        "magic": b.magic,
        "compressionType": b.compression,
        "crc": b.crc,
        "crcValid": b.crc_valid,
    }


def record_jsonable(rec: DecodedRecord, file: str) -> dict[str, Any]:
    """One record with its batch, key and value, ready for json.dumps."""
    r = rec.record
    obj: dict[str, Any] = {
        "file": file,
        "offset": r.offset,
        "timestamp": r.timestamp,
        "keySize": r.key_size,
        "valueSize": r.value_size,
        "sequence": r.sequence,
        "headerKeys": [k for k, _ in r.headers],
    }
    obj.update(batch_fields(rec.batch))
    if rec.batch.magic < 2:
        obj["recordCrc"] = r.crc
        obj["recordCrcValid"] = r.crc_valid
    if rec.control is not None:
        marker = rec.control
        obj["control"] = (
            {"type": marker[0], "coordinatorEpoch": marker[1]} if isinstance(marker, tuple) else {"type": marker}
        )
    obj["key"] = None if rec.key is None else _key_jsonable(rec.key)
    obj["value"] = None if rec.value is None or rec.key is None else _value_jsonable(rec.key, rec.value)
    if rec.error is not None:
        obj["error"] = rec.error
    return obj


def dumps_line(obj: dict[str, Any]) -> str:
    """Compact JSON on one line, non-ASCII kept as is.

    orjson writes what json.dumps(separators=(",", ":"), ensure_ascii=False) writes for these objects
    (no floats in any record schema) several times faster; what it refuses (an int past 64 bits, a
    lone surrogate from kafka-dump-log text) goes to json.dumps, so every record still gets its line.
    """
    try:
        return orjson.dumps(obj).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _key_value_text(rec: DecodedRecord) -> str:
    """`"key":{...},"value":...` of an error-free record: how `record_jsonable`'s line ends, so the compiled
    printer can write the rest of a group record's line as it writes an offset commit's."""
    value = None if rec.value is None else _value_jsonable(rec.key, rec.value)
    return dumps_line({"key": _key_jsonable(rec.key), "value": value})[1:-1]


def _batch_fields_text(batch: Any) -> str:
    """The batch's fields as they sit inside each of its records' lines (no braces)."""
    return dumps_line(batch_fields(batch))[1:-1]


def write_jsonl(dumps: Iterable[FileDump], out: TextIO, keep: RecordFilter | None = None) -> None:
    """`--format jsonl`: one line per (kept) record, as `record_jsonable` builds it. With the compiled
    loop, C writes each line up to its batch's fields (those by `_batch_fields_text` when C declines
    them) and offset commits whole; other records end with `_key_value_text`; what C cannot take is the
    reference's line. The lines go as bytes below `out` when it encodes UTF-8 (`sink.byte_sink`)."""
    from groupctl.log import fast

    native = fast.module()
    sink = None if native is None else byte_sink(out)
    write = out.write
    for dump in dumps:
        path = dump.path

        def reference(rec: DecodedRecord, path: str = path) -> str:
            return dumps_line(record_jsonable(rec, path))

        head = dumps_line({"file": path})[:-1] + ","
        share = dump.topic == share_state.SHARE_STATE_TOPIC  # the compiled loop knows __consumer_offsets only
        for batch, records in dump.batches:
            shown = records if keep is None else [r for r in records if keep(r)]
            if not shown:
                continue
            if share:
                (write if sink is None else sink.write_text)("".join(reference(rec) + "\n" for rec in shown))
            elif sink is not None and native is not None:  # a sink only beside the compiled loop
                sink.write(native.jsonl_lines(batch, shown, head, _batch_fields_text, reference, _key_value_text,
                                              sink.errors))
            elif native is not None:
                write(native.jsonl_lines(batch, shown, head, _batch_fields_text, reference, _key_value_text))
            else:
                for rec in shown:
                    write(reference(rec) + "\n")


def _key_detail(data: dict[str, Any]) -> str:
    if "topic" in data:
        return f"{data['topic']}-{data['partition']}"
    if "topicId" in data:  # a share-partition (__share_group_state keys name the topic by id)
        return f"{uuid_to_kafka(data['topicId'])}-{data['partition']}"
    parts = [str(v) for k, v in data.items() if k not in ("group", "groupId")]
    return " ".join(parts) if parts else "-"


def table_row(rec: DecodedRecord, file: str) -> dict[str, Any]:
    """A row for the record table: what the record is about, its value as compact JSON (the table cuts
    it to the terminal), and whether its batch's CRC (or a legacy record's own) checked."""
    r = rec.record
    row: dict[str, Any] = {"file": file, "position": rec.batch.position, "offset": r.offset,
                           "timestamp": r.timestamp, "crcValid": rec.batch.crc_valid and r.crc_valid}
    if rec.control is not None:
        marker = rec.control
        row["type"] = "CONTROL"
        row["value"] = f"{marker[0]} coordinatorEpoch={marker[1]}" if isinstance(marker, tuple) else marker
        return row
    if rec.key is None:
        row["type"] = "ERROR"
        row["value"] = rec.error
        return row
    row["type"] = _type_name(rec.key)
    row["group"] = rec.group
    row["key"] = _key_detail(rec.key.data)
    if rec.error is not None:
        row["value"] = rec.error
    elif rec.value is None:
        row["value"] = "<DELETE>"
    else:
        row["version"] = rec.value.version
        row["value"] = json.dumps(_value_jsonable(rec.key, rec.value)["data"], separators=(",", ":"),
                                  ensure_ascii=False)
    return row
