"""`kafka-dump-log.sh --deep-iteration --offsets-decoder` text: printed exactly as Kafka does, and read back.

Printing follows DumpLogSegments line for line (batch line, `| offset: ...` record lines,
`key: {...} payload: {...}` in Kafka's JSON, `<DELETE>`, the `Unknown record type` and `Error at
offset` texts, control markers, trailing bytes) as one release prints it: a `kafka_versions.Profile`
(3.8 to the newest covered release) says which record types that release knows, which tagged fields
its schemas lack, how it reads value versions it does not know, and its legacy line shape. Reading
turns such a text file (any of those releases) back into the same `DecodedRecord`s a segment gives,
so every dump command accepts either input.
"""

from __future__ import annotations

import functools
import json
import re
import struct
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, TextIO

from groupctl.errors import DecodeError, UsageError
from groupctl.log.batch import Batch, Record
from groupctl.log.decode import DecodedRecord, FileDump, RecordFilter
from groupctl.log.kafka_versions import Profile, profile
from groupctl.log.sink import byte_sink
from groupctl.protocol import jsonconv, share_state
from groupctl.protocol.record_schemas import KAFKA_40_VALUE_SCHEMAS
from groupctl.protocol.records import (
    EarlyAccessLayout,
    RecordKey,
    RecordValue,
    decode_value,
    decode_value_as,
    encode_key,
    encode_value,
    key_from_jsonable,
    key_json,
    value_from_jsonable,
    value_json,
)

_OFFSET_COMMIT = 1


def _jbool(value: bool) -> str:
    return "true" if value else "false"


def batch_line(b) -> str:
    """The batch header line, as printBatchLevel writes it."""
    if b.magic >= 2:
        horizon = "OptionalLong.empty" if b.delete_horizon_ms is None else f"OptionalLong[{b.delete_horizon_ms}]"
        head = (
            f"baseOffset: {b.base_offset} lastOffset: {b.last_offset} count: {b.count}"
            f" baseSequence: {b.base_sequence} lastSequence: {b.last_sequence}"
            f" producerId: {b.producer_id} producerEpoch: {b.producer_epoch}"
            f" partitionLeaderEpoch: {b.partition_leader_epoch}"
            f" isTransactional: {_jbool(b.is_transactional)} isControl: {_jbool(b.is_control)}"
            f" deleteHorizonMs: {horizon}"
        )
    else:
        head = f"offset: {b.last_offset}"
    return (
        f"{head} position: {b.position} {b.timestamp_type}: {b.max_timestamp} size: {b.size}"
        f" magic: {b.magic} compresscodec: {b.compression} crc: {b.crc} isvalid: {_jbool(b.crc_valid)}"
    )


def record_line(rec: DecodedRecord, kafka: Profile | None = None) -> str:
    """One `| offset: ...` line: metadata, then the control marker or the decoded key and payload,
    as the release `kafka` (default: the newest covered) prints it."""
    kafka = profile() if kafka is None else kafka
    parts = _record_head(rec, kafka)
    if rec.batch.is_control:
        pass
    elif (key := rec.key) is not None and rec.error is None and key.type in kafka.record_types:
        value = rec.value  # the common case, inline: every record of a dump passes here
        if value is not None and key.type in kafka.kafka40_layouts:
            parts.append(f" key: {_kafka40_reading(rec)}")
        else:
            payload = "<DELETE>" if value is None else value_json(key.type, value, kafka.hidden(key.type))
            parts.append(f" key: {key_json(key)} payload: {payload}")
    elif key is None and rec.record.key_size < 0:
        pass  # Kafka aborts on a keyless record; the caller reports it as a problem instead
    else:
        parts.append(f" key: {_key_and_payload(rec, kafka)}")
    return "".join(parts)


