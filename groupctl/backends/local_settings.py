"""A local DIR's broker settings: the coordinator settings a Kafka operator puts in server.properties.

They live in DIR's `broker-settings.json` (only the values set; a DIR without it runs on Kafka's
defaults) and every `--local` command and `groupctl serve --local DIR` start the coordinator with
them. `groupctl serve --broker-config KEY=VALUE` lays values over them for one run without saving.
Names, types, defaults and checks are Kafka 4.x's (`GroupCoordinatorConfig`), and a value is kept in
the form the broker parses it to (an int; a policy in lower case).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groupctl.coordinator.configs import BROKER_DEFAULTS
from groupctl.coordinator.layout import KAFKA_VERSIONS, NEWEST, kafka_version
from groupctl.coordinator.runtime import (
    CLASSIC_DEFAULTS,
    DEFAULT_MIGRATION_POLICY,
    MIGRATION_POLICIES,
    migration_policy,
)
from groupctl.errors import GroupctlError
from groupctl.json_files import json_bytes, read_json, write_files

SETTINGS_FILE = "broker-settings.json"
FILE_VERSION = 1
MIGRATION_POLICY = "group.consumer.migration.policy"
#: Not a server.properties key: the Kafka release DIR stands in for, whose records its log holds.
KAFKA_VERSION = "kafka.version"
CONSUMER_MAX_SIZE = "group.consumer.max.size"
_INT_MAX = 2**31 - 1

Value = int | str


class SettingError(ValueError):
    """A setting that is not one of DIR's, or a value it cannot take; the message names the choices."""


def _policy(text: str) -> str:
    """group.consumer.migration.policy as the broker parses it (any case)."""
    try:
        return migration_policy(text)
    except ValueError as exc:
        raise ValueError(f"{exc} (any case)") from None


@dataclass(frozen=True, slots=True)
class Setting:
    """One broker setting: Kafka's name, type and default, the least value it takes, what it governs."""

    name: str
    default: Value
    doc: str
    at_least: int | None = None
    choices: tuple[str, ...] = ()
    choose: Callable[[str], str] | None = None  # the check of a setting with choices

    def parse(self, raw: object) -> Value:
        """The value as the broker parses `raw` (ConfigDef's INT, or one of the choices)."""
        text = str(raw).strip()
        if self.choose is not None:
            try:
                return self.choose(text)
            except ValueError as exc:
                raise SettingError(str(exc)) from None
        try:
            value = int(text)
        except ValueError:
            raise SettingError(f"{self.name}: '{raw}' is not a whole number") from None
        low = self.at_least if self.at_least is not None else -(2**31)
        if not low <= value <= _INT_MAX:
            raise SettingError(f"{self.name}: {value} is out of range; it takes {low} .. {_INT_MAX}")
        return value


#: DIR's broker settings, in the order `local settings` shows them. The three classic timeouts take
#: no negative value here (Kafka's ConfigDef has no bound on them, but a negative delay or session
#: bound means nothing).
SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(MIGRATION_POLICY, DEFAULT_MIGRATION_POLICY,
                "online migration of non-empty groups between the classic and consumer protocols: "
                "bidirectional, upgrade (classic -> consumer only), downgrade (consumer -> classic only), disabled",
                choices=tuple(MIGRATION_POLICIES), choose=_policy),
        Setting(CONSUMER_MAX_SIZE, int(BROKER_DEFAULTS[CONSUMER_MAX_SIZE]),
                "most members of a consumer (KIP-848) group, classic-protocol members of it included", 1),
        Setting("group.max.size", CLASSIC_DEFAULTS["group.max.size"], "most members of a classic group", 1),
        Setting("group.min.session.timeout.ms", CLASSIC_DEFAULTS["group.min.session.timeout.ms"],
                "shortest session.timeout.ms a classic member may ask for", 0),
        Setting("group.max.session.timeout.ms", CLASSIC_DEFAULTS["group.max.session.timeout.ms"],
                "longest session.timeout.ms a classic member may ask for", 0),
        Setting("group.initial.rebalance.delay.ms", CLASSIC_DEFAULTS["group.initial.rebalance.delay.ms"],
                "how long a new classic group waits for more members before its first rebalance", 0),
        Setting(KAFKA_VERSION, NEWEST,
                "the Kafka release DIR stands in for: its log gets that release's coordinator records (4.0: "
                "ConsumerGroupPartitionMetadata and OffsetCommitValue v3; 4.1 and later: MetadataHash)",
                choices=KAFKA_VERSIONS, choose=kafka_version),
    )
}


