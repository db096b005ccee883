"""Topic-id maps from the files operators have."""

from __future__ import annotations

import pytest

from groupctl.errors import UsageError
from groupctl.log.topic_ids import load_topic_ids, parse_topic_ids

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