def _kafka40_reading(rec: DecodedRecord) -> str:
    """What Kafka 4.0's tool prints for a share-group value 4.1 laid out anew: the value's bytes read
    with 4.0's layout (trailing bytes ignored), or the error that reading ends in, in Kafka's words."""
    schema = KAFKA_40_VALUE_SCHEMAS[rec.key.type]
    raw = rec.record.value
    version = rec.value.version
    if raw is None:  # read back from text: the text holds this release's reading, not the bytes
        raw = encode_value(rec.key.type, version, rec.value.data)
    try:
        data, _ = schema.decoder(version)(raw, 2)
    except DecodeError as exc:
        return (f"Error at offset {rec.record.offset}, skipping. Could not read record with version {version} "
                f"from value's buffer due to: {exc.reason}.")
    payload = jsonconv.renderer(schema, version)(data)
    return f'{key_json(rec.key)} payload: {{"version":"{version}","data":{payload}}}'


def _record_head(rec: DecodedRecord, kafka: Profile) -> list[str]:
    """A record line up to its key: the record's metadata, and a control batch's marker."""
    b, r = rec.batch, rec.record
    parts = [
        f"| offset: {r.offset} {b.timestamp_type}: {r.timestamp} keySize: {r.key_size} valueSize: {r.value_size}"
    ]
    if b.magic >= 2:
        parts.append(f" sequence: {r.sequence} headerKeys: [{','.join(k for k, _ in r.headers)}]")
    else:
        parts.append(f" isValid: {_jbool(r.crc_valid)} crc: {r.crc}{'}' if kafka.legacy_crc_brace else ''}")
    if b.is_control:
        marker = rec.control
        if isinstance(marker, tuple):
            parts.append(f" endTxnMarker: {marker[0]} coordinatorEpoch: {marker[1]}")
        elif marker is not None:
            parts.append(f" controlType: {marker}")
    return parts


def share_state_record_line(rec: DecodedRecord, kafka: Profile | None = None) -> str:
    """One `| offset: ...` line of a `__share_group_state` record, as release `kafka`'s
    `kafka-dump-log.sh --deep-iteration --share-group-state-decoder` prints it: the layout of the
    offsets decoder's lines, with the share coordinator's record types (its CoordinatorRecordMessageParser)."""
    kafka = profile() if kafka is None else kafka
    parts = _record_head(rec, kafka)
    key = rec.key
    if rec.batch.is_control:
        pass
    elif key is not None and rec.error is None:
        payload = "<DELETE>" if rec.value is None else share_state.value_json(
            key.type, rec.value, kafka.share_state_hidden(key.type))
        parts.append(f" key: {share_state.key_json(key)} payload: {payload}")
    elif key is None and rec.record.key_size < 0:
        pass  # Kafka aborts on a keyless record; the caller reports it as a problem instead
    else:
        parts.append(f" key: {rec.error}")
    return "".join(parts)


def _record_type(rec: DecodedRecord) -> int | None:
    """The record type Kafka reads first: the key's int16 prefix (None when the key is too short)."""
    if rec.key is not None:
        return rec.key.type
    raw = rec.record.key
    return None if raw is None or len(raw) < 2 else struct.unpack_from(">h", raw)[0]


def _key_and_payload(rec: DecodedRecord, kafka: Profile) -> str | None:
    """What follows `key: ` when it is not a decoded key and payload of a type the release knows:
    Kafka's `Unknown record type` / `Error at` text, or what an older release still read (the record's
    error, which a record here always has, when neither applies)."""
    key = rec.key
    record_type = _record_type(rec)
    if record_type is not None and record_type not in kafka.record_types:
        return f"Unknown record type {record_type} at offset {rec.record.offset}, skipping."
    if rec.kafka_text is not None:
        return _early_access_text(rec, kafka, rec.kafka_text)
    if key is None or rec.record.value is None:
        return rec.error
    return _older_reading(rec, kafka) or rec.error


