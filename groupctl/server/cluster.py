"""ApiVersions, Metadata, FindCoordinator and DescribeCluster: how a client finds its way around the
one-node cluster.

Node 1 leads every partition and coordinates every group. Topics are not created on demand (a
broker's `auto.create.topics.enable`): a client naming an unknown topic gets
UNKNOWN_TOPIC_OR_PARTITION until someone creates it (CreateTopics, `groupctl local topics create`).
"""

from __future__ import annotations

from groupctl.coordinator.topics import Topic
from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.protocol.data.api_versions import (
    ApiVersionsRequestData,
    ApiVersionsResponseData,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)
from groupctl.protocol.data.group_admin import Coordinator, FindCoordinatorRequestData, FindCoordinatorResponseData
from groupctl.protocol.data.metadata import (
    DescribeClusterBroker,
    DescribeClusterRequestData,
    DescribeClusterResponseData,
    MetadataRequestData,
    MetadataRequestTopic,
    MetadataResponseBroker,
    MetadataResponseData,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from groupctl.protocol.primitives import ZERO_UUID
from groupctl.server.dispatch import RequestContext, api_keys, handles

#: `group.version` 1 means the KIP-848 protocol is on (Kafka 4.0's default); clients look for it.
FEATURES = [("group.version", 0, 1)]
#: Kafka's AclOperation codes a superuser holds on a topic (READ..ALTER_CONFIGS, no ALL/ANY/UNKNOWN).
_TOPIC_OPERATIONS = (3, 4, 5, 6, 7, 8, 10, 11)
UNKNOWN_TOPIC = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_OR_PARTITION"]
UNKNOWN_TOPIC_ID = KAFKA_ERROR_CODES["UNKNOWN_TOPIC_ID"]
INVALID_REQUEST = KAFKA_ERROR_CODES["INVALID_REQUEST"]
COORDINATOR_NOT_AVAILABLE = KAFKA_ERROR_CODES["COORDINATOR_NOT_AVAILABLE"]
#: Kafka's AclOperation codes held on the cluster without an authorizer (CREATE, ALTER, DESCRIBE,
#: CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE).
_CLUSTER_OPERATIONS = (5, 7, 8, 9, 10, 11, 12)
#: DescribeCluster EndpointType (KIP-919): this listener is a broker endpoint.
ENDPOINT_BROKER, ENDPOINT_CONTROLLER = 1, 2
_ENDPOINT_NAMES = {ENDPOINT_BROKER: "BROKER", ENDPOINT_CONTROLLER: "CONTROLLER"}


@handles(18, range(0, 5))
async def api_versions(ctx: RequestContext, body: ApiVersionsRequestData) -> ApiVersionsResponseData:
    return ApiVersionsResponseData(
        error_code=0,
        api_keys=api_keys(),
        supported_features=[SupportedFeatureKey(name=n, min_version=lo, max_version=hi) for n, lo, hi in FEATURES],
        finalized_features_epoch=1,
        finalized_features=[FinalizedFeatureKey(name=n, max_version_level=hi, min_version_level=hi)
                            for n, _, hi in FEATURES],
    )


def partition_entries(topic: Topic) -> list[MetadataResponsePartition]:
    return [
        MetadataResponsePartition(error_code=0, partition_index=p, leader_id=1, leader_epoch=0, replica_nodes=[1],
                                  isr_nodes=[1], offline_replicas=[])
        for p in range(topic.partitions)
    ]


def topic_entry(topic: Topic, authorized_operations: bool) -> MetadataResponseTopic:
    return MetadataResponseTopic(
        error_code=0, name=topic.name, topic_id=topic.topic_id, is_internal=False,
        partitions=partition_entries(topic),
        topic_authorized_operations=sum(1 << op for op in _TOPIC_OPERATIONS) if authorized_operations
        else -2147483648,
    )


def _invalid_request_entry(wanted: MetadataRequestTopic) -> MetadataResponseTopic:
    """Kafka's answer to a v10/v11 request naming a topic by id: v12 is the first to look topics up by id
    (and to allow a null name in the answer), so every topic gets INVALID_REQUEST, a null name as ""."""
    return MetadataResponseTopic(error_code=INVALID_REQUEST, name=wanted.name or "", topic_id=wanted.topic_id,
                                 is_internal=False, partitions=[])


@handles(3)
async def metadata(ctx: RequestContext, body: MetadataRequestData) -> MetadataResponseData:
    broker = ctx.broker
    topics = broker.topics
    with_operations = body.include_topic_authorized_operations
    requested = body.topics
    if requested is None or (ctx.api_version == 0 and not requested):
        entries = [topic_entry(t, with_operations) for t in sorted(topics, key=lambda t: t.name)]
    elif ctx.api_version < 12 and any(w.name is None or w.topic_id != ZERO_UUID for w in requested):
        entries = [_invalid_request_entry(w) for w in requested]
    else:
        entries = []
        for wanted in requested:
            name, topic_id = wanted.name, wanted.topic_id
            topic = topics.get(name) if name is not None else topics.by_id(topic_id)
            if topic is not None:
                entries.append(topic_entry(topic, with_operations))
            elif name is not None:
                entries.append(MetadataResponseTopic(error_code=UNKNOWN_TOPIC, name=name, topic_id=ZERO_UUID,
                                                     partitions=[]))
            else:
                entries.append(MetadataResponseTopic(error_code=UNKNOWN_TOPIC_ID, name=None, topic_id=topic_id,
                                                     partitions=[]))
    listener = broker.listener
    return MetadataResponseData(
        brokers=[MetadataResponseBroker(node_id=broker.node_id, host=listener.host, port=listener.port, rack=None)],
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        topics=entries,
    )


def coordinator_entry(ctx: RequestContext, key: str, key_type: int) -> Coordinator:
    """Every group's coordinator is node 1; there is no transaction or share coordinator."""
    listener = ctx.broker.listener
    if key_type != 0:
        return Coordinator(key=key, node_id=-1, host="", port=-1, error_code=COORDINATOR_NOT_AVAILABLE,
                           error_message="groupctl serve has only a group coordinator")
    return Coordinator(key=key, node_id=ctx.broker.node_id, host=listener.host, port=listener.port,
                       error_code=0, error_message=None)


@handles(10)
async def find_coordinator(ctx: RequestContext, body: FindCoordinatorRequestData) -> FindCoordinatorResponseData:
    """v4+ answers each key in `coordinators`; before, the one key is answered in the top-level fields."""
    if ctx.api_version >= 4:
        return FindCoordinatorResponseData(
            coordinators=[coordinator_entry(ctx, key, body.key_type) for key in body.coordinator_keys])
    entry = coordinator_entry(ctx, body.key, body.key_type)
    return FindCoordinatorResponseData(error_code=entry.error_code, error_message=entry.error_message,
                                       node_id=entry.node_id, host=entry.host, port=entry.port)


def _endpoint_refusal(version: int, endpoint_type: int) -> DescribeClusterResponseData | None:
    """Kafka's answer when a client asks a broker listener for something other than the brokers."""
    if endpoint_type not in _ENDPOINT_NAMES:
        code, message = "UNSUPPORTED_ENDPOINT_TYPE", f"Unsupported endpoint type {endpoint_type}"
    elif endpoint_type != ENDPOINT_BROKER:
        code = "MISMATCHED_ENDPOINT_TYPE"
        message = ("The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type "
                   f"{_ENDPOINT_NAMES[endpoint_type]}")
    else:
        return None
    return DescribeClusterResponseData(error_code=KAFKA_ERROR_CODES["INVALID_REQUEST" if version == 0 else code],
                                       error_message=message, cluster_id="", brokers=[])


@handles(60)
async def describe_cluster(ctx: RequestContext, body: DescribeClusterRequestData) -> DescribeClusterResponseData:
    """The one broker, which is also the controller Kafka would report (a live broker's id)."""
    refusal = _endpoint_refusal(ctx.api_version, body.endpoint_type)
    if refusal is not None:
        return refusal
    broker = ctx.broker
    listener = broker.listener
    operations = -2147483648
    if body.include_cluster_authorized_operations:
        operations = sum(1 << op for op in _CLUSTER_OPERATIONS)
    return DescribeClusterResponseData(
        error_code=0, error_message=None, endpoint_type=ENDPOINT_BROKER, cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        brokers=[DescribeClusterBroker(broker_id=broker.node_id, host=listener.host, port=listener.port, rack=None,
                                       is_fenced=False)],
        cluster_authorized_operations=operations,
    )
