"""DescribeConfigs and IncrementalAlterConfigs: GROUP configs read and changed, TOPIC and BROKER read.

GROUP (resource type 32) is the coordinator's own: DescribeConfigs shows every group config with
its effective value, its source and Kafka's synonym chain (the group's override, then the broker's
`group.*` setting, then that setting's default), and IncrementalAlterConfigs SET/DELETE goes
through the coordinator's validation (`coordinator/configs.py`), so the INVALID_CONFIG messages
are Kafka's and `validateOnly` checks without changing. APPEND and SUBTRACT are refused as Kafka
refuses them for a config that is not a list.

TOPIC and BROKER configs are described (see `config_catalog`) but never altered: a change is
refused with POLICY_VIOLATION and a message that says so, since nothing here would honour it.
BROKER_LOGGER and CLIENT_METRICS resources are not served.
"""

from __future__ import annotations

from collections import Counter

from groupctl.coordinator.configs import BROKER_DEFAULTS, GROUP_CONFIGS
from groupctl.coordinator.coordinator import CLASSIC_DEFAULTS
from groupctl.coordinator.runtime import DEFAULT_MIGRATION_POLICY
from groupctl.coordinator.topics import validate_topic_name
from groupctl.errors import KafkaError
from groupctl.model import SOURCE_DEFAULT, SOURCE_GROUP, SOURCE_STATIC_BROKER
from groupctl.protocol.data.configs import (
    AlterableConfig,
    AlterConfigsResource,
    AlterConfigsResourceResponse,
    DescribeConfigsRequestData,
    DescribeConfigsResourceResult,
    DescribeConfigsResponseData,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
    IncrementalAlterConfigsRequestData,
    IncrementalAlterConfigsResponseData,
)
from groupctl.server.broker import Broker
from groupctl.server.config_catalog import (
    SOURCE_IDS,
    TYPE_IDS,
    Entry,
    broker_entries,
    broker_settings,
    read_topic_overrides,
    topic_entries,
)
from groupctl.server.dispatch import RequestContext, handles

TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP = 2, 4, 8, 16, 32
RESOURCE_NAMES = {TOPIC: "TOPIC", BROKER: "BROKER", BROKER_LOGGER: "BROKER_LOGGER", CLIENT_METRICS: "CLIENT_METRICS",
                  GROUP: "GROUP"}
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
OPERATION_NAMES = {SET: "SET", DELETE: "DELETE", APPEND: "APPEND", SUBTRACT: "SUBTRACT"}
#: Kafka's defaults for the broker settings this server reports beside the group coordinator's.
KAFKA_BROKER_DEFAULTS: dict[str, object | None] = {
    "node.id": None, "process.roles": None, "listeners": "PLAINTEXT://:9092", "advertised.listeners": None,
    "log.dirs": None, "auto.create.topics.enable": True, "delete.topic.enable": True, "num.partitions": 1,
    "default.replication.factor": 1, "min.insync.replicas": 1, "offsets.topic.num.partitions": 50,
    "offsets.topic.replication.factor": 3, "offsets.retention.minutes": 10080, "message.max.bytes": 1048588,
    "log.retention.hours": 168, "log.segment.bytes": 1073741824, "compression.type": "producer",
    "socket.request.max.bytes": 104857600, "max.connections": 2147483647, "connections.max.idle.ms": 600000,
    "sasl.enabled.mechanisms": "GSSAPI", "group.coordinator.rebalance.protocols": "classic,consumer",
    "group.consumer.assignors": "uniform,range", "group.consumer.migration.policy": DEFAULT_MIGRATION_POLICY,
    **CLASSIC_DEFAULTS, **BROKER_DEFAULTS,
}
#: Broker config types that the value alone does not tell (the rest: bool, int, else string).
_BROKER_TYPES = {
    "process.roles": "LIST", "default.replication.factor": "SHORT", "offsets.topic.replication.factor": "SHORT",
    "connections.max.idle.ms": "LONG", "sasl.enabled.mechanisms": "LIST",
    "group.coordinator.rebalance.protocols": "LIST", "group.consumer.assignors": "LIST",
}


