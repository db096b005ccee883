"""Classic groups' soft state through DIR's classic-groups.json: a rebalance in flight survives the
process, with its state as the enum, its members, and its timers re-armed (their deadlines are
timers.json's business)."""

from __future__ import annotations

import json

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import classic_heartbeat_key, classic_join_key
from groupctl.coordinator.soft_state import SoftState
from groupctl.model import GroupState
from groupctl.protocol.data.groups import JoinGroupResponseData
from tests.classic_requests import join_req


def test_a_rebalance_in_flight_round_trips_through_json() -> None:
    coord = Coordinator(ids=IdGenerator(9))
    answers: list[JoinGroupResponseData] = []
    request = join_req("g", 10_000, 30_000, protocols=[("range", b"\x01")], group_instance_id="pod-0")
    coord.join_group(request, answers.append)  # static: joins at once, parked for the initial delay
    assert answers == []
    group = coord.classic.groups["g"]
    assert group.state == GroupState.PREPARING_REBALANCE
    saved = json.loads(json.dumps(coord.snapshot().classic_groups))
    assert saved[0]["state"] == "PreparingRebalance"

    reopened = coord.rebuild()
    assert reopened.classic.groups["g"].state == GroupState.EMPTY  # the log alone: the last record
    reopened.restore(SoftState(classic_groups=saved))
    restored = reopened.classic.groups["g"]
    assert restored.state is GroupState.PREPARING_REBALANCE and restored.previous_state is GroupState.EMPTY
    assert list(restored.members) == list(group.members)
    assert restored.static == group.static
    member = restored.members[group.leader]  # type: ignore[index]
    assert member.protocols == [("range", b"\x01")] and member.awaiting_join is not None
    assert classic_join_key("g") in reopened.runtime.timers
    assert classic_heartbeat_key("g", member.member_id) in reopened.runtime.timers
    assert reopened.snapshot().classic_groups == saved
