"""JoinGroup's handler: a request it rejects leaves nothing behind, and answers go out only after the
request's records are written."""

from __future__ import annotations

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.errors import KAFKA_ERROR_CODES as CODE
from groupctl.protocol.data.groups import JoinGroupRequestData, JoinGroupResponseData
from tests.classic_requests import join_req

SESSION = 10_000


@pytest.mark.parametrize(("request_", "error"), [
    (join_req("new", SESSION, protocols=[]), "INCONSISTENT_GROUP_PROTOCOL"),
    (join_req("new", SESSION, protocol_type="", protocols=[("range", b"")]), "INCONSISTENT_GROUP_PROTOCOL"),
    (join_req("new", 1, protocols=[("range", b"")]), "INVALID_SESSION_TIMEOUT"),
    (join_req("new", SESSION, member_id="m-1", protocols=[("range", b"")]), "GROUP_ID_NOT_FOUND"),
], ids=["no-protocols", "no-protocol-type", "session-timeout", "unknown-member"])
def test_a_rejected_join_to_a_new_group_leaves_no_group(request_: JoinGroupRequestData, error: str) -> None:
    coord = Coordinator(ids=IdGenerator(7))
    answers: list[JoinGroupResponseData] = []
    coord.join_group(request_, answers.append)
    assert [a.error_code for a in answers] == [CODE[error]]
    assert "new" not in coord.classic.groups
    assert coord.group_listings() == []
    assert coord.runtime.records_written == 0
    assert not coord.runtime.timers.live_keys()
    assert coord.rebuild().group_listings() == []


def test_an_accepted_join_creates_the_group_live_and_in_the_log() -> None:
    """The counterpart: the same group with a protocol exists everywhere the rejected one must not."""
    coord = Coordinator(ids=IdGenerator(7))
    answers: list[JoinGroupResponseData] = []
    coord.join_group(join_req("new", SESSION, protocols=[("range", b"")]), answers.append)
    assert [a.error_code for a in answers] == [CODE["MEMBER_ID_REQUIRED"]]
    assert "new" in coord.classic.groups
    assert [g.group_id for g in coord.group_listings()] == ["new"]
    assert coord.runtime.records_written == 1
    assert [g.group_id for g in coord.rebuild().group_listings()] == ["new"]


def test_a_rejected_join_to_a_group_with_offsets_only_adds_no_classic_group() -> None:
    from groupctl.coordinator.offsets import CommitPartition

    coord = Coordinator(ids=IdGenerator(7))
    coord.create_topic("foo", 1)
    coord.commit_offsets("simple", "", -1, [CommitPartition("foo", 0, 5)])
    before = coord.group_listings()
    answers: list[JoinGroupResponseData] = []
    coord.join_group(join_req("simple", SESSION, protocols=[]), answers.append)
    assert [a.error_code for a in answers] == [CODE["INCONSISTENT_GROUP_PROTOCOL"]]
    assert "simple" not in coord.classic.groups
    assert coord.group_listings() == before


def test_answers_are_delivered_after_the_records_are_written() -> None:
    """As Kafka completes a response after its write: the new group's record is in the log when the
    member hears MEMBER_ID_REQUIRED."""
    coord = Coordinator(ids=IdGenerator(7))
    seen: list[int] = []
    coord.join_group(join_req("g", SESSION, protocols=[("range", b"")]),
                     lambda _answer: seen.append(coord.runtime.records_written))
    assert seen == [1]