def _text(value: object) -> str | None:
    """ConfigDef.convertToString."""
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def group_entries(broker: Broker, group_id: str) -> list[Entry]:
    """Every group config of `group_id` with Kafka's synonyms: the override, then the broker's
    `group.<name>` setting (explicit, then default), or the config's own default where the broker
    has no such setting."""
    if not group_id:
        raise KafkaError("INVALID_REQUEST", "Group name must not be empty")
    configs = broker.backend.configs
    out = []
    for value in broker.coordinator.describe_configs(group_id):
        key = GROUP_CONFIGS[value.name]
        synonyms: list[tuple[str, str | None, str]] = []
        if value.source == SOURCE_GROUP:
            synonyms.append((value.name, _text(value.value), SOURCE_GROUP))
        if key.broker_default:
            if key.broker_default in configs.explicit_broker:
                synonyms.append((key.broker_default, _text(configs.broker[key.broker_default]), SOURCE_STATIC_BROKER))
            synonyms.append((key.broker_default, _text(BROKER_DEFAULTS[key.broker_default]), SOURCE_DEFAULT))
        elif key.default is not None:
            synonyms.append((value.name, _text(key.default), SOURCE_DEFAULT))
        out.append(Entry(value.name, _text(value.value), value.source, key.type, False, tuple(synonyms)))
    return out


def broker_values(broker: Broker) -> dict[str, object]:
    """The settings this server runs with, under Kafka's broker config names."""
    options, listener = broker.options, broker.listener
    limits = options.limits
    values: dict[str, object] = {
        "node.id": broker.node_id,
        "process.roles": "broker,controller",
        "listeners": f"{listener.protocol}://{options.host}:{listener.port}",
        "advertised.listeners": str(listener),
        "log.dirs": str(broker.directory),
        "auto.create.topics.enable": False,
        "delete.topic.enable": False,
        "num.partitions": 1,
        "default.replication.factor": 1,
        "min.insync.replicas": 1,
        "offsets.topic.num.partitions": 1,
        "offsets.topic.replication.factor": 1,
        "offsets.retention.minutes": 10080,
        "message.max.bytes": 1048588,
        "log.retention.hours": 168,
        "log.segment.bytes": 1073741824,
        "compression.type": "producer",
        "socket.request.max.bytes": limits.max_request_bytes,
        "max.connections": limits.max_connections,
        "connections.max.idle.ms": int(limits.idle_timeout_s * 1000),
        "group.coordinator.rebalance.protocols": "classic,consumer",
        **broker.coordinator.group_broker_settings(),
    }
    if options.sasl_mechanisms:
        values["sasl.enabled.mechanisms"] = ",".join(options.sasl_mechanisms)
    return values


def describe_entries(broker: Broker, resource_type: int, name: str) -> list[Entry]:
    """The configs of one resource, or the KafkaError Kafka answers it with."""
    if resource_type == GROUP:
        return group_entries(broker, name)
    if resource_type == TOPIC:
        validate_topic_name(name)
        if name not in broker.topics:
            raise KafkaError("UNKNOWN_TOPIC_OR_PARTITION", None)
        return topic_entries(read_topic_overrides(broker.directory).get(name, {}))
    if resource_type == BROKER:
        if not name:
            return []
        _check_broker_id(broker, name, "Broker id must be an integer, but it is: {name}",
                         "Unexpected broker id, expected {node} or empty string, but received {name}")
        settings = broker_settings(broker_values(broker), KAFKA_BROKER_DEFAULTS, _BROKER_TYPES)
        return broker_entries(settings)
    if resource_type in RESOURCE_NAMES:
        raise KafkaError("INVALID_REQUEST",
                         f"groupctl serve does not describe {RESOURCE_NAMES[resource_type]} configs")
    raise KafkaError("INVALID_REQUEST", f"Unexpected resource type UNKNOWN for resource {name}")


def _check_broker_id(broker: Broker, name: str, not_int: str, other: str) -> None:
    try:
        node = int(name)
    except ValueError:
        raise KafkaError("INVALID_REQUEST", not_int.format(name=name)) from None
    if node != broker.node_id:
        raise KafkaError("INVALID_REQUEST", other.format(node=broker.node_id, name=name))


