"""describe.py: every source of a GroupDescription reads a group the same way.

A classic member written to a GroupMetadataValue, held by a live group, and sent in a DescribeGroups
answer is one member. (How the stored forms themselves read is tests/protocol/test_member_bytes.py.)
"""

from __future__ import annotations

import uuid

import pytest

from groupctl.describe import (
    classic_description,
    classic_member,
    classic_member_from_bytes,
    committed_offsets,
    describe_all_replayed,
    describe_replayed,
    from_consumer_group_describe,
    from_describe_groups,
    member_holds,
    replayed_mixed,
    stored_protocol,
)
from groupctl.kafka.groups import parse_consumer_group_describe, parse_describe_groups
from groupctl.log.decode import decode_record
from groupctl.log.replay import Replay
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import BASE_TS, consumer_group_records, offset_commit
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.model import Member, TopicPartition
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeResponseData
from groupctl.protocol.data.group_admin import DescribeGroupsResponseData
from groupctl.protocol.data.records import (
    ConsumerGroupMemberMetadataValue,
)
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import encode_key, encode_value
from tests.mixed_groups import GROUPS, ORACLE_CLASSIC, ORACLE_CONSUMER, group_records

TOPIC_ID = uuid.UUID("6513270e-269e-0d37-f2a7-4de452e6b438")
SUBSCRIPTION = encode_subscription(
    {"topics": ["orders", "audit"], "userData": None, "ownedPartitions": [], "generationId": 4, "rackId": "rack-a"}, 3
)
ASSIGNMENT = encode_assignment(
    {"assignedPartitions": [{"topic": "orders", "partitions": [3, 1]}, {"topic": "audit", "partitions": [0]}],
     "userData": None}, 3,
)
# The partitions ASSIGNMENT holds, sorted as every describe shows them.
HELD = [TopicPartition("audit", 0), TopicPartition("orders", 1), TopicPartition("orders", 3)]


def replayed(*records: SimpleRecord) -> Replay:
    replay = Replay()
    data = build_batch(list(records), base_offset=0)
    replay.apply_all(decode_record(batch, rec) for batch in iter_batches(data, strict=True) for rec in batch.records)
    return replay


def stored_classic_group(members: list[dict], protocol_type: str = "consumer") -> SimpleRecord:
    value = {"protocolType": protocol_type, "generation": 5, "protocol": "range", "leader": "m-1",
             "currentStateTimestamp": BASE_TS, "members": members}
    return SimpleRecord(encode_key(2, {"group": "shop"}), encode_value(2, 3, value), BASE_TS)


def stored_member(member_id: str, *, rebalance: int = 30000, subscription: bytes = SUBSCRIPTION,
                  assignment: bytes = ASSIGNMENT) -> dict:
    return {"memberId": member_id, "groupInstanceId": "pod-1", "clientId": "client", "clientHost": "/10.0.0.1",
            "rebalanceTimeout": rebalance, "sessionTimeout": 45000, "subscription": subscription,
            "assignment": assignment}


# -- what a member holds ---------------------------------------------------------------------------


def test_a_described_member_holds_its_assignment_and_what_it_has_yet_to_revoke_sorted() -> None:
    a0, a1, b0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
    member = Member("m", None, "c", "h", "consumer", assignment=[b0, a1], pending_revocation=[a0, b0])
    assert member_holds(member) == [a0, a1, b0]
    assert member_holds(Member("m", None, "c", "h", "classic", assignment=[b0])) == [b0]


# -- classic members -------------------------------------------------------------------------------


def test_a_rebalance_timeout_of_minus_one_reads_as_the_session_timeout() -> None:
    member = classic_member("m", None, "c", "h", None, [], rebalance_timeout_ms=-1, session_timeout_ms=45000)
    assert (member.rebalance_timeout_ms, member.session_timeout_ms) == (45000, 45000)
    assert classic_member("m", None, "c", "h", None, []).rebalance_timeout_ms is None


# -- one classic member, three sources -------------------------------------------------------------


def _common(m: Member) -> tuple:
    return (m.member_id, m.instance_id, m.client_id, m.host, m.protocol, m.assignment, m.subscribed_topics, m.rack)


