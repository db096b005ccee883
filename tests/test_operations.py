"""operations.py over a backend: the removal plan, the rejoin check, and all-or-nothing config changes.

A small fake backend records what it was asked, so each test can say what was (not) sent; one test
runs the config change on the local backend, whose validation is Kafka's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import SimpleNamespace

import pytest

from groupctl import operations
from groupctl.backends.local import LocalBackend
from groupctl.errors import GroupctlError, GroupNotFound
from groupctl.model import ConfigEntry, GroupDescription, Member, RemovalResult, TopicPartition
from groupctl.operations import (
    WOULD_REMOVE,
    RejoinCheck,
    change_config,
    group_configs,
    plan_removal,
    remove_members,
    verify_rejoin,
)
from groupctl.protocol.data.groups import MemberIdentity

A0, A1, B0 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 0)
DEFAULTS = {"consumer.session.timeout.ms": 45000, "consumer.heartbeat.interval.ms": 5000}


def static(member_id: str, instance_id: str | None, protocol: str = "consumer", **kw) -> Member:
    return Member(member_id, instance_id, "client", "/h", protocol, **kw)


def consumer_group(*members: Member) -> GroupDescription:
    return GroupDescription("g", "consumer", "Stable", members=list(members))


class FakeBackend:
    """Describes the groups it is given (one per call, in turn), removes whoever it is told, keeps configs."""

    location = "fake:9092"

    def __init__(self, *describes: GroupDescription | Exception, configs: dict | None = None,
                 refuse: str | None = None) -> None:
        self.notices: list[str] = []
        self.describes = list(describes)
        self.calls: list[tuple] = []
        self.configs = dict(configs or {})
        self.refuse = refuse

    def describe_groups(self, group_ids: Iterable[str]) -> list[GroupDescription]:
        self.calls.append(("describe", *group_ids))
        answer = self.describes.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return [answer]

    def remove_members(self, group_id: str, members: Iterable[MemberIdentity]) -> list[RemovalResult]:
        targets = list(members)
        self.calls.append(("remove", group_id, targets))
        return [RemovalResult(group_id, t.group_instance_id, t.member_id or f"id-{t.group_instance_id}",
                              "removed" if t.group_instance_id != "gone" else "UNKNOWN_MEMBER_ID")
                for t in targets]

    def get_config(self, group_id: str, names: Iterable[str] | None = None) -> list[ConfigEntry]:
        return [ConfigEntry(n, v, DEFAULTS[n], src) for n, (v, src) in self.configs.items()]

    def alter_config(self, group_id: str, set_values: Mapping[str, str], delete: Iterable[str], *,
                     validate_only: bool = False) -> None:
        self.calls.append(("alter", dict(set_values), list(delete), validate_only))
        if self.refuse is not None and self.refuse in set_values:
            raise GroupctlError(f"INVALID_CONFIG: {self.refuse} is out of bounds")
        if not validate_only:
            for name, value in set_values.items():
                self.configs[name] = (int(value), "DYNAMIC_GROUP_CONFIG")
            for name in delete:
                self.configs[name] = (DEFAULTS[name], "DEFAULT_CONFIG")


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits the rejoin check made, instead of making them."""
    waits: list[float] = []
    monkeypatch.setattr(operations, "time", SimpleNamespace(sleep=waits.append))
    return waits


# -- the removal plan ------------------------------------------------------------------------------


def test_the_plan_names_who_goes_with_everything_they_hold() -> None:
    desc = consumer_group(
        static("m-1", "pod-1", assignment=[B0, A0], pending_revocation=[A1]),
        static("m-2", "pod-2"),
    )
    plan = plan_removal(desc, [MemberIdentity(group_instance_id="pod-1"), MemberIdentity(group_instance_id="pod-2")])
    assert [(r.instance_id, r.member_id, r.outcome, r.partitions) for r in plan] == [
        ("pod-1", "m-1", WOULD_REMOVE, [A0, A1, B0]),
        ("pod-2", "m-2", WOULD_REMOVE, []),
    ]


