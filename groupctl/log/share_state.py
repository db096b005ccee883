"""`__share_group_state` segments: which inputs are of that topic, and their records decoded.

Kafka's DumpLogSegments reads such a segment with `--share-group-state-decoder`; groupctl knows the
topic from the partition directory (`__share_group_state-N`), or from its own
`--share-group-state-decoder` option when a file sits elsewhere. The content alone cannot say: a
ShareSnapshot or ShareUpdate key (type 0 or 1: group, topic id, partition) also reads as a
`__consumer_offsets` offset commit key of that type (group, topic, partition) whenever the topic id's
first two bytes make a string length that fits in it (an id starting with two zero bytes gives the
topic ""), and the snapshot's value then reads as an offset commit too; and an offset commit key
whose topic name is 14 bytes long reads as a share-partition key.

Records come out as the same `DecodedRecord`s a `__consumer_offsets` segment gives, with
`ShareStateKey`/`ShareStateValue` inside, so the dump-log, jsonl and table writers and the filters
take them; the compiled paths (which handle `__consumer_offsets` only) are not used for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any, Final

from groupctl.errors import DecodeError
from groupctl.log.batch import control_marker
from groupctl.log.decode import DecodedRecord
from groupctl.protocol import share_state
from groupctl.protocol.records import UnknownRecordType
from groupctl.protocol.share_state import SHARE_STATE_TOPIC

OFFSETS_TOPIC: Final = "__consumer_offsets"
_SHARE_STATE_DIR = re.compile(re.escape(SHARE_STATE_TOPIC) + r"-\d+")

__all__ = ["OFFSETS_TOPIC", "SHARE_STATE_TOPIC", "decode_record", "decoded_batches", "topic_of"]


def topic_of(path: str | PurePath) -> str:
    """The internal topic a file belongs to by its directory's name: `__share_group_state` for a file
    in `__share_group_state-N/`, else `__consumer_offsets`."""
    return SHARE_STATE_TOPIC if _SHARE_STATE_DIR.fullmatch(PurePath(path).parent.name) else OFFSETS_TOPIC


def decode_record(batch: Any, record: Any) -> DecodedRecord:
    """One record decoded as DumpLogSegments' ShareGroupStateMessageParser does, errors in its words."""
    if batch.is_control:
        return DecodedRecord(batch, record, control=control_marker(record))
    offset = record.offset
    if record.key is None:
        return DecodedRecord(batch, record, error=f"Failed to decode message at offset {offset} using the "
                             "specified decoder (message had a missing key)")
    try:
        key = share_state.decode_key(record.key)
    except UnknownRecordType as exc:
        unknown = f"Unknown record type {exc.record_type} at offset {offset}, skipping."
        return DecodedRecord(batch, record, error=unknown)
    except DecodeError as exc:
        return DecodedRecord(batch, record, error=f"Error at offset {offset}, skipping. {exc.reason}")
    try:
        value = None if record.value is None else share_state.decode_value(key.type, record.value)
    except DecodeError as exc:
        return DecodedRecord(batch, record, key, error=f"Error at offset {offset}, skipping. {exc.reason}")
    return DecodedRecord(batch, record, key, value)


def decoded_batches(batches: Iterable[Any]) -> Iterator[tuple[Any, list[DecodedRecord]]]:
    """Each batch with its records decoded as `__share_group_state` records."""
    for batch in batches:
        yield batch, [decode_record(batch, r) for r in batch.records]
