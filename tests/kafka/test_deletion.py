"""The deletion RPCs' bodies: OffsetDelete grouped by topic as Kafka's admin client sends it, and both
answers read back through the real codec."""

from __future__ import annotations

from groupctl.kafka.deletion import offset_delete_request, parse_delete_groups, parse_offset_delete
from groupctl.model import TopicPartition
from groupctl.protocol.messages import API_SCHEMAS


def test_offset_delete_groups_partitions_by_topic_in_the_order_named() -> None:
    body = offset_delete_request("g", [TopicPartition("b", 1), TopicPartition("a", 0), TopicPartition("b", 0)])
    request, _ = API_SCHEMAS[47]
    assert request.decode(request.write(body, 0), 0) == {"groupId": "g", "topics": [
        {"name": "b", "partitions": [{"partitionIndex": 1}, {"partitionIndex": 0}]},
        {"name": "a", "partitions": [{"partitionIndex": 0}]}]}


def test_offset_delete_answer_keeps_every_partition_code_and_the_top_level_error() -> None:
    _, response = API_SCHEMAS[47]
    wire = response.encode({"errorCode": 0, "throttleTimeMs": 0, "topics": [
        {"name": "a", "partitions": [{"partitionIndex": 0, "errorCode": 86}, {"partitionIndex": 1, "errorCode": 0}]}]},
        0)
    answer = parse_offset_delete(response.read(wire, 0), "g")
    assert (answer.error_code, answer.partitions) == (0, {TopicPartition("a", 0): 86, TopicPartition("a", 1): 0})


def test_delete_groups_answer_by_group_with_v3_messages() -> None:
    _, response = API_SCHEMAS[42]
    results = [{"groupId": "a", "errorCode": 0, "errorMessage": None},
               {"groupId": "b", "errorCode": 68, "errorMessage": "The group is not empty."}]
    answers = parse_delete_groups(response.read(response.encode({"throttleTimeMs": 0, "results": results}, 3), 3))
    assert [(a.group_id, a.error_code, a.error_message) for a in answers.values()] == [
        ("a", 0, None), ("b", 68, "The group is not empty.")]