def test_the_plan_refuses_the_absent_and_consumer_protocol_members_named_by_id() -> None:
    desc = consumer_group(static("m-1", None), static("m-2", None, "classic", assignment=[A0]))
    plan = plan_removal(desc, [MemberIdentity(group_instance_id="pod-9"), MemberIdentity(member_id="m-9"),
                               MemberIdentity(member_id="m-1"), MemberIdentity(member_id="m-2")])
    assert [(r.instance_id, r.member_id, r.outcome) for r in plan] == [
        ("pod-9", None, "UNKNOWN_MEMBER_ID"),
        (None, "m-9", "UNKNOWN_MEMBER_ID"),
        (None, "m-1", "UNKNOWN_MEMBER_ID"),
        (None, "m-2", WOULD_REMOVE),
    ]
    assert plan[0].message == "instance id pod-9 is not a member of the group now"
    assert plan[1].message == "member m-9 is not a member of the group now"
    assert "only static members of a consumer group can be removed, by --instance-id" in plan[2].message
    assert plan[3].partitions == [A0]


def test_a_classic_group_member_may_be_named_by_member_id() -> None:
    desc = GroupDescription("g", "classic", "Stable", members=[static("m-1", None, "classic", assignment=[B0])])
    (result,) = plan_removal(desc, [MemberIdentity(member_id="m-1")])
    assert (result.outcome, result.partitions) == (WOULD_REMOVE, [B0])


# -- the removal and its rejoin check --------------------------------------------------------------


def test_removed_instances_that_come_back_are_found_after_the_wait(slept: list[float]) -> None:
    back = consumer_group(static("m-new", "pod-1"), static("m-3", "pod-3"))
    backend = FakeBackend(back)
    announced: list[float] = []
    targets = [MemberIdentity(group_instance_id=i, reason="scale down") for i in ("pod-1", "pod-2", "gone")]
    removal = remove_members(backend, "g", targets, verify_after=6.0, before_wait=announced.append)
    assert backend.calls[0] == ("remove", "g", targets)
    assert backend.calls[1:] == [("describe", "g")]
    assert announced == slept == [6.0]
    assert removal.rejoin.back == {"pod-1": "m-new"}
    assert [removal.rejoin.rejoined(r) for r in removal.results] == [True, False, None]  # "gone" was not removed
    assert [r.instance_id for r in removal.failed] == ["gone"]


def test_no_wait_means_no_check(slept: list[float]) -> None:
    backend = FakeBackend()
    removal = remove_members(backend, "g", [MemberIdentity(group_instance_id="pod-1")])
    assert [c[0] for c in backend.calls] == ["remove"] and slept == []
    assert removal.rejoin.back == {} and removal.rejoin.rejoined(removal.results[0]) is None


def test_nothing_removed_means_nothing_to_wait_for(slept: list[float]) -> None:
    backend = FakeBackend()
    results = [RemovalResult("g", "pod-1", None, "FENCED_INSTANCE_ID")]
    check = verify_rejoin(backend, "g", results, 5.0, before_wait=lambda _: pytest.fail("announced"))
    assert check == RejoinCheck(5.0) and backend.calls == [] and slept == []


def test_a_group_gone_after_the_wait_has_nobody_back(slept: list[float]) -> None:
    backend = FakeBackend(GroupNotFound("g", "fake:9092"))
    check = verify_rejoin(backend, "g", [RemovalResult("g", "pod-1", "m-1", "removed")], 1.0)
    assert (check.back, check.error) == ({}, None)
    assert check.rejoined(RemovalResult("g", "pod-1", "m-1", "removed")) is False


def test_a_failed_check_keeps_the_removal_and_carries_the_error(slept: list[float]) -> None:
    backend = FakeBackend(GroupctlError("cannot reach fake:9092: connection refused"))
    removed = RemovalResult("g", "pod-1", "m-1", "removed")
    check = verify_rejoin(backend, "g", [removed], 0.5)
    assert check.back is None and str(check.error) == "cannot reach fake:9092: connection refused"
    assert check.rejoined(removed) is None


