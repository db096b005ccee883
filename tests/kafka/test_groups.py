"""ListGroups, DescribeGroups, ConsumerGroupDescribe and LeaveGroup: request bytes at every version
against kafka-python, kafka-python's responses decoded, and the behaviour against fake brokers."""

from __future__ import annotations

import struct
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from groupctl.describe import from_consumer_group_describe, from_describe_groups
from groupctl.kafka.cluster import Cluster
from groupctl.kafka.errors import UnsupportedApi, error_name
from groupctl.kafka.groups import (
    DEFAULT_LEAVE_REASON,
    LeaveGroupUnsupported,
    consumer_group_describe_request,
    describe_classic_groups,
    describe_consumer_groups,
    leave_group,
    leave_group_request,
    list_groups,
    list_groups_request,
    parse_consumer_group_describe,
    parse_describe_groups,
)
from groupctl.model import GroupListing, TopicPartition
from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeResponseData
from groupctl.protocol.data.group_admin import DescribeGroupsResponseData
from groupctl.protocol.data.groups import LeaveGroupResponseData, MemberIdentity, MemberResponse
from groupctl.protocol.messages import framing
from tests.server.waits import WAIT_S

HOST = "127.0.0.1"
TOPIC_ID = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
BASE_VERSIONS = {18: (0, 3), 3: (0, 12), 10: (0, 6)}


def listed(group_id: str, state: str = "Stable", gtype: str = "classic", protocol: str = "consumer") -> dict[str, Any]:
    return {"groupId": group_id, "protocolType": protocol, "groupState": state, "groupType": gtype}


def describe_each(state: str, protocol_type: str) -> Callable[[Any, Any], dict[str, Any]]:
    """A fake broker's DescribeGroups handler: every group asked for exists, memberless, in `state`."""

    def answer(request: Any, _session: Any) -> dict[str, Any]:
        return {
            "groups": [
                {
                    "errorCode": 0,
                    "groupId": g,
                    "groupState": state,
                    "protocolType": protocol_type,
                    "protocolData": "",
                    "members": [],
                }
                for g in request.body.groups
            ]
        }

    return answer


# --- ListGroups -----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(6))
def test_list_groups_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 16: (0, version), 15: (0, 5)})
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("g")]})
    broker.on(15, describe_each("Stable", "consumer"))
    with Cluster(config_for(broker)) as cluster:
        groups = list_groups(cluster, cluster.deadline(WAIT_S), states=["Stable"], types=["classic"])
    assert groups == [GroupListing("g", "classic", "Stable", "consumer")]
    (request,) = broker.requests_for(16)
    assert framing.frame(broker.raw_for(16)[0]) == kp.frame(
        "ListGroupsRequest",
        version,
        request.correlation_id,
        "groupctl",
        states_filter=["Stable"],
        types_filter=["classic"],
    )
    assert len(broker.requests_for(15)) == (1 if version < 4 else 0)


@pytest.mark.parametrize("version", range(6))
def test_list_groups_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    group = kp.cls["ListGroupsResponse"].ListedGroup
    wire = kp.frame(
        "ListGroupsResponse",
        version,
        9,
        error_code=0,
        groups=[group(group_id="g", protocol_type="consumer", group_state="Assigning", group_type="consumer")],
    )
    (g,) = framing.decode_response(wire[4:], 16, version).body.groups
    assert (g.group_id, g.protocol_type) == ("g", "consumer")
    assert g.group_state == ("Assigning" if version >= 4 else "")  # before v4 `list_groups` asks DescribeGroups
    assert g.group_type == ("consumer" if version >= 5 else "")


def test_list_groups_request_shapes() -> None:
    assert list_groups_request(3, ["Stable"], ["consumer"]).to_dict() == {"statesFilter": [], "typesFilter": []}
    assert list_groups_request(4, ["Stable"], ["consumer"]).to_dict() == {"statesFilter": ["Stable"], "typesFilter": []}
    assert list_groups_request(5).to_dict() == {"statesFilter": [], "typesFilter": []}