def test_a_classic_member_reads_the_same_stored_live_and_from_the_wire() -> None:
    stored = describe_replayed(replayed(stored_classic_group([stored_member("m-1")])), "shop").members[0]
    live = classic_member_from_bytes("m-1", "pod-1", "client", "/10.0.0.1", SUBSCRIPTION, ASSIGNMENT, consumer=True,
                                     rebalance_timeout_ms=30000, session_timeout_ms=45000)
    body = {"groups": [{
        "errorCode": 0, "groupId": "shop", "groupState": "Stable", "protocolType": "consumer", "protocolData": "range",
        "members": [{"memberId": "m-1", "groupInstanceId": "pod-1", "clientId": "client", "clientHost": "/10.0.0.1",
                     "memberMetadata": SUBSCRIPTION, "memberAssignment": ASSIGNMENT}],
    }]}
    (wire,) = from_describe_groups(parse_describe_groups(DescribeGroupsResponseData.from_dict(body))[0]).members
    assert _common(stored) == _common(live) == ("m-1", "pod-1", "client", "/10.0.0.1", "classic", HELD,
                                                ["orders", "audit"], "rack-a")
    # Only the wire's assignment keeps the broker's order; the set is the same.
    assert sorted(wire.assignment) == HELD and _common(wire)[:5] == _common(live)[:5]
    assert (stored.rebalance_timeout_ms, stored.session_timeout_ms) == (live.rebalance_timeout_ms,
                                                                        live.session_timeout_ms) == (30000, 45000)
    assert (wire.rebalance_timeout_ms, wire.session_timeout_ms) == (None, None)  # DescribeGroups carries none


def test_a_classic_group_lists_its_members_by_id_whatever_order_they_come_in() -> None:
    members = [Member(i, None, "c", "h", "classic") for i in ("m-2", "m-0", "m-1")]
    desc = classic_description("g", "PreparingRebalance", protocol_type="consumer", protocol=None, generation=3,
                               leader=None, state_timestamp=None, members=members)
    assert [m.member_id for m in desc.members] == ["m-0", "m-1", "m-2"]
    assert (desc.type, desc.state, desc.group_epoch, desc.offsets) == ("classic", "PreparingRebalance", 3, [])


def test_a_stored_group_loads_stable_with_members_and_empty_without() -> None:
    replay = replayed(stored_classic_group([stored_member("m-1")]))
    assert describe_replayed(replay, "shop").state == "Stable"
    assert describe_replayed(replayed(stored_classic_group([])), "shop").state == "Empty"


def test_undecodable_or_other_protocol_bytes_leave_the_member_without_partitions() -> None:
    replay = replayed(stored_classic_group([stored_member("m-1", subscription=b"\x00\x01junk", assignment=b"")]))
    member = describe_replayed(replay, "shop").members[0]
    assert (member.assignment, member.subscribed_topics, member.rack) == ([], [], None)
    connect = describe_replayed(replayed(stored_classic_group([stored_member("m-1")], "connect")), "shop")
    assert connect.protocol_type == "connect" and connect.members[0].assignment == []


# -- replayed state --------------------------------------------------------------------------------


def test_an_unknown_group_is_a_key_error_and_offsets_alone_make_a_simple_group() -> None:
    replay = replayed(offset_commit("simple", "t", 1, 7, BASE_TS), offset_commit("simple", "t", 0, 5, BASE_TS))
    with pytest.raises(KeyError):
        describe_replayed(replay, "nope")
    desc = describe_replayed(replay, "simple", coordinator="__consumer_offsets-3")
    assert (desc.type, desc.state, desc.protocol_type, desc.group_epoch, desc.coordinator) == (
        "classic", "Empty", "", 0, "__consumer_offsets-3")
    assert [(o.topic, o.partition, o.offset) for o in desc.offsets] == [("t", 0, 5), ("t", 1, 7)]
    assert committed_offsets(replay, "simple") == desc.offsets and committed_offsets(replay, "nope") == []


def test_a_consumer_group_names_topics_by_id_unless_told_their_names() -> None:
    replay = replayed(*consumer_group_records("cg", 4, [("m0", None, [0]), ("m1", "pod-1", [1])], "orders",
                                              TOPIC_ID, BASE_TS))
    plain = describe_replayed(replay, "cg")
    named = describe_replayed(replay, "cg", topic_names={uuid_to_kafka(TOPIC_ID): "orders"})
    assert plain.members[0].assignment == [TopicPartition(uuid_to_kafka(TOPIC_ID), 0)]
    assert named.members[0].assignment == [TopicPartition("orders", 0)]
    assert (named.type, named.state, named.group_epoch, named.assignment_epoch) == ("consumer", "Stable", 4, 4)
    assert describe_all_replayed(replay, topic_names={uuid_to_kafka(TOPIC_ID): "orders"}) == [named]