def _older_reading(rec: DecodedRecord, kafka: Profile) -> str | None:
    """An undecodable value an older release still read: type 0 as OffsetCommitValue before 4.1, and
    any version outside the valid range with the nearest version's layout before 4.0. None when the
    release reads it as groupctl does."""
    record_type = rec.key.type
    as_offset_commit = record_type == 0 and kafka.type0_is_offset_commit
    if kafka.checks_value_version and not as_offset_commit:
        return None
    schema_type = _OFFSET_COMMIT if as_offset_commit else record_type
    try:
        value, layout = decode_value_as(
            record_type, rec.record.value, schema_type=schema_type, nearest=not kafka.checks_value_version
        )
    except DecodeError as exc:
        return f"Error at offset {rec.record.offset}, skipping. {exc.reason}"
    payload = value_json(schema_type, value, kafka.hidden(schema_type), layout=layout)
    return f"{key_json(rec.key)} payload: {payload}"


def _early_access_text(rec: DecodedRecord, kafka: Profile, kafka_text: str) -> str:
    """A 3.5-3.7 early-access record: Kafka's parse error (`kafka_text`), or its mis-decode rendered by this
    release."""
    try:
        decode_value(rec.key.type, rec.record.value)
    except EarlyAccessLayout as exc:
        if exc.kafka_value is not None:
            payload = value_json(rec.key.type, exc.kafka_value, kafka.hidden(rec.key.type))
            return f"{key_json(rec.key)} payload: {payload}"
    except DecodeError:
        pass
    return kafka_text


def write_dump_log(
    dumps: Iterable[FileDump], out: TextIO, keep: RecordFilter | None = None, kafka: Profile | None = None
) -> Iterator[FileDump]:
    """Print each file as release `kafka`'s DumpLogSegments does (default: the newest covered);
    yields each FileDump once it is fully printed.

    With a filter, a batch line is printed only when at least one of its records is kept.
    """
    kafka = profile() if kafka is None else kafka
    printer = _compiled_lines(kafka)
    sink = None if printer is None else byte_sink(out)
    text = out.write if sink is None else sink.write_text
    for dump in dumps:
        share = dump.topic == share_state.SHARE_STATE_TOPIC
        if share and not kafka.share_state_decoder:
            raise UsageError(f"{dump.path}: a __share_group_state segment, and Kafka {kafka.version}'s "
                             "kafka-dump-log.sh has no --share-group-state-decoder (4.0 added it): "
                             "give --kafka-version 4.0 or later")
        text(f"Dumping {dump.path}\n")
        if dump.start_offset is not None:
            text(f"Log starting offset: {dump.start_offset}\n")
        for batch, records in dump.batches:
            shown = records if keep is None else [r for r in records if keep(r)]
            if keep is not None and not shown:
                continue
            if share:  # the compiled printer knows __consumer_offsets only
                text(batch_line(batch) + "\n" + "".join(share_state_record_line(r, kafka) + "\n" for r in shown))
            elif sink is not None and printer is not None:  # a sink only beside the compiled printer
                sink.write(printer.utf8(batch, shown, sink.errors))
            elif printer is not None:
                out.write(printer.text(batch, shown))
            else:
                out.write(batch_line(batch) + "\n")
                for rec in shown:
                    out.write(record_line(rec, kafka) + "\n")
        if dump.trailing_bytes:
            text(f"Found {dump.trailing_bytes} invalid bytes at the end of {Path(dump.path).name}\n")
        yield dump
        if sink is not None:  # whatever the caller wrote to `out` meanwhile goes before the next file
            out.flush()


class _CompiledLines(NamedTuple):
    """The compiled printer of a batch's record lines: the batch line (v2 batches in C, others by
    `batch_line`) and the records' lines, as text, or as UTF-8 bytes with a `sink.ByteSink`'s `errors`."""

    render: Callable[..., Any]
    hide_topic_id: bool
    reference: Callable[[DecodedRecord], str]

    def text(self, batch: Any, records: list[DecodedRecord]) -> str:
        return self.render(batch, records, self.hide_topic_id, self.reference, batch_line, None)

    def utf8(self, batch: Any, records: list[DecodedRecord], errors: str) -> bytes:
        return self.render(batch, records, self.hide_topic_id, self.reference, batch_line, errors)


