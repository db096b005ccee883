"""DescribeConfigs and IncrementalAlterConfigs over loopback: GROUP configs as the local backend has them,
TOPIC and BROKER configs read-only, and Kafka's refusals."""

from __future__ import annotations

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ResourceType,
)

from groupctl.backends.kafka_configs import source_name
from groupctl.backends.local import LocalBackend
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.data.configs import (
    AlterableConfig,
    AlterConfigsResource,
    AlterConfigsResourceResponse,
    DescribeConfigsRequestData,
    DescribeConfigsResource,
    DescribeConfigsResourceResult,
    DescribeConfigsResult,
    IncrementalAlterConfigsRequestData,
)
from groupctl.protocol.data.topics import CreatableTopic, CreatableTopicConfig, CreateTopicsRequestData
from groupctl.server.server import ServerThread
from tests.server.frames import call
from tests.server.waits import WAIT_S

GROUP, TOPIC, BROKER, BROKER_LOGGER = 32, 2, 4, 8
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
SOURCE_NAMES = {1: "TOPIC_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG", 8: "DYNAMIC_GROUP_CONFIG"}


def describe(served: ServerThread, resource_type: int, name: str, keys: list[str] | None = None,
             version: int = 4, synonyms: bool = True) -> DescribeConfigsResult:
    body = DescribeConfigsRequestData(
        resources=[DescribeConfigsResource(resource_type=resource_type, resource_name=name, configuration_keys=keys)],
        include_synonyms=synonyms, include_documentation=False)
    (result,) = call(served, 32, version, body).results
    return result


def alter(served: ServerThread, resource_type: int, name: str, *changes: tuple[str, int, str | None],
          validate_only: bool = False, version: int = 1) -> AlterConfigsResourceResponse:
    configs = [AlterableConfig(name=n, config_operation=op, value=v) for n, op, v in changes]
    body = IncrementalAlterConfigsRequestData(
        resources=[AlterConfigsResource(resource_type=resource_type, resource_name=name, configs=configs)],
        validate_only=validate_only)
    (response,) = call(served, 44, version, body).responses
    return response


def configs_of(result: DescribeConfigsResult) -> dict[str, DescribeConfigsResourceResult]:
    return {c.name: c for c in result.configs}


def synonyms_of(config: DescribeConfigsResourceResult) -> list[dict]:
    return [synonym.to_dict() for synonym in config.synonyms]


def test_group_configs_match_the_local_backend(served: ServerThread) -> None:
    served.call(lambda b: b.coordinator.alter_configs("g", {"consumer.session.timeout.ms": "50000"}))
    result = describe(served, GROUP, "g")
    assert (result.error_code, result.resource_type, result.resource_name) == (0, GROUP, "g")
    wire = {c.name: (c.value, SOURCE_NAMES[c.config_source]) for c in result.configs}
    local = served.call(lambda b: {e.name: (str(e.value).lower() if isinstance(e.value, bool) else str(e.value),
                                            e.source) for e in b.backend.get_config("g")})
    assert wire == local
    assert wire["consumer.session.timeout.ms"] == ("50000", "DYNAMIC_GROUP_CONFIG")
    session = configs_of(result)["consumer.session.timeout.ms"]
    assert synonyms_of(session) == [
        {"name": "consumer.session.timeout.ms", "value": "50000", "source": 8},
        {"name": "group.consumer.session.timeout.ms", "value": "45000", "source": 5},
    ]
    assert (session.read_only, session.is_sensitive, session.config_type) == (False, False, 3)
    reset = configs_of(result)["share.auto.offset.reset"]
    assert synonyms_of(reset) == [{"name": "share.auto.offset.reset", "value": "latest", "source": 5}]


def test_describe_filters_by_name_and_omits_synonyms_unless_asked(served: ServerThread) -> None:
    result = describe(served, GROUP, "g", ["consumer.heartbeat.interval.ms", "no.such.name"], synonyms=False)
    assert [(c.name, c.value, c.synonyms) for c in result.configs] == [
        ("consumer.heartbeat.interval.ms", "5000", [])]
    v1 = describe(served, GROUP, "g", ["consumer.heartbeat.interval.ms"], version=1)
    assert [c.config_source for c in v1.configs] == [5]


