"""From bytes on disk to decoded `__consumer_offsets` records: the pipeline every dump command uses.

Inputs are segment files, partition directories, directories of partition directories, or
`kafka-dump-log --offsets-decoder` text; all come out as the same `DecodedRecord`s, grouped per
file, so the dump-log printer, the JSON lines writer, the table and (later) replay share one path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from groupctl.errors import DecodeError, GroupctlError, UsageError
from groupctl.log.batch import control_marker
from groupctl.protocol.records import (
    EarlyAccessLayout,
    UnknownRecordType,
    decode_key,
    decode_value,
    key_json,
    value_json,
)

TEXT_MAGIC = b"Dumping "
_new_tuple = tuple.__new__  # builds a DecodedRecord without the keyword-handling __new__ (hot path)


class DecodedRecord(NamedTuple):
    """One record with its key and value decoded, or the reason they could not be.

    `error` holds Kafka's own wording (`Unknown record type 5 at offset 7, skipping.` or
    `Error at offset 7, skipping. <why>`) so the dump-log printer can repeat it verbatim.
    `value` is None for a tombstone (and when `error` is set). `key` is set when only the value
    failed to decode, None when the key did. Control records have no key.
    `kafka_text`, when set, is what Kafka's tool prints after `key: ` where that differs from the
    truth: for a 3.5-3.7 early-access KIP-848 record, Kafka 3.8+ prints a parse error or a wrong
    decode, and the dump-log format repeats it while every other format reports the record as
    early access.
    """

    batch: Any
    record: Any
    key: Any = None
    value: Any = None
    error: str | None = None
    control: tuple[str, int] | str | None = None
    kafka_text: str | None = None

    @property
    def record_type(self) -> int | None:
        return None if self.key is None else self.key.type

    @property
    def group(self) -> str | None:
        """The group id the key names (types 0-2 call it `group`, the others `groupId`)."""
        if self.key is None:
            return None
        data = self.key.data
        return data.get("group", data.get("groupId"))

    @property
    def tombstone(self) -> bool:
        return self.error is None and self.key is not None and self.value is None


@dataclass(slots=True)
class FileDump:
    """Everything read from one input file: its batches (records decoded), problems, trailing bytes."""

    path: str
    kind: str  # "segment" or "dump-log"
    start_offset: int | None
    batches: Iterator[tuple[Any, list[DecodedRecord]]]
    problems: list[DecodeError] = field(default_factory=list)
    trailing_bytes: int = 0
    reader: Any = None  # a segment's BatchIterator (Auditor.attach hands it the compiled audit path)
    topic: str = "__consumer_offsets"  # or "__share_group_state" (`groupctl.log.share_state`)


def decode_record(batch: Any, record: Any) -> DecodedRecord:
    """Decode one record's key and value the way Kafka's OffsetsMessageParser does."""
    if batch.is_control:
        return DecodedRecord(batch, record, control=control_marker(record))
    if record.key is None:
        return DecodedRecord(
            batch,
            record,
            error=f"Failed to decode message at offset {record.offset} using the specified decoder "
            "(message had a missing key)",
        )
    try:
        key = decode_key(record.key)
    except UnknownRecordType as exc:
        return DecodedRecord(
            batch, record, error=f"Unknown record type {exc.record_type} at offset {record.offset}, skipping."
        )
    except DecodeError as exc:
        return DecodedRecord(batch, record, error=f"Error at offset {record.offset}, skipping. {exc.reason}")
    try:
        raw = record.value
        value = None if raw is None else decode_value(key[0], raw)
    except EarlyAccessLayout as exc:
        if exc.kafka_value is not None:
            kafka = f"{key_json(key)} payload: {value_json(key.type, exc.kafka_value)}"
        else:
            kafka = f"Error at offset {record.offset}, skipping. {exc.kafka_reason}"
        return DecodedRecord(
            batch, record, key, error=f"Error at offset {record.offset}, skipping. {exc.reason}", kafka_text=kafka
        )
    except DecodeError as exc:  # the key is good: keep it, so the record still names its group
        return DecodedRecord(batch, record, key, error=f"Error at offset {record.offset}, skipping. {exc.reason}")
    return _new_tuple(DecodedRecord, (batch, record, key, value, None, None, None))


def decoded_batches(batches: Iterable[Any]) -> Iterator[tuple[Any, list[DecodedRecord]]]:
    """Each batch with its records decoded: what every reader of segments iterates."""
    from groupctl.log.segment import BatchIterator

    if type(batches) is BatchIterator:  # its plain runs come decoded in C (from its start, when not yet started)
        return batches.decoded()
    return _decode_each(batches)


def _decode_each(batches: Iterable[Any]) -> Iterator[tuple[Any, list[DecodedRecord]]]:
    from groupctl.log import fast

    native = fast.module()
    if native is not None:  # the same DecodedRecords, values decoded in C, anything unusual by decode_record
        decode = native.decode
        for batch in batches:
            yield batch, decode(batch, batch.records)
        return
    for batch in batches:
        yield batch, [decode_record(batch, r) for r in batch.records]


def torn_tail(path: str, size: int, trailing: int) -> DecodeError:
    """The problem a torn last batch makes: Kafka ignores those bytes, but the operator must hear of them."""
    return DecodeError(
        f"torn last batch: the last {trailing} bytes do not make a whole batch (a write cut short, e.g. by a "
        "crash); they were not read",
        path=path,
        position=size - trailing,
    )


def open_segment(
    path: Path | BinaryIO, *, strict: bool = False, name: str | None = None, topic: str | None = None
) -> FileDump:
    """A binary segment (a file, or an open binary file): batches read lazily, problems collected as met.
    `topic` is the internal topic it is of; None: told by its directory (`share_state.topic_of`)."""
    from groupctl.log.segment import read_segment

    shown = str(path) if name is None else name
    problems: list[DecodeError] = []
    reader = read_segment(path, strict=strict, problems=problems)
    reader.path = shown
    return segment_dump(shown, reader, problems, strict=strict, topic=topic)


def segment_dump(
    shown: str, reader: Any, problems: list[DecodeError], *, strict: bool = False, topic: str | None = None
) -> FileDump:
    """The FileDump of a segment reader (a file's, or bytes Spark fetched): every reader of segments
    decodes the same way and hears of a torn last batch once the batches are read."""
    from groupctl.log import share_state
    from groupctl.log.segment import segment_base_offset

    dump = FileDump(shown, "segment", segment_base_offset(shown), iter(()))
    dump.problems = problems
    dump.reader = reader
    dump.topic = share_state.topic_of(shown) if topic is None else topic

    def batches() -> Iterator[tuple[Any, list[DecodedRecord]]]:
        if dump.topic == share_state.SHARE_STATE_TOPIC:
            yield from share_state.decoded_batches(reader)
        else:
            yield from decoded_batches(reader)
        dump.trailing_bytes = getattr(reader, "trailing_bytes", 0)
        if dump.trailing_bytes:
            problem = torn_tail(shown, reader.size, dump.trailing_bytes)
            if strict:
                raise problem
            dump.problems.append(problem)

    dump.batches = batches()
    return dump


def is_dump_log_text(path: Path) -> bool:
    with path.open("rb") as fh:
        return fh.read(len(TEXT_MAGIC)) == TEXT_MAGIC


def _unreadable(path: Path, exc: OSError) -> GroupctlError:
    why = exc.strerror or str(exc)
    return GroupctlError(f"cannot read '{path}': {why}; check the path and its permissions")


def expand_path(path: Path) -> list[Path]:
    """The files a PATH stands for: itself (a file, a pipe, /dev/stdin), a partition directory's
    segments, or every partition's."""
    from groupctl.log.segment import segment_files

    try:
        if path.is_dir():
            files = segment_files(path)
            if not files:
                raise UsageError(f"'{path}' holds no .log segment files (nor partition directories with them)")
            return files
        if path.exists():
            return [path]
    except OSError as exc:
        raise _unreadable(path, exc) from None
    raise UsageError(f"'{path}' does not exist; give a segment file, a partition directory, "
                     "a directory of partition directories, or a kafka-dump-log text file")


def shown_path(path: str | Path) -> str:
    """A path as it can be printed on any stdout: bytes that are not UTF-8 (a file name is any bytes)
    appear as \\xNN escapes instead of failing the write."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _open_input(file: Path) -> BinaryIO:
    """The file, open for reading; a pipe or device (`<(...)`, /dev/stdin) copied to a temporary file
    first, so detecting its format does not eat what decoding needs."""
    from groupctl.log.segment import spool

    try:
        fh = file.open("rb")
    except OSError as exc:
        raise _unreadable(file, exc) from None
    try:
        if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return fh
        with fh:
            return spool(fh, f"'{file}'")
    except OSError as exc:
        fh.close()
        raise _unreadable(file, exc) from None


def open_inputs(
    paths: Iterable[str | Path], *, strict: bool = False, topic: str | None = None
) -> Iterator[FileDump]:
    """Every input, in order: directories expanded, format detected per file. `topic` reads every input
    as that internal topic's; None: each file's directory tells (`__share_group_state-N`, else
    `__consumer_offsets`)."""
    from groupctl.log.share_state import topic_of

    for raw in paths:
        for file in expand_path(Path(raw)):
            with _open_input(file) as fh:
                try:
                    text = fh.read(len(TEXT_MAGIC)) == TEXT_MAGIC
                    fh.seek(0)
                except OSError as exc:
                    raise _unreadable(file, exc) from None
                if text:
                    from groupctl.log.dumplog import parse_dump_log

                    yield from parse_dump_log(fh, strict=strict, name=shown_path(file), topic=topic)
                else:
                    # a text names the files it dumped, which tell their topic; a segment's own directory does
                    file_topic = topic_of(file.absolute()) if topic is None else topic
                    dump = open_segment(fh, strict=strict, name=shown_path(file), topic=file_topic)
                    yield dump
                    for _ in dump.batches:  # the file closes next: finish what the consumer left
                        pass


RecordFilter = Callable[[DecodedRecord], bool]


def make_filter(
    groups: list[str] | None = None,
    record_types: list[int] | None = None,
    from_offset: int | None = None,
    to_offset: int | None = None,
) -> RecordFilter | None:
    """A predicate for --group, --record-type and the offset range; None when nothing filters."""
    if not groups and not record_types and from_offset is None and to_offset is None:
        return None
    group_set = set(groups or ())
    type_set = set(record_types or ())

    def keep(rec: DecodedRecord) -> bool:
        offset = rec.record.offset
        if from_offset is not None and offset < from_offset:
            return False
        if to_offset is not None and offset > to_offset:
            return False
        if type_set and rec.record_type not in type_set:
            return False
        return not group_set or rec.group in group_set

    return keep