def _compiled_lines(kafka: Profile) -> _CompiledLines | None:
    """The compiled printer of a batch's record lines, when it is built and on and this release prints
    offset commits as it knows how (type 1 known, only `topicId` possibly hidden); it hands every
    other record to `record_line`."""
    from groupctl.log import fast

    native = fast.module()
    hidden = kafka.hidden(_OFFSET_COMMIT)
    if native is None or _OFFSET_COMMIT not in kafka.record_types or not hidden <= {"topicId"}:
        return None
    return _CompiledLines(native.dumplog_lines, "topicId" in hidden, functools.partial(record_line, kafka=kafka))


# ---------------------------------------------------------------------------------------------
# Reading the text back

_BATCH_V2 = re.compile(
    r"baseOffset: (-?\d+) lastOffset: (-?\d+) count: (\d+|null) baseSequence: (-?\d+)"
    r" lastSequence: (-?\d+) producerId: (-?\d+) producerEpoch: (-?\d+) partitionLeaderEpoch: (-?\d+)"
    r" isTransactional: (true|false) isControl: (true|false)"
    r" deleteHorizonMs: (?:OptionalLong\.empty|OptionalLong\[(-?\d+)\])"
    r" position: (\d+) (CreateTime|LogAppendTime|NoTimestampType): (-?\d+) size: (\d+) magic: (\d+)"
    r" compresscodec: (\w+) crc: (\d+) isvalid: (true|false)$"
)
_BATCH_LEGACY = re.compile(
    r"offset: (-?\d+) position: (\d+) (CreateTime|LogAppendTime|NoTimestampType): (-?\d+) size: (\d+)"
    r" magic: (\d+) compresscodec: (\w+) crc: (\d+) isvalid: (true|false)$"
)
_RECORD = re.compile(
    r"\| offset: (-?\d+) (CreateTime|LogAppendTime|NoTimestampType): (-?\d+) keySize: (-?\d+) valueSize: (-?\d+)"
    r"(?: sequence: (-?\d+) headerKeys: \[([^\]]*)\])?"
    r"(?: isValid: (true|false) crc: (\d+)\}?)?"
    r"(?: endTxnMarker: (COMMIT|ABORT) coordinatorEpoch: (-?\d+))?"
    r"(?: controlType: (\S+))?"
    r"(?: key: (.*))?$"
)
_TRAILING = re.compile(r"Found (\d+) invalid bytes at the end of (.*)$")
_JSON = json.JSONDecoder()


#: How Kafka's tool starts the text it prints for a record it could not decode.
_KAFKA_ERRORS = ("Unknown record type ", "Error at offset ")


class _Codec(NamedTuple):
    """How one internal topic's key and payload JSON turn back into records and bytes."""

    key_from_jsonable: Callable[[dict], Any]
    value_from_jsonable: Callable[[int, dict], Any]
    encode_key: Callable[[int, dict], bytes]
    encode_value: Callable[[int, int, dict], bytes]


_OFFSETS_CODEC = _Codec(key_from_jsonable, value_from_jsonable, encode_key, encode_value)
_SHARE_STATE_CODEC = _Codec(share_state.key_from_jsonable, share_state.value_from_jsonable, share_state.encode_key,
                            share_state.encode_value)


def _codec(topic: str) -> _Codec:
    return _SHARE_STATE_CODEC if topic == share_state.SHARE_STATE_TOPIC else _OFFSETS_CODEC


def _parse_key_payload(
    text: str, offset: int, codec: _Codec = _OFFSETS_CODEC
) -> tuple[RecordKey, RecordValue | None]:
    """`{...} payload: {...}` -> (RecordKey, RecordValue, or None for `<DELETE>`); a `__share_group_state`
    text's (`codec`) give ShareStateKey and ShareStateValue."""
    if text.startswith(("offset_commit::", "group_metadata::")):
        raise DecodeError("this is kafka-dump-log output from before Kafka 3.8 (not JSON); it cannot be "
                          "read back into records: dump the segment with Kafka 3.8+ or give the .log file")
    try:
        key_obj, end = _JSON.raw_decode(text)
        rest = text[end:]
        if not rest.startswith(" payload: "):
            raise DecodeError(f"record at offset {offset}: no payload after the key")
        payload = rest[len(" payload: "):]
        key = codec.key_from_jsonable(key_obj)
        if payload == "<DELETE>":
            return key, None
        return key, codec.value_from_jsonable(key.type, json.loads(payload))
    except DecodeError:
        raise
    except RecursionError:
        raise DecodeError(f"record at offset {offset}: the key or payload JSON is nested too deeply") from None
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as exc:
        raise DecodeError(f"record at offset {offset}: unreadable key or payload ({exc})") from None