@pytest.mark.parametrize(("resource_type", "name", "error", "message"), [
    (GROUP, "", "INVALID_REQUEST", "Group name must not be empty"),
    (TOPIC, "missing", "UNKNOWN_TOPIC_OR_PARTITION", None),
    (TOPIC, "bad/name", "INVALID_TOPIC_EXCEPTION",
     "Topic name \"bad/name\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"),
    (BROKER, "2", "INVALID_REQUEST", "Unexpected broker id, expected 1 or empty string, but received 2"),
    (BROKER, "one", "INVALID_REQUEST", "Broker id must be an integer, but it is: one"),
    (BROKER_LOGGER, "1", "INVALID_REQUEST", "groupctl serve does not describe BROKER_LOGGER configs"),
])
def test_describe_refusals(served: ServerThread, resource_type: int, name: str, error: str,
                           message: str | None) -> None:
    result = describe(served, resource_type, name)
    assert (result.error_code, result.error_message, result.configs) == (CODE[error], message, [])


def test_topic_configs_show_creation_overrides(served: ServerThread) -> None:
    created = call(served, 19, 7, CreateTopicsRequestData(
        topics=[CreatableTopic(name="t", num_partitions=1, replication_factor=1, assignments=[],
                               configs=[CreatableTopicConfig(name="retention.ms", value="1000")])],
        timeout_ms=1000, validate_only=False))
    assert created.topics[0].error_code == 0
    configs = configs_of(describe(served, TOPIC, "t"))
    retention = configs["retention.ms"]
    assert (retention.value, retention.config_source, retention.read_only) == ("1000", 1, True)
    assert synonyms_of(retention) == [{"name": "retention.ms", "value": "1000", "source": 1},
                                     {"name": "log.retention.hours", "value": "168", "source": 5}]
    assert (configs["segment.bytes"].value, configs["segment.bytes"].config_source) == ("1073741824", 5)


def test_broker_configs_include_the_coordinator_settings(served: ServerThread) -> None:
    configs = configs_of(describe(served, BROKER, "1"))
    assert configs["group.consumer.session.timeout.ms"].value == "45000"
    assert configs["group.consumer.min.session.timeout.ms"].value == "45000"
    assert configs["group.initial.rebalance.delay.ms"].value == "3000"
    assert configs["node.id"].value == "1"
    auto = configs["auto.create.topics.enable"]
    assert (auto.value, auto.config_source, auto.read_only) == ("false", 4, True)
    assert synonyms_of(auto) == [{"name": "auto.create.topics.enable", "value": "false", "source": 4},
                                {"name": "auto.create.topics.enable", "value": "true", "source": 5}]
    assert configs["socket.request.max.bytes"].value == str(100 * 1024 * 1024)
    assert describe(served, BROKER, "").configs == []


def test_alter_group_set_delete_and_validate_only(served: ServerThread) -> None:
    assert alter(served, GROUP, "g", ("consumer.session.timeout.ms", SET, "55000"),
                 validate_only=True).error_code == 0
    assert served.call(lambda b: b.coordinator.configs.overrides) == {}
    response = alter(served, GROUP, "g", ("consumer.session.timeout.ms", SET, "55000"),
                     ("consumer.heartbeat.interval.ms", SET, "6000"))
    assert (response.error_code, response.resource_type, response.resource_name) == (0, GROUP, "g")
    assert served.call(lambda b: b.coordinator.configs.overrides) == {
        "g": {"consumer.session.timeout.ms": 55000, "consumer.heartbeat.interval.ms": 6000}}
    assert alter(served, GROUP, "g", ("consumer.heartbeat.interval.ms", DELETE, None), version=0).error_code == 0
    assert served.call(lambda b: b.coordinator.configs.overrides) == {"g": {"consumer.session.timeout.ms": 55000}}


