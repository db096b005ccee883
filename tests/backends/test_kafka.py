"""The Kafka backend against fake brokers: what `groupctl serve` cannot be made to do on demand.

A coordinator that moved, brokers without ConsumerGroupDescribe, without LeaveGroup v3 or without
ListGroups' filters, a LeaveGroup answer that leaves members out, and a broker that never answers.
The wire client talks to the fakes, and so does confluent-kafka (FindCoordinator, Metadata,
OffsetFetch, ListOffsets). Every failure is checked for its words and for the time it took.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from confluent_kafka.admin import ConfigEntry as LibrdkafkaEntry
from confluent_kafka.admin import ConfigSource

from groupctl.backends.kafka import KafkaBackend
from groupctl.backends.kafka_admin import AdminSession
from groupctl.backends.kafka_configs import config_entries
from groupctl.errors import GroupctlError
from groupctl.kafka.config import ClientConfig
from groupctl.kafka.groups import LeaveGroupUnsupported
from groupctl.model import ConfigEntry, TopicPartition
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from groupctl.protocol.data.group_admin import FindCoordinatorResponseData
from groupctl.protocol.data.groups import LeaveGroupResponseData, MemberIdentity, MemberResponse
from groupctl.protocol.data.offsets import (
    OffsetFetchResponseData,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from groupctl.protocol.data.records_apis import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponseData,
    ListOffsetsTopicResponse,
)
from tests.fake_broker import DEFAULT_VERSIONS, NO_REPLY, FakeBroker, coordinator_reply
from tests.server.waits import OUTLASTS_S, promptly

NOT_COORDINATOR = 16
UNKNOWN_MEMBER_ID = 25
GROUP_ID_NOT_FOUND = 69
#: A broker before KIP-848 (no ConsumerGroupHeartbeat/Describe), offsets fetched one group at a time.
OLD_VERSIONS = {k: v for k, v in DEFAULT_VERSIONS.items() if k not in (68, 69)} | {9: (1, 7)}


def backend(broker: FakeBroker, timeout: float = OUTLASTS_S) -> KafkaBackend:
    """The wire backend on `broker`; by default with a timeout no test waits out (see `promptly`)."""
    return KafkaBackend(ClientConfig.from_properties({"bootstrap.servers": broker.address}), timeout=timeout)


def coordinator_is(broker: FakeBroker) -> Any:
    """A FindCoordinator handler naming `broker`, at every version."""

    def find(request: Any, state: Any) -> FindCoordinatorResponseData:
        return coordinator_reply(request, broker.node_id, "127.0.0.1", broker.port)

    return find


def serves_offsets(broker: FakeBroker, committed: int = 5, end: int = 42) -> None:
    """OffsetFetch (orders-0 committed at `committed`) and ListOffsets (its end at `end`) on `broker`."""

    def fetch(request: Any, state: Any) -> OffsetFetchResponseData:
        if request.api_version >= 8:
            return OffsetFetchResponseData(groups=[OffsetFetchResponseGroup(group_id=g.group_id, error_code=0, topics=[
                OffsetFetchResponseTopics(name="orders", partitions=[OffsetFetchResponsePartitions(
                    partition_index=0, committed_offset=committed, committed_leader_epoch=-1, metadata="",
                    error_code=0)])]) for g in request.body.groups])
        return OffsetFetchResponseData(error_code=0, topics=[OffsetFetchResponseTopic(name="orders", partitions=[
            OffsetFetchResponsePartition(partition_index=0, committed_offset=committed, committed_leader_epoch=-1,
                                         metadata="", error_code=0)])])

    def list_offsets(request: Any, state: Any) -> ListOffsetsResponseData:
        return ListOffsetsResponseData(topics=[ListOffsetsTopicResponse(name=t.name, partitions=[
            ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=0, timestamp=-1, offset=end,
                                         leader_epoch=0)
            for p in t.partitions]) for t in request.body.topics])

    for b in broker.cluster:
        b.topics = {"orders": {0: broker.node_id}}
    broker.on(9, fetch)
    broker.on(2, list_offsets)


def consumer_group(group: str, instance: str = "pod-0") -> dict[str, Any]:
    """A KIP-848 group with one static member owning orders-0, as ConsumerGroupDescribe answers it."""
    owned = {"topicPartitions": [{"topicId": uuid.UUID(int=1), "topicName": "orders", "partitions": [0]}]}
    member = {"memberId": f"m-{instance}", "instanceId": instance, "rackId": None, "memberEpoch": 3,
              "clientId": "app", "clientHost": "/10.0.0.1", "subscribedTopicNames": ["orders"],
              "subscribedTopicRegex": None, "assignment": owned, "targetAssignment": owned, "memberType": 1}
    return {"errorCode": 0, "groupId": group, "groupState": "Stable", "groupEpoch": 3, "assignmentEpoch": 3,
            "assignorName": "uniform", "members": [member]}


def classic_group(group: str) -> dict[str, Any]:
    """A classic group with one static consumer owning orders-0, as DescribeGroups answers it."""
    member = {
        "memberId": "pod-0-1", "groupInstanceId": "pod-0", "clientId": "app", "clientHost": "/10.0.0.1",
        "memberMetadata": encode_subscription({"topics": ["orders"], "userData": None}, 0),
        "memberAssignment": encode_assignment(
            {"assignedPartitions": [{"topic": "orders", "partitions": [0]}], "userData": None}, 0),
    }
    return {"errorCode": 0, "groupId": group, "groupState": "Stable", "protocolType": "consumer",
            "protocolData": "range", "members": [member]}


def test_a_coordinator_that_moved_is_found_again(fake_cluster: Any) -> None:
    b0, b1 = fake_cluster(2)
    lookups: list[int] = []
    on_b0, on_b1 = coordinator_is(b0), coordinator_is(b1)

    def find(request: Any, state: Any) -> dict[str, Any]:
        lookups.append(len(lookups))
        return (on_b0 if len(lookups) == 1 else on_b1)(request, state)

    for b in (b0, b1):
        b.on(10, find)
    b0.on(69, lambda r, s: {"groups": [{"errorCode": NOT_COORDINATOR, "groupId": g} for g in r.body.group_ids]})
    b1.on(69, lambda r, s: {"groups": [consumer_group(g) for g in r.body.group_ids]})
    serves_offsets(b1)
    with promptly("NOT_COORDINATOR is an answer, not the timeout waited out"), backend(b0) as kafka:
        (desc,) = kafka.describe_groups(["shop"])
    assert desc.coordinator == f"127.0.0.1:{b1.port} (1)"
    assert (desc.type, desc.state, desc.group_epoch) == ("consumer", "Stable", 3)
    assert [(o.topic, o.partition, o.offset, o.log_end_offset, o.lag) for o in desc.offsets] == [
        ("orders", 0, 5, 42, 37)]
    assert len(b0.requests_for(69)) == 1 and len(b1.requests_for(69)) == 1


def test_a_broker_without_consumer_group_describe_gets_described_with_describe_groups(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions=OLD_VERSIONS)
    broker.on(15, lambda r, s: {"groups": [classic_group(g) for g in r.body.groups]})
    serves_offsets(broker)
    with promptly("a missing API is known from ApiVersions, not the timeout waited out"), backend(broker) as kafka:
        (desc,) = kafka.describe_groups(["shop"])
        notices = list(kafka.notices)
    assert broker.requests_for(69) == []
    assert (desc.type, desc.assignor, desc.coordinator) == ("classic", "range", f"{broker.address} (0)")
    assert [(m.instance_id, m.assignment) for m in desc.members] == [("pod-0", [TopicPartition("orders", 0)])]
    (notice,) = notices
    assert notice.startswith(f"{broker.address} (node 0) has no ConsumerGroupDescribe (API 69)")
    assert "showing classic fields only" in notice


def test_a_classic_group_is_described_with_describe_groups_after_group_id_not_found(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(69, lambda r, s: {"groups": [{"errorCode": GROUP_ID_NOT_FOUND, "groupId": g}
                                           for g in r.body.group_ids]})
    broker.on(15, lambda r, s: {"groups": [classic_group(g) for g in r.body.groups]})
    serves_offsets(broker)
    with backend(broker) as kafka:
        (desc,) = kafka.describe_groups(["shop"])
        assert kafka.notices == []
    assert desc.type == "classic" and len(broker.requests_for(69)) == len(broker.requests_for(15)) == 1


def test_leave_group_before_v3_is_refused_in_words(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions=OLD_VERSIONS | {13: (0, 2)})
    broker.on(15, lambda r, s: {"groups": [classic_group(g) for g in r.body.groups]})
    with promptly("an old LeaveGroup is known from ApiVersions, not the timeout waited out"), \
            backend(broker) as kafka, pytest.raises(LeaveGroupUnsupported) as failure:
        kafka.remove_members("shop", [MemberIdentity(group_instance_id="pod-0")])
    assert str(failure.value) == (f"{broker.address} (node 0): this broker's LeaveGroup is v2; removing members by "
                                  "group.instance.id needs Kafka 2.3+ (LeaveGroup v3)")
    assert broker.requests_for(13) == []


def test_removal_results_per_member(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(69, lambda r, s: {"groups": [consumer_group(g) for g in r.body.group_ids]})
    broker.on(13, lambda r, s: LeaveGroupResponseData(error_code=0, members=[
        MemberResponse(group_instance_id="pod-0", error_code=0),
        MemberResponse(group_instance_id="pod-9", error_code=UNKNOWN_MEMBER_ID),
    ]))  # and not a word about pod-7
    with backend(broker) as kafka:
        results = kafka.remove_members("shop", [MemberIdentity(group_instance_id=i, reason="scale down")
                                                 for i in ("pod-0", "pod-9", "pod-7")])
    assert [(r.instance_id, r.member_id, r.outcome, r.partitions) for r in results] == [
        ("pod-0", "m-pod-0", "removed", [TopicPartition("orders", 0)]),
        ("pod-9", None, "UNKNOWN_MEMBER_ID", []),
        ("pod-7", None, "UNKNOWN_SERVER_ERROR", []),
    ]
    assert results[1].message == "The coordinator is not aware of this member."
    assert results[2].message == "the coordinator's LeaveGroup answer did not mention this member"
    (leave,) = broker.requests_for(13)
    assert [(m.group_instance_id, m.reason) for m in leave.body.members] == [
        ("pod-0", "scale down"), ("pod-9", "scale down"), ("pod-7", "scale down")]


def test_list_groups_without_type_filter_on_a_broker_without_kip_848(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions=OLD_VERSIONS | {16: (0, 4)})
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [
        {"groupId": "shop", "protocolType": "consumer", "groupState": "Stable"}]})
    with backend(broker) as kafka:
        assert [(g.group_id, g.type) for g in kafka.list_groups(types=["classic"])] == [("shop", "classic")]
        assert kafka.list_groups(types=["consumer"]) == []
        assert all("groupctl applied --type itself" in n for n in kafka.notices) and len(kafka.notices) == 2
    assert all(r.api_version < 5 and r.body.types_filter == [] for r in broker.requests_for(16))  # none carried


def test_list_groups_type_filter_is_refused_where_types_are_unknown(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions={**DEFAULT_VERSIONS, 16: (0, 4)})
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [
        {"groupId": "shop", "protocolType": "consumer", "groupState": "Stable"}]})
    with backend(broker) as kafka:
        with pytest.raises(GroupctlError, match=r"--type cannot be applied to its groups; list without --type"):
            kafka.list_groups(types=["consumer"])
        assert [(g.group_id, g.type) for g in kafka.list_groups()] == [("shop", "unknown")]
        assert kafka.notices == [f"{broker.address} (node 0) answers ListGroups v4 only (group types need v5, Kafka "
                                 "3.8+): the type of its groups is unknown"]


def test_list_groups_state_filter_applied_by_groupctl_before_v4(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions=OLD_VERSIONS | {16: (0, 3)})
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [
        {"groupId": "shop", "protocolType": "consumer"}, {"groupId": "idle", "protocolType": "consumer"}]})
    broker.on(15, lambda r, s: {"groups": [{**classic_group(g), "groupState": "Stable" if g == "shop" else "Empty"}
                                           for g in r.body.groups]})
    with backend(broker) as kafka:
        assert [g.group_id for g in kafka.list_groups(states=["Empty"])] == ["idle"]
        (notice,) = kafka.notices
    assert "no state filter before v4" in notice and "applied --state itself" in notice


GROUP_AUTHORIZATION_FAILED = 30


def lists(broker: FakeBroker, groups: dict[str, str]) -> None:
    """ListGroups v5 on `broker`: group id -> type, every group Stable, protocol type consumer."""
    broker.on(16, lambda r, s: {"errorCode": 0, "groups": [
        {"groupId": g, "protocolType": "consumer", "groupState": "Stable", "groupType": t}
        for g, t in groups.items()]})


def with_member_types(group: str, *types: int) -> dict[str, Any]:
    """`consumer_group(group)` with one member per MemberType given (0 classic, 1 consumer)."""
    answer = consumer_group(group)
    (member,) = answer["members"]
    answer["members"] = [{**member, "memberId": f"m-{n}", "instanceId": None, "memberType": t}
                         for n, t in enumerate(types)]
    return answer


def test_list_groups_tells_mixed_consumer_groups_with_one_describe_when_asked(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    lists(broker, {"upgrading": "consumer", "modern": "consumer", "locked": "consumer", "old": "classic"})
    answers = {"upgrading": with_member_types("upgrading", 0, 1), "modern": with_member_types("modern", 1, 1),
               "locked": {"errorCode": GROUP_AUTHORIZATION_FAILED, "errorMessage": None, "groupId": "locked"}}
    broker.on(69, lambda r, s: {"groups": [answers[g] for g in r.body.group_ids]})
    with backend(broker) as kafka:
        plain = {g.group_id: g.mixed for g in kafka.list_groups()}
        assert broker.requests_for(69) == []  # not asked: ListGroups alone, nothing described
        assert plain == {"locked": None, "modern": None, "old": False, "upgrading": None}
        asked = {g.group_id: g.mixed for g in kafka.list_groups(mixed=True)}
        notices = list(kafka.notices)
    assert asked == {"locked": None, "modern": False, "old": False, "upgrading": True}
    (request,) = broker.requests_for(69)  # one batch, consumer groups only
    assert sorted(request.body.group_ids) == ["locked", "modern", "upgrading"]
    assert notices == ["ConsumerGroupDescribe failed for 'locked' (GROUP_AUTHORIZATION_FAILED): whether those "
                       "groups are mixed is unknown (MIXED left empty)"]


def test_a_describe_that_never_answers_leaves_mixed_unknown_within_the_timeout(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    lists(broker, {"upgrading": "consumer", "old": "classic"})
    broker.on(69, lambda r, s: NO_REPLY)
    with promptly("the listing's 1.5 s timeout"), backend(broker, timeout=1.5) as kafka:
        listed = {g.group_id: g.mixed for g in kafka.list_groups(mixed=True)}
        (notice,) = kafka.notices
    assert len(broker.requests_for(69)) == 1  # asked once, within the listing's own timeout: not one more
    assert listed == {"old": False, "upgrading": None}
    assert notice.startswith("whether the consumer groups are mixed is unknown (MIXED left empty): ")
    assert "timed out" in notice


def test_a_broker_without_consumer_group_describe_lists_without_mixed(fake_cluster: Any) -> None:
    (broker,) = fake_cluster(api_versions={k: v for k, v in DEFAULT_VERSIONS.items() if k != 69})
    lists(broker, {"upgrading": "consumer"})
    with backend(broker) as kafka:
        assert [g.mixed for g in kafka.list_groups(mixed=True)] == [None]
        (notice,) = kafka.notices
    assert "has no ConsumerGroupDescribe (API 69)" in notice and "MIXED left empty" in notice


def test_a_broker_that_never_answers_offset_fetch_costs_the_timeout(fake_cluster: Any) -> None:
    (broker,) = fake_cluster()
    broker.on(9, lambda r, s: NO_REPLY)
    with promptly("the 1.5 s timeout"), backend(broker, timeout=1.5) as kafka, pytest.raises(GroupctlError) as failure:
        kafka.committed_offsets("shop")
    assert str(failure.value).startswith(f"OffsetFetch for group 'shop' on {broker.address} timed out after 1.5 s")
    assert "--timeout" in str(failure.value)


def vanishes(broker: FakeBroker) -> Any:
    """A handler that stops `broker` (its listener closes: reconnects are refused) and answers nothing."""

    def handle(request: Any, state: Any) -> None:
        threading.Thread(target=broker.stop).start()

    return handle


@pytest.mark.parametrize(("api_key", "what", "cause", "call"), [
    # confluent-kafka fails the OffsetFetch in flight with the lost connection itself
    (9, "OffsetFetch for group 'shop'", "Broker transport failure", lambda kafka: kafka.committed_offsets("shop")),
    (3, "Metadata", "every broker is down", lambda kafka: kafka.list_topics()),
])
def test_a_broker_that_goes_away_mid_command_fails_at_once_naming_it(
    fake_cluster: Any, api_key: int, what: str, cause: str, call: Any
) -> None:
    (broker,) = fake_cluster()
    broker.on(api_key, vanishes(broker))
    with promptly("librdkafka's ALL_BROKERS_DOWN, not the timeout waited out"), backend(broker) as kafka, \
            pytest.raises(GroupctlError) as failure:
        call(kafka)
    message = str(failure.value)
    assert message.startswith(f"{what} on {broker.address} failed: ")
    assert "timed out" not in message
    assert cause in message
    if api_key == 3:  # groupctl asks again after the lost connection, and meets the refused reconnects
        assert "every broker is down; librdkafka reported: " in message
        assert f"Connect to ipv4#{broker.address} failed: Connection refused" in message


def test_config_rows_from_describe_configs() -> None:
    def entry(name: str, value: str, source: ConfigSource, *synonyms: tuple[str, str, ConfigSource]) -> LibrdkafkaEntry:
        chain = {n: LibrdkafkaEntry(n, v, source=s) for n, v, s in synonyms}
        return LibrdkafkaEntry(name, value, source=source, synonyms=chain)

    described = {
        "newer.group.config": entry("newer.group.config", "7", ConfigSource.DEFAULT_CONFIG),
        "consumer.session.timeout.ms": entry(
            "consumer.session.timeout.ms", "50000", ConfigSource.GROUP_CONFIG,
            ("consumer.session.timeout.ms", "50000", ConfigSource.GROUP_CONFIG),
            ("group.consumer.session.timeout.ms", "45000", ConfigSource.STATIC_BROKER_CONFIG)),
    }
    broker = {"group.consumer.min.session.timeout.ms": "30000", "group.consumer.max.session.timeout.ms": "90000"}
    assert config_entries(described, broker) == [
        ConfigEntry("consumer.session.timeout.ms", 50000, 45000, "DYNAMIC_GROUP_CONFIG", 30000, 90000,
                    "group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms"),
        ConfigEntry("newer.group.config", "7", "7", "DEFAULT_CONFIG"),
    ]
    (unbounded, _) = config_entries(described, None)
    assert (unbounded.minimum, unbounded.maximum) == (None, None)


def test_a_kafka_4_3_share_config_shows_typed_with_its_broker_bounds() -> None:
    described = {"share.delivery.count.limit": LibrdkafkaEntry(
        "share.delivery.count.limit", "5", source=ConfigSource.DEFAULT_CONFIG), "share.renew.acknowledge.enable":
        LibrdkafkaEntry("share.renew.acknowledge.enable", "true", source=ConfigSource.DEFAULT_CONFIG)}
    broker = {"group.share.min.delivery.count.limit": "2", "group.share.max.delivery.count.limit": "10"}
    assert config_entries(described, broker) == [
        ConfigEntry("share.delivery.count.limit", 5, 5, "DEFAULT_CONFIG", 2, 10,
                    "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit"),
        ConfigEntry("share.renew.acknowledge.enable", True, True, "DEFAULT_CONFIG"),
    ]


@pytest.mark.parametrize(("given", "passed"), [
    ({}, "5000"),  # groupctl's default setup bound, for both clients
    ({"socket.connection.setup.timeout.ms": "300"}, "1000"),  # librdkafka's floor
    ({"socket.connection.setup.timeout.ms": "12000"}, "12000"),
])
def test_confluent_kafka_gets_the_same_connection_setup_bound(monkeypatch: pytest.MonkeyPatch, given: dict,
                                                                passed: str) -> None:
    made: list[dict] = []
    monkeypatch.setattr("confluent_kafka.admin.AdminClient", lambda props: made.append(props) or object())
    config = ClientConfig.from_properties({"bootstrap.servers": "127.0.0.1:9", **given})
    AdminSession(config, "127.0.0.1:9").client()
    (props,) = made
    assert props["socket.connection.setup.timeout.ms"] == passed
