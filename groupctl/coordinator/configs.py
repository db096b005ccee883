"""Dynamic group configs (`ConfigResource.Type.GROUP`, KIP-848): names, defaults, broker bounds, and
validation with the messages Kafka 4.0-4.3 sends back (INVALID_CONFIG).

Like `GroupConfigManager.validate`, a change is merged over the group's other overrides and the
broker's current values, and the whole effective set is checked; so a session timeout that is fine
alone fails when the group's heartbeat interval is not below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import SupportsIndex, SupportsInt

from groupctl.errors import KafkaError, UsageError
from groupctl.model import SOURCE_DEFAULT, SOURCE_GROUP, SOURCE_STATIC_BROKER
from groupctl.offsets_reset import parse_duration_ms

#: Broker settings a group config falls back to or is bounded by, with Kafka's defaults.
BROKER_DEFAULTS: dict[str, int | bool | str] = {
    "group.consumer.session.timeout.ms": 45000,
    "group.consumer.min.session.timeout.ms": 45000,
    "group.consumer.max.session.timeout.ms": 60000,
    "group.consumer.heartbeat.interval.ms": 5000,
    "group.consumer.min.heartbeat.interval.ms": 5000,
    "group.consumer.max.heartbeat.interval.ms": 15000,
    "group.consumer.assignment.interval.ms": 1000,
    "group.consumer.min.assignment.interval.ms": 0,
    "group.consumer.max.assignment.interval.ms": 15000,
    "group.consumer.assignor.offload.enable": True,
    "group.consumer.max.size": 2**31 - 1,
    "group.share.session.timeout.ms": 45000,
    "group.share.min.session.timeout.ms": 45000,
    "group.share.max.session.timeout.ms": 60000,
    "group.share.heartbeat.interval.ms": 5000,
    "group.share.min.heartbeat.interval.ms": 5000,
    "group.share.max.heartbeat.interval.ms": 15000,
    "group.share.record.lock.duration.ms": 30000,
    "group.share.min.record.lock.duration.ms": 15000,
    "group.share.max.record.lock.duration.ms": 60000,
    "group.streams.session.timeout.ms": 45000,
    "group.streams.min.session.timeout.ms": 45000,
    "group.streams.max.session.timeout.ms": 60000,
    "group.streams.heartbeat.interval.ms": 5000,
    "group.streams.min.heartbeat.interval.ms": 5000,
    "group.streams.max.heartbeat.interval.ms": 15000,
    "group.streams.num.standby.replicas": 0,
    "group.streams.max.standby.replicas": 2,
    "group.streams.initial.rebalance.delay.ms": 3000,
}


@dataclass(frozen=True, slots=True)
class ConfigKey:
    """One group config: its type, ConfigDef lower bound, and the broker settings around it."""

    name: str
    type: str  # INT, BOOLEAN, STRING
    at_least: int | None = None
    broker_default: str | None = None  # the broker synonym that gives the default
    broker_min: str | None = None
    broker_max: str | None = None
    choices: tuple[str, ...] = ()
    default: int | bool | str | None = None  # when no broker synonym exists
    since: tuple[int, int] = (4, 0)  # the Kafka release that added it (kafka-facts: "Which names exist")


def _bounded(prefix: str, what: str, at_least: int, since: tuple[int, int] = (4, 0)) -> ConfigKey:
    return ConfigKey(
        f"{prefix}.{what}", "INT", at_least, f"group.{prefix}.{what}", f"group.{prefix}.min.{what}",
        f"group.{prefix}.max.{what}", since=since,
    )


def _flag(name: str, since: tuple[int, int]) -> ConfigKey:
    return ConfigKey(name, "BOOLEAN", default=True, since=since)


#: What `share.auto.offset.reset` takes (ShareGroupAutoOffsetResetStrategy): the names, or `by_duration:` and an
#: ISO-8601 duration that is not negative; case matters.
SHARE_AUTO_OFFSET_RESET = "share.auto.offset.reset"
BY_DURATION = "by_duration:"


#: The group configs of Kafka 4.2 (consumer, share and streams), in Kafka's order.
GROUP_CONFIGS: dict[str, ConfigKey] = {
    key.name: key
    for key in (
        _bounded("consumer", "session.timeout.ms", 1),
        _bounded("consumer", "heartbeat.interval.ms", 1),
        _bounded("share", "session.timeout.ms", 1),
        _bounded("share", "heartbeat.interval.ms", 1),
        _bounded("share", "record.lock.duration.ms", 1000),
        ConfigKey(SHARE_AUTO_OFFSET_RESET, "STRING", choices=("earliest", "latest"), default="latest"),
        ConfigKey("share.isolation.level", "STRING", choices=("read_committed", "read_uncommitted"),
                  default="read_uncommitted", since=(4, 1)),
        _bounded("streams", "session.timeout.ms", 1, (4, 1)),
        _bounded("streams", "heartbeat.interval.ms", 1, (4, 1)),
        ConfigKey("streams.num.standby.replicas", "INT", 0, "group.streams.num.standby.replicas", None,
                  "group.streams.max.standby.replicas", since=(4, 1)),
        ConfigKey("streams.initial.rebalance.delay.ms", "INT", 0, "group.streams.initial.rebalance.delay.ms",
                  since=(4, 2)),
    )
}

#: Every group config groupctl knows, in Kafka's order: the lab's (Kafka 4.2) and what Kafka 4.3 adds (KIP-1263's
#: assignment intervals and offload switches, KIP-1240's share delivery limits), so a 4.3 cluster's configs show
#: with their types and broker bounds. The lab serves GROUP_CONFIGS only, as a 4.2 broker does.
KNOWN_CONFIGS: dict[str, ConfigKey] = {
    key.name: key
    for key in (
        *list(GROUP_CONFIGS.values())[:2],
        _bounded("consumer", "assignment.interval.ms", 0, (4, 3)),
        _flag("consumer.assignor.offload.enable", (4, 3)),
        *list(GROUP_CONFIGS.values())[2:5],
        ConfigKey("share.delivery.count.limit", "INT", 2, "group.share.delivery.count.limit",
                  "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit", since=(4, 3)),
        ConfigKey("share.partition.max.record.locks", "INT", 100, "group.share.partition.max.record.locks",
                  "group.share.min.partition.max.record.locks", "group.share.max.partition.max.record.locks",
                  since=(4, 3)),
        *list(GROUP_CONFIGS.values())[5:7],
        _flag("share.renew.acknowledge.enable", (4, 3)),
        _bounded("share", "assignment.interval.ms", 0, (4, 3)),
        _flag("share.assignor.offload.enable", (4, 3)),
        *list(GROUP_CONFIGS.values())[7:],
        _bounded("streams", "assignment.interval.ms", 0, (4, 3)),
        _flag("streams.assignor.offload.enable", (4, 3)),
    )
}

@dataclass(frozen=True, slots=True)
class ConfigValue:
    """One config as DescribeConfigs shows it, with the bounds an operator needs to pick a value."""

    name: str
    value: int | bool | str | None
    default: int | bool | str | None
    source: str
    minimum: int | None = None
    maximum: int | None = None
    minimum_name: str | None = None
    maximum_name: str | None = None


def _invalid(message: str) -> KafkaError:
    return KafkaError("INVALID_CONFIG", message)


def _as_int(value: int | bool | str | None) -> int:
    """An INT config's value or bound as a number (parse_value and the broker settings make them ints; a
    config without one is None, which int() refuses with a TypeError)."""
    if value is None:
        raise TypeError("an INT config without a value")
    return int(value)


def parse_value(key: ConfigKey, raw: object) -> int | bool | str:
    """ConfigDef.parse for one value, with its error wording."""
    if raw is None:
        raise _invalid(f"Null value not supported for {key.name}")
    text = str(raw).strip() if isinstance(raw, str) else raw
    if key.type == "INT":
        if isinstance(text, bool):
            raise _invalid(f"Invalid value {raw} for configuration {key.name}: Not a number of type INT")
        try:
            if not isinstance(text, str | bytes | SupportsInt | SupportsIndex):
                raise TypeError(f"not a number: {text!r}")
            value = int(text)
        except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float from a damaged file
            raise _invalid(f"Invalid value {raw} for configuration {key.name}: Not a number of type INT") from None
        if not -(2**31) <= value < 2**31:
            raise _invalid(f"Invalid value {raw} for configuration {key.name}: Not a number of type INT")
        if key.at_least is not None and value < key.at_least:
            raise _invalid(f"Invalid value {value} for configuration {key.name}: Value must be at least {key.at_least}")
        return value
    if key.type == "BOOLEAN":
        lowered = str(text).lower()
        if lowered not in ("true", "false"):
            raise _invalid(
                f"Invalid value {raw} for configuration {key.name}: Expected value to be either true or false"
            )
        return lowered == "true"
    string = str(text)
    if key.name == SHARE_AUTO_OFFSET_RESET:
        return _share_auto_offset_reset(raw, string)
    if key.choices and string.lower() not in key.choices:
        raise _invalid(
            f"Invalid value {raw} for configuration {key.name}: String must be one of: {', '.join(key.choices)}"
        )
    return string


def _share_auto_offset_reset(raw: object, value: str) -> str:
    """`earliest`, `latest` or `by_duration:PnDTnHnMn.nS` (not negative), exactly: Kafka's
    ShareGroupAutoOffsetResetStrategy.Validator, with its message inside ConfigException's."""
    valid = value in ("earliest", "latest")
    if value.startswith(BY_DURATION) and "-" not in value:
        try:
            parse_duration_ms(value[len(BY_DURATION):])
            valid = True
        except UsageError:
            valid = False
    if not valid:
        name = SHARE_AUTO_OFFSET_RESET
        raise _invalid(f"Invalid value {raw} for configuration {name}: Invalid value `{value}` for configuration "
                       f"{name}. The value must be either 'earliest', 'latest' or of the format "
                       "'by_duration:<PnDTnHnMn.nS.>'.")
    return value


