"""The TOPIC and BROKER configs `groupctl serve` reports, and the topic configs given at creation.

Kafka 4.x names, types, defaults and broker synonyms for what a client commonly reads (retention,
segments, compression, the group coordinator's settings). They are read-only here: groupctl keeps
no retention or compaction to act on them, so changing them later would only pretend. A topic
created with configs (Kafka Streams' changelogs, `kafka-topics --config`) has them checked as Kafka
checks them and kept in DIR/topic-configs.json, so DescribeConfigs shows them back as the topic's
own (source TOPIC_CONFIG).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from groupctl.errors import KafkaError
from groupctl.json_files import read_json, write_json_atomically

TOPIC_CONFIGS_FILE = "topic-configs.json"

#: DescribeConfigs ConfigSource ids (`DescribeConfigsResponse.ConfigSource`).
SOURCE_IDS: dict[str, int] = {
    "TOPIC_CONFIG": 1,
    "DYNAMIC_BROKER_CONFIG": 2,
    "DYNAMIC_DEFAULT_BROKER_CONFIG": 3,
    "STATIC_BROKER_CONFIG": 4,
    "DEFAULT_CONFIG": 5,
    "DYNAMIC_GROUP_CONFIG": 8,  # the wire's GROUP_CONFIG, named as Kafka's admin client names it
}
#: DescribeConfigs ConfigType ids (v3+).
TYPE_IDS: dict[str, int] = {
    "BOOLEAN": 1, "STRING": 2, "INT": 3, "SHORT": 4, "LONG": 5, "DOUBLE": 6, "LIST": 7, "CLASS": 8, "PASSWORD": 9,
}
_LONG_MAX = str(2**63 - 1)


@dataclass(frozen=True, slots=True)
class TopicKey:
    """One topic config: ConfigDef type and default, the choices it allows, and the broker setting
    Kafka names as its synonym (with that setting's own default)."""

    name: str
    type: str
    default: str
    synonym: tuple[str, str] | None = None
    choices: tuple[str, ...] = ()


TOPIC_KEYS: dict[str, TopicKey] = {
    key.name: key
    for key in (
        TopicKey("cleanup.policy", "LIST", "delete", ("log.cleanup.policy", "delete"), ("compact", "delete")),
        TopicKey("compression.gzip.level", "INT", "-1", ("compression.gzip.level", "-1")),
        TopicKey("compression.lz4.level", "INT", "9", ("compression.lz4.level", "9")),
        TopicKey("compression.type", "STRING", "producer", ("compression.type", "producer"),
                 ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
        TopicKey("compression.zstd.level", "INT", "3", ("compression.zstd.level", "3")),
        TopicKey("delete.retention.ms", "LONG", "86400000", ("log.cleaner.delete.retention.ms", "86400000")),
        TopicKey("file.delete.delay.ms", "LONG", "60000", ("log.segment.delete.delay.ms", "60000")),
        TopicKey("flush.messages", "LONG", _LONG_MAX, ("log.flush.interval.messages", _LONG_MAX)),
        TopicKey("flush.ms", "LONG", _LONG_MAX, ("log.flush.scheduler.interval.ms", _LONG_MAX)),
        TopicKey("follower.replication.throttled.replicas", "LIST", ""),
        TopicKey("index.interval.bytes", "INT", "4096", ("log.index.interval.bytes", "4096")),
        TopicKey("leader.replication.throttled.replicas", "LIST", ""),
        TopicKey("local.retention.bytes", "LONG", "-2", ("log.local.retention.bytes", "-2")),
        TopicKey("local.retention.ms", "LONG", "-2", ("log.local.retention.ms", "-2")),
        TopicKey("max.compaction.lag.ms", "LONG", _LONG_MAX, ("log.cleaner.max.compaction.lag.ms", _LONG_MAX)),
        TopicKey("max.message.bytes", "INT", "1048588", ("message.max.bytes", "1048588")),
        TopicKey("message.timestamp.after.max.ms", "LONG", "3600000",
                 ("log.message.timestamp.after.max.ms", "3600000")),
        TopicKey("message.timestamp.before.max.ms", "LONG", _LONG_MAX,
                 ("log.message.timestamp.before.max.ms", _LONG_MAX)),
        TopicKey("message.timestamp.type", "STRING", "CreateTime", ("log.message.timestamp.type", "CreateTime"),
                 ("CreateTime", "LogAppendTime")),
        TopicKey("min.cleanable.dirty.ratio", "DOUBLE", "0.5", ("log.cleaner.min.cleanable.ratio", "0.5")),
        TopicKey("min.compaction.lag.ms", "LONG", "0", ("log.cleaner.min.compaction.lag.ms", "0")),
        TopicKey("min.insync.replicas", "INT", "1", ("min.insync.replicas", "1")),
        TopicKey("preallocate", "BOOLEAN", "false", ("log.preallocate", "false")),
        TopicKey("remote.storage.enable", "BOOLEAN", "false"),
        TopicKey("retention.bytes", "LONG", "-1", ("log.retention.bytes", "-1")),
        TopicKey("retention.ms", "LONG", "604800000", ("log.retention.hours", "168")),
        TopicKey("segment.bytes", "INT", "1073741824", ("log.segment.bytes", "1073741824")),
        TopicKey("segment.index.bytes", "INT", "10485760", ("log.index.size.max.bytes", "10485760")),
        TopicKey("segment.jitter.ms", "LONG", "0", ("log.roll.jitter.hours", "0")),
        TopicKey("segment.ms", "LONG", "604800000", ("log.roll.hours", "168")),
        TopicKey("unclean.leader.election.enable", "BOOLEAN", "false", ("unclean.leader.election.enable", "false")),
    )
}


def _invalid(name: str, value: str, why: str) -> KafkaError:
    return KafkaError("INVALID_CONFIG", f"Invalid value {value} for configuration {name}: {why}")


def canonical_topic_value(key: TopicKey, raw: str) -> str:
    """ConfigDef.parse then convertToString: the value as DescribeConfigs shows it, or INVALID_CONFIG."""
    text = raw.strip()
    if key.type in ("INT", "LONG"):
        bits = 31 if key.type == "INT" else 63
        try:
            number = int(text)
        except ValueError:
            raise _invalid(key.name, raw, f"Not a number of type {key.type}") from None
        if not -(2**bits) <= number < 2**bits:
            raise _invalid(key.name, raw, f"Not a number of type {key.type}")
        return str(number)
    if key.type == "DOUBLE":
        try:
            return repr(float(text))
        except ValueError:
            raise _invalid(key.name, raw, "Not a number of type DOUBLE") from None
    if key.type == "BOOLEAN":
        if text.lower() not in ("true", "false"):
            raise _invalid(key.name, raw, "Expected value to be either true or false")
        return text.lower()
    if key.type == "LIST":
        items = [item.strip() for item in text.split(",") if item.strip()]
        bad = [item for item in items if key.choices and item not in key.choices]
        if bad:
            raise _invalid(key.name, raw, f"String must be one of: {', '.join(key.choices)}")
        return ",".join(items)
    if key.choices and text not in key.choices:
        raise _invalid(key.name, raw, f"String must be one of: {', '.join(key.choices)}")
    return text


def validate_topic_configs(configs: list[tuple[str, str | None]]) -> dict[str, str]:
    """CreateTopics configs as Kafka's controller checks them: no nulls, known names, parsable values."""
    nulls = [name for name, value in configs if value is None]
    if nulls:
        raise KafkaError("INVALID_CONFIG", f"Null value not supported for topic configs: {','.join(nulls)}")
    out: dict[str, str] = {}
    for name, value in configs:
        key = TOPIC_KEYS.get(name)
        if key is None:
            raise KafkaError("INVALID_CONFIG", f"Unknown topic config name: {name}")
        out[name] = canonical_topic_value(key, value or "")
    return out


@dataclass(frozen=True, slots=True)
class Entry:
    """One config as DescribeConfigs and CreateTopics v5+ report it."""

    name: str
    value: str | None
    source: str
    type: str
    read_only: bool = True
    synonyms: tuple[tuple[str, str | None, str], ...] = ()


def topic_entries(overrides: Mapping[str, str]) -> list[Entry]:
    """Every topic config, sorted by name: the override (TOPIC_CONFIG) or the broker default."""
    out = []
    for name in sorted(TOPIC_KEYS):
        key = TOPIC_KEYS[name]
        synonyms: list[tuple[str, str | None, str]] = []
        if name in overrides:
            synonyms.append((name, overrides[name], "TOPIC_CONFIG"))
        if key.synonym is not None:
            synonyms.append((key.synonym[0], key.synonym[1], "DEFAULT_CONFIG"))
        value = overrides.get(name, key.default)
        source = synonyms[0][2] if synonyms else "DEFAULT_CONFIG"
        out.append(Entry(name, value, source, key.type, True, tuple(synonyms)))
    return out


def read_topic_overrides(directory: Path) -> dict[str, dict[str, str]]:
    """The configs each topic was created with, by topic name."""
    data = read_json(directory / TOPIC_CONFIGS_FILE) or {}
    return {topic: dict(configs) for topic, configs in data.get("topics", {}).items()}


def save_topic_overrides(directory: Path, overrides: Mapping[str, Mapping[str, str]]) -> None:
    write_json_atomically(directory / TOPIC_CONFIGS_FILE,
                          {"topics": {t: dict(c) for t, c in sorted(overrides.items()) if c}})


@dataclass(frozen=True, slots=True)
class BrokerSetting:
    """A broker config with the value this server runs with and whether it was chosen (STATIC) or
    is Kafka's default."""

    name: str
    value: str
    type: str
    kafka_default: str | None


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def broker_settings(values: Mapping[str, object], kafka_defaults: Mapping[str, object | None],
                    types: Mapping[str, str]) -> list[BrokerSetting]:
    """Settings sorted by name; `kafka_defaults[name]` None means Kafka has no default (always STATIC)."""
    return [
        BrokerSetting(name, _text(values[name]), types.get(name) or _type_of(values[name]),
                      None if kafka_defaults.get(name) is None else _text(kafka_defaults[name]))
        for name in sorted(values)
    ]


def _type_of(value: object) -> str:
    if isinstance(value, bool):
        return "BOOLEAN"
    return "INT" if isinstance(value, int) else "STRING"


def broker_entries(settings: list[BrokerSetting]) -> list[Entry]:
    """BROKER resource entries: STATIC_BROKER_CONFIG where this server differs from Kafka's default,
    with Kafka's default as the next synonym, as a broker started with a server.properties shows."""
    out = []
    for s in settings:
        synonyms: list[tuple[str, str | None, str]] = []
        if s.kafka_default is None or s.value != s.kafka_default:
            synonyms.append((s.name, s.value, "STATIC_BROKER_CONFIG"))
        if s.kafka_default is not None:
            synonyms.append((s.name, s.kafka_default, "DEFAULT_CONFIG"))
        out.append(Entry(s.name, s.value, synonyms[0][2], s.type, True, tuple(synonyms)))
    return out