def test_list_groups_merges_brokers_and_filters_client_side(fake_cluster: Any, config_for: Any) -> None:
    b0, b1, b2 = fake_cluster(3)
    b0.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("orders", "Stable", "consumer"), listed("shared")]})
    b1.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("billing", "Empty"), listed("shared")]})
    b2.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("audit", "Assigning", "consumer", "")]})
    with Cluster(config_for(b0)) as cluster:
        everything = list_groups(cluster, cluster.deadline(WAIT_S))
        assert [g.group_id for g in everything] == ["audit", "billing", "orders", "shared"]
        consumer = list_groups(cluster, cluster.deadline(WAIT_S), types=["CONSUMER"])
        assert [(g.group_id, g.state) for g in consumer] == [("audit", "Assigning"), ("orders", "Stable")]
        stable_classic = list_groups(cluster, cluster.deadline(WAIT_S), states=["stable"], types=["classic"])
        assert [g.group_id for g in stable_classic] == ["shared"]
    assert b2.requests_for(16)[0].body.to_dict() == {"statesFilter": [], "typesFilter": []}
    assert b0.requests_for(16)[2].body.to_dict() == {"statesFilter": ["stable"], "typesFilter": ["classic"]}


def test_list_groups_on_brokers_without_types(fake_cluster: Any, config_for: Any) -> None:
    # ListGroups v4: no GroupType; no ConsumerGroupHeartbeat means only classic groups can exist
    old_versions = {**BASE_VERSIONS, 16: (0, 4), 15: (0, 5)}
    (old,) = fake_cluster(api_versions=old_versions)
    old.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("g", "Empty")]})
    with Cluster(config_for(old)) as cluster:
        assert list_groups(cluster, cluster.deadline(WAIT_S), types=["classic"]) == [
            GroupListing("g", "classic", "Empty", "consumer")
        ]
    (early,) = fake_cluster(api_versions={**old_versions, 68: (0, 0)})
    early.on(16, lambda r, s: {"errorCode": 0, "groups": [listed("g", "Empty")]})
    with Cluster(config_for(early)) as cluster:
        assert list_groups(cluster, cluster.deadline(WAIT_S), types=["classic"]) == []
        assert list_groups(cluster, cluster.deadline(WAIT_S))[0].type == "unknown"


def test_list_groups_retries_a_loading_coordinator(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    codes = [14, 0]
    broker.on(16, lambda r, s: {"errorCode": codes.pop(0), "groups": [listed("g")]})
    with Cluster(config_for(broker)) as cluster:
        assert [g.group_id for g in list_groups(cluster, cluster.deadline(WAIT_S))] == ["g"]


def test_list_groups_errors_name_the_broker(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(16, lambda r, s: {"errorCode": 31, "groups": []})
    with Cluster(config_for(broker)) as cluster, pytest.raises(Exception) as err:
        list_groups(cluster, cluster.deadline(WAIT_S))
    assert str(err.value) == f"ListGroups on {HOST}:{broker.port} (node 0) failed with CLUSTER_AUTHORIZATION_FAILED"


# --- DescribeGroups -------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(7))
def test_describe_groups_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 15: (0, version)})
    broker.on(15, describe_each("Empty", ""))
    with Cluster(config_for(broker)) as cluster:
        result = describe_classic_groups(cluster, ["a", "b"], cluster.deadline(WAIT_S))
    assert sorted(result) == ["a", "b"]
    (request,) = broker.requests_for(15)
    assert framing.frame(broker.raw_for(15)[0]) == kp.frame(
        "DescribeGroupsRequest",
        version,
        request.correlation_id,
        "groupctl",
        groups=["a", "b"],
        include_authorized_operations=False,
    )


def _kp_member_bytes(kp: Any) -> tuple[bytes, bytes]:
    from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment, ConsumerProtocolSubscription

    subscription = ConsumerProtocolSubscription(
        version=3,
        topics=["orders", "payments"],
        user_data=None,
        owned_partitions=[ConsumerProtocolSubscription.TopicPartition(topic="orders", partitions=[0])],
        generation_id=4,
        rack_id="rack-a",
    )
    assignment = ConsumerProtocolAssignment(
        version=0,
        assigned_partitions=[ConsumerProtocolAssignment.TopicPartition(topic="orders", partitions=[1, 0])],
        user_data=None,
    )
    return bytes(subscription.encode()), bytes(assignment.encode())