class GroupConfigs:
    """Per-group overrides over the broker's settings; the coordinator reads effective values here."""

    def __init__(self, broker: Mapping[str, int | bool | str] | None = None) -> None:
        self.broker: dict[str, int | bool | str] = dict(BROKER_DEFAULTS)
        self.explicit_broker: set[str] = set()
        if broker:
            unknown = set(broker) - set(BROKER_DEFAULTS)
            if unknown:
                raise ValueError(f"unknown broker settings: {', '.join(sorted(unknown))}")
            self.broker.update(broker)
            self.explicit_broker = set(broker)
        self.overrides: dict[str, dict[str, int | bool | str]] = {}

    def _default(self, key: ConfigKey) -> int | bool | str | None:
        return self.broker[key.broker_default] if key.broker_default else key.default

    def value(self, group_id: str, name: str) -> int | bool | str | None:
        """The effective value of `name` for the group: its override, else the broker's."""
        override = self.overrides.get(group_id)
        if override is not None and name in override:
            return override[name]
        return self._default(GROUP_CONFIGS[name])

    def session_timeout_ms(self, group_id: str) -> int:
        return _as_int(self.value(group_id, "consumer.session.timeout.ms"))

    def heartbeat_interval_ms(self, group_id: str) -> int:
        return _as_int(self.value(group_id, "consumer.heartbeat.interval.ms"))

    def describe(self, group_id: str, names: list[str] | None = None) -> list[ConfigValue]:
        """DescribeConfigs for a GROUP resource: every config (or the named ones) with its source."""
        if group_id == "":
            raise _invalid("Default group resources are not allowed.")
        override = self.overrides.get(group_id, {})
        out = []
        for name in names if names is not None else list(GROUP_CONFIGS):
            key = GROUP_CONFIGS.get(name)
            if key is None:
                raise _invalid(f"Unknown group config name: {name}")
            if name in override:
                source = SOURCE_GROUP
            elif key.broker_default and key.broker_default in self.explicit_broker:
                source = SOURCE_STATIC_BROKER
            else:
                source = SOURCE_DEFAULT
            out.append(ConfigValue(
                name, self.value(group_id, name), self._default(key), source,
                _as_int(self.broker[key.broker_min]) if key.broker_min else key.at_least,
                _as_int(self.broker[key.broker_max]) if key.broker_max else None,
                key.broker_min, key.broker_max,
            ))
        return out

    def plan(
        self, group_id: str, set_values: Mapping[str, object] | None = None, delete: list[str] | None = None
    ) -> dict[str, int | bool | str]:
        """The group's overrides after SET `set_values` and DELETE `delete`, validated as Kafka does.

        Nothing changes here: `alter` applies a plan; `--dry-run` (validate_only) stops after this.
        """
        if group_id == "":
            raise _invalid("Default group resources are not allowed.")
        new = dict(self.overrides.get(group_id, {}))
        for name in delete or ():
            if name not in GROUP_CONFIGS:
                raise _invalid(f"Unknown group config name: {name}")
            new.pop(name, None)
        for name, raw in (set_values or {}).items():
            key = GROUP_CONFIGS.get(name)
            if key is None:
                raise _invalid(f"Unknown group config name: {name}")
            new[name] = parse_value(key, raw)
        self._validate_effective(new)
        return new

    def alter(
        self, group_id: str, set_values: Mapping[str, object] | None = None, delete: list[str] | None = None
    ) -> None:
        new = self.plan(group_id, set_values, delete)
        if new:
            self.overrides[group_id] = new
        else:
            self.overrides.pop(group_id, None)

    def _validate_effective(self, overrides: Mapping[str, int | bool | str]) -> None:
        def effective(name: str) -> int:
            if name in overrides:
                return int(overrides[name])
            return _as_int(self._default(GROUP_CONFIGS[name]))

        for prefix in ("consumer", "share", "streams"):
            for what in ("heartbeat.interval.ms", "session.timeout.ms"):
                self._check_bounds(GROUP_CONFIGS[f"{prefix}.{what}"], effective(f"{prefix}.{what}"))
            if prefix == "share":
                record_lock = GROUP_CONFIGS["share.record.lock.duration.ms"]
                self._check_bounds(record_lock, effective(record_lock.name))
            if effective(f"{prefix}.session.timeout.ms") <= effective(f"{prefix}.heartbeat.interval.ms"):
                raise _invalid(f"{prefix}.session.timeout.ms must be greater than {prefix}.heartbeat.interval.ms")
        standby = GROUP_CONFIGS["streams.num.standby.replicas"]
        self._check_bounds(standby, effective(standby.name))

    def _check_bounds(self, key: ConfigKey, value: int) -> None:
        if key.broker_min is not None and value < int(self.broker[key.broker_min]):
            raise _invalid(f"{key.name} must be greater than or equal to {key.broker_min}")
        if key.broker_max is not None and value > int(self.broker[key.broker_max]):
            raise _invalid(f"{key.name} must be less than or equal to {key.broker_max}")

    def to_jsonable(self) -> dict:
        return {"overrides": {g: dict(v) for g, v in sorted(self.overrides.items())}}

    def load_jsonable(self, data: Mapping) -> None:
        self.overrides = {g: dict(v) for g, v in data.get("overrides", {}).items()}
