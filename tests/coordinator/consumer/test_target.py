"""`build_target`: the target assignment as a pure function of members, subscriptions and topics."""

from __future__ import annotations

import copy
import uuid

from groupctl.coordinator.consumer.target import build_target
from groupctl.protocol.data.records import ConsumerGroupMemberMetadataValue
from groupctl.protocol.records import decode_key, decode_value

T1 = uuid.UUID(int=11)
T2 = uuid.UUID(int=22)


def _member(assignor: str | None = None) -> ConsumerGroupMemberMetadataValue:
    return ConsumerGroupMemberMetadataValue(instance_id=None, rack_id=None, server_assignor=assignor)


def _decoded(records: list) -> list[tuple[int, dict, dict | None]]:
    out = []
    for key, value in records:
        k = decode_key(key)
        out.append((k.type, k.data, None if value is None else decode_value(k.type, value).data))
    return out


def test_a_new_group_gets_every_members_target_then_the_epoch() -> None:
    records, targets = build_target(
        "g", 1, members={"b": _member(), "a": _member()}, subscriptions={"a": frozenset({T1}), "b": frozenset({T1})},
        old_targets={}, partitions={T1: 4}, default_assignor="uniform",
    )
    assert sorted(targets) == ["a", "b"]
    assert targets["a"][T1] | targets["b"][T1] == frozenset(range(4))
    assert not targets["a"][T1] & targets["b"][T1]
    assert len(targets["a"][T1]) == len(targets["b"][T1]) == 2
    decoded = _decoded(records)
    assert [(t, k.get("memberId")) for t, k, _ in decoded] == [(7, "a"), (7, "b"), (6, None)]
    for _, key, value in decoded[:2]:
        assert [(tp["topicId"], sorted(tp["partitions"])) for tp in value["topicPartitions"]] == \
            [(T1, sorted(targets[key["memberId"]][T1]))]
    assert decoded[2][2]["assignmentEpoch"] == 1


def test_only_members_whose_target_changed_get_a_record() -> None:
    members = {"a": _member(), "b": _member()}
    subscriptions = {"a": frozenset({T1}), "b": frozenset({T1})}
    _, first = build_target("g", 1, members=members, subscriptions=subscriptions, old_targets={}, partitions={T1: 4},
                            default_assignor="uniform")
    records, again = build_target("g", 2, members=members, subscriptions=subscriptions, old_targets=first,
                                  partitions={T1: 4}, default_assignor="uniform")
    assert again == first
    assert [(t, v) for t, _, v in _decoded(records)] == [(6, {"assignmentEpoch": 2, "assignmentTimestamp": 0})]
    members["c"] = _member()
    subscriptions["c"] = frozenset({T1})
    records, third = build_target("g", 3, members=members, subscriptions=subscriptions, old_targets=first,
                                  partitions={T1: 4}, default_assignor="uniform")
    changed = [k["memberId"] for t, k, _ in _decoded(records) if t == 7]
    assert "c" in changed
    assert changed == sorted(m for m in third if m not in first or third[m] != first[m])


def test_the_assignor_most_members_ask_for_wins_over_the_default() -> None:
    """Two members on two 3-partition topics: range gives the first member both topics' extra partition
    (4 against 2), uniform balances them (3 and 3)."""
    subscriptions = {"a": frozenset({T1, T2}), "b": frozenset({T1, T2})}
    partitions = {T1: 3, T2: 3}

    def sizes(members: dict) -> list[int]:
        _, targets = build_target("g", 1, members=members, subscriptions=subscriptions, old_targets={},
                                  partitions=partitions, default_assignor="uniform")
        return sorted(sum(len(ps) for ps in targets[m].values()) for m in targets)

    assert sizes({"a": _member(), "b": _member()}) == [3, 3]
    assert sizes({"a": _member("range"), "b": _member()}) == [2, 4]


def test_it_is_pure() -> None:
    members = {"a": _member(), "b": _member()}
    subscriptions = {"a": frozenset({T1}), "b": frozenset({T1, T2})}
    old = {"a": {T1: frozenset({0, 1, 2})}}
    inputs = copy.deepcopy((members, subscriptions, old))
    first = build_target("g", 5, members=members, subscriptions=subscriptions, old_targets=old,
                         partitions={T1: 3, T2: 2}, default_assignor="range")
    second = build_target("g", 5, members=members, subscriptions=subscriptions, old_targets=old,
                          partitions={T1: 3, T2: 2}, default_assignor="range")
    assert first == second
    assert (members, subscriptions, old) == inputs
