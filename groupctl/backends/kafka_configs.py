"""Group configs as DescribeConfigs returns them, made into the `ConfigEntry` rows the CLI shows.

The wire carries values as text, the source, and the synonym chain; the value each config falls
back to is the first synonym that is not the group's own override. The type of each known config
and the broker settings that bound it (`group.consumer.min.session.timeout.ms` ...) are Kafka's,
from the coordinator's catalog; a config this catalog does not know (a newer broker) is shown as
text, without bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from groupctl.coordinator.configs import KNOWN_CONFIGS, ConfigKey
from groupctl.model import SOURCE_GROUP, ConfigEntry

Value = int | bool | str | None


def source_name(source: Any) -> str:
    """confluent-kafka's ConfigSource (or its number) as Kafka's tools name it: DYNAMIC_GROUP_CONFIG (librdkafka
    says GROUP_CONFIG, the wire's name for id 8), DEFAULT_CONFIG ..."""
    from confluent_kafka.admin import ConfigSource

    name = ConfigSource(int(getattr(source, "value", source))).name
    return SOURCE_GROUP if name == "GROUP_CONFIG" else name


def typed(key: ConfigKey | None, raw: str | None) -> Value:
    """`"45000"` -> 45000 for an INT config, `"true"` -> True for a BOOLEAN one; text otherwise."""
    if raw is None or key is None:
        return raw
    if key.type == "INT":
        try:
            return int(raw)
        except ValueError:
            return raw
    if key.type == "BOOLEAN" and raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    return raw


def _bound(key: ConfigKey, setting: str | None, broker: Mapping[str, str] | None) -> int | None:
    if setting is None or broker is None or setting not in broker:
        return None
    value = typed(key, broker[setting])
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def config_entries(described: Mapping[str, Any], broker: Mapping[str, str] | None) -> list[ConfigEntry]:
    """One row per described config, in Kafka's order for the known ones; `broker` gives the bounds
    (None: not readable, and then only the bounds Kafka's ConfigDef itself sets are shown)."""
    order = {name: n for n, name in enumerate(KNOWN_CONFIGS)}
    rows = []
    for name in sorted(described, key=lambda n: (order.get(n, len(order)), n)):
        entry = described[name]
        key = KNOWN_CONFIGS.get(name)
        source = source_name(entry.source)
        fallback = [s for s in (entry.synonyms or {}).values() if source_name(s.source) != SOURCE_GROUP]
        default = fallback[0].value if fallback else (entry.value if source != SOURCE_GROUP else None)
        minimum = maximum = None
        if key is not None:
            minimum = _bound(key, key.broker_min, broker) if key.broker_min else key.at_least
            maximum = _bound(key, key.broker_max, broker)
        rows.append(ConfigEntry(
            name, typed(key, entry.value), typed(key, default), source, minimum, maximum,
            key.broker_min if key is not None else None, key.broker_max if key is not None else None,
        ))
    return rows
