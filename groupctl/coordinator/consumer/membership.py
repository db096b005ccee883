"""Members leaving a KIP-848 group: by heartbeat (epoch -1, or -2 for a static member's temporary
leave), by an admin LeaveGroup, or fenced when a session or rebalance timer expires; and those timers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.messages import STATIC_LEAVE_EPOCH, HeartbeatRequest, HeartbeatResponse, LeaveResult
from groupctl.coordinator.consumer.reconcile import MemberAssignment
from groupctl.coordinator.consumer.subscriptions import topics_hash
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Result, Runtime, rebalance_key, session_key
from groupctl.coordinator.state import GroupIndex
from groupctl.describe import current_held
from groupctl.errors import KafkaError
from groupctl.model import MemberIdentity

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState


class ConsumerGroups:
    """The KIP-848 half of the coordinator over the shared runtime; `exists` tells whether any group
    (of either protocol) has an id, for Kafka's error messages."""

    def __init__(self, runtime: Runtime, exists: Callable[[str], bool]) -> None:
        self.rt = runtime
        self.exists = exists

    def group(self, group_id: str) -> ConsumerGroupState:
        """The consumer group a request names, or the error Kafka answers."""
        group = self.rt.state.consumer.get(group_id)
        if group is None:
            if self.exists(group_id):
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a consumer group.")
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Consumer group {group_id} not found.")
        return group

    # -- timers ------------------------------------------------------------------------------------------

    def schedule_session_timeout(self, group_id: str, member_id: str) -> None:
        rt = self.rt
        deadline = rt.now_ms() + rt.configs.session_timeout_ms(group_id)
        rt.schedule(session_key(group_id, member_id), deadline, lambda: self.fence(group_id, member_id))

    def schedule_rebalance_timeout(self, group_id: str, member_id: str, epoch: int, timeout_ms: int) -> None:
        def expire() -> Result[None]:
            group = self.rt.state.consumer.get(group_id)
            current = group.current.get(member_id) if group is not None else None
            if current is not None and current["memberEpoch"] == epoch:
                return self.fence(group_id, member_id)
            return Result()

        self.rt.schedule(rebalance_key(group_id, member_id), self.rt.now_ms() + max(timeout_ms, 0), expire)

    def cancel_rebalance_timeout(self, group_id: str, member_id: str) -> None:
        self.rt.timers.cancel(rebalance_key(group_id, member_id))

    def cancel_member_timers(self, group_id: str, member_id: str) -> None:
        self.rt.timers.cancel(session_key(group_id, member_id))
        self.rt.timers.cancel(rebalance_key(group_id, member_id))

    # -- removing members --------------------------------------------------------------------------------

    def fence(self, group_id: str, member_id: str) -> Result[None]:
        """Remove one member (session or rebalance timeout); nothing when it is already gone."""
        group = self.rt.state.consumer.get(group_id)
        if group is None or (member_id not in group.members and member_id not in group.current):
            return Result()
        self.cancel_member_timers(group_id, member_id)
        return Result(None, self.fence_records(group_id, [member_id]))

    def fence_records(self, group_id: str, member_ids: list[str]) -> list[Record]:
        """Remove members and bump the group epoch once, with the subscribed topics recomputed."""
        group = self.group(group_id)
        idx = self.rt.state.indexes.get(group_id) or GroupIndex()
        out: list[Record] = []
        names: dict[str, int] = dict(idx.names)
        regexes: dict[str, int] = dict(idx.regex_members)
        for member_id in member_ids:
            out += remove_member_records(group_id, member_id)
            meta = group.members.get(member_id)
            if meta is not None:
                for name in meta.get("subscribedTopicNames") or ():
                    names[name] -= 1
                regex = meta.get("subscribedTopicRegex")
                if regex:
                    regexes[regex] -= 1
        for regex, count in sorted(regexes.items()):
            if count <= 0 and regex in group.regexes:
                out.append(rec.regex_tombstone(group_id, regex))
        subscribed = {n for n, k in names.items() if k > 0}
        for regex, resolved in group.regexes.items():
            if regexes.get(regex, 0) > 0:
                subscribed.update(resolved["topics"])
        out.append(rec.group_epoch(group_id, group.epoch + 1, topics_hash(self.rt.topics, subscribed)))
        return out

    def leave(self, req: HeartbeatRequest) -> Result[HeartbeatResponse]:
        """A heartbeat with epoch -1 (leave) or -2 (a static member leaving for a while, keeping its place)."""
        gid = req.group_id
        group = self.group(gid)
        if req.instance_id is None:
            if req.member_id not in group.members and req.member_id not in group.current:
                raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {req.member_id} is not a member of group {gid}.")
            self.cancel_member_timers(gid, req.member_id)
            return Result(HeartbeatResponse(member_id=req.member_id, member_epoch=req.member_epoch),
                          self.fence_records(gid, [req.member_id]))
        idx = self.rt.state.indexes.get(gid) or GroupIndex()
        existing = idx.static.get(req.instance_id)
        if existing is None:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {req.instance_id} is unknown.")
        if existing != req.member_id:
            raise KafkaError(
                "FENCED_INSTANCE_ID",
                f"Static member {req.member_id} with instance id {req.instance_id} was fenced by member {existing}.",
            )
        if req.member_epoch == STATIC_LEAVE_EPOCH:
            ma = rec.member_assignment(group.current.get(existing))
            leaving = MemberAssignment(ma.state, STATIC_LEAVE_EPOCH, ma.previous_member_epoch, ma.assigned, {})
            return Result(HeartbeatResponse(member_id=existing, member_epoch=STATIC_LEAVE_EPOCH),
                          [rec.current_record(gid, existing, leaving)])
        self.cancel_member_timers(gid, existing)
        return Result(HeartbeatResponse(member_id=req.member_id, member_epoch=req.member_epoch),
                      self.fence_records(gid, [existing]))

    def admin_leave(self, group_id: str, identities: list[MemberIdentity]) -> Result[list[LeaveResult]]:
        """LeaveGroup v3+ on a consumer group: members by id or instance id; one epoch bump for them all."""
        group = self.group(group_id)
        idx = self.rt.state.indexes.get(group_id) or GroupIndex()
        results: list[LeaveResult] = []
        removed: list[str] = []
        for member_id, instance_id, _reason in identities:
            result = LeaveResult(member_id, instance_id)
            try:
                target = _leaving_member(group_id, group, idx, member_id, instance_id)
                if target in removed:
                    raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {target} is not a member of group {group_id}.")
                removed.append(target)
                result.removed_member_id = target
                result.partitions = sorted(current_held(group.current.get(target)))
            except KafkaError as exc:
                result.error_code, result.error_message = exc.code, exc.message
            results.append(result)
        out: Result[list[LeaveResult]] = Result(results)
        if removed:
            out.records = self.fence_records(group_id, removed)
            for member_id in removed:
                self.cancel_member_timers(group_id, member_id)
        return out


def _leaving_member(group_id: str, group: ConsumerGroupState, idx: GroupIndex, member_id: str,
                    instance_id: str | None) -> str:
    """The member an admin LeaveGroup names: a classic-protocol member by id, or any by instance id."""
    if instance_id is None:
        if member_id not in group.members and member_id not in group.current:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {group_id}.")
        if (group.members.get(member_id) or {}).get("classicMemberMetadata") is None:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} does not use the classic protocol.")
        return member_id
    found = idx.static.get(instance_id)
    if found is None:
        raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {instance_id} is unknown.")
    if member_id != "" and member_id != found:
        raise KafkaError(
            "FENCED_INSTANCE_ID",
            f"Static member {member_id} with instance id {instance_id} was fenced by member {found}.",
        )
    return found


def remove_member_records(group_id: str, member_id: str) -> list[Record]:
    """Kafka's `removeMember`: the order matters for replay."""
    return [
        rec.current_assignment_tombstone(group_id, member_id),
        rec.target_member_tombstone(group_id, member_id),
        rec.member_tombstone(group_id, member_id),
    ]
