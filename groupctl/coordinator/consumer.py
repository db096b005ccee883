"""KIP-848 consumer groups: ConsumerGroupHeartbeat, leaving, fencing, regex resolution, and the admin
LeaveGroup by instance id, following Kafka 4.x's `GroupMetadataManager` step by step.

Every request builds a list of records from the current state and appends them at the end (all or
nothing, as Kafka's coordinator runtime does); the state changes only when the records are applied.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from groupctl.coordinator import records as rec
from groupctl.coordinator.assignors import ASSIGNORS, MemberSpec
from groupctl.coordinator.reconcile import STABLE, UNREVOKED_PARTITIONS, MemberAssignment, reconcile
from groupctl.coordinator.state import GroupIndex, assignment_map
from groupctl.errors import KafkaError
from groupctl.log.replay import preferred_assignor
from groupctl.regex import InvalidRegex, broker_error_message, compile_topic_regex

if TYPE_CHECKING:
    from groupctl.coordinator.coordinator import Coordinator
    from groupctl.log.replay import ConsumerGroupState

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2
#: ConsumerGroupHeartbeat v1 (KIP-1082) makes the client generate its member id.
CLIENT_MEMBER_ID_VERSION = 1
#: `REGEX_BATCH_REFRESH_MIN_INTERVAL_MS`: regexes of a group re-resolve at most this often.
REGEX_REFRESH_INTERVAL_MS = 10_000
#: `group.consumer.regex.refresh.interval.ms` default: resolved regexes are refreshed after this.
REGEX_MAX_AGE_MS = 600_000
_EMPTY: dict[uuid.UUID, frozenset[int]] = {}

Assignment = dict[uuid.UUID, frozenset[int]]


@dataclass(slots=True)
class HeartbeatRequest:
    """ConsumerGroupHeartbeatRequest; None means "not sent" (unchanged), as on the wire."""

    group_id: str
    member_id: str = ""
    member_epoch: int = JOIN_EPOCH
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: list[str] | None = None
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    topic_partitions: list[tuple[uuid.UUID, list[int]]] | None = None
    client_id: str = "groupctl"
    client_host: str = "/127.0.0.1"
    version: int = 1


@dataclass(slots=True)
class HeartbeatResponse:
    error_code: int = 0
    error_message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: dict[uuid.UUID, list[int]] | None = None

    @property
    def error(self) -> str:
        from groupctl.errors import KAFKA_ERROR_NAMES

        return KAFKA_ERROR_NAMES.get(self.error_code, str(self.error_code))


@dataclass(slots=True)
class LeaveResult:
    """One member of an admin LeaveGroup: as named in the request, and its error code (0: removed)."""

    member_id: str
    instance_id: str | None
    error_code: int = 0
    error_message: str | None = None
    removed_member_id: str | None = None
    partitions: list[tuple[uuid.UUID, int]] = field(default_factory=list)  # a consumer-group member's
    classic_assignment: bytes | None = None  # a classic member's assignment (consumer-protocol bytes)


def _invalid(message: str) -> KafkaError:
    return KafkaError("INVALID_REQUEST", message)


def _default_member() -> dict:
    """A member as `ConsumerGroupMember.Builder(memberId)` starts it."""
    return {
        "instanceId": None, "rackId": None, "clientId": "", "clientHost": "", "subscribedTopicNames": [],
        "subscribedTopicRegex": None, "rebalanceTimeoutMs": -1, "serverAssignor": None,
        "classicMemberMetadata": None,
    }


def member_assignment(current: dict | None) -> MemberAssignment:
    """A type-8 value (None: the builder's defaults) as the reconciler's input."""
    if current is None:
        return MemberAssignment(STABLE, 0, -1, {}, {})
    return MemberAssignment(
        current["state"], current["memberEpoch"], current["previousMemberEpoch"],
        assignment_map(current["assignedPartitions"]), assignment_map(current["partitionsPendingRevocation"]),
    )


def _current_record(group_id: str, member_id: str, ma: MemberAssignment) -> rec.Record:
    return rec.current_assignment(
        group_id, member_id, member_epoch=ma.member_epoch, previous_member_epoch=ma.previous_member_epoch,
        state=ma.state, assigned=ma.assigned, pending_revocation=ma.pending_revocation,
    )


def _is_subset(owned: Iterable[tuple[uuid.UUID, list[int]]] | None, assigned: Assignment) -> bool:
    if owned is None:
        return False
    for topic_id, parts in owned:
        have = assigned.get(topic_id)
        if have is None or any(p not in have for p in parts):
            return False
    return True


def check_member_epoch(ma: MemberAssignment, received: int, owned: list | None) -> None:
    """Kafka's `throwIfConsumerGroupMemberEpochIsInvalid`, lost-response case included.

    Epoch 0 is always accepted: a fenced member rejoins with its member id (KAFKA-19233, Kafka 4.3;
    before it, a member that had moved through two epochs stayed fenced until its session expired).
    """
    if received == JOIN_EPOCH:
        return
    if received > ma.member_epoch:
        raise KafkaError(
            "FENCED_MEMBER_EPOCH",
            f"The consumer group member has a greater member epoch ({received}) than the one known by the group "
            f"coordinator ({ma.member_epoch}). The member must abandon all its partitions and rejoin.",
        )
    if received < ma.member_epoch and (received != ma.previous_member_epoch or not _is_subset(owned, ma.assigned)):
        raise KafkaError(
            "FENCED_MEMBER_EPOCH",
            f"The consumer group member has a smaller member epoch ({received}) than the one known by the group "
            f"coordinator ({ma.member_epoch}). The member must abandon all its partitions and rejoin.",
        )


def validate_request(req: HeartbeatRequest, supported_assignors: Iterable[str]) -> None:
    """Kafka's `throwIfConsumerGroupHeartbeatRequestIsInvalid`, in its order."""
    if (req.version >= CLIENT_MEMBER_ID_VERSION or req.member_epoch > 0 or req.member_epoch == LEAVE_EPOCH) and \
            req.member_id == "":
        raise _invalid("MemberId can't be empty.")
    if req.group_id == "":
        raise _invalid("GroupId can't be empty.")
    if req.instance_id == "":
        raise _invalid("InstanceId can't be empty.")
    if req.rack_id == "":
        raise _invalid("RackId can't be empty.")
    if req.member_epoch == JOIN_EPOCH:
        if req.rebalance_timeout_ms == -1:
            raise _invalid("RebalanceTimeoutMs must be provided in first request.")
        if req.topic_partitions is None or req.topic_partitions:
            raise _invalid("TopicPartitions must be empty when (re-)joining.")
        if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
            raise _invalid("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.")
    elif req.member_epoch == STATIC_LEAVE_EPOCH:
        if req.instance_id is None:
            raise _invalid("InstanceId can't be null.")
    elif req.member_epoch < STATIC_LEAVE_EPOCH:
        raise _invalid("MemberEpoch is invalid.")
    supported = list(supported_assignors)
    if req.server_assignor is not None and req.server_assignor not in supported:
        raise KafkaError(
            "UNSUPPORTED_ASSIGNOR",
            f"ServerAssignor {req.server_assignor} is not supported. Supported assignors: {', '.join(supported)}.",
        )


def metadata_hash(topics: Iterable[tuple[str, uuid.UUID, int]]) -> int:
    """A signed 64-bit digest of the subscribed topics' names, ids and partition counts.

    It plays the part of Kafka 4.1's MetadataHash (a change means a rebalance); the bytes hashed are
    groupctl's own, so the value is not Kafka's.
    """
    items = sorted(topics)
    if not items:
        return 0
    digest = hashlib.blake2b(digest_size=8)
    for name, topic_id, partitions in items:
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(topic_id.bytes)
        digest.update(partitions.to_bytes(4, "big"))
    return int.from_bytes(digest.digest(), "big", signed=True)


class ConsumerGroups:
    """The KIP-848 half of the coordinator."""

    def __init__(self, coordinator: Coordinator) -> None:
        self.c = coordinator

    # -- requests --------------------------------------------------------------------------------

    def heartbeat(self, req: HeartbeatRequest) -> HeartbeatResponse:
        try:
            validate_request(req, self.c.assignor_names)
            if req.member_epoch in (LEAVE_EPOCH, STATIC_LEAVE_EPOCH):
                return self._leave(req)
            return self._heartbeat(req)
        except KafkaError as exc:
            return HeartbeatResponse(error_code=exc.code, error_message=exc.message)
        finally:
            self.c.run_tasks()

    def _group(self, group_id: str) -> ConsumerGroupState:
        group = self.c.state.consumer.get(group_id)
        if group is None:
            if self.c.group_exists(group_id):
                raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {group_id} is not a consumer group.")
            raise KafkaError("GROUP_ID_NOT_FOUND", f"Consumer group {group_id} not found.")
        return group

    def _heartbeat(self, req: HeartbeatRequest) -> HeartbeatResponse:
        c = self.c
        gid = req.group_id
        records: list[rec.Record] = []
        group = c.state.consumer.get(gid)
        if group is None:
            if req.member_epoch != JOIN_EPOCH:
                self._group(gid)
            if c.group_exists(gid):
                if not c.classic_group_is_empty(gid):
                    raise KafkaError("GROUP_ID_NOT_FOUND", f"Group {gid} is not a consumer group.")
                records.append(c.drop_empty_classic_group(gid))
        idx = c.state.indexes.get(gid) or GroupIndex()
        members = group.members if group is not None else {}
        currents = group.current if group is not None else {}
        count = len(members.keys() | currents.keys())
        member_id = req.member_id
        if count >= c.max_group_size and (member_id == "" or member_id not in members):
            raise KafkaError(
                "GROUP_MAX_SIZE_REACHED",
                f"The consumer group has reached its maximum capacity of {c.max_group_size} members.",
            )
        if member_id == "":
            member_id = c.ids.member_id()
        create = req.member_epoch == JOIN_EPOCH
        replaced: str | None = None
        iid = req.instance_id
        if iid is None:
            old = members.get(member_id)
            if old is None and member_id not in currents and not create:
                raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {gid}.")
            old = dict(old) if old is not None else _default_member()
            ma = member_assignment(currents.get(member_id))
            check_member_epoch(ma, req.member_epoch, req.topic_partitions)
        else:
            existing = idx.static.get(iid)
            if create and existing is None:
                old = dict(members[member_id]) if member_id in members else _default_member()
                ma = member_assignment(currents.get(member_id))
                check_member_epoch(ma, req.member_epoch, req.topic_partitions)
            elif create:
                previous = member_assignment(currents.get(existing))
                if previous.member_epoch != STATIC_LEAVE_EPOCH:
                    raise KafkaError(
                        "UNRELEASED_INSTANCE_ID",
                        f"Static member {member_id} with instance id {iid} cannot join the group because the "
                        f"instance id is owned by {existing} member.",
                    )
                old = dict(members[existing])
                ma = MemberAssignment(previous.state, 0, 0, previous.assigned, previous.pending_revocation)
                records += self._remove_member_records(gid, existing)
                records.append(rec.member_metadata(gid, member_id, old))
                records.append(rec.target_member(gid, member_id, group.targets_map(existing)))  # type: ignore[union-attr]
                records.append(_current_record(gid, member_id, ma))
                replaced = existing
            else:
                if existing is None:
                    raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {iid} is unknown.")
                if existing != member_id:
                    raise KafkaError(
                        "FENCED_INSTANCE_ID",
                        f"Static member {member_id} with instance id {iid} was fenced by member {existing}.",
                    )
                old = dict(members[member_id])
                ma = member_assignment(currents.get(member_id))
                check_member_epoch(ma, req.member_epoch, req.topic_partitions)

        updated = dict(old)
        if iid is not None:
            updated["instanceId"] = iid
        if req.rack_id is not None:
            updated["rackId"] = req.rack_id
        if req.rebalance_timeout_ms != -1:
            updated["rebalanceTimeoutMs"] = req.rebalance_timeout_ms
        if req.server_assignor is not None:
            updated["serverAssignor"] = req.server_assignor
        if req.subscribed_topic_names is not None:
            updated["subscribedTopicNames"] = sorted(set(req.subscribed_topic_names))
        if req.subscribed_topic_regex is not None:
            updated["subscribedTopicRegex"] = req.subscribed_topic_regex
        updated["clientId"] = req.client_id
        updated["clientHost"] = req.client_host
        updated["classicMemberMetadata"] = None

        epoch = group.epoch if group is not None else 0
        bump = epoch == 0
        if updated != old:
            records.append(rec.member_metadata(gid, member_id, updated))
            if set(updated["subscribedTopicNames"]) != set(old["subscribedTopicNames"]):
                bump = True
        bump |= self._maybe_update_regexes(gid, group, idx, old, updated, records)

        new_epoch = epoch
        names = None
        if bump or gid in c.metadata_refresh or group is None:
            names = self._subscribed_names(gid, group, idx, old, updated)
            new_hash = metadata_hash(self._topic_facts(names))
            if group is None or new_hash != group.metadata_hash:
                bump = True
            if bump:
                new_epoch = epoch + 1
                records.append(rec.group_epoch(gid, new_epoch, new_hash))
            c.metadata_refresh.discard(gid)

        assignment_epoch = group.assignment_epoch if group is not None else 0
        if new_epoch > assignment_epoch:
            target = self._update_target(gid, group, new_epoch, member_id, updated, replaced, records)
            target_epoch = new_epoch
        else:
            target_epoch = assignment_epoch
            target = group.targets_map(member_id) if group is not None else {}
            if not target and member_id not in (group.targets if group is not None else {}) and iid is not None:
                static = idx.static.get(iid)
                if static is not None and group is not None:
                    target = group.targets_map(static)

        new_ma = ma
        if not ma.is_reconciled_to(target_epoch):
            owners = idx.owners

            def owner_epoch(topic_id: uuid.UUID, partition: int) -> int:
                holder = owners.get((topic_id, partition))
                return -1 if holder is None else holder[1]

            new_ma = reconcile(
                ma, target_epoch=target_epoch, target=target, owner_epoch=owner_epoch,
                owned=req.topic_partitions, subscribed=self._subscribed_ids(gid, group, updated),
            )
            if new_ma != ma:
                records.append(_current_record(gid, member_id, new_ma))
        c.append(records)
        if new_ma != ma:
            if new_ma.state == UNREVOKED_PARTITIONS:
                c.schedule_rebalance_timeout(gid, member_id, new_ma.member_epoch, updated["rebalanceTimeoutMs"])
            else:
                c.cancel_rebalance_timeout(gid, member_id)
        c.schedule_session_timeout(gid, member_id)

        full = req.member_epoch == JOIN_EPOCH or (
            req.rebalance_timeout_ms != -1 and req.subscribed_topic_names is not None
            and req.topic_partitions is not None
        )
        response = HeartbeatResponse(
            member_id=member_id, member_epoch=new_ma.member_epoch,
            heartbeat_interval_ms=c.configs.heartbeat_interval_ms(gid),
        )
        if full or new_ma.assigned != ma.assigned:
            response.assignment = {t: sorted(ps) for t, ps in new_ma.assigned.items()}
        return response

    def _leave(self, req: HeartbeatRequest) -> HeartbeatResponse:
        c = self.c
        gid = req.group_id
        group = self._group(gid)
        if req.instance_id is None:
            if req.member_id not in group.members and req.member_id not in group.current:
                raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {req.member_id} is not a member of group {gid}.")
            c.append(self.fence_records(gid, [req.member_id]))
            c.cancel_member_timers(gid, req.member_id)
            return HeartbeatResponse(member_id=req.member_id, member_epoch=req.member_epoch)
        idx = c.state.indexes.get(gid) or GroupIndex()
        existing = idx.static.get(req.instance_id)
        if existing is None:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {req.instance_id} is unknown.")
        if existing != req.member_id:
            raise KafkaError(
                "FENCED_INSTANCE_ID",
                f"Static member {req.member_id} with instance id {req.instance_id} was fenced by member {existing}.",
            )
        if req.member_epoch == STATIC_LEAVE_EPOCH:
            ma = member_assignment(group.current.get(existing))
            leaving = MemberAssignment(ma.state, STATIC_LEAVE_EPOCH, ma.previous_member_epoch, ma.assigned, {})
            c.append([_current_record(gid, existing, leaving)])
            return HeartbeatResponse(member_id=existing, member_epoch=STATIC_LEAVE_EPOCH)
        c.append(self.fence_records(gid, [existing]))
        c.cancel_member_timers(gid, existing)
        return HeartbeatResponse(member_id=req.member_id, member_epoch=req.member_epoch)

    def admin_leave(self, group_id: str, identities: list[tuple[str, str | None, str | None]]) -> list[LeaveResult]:
        """LeaveGroup v3+ on a consumer group: each (member id, instance id, reason); one epoch bump."""
        c = self.c
        group = self._group(group_id)
        idx = c.state.indexes.get(group_id) or GroupIndex()
        results: list[LeaveResult] = []
        removed: list[str] = []
        for member_id, instance_id, _reason in identities:
            result = LeaveResult(member_id, instance_id)
            try:
                if instance_id is None:
                    if member_id not in group.members and member_id not in group.current:
                        raise KafkaError(
                            "UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {group_id}."
                        )
                    target = member_id
                    if (group.members.get(target) or {}).get("classicMemberMetadata") is None:
                        raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {target} does not use the classic protocol.")
                else:
                    found = idx.static.get(instance_id)
                    if found is None:
                        raise KafkaError("UNKNOWN_MEMBER_ID", f"Instance id {instance_id} is unknown.")
                    if member_id != "" and member_id != found:
                        raise KafkaError(
                            "FENCED_INSTANCE_ID",
                            f"Static member {member_id} with instance id {instance_id} was fenced by member {found}.",
                        )
                    target = found
                if target in removed:
                    raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {target} is not a member of group {group_id}.")
                removed.append(target)
                result.removed_member_id = target
                cur = member_assignment(group.current.get(target))
                result.partitions = sorted(
                    (t, p) for t, ps in {**cur.assigned, **cur.pending_revocation}.items() for p in ps
                )
            except KafkaError as exc:
                result.error_code, result.error_message = exc.code, exc.message
            results.append(result)
        if removed:
            c.append(self.fence_records(group_id, removed))
            for member_id in removed:
                c.cancel_member_timers(group_id, member_id)
        c.run_tasks()
        return results

    # -- building blocks ---------------------------------------------------------------------------

    @staticmethod
    def _remove_member_records(group_id: str, member_id: str) -> list[rec.Record]:
        """Kafka's `removeMember`: the order matters for replay."""
        return [
            rec.current_assignment_tombstone(group_id, member_id),
            rec.target_member_tombstone(group_id, member_id),
            rec.member_tombstone(group_id, member_id),
        ]

    def fence_records(self, group_id: str, member_ids: list[str]) -> list[rec.Record]:
        """Remove members and bump the group epoch once, with the subscribed topics recomputed."""
        c = self.c
        group = self._group(group_id)
        idx = c.state.indexes.get(group_id) or GroupIndex()
        out: list[rec.Record] = []
        names: dict[str, int] = dict(idx.names)
        regexes: dict[str, int] = dict(idx.regex_members)
        for member_id in member_ids:
            out += self._remove_member_records(group_id, member_id)
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
        out.append(rec.group_epoch(group_id, group.epoch + 1, metadata_hash(self._topic_facts(subscribed))))
        return out

    def fence(self, group_id: str, member_id: str) -> None:
        """Remove one member (session or rebalance timeout); nothing when it is already gone."""
        group = self.c.state.consumer.get(group_id)
        if group is None or (member_id not in group.members and member_id not in group.current):
            return
        self.c.append(self.fence_records(group_id, [member_id]))
        self.c.cancel_member_timers(group_id, member_id)

    def _topic_facts(self, names: Iterable[str]) -> list[tuple[str, uuid.UUID, int]]:
        out = []
        for name in names:
            topic = self.c.topics.get(name)
            if topic is not None:
                out.append((name, topic.topic_id, topic.partitions))
        return out

    def _subscribed_names(
        self, gid: str, group: ConsumerGroupState | None, idx: GroupIndex, old: dict, updated: dict
    ) -> set[str]:
        """`computeSubscribedTopicNames(member, updatedMember)`: the group's topics after this change."""
        names = dict(idx.names)
        for name in old["subscribedTopicNames"]:
            names[name] = names.get(name, 0) - 1
        for name in updated["subscribedTopicNames"]:
            names[name] = names.get(name, 0) + 1
        regexes = dict(idx.regex_members)
        if old.get("subscribedTopicRegex"):
            regexes[old["subscribedTopicRegex"]] = regexes.get(old["subscribedTopicRegex"], 0) - 1
        if updated.get("subscribedTopicRegex"):
            regexes[updated["subscribedTopicRegex"]] = regexes.get(updated["subscribedTopicRegex"], 0) + 1
        out = {n for n, k in names.items() if k > 0}
        if group is not None:
            for regex, resolved in group.regexes.items():
                if regexes.get(regex, 0) > 0:
                    out.update(resolved["topics"])
        return out

    def _subscribed_ids(self, gid: str, group: ConsumerGroupState | None, member: dict) -> set[uuid.UUID]:
        names = set(member.get("subscribedTopicNames") or ())
        regex = member.get("subscribedTopicRegex")
        if regex and group is not None:
            resolved = group.regexes.get(regex)
            if resolved is not None:
                names.update(resolved["topics"])
        out = set()
        for name in names:
            topic = self.c.topics.get(name)
            if topic is not None:
                out.add(topic.topic_id)
        return out

    def _maybe_update_regexes(
        self, gid: str, group: ConsumerGroupState | None, idx: GroupIndex, old: dict, updated: dict,
        records: list[rec.Record],
    ) -> bool:
        """Kafka's `maybeUpdateRegularExpressions`: validate a new regex, schedule resolution, maybe bump;
        the last member leaving a regex tombstones its resolution."""
        c = self.c
        old_regex, new_regex = old.get("subscribedTopicRegex"), updated.get("subscribedTopicRegex")
        bump = False
        require = False
        if old_regex != new_regex and old_regex and idx.regex_members.get(old_regex, 0) == 1:
            records.append(rec.regex_tombstone(gid, old_regex))
        if old_regex != new_regex and new_regex:
            if idx.regex_members.get(new_regex, 0) == 0:
                try:
                    compile_topic_regex(new_regex)
                except InvalidRegex as exc:
                    raise KafkaError(
                        "INVALID_REGULAR_EXPRESSION", broker_error_message(new_regex, exc.description)
                    ) from None
                require = True
            else:
                bump = group is not None and new_regex in group.regexes
        if not require and not idx.regex_members:
            return bump
        regexes = dict(idx.regex_members)
        if old_regex:
            regexes[old_regex] = regexes.get(old_regex, 0) - 1
        if new_regex:
            regexes[new_regex] = regexes.get(new_regex, 0) + 1
        in_use = sorted(r for r, k in regexes.items() if k > 0)
        resolved = group.regexes if group is not None else {}
        last_refresh = max((v["timestamp"] for v in resolved.values()), default=-REGEX_REFRESH_INTERVAL_MS - 1)
        now = c.clock.now_ms()
        if now <= last_refresh + REGEX_REFRESH_INTERVAL_MS:
            return bump
        last_version = max((v["version"] for v in resolved.values()), default=-1)
        require |= len(in_use) != len(resolved)
        require |= last_version < c.topics.new_topics_version
        require |= now > last_refresh + REGEX_MAX_AGE_MS
        if require and in_use:
            c.schedule_task(f"{gid}-regex", lambda: self._resolve_regexes(gid, in_use))
        return bump

    def _resolve_regexes(self, gid: str, regexes: list[str]) -> None:
        """`refreshRegularExpressions` + `handleRegularExpressionsResult`: records, and a bump on change."""
        c = self.c
        group = c.state.consumer.get(gid)
        if group is None:
            return
        idx = c.state.indexes.get(gid) or GroupIndex()
        now = c.clock.now_ms()
        names = c.topics.names()
        out: list[rec.Record] = []
        bump = False
        resolved_now: dict[str, list[str]] = {}
        for regex in regexes:
            if idx.regex_members.get(regex, 0) == 0:
                continue
            try:
                topics = compile_topic_regex(regex).select(names)
            except InvalidRegex:
                topics = []
            previous = group.regexes.get(regex)
            if previous is None or sorted(previous["topics"]) != topics:
                bump = True
            resolved_now[regex] = topics
            out.append(rec.regex(gid, regex, topics, c.topics.version, now))
        subscribed = set(idx.names)
        for regex, resolved in group.regexes.items():
            if idx.regex_members.get(regex, 0) > 0:
                subscribed.update(resolved_now.get(regex, resolved["topics"]))
        for topics in resolved_now.values():
            subscribed.update(topics)
        new_hash = metadata_hash(self._topic_facts(subscribed))
        if new_hash != group.metadata_hash:
            bump = True
        if bump:
            out.append(rec.group_epoch(gid, group.epoch + 1, new_hash))
        c.append(out)

    def _update_target(
        self, gid: str, group: ConsumerGroupState | None, epoch: int, member_id: str, updated: dict,
        replaced: str | None, records: list[rec.Record],
    ) -> Assignment:
        """`TargetAssignmentBuilder`: the new target for every member, records for those that changed."""
        c = self.c
        members: dict[str, dict] = dict(group.members) if group is not None else {}
        old_targets: dict[str, Assignment] = (
            {m: group.targets_map(m) for m in group.targets} if group is not None else {}
        )
        if replaced is not None:
            members.pop(replaced, None)
            old_targets[member_id] = old_targets.pop(replaced, {})
        members[member_id] = updated
        assignor = preferred_assignor(members.values(), self.c.assignor_names[0])
        specs: dict[str, MemberSpec] = {}
        topics: dict[uuid.UUID, int] = {}
        for mid in sorted(members):
            meta = members[mid]
            ids = self._subscribed_ids(gid, group, meta)
            for topic_id in ids:
                topics[topic_id] = c.topics.by_id(topic_id).partitions  # type: ignore[union-attr]
            specs[mid] = MemberSpec(
                instance_id=meta.get("instanceId"), rack_id=meta.get("rackId"), subscribed_topic_ids=frozenset(ids),
                assigned=old_targets.get(mid, _EMPTY),
            )
        result = ASSIGNORS[assignor].assign(specs, topics)
        for mid in sorted(specs):
            new = {t: frozenset(ps) for t, ps in result.get(mid, {}).items() if ps}
            if mid not in old_targets or new != old_targets[mid]:
                records.append(rec.target_member(gid, mid, new))
        records.append(rec.target_epoch(gid, epoch))
        return {t: frozenset(ps) for t, ps in result.get(member_id, {}).items() if ps}