@pytest.mark.parametrize("version", range(7))
def test_describe_groups_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    cls = kp.cls["DescribeGroupsResponse"]
    metadata, assignment = _kp_member_bytes(kp)
    member = cls.DescribedGroup.DescribedGroupMember(
        member_id="m-1",
        group_instance_id="i-1",
        client_id="c",
        client_host="/10.0.0.1",
        member_metadata=metadata,
        member_assignment=assignment,
    )
    group = cls.DescribedGroup(
        error_code=0,
        error_message=None,
        group_id="orders-app",
        group_state="Stable",
        protocol_type="consumer",
        protocol_data="range",
        members=[member],
    )
    wire = kp.frame("DescribeGroupsResponse", version, 3, groups=[group])
    (info,) = parse_describe_groups(framing.decode_response(wire[4:], 15, version).body)
    g = info.described
    assert (g.group_id, g.group_state, g.protocol_data, info.exists) == ("orders-app", "Stable", "range", True)
    description = from_describe_groups(info)
    assert (description.type, description.assignor, description.protocol_type) == ("classic", "range", "consumer")
    (dm,) = description.members
    assert (dm.member_id, dm.host, dm.protocol, dm.rack) == ("m-1", "/10.0.0.1", "classic", "rack-a")
    assert dm.instance_id == ("i-1" if version >= 4 else None)
    assert dm.subscribed_topics == ["orders", "payments"]
    assert dm.assignment == [TopicPartition("orders", 1), TopicPartition("orders", 0)]  # the broker's order


def test_describe_groups_other_protocols_and_missing_groups() -> None:
    body = {
        "groups": [
            {
                "errorCode": 0,
                "groupId": "connect-x",
                "groupState": "Stable",
                "protocolType": "connect",
                "protocolData": "sessioned",
                "members": [
                    {
                        "memberId": "w",
                        "groupInstanceId": None,
                        "clientId": "c",
                        "clientHost": "h",
                        "memberMetadata": b"\x00\x01junk",
                        "memberAssignment": b"",
                    }
                ],
            },
            {
                "errorCode": 0,
                "groupId": "gone",
                "groupState": "Dead",
                "protocolType": "",
                "protocolData": "",
                "members": [],
            },
            {
                "errorCode": 69,
                "errorMessage": "Group gone2 not found.",
                "groupId": "gone2",
                "groupState": "Dead",
                "protocolType": "",
                "protocolData": "",
                "members": [],
            },
            {
                "errorCode": 0,
                "groupId": "joining",
                "groupState": "PreparingRebalance",
                "protocolType": "consumer",
                "protocolData": "",
                "members": [
                    {
                        "memberId": "m",
                        "groupInstanceId": None,
                        "clientId": "c",
                        "clientHost": "h",
                        "memberMetadata": b"",
                        "memberAssignment": b"",
                    }
                ],
            },
        ]
    }
    connect, gone, gone2, joining = parse_describe_groups(DescribeGroupsResponseData.from_dict(body))
    assert connect.described.members[0].member_metadata == b"\x00\x01junk"
    (worker,) = from_describe_groups(connect).members  # not the consumer protocol: its bytes are not decoded
    assert (worker.subscribed_topics, worker.rack, worker.assignment) == ([], None, [])
    assert not gone.exists and not gone2.exists and gone2.error_name == "GROUP_ID_NOT_FOUND"
    (member,) = from_describe_groups(joining).members  # empty bytes: no subscription, no assignment
    assert (member.subscribed_topics, member.rack, member.assignment) == ([], None, [])


# --- ConsumerGroupDescribe ------------------------------------------------------------------------


def _header(api_key: int, version: int, correlation_id: int, client_id: str) -> bytes:
    raw = client_id.encode()
    return struct.pack(">hhih", api_key, version, correlation_id, len(raw)) + raw + b"\x00"


@pytest.mark.parametrize("version", [0, 1])
def test_consumer_group_describe_known_bytes(fake_cluster: Any, config_for: Any, version: int) -> None:
    # kafka-python has no API 69: the bytes are checked by hand (flexible header v2, compact fields)
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 69: (0, version)})
    broker.on(
        69,
        lambda r, s: {
            "throttleTimeMs": 0,
            "groups": [
                {
                    "errorCode": 0,
                    "groupId": g,
                    "groupState": "Empty",
                    "groupEpoch": 1,
                    "assignmentEpoch": 1,
                    "assignorName": "uniform",
                    "members": [],
                }
                for g in r.body.group_ids
            ],
        },
    )
    with Cluster(config_for(broker)) as cluster:
        describe_consumer_groups(cluster, ["g"], cluster.deadline(WAIT_S))
    (request,) = broker.requests_for(69)
    body = bytes.fromhex("02 02 67 00 00")  # [g], IncludeAuthorizedOperations false, no tags
    assert framing.frame(broker.raw_for(69)[0]) == framing.frame(
        _header(69, version, request.correlation_id, "groupctl") + body
    )
    assert consumer_group_describe_request(version, ["g"]).to_dict() == {"groupIds": ["g"],
                                                                         "includeAuthorizedOperations": False}


