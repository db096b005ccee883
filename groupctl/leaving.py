"""A LeaveGroup's answer, one type for every caller: `serve`'s listener, `--local` and `-b`.

The answer is Kafka's `LeaveGroupResponseData` as the broker sends it, plus, per member it names,
what Kafka does not send: which member was removed and the partitions it held. The coordinator
builds both where it removes the member (`--local`, `serve`); on a cluster (`-b`) the response comes
off the wire and the rest from the describe just before. `removal_results` turns either into the
rows `group remove-members` shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from groupctl.errors import KAFKA_DEFAULT_MESSAGES, KAFKA_ERROR_CODES, KAFKA_ERROR_NAMES
from groupctl.model import RemovalResult, TopicPartition
from groupctl.protocol.data.groups import LeaveGroupResponseData, MemberIdentity, MemberResponse

UNKNOWN_MEMBER_ID = KAFKA_ERROR_CODES["UNKNOWN_MEMBER_ID"]
#: LeaveGroup v3 turned the single MemberId into a batch of member identities.
BATCH_LEAVE_VERSION = 3
#: A member the request named that the broker's answer leaves out (a broker bug, but seen).
NO_ANSWER = "the coordinator's LeaveGroup answer did not mention this member"
REMOVED = "removed"


@dataclass(slots=True)
class Departure:
    """One member a LeaveGroup named: its entry in the response, the member removed (None when none
    was) and the partitions it held; `error_message` says why a member was not removed."""

    member: MemberResponse
    removed_member_id: str | None = None
    held: list[TopicPartition] = field(default_factory=list)
    error_message: str | None = None

    @classmethod
    def refused(cls, member: MemberResponse) -> Departure:
        """A member a broker did not remove, with Kafka's default message for its error (the wire carries none)."""
        return cls(member, error_message=KAFKA_DEFAULT_MESSAGES.get(KAFKA_ERROR_NAMES.get(member.error_code, "")))


@dataclass(slots=True)
class LeaveAnswer:
    """A LeaveGroup's response, and one `Departure` per member of `response.members`, in order."""

    response: LeaveGroupResponseData = field(default_factory=LeaveGroupResponseData)
    departures: list[Departure] = field(default_factory=list)

    def add(self, identity: MemberIdentity, error_code: int, removed_member_id: str | None = None,
            held: list[TopicPartition] | None = None, error_message: str | None = None) -> Departure:
        """Answer one member named in the request."""
        member = MemberResponse(member_id=identity.member_id, group_instance_id=identity.group_instance_id,
                                error_code=error_code)
        self.response.members.append(member)
        departure = Departure(member, removed_member_id, held or [], error_message)
        self.departures.append(departure)
        return departure

    def at_version(self, version: int) -> LeaveGroupResponseData:
        """The response as `version` carries it: before v3 a single error, the first member's."""
        if version >= BATCH_LEAVE_VERSION:
            return self.response
        first = next((m.error_code for m in self.response.members if m.error_code), self.response.error_code)
        return LeaveGroupResponseData(error_code=first)

    @classmethod
    def unknown_group(cls, group_id: str, identities: Sequence[MemberIdentity]) -> LeaveAnswer:
        """A group the coordinator does not have: the request succeeds and every member is
        UNKNOWN_MEMBER_ID (`GroupCoordinatorService.leaveGroup`)."""
        answer = cls()
        for identity in identities:
            answer.add(identity, UNKNOWN_MEMBER_ID, error_message=f"Group {group_id} not found.")
        return answer


def removal_results(group_id: str, targets: Sequence[MemberIdentity], answer: LeaveAnswer) -> list[RemovalResult]:
    """One row per target: removed (with what it held) or the error the broker answered.

    Each target takes the first answer not yet taken that names the same instance id (or, for a target
    named by member id only, the same member id): a coordinator answers in request order, a broker's
    answer is matched however it is ordered.
    """
    taken = [False] * len(answer.departures)
    out = []
    for target in targets:
        index = _answer_for(target, answer.departures, taken)
        if index is None:
            out.append(RemovalResult(group_id, target.group_instance_id, target.member_id or None,
                                     "UNKNOWN_SERVER_ERROR", NO_ANSWER))
            continue
        departure = answer.departures[index]
        member = departure.member
        named = departure.removed_member_id or target.member_id or member.member_id or None
        if member.error_code:
            name = KAFKA_ERROR_NAMES.get(member.error_code, str(member.error_code))
            out.append(RemovalResult(group_id, target.group_instance_id, named, name, departure.error_message))
        else:
            out.append(RemovalResult(group_id, target.group_instance_id, named, REMOVED, None,
                                     sorted(departure.held)))
    return out


def _answer_for(target: MemberIdentity, departures: Sequence[Departure], taken: list[bool]) -> int | None:
    for i, departure in enumerate(departures):
        member = departure.member
        if taken[i]:
            continue
        if target.group_instance_id is not None:
            matches = member.group_instance_id == target.group_instance_id
        else:
            # An instance id is never empty: "" (the class default) is as good as null here.
            matches = not member.group_instance_id and member.member_id == target.member_id
        if matches:
            taken[i] = True
            return i
    return None
