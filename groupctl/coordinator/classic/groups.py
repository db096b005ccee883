"""The live classic groups and their rebalance state machine (Kafka's `GroupMetadataManager` for
classic groups: prepare, complete the join, await the sync, expire sessions).

Every step that answers a parked request or writes a snapshot does so into the `Result` it is given;
timer actions start their own, which the runtime completes when they fire.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from groupctl.coordinator.classic.group import CAN_REBALANCE_FROM, ClassicGroup, ClassicMember
from groupctl.coordinator.classic.messages import NONE, join_error
from groupctl.coordinator.classic.records import group_record
from groupctl.coordinator.runtime import Result, Runtime, classic_heartbeat_key, classic_join_key, classic_sync_key
from groupctl.describe import classic_description, classic_member_from_bytes
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.model import GroupDescription, GroupState
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE
from groupctl.protocol.data.group_admin import DescribedGroup, DescribedGroupMember
from groupctl.protocol.data.groups import JoinGroupResponseData, SyncGroupResponseData

if TYPE_CHECKING:
    from groupctl.log.replay import ClassicGroupState

_CODE = KAFKA_ERROR_CODES
EMPTY, STABLE, DEAD = GroupState.EMPTY, GroupState.STABLE, GroupState.DEAD
PREPARING, COMPLETING = GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE


class ClassicGroups:
    """The classic-protocol half of the coordinator: the live groups, over the shared runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self.groups: dict[str, ClassicGroup] = {}
        settings = runtime.classic_settings
        self.min_session_timeout_ms = int(settings["group.min.session.timeout.ms"])
        self.max_session_timeout_ms = int(settings["group.max.session.timeout.ms"])
        self.initial_delay_ms = int(settings["group.initial.rebalance.delay.ms"])
        self.max_size = int(settings["group.max.size"])

    # -- loading ---------------------------------------------------------------------------------------

    def load(self, group_id: str, state: ClassicGroupState) -> ClassicGroup:
        """A group as Kafka loads it from its last GroupMetadataValue: Stable with members, or Empty."""
        group = ClassicGroup(
            group_id, STABLE if state.raw_members else EMPTY, None, state.generation,
            state.protocol_type or None, state.protocol, state.leader,
            None if state.current_state_timestamp == -1 else state.current_state_timestamp,
        )
        for m in state.raw_members:
            member = ClassicMember(
                m.member_id, m.group_instance_id, m.client_id, m.client_host,
                m.session_timeout if m.rebalance_timeout == -1 else m.rebalance_timeout, m.session_timeout,
                state.protocol_type, [(state.protocol or "", bytes(m.subscription))], bytes(m.assignment),
            )
            group.members[member.member_id] = member
            if member.instance_id is not None:
                group.static[member.instance_id] = member.member_id
        self.groups[group_id] = group
        for member in group.members.values():
            self.reschedule_heartbeat(group, member)
        return group

    def restore(self, groups: list[ClassicGroup]) -> None:
        """Replace the groups loaded from the log with `groups` (soft state kept by a backend), timers re-armed.

        The timers get fresh deadlines; a backend that kept theirs moves them back afterwards.
        """
        self.groups.clear()
        for group in groups:
            self.groups[group.group_id] = group
            self._rearm(group)

    def _rearm(self, group: ClassicGroup) -> None:
        rt = self.rt
        now = rt.now_ms()
        gid = group.group_id
        for member in group.members.values():
            self.reschedule_heartbeat(group, member)
        for member_id in group.pending_join:
            rt.schedule(classic_heartbeat_key(gid, member_id), now + self.max_session_timeout_ms,
                        functools.partial(self._expire_heartbeat, gid, member_id))
        if group.state == PREPARING:
            rt.schedule(classic_join_key(gid), now + group.rebalance_timeout_ms(), lambda: self._join_timeout(group))
        elif group.state == COMPLETING:
            generation = group.generation
            rt.schedule(classic_sync_key(gid), now + group.rebalance_timeout_ms(),
                        lambda: self._expire_sync(group, generation))

    # -- reading ---------------------------------------------------------------------------------------

    def exists(self, group_id: str) -> bool:
        """Any group by this id: a live classic one, or one the log knows (consumer, simple, offsets only)."""
        return group_id in self.groups or group_id in self.rt.state.group_ids()

    def group(self, group_id: str) -> ClassicGroup:
        """The live classic group a member request names, or the error Kafka answers."""
        group = self.groups.get(group_id)
        if group is None:
            if group_id in self.rt.state.consumer:
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a classic group.")
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Group {group_id} not found.")
        return group

    def describe(self, group: ClassicGroup, coordinator: str | None = None) -> GroupDescription:
        """The live group as `group describe` shows it (members with their decoded subscriptions)."""
        consumer = group.protocol_type == PROTOCOL_TYPE
        members = [
            classic_member_from_bytes(
                m.member_id, m.instance_id, m.client_id, m.client_host, m.metadata(group.protocol_name),
                m.assignment, consumer=consumer, rebalance_timeout_ms=m.rebalance_timeout_ms,
                session_timeout_ms=m.session_timeout_ms,
            )
            for m in group.members.values()
        ]
        return classic_description(
            group.group_id, group.state, protocol_type=group.protocol_type or "", protocol=group.protocol_name,
            generation=group.generation, leader=group.leader, state_timestamp=group.state_timestamp,
            members=members, coordinator=coordinator,
        )

    def describe_groups(self, group_ids: list[str], version: int) -> list[DescribedGroup]:
        """DescribeGroups at `version`: member metadata and assignments only while Stable; a missing group,
        or a consumer or share group, is Dead (v6+: with GROUP_ID_NOT_FOUND, KIP-1043)."""
        out = []
        consumer, share = self.rt.state.consumer, self.rt.state.share
        for group_id in group_ids:
            group = self.groups.get(group_id)
            other_type = group_id in consumer or group_id in share
            if group is None and self.exists(group_id) and not other_type:
                group = ClassicGroup(group_id)  # a simple group: Empty, no protocol type
            if group is None:
                message = f"Group {group_id} is not a classic group." if other_type else f"Group {group_id} not found."
                described = DescribedGroup(group_id=group_id, group_state=DEAD)
                if version >= 6:
                    described.error_code, described.error_message = _CODE["GROUP_ID_NOT_FOUND"], message
                out.append(described)
                continue
            stable = group.state == STABLE
            out.append(DescribedGroup(
                group_id=group_id, group_state=group.state, protocol_type=group.protocol_type or "",
                protocol_data=(group.protocol_name or "") if stable else "",
                members=[DescribedGroupMember(
                    member_id=m.member_id, group_instance_id=m.instance_id, client_id=m.client_id,
                    client_host=m.client_host, member_metadata=m.metadata(group.protocol_name) if stable else b"",
                    member_assignment=m.assignment if stable else b"",
                ) for m in group.members.values()],
            ))
        return out

    def validate_offset_commit(self, group_id: str, member_id: str, instance_id: str | None,
                               generation: int) -> None:
        """`ClassicGroup.validateOffsetCommit` for a non-transactional commit; a simple group is an Empty one."""
        group = self.groups.get(group_id) or ClassicGroup(group_id)
        if generation < 0 and group.state == EMPTY:
            return
        if generation >= 0 or member_id != "" or instance_id is not None:
            group.validate_member(member_id, instance_id)
            if generation != group.generation:
                raise KafkaError("ILLEGAL_GENERATION")
        elif group.state != EMPTY:
            raise KafkaError("UNKNOWN_MEMBER_ID")
        if group.state == COMPLETING:
            raise KafkaError("REBALANCE_IN_PROGRESS")

    # -- the state machine -----------------------------------------------------------------------------

    def transition(self, group: ClassicGroup, state: GroupState) -> None:
        group.previous_state = group.state
        group.state = state
        group.state_timestamp = self.rt.now_ms()

    def maybe_prepare_or_complete(self, group: ClassicGroup, out: Result) -> None:
        if group.state in CAN_REBALANCE_FROM:
            self.prepare_rebalance(group, out)
        else:
            self.maybe_complete_join(group, out)

    def maybe_complete_join(self, group: ClassicGroup, out: Result) -> None:
        if group.state == PREPARING and group.all_joined() and group.previous_state != EMPTY:
            self.complete_join(group, out)

    def prepare_rebalance(self, group: ClassicGroup, out: Result) -> None:
        rt = self.rt
        if group.state == COMPLETING:
            for member in group.members.values():
                member.assignment = b""
                if member.awaiting_sync is not None:
                    callback, member.awaiting_sync = member.awaiting_sync, None
                    out.reply(callback, SyncGroupResponseData(error_code=_CODE["REBALANCE_IN_PROGRESS"]))
                    # As Kafka's propagateAssignment: a session that lapsed while the member waited for
                    # the leader was ignored then, so it starts again now.
                    self.reschedule_heartbeat(group, member)
        group.pending_sync.clear()
        rt.timers.cancel(classic_sync_key(group.group_id))
        initial = group.state == EMPTY
        if initial:
            delay = self.initial_delay_ms
            remaining = max(group.rebalance_timeout_ms() - delay, 0)
            self._schedule_initial(group, delay, remaining)
        self.transition(group, PREPARING)
        if not initial:
            if group.all_joined():
                self.complete_join(group, out)
            else:
                rt.schedule(classic_join_key(group.group_id), rt.now_ms() + group.rebalance_timeout_ms(),
                            lambda: self._join_timeout(group))

    def _schedule_initial(self, group: ClassicGroup, delay: int, remaining: int) -> None:
        def fire() -> Result:
            out: Result = Result()
            if group.new_member_added and remaining != 0:
                group.new_member_added = False
                self._schedule_initial(group, min(self.initial_delay_ms, remaining), max(remaining - delay, 0))
            else:
                self.complete_join(group, out)
            return out

        self.rt.schedule(classic_join_key(group.group_id), self.rt.now_ms() + delay, fire)

    def _join_timeout(self, group: ClassicGroup) -> Result:
        out: Result = Result()
        self.complete_join(group, out)
        return out

    def complete_join(self, group: ClassicGroup, out: Result) -> None:
        """`completeClassicGroupJoin`: drop dynamic members that did not rejoin, then the next generation."""
        rt = self.rt
        gid = group.group_id
        rt.timers.cancel(classic_join_key(gid))
        if self.groups.get(gid) is not group:
            return
        for member in [m for m in group.members.values() if m.awaiting_join is None and m.instance_id is None]:
            group.remove(member.member_id)
            rt.timers.cancel(classic_heartbeat_key(gid, member.member_id))
        if group.members and not _elect_joined_leader(group):
            rt.schedule(classic_join_key(gid), rt.now_ms() + group.rebalance_timeout_ms(),
                        lambda: self._join_timeout(group))
            return
        group.generation += 1
        group.pending_sync.clear()
        if not group.members:
            group.protocol_name = None
            self.transition(group, EMPTY)
            out.records.append(group_record(group, {}))
            return
        group.protocol_name = group.select_protocol()
        self.transition(group, COMPLETING)
        for member in list(group.members.values()):
            if member.awaiting_join is not None:
                callback, member.awaiting_join = member.awaiting_join, None
                out.reply(callback, join_response(group, member.member_id))
            self.reschedule_heartbeat(group, member)
            member.is_new = False
            group.pending_sync.add(member.member_id)
        generation = group.generation
        rt.schedule(classic_sync_key(gid), rt.now_ms() + group.rebalance_timeout_ms(),
                    lambda: self._expire_sync(group, generation))

    def _expire_sync(self, group: ClassicGroup, generation: int) -> Result:
        out: Result = Result()
        if generation != group.generation or group.state not in (COMPLETING, STABLE):
            return out
        if group.pending_sync:
            for member_id in list(group.pending_sync):
                group.remove(member_id)
                self.rt.timers.cancel(classic_heartbeat_key(group.group_id, member_id))
            self.prepare_rebalance(group, out)
        return out

    def reschedule_heartbeat(self, group: ClassicGroup, member: ClassicMember, timeout_ms: int | None = None) -> None:
        timeout = member.session_timeout_ms if timeout_ms is None else timeout_ms
        gid, mid = group.group_id, member.member_id
        self.rt.schedule(classic_heartbeat_key(gid, mid), self.rt.now_ms() + timeout,
                         lambda: self._expire_heartbeat(gid, mid))

    def schedule_pending(self, group: ClassicGroup, member_id: str, timeout_ms: int) -> None:
        """A member id handed out with MEMBER_ID_REQUIRED: it must join again with it within the session."""
        gid = group.group_id
        self.rt.schedule(classic_heartbeat_key(gid, member_id), self.rt.now_ms() + timeout_ms,
                         lambda: self._expire_heartbeat(gid, member_id))

    def _expire_heartbeat(self, group_id: str, member_id: str) -> Result:
        out: Result = Result()
        group = self.groups.get(group_id)
        if group is None:
            return out
        if member_id in group.pending_join:
            group.pending_join.discard(member_id)
            if group.state == PREPARING and group.all_joined():
                self.complete_join(group, out)
            return out
        member = group.members.get(member_id)
        if member is None:
            return out
        satisfied = not member.is_new and (member.awaiting_join is not None or member.awaiting_sync is not None)
        if not satisfied:
            self._remove_member(group, member, out)
        return out

    def _remove_member(self, group: ClassicGroup, member: ClassicMember, out: Result) -> None:
        if member.awaiting_join is not None:
            callback, member.awaiting_join = member.awaiting_join, None
            out.reply(callback, join_error(_CODE["UNKNOWN_MEMBER_ID"], ""))
        group.remove(member.member_id)
        if group.state in (STABLE, COMPLETING):
            self.maybe_prepare_or_complete(group, out)
        elif group.state == PREPARING and group.all_joined():
            self.complete_join(group, out)


def join_response(group: ClassicGroup, member_id: str) -> JoinGroupResponseData:
    """The JoinGroup answer of the current generation; only the leader gets the member list."""
    return JoinGroupResponseData(
        error_code=NONE, generation_id=group.generation, protocol_type=group.protocol_type,
        protocol_name=group.protocol_name, leader=group.leader or "", member_id=member_id,
        members=group.current_members() if group.leader == member_id else [],
    )


def _elect_joined_leader(group: ClassicGroup) -> bool:
    if group.leader is None:
        return False
    if group.members[group.leader].awaiting_join is not None:
        return True
    for member in group.members.values():
        if member.awaiting_join is not None:
            group.leader = member.member_id
            return True
    return False
