"""member_bytes.py: a member's stored forms read one way, whoever reads them.

The consumer-protocol bytes of a classic member decode only when its group uses the consumer
protocol and the bytes are valid; the partitions a member holds follow one rule in every form
they come in (described partitions, a type-8 record's topic-id pairs).
"""

from __future__ import annotations

import uuid

from groupctl.model import TopicPartition
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.data.records import ConsumerGroupCurrentMemberAssignmentValue, TopicPartitions
from groupctl.protocol.member_bytes import (
    assigned_partitions,
    current_held,
    decode_member_bytes,
    held_partitions,
)

TOPIC_ID = uuid.UUID("6513270e-269e-0d37-f2a7-4de452e6b438")
OTHER_ID = uuid.UUID("00000000-0000-0000-0000-0000000000aa")
SUBSCRIPTION = encode_subscription(
    {"topics": ["orders", "audit"], "userData": None, "ownedPartitions": [], "generationId": 4, "rackId": "rack-a"}, 3
)
ASSIGNMENT = encode_assignment(
    {"assignedPartitions": [{"topic": "orders", "partitions": [3, 1]}, {"topic": "audit", "partitions": [0]}],
     "userData": None}, 3,
)


# -- what a member holds ---------------------------------------------------------------------------


def test_a_member_holds_its_assignment_and_what_it_has_yet_to_revoke_each_once() -> None:
    a0, a1, b0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
    assert held_partitions([a1, a0], [b0, a1]) == [a1, a0, b0]
    assert held_partitions([], []) == []
    assert held_partitions([b0]) == [b0]


def test_the_same_rule_reads_a_current_assignment_record() -> None:
    current = ConsumerGroupCurrentMemberAssignmentValue(
        assigned_partitions=[TopicPartitions(topic_id=TOPIC_ID, partitions=[0, 1])],
        partitions_pending_revocation=[TopicPartitions(topic_id=TOPIC_ID, partitions=[1, 2]),
                                       TopicPartitions(topic_id=OTHER_ID, partitions=[0])],
    )
    assert current_held(current) == [(TOPIC_ID, 0), (TOPIC_ID, 1), (TOPIC_ID, 2), (OTHER_ID, 0)]
    assert current_held(None) == [] and current_held(ConsumerGroupCurrentMemberAssignmentValue()) == []


# -- classic member bytes --------------------------------------------------------------------------


def test_member_bytes_decode_only_for_the_consumer_protocol_and_only_when_valid() -> None:
    subscription, assignment = decode_member_bytes(SUBSCRIPTION, ASSIGNMENT, True)
    assert subscription["topics"] == ["orders", "audit"] and subscription["rackId"] == "rack-a"
    assert assignment["assignedPartitions"][0] == {"topic": "orders", "partitions": [3, 1]}
    assert decode_member_bytes(SUBSCRIPTION, ASSIGNMENT, False) == (None, None)
    assert decode_member_bytes(b"\x00\x01junk", b"", True) == (None, None)
    assert decode_member_bytes(None, None, True) == (None, None)


def test_an_assignment_reads_as_its_partitions_in_its_own_order() -> None:
    _, decoded = decode_member_bytes(None, ASSIGNMENT, True)
    assert assigned_partitions(decoded) == [TopicPartition("orders", 3), TopicPartition("orders", 1),
                                            TopicPartition("audit", 0)]
    assert assigned_partitions(None) == [] and assigned_partitions({"assignedPartitions": None}) == []