@pytest.mark.parametrize("version", [0, 1])
def test_consumer_group_describe_response(version: int) -> None:
    assigned = {"topicPartitions": [{"topicId": TOPIC_ID, "topicName": "orders", "partitions": [0, 1]}]}
    target = {"topicPartitions": [{"topicId": TOPIC_ID, "topicName": "", "partitions": [1]}]}
    member = {
        "memberId": "m-1",
        "instanceId": "i-1",
        "rackId": "r",
        "memberEpoch": 7,
        "clientId": "c",
        "clientHost": "/h",
        "subscribedTopicNames": ["orders"],
        "subscribedTopicRegex": "ord.*",
        "assignment": assigned,
        "targetAssignment": target,
        "memberType": 0,
    }
    body = {
        "throttleTimeMs": 0,
        "groups": [
            {
                "errorCode": 0,
                "groupId": "g",
                "groupState": "Reconciling",
                "groupEpoch": 9,
                "assignmentEpoch": 8,
                "assignorName": "range",
                "members": [member],
            },
            {
                "errorCode": 69,
                "errorMessage": "Group c is not a consumer group.",
                "groupId": "c",
                "groupState": "",
                "groupEpoch": 0,
                "assignmentEpoch": 0,
                "assignorName": "",
                "members": [],
            },
        ],
    }
    wire = framing.encode_response(69, version, 1, ConsumerGroupDescribeResponseData.from_dict(body))
    info, c = parse_consumer_group_describe(framing.decode_response(wire[4:], 69, version).body)
    g = info.described
    assert (g.group_state, g.group_epoch, g.assignment_epoch, g.assignor_name) == ("Reconciling", 9, 8, "range")
    assert g.members[0].member_type == (0 if version else -1)
    assert (c.error_name, c.described.error_message) == ("GROUP_ID_NOT_FOUND", "Group c is not a consumer group.")
    d = from_consumer_group_describe(info)
    assert (d.type, d.group_epoch, d.assignment_epoch, d.assignor) == ("consumer", 9, 8, "range")
    (m,) = d.members
    assert (m.member_epoch, m.instance_id, m.rack, m.subscribed_regex) == (7, "i-1", "r", "ord.*")
    assert m.assignment == [TopicPartition("orders", 0), TopicPartition("orders", 1)]
    assert m.target_assignment == [TopicPartition("a6e4EJ2tEdGAtADAT9QwyA", 1)]  # no name: the topic id
    assert m.protocol == ("classic" if version else "consumer")
    assert not d.converged


@pytest.mark.parametrize(("types", "mixed"), [((0, 1), True), ((1, 1), False), ((0, 0), True), ((-1, -1), None),
                                             ((0, -1), True), ((), False)])
def test_a_consumer_group_describe_answer_says_whether_the_group_is_mixed(types, mixed) -> None:
    """MemberType 0 is a classic member; a v0 answer (-1, no MemberType) leaves it unknown."""
    members = [{"memberId": f"m{n}", "instanceId": None, "rackId": None, "memberEpoch": 1, "clientId": "c",
                "clientHost": "/h", "subscribedTopicNames": [], "subscribedTopicRegex": None,
                "assignment": {"topicPartitions": []}, "targetAssignment": {"topicPartitions": []}, "memberType": t}
               for n, t in enumerate(types)]
    body = {"groups": [{"errorCode": 0, "groupId": "cg", "groupState": "Stable", "groupEpoch": 1,
                        "assignmentEpoch": 1, "assignorName": "uniform", "members": members}]}
    assert parse_consumer_group_describe(ConsumerGroupDescribeResponseData.from_dict(body))[0].mixed is mixed


