"""The runtime: timer keys keep the values existing DIRs persisted, and a result's records are written
before its replies run and before the deferred tasks."""

from __future__ import annotations

from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.runtime import (
    TIMER_KINDS,
    Result,
    Runtime,
    classic_heartbeat_key,
    classic_join_key,
    classic_sync_key,
    member_join_key,
    member_sync_key,
    rebalance_key,
    session_key,
    share_session_key,
)


def test_timer_keys_are_the_tuples_dir_timers_json_holds() -> None:
    """timers.json stores keys as JSON lists; a directory written before must load the same keys."""
    assert classic_join_key("g") == ("join", "g")
    assert classic_sync_key("g") == ("sync", "g")
    assert classic_heartbeat_key("g", "m") == ("heartbeat", "g", "m")
    assert session_key("g", "m") == ("session", "g", "m")
    assert rebalance_key("g", "m") == ("rebalance", "g", "m")
    assert member_join_key("g", "m") == ("member-join", "g", "m")
    assert member_sync_key("g", "m") == ("member-sync", "g", "m")
    assert share_session_key("g", "m") == ("share-session", "g", "m")
    keys = [classic_join_key("g"), classic_sync_key("g"), classic_heartbeat_key("g", "m"), session_key("g", "m"),
            rebalance_key("g", "m"), member_join_key("g", "m"), member_sync_key("g", "m"),
            share_session_key("g", "m")]
    assert sorted(key[0] for key in keys) == sorted(TIMER_KINDS)


def test_complete_writes_records_then_replies_then_tasks() -> None:
    rt = Runtime()
    seen: list[tuple[str, int]] = []
    task_result: Result[None] = Result(None, [rec.group_epoch("g", 2, 0)])

    def task() -> Result[None]:
        seen.append(("task", rt.records_written))
        return task_result

    result: Result[None] = Result(None, [rec.group_epoch("g", 1, 0)])
    result.reply(lambda answer: seen.append((answer, rt.records_written)), "reply")
    rt.schedule_task("t", task)
    rt.complete(result)
    assert seen == [("reply", 1), ("task", 1)]
    assert rt.records_written == 2
    assert rt.state.consumer["g"].epoch == 2


def test_a_timer_firing_is_completed_like_a_request() -> None:
    rt = Runtime()
    rt.schedule(session_key("g", "m"), 10, lambda: Result(None, [rec.group_epoch("g", 7, 0)]))
    assert rt.fire_due() == 0
    rt.clock.set(10)  # type: ignore[attr-defined]
    assert rt.fire_due() == 1
    assert rt.state.consumer["g"].epoch == 7
