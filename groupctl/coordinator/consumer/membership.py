"""Members leaving a KIP-848 group: by heartbeat (epoch -1, or -2 for a static member's temporary
leave), by an admin LeaveGroup, or fenced when a session or rebalance timer expires; and those timers."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeGuard

from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.messages import STATIC_LEAVE_EPOCH
from groupctl.coordinator.consumer.reconcile import MemberAssignment
from groupctl.coordinator.consumer.subscriptions import topic_facts
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import (
    Result,
    Runtime,
    member_join_key,
    member_sync_key,
    rebalance_key,
    session_key,
)
from groupctl.coordinator.state import GroupIndex
from groupctl.describe import stored_protocol
from groupctl.errors import KafkaError
from groupctl.leaving import LeaveAnswer
from groupctl.model import TopicPartition
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
)
from groupctl.protocol.data.groups import MemberIdentity
from groupctl.protocol.data.records import ClassicMemberMetadata, ConsumerGroupMemberMetadataValue
from groupctl.protocol.member_bytes import current_held

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState

#: The router's online downgrade: given a group, the members about to leave and the (member id, type-5
#: value) of a static member replacing them, the conversion to a classic group that replaces their
#: removal, or None when the group stays a consumer group.
Downgrade = Callable[[str, list[str], "tuple[str, ConsumerGroupMemberMetadataValue] | None"], "Result | None"]


def uses_classic(member: ConsumerGroupMemberMetadataValue | None) -> TypeGuard[ConsumerGroupMemberMetadataValue]:
    """Whether a type-5 value is a member speaking the classic protocol inside a consumer group."""
    return member is not None and stored_protocol(member) == "classic"


def classic_metadata_of(member: ConsumerGroupMemberMetadataValue | None) -> ClassicMemberMetadata | None:
    """The ClassicMemberMetadata of a member speaking the classic protocol, None for any other."""
    return member.classic_member_metadata if member is not None and uses_classic(member) else None


class ConsumerGroups:
    """The KIP-848 half of the coordinator over the shared runtime; `exists` tells whether any group
    (of either protocol) has an id, for Kafka's error messages; `downgrade` is set by the router."""

    def __init__(self, runtime: Runtime, exists: Callable[[str], bool]) -> None:
        self.rt = runtime
        self.exists = exists
        self.downgrade: Downgrade | None = None

    def group(self, group_id: str) -> ConsumerGroupState:
        """The consumer group a request names, or the error Kafka answers."""
        group = self.rt.state.consumer.get(group_id)
        if group is None:
            if self.exists(group_id):
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a consumer group.")
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Consumer group {group_id} not found.")
        return group

    # -- timers ------------------------------------------------------------------------------------------

    def schedule_session_timeout(self, group_id: str, member_id: str, timeout_ms: int | None = None) -> None:
        """The member's session: `timeout_ms`, else a classic-protocol member's own session timeout, else
        the group's `consumer.session.timeout.ms`."""
        rt = self.rt
        if timeout_ms is None:
            group = rt.state.consumer.get(group_id)
            classic = classic_metadata_of(group.members.get(member_id) if group is not None else None)
            timeout_ms = (classic.session_timeout_ms if classic is not None
                          else rt.configs.session_timeout_ms(group_id))
        rt.schedule(session_key(group_id, member_id), rt.now_ms() + timeout_ms,
                    lambda: self.fence(group_id, member_id))

    def schedule_join_timeout_if_absent(self, group_id: str, member_id: str, timeout_ms: int) -> None:
        """A classic-protocol member told to rejoin is fenced if it does not within its rebalance timeout."""
        key = member_join_key(group_id, member_id)
        if key not in self.rt.timers:
            self.rt.schedule(key, self.rt.now_ms() + max(timeout_ms, 0), lambda: self.fence(group_id, member_id))

    def schedule_sync_timeout(self, group_id: str, member_id: str, timeout_ms: int) -> None:
        """A classic-protocol member that joined is fenced if it does not SyncGroup within its rebalance timeout."""
        self.rt.schedule(member_sync_key(group_id, member_id), self.rt.now_ms() + max(timeout_ms, 0),
                         lambda: self.fence(group_id, member_id))

    def schedule_rebalance_timeout(self, group_id: str, member_id: str, epoch: int, timeout_ms: int) -> None:
        def expire() -> Result[None]:
            group = self.rt.state.consumer.get(group_id)
            current = group.current.get(member_id) if group is not None else None
            if current is not None and current.member_epoch == epoch:
                return self.fence(group_id, member_id)
            return Result()

        self.rt.schedule(rebalance_key(group_id, member_id), self.rt.now_ms() + max(timeout_ms, 0), expire)

    def cancel_rebalance_timeout(self, group_id: str, member_id: str) -> None:
        self.rt.timers.cancel(rebalance_key(group_id, member_id))

    def cancel_member_timers(self, group_id: str, member_id: str) -> None:
        for key in (session_key, rebalance_key, member_join_key, member_sync_key):
            self.rt.timers.cancel(key(group_id, member_id))

    # -- removing members --------------------------------------------------------------------------------

    def fence(self, group_id: str, member_id: str) -> Result[None]:
        """Remove one member (session or rebalance timeout); nothing when it is already gone."""
        group = self.rt.state.consumer.get(group_id)
        if group is None or (member_id not in group.members and member_id not in group.current):
            return Result()
        self.cancel_member_timers(group_id, member_id)
        return self.fence_members(group_id, [member_id])

    def fence_members(self, group_id: str, member_ids: list[str]) -> Result:
        """Kafka's `consumerGroupFenceMembers`: the group downgraded to a classic group when the router
        says so (the last consumer-protocol members leaving classic ones), else the members removed."""
        if self.downgrade is not None:
            converted = self.downgrade(group_id, member_ids, None)
            if converted is not None:
                return converted
        return Result(None, self.fence_records(group_id, member_ids))

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
                for name in meta.subscribed_topic_names:
                    names[name] -= 1
                regex = meta.subscribed_topic_regex
                if regex:
                    regexes[regex] -= 1
        for regex, count in sorted(regexes.items()):
            if count <= 0 and regex in group.regexes:
                out.append(rec.regex_tombstone(group_id, regex))
        subscribed = {n for n, k in names.items() if k > 0}
        for regex, resolved in group.regexes.items():
            if regexes.get(regex, 0) > 0:
                subscribed.update(resolved.topics)
        facts = topic_facts(self.rt.topics, subscribed)
        out += rec.epoch_records(group_id, group.epoch + 1, facts, group, self.rt.kafka_40_records)
        return out

    def leave(self, req: ConsumerGroupHeartbeatRequestData) -> Result[ConsumerGroupHeartbeatResponseData]:
        """A heartbeat with epoch -1 (leave) or -2 (a static member leaving for a while, keeping its place)."""
        gid = req.group_id
        group = self.group(gid)
        if req.instance_id is None:
            if req.member_id not in group.members and req.member_id not in group.current:
                raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {req.member_id} is not a member of group {gid}.")
            self.cancel_member_timers(gid, req.member_id)
            return _answered(self.fence_members(gid, [req.member_id]), ConsumerGroupHeartbeatResponseData(
                member_id=req.member_id, member_epoch=req.member_epoch))
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
            return Result(ConsumerGroupHeartbeatResponseData(member_id=existing,
                                                             member_epoch=STATIC_LEAVE_EPOCH),
                          [rec.current_record(gid, existing, leaving)])
        self.cancel_member_timers(gid, existing)
        return _answered(self.fence_members(gid, [existing]), ConsumerGroupHeartbeatResponseData(
            member_id=req.member_id, member_epoch=req.member_epoch))

    def leave_group(self, group_id: str, identities: list[MemberIdentity]) -> Result[LeaveAnswer]:
        """LeaveGroup v3+ on a consumer group: members by id or instance id; one epoch bump for them all.
        Each removed member's partitions are named as it leaves (a topic id without a topic by its UUID)."""
        group = self.group(group_id)
        idx = self.rt.state.indexes.get(group_id) or GroupIndex()
        answer = LeaveAnswer()
        removed: list[str] = []
        for identity in identities:
            try:
                target = _leaving_member(group_id, group, idx, identity.member_id, identity.group_instance_id)
                if target in removed:
                    raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {target} is not a member of group {group_id}.")
            except KafkaError as exc:
                answer.add(identity, exc.code, error_message=exc.message)
                continue
            removed.append(target)
            answer.add(identity, 0, target, self._named(current_held(group.current.get(target))))
        if not removed:
            return Result(answer)
        for member_id in removed:
            self.cancel_member_timers(group_id, member_id)
        return _answered(self.fence_members(group_id, removed), answer)

    def _named(self, held: list[tuple[uuid.UUID, int]]) -> list[TopicPartition]:
        out = []
        for topic_id, partition in held:
            topic = self.rt.topics.by_id(topic_id)
            out.append(TopicPartition(topic.name if topic is not None else str(topic_id), partition))
        return sorted(out)


