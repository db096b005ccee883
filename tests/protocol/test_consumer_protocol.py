"""ConsumerProtocolSubscription/Assignment: the classic consumer's bytes inside GroupMetadataValue."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol import consumer_protocol as cp
from groupctl.protocol import records as R
from tests.strategies import message_values

# librdkafka's v1 subscription to "t01" and v0 assignment of t01-0..2 (konsumer_offsets fixture bytes)
RDKAFKA_SUBSCRIPTION = bytes.fromhex("0001 00000001 0003743031 00000000 00000000")
RDKAFKA_ASSIGNMENT = bytes.fromhex("0000 00000001 0003743031 00000003 00000000 00000001 00000002 00000000")


@pytest.mark.parametrize("msg", [cp.SUBSCRIPTION, cp.ASSIGNMENT], ids=lambda m: m.name)
@pytest.mark.parametrize("version", [0, 1, 2, 3])
@given(data=st.data())
def test_round_trip_every_version(msg, version: int, data: st.DataObject) -> None:
    value = data.draw(message_values(msg, version))
    raw = cp.encode(msg, value, version)
    assert raw[:2] == version.to_bytes(2, "big")
    assert cp.decode(msg, raw) == (version, value)
    assert cp.encode(msg, cp.decode(msg, raw)[1], version) == raw


def test_known_bytes() -> None:
    assert cp.decode_subscription(RDKAFKA_SUBSCRIPTION) == (
        1,
        {"topics": ["t01"], "userData": b"", "ownedPartitions": []},
    )
    assert cp.decode_assignment(RDKAFKA_ASSIGNMENT) == (
        0,
        {"assignedPartitions": [{"topic": "t01", "partitions": [0, 1, 2]}], "userData": b""},
    )
    assert cp.encode_subscription({"topics": ["t01"], "userData": b"", "ownedPartitions": []}, 1) == (
        RDKAFKA_SUBSCRIPTION
    )
    assert cp.render_json(cp.SUBSCRIPTION, RDKAFKA_SUBSCRIPTION) == (
        '{"topics":["t01"],"userData":"","ownedPartitions":[]}'
    )
    assert cp.render_json(cp.ASSIGNMENT, RDKAFKA_ASSIGNMENT) == (
        '{"assignedPartitions":[{"topic":"t01","partitions":[0,1,2]}],"userData":""}'
    )


def test_versions_outside_the_range_read_as_kafkas_reader_does() -> None:
    v3 = cp.encode_subscription(
        {"topics": ["a"], "userData": None, "ownedPartitions": [], "generationId": 4, "rackId": None}, 3
    )
    future = b"\x00\x07" + v3[2:]
    assert cp.decode_subscription(future) == (7, cp.decode_subscription(v3)[1])
    assert cp.render_json(cp.SUBSCRIPTION, future) == cp.render_json(cp.SUBSCRIPTION, v3)
    negative = b"\xff\xff" + RDKAFKA_ASSIGNMENT[2:]
    assert cp.decode_assignment(negative)[1] == cp.decode_assignment(RDKAFKA_ASSIGNMENT)[1]


def test_malformed_bytes_do_not_render() -> None:
    assert cp.render_json(cp.SUBSCRIPTION, b"Subscription") is None
    assert cp.render_json(cp.ASSIGNMENT, b"Assignment") is None
    assert cp.render_json(cp.SUBSCRIPTION, b"\x00") is None
    # a kafka-go client's v1 subscription without the OwnedPartitions v1 requires
    kafka_go = bytes.fromhex("0001 00000001 000d6f726465725f63726561746564 ffffffff")
    assert cp.render_json(cp.SUBSCRIPTION, kafka_go) is None
    with pytest.raises(DecodeError) as err:
        cp.decode_subscription(kafka_go)
    assert err.value.reason == "null"
    assert cp.to_jsonable(cp.SUBSCRIPTION, kafka_go) is None


def test_lowest_version_for_parse_back() -> None:
    assert cp.lowest_version(cp.SUBSCRIPTION, {"topics", "userData"}) == 0
    assert cp.lowest_version(cp.SUBSCRIPTION, {"topics", "userData", "ownedPartitions"}) == 1
    assert cp.lowest_version(cp.SUBSCRIPTION, {"topics", "userData", "ownedPartitions", "generationId"}) == 2
    assert cp.lowest_version(cp.SUBSCRIPTION, {"topics", "userData", "ownedPartitions", "generationId", "rackId"}) == 3
    assert cp.lowest_version(cp.ASSIGNMENT, {"assignedPartitions", "userData"}) == 0


@pytest.mark.parametrize("version", [0, 1, 2, 3])
@given(data=st.data())
def test_subscription_json_parse_back_recovers_the_version(version: int, data: st.DataObject) -> None:
    raw = cp.encode(cp.SUBSCRIPTION, data.draw(message_values(cp.SUBSCRIPTION, version)), version)
    obj = cp.to_jsonable(cp.SUBSCRIPTION, raw)
    assert obj is not None
    assert cp.from_jsonable(cp.SUBSCRIPTION, obj) == raw


@pytest.mark.parametrize("version", [0, 1, 2, 3])
@given(data=st.data())
def test_assignment_json_parse_back_is_v0(version: int, data: st.DataObject) -> None:
    value = data.draw(message_values(cp.ASSIGNMENT, version))
    obj = cp.to_jsonable(cp.ASSIGNMENT, cp.encode(cp.ASSIGNMENT, value, version))
    assert obj is not None
    assert cp.from_jsonable(cp.ASSIGNMENT, obj) == cp.encode(cp.ASSIGNMENT, value, 0)


def _member(sub: bytes, asg: bytes) -> dict:
    return {
        "memberId": "m",
        "groupInstanceId": None,
        "clientId": "c",
        "clientHost": "/10.0.0.1",
        "rebalanceTimeout": 300000,
        "sessionTimeout": 45000,
        "subscription": sub,
        "assignment": asg,
    }


@given(
    sub_version=st.integers(0, 3),
    data=st.data(),
    group_version=st.integers(3, 4),
)
def test_consumer_group_metadata_json_round_trip(sub_version: int, data: st.DataObject, group_version: int) -> None:
    sub = cp.encode(cp.SUBSCRIPTION, data.draw(message_values(cp.SUBSCRIPTION, sub_version)), sub_version)
    asg = cp.encode(cp.ASSIGNMENT, data.draw(message_values(cp.ASSIGNMENT, 0)), 0)
    fields = {
        "protocolType": "consumer",
        "generation": 3,
        "protocol": "range",
        "leader": "m",
        "currentStateTimestamp": 1,
        "members": [_member(sub, asg), _member(b"\x00\x09garbage", b"")],
    }
    value = R.decode_value(2, R.encode_value(2, group_version, fields))
    obj = R.value_to_jsonable(2, value)
    assert isinstance(obj["data"]["members"][0]["subscription"], dict)
    assert isinstance(obj["data"]["members"][1]["subscription"], str)  # kept as base64
    assert R.value_from_jsonable(2, obj) == value


def test_reads_as_earlier_version_finds_kafka_gos_mislabelled_subscription():
    """kafka-go labels v0's fields (topics, user data) version 1; no version reads damaged bytes."""
    v0 = cp.encode_subscription({"topics": ["order_created"], "userData": None}, 0)
    kafka_go = b"\x00\x01" + v0[2:]
    assert (cp.version_of(kafka_go), cp.reads_as_earlier_version(cp.SUBSCRIPTION, kafka_go)) == (1, 0)
    with pytest.raises(DecodeError):
        cp.decode_subscription(kafka_go)
    assert cp.reads_as_earlier_version(cp.SUBSCRIPTION, b"\x00\x03\x00\x00\x00\x05") is None
    assert cp.reads_as_earlier_version(cp.SUBSCRIPTION, b"\x00") is None and cp.version_of(b"\x00") is None