@pytest.mark.parametrize(("changes", "error", "message"), [
    ([("consumer.session.timeout.ms", SET, "30000")], "INVALID_CONFIG",
     "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
    ([("no.such.config", SET, "1")], "INVALID_CONFIG", "Unknown group config name: no.such.config"),
    ([("consumer.session.timeout.ms", SET, "soon")], "INVALID_CONFIG",
     "Invalid value soon for configuration consumer.session.timeout.ms: Not a number of type INT"),
    ([("consumer.session.timeout.ms", APPEND, "50000")], "INVALID_CONFIG",
     "Can't APPEND to key consumer.session.timeout.ms because its type is not LIST."),
    ([("consumer.heartbeat.interval.ms", SUBTRACT, "5000")], "INVALID_CONFIG",
     "Can't SUBTRACT to key consumer.heartbeat.interval.ms because its type is not LIST."),
    ([("consumer.session.timeout.ms", SET, None)], "INVALID_REQUEST",
     "Null value not supported for : consumer.session.timeout.ms"),
    ([("consumer.session.timeout.ms", SET, "50000"), ("consumer.session.timeout.ms", DELETE, None)],
     "INVALID_REQUEST", "Error due to duplicate config keys"),
])
def test_alter_group_refusals_change_nothing(served: ServerThread, changes: list, error: str, message: str) -> None:
    response = alter(served, GROUP, "g", *changes)
    assert (response.error_code, response.error_message) == (CODE[error], message)
    assert served.call(lambda b: b.coordinator.configs.overrides) == {}


@pytest.mark.parametrize(("resource_type", "name", "error", "message"), [
    (TOPIC, "t", "POLICY_VIOLATION",
     "groupctl serve keeps TOPIC configs read-only; only GROUP configs can be altered"),
    (BROKER, "1", "POLICY_VIOLATION",
     "groupctl serve keeps BROKER configs read-only; only GROUP configs can be altered"),
    (BROKER, "7", "INVALID_REQUEST", "Unexpected broker id, expected 1, but received 7"),
    (GROUP, "", "INVALID_CONFIG", "Default group resources are not allowed."),
    (99, "x", "INVALID_REQUEST", "Unknown resource type 99"),
])
def test_alter_other_resources_is_refused(served: ServerThread, resource_type: int, name: str, error: str,
                                          message: str) -> None:
    response = alter(served, resource_type, name, ("retention.ms", SET, "1000"))
    assert (response.error_code, response.error_message) == (CODE[error], message)


def test_a_resource_named_twice_is_refused(served: ServerThread) -> None:
    resource = AlterConfigsResource(resource_type=GROUP, resource_name="g", configs=[
        AlterableConfig(name="consumer.session.timeout.ms", config_operation=SET, value="50000")])
    body = IncrementalAlterConfigsRequestData(resources=[resource, resource], validate_only=False)
    responses = call(served, 44, 1, body).responses
    assert [(r.error_code, r.error_message) for r in responses] == [
        (CODE["INVALID_REQUEST"], "Each resource must appear at most once.")] * 2


def test_confluent_admin_group_configs_agree_with_the_local_backend(served: ServerThread) -> None:
    admin = AdminClient({"bootstrap.servers": served.bootstrap})
    setting = ConfigResource(ResourceType.GROUP, "orders-app", incremental_configs=[
        ConfigEntry("consumer.session.timeout.ms", "52000", incremental_operation=AlterConfigOpType.SET)])
    for future in admin.incremental_alter_configs([setting], validate_only=True).values():
        assert future.result(WAIT_S) is None
    assert served.call(lambda b: b.coordinator.configs.overrides) == {}
    for future in admin.incremental_alter_configs([setting]).values():
        assert future.result(WAIT_S) is None
    bad = ConfigResource(ResourceType.GROUP, "orders-app", incremental_configs=[
        ConfigEntry("consumer.session.timeout.ms", "1", incremental_operation=AlterConfigOpType.SET)])
    with pytest.raises(KafkaException, match="must be greater than or equal to"):
        next(iter(admin.incremental_alter_configs([bad]).values())).result(WAIT_S)
    (future,) = admin.describe_configs([ConfigResource(ResourceType.GROUP, "orders-app")]).values()
    described = future.result(WAIT_S)
    over_the_wire = {name: (entry.value, source_name(entry.source)) for name, entry in described.items()}
    assert described["consumer.session.timeout.ms"].synonyms["group.consumer.session.timeout.ms"].value == "45000"
    served.stop()
    with LocalBackend(served.server.options.directory) as local:
        entries = local.get_config("orders-app")
    in_the_dir = {e.name: (str(e.value).lower() if isinstance(e.value, bool) else str(e.value), e.source)
                  for e in entries}
    assert over_the_wire == in_the_dir
    assert in_the_dir["consumer.session.timeout.ms"] == ("52000", "DYNAMIC_GROUP_CONFIG")
