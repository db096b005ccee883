"""A local DIR's broker settings: parsed as Kafka parses them, saved atomically, and what the coordinator runs with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from groupctl.backends.local import LocalBackend
from groupctl.backends.local_settings import (
    SETTINGS,
    SETTINGS_FILE,
    SettingError,
    parse_assignments,
    parse_setting,
    read_settings,
    write_settings,
)
from groupctl.errors import GroupctlError


@pytest.mark.parametrize("raw, policy", [("upgrade", "upgrade"), ("DOWNGRADE", "downgrade"),
                                         (" Disabled ", "disabled"), ("bidirectional", "bidirectional")])
def test_the_policy_is_case_insensitive_and_kept_in_lower_case(raw: str, policy: str) -> None:
    assert parse_setting("group.consumer.migration.policy", raw) == policy


@pytest.mark.parametrize("name, raw, words", [
    ("group.consumer.migration.policy", "sideways", "disabled, upgrade, downgrade, bidirectional"),
    ("group.max.size", "0", "1 .. 2147483647"),
    ("group.consumer.max.size", "-3", "1 .. 2147483647"),
    ("group.initial.rebalance.delay.ms", "-1", "0 .. 2147483647"),
    ("group.min.session.timeout.ms", "2147483648", "0 .. 2147483647"),
    ("group.max.session.timeout.ms", "ten", "not a whole number"),
    ("group.consumer.session.timeout.ms", "1", "the settings are: group.consumer.migration.policy, "),
])
def test_unknown_names_and_bad_values_name_the_choices(name: str, raw: str, words: str) -> None:
    with pytest.raises(SettingError) as caught:
        parse_setting(name, raw)
    assert words in str(caught.value)


def test_assignments_are_key_value_and_the_last_one_wins() -> None:
    assert parse_assignments(["group.max.size=3", "group.consumer.migration.policy=Upgrade", "group.max.size=4"]) \
        == {"group.max.size": 4, "group.consumer.migration.policy": "upgrade"}
    with pytest.raises(SettingError, match="is not KEY=VALUE"):
        parse_assignments(["group.max.size"])


def test_saved_values_read_back_and_none_left_removes_the_file(tmp_path: Path) -> None:
    assert read_settings(tmp_path) == {}
    write_settings(tmp_path, {"group.max.size": 2, "group.consumer.migration.policy": "disabled"})
    saved = json.loads((tmp_path / SETTINGS_FILE).read_text())
    assert saved == {"version": 1, "settings": {"group.consumer.migration.policy": "disabled", "group.max.size": 2}}
    assert read_settings(tmp_path) == {"group.consumer.migration.policy": "disabled", "group.max.size": 2}
    write_settings(tmp_path, {})
    assert not (tmp_path / SETTINGS_FILE).exists()


@pytest.mark.parametrize("content", ['{"version": 7, "settings": {}}', '{"version": 1, "settings": '
                                     '{"group.max.size": 0}}', "[]", "{not json"])
def test_a_damaged_settings_file_is_an_error_naming_it(tmp_path: Path, content: str) -> None:
    (tmp_path / SETTINGS_FILE).write_text(content)
    with pytest.raises(GroupctlError) as caught:
        read_settings(tmp_path)
    assert SETTINGS_FILE in str(caught.value)


def _new_dir(tmp_path: Path) -> Path:
    with LocalBackend(tmp_path / "lab", create=True) as backend:
        backend.create_topic("orders", 3)
    return tmp_path / "lab"


def test_a_dir_without_settings_runs_on_kafkas_defaults(tmp_path: Path) -> None:
    lab = _new_dir(tmp_path)
    with LocalBackend(lab) as backend:
        runtime = backend.coordinator.runtime
        assert (runtime.migration, runtime.max_group_size) == ("bidirectional", 2**31 - 1)
        assert runtime.classic_settings == {name: SETTINGS[name].default for name in runtime.classic_settings}
        assert backend.broker_settings == {}
    assert not (lab / SETTINGS_FILE).exists()


def test_saved_settings_reach_the_coordinator_and_given_ones_win_for_one_invocation(tmp_path: Path) -> None:
    lab = _new_dir(tmp_path)
    write_settings(lab, {"group.consumer.migration.policy": "upgrade", "group.consumer.max.size": 7,
                         "group.max.size": 5, "group.initial.rebalance.delay.ms": 0})
    with LocalBackend(lab) as backend:
        coordinator = backend.coordinator
        assert coordinator.runtime.migration == "upgrade"
        assert (coordinator.runtime.max_group_size, coordinator.classic.max_size) == (7, 5)
        assert coordinator.classic_settings["group.initial.rebalance.delay.ms"] == 0
        assert coordinator.configs.explicit_broker == {"group.consumer.max.size"}
    with LocalBackend(lab, broker_settings={"group.consumer.migration.policy": "disabled"}) as backend:
        assert backend.coordinator.runtime.migration == "disabled"
        assert backend.saved_settings["group.consumer.migration.policy"] == "upgrade"
    assert read_settings(lab)["group.consumer.migration.policy"] == "upgrade"  # given ones are not saved


def test_the_kafka_version_decides_the_records_the_dirs_log_gets(tmp_path: Path) -> None:
    """kafka.version=4.0: a consumer group's epoch comes with Kafka 4.0's type 4 and offsets are v3."""
    from groupctl.coordinator.offsets import CommitPartition
    from tests.heartbeats import hb

    lab = _new_dir(tmp_path)
    assert parse_setting("kafka.version", " 4.0 ") == "4.0"
    write_settings(lab, {"kafka.version": "4.0"})
    with LocalBackend(lab) as backend:
        coordinator = backend.coordinator
        assert coordinator.runtime.kafka_version == "4.0"
        coordinator.heartbeat(hb("g", "m", 0, rebalance_timeout_ms=1000,
                                               subscribed_topic_names=["orders"], topic_partitions=[]))
        coordinator.commit_offsets("simple", "", -1, [CommitPartition("orders", 0, 5)])
        written = list(coordinator.runtime.log.read())
    assert 4 in [r.key.type for r in written]
    assert [r.value.version for r in written if r.key.type == 1] == [3]
    with LocalBackend(lab, broker_settings={"kafka.version": "4.1"}) as backend:
        assert backend.coordinator.runtime.kafka_version == "4.1"
    with pytest.raises(SettingError) as bad:
        parse_setting("kafka.version", "3.9")
    assert "4.0, 4.1, 4.2, 4.3" in str(bad.value)