def parse_setting(name: str, raw: object) -> Value:
    """`name`'s value from `raw`; SettingError for an unknown name (naming DIR's settings) or a bad value."""
    setting = SETTINGS.get(name.strip())
    if setting is None:
        raise SettingError(f"'{name}' is not a broker setting of a local DIR; the settings are: "
                           f"{', '.join(SETTINGS)}")
    return setting.parse(raw)


def parse_assignments(pairs: Iterable[str]) -> dict[str, Value]:
    """KEY=VALUE pairs, each checked; a later pair for the same key wins, as in server.properties."""
    out: dict[str, Value] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise SettingError(f"'{pair}' is not KEY=VALUE (e.g. {MIGRATION_POLICY}=upgrade)")
        out[name.strip()] = parse_setting(name, raw)
    return out


def read_settings(directory: Path) -> dict[str, Value]:
    """The values DIR saved (none when it has no settings file), checked as they were when set."""
    path = directory / SETTINGS_FILE
    data = read_json(path)
    if data is None:
        return {}
    if not isinstance(data, dict) or data.get("version") != FILE_VERSION or not isinstance(data.get("settings"), dict):
        raise GroupctlError(f"{path} is not a version {FILE_VERSION} broker settings file; repair it, or remove it "
                            "to run on Kafka's defaults")
    try:
        return {name: parse_setting(name, value) for name, value in data["settings"].items()}
    except SettingError as exc:
        raise GroupctlError(f"{path}: {exc}; repair it, or remove it to run on Kafka's defaults") from None


def settings_document(values: Mapping[str, Value]) -> dict[str, Any] | None:
    """broker-settings.json's content for `values`; None when there are none (the file goes: Kafka's defaults)."""
    if not values:
        return None
    return {"version": FILE_VERSION, "settings": {name: values[name] for name in SETTINGS if name in values}}


def write_settings(directory: Path, values: Mapping[str, Value]) -> None:
    """Save DIR's values (atomically); with none left the file goes, and DIR runs on Kafka's defaults."""
    document = settings_document(values)
    write_files({directory / SETTINGS_FILE: None if document is None else json_bytes(document)})


def effective(values: Mapping[str, Value]) -> dict[str, Value]:
    """Every setting's value: the ones given over Kafka's defaults."""
    return {name: values.get(name, s.default) for name, s in SETTINGS.items()}


def coordinator_settings(values: Mapping[str, Value]) -> dict[str, Any]:
    """`Coordinator` keywords for `values`: the migration policy and classic settings; the consumer group
    size goes through `group_config_broker` (the group configs read their broker bounds there)."""
    classic = {name: int(values[name]) for name in CLASSIC_DEFAULTS if name in values}
    return {"migration": str(values.get(MIGRATION_POLICY, DEFAULT_MIGRATION_POLICY)), "classic_settings": classic,
            "kafka": str(values.get(KAFKA_VERSION, NEWEST))}


def group_config_broker(values: Mapping[str, Value]) -> dict[str, int | bool | str]:
    """The broker settings `GroupConfigs` takes among `values` (explicit ones, so DescribeConfigs says so)."""
    return {name: values[name] for name in BROKER_DEFAULTS if name in values}
