"""leaving.py: one LeaveGroup answer, read the same whoever built it."""

from __future__ import annotations

from groupctl.errors import KAFKA_ERROR_CODES
from groupctl.leaving import NO_ANSWER, Departure, LeaveAnswer, removal_results
from groupctl.model import TopicPartition
from groupctl.protocol.data.groups import LeaveGroupResponseData, MemberIdentity, MemberResponse

UNKNOWN = KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"]
FENCED = KAFKA_ERROR_CODES["FENCED_INSTANCE_ID"]


def test_rows_follow_the_targets_whatever_order_the_broker_answers_in() -> None:
    targets = [MemberIdentity(group_instance_id="pod-1"), MemberIdentity(group_instance_id="pod-2"),
               MemberIdentity(member_id="m-3"), MemberIdentity(group_instance_id="pod-4")]
    b, a = MemberResponse(group_instance_id="pod-2", error_code=FENCED), MemberResponse(group_instance_id="pod-1")
    c = MemberResponse(member_id="m-3")
    answer = LeaveAnswer(LeaveGroupResponseData(members=[b, a, c]),
                         [Departure.refused(b), Departure(a, "m-1", [TopicPartition("t", 1), TopicPartition("t", 0)]),
                          Departure(c, "m-3")])
    rows = removal_results("g", targets, answer)
    assert [(r.instance_id, r.member_id, r.outcome, r.partitions) for r in rows] == [
        ("pod-1", "m-1", "removed", [TopicPartition("t", 0), TopicPartition("t", 1)]),
        ("pod-2", None, "FENCED_INSTANCE_ID", []),
        (None, "m-3", "removed", []),
        ("pod-4", None, "UNKNOWN_SERVER_ERROR", []),
    ]
    assert rows[1].message is not None and rows[3].message == NO_ANSWER


def test_a_target_named_twice_takes_two_answers_in_order() -> None:
    twice = [MemberIdentity(group_instance_id="pod-1")] * 2
    answer = LeaveAnswer()
    answer.add(twice[0], 0, "m-1")
    answer.add(twice[1], UNKNOWN, error_message="Member m-1 is not a member of group g.")
    assert [(r.outcome, r.message) for r in removal_results("g", twice, answer)] == [
        ("removed", None), ("UNKNOWN_MEMBER_ID", "Member m-1 is not a member of group g.")]
    assert answer.response.members == [d.member for d in answer.departures]


def test_before_v3_the_answer_is_the_first_members_error() -> None:
    answer = LeaveAnswer()
    answer.add(MemberIdentity(member_id="ghost"), UNKNOWN)
    assert answer.at_version(2) == LeaveGroupResponseData(error_code=UNKNOWN)
    assert answer.at_version(3) is answer.response and answer.response.error_code == 0


def test_a_group_that_does_not_exist_answers_every_member_unknown() -> None:
    answer = LeaveAnswer.unknown_group("gone", [MemberIdentity(group_instance_id="a"), MemberIdentity(member_id="b")])
    assert answer.response.error_code == 0
    assert [(m.member_id, m.group_instance_id, m.error_code) for m in answer.response.members] == [
        ("", "a", UNKNOWN), ("b", None, UNKNOWN)]
    assert {d.error_message for d in answer.departures} == {"Group gone not found."}