def _answered(result: Result, response: object) -> Result:
    result.response = response
    return result


def _leaving_member(group_id: str, group: ConsumerGroupState, idx: GroupIndex, member_id: str,
                    instance_id: str | None) -> str:
    """The member an admin LeaveGroup names: a classic-protocol member by id, or any by instance id."""
    if instance_id is None:
        if member_id not in group.members and member_id not in group.current:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {group_id}.")
        if not uses_classic(group.members.get(member_id)):
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


def group_tombstones(group_id: str, group: ConsumerGroupState, member_ids: list[str] | None = None) -> list[Record]:
    """Every record of the group deleted, in the order of Kafka's `createGroupTombstoneRecords`;
    `member_ids` when the members the log will hold differ from the replayed ones (a replacement
    already among the records to append)."""
    members = group.member_ids() if member_ids is None else member_ids
    out = [rec.current_assignment_tombstone(group_id, m) for m in members]
    out += [rec.target_member_tombstone(group_id, m) for m in members]
    out.append(rec.group_tombstone(6, group_id))
    out += [rec.member_tombstone(group_id, m) for m in members]
    out += [rec.regex_tombstone(group_id, regex) for regex in sorted(group.regexes)]
    out.append(rec.group_tombstone(4, group_id))
    out.append(rec.group_tombstone(3, group_id))
    return out


def remove_member_records(group_id: str, member_id: str) -> list[Record]:
    """Kafka's `removeMember`: the order matters for replay."""
    return [
        rec.current_assignment_tombstone(group_id, member_id),
        rec.target_member_tombstone(group_id, member_id),
        rec.member_tombstone(group_id, member_id),
    ]
