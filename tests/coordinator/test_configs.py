"""Group configs: Kafka 4.0-4.3 validation (merged with the broker's values) and its messages."""

from __future__ import annotations

import pytest

from groupctl.coordinator.configs import GROUP_CONFIGS, KNOWN_CONFIGS, GroupConfigs, parse_value
from groupctl.errors import KafkaError


def error(configs: GroupConfigs, **changes: object) -> str:
    with pytest.raises(KafkaError) as info:
        configs.alter("g", {k.replace("_", "."): v for k, v in changes.items()})
    assert info.value.name == "INVALID_CONFIG"
    return info.value.message


def test_bounds_and_messages() -> None:
    c = GroupConfigs()
    assert error(c, consumer_session_timeout_ms=44_999) == (
        "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
    )
    assert error(c, consumer_session_timeout_ms=60_001) == (
        "consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms"
    )
    assert error(c, consumer_heartbeat_interval_ms=4_000) == (
        "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"
    )
    assert error(c, consumer_heartbeat_interval_ms=0) == (
        "Invalid value 0 for configuration consumer.heartbeat.interval.ms: Value must be at least 1"
    )
    assert error(c, consumer_heartbeat_interval_ms="soon") == (
        "Invalid value soon for configuration consumer.heartbeat.interval.ms: Not a number of type INT"
    )
    with pytest.raises(KafkaError) as info:
        c.alter("g", {"group.consumer.session.timeout.ms": 50_000})
    assert info.value.message == "Unknown group config name: group.consumer.session.timeout.ms"
    assert c.overrides == {}


def test_cross_field_rule_uses_the_brokers_values_for_the_other_key() -> None:
    c = GroupConfigs({"group.consumer.min.session.timeout.ms": 1000, "group.consumer.min.heartbeat.interval.ms": 1000})
    c.alter("g", {"consumer.session.timeout.ms": 6000})
    with pytest.raises(KafkaError) as info:
        c.alter("g", {"consumer.heartbeat.interval.ms": 6000})
    assert info.value.message == "consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms"
    assert c.session_timeout_ms("g") == 6000 and c.heartbeat_interval_ms("g") == 5000


def test_set_unset_describe_and_dry_run() -> None:
    c = GroupConfigs()
    c.plan("g", {"consumer.session.timeout.ms": 50_000})
    assert c.overrides == {}
    c.alter("g", {"consumer.session.timeout.ms": "50000"})
    described = {v.name: v for v in c.describe("g")}
    session = described["consumer.session.timeout.ms"]
    assert (session.value, session.default, session.source, session.minimum, session.maximum) == (
        50_000, 45_000, "DYNAMIC_GROUP_CONFIG", 45_000, 60_000
    )
    assert described["consumer.heartbeat.interval.ms"].source == "DEFAULT_CONFIG"
    c.alter("g", delete=["consumer.session.timeout.ms"])
    assert c.overrides == {} and c.session_timeout_ms("g") == 45_000
    with pytest.raises(KafkaError) as info:
        c.describe("")
    assert info.value.message == "Default group resources are not allowed."


def test_session_timeout_config_drives_eviction() -> None:
    from groupctl.coordinator.coordinator import Coordinator
    from tests.heartbeats import hb

    coord = Coordinator()
    coord.create_topic("t", 1)
    coord.alter_configs("g", {"consumer.session.timeout.ms": 50_000})
    coord.heartbeat(hb("g", "a", 0, rebalance_timeout_ms=1, subscribed_topic_names=["t"],
                                     topic_partitions=[]))
    coord.advance(49_999)
    assert "a" in coord.runtime.state.consumer["g"].members
    coord.advance(1)
    assert "a" not in coord.runtime.state.consumer["g"].members


# -- share groups: share.auto.offset.reset as ShareGroupAutoOffsetResetStrategy.Validator takes it ---------------


@pytest.mark.parametrize("value", ["earliest", "latest", "by_duration:PT1H", "by_duration:P2DT3H4M5.5S"])
def test_share_auto_offset_reset_takes_kafkas_three_forms(value):
    configs = GroupConfigs()
    configs.alter("s", {"share.auto.offset.reset": value})
    assert configs.value("s", "share.auto.offset.reset") == value


@pytest.mark.parametrize("value", ["LATEST", "EARLIEST", "none", "", "by_duration", "by_duration:",
                                   "by_duration:-PT1H", "by_duration:1h"])
def test_share_auto_offset_reset_refuses_the_rest_in_kafkas_words(value):
    with pytest.raises(KafkaError) as caught:
        GroupConfigs().alter("s", {"share.auto.offset.reset": value})
    assert caught.value.name == "INVALID_CONFIG"
    assert str(caught.value).endswith(
        f"Invalid value `{value}` for configuration share.auto.offset.reset. The value must be either 'earliest', "
        "'latest' or of the format 'by_duration:<PnDTnHnMn.nS.>'.")


def test_the_lab_serves_kafka_4_2s_configs_and_groupctl_knows_4_3s():
    assert all(key.since <= (4, 2) for key in GROUP_CONFIGS.values())
    assert set(GROUP_CONFIGS) < set(KNOWN_CONFIGS)
    added = {name for name, key in KNOWN_CONFIGS.items() if key.since == (4, 3)}
    assert {"share.delivery.count.limit", "share.partition.max.record.locks", "share.renew.acknowledge.enable",
            "share.assignment.interval.ms", "share.assignor.offload.enable"} <= added
    limit = KNOWN_CONFIGS["share.delivery.count.limit"]
    assert (limit.type, limit.at_least, limit.broker_min, limit.broker_max) == (
        "INT", 2, "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit")


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_number_that_is_no_integer_is_refused_as_kafka_words_it(value):
    with pytest.raises(KafkaError) as caught:
        parse_value(GROUP_CONFIGS["consumer.session.timeout.ms"], value)
    assert str(caught.value).endswith("Not a number of type INT")
