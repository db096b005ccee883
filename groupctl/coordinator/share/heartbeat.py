"""ShareGroupHeartbeat (KIP-932), in the three steps of Kafka 4.1's `shareGroupHeartbeat`:

1. create or update the member (a type-10 record when it changed) and bump the group epoch when its
   subscription, the subscribed topics' metadata hash, or the initialized share-partitions changed;
2. compute the target assignment with the `simple` assignor when the group epoch is ahead of it;
3. reconcile the member to its target (a share member takes its target at once: nothing is revoked),
   arm its session and answer; then, as Kafka asks the share coordinator, the subscribed share-partitions
   not initialized yet are recorded as initializing (type 15) and initialized in a task of their own.

Leaving (epoch -1) and a session that expires remove the member's records and bump the group epoch; the
target assignment follows at the next heartbeat, as in Kafka.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from groupctl.coordinator.assignors import simple
from groupctl.coordinator.assignors.common import Assignment, MemberSpec
from groupctl.coordinator.consumer.subscriptions import metadata_hash, topic_facts
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Caller, Result, Runtime, share_session_key
from groupctl.coordinator.share import records as rec
from groupctl.coordinator.share.state import InitTopic, SharePartitionsState
from groupctl.errors import KafkaError
from groupctl.log.share_groups import ShareGroupState
from groupctl.protocol.data.records import ShareGroupMemberMetadataValue
from groupctl.protocol.data.share_groups import (
    Assignment as AssignmentData,
)
from groupctl.protocol.data.share_groups import (
    ShareGroupHeartbeatRequestData,
    ShareGroupHeartbeatResponseData,
    TopicPartitions,
)

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
_NO_GROUP = ShareGroupState()
#: `group.share.max.size`'s default.
MAX_GROUP_SIZE = 200


def _invalid(message: str) -> KafkaError:
    return KafkaError("INVALID_REQUEST", message)


def validate_request(req: ShareGroupHeartbeatRequestData) -> None:
    """`throwIfShareGroupHeartbeatRequestIsInvalid`, in its order."""
    if req.member_id == "":
        raise _invalid("MemberId can't be empty.")
    if req.group_id == "":
        raise _invalid("GroupId can't be empty.")
    if req.rack_id == "":
        raise _invalid("RackId can't be empty.")
    if req.member_epoch == JOIN_EPOCH:
        if not req.subscribed_topic_names:
            raise _invalid("SubscribedTopicNames must be set in first request.")
    elif req.member_epoch < LEAVE_EPOCH:
        raise _invalid("MemberEpoch is invalid.")


class ShareGroups:
    """The share groups' handlers over the runtime; `other_type(group_id)` says whether a group of another
    type holds the id (then every share request for it is GROUP_ID_NOT_FOUND, as in Kafka)."""

    def __init__(self, runtime: Runtime, other_type: Callable[[str], bool]) -> None:
        self.rt = runtime
        self.other_type = other_type

    # -- lookups -----------------------------------------------------------------------------------------

    def group(self, group_id: str, create: bool = False) -> ShareGroupState | None:
        """`getOrMaybeCreateShareGroup`: the group, None when it is to be created, or Kafka's error."""
        group = self.rt.state.share.get(group_id)
        if group is not None:
            return group
        if self.other_type(group_id):
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a share group.")
        if not create:
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} not found.")
        return None

    def session_timeout_ms(self, group_id: str) -> int:
        return int(self.rt.configs.value(group_id, "share.session.timeout.ms"))  # type: ignore[arg-type]

    def heartbeat_interval_ms(self, group_id: str) -> int:
        return int(self.rt.configs.value(group_id, "share.heartbeat.interval.ms"))  # type: ignore[arg-type]

    def _hash(self, names: set[str]) -> int:
        return metadata_hash(topic_facts(self.rt.topics, names))

    # -- the heartbeat -----------------------------------------------------------------------------------

    def heartbeat(self, req: ShareGroupHeartbeatRequestData, caller: Caller) -> Result[ShareGroupHeartbeatResponseData]:
        try:
            validate_request(req)
            if req.member_epoch == LEAVE_EPOCH:
                return self.leave(req.group_id, req.member_id)
            return self._heartbeat(req, caller)
        except KafkaError as exc:
            return Result(ShareGroupHeartbeatResponseData(error_code=exc.code, error_message=exc.message))

    def _heartbeat(self, req: ShareGroupHeartbeatRequestData,
                   caller: Caller) -> Result[ShareGroupHeartbeatResponseData]:
        gid, mid = req.group_id, req.member_id
        found = self.group(gid, create=req.member_epoch == JOIN_EPOCH)
        group = found if found is not None else _NO_GROUP
        if mid not in group.members and len(group.member_ids()) >= MAX_GROUP_SIZE:
            raise KafkaError("GROUP_MAX_SIZE_REACHED",
                             f"The share group has reached its maximum capacity of {MAX_GROUP_SIZE} members.")
        old = group.members.get(mid)
        current = group.current.get(mid)
        epoch = current.member_epoch if current is not None else 0
        if old is None and current is None:
            if req.member_epoch != JOIN_EPOCH:
                raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {mid} is not a member of group {gid}.")
        elif req.member_epoch != JOIN_EPOCH and req.member_epoch != epoch:
            side = "greater" if req.member_epoch > epoch else "smaller"
            raise KafkaError(
                "FENCED_MEMBER_EPOCH",
                f"The share group member has a {side} member epoch ({req.member_epoch}) than the one known by the "
                f"group coordinator ({epoch}). The member must abandon all its partitions and rejoin.",
            )
        records: list[Record] = []
        # 1. the member
        old_names = sorted(old.subscribed_topic_names) if old is not None else []
        names = sorted(set(req.subscribed_topic_names)) if req.subscribed_topic_names is not None else old_names
        rack = req.rack_id if req.rack_id is not None else (old.rack_id if old is not None else None)
        updated = ShareGroupMemberMetadataValue(rack_id=rack, client_id=caller.client_id,
                                                client_host=caller.client_host, subscribed_topic_names=names)
        if old is None or (old.rack_id, old.client_id, old.client_host, sorted(old.subscribed_topic_names)) != (
                rack, caller.client_id, caller.client_host, names):
            records.append(rec.member_metadata(gid, mid, rack_id=rack, client_id=caller.client_id,
                                               client_host=caller.client_host, subscribed_topic_names=names))
        members = {**group.members, mid: updated}
        subscribed = {n for m in members.values() for n in m.subscribed_topic_names}
        bump = old_names != names if old is not None else True
        bump = bump or self._initialized_assignment_pending(gid, group, subscribed)
        group_epoch = group.epoch
        new_hash = self._hash(subscribed)
        if bump or new_hash != group.metadata_hash or found is None:
            group_epoch += 1
            records.append(rec.group_epoch(gid, group_epoch, new_hash))
        # 2. the target assignment
        if group_epoch > group.assignment_epoch:
            target_records, targets = self._target(gid, group, members, group_epoch)
            records += target_records
            target = targets[mid]
            target_epoch = group_epoch
        else:
            target, target_epoch = group.target_of(mid), group.assignment_epoch
        # 3. reconcile
        assigned = group.assigned_to(mid)
        new_epoch = epoch
        if current is None or epoch != target_epoch or assigned != target:
            records.append(rec.current_assignment(gid, mid, member_epoch=target_epoch, previous_member_epoch=epoch,
                                                  assigned=target))
            new_epoch = target_epoch
        self.schedule_session_timeout(gid, mid)
        response = ShareGroupHeartbeatResponseData(member_id=mid, member_epoch=new_epoch,
                                                   heartbeat_interval_ms=self.heartbeat_interval_ms(gid))
        if req.member_epoch == JOIN_EPOCH or req.subscribed_topic_names is not None or assigned != target:
            response.assignment = AssignmentData(topic_partitions=[
                TopicPartitions(topic_id=t, partitions=sorted(ps))
                for t, ps in sorted(target.items(), key=lambda kv: kv[0].bytes)
            ])
        records += self._initializing(gid, subscribed)
        return Result(response, records)

    def _assignable(self, group_id: str) -> dict[uuid.UUID, frozenset[int]]:
        """The initialized share-partitions of topics that still exist: all the assignor may hand out."""
        info = self.rt.state.share_partitions.get(group_id)
        if info is None:
            return {}
        out = {}
        for topic_id, topic in info.initialized.items():
            live = self.rt.topics.by_id(topic_id)
            if live is not None:
                out[topic_id] = frozenset(p for p in topic.partitions if p < live.partitions)
        return out

    def assignment_pending(self, group_id: str) -> bool:
        group = self.rt.state.share.get(group_id)
        return group is not None and self._initialized_assignment_pending(group_id, group,
                                                                          group.subscribed_topic_names())

    def _initialized_assignment_pending(self, group_id: str, group: ShareGroupState, subscribed: set[str]) -> bool:
        """`initializedAssignmentPending`: a subscribed topic's initialized partitions differ from those the
        current target hands out."""
        info = self.rt.state.share_partitions.get(group_id)
        if not group.members or info is None or not info.initialized or not subscribed:
            return False
        handed: dict[uuid.UUID, set[int]] = {}
        for member_id in group.targets:
            for topic_id, parts in group.target_of(member_id).items():
                handed.setdefault(topic_id, set()).update(parts)
        return any(topic.name in subscribed and handed.get(topic_id) != set(topic.partitions)
                   for topic_id, topic in info.initialized.items())

    def _target(self, group_id: str, group: ShareGroupState, members: dict[str, ShareGroupMemberMetadataValue],
                epoch: int) -> tuple[list[Record], dict[str, Assignment]]:
        """`updateTargetAssignment`: a type-13 record per member whose target changed, then type 12."""
        specs = {}
        for member_id, meta in members.items():
            ids = frozenset(t.topic_id for t in (self.rt.topics.get(n) for n in meta.subscribed_topic_names)
                            if t is not None)
            specs[member_id] = MemberSpec(instance_id=None, rack_id=meta.rack_id, subscribed_topic_ids=ids,
                                          assigned=group.target_of(member_id))
        targets = simple.assign(specs, self._assignable(group_id))
        records = [rec.target_member(group_id, m, targets[m]) for m in sorted(targets)
                   if m not in group.targets or group.target_of(m) != targets[m]]
        records.append(rec.target_epoch(group_id, epoch))
        return records, targets

    # -- share-partition initialization --------------------------------------------------------------------

    def _initializing(self, group_id: str, subscribed: set[str]) -> list[Record]:
        """`maybeCreateInitializeShareGroupStateRequest`: subscribed partitions neither initialized nor
        initializing go into a type-15 record as initializing, and the initialization is scheduled."""
        info = self.rt.state.share_partitions.get(group_id) or SharePartitionsState()
        wanted: dict[uuid.UUID, InitTopic] = {}
        for name in sorted(subscribed):
            topic = self.rt.topics.get(name)
            if topic is None:
                continue
            have: set[int] = set()
            for known in (info.initialized.get(topic.topic_id), info.initializing.get(topic.topic_id)):
                if known is not None:
                    have |= known.partitions
            missing = frozenset(range(topic.partitions)) - have
            if missing:
                wanted[topic.topic_id] = InitTopic(name, missing)
        if not wanted:
            return []
        initializing = dict(info.initializing)
        for topic_id, asked in wanted.items():
            before = initializing.get(topic_id)
            merged = asked.partitions | (before.partitions if before else frozenset())
            initializing[topic_id] = InitTopic(asked.name, merged)
        deleting = {t: n for t, n in info.deleting.items() if t not in initializing}
        self.rt.schedule_task(f"share-initialize:{group_id}", lambda: self.initialized(group_id, wanted))
        return [rec.state_partitions(group_id, initializing=initializing, initialized=info.initialized,
                                     deleting=deleting)]

    def initialized(self, group_id: str, topics: dict[uuid.UUID, InitTopic]) -> Result[None]:
        """`initializeShareGroupState`: the share coordinator initialized `topics`; they move from
        initializing to initialized."""
        if group_id not in self.rt.state.share:
            return Result()
        info = self.rt.state.share_partitions.get(group_id) or SharePartitionsState()
        initializing = dict(info.initializing)
        initialized = dict(info.initialized)
        for topic_id, topic in topics.items():
            before = initializing.pop(topic_id, None)
            if before is not None and before.partitions - topic.partitions:
                initializing[topic_id] = InitTopic(before.name, before.partitions - topic.partitions)
            done = initialized.get(topic_id)
            initialized[topic_id] = InitTopic(topic.name, topic.partitions | (done.partitions if done else frozenset()))
            epoch = self.rt.state.share[group_id].epoch
            for p in sorted(topic.partitions):
                self.rt.share_starts.initialize(group_id, topic_id, p, epoch)
        return Result(None, [rec.state_partitions(group_id, initializing=initializing, initialized=initialized,
                                                  deleting=info.deleting)])

    # -- leaving -------------------------------------------------------------------------------------------

    def leave(self, group_id: str, member_id: str) -> Result[ShareGroupHeartbeatResponseData]:
        """`shareGroupLeave`: the member's records removed and the group epoch bumped."""
        group = self.group(group_id)
        assert group is not None
        if member_id not in group.members and member_id not in group.current:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {group_id}.")
        result = self.fence(group_id, member_id)
        return Result(ShareGroupHeartbeatResponseData(member_id=member_id, member_epoch=LEAVE_EPOCH), result.records)

    def fence(self, group_id: str, member_id: str) -> Result[None]:
        """`shareGroupFenceMember`: tombstones for the member's current assignment, target and metadata,
        then a new group epoch over the remaining subscriptions; nothing for a member already gone."""
        group = self.rt.state.share.get(group_id)
        if group is None or (member_id not in group.members and member_id not in group.current):
            return Result()
        self.rt.timers.cancel(share_session_key(group_id, member_id))
        remaining = {n for m, meta in group.members.items() if m != member_id for n in meta.subscribed_topic_names}
        records = [rec.current_assignment_tombstone(group_id, member_id),
                   rec.target_member_tombstone(group_id, member_id),
                   rec.member_tombstone(group_id, member_id),
                   rec.group_epoch(group_id, group.epoch + 1, self._hash(remaining))]
        return Result(None, records)

    def schedule_session_timeout(self, group_id: str, member_id: str) -> None:
        self.rt.schedule(share_session_key(group_id, member_id), self.rt.now_ms() + self.session_timeout_ms(group_id),
                         lambda: self.fence(group_id, member_id))

    def cancel_member_timers(self, group_id: str, member_id: str) -> None:
        self.rt.timers.cancel(share_session_key(group_id, member_id))
