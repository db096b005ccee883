"""Topic-id maps from the files operators have, and from the dump itself."""

from __future__ import annotations

import uuid

import pytest

from groupctl.errors import UsageError
from groupctl.log.decode import decode_record
from groupctl.log.replay import Replay
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import BASE_TS, offset_commit
from groupctl.log.topic_ids import dump_topic_names, load_topic_ids, parse_topic_ids
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import encode_key, encode_value

A = "f0MD4EPzTQOk51WGptx9gg"
B = "0j8IJBKLLzMMXH_QpqOkUA"


def test_kafka_topics_describe_output():
    text = (
        f"Topic: orders\tTopicId: {A}\tPartitionCount: 2\tReplicationFactor: 1\tConfigs: \n"
        "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1\tIsr: 1\n"
        f"Topic: pay-ments\tTopicId: {B}\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: \n"
    )
    assert parse_topic_ids(text) == {A: "orders", B: "pay-ments"}


def test_json_either_direction_and_lists():
    assert parse_topic_ids(f'{{"{A}": "orders"}}') == {A: "orders"}
    assert parse_topic_ids(f'{{"orders": "{A}"}}') == {A: "orders"}
    assert parse_topic_ids(f'[{{"name": "orders", "topicId": "{A}"}}, {{"topic": "p", "id": "{B}"}}]') == {
        A: "orders", B: "p"}


def test_plain_lines():
    assert parse_topic_ids(f"# topics\norders {A}\n{B},payments\n") == {A: "orders", B: "payments"}


def test_errors_name_the_line(tmp_path):
    with pytest.raises(UsageError, match=r":2: expected 'name id'"):
        parse_topic_ids(f"orders {A}\njust-a-name\n")
    with pytest.raises(UsageError, match="not valid JSON"):
        parse_topic_ids("{oops")
    with pytest.raises(UsageError, match="cannot read the topic-id map"):
        load_topic_ids(tmp_path / "missing.txt")


# -- the dump's own names ------------------------------------------------------------------------------


def _replay(*records) -> Replay:
    replay = Replay()
    data = build_batch(list(records), base_offset=0)
    replay.apply_all(decode_record(batch, rec) for batch in iter_batches(data, strict=True) for rec in batch.records)
    return replay


def _partition_metadata(group: str, topics: list[tuple[uuid.UUID, str]]) -> SimpleRecord:
    value = {"topics": [{"topicId": i, "topicName": n, "numPartitions": 3, "partitionMetadata": []}
                        for i, n in topics]}
    return SimpleRecord(encode_key(4, {"groupId": group}), encode_value(4, 0, value), BASE_TS)


def test_dump_names_from_partition_metadata_outlive_the_record_and_the_group():
    """Kafka 4.0 rewrites a group's partition metadata with no topics when its members leave, and a
    deleted group's is tombstoned: the names seen stay known."""
    orders, payments = uuid.UUID(int=1), uuid.UUID(int=2)
    replay = _replay(
        _partition_metadata("a", [(orders, "orders")]),
        _partition_metadata("a", []),
        _partition_metadata("b", [(payments, "payments")]),
        SimpleRecord(encode_key(4, {"groupId": "b"}), None, BASE_TS),
        SimpleRecord(encode_key(3, {"groupId": "b"}), None, BASE_TS),
    )
    assert dump_topic_names(replay) == {uuid_to_kafka(orders): "orders", uuid_to_kafka(payments): "payments"}


def test_dump_names_from_offset_commits_v4_committed_or_pending():
    orders, refunds = uuid.UUID(int=3), uuid.UUID(int=4)
    replay = _replay(
        offset_commit("g", "orders", 0, 5, BASE_TS, version=4, topic_id=orders),
        offset_commit("g", "legacy", 0, 5, BASE_TS, version=3),  # no topic id before 4.1
        offset_commit("g", "unknown", 0, 5, BASE_TS, version=4),  # the zero id: none
    )
    assert dump_topic_names(replay) == {uuid_to_kafka(orders): "orders"}
    pending = Replay()
    data = build_batch([offset_commit("g", "refunds", 1, 7, BASE_TS, version=4, topic_id=refunds)], base_offset=0,
                       producer_id=9, producer_epoch=0, base_sequence=0, is_transactional=True)
    pending.apply_all(decode_record(b, r) for b in iter_batches(data, strict=True) for r in b.records)
    assert dump_topic_names(pending) == {uuid_to_kafka(refunds): "refunds"}