MAX_LINE = 16 << 20  # longer lines are damage: kafka-dump-log never prints one near this long


class _Lines:
    """A line source over a binary file with one line of push-back and line numbers for messages.

    Lines that are not UTF-8 or longer than MAX_LINE are reported through `bad(lineno, reason)` and
    skipped, so one damaged line costs that line only.
    """

    def __init__(self, fh: BinaryIO | TextIO, name: str) -> None:
        self._fh = fh
        self.name = name
        self._back: str | None = None
        self.number = 0
        self.bad: Callable[[int, str], None] | None = None

    def _report(self, reason: str) -> None:
        if self.bad is None:
            raise DecodeError(reason, path=f"{self.name}:{self.number}")
        self.bad(self.number, reason)

    def _readline(self, limit: int) -> bytes:
        raw = self._fh.readline(limit)
        if isinstance(raw, str):  # a text file opened with surrogateescape: back to its bytes
            return raw.encode("utf-8", "surrogateescape")
        return raw

    def next(self) -> str | None:
        if self._back is not None:
            line, self._back = self._back, None
            return line
        while True:
            raw = self._readline(MAX_LINE + 1)
            if not raw:
                return None
            self.number += 1
            if len(raw) > MAX_LINE:
                while raw and not raw.endswith(b"\n"):  # skip the rest of the line, in bounded pieces
                    raw = self._readline(MAX_LINE)
                self._report(f"a line longer than {MAX_LINE} bytes")
                continue
            try:
                return raw.decode("utf-8").rstrip("\n")
            except UnicodeDecodeError as exc:
                self._report(f"the line is not valid UTF-8 (byte {exc.start}: {exc.reason})")

    def push(self, line: str) -> None:
        self._back = line


_LIMITS = {
    8: (-(1 << 7), (1 << 7) - 1),
    16: (-(1 << 15), (1 << 15) - 1),
    32: (-(1 << 31), (1 << 31) - 1),
    64: (-(1 << 63), (1 << 63) - 1),
    "u32": (0, (1 << 32) - 1),
}


def _int(text: str, bits: int | str, what: str) -> int:
    """A number from the text that must fit the field's Java type (Kafka cannot have printed more)."""
    lo, hi = _LIMITS[bits]
    if len(text) > 21:
        raise DecodeError(f"{what} {text[:24]}... is out of range ({lo} to {hi})")
    value = int(text)
    if not lo <= value <= hi:
        raise DecodeError(f"{what} {value} is out of range ({lo} to {hi})")
    return value


def _make_batch(m: re.Match, legacy: bool):
    if legacy:
        last, pos, ttype, maxts, size, magic, codec, crc, valid = m.groups()
        return Batch(
            base_offset=_int(last, 64, "offset"), last_offset=_int(last, 64, "offset"), count=0, base_sequence=-1,
            last_sequence=-1, producer_id=-1, producer_epoch=-1, partition_leader_epoch=-1, is_transactional=False,
            is_control=False, delete_horizon_ms=None, position=_int(pos, 64, "position"),
            size=_int(size, 32, "size"), magic=_int(magic, 8, "magic"), compression=codec, timestamp_type=ttype,
            max_timestamp=_int(maxts, 64, "timestamp"), crc=_int(crc, "u32", "crc"), crc_valid=valid == "true",
            records=[],
        )
    (base, last, count, bseq, lseq, pid, pep, ple, txn, ctl, horizon, pos, ttype, maxts, size, magic,
     codec, crc, valid) = m.groups()
    return Batch(
        base_offset=_int(base, 64, "baseOffset"), last_offset=_int(last, 64, "lastOffset"),
        count=0 if count == "null" else _int(count, 32, "count"),
        base_sequence=_int(bseq, 32, "baseSequence"), last_sequence=_int(lseq, 32, "lastSequence"),
        producer_id=_int(pid, 64, "producerId"), producer_epoch=_int(pep, 16, "producerEpoch"),
        partition_leader_epoch=_int(ple, 32, "partitionLeaderEpoch"), is_transactional=txn == "true",
        is_control=ctl == "true", delete_horizon_ms=None if horizon is None else _int(horizon, 64, "deleteHorizonMs"),
        position=_int(pos, 64, "position"), size=_int(size, 32, "size"), magic=_int(magic, 8, "magic"),
        compression=codec, timestamp_type=ttype, max_timestamp=_int(maxts, 64, "timestamp"),
        crc=_int(crc, "u32", "crc"), crc_valid=valid == "true", records=[],
    )


