"""`Data.reader`: the compiled dict-to-class reader (what `from_dict` and the replay use) gives exactly what
the table walk `from_table` gives."""

from __future__ import annotations

import inspect
import uuid

import pytest

from groupctl.log.decode import decode_record
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import BASE_TS, classic_group, consumer_group_records, mixed_dump
from groupctl.log.writer import build_batch
from groupctl.protocol.data import records as record_classes
from groupctl.protocol.data.base import UNKNOWN_TAGS, Data
from groupctl.protocol.records import decode_value, encode_value

TOPIC_ID = uuid.UUID(int=7)
VALUE_CLASSES = [cls for _, cls in inspect.getmembers(record_classes, inspect.isclass)
                 if issubclass(cls, Data) and cls.SCHEMA_NAME.endswith("Value")]


def same(cls: type[Data], data: dict) -> None:
    read, built = cls.reader()(data), cls.from_table(data)
    assert type(read) is cls
    assert read == built and repr(read) == repr(built) and read.unknown_tagged_fields == built.unknown_tagged_fields


def decoded_values() -> list[tuple[int, dict]]:
    """Every group value of a benchmark dump and of a regex-subscribed group, as the decoder gives them."""
    data = mixed_dump(3_000, seed=3)
    data += build_batch(consumer_group_records("rx", 4, [("m", None, [0, 1])], "orders-eu", TOPIC_ID, BASE_TS,
                                               regex="orders-.*"), base_offset=10_000)
    out = []
    for batch in iter_batches(data, strict=True):
        for rec in batch.records:
            decoded = decode_record(batch, rec)
            if decoded.key is not None and decoded.key.type >= 2 and decoded.value is not None:
                out.append((decoded.key.type, decoded.value.data))
    return out


CLASS_OF = {2: record_classes.GroupMetadataValue, 3: record_classes.ConsumerGroupMetadataValue,
            4: record_classes.ConsumerGroupPartitionMetadataValue, 5: record_classes.ConsumerGroupMemberMetadataValue,
            6: record_classes.ConsumerGroupTargetAssignmentMetadataValue,
            7: record_classes.ConsumerGroupTargetAssignmentMemberValue,
            8: record_classes.ConsumerGroupCurrentMemberAssignmentValue,
            16: record_classes.ConsumerGroupRegularExpressionValue}


def test_decoded_group_values_read_as_the_table_builds_them() -> None:
    values = decoded_values()
    assert {t for t, _ in values} >= {2, 3, 5, 6, 7, 8, 16}
    for record_type, data in values:
        same(CLASS_OF[record_type], data)


def test_a_value_of_an_older_version_takes_the_class_defaults() -> None:
    """GroupMetadataValue v0 has no currentStateTimestamp nor the members' rebalance timeout and instance id."""
    (value,) = [r for r in iter_batches(build_batch([classic_group("g", 3, [("m", None, {"t": [0]})], ["t"],
                                                                   BASE_TS)]), strict=True)]
    data = decode_value(2, value.records[0].value)[1]
    old = decode_value(2, encode_value(2, 0, data))[1]
    assert "currentStateTimestamp" not in old and "rebalanceTimeout" not in old["members"][0]
    same(record_classes.GroupMetadataValue, old)
    read = record_classes.GroupMetadataValue.reader()(old)
    assert (read.current_state_timestamp, read.members[0].rebalance_timeout, read.members[0].group_instance_id) == (
        -1, -1, None)


@pytest.mark.parametrize("cls", VALUE_CLASSES, ids=lambda c: c.__name__)
def test_every_record_value_class_reads_its_own_dict_and_unknown_tags(cls: type[Data]) -> None:
    data = cls().to_dict()
    same(cls, data)
    same(cls, {**data, UNKNOWN_TAGS: [(9, b"\x01")]})
    assert cls.reader()({**data, UNKNOWN_TAGS: [(9, b"\x01")]}).unknown_tagged_fields == [(9, b"\x01")]
    assert cls.reader() is cls.reader()  # compiled once