def test_consumer_group_describe_needs_api_69(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(api_versions=BASE_VERSIONS)
    with Cluster(config_for(broker)) as cluster, pytest.raises(UnsupportedApi) as err:
        describe_consumer_groups(cluster, ["g"], cluster.deadline(WAIT_S))
    assert str(err.value) == f"{HOST}:{broker.port} (node 0) has no ConsumerGroupDescribe (API 69)"


# --- LeaveGroup -----------------------------------------------------------------------------------

MEMBERS = [MemberIdentity(group_instance_id="i-1", reason="scale down"),
           MemberIdentity(member_id="m-2", reason="scale down")]


@pytest.mark.parametrize("version", [3, 4, 5])
def test_leave_group_bytes_equal_kafka_python(fake_cluster: Any, config_for: Any, kp: Any, version: int) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 13: (0, version)})
    broker.on(
        13,
        lambda r, s: LeaveGroupResponseData(
            error_code=0,
            members=[
                MemberResponse(member_id=m.member_id or "m-1", group_instance_id=m.group_instance_id, error_code=0)
                for m in r.body.members
            ],
        ),
    )
    with Cluster(config_for(broker)) as cluster:
        response, _ = leave_group(cluster, "orders", MEMBERS, cluster.deadline(WAIT_S))
    assert response.error_code == 0 and broker.requests_for(13)[0].api_version == version
    assert [(m.member_id, m.group_instance_id, error_name(m.error_code)) for m in response.members] == [
        ("m-1", "i-1", "NONE"),
        ("m-2", None, "NONE"),
    ]
    identity = kp.cls["LeaveGroupRequest"].MemberIdentity
    (request,) = broker.requests_for(13)
    assert framing.frame(broker.raw_for(13)[0]) == kp.frame(
        "LeaveGroupRequest",
        version,
        request.correlation_id,
        "groupctl",
        group_id="orders",
        members=[identity(member_id=m.member_id, group_instance_id=m.group_instance_id, reason="scale down")
                 for m in MEMBERS],
    )


@pytest.mark.parametrize("version", [3, 4, 5])
def test_leave_group_response_encoded_by_kafka_python(kp: Any, version: int) -> None:
    member = kp.cls["LeaveGroupResponse"].MemberResponse
    wire = kp.frame(
        "LeaveGroupResponse",
        version,
        1,
        error_code=0,
        members=[
            member(member_id="", group_instance_id="ghost", error_code=25),
            member(member_id="m", group_instance_id="i", error_code=0),
        ],
    )
    response = framing.decode_response(wire[4:], 13, version).body
    assert [(m.group_instance_id, error_name(m.error_code)) for m in response.members] == [
        ("ghost", "UNKNOWN_MEMBER_ID"),
        ("i", "NONE"),
    ]


def test_leave_group_reason_default_and_truncation() -> None:
    body = leave_group_request(5, "g", [MemberIdentity(group_instance_id="i")])
    assert body.members[0].reason == DEFAULT_LEAVE_REASON == "member was removed by an admin"
    long_reason = [MemberIdentity(group_instance_id="i", reason="x" * 300)]
    assert len(leave_group_request(5, "g", long_reason).members[0].reason) == 255
    assert leave_group_request(4, "g", [MemberIdentity(group_instance_id="i", reason="why")]).members[0].reason is None
    with pytest.raises(ValueError):
        leave_group_request(2, "g", [MemberIdentity(group_instance_id="i")])


def test_leave_group_on_an_old_broker(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster(api_versions={**BASE_VERSIONS, 13: (0, 2)})
    with Cluster(config_for(broker)) as cluster, pytest.raises(LeaveGroupUnsupported) as err:
        leave_group(cluster, "orders", [MemberIdentity(group_instance_id="i-1")], cluster.deadline(WAIT_S))
    assert str(err.value) == (
        f"{HOST}:{broker.port} (node 0): this broker's LeaveGroup is v2; removing members by group.instance.id "
        "needs Kafka 2.3+ (LeaveGroup v3)"
    )
    assert broker.requests_for(13) == []


def test_leave_group_retries_coordinator_errors_and_keeps_others(fake_cluster: Any, config_for: Any) -> None:
    (broker,) = fake_cluster()
    codes = [16, 14, 69]
    broker.on(13, lambda r, s: LeaveGroupResponseData(error_code=codes.pop(0)))
    with Cluster(config_for(broker)) as cluster:
        response, _ = leave_group(cluster, "gone", [MemberIdentity(group_instance_id="i-1")], cluster.deadline(WAIT_S))
    assert error_name(response.error_code) == "GROUP_ID_NOT_FOUND" and response.members == []
    assert len(broker.requests_for(13)) == 3 and len(broker.requests_for(10)) == 2