def _make_record(m: re.Match, batch, path: str, lineno: int, codec: _Codec = _OFFSETS_CODEC) -> DecodedRecord:
    (offset, _ttype, ts, ksize, vsize, seq, header_keys, rvalid, rcrc, marker, epoch, ctl_type,
     key_text) = m.groups()
    headers: list[tuple[str, bytes | None]] = [(k, None) for k in header_keys.split(",")] if header_keys else []
    try:
        record = Record(
            offset=_int(offset, 64, "offset"), timestamp=_int(ts, 64, "timestamp"), key=None, value=None,
            headers=headers, sequence=-1 if seq is None else _int(seq, 32, "sequence"),
            key_size=_int(ksize, 32, "keySize"), value_size=_int(vsize, 32, "valueSize"),
            crc=None if rcrc is None else _int(rcrc, "u32", "crc"), crc_valid=rvalid != "false",
        )
        coordinator_epoch = None if epoch is None else _int(epoch, 32, "coordinatorEpoch")
    except DecodeError as exc:
        raise DecodeError(exc.reason, path=f"{path}:{lineno}") from None
    if marker is not None and coordinator_epoch is not None:  # the pattern matches both or neither
        record.key = struct.pack(">hh", 0, 1 if marker == "COMMIT" else 0)
        record.value = struct.pack(">hi", 0, coordinator_epoch)
        return DecodedRecord(batch, record, control=(marker, coordinator_epoch))
    if ctl_type is not None:
        return DecodedRecord(batch, record, control=ctl_type)
    if key_text is None:
        return DecodedRecord(batch, record, error="no key or payload in the dump-log line")
    if key_text.startswith(_KAFKA_ERRORS):
        return DecodedRecord(batch, record, error=key_text)
    try:
        key, value = _parse_key_payload(key_text, record.offset, codec)
    except DecodeError as exc:
        raise DecodeError(exc.reason, path=f"{path}:{lineno}") from None
    try:
        record.key = codec.encode_key(key.type, key.data)
        record.value = None if value is None else codec.encode_value(key.type, value.version, value.data)
    except (ValueError, OverflowError, struct.error) as exc:  # values the JSON allows but the schema cannot hold
        raise DecodeError(f"record at offset {record.offset}: {exc}", path=f"{path}:{lineno}") from None
    except RecursionError:
        raise DecodeError(f"record at offset {record.offset}: the key or payload is nested too deeply",
                          path=f"{path}:{lineno}") from None
    return DecodedRecord(batch, record, key, value)