def _entry_result(entry: Entry, synonyms: bool) -> DescribeConfigsResourceResult:
    return DescribeConfigsResourceResult(
        name=entry.name, value=entry.value, read_only=entry.read_only,
        config_source=SOURCE_IDS[entry.source], is_sensitive=False,
        synonyms=[DescribeConfigsSynonym(name=n, value=v, source=SOURCE_IDS[s]) for n, v, s in entry.synonyms]
        if synonyms else [],
        config_type=TYPE_IDS.get(entry.type, 0), documentation=None,
    )


@handles(32)
async def describe_configs(ctx: RequestContext, body: DescribeConfigsRequestData) -> DescribeConfigsResponseData:
    results = []
    for resource in body.resources:
        resource_type, name = resource.resource_type, resource.resource_name
        wanted = set(resource.configuration_keys or ())
        result = DescribeConfigsResult(resource_type=resource_type, resource_name=name, error_code=0,
                                       error_message=None)
        try:
            entries = describe_entries(ctx.broker, resource_type, name)
        except KafkaError as exc:
            result.error_code, result.error_message = exc.code, exc.message
        else:
            result.configs = [_entry_result(e, body.include_synonyms) for e in entries
                              if not wanted or e.name in wanted]
        results.append(result)
    return DescribeConfigsResponseData(throttle_time_ms=0, results=results)


def alter_group(broker: Broker, name: str, changes: list[AlterableConfig], validate_only: bool) -> bool:
    """SET/DELETE on a GROUP resource through the coordinator; True when something changed."""
    set_values: dict[str, object] = {}
    delete: list[str] = []
    for change in changes:
        operation, key = change.config_operation, change.name
        if operation in (APPEND, SUBTRACT):
            raise KafkaError("INVALID_CONFIG",
                             f"Can't {OPERATION_NAMES[operation]} to key {key} because its type is not LIST.")
        if operation == SET:
            set_values[key] = change.value
        elif operation == DELETE:
            delete.append(key)
        else:
            raise KafkaError("INVALID_REQUEST", f"Unknown operation type {operation}")
    broker.coordinator.alter_configs(name, set_values, delete, validate_only=validate_only)
    return not validate_only


def alter_resource(broker: Broker, resource: AlterConfigsResource, validate_only: bool) -> bool:
    """One resource of an IncrementalAlterConfigs request, with Kafka's preprocessing checks first."""
    resource_type, name = resource.resource_type, resource.resource_name
    changes = resource.configs
    if any(count > 1 for count in Counter(c.name for c in changes).values()):
        raise KafkaError("INVALID_REQUEST", "Error due to duplicate config keys")
    nulls = [c.name for c in changes if c.config_operation != DELETE and c.value is None]
    if nulls:
        raise KafkaError("INVALID_REQUEST", "Null value not supported for : " + ", ".join(nulls))
    if resource_type == GROUP:
        return alter_group(broker, name, changes, validate_only)
    if resource_type == BROKER and name:
        _check_broker_id(broker, name, "Node id must be an integer, but it is: {name}",
                         "Unexpected broker id, expected {node}, but received {name}")
    if resource_type in RESOURCE_NAMES:
        raise KafkaError("POLICY_VIOLATION",
                         f"groupctl serve keeps {RESOURCE_NAMES[resource_type]} configs read-only; only GROUP "
                         "configs can be altered")
    raise KafkaError("INVALID_REQUEST", f"Unknown resource type {resource_type}")


@handles(44)
async def incremental_alter_configs(
    ctx: RequestContext, body: IncrementalAlterConfigsRequestData
) -> IncrementalAlterConfigsResponseData:
    resources = body.resources
    seen = Counter((r.resource_type, r.resource_name) for r in resources)
    responses = []
    changed = False
    for resource in resources:
        response = AlterConfigsResourceResponse(resource_type=resource.resource_type,
                                                resource_name=resource.resource_name, error_code=0,
                                                error_message=None)
        try:
            if seen[(resource.resource_type, resource.resource_name)] > 1:
                raise KafkaError("INVALID_REQUEST", "Each resource must appear at most once.")
            changed |= alter_resource(ctx.broker, resource, body.validate_only)
        except KafkaError as exc:
            response.error_code, response.error_message = exc.code, exc.message
        responses.append(response)
    if changed:
        ctx.broker.save()
    return IncrementalAlterConfigsResponseData(throttle_time_ms=0, responses=responses)