# -- group configs ---------------------------------------------------------------------------------

CONFIGS = {"consumer.session.timeout.ms": (45000, "DEFAULT_CONFIG"),
           "consumer.heartbeat.interval.ms": (6000, "DYNAMIC_GROUP_CONFIG")}


def test_unknown_config_names_fail_with_the_known_ones() -> None:
    backend = FakeBackend(configs=CONFIGS)
    assert list(group_configs(backend, "g", [])) == list(CONFIGS)
    assert list(group_configs(backend, "g", ["consumer.heartbeat.interval.ms"])) == ["consumer.heartbeat.interval.ms"]
    with pytest.raises(GroupctlError) as unknown:
        group_configs(backend, "g", ["nope"])
    assert str(unknown.value) == ("Unknown group config name: nope (group configs: consumer.session.timeout.ms, "
                                  "consumer.heartbeat.interval.ms)")


def test_a_change_is_validated_whole_before_anything_is_made() -> None:
    backend = FakeBackend(configs=CONFIGS, refuse="consumer.session.timeout.ms")
    with pytest.raises(GroupctlError) as failed:
        change_config(backend, "g", {"consumer.session.timeout.ms": "1"}, ["consumer.heartbeat.interval.ms"], False)
    assert backend.calls == [("alter", {"consumer.session.timeout.ms": "1"}, ["consumer.heartbeat.interval.ms"],
                              True)]
    assert str(failed.value) == ("INVALID_CONFIG: consumer.session.timeout.ms is out of bounds (group 'g' on "
                                 "fake:9092; nothing was changed; `groupctl group config get g -o wide` shows the "
                                 "bounds)")
    assert backend.configs == CONFIGS


def test_a_dry_run_validates_and_says_what_would_change() -> None:
    backend = FakeBackend(configs=CONFIGS)
    changes = change_config(backend, "g", {"consumer.session.timeout.ms": "50000"},
                            ["consumer.heartbeat.interval.ms"], True)
    assert [c[3] for c in backend.calls] == [True] and backend.configs == CONFIGS
    assert [(c.name, c.action, c.old_value, c.new_value, c.source, c.dry_run) for c in changes] == [
        ("consumer.session.timeout.ms", "would-set", 45000, "50000", "DYNAMIC_GROUP_CONFIG", True),
        ("consumer.heartbeat.interval.ms", "would-unset", 6000, 5000, None, True),
    ]


def test_a_change_reports_what_the_backend_holds_afterwards() -> None:
    backend = FakeBackend(configs=CONFIGS)
    changes = change_config(backend, "g", {"consumer.session.timeout.ms": "50000"},
                            ["consumer.heartbeat.interval.ms"], False)
    assert [c[3] for c in backend.calls] == [True, False]
    assert [(c.group_id, c.action, c.old_value, c.new_value, c.source) for c in changes] == [
        ("g", "set", 45000, 50000, "DYNAMIC_GROUP_CONFIG"),
        ("g", "unset", 6000, 5000, "DEFAULT_CONFIG"),
    ]


def test_the_local_backend_refuses_a_value_out_of_the_broker_bounds_and_changes_nothing(tmp_path: Path) -> None:
    with LocalBackend(tmp_path, create=True) as backend:
        with pytest.raises(GroupctlError, match="nothing was changed"):
            change_config(backend, "g", {"consumer.session.timeout.ms": "1", "consumer.heartbeat.interval.ms": "6000"},
                          [], False)
        untouched = {e.name: e for e in backend.get_config("g")}
        assert {untouched[n].source for n in DEFAULTS} == {"DEFAULT_CONFIG"}  # the valid half was not made either
        (change,) = change_config(backend, "g", {"consumer.heartbeat.interval.ms": "6000"}, [], False)
        assert (change.action, change.new_value, change.source) == ("set", 6000, "DYNAMIC_GROUP_CONFIG")