def _file_batches(
    lines: _Lines, dump: FileDump, text_path: str, strict: bool
) -> Iterator[tuple[object, list[DecodedRecord]]]:
    codec = _codec(dump.topic)
    batch = None
    skipping = False  # the records of a batch line that did not parse are skipped with it
    records: list[DecodedRecord] = []
    while (line := lines.next()) is not None:
        if line.startswith("Dumping "):
            lines.push(line)
            break
        if not line.strip():
            continue
        if line.startswith("|"):
            if skipping:
                continue
            m = _RECORD.match(line)
            if batch is None or m is None:
                _problem(dump, text_path, strict, lines.number, "a record line that does not parse" if m is None
                         else "a record line before any batch line")
                continue
            try:
                rec = _make_record(m, batch, text_path, lines.number, codec)
            except DecodeError as exc:
                _problem(dump, text_path, strict, lines.number, exc.reason)
                continue
            batch.records.append(rec.record)
            records.append(rec)
            continue
        m2 = _BATCH_V2.match(line)
        batch_match = m2 or _BATCH_LEGACY.match(line)
        if batch_match is not None:
            if batch is not None:
                yield _finish(batch), records
            records = []
            try:
                batch = _make_batch(batch_match, legacy=m2 is None)
                skipping = False
            except DecodeError as exc:  # its records are skipped with it: they would name a wrong batch
                batch, skipping = None, True
                _problem(dump, text_path, strict, lines.number, f"batch line (its records skipped): {exc.reason}")
            continue
        if line.startswith("Log starting offset: "):
            continue
        trailing = _TRAILING.match(line)
        if trailing and len(trailing.group(1)) <= 18:
            dump.trailing_bytes = int(trailing.group(1))
            _problem(dump, text_path, strict, lines.number,
                     f"torn last batch: kafka-dump-log found {dump.trailing_bytes} bytes at the end of "
                     f"{trailing.group(2)} that do not make a whole batch; they were not read")
            continue
        _problem(dump, text_path, strict, lines.number, f"unrecognised line: {line[:80]!r}")
    if batch is not None:
        yield _finish(batch), records


def _finish(batch):
    """Legacy batch lines carry no count; it is the number of records that followed."""
    if batch.magic < 2:
        batch.count = len(batch.records)
    return batch


def _problem(dump: FileDump, text_path: str, strict: bool, lineno: int, reason: str) -> None:
    err = DecodeError(reason, path=f"{text_path}:{lineno}")
    if strict:
        raise err
    dump.problems.append(err)


def parse_dump_log(
    path: Any, *, strict: bool = False, name: str | None = None, topic: str | None = None
) -> Iterator[FileDump]:
    """Stream a dump-log text file as one FileDump per `Dumping <file>` section.

    Each section is of the internal topic `topic`, or when None of the one the file it names sits in
    (`__share_group_state-N/...`: `--share-group-state-decoder` output; else `__consumer_offsets`).

    `path` is a Path, an open binary file (shown as `name`), or any object whose
    `open(encoding=..., errors=...)` gives a text file (Spark hands over fetched bytes that way).
    Each FileDump's batches must be consumed before the next FileDump is taken (they share the file).
    """
    shown = str(getattr(path, "name", "<input>")) if name is None else name
    if isinstance(path, Path):
        with path.open("rb") as fh:
            yield from _sections(fh, str(path) if name is None else name, strict, topic)
    elif hasattr(path, "readline"):
        yield from _sections(path, shown, strict, topic)
    else:
        with path.open(encoding="utf-8", errors="surrogateescape") as fh:
            yield from _sections(fh, str(path) if name is None else name, strict, topic)


def _sections(fh: BinaryIO | TextIO, text_path: str, strict: bool, topic: str | None) -> Iterator[FileDump]:
    from groupctl.log.share_state import topic_of

    lines = _Lines(fh, text_path)
    while (line := lines.next()) is not None:
        if not line.startswith("Dumping "):
            if line.strip():
                raise DecodeError(f"line {lines.number} is not a `Dumping <file>` header", path=text_path)
            continue
        dump_name = line[len("Dumping "):]
        start = None
        dump = FileDump(dump_name, "dump-log", start, iter(()), topic=topic_of(dump_name) if topic is None else topic)
        lines.bad = functools.partial(_problem, dump, text_path, strict)
        nxt = lines.next()
        if nxt is not None and re.fullmatch(r"Log starting offset: -?\d{1,19}", nxt):
            dump.start_offset = int(nxt.split(": ", 1)[1])
        elif nxt is not None:
            lines.push(nxt)
        dump.batches = _file_batches(lines, dump, text_path, strict)
        yield dump
        for _ in dump.batches:  # drain whatever the consumer left unread
            pass