def _replayed_group(name: str) -> Replay:
    topic, _, members, epoch = GROUPS[name]
    return replayed(*(SimpleRecord(k, v, BASE_TS) for k, v in group_records(name, topic, TOPIC_ID, members, epoch)))


@pytest.mark.parametrize(("group", "protocols", "migration"), [
    ("oracle-mixed", {ORACLE_CLASSIC: "classic", ORACLE_CONSUMER: "consumer"}, "upgrading"),
    ("legacy-app", {f"legacy-{n}-9f1b": "classic" for n in range(3)}, "downgrading"),
    ("payments-app", {"pE3s9QwYRZ6m0x4vBnU1Tg": "consumer", "Zt7hK2cLQe2xN8oRw5sJdA": "consumer"}, None),
])
def test_a_member_with_classic_metadata_speaks_classic_inside_a_consumer_group(group, protocols, migration) -> None:
    replay = _replayed_group(group)
    desc = describe_replayed(replay, group)
    assert {m.member_id: m.protocol for m in desc.members} == protocols
    assert desc.migration == migration
    assert replayed_mixed(replay.consumer[group]) is desc.mixed is (migration is not None)
    classic = next((m for m in desc.members if m.protocol == "classic"), None)
    if classic is not None:  # the session timeout a classic member joined with is kept
        assert classic.session_timeout_ms == 45_000


def test_the_protocol_is_read_from_the_member_metadata_alone() -> None:
    """Kafka writes an explicit null for consumer-protocol members; a record without the tagged field
    (earlier groupctl releases wrote them so) reads as an empty struct, which no JoinGroup can produce."""
    member = ConsumerGroupMemberMetadataValue.from_dict
    assert stored_protocol(member({"classicMemberMetadata": None})) == stored_protocol(member({})) == "consumer"
    assert stored_protocol(member({"classicMemberMetadata": {"sessionTimeoutMs": 0, "supportedProtocols": []}})) \
        == "consumer"
    classic = {"sessionTimeoutMs": 45000, "supportedProtocols": [{"name": "range", "metadata": b"\x00\x03"}]}
    assert stored_protocol(member({"classicMemberMetadata": classic})) == "classic"


# -- ConsumerGroupDescribe -------------------------------------------------------------------------


def test_a_consumer_group_describe_answer_becomes_a_description() -> None:
    body = {"groups": [{
        "errorCode": 0, "errorMessage": None, "groupId": "cg", "groupState": "Reconciling", "groupEpoch": 7,
        "assignmentEpoch": 6, "assignorName": "", "authorizedOperations": -(2**31),
        "members": [{
            "memberId": "m0", "instanceId": "pod-0", "rackId": None, "memberEpoch": 6, "clientId": "c",
            "clientHost": "/h", "subscribedTopicNames": ["orders"], "subscribedTopicRegex": None,
            "assignment": {"topicPartitions": [{"topicId": TOPIC_ID, "topicName": "orders", "partitions": [0]}]},
            "targetAssignment": {"topicPartitions": [{"topicId": TOPIC_ID, "topicName": "", "partitions": [1]}]},
            "memberType": 0,
        }],
    }]}
    (info,) = parse_consumer_group_describe(ConsumerGroupDescribeResponseData.from_dict(body))
    desc = from_consumer_group_describe(info)
    assert (desc.type, desc.state, desc.group_epoch, desc.assignment_epoch, desc.assignor) == (
        "consumer", "Reconciling", 7, 6, None)
    (m,) = desc.members
    assert (m.member_id, m.instance_id, m.protocol, m.member_epoch) == ("m0", "pod-0", "classic", 6)
    assert m.assignment == [TopicPartition("orders", 0)]
    assert m.target_assignment == [TopicPartition(uuid_to_kafka(TOPIC_ID), 1)]
    assert not m.converged and member_holds(m) == [TopicPartition("orders", 0)]


