"""Online migration between the protocols (KIP-848), as Kafka 4.x's `GroupMetadataManager` does it.

Upgrade: the first consumer-protocol member joining a non-empty classic group converts it
(`validateOnlineUpgrade`, `convertToConsumerGroup`, `ConsumerGroup.fromClassicGroup`): the classic
group's tombstone, then its members as consumer-group members that keep their `classicMemberMetadata`,
at member epoch = group epoch = target epoch = the classic generation, each targeted at and holding what
it was assigned. The joining heartbeat then runs against that group; if it fails the group stays classic.

Downgrade: when the last consumer-protocol members leave (or a static one is replaced by a classic
member) and every member left speaks the classic protocol, the group becomes a classic group again
(`validateOnlineDowngradeWith*`, `convertToClassicGroup`, `ClassicGroup.fromConsumerGroup`): the
consumer group's tombstones and one GroupMetadataValue whose assignments are the members' targets; a
member leaving starts a rebalance.

Both depend on `group.consumer.migration.policy` (the runtime's `migration`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groupctl.coordinator.classic import ClassicGroups
from groupctl.coordinator.classic.group import ClassicGroup, ClassicMember
from groupctl.coordinator.classic.messages import join_error
from groupctl.coordinator.classic.records import group_record, group_tombstone
from groupctl.coordinator.consumer import ConsumerGroups
from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.classic_requests import assignment_bytes, classic_metadata
from groupctl.coordinator.consumer.heartbeat import HeartbeatResult
from groupctl.coordinator.consumer.heartbeat import heartbeat as consumer_heartbeat
from groupctl.coordinator.consumer.membership import classic_metadata_of, group_tombstones, uses_classic
from groupctl.coordinator.consumer.reconcile import MemberAssignment
from groupctl.coordinator.consumer.validation import validate_request
from groupctl.coordinator.log import MemoryLog, Record
from groupctl.coordinator.runtime import (
    Caller,
    Result,
    Runtime,
    classic_heartbeat_key,
    classic_join_key,
    classic_sync_key,
)
from groupctl.coordinator.state import CoordinatorState
from groupctl.errors import KAFKA_ERROR_CODES, DecodeError, KafkaError
from groupctl.model import GroupState, MemberState
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE, decode_assignment, decode_subscription
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
)
from groupctl.protocol.data.groups import SyncGroupResponseData
from groupctl.protocol.data.records import ConsumerGroupMemberMetadataValue
from groupctl.protocol.primitives import WireError

if TYPE_CHECKING:
    from groupctl.coordinator.assignors import Assignment

_REBALANCING = KAFKA_ERROR_CODES["REBALANCE_IN_PROGRESS"]
#: A classic member that joined but never synced has this assignment; it converts to no partitions.
_NO_ASSIGNMENT = b""


def _cannot_upgrade(group_id: str, why: str) -> KafkaError:
    return KafkaError("GROUP_ID_NOT_FOUND", f"Cannot upgrade classic group {group_id} to consumer group because {why}")


class Migration:
    """The conversions between a live classic group and a replayed consumer group of the same id."""

    def __init__(self, runtime: Runtime, classic: ClassicGroups, consumer: ConsumerGroups) -> None:
        self.rt = runtime
        self.classic = classic
        self.consumer = consumer

    # -- upgrade ----------------------------------------------------------------------------------------

    def upgrade(self, request: ConsumerGroupHeartbeatRequestData, caller: Caller) -> HeartbeatResult:
        """A joining ConsumerGroupHeartbeat to a non-empty classic group: the conversion and the heartbeat's
        records together, or the heartbeat's error with the classic group left as it was."""
        rt = self.rt
        gid = request.group_id
        group = self.classic.groups[gid]
        try:
            validate_request(request, caller.api_version, rt.assignor_names)
            self._check_upgrade(group)
            conversion, sessions = self._upgrade_records(group)
        except KafkaError as exc:
            return Result(ConsumerGroupHeartbeatResponseData(error_code=exc.code, error_message=exc.message))
        result = self._heartbeat_against(request, caller, conversion[1:])
        if result.response.error_code:
            return result
        out: HeartbeatResult = Result(result.response, conversion + result.records)
        self._retire_classic(group, out)
        out.replies += result.replies
        for member_id, timeout in sessions.items():
            if member_id != result.response.member_id:
                self.consumer.schedule_session_timeout(gid, member_id, timeout)
        return out

    def _check_upgrade(self, group: ClassicGroup) -> None:
        """`validateOnlineUpgrade`, with the messages of current Kafka (3.9 gave every refusal as
        "Group G is not a consumer group.")."""
        gid = group.group_id
        if not self.rt.upgrade_enabled:
            raise _cannot_upgrade(gid, "online upgrade is disabled.")
        if group.protocol_type != PROTOCOL_TYPE:
            raise _cannot_upgrade(gid, "the group does not use the consumer embedded protocol.")
        if len(group.members) > self.rt.max_group_size:
            raise _cannot_upgrade(gid, "the group size exceeds the consumer group maximum size.")

    def _upgrade_records(self, group: ClassicGroup) -> tuple[list[Record], dict[str, int]]:
        """`convertToConsumerGroup`'s records (the classic tombstone first) and each member's session timeout."""
        gid = group.group_id
        generation = group.generation
        members: list[tuple[str, ConsumerGroupMemberMetadataValue, Assignment]] = []
        for m in group.members.values():
            try:
                assigned = self._assigned(m.assignment, gid)
                protocol = group.protocol_name if group.protocol_name is not None else m.protocols[0][0]
                subscription = decode_subscription(m.metadata(protocol))[1]
            except (DecodeError, WireError, ValueError, IndexError) as exc:
                raise _cannot_upgrade(gid, "the embedded consumer protocol is malformed.") from exc
            meta = ConsumerGroupMemberMetadataValue(
                instance_id=m.instance_id, rack_id=subscription.get("rackId"), client_id=m.client_id,
                client_host=m.client_host, subscribed_topic_names=sorted(set(subscription.get("topics") or ())),
                subscribed_topic_regex=None, rebalance_timeout_ms=m.rebalance_timeout_ms, server_assignor=None,
                classic_member_metadata=classic_metadata(m.session_timeout_ms, m.protocols),
            )
            members.append((m.member_id, meta, assigned))
        records = [group_tombstone(gid)]
        records += [rec.member_metadata(gid, mid, meta) for mid, meta, _ in members]
        # No metadata hash (nor Kafka 4.0's type 4), as Kafka writes it: the heartbeat that converts always
        # finds the topics' metadata changed and computes a new target.
        records.append(rec.group_epoch(gid, generation, 0))
        records += [rec.target_member(gid, mid, assigned) for mid, _, assigned in members]
        records.append(rec.target_epoch(gid, generation))
        records += [
            rec.current_record(gid, mid, MemberAssignment(MemberState.STABLE, generation, generation, assigned, {}))
            for mid, _, assigned in members
        ]
        return records, {m.member_id: m.session_timeout_ms for m in group.members.values()}

    def _assigned(self, data: bytes, group_id: str) -> Assignment:
        """A classic assignment by topic id (topics the cluster no longer has are dropped, as Kafka does)."""
        if bytes(data) == _NO_ASSIGNMENT:
            return {}
        assignment = decode_assignment(bytes(data))[1]
        if assignment.get("userData"):
            raise _cannot_upgrade(
                group_id, "an unsupported custom assignor is in use. Please refer to the documentation or switch to "
                "a default assignor before re-attempting the upgrade.",
            )
        out: dict = {}
        for tp in assignment.get("assignedPartitions") or ():
            topic = self.rt.topics.get(tp["topic"])
            if topic is not None and tp["partitions"]:
                out[topic.topic_id] = out.get(topic.topic_id, frozenset()) | frozenset(tp["partitions"])
        return out

    def _heartbeat_against(self, request: ConsumerGroupHeartbeatRequestData, caller: Caller,
                           conversion: list[Record]) -> HeartbeatResult:
        """The heartbeat run on the converted group, held aside: the live state gains it only if the
        heartbeat succeeds and the records are appended (Kafka's uncommitted group object)."""
        rt = self.rt
        gid = request.group_id
        scratch = CoordinatorState()
        scratch.apply_all(MemoryLog().append(conversion, rt.now_ms()))
        state = rt.state
        state.consumer[gid] = scratch.consumer[gid]
        state.indexes[gid] = scratch.indexes.get(gid) or scratch.index(gid)
        rt.metadata_refresh.add(gid)  # a converted group's metadata counts as expired
        try:
            return consumer_heartbeat(self.consumer, request, caller, None)
        finally:
            del state.consumer[gid]
            state.indexes.pop(gid, None)
            rt.metadata_refresh.discard(gid)

    def _retire_classic(self, group: ClassicGroup, out: Result) -> None:
        """The live classic group ends: parked requests told to rejoin, its timers cancelled."""
        gid = group.group_id
        timers = self.rt.timers
        for member in group.members.values():
            if member.awaiting_join is not None:
                out.reply(member.awaiting_join, join_error(_REBALANCING, member.member_id))
                member.awaiting_join = None
            if member.awaiting_sync is not None:
                out.reply(member.awaiting_sync, SyncGroupResponseData(error_code=_REBALANCING))
                member.awaiting_sync = None
        timers.cancel(classic_join_key(gid))
        timers.cancel(classic_sync_key(gid))
        for member_id in (*group.members, *group.pending_join):
            timers.cancel(classic_heartbeat_key(gid, member_id))
        self.classic.groups.pop(gid, None)

    # -- downgrade --------------------------------------------------------------------------------------

    def maybe_downgrade(self, group_id: str, leaving: list[str],
                        joining: tuple[str, ConsumerGroupMemberMetadataValue] | None) -> Result | None:
        """The conversion to a classic group when every member left after `leaving` (with `joining`, a static
        member replacing the consumer-protocol member `leaving[0]`) speaks classic; None otherwise."""
        rt = self.rt
        group = rt.state.consumer.get(group_id)
        # Fenced members may speak either protocol (`validateOnlineDowngradeWithFencedMembers`); a replaced static
        # member must speak the consumer protocol (`validateOnlineDowngradeWithReplacedMember`).
        if group is None or (joining is not None and uses_classic(group.members.get(leaving[0]))):
            return None
        staying: list[tuple[str, ConsumerGroupMemberMetadataValue, Assignment]] = []
        for member_id in group.member_ids():
            if member_id in leaving:
                continue
            meta = group.members.get(member_id)
            if meta is None or not uses_classic(meta):
                return None
            staying.append((member_id, meta, group.targets_map(member_id)))
        if joining is not None:
            staying.append((joining[0], joining[1], group.targets_map(leaving[0])))
        if not staying or not rt.downgrade_enabled or len(staying) > self.classic.max_size:
            return None
        logged = group.member_ids()
        if joining is not None:
            logged = [joining[0] if m == leaving[0] else m for m in logged]
        records = group_tombstones(group_id, group, logged)
        classic = self._classic_group(group_id, group.epoch, staying)
        records.append(group_record(classic, {m.member_id: m.assignment for m in classic.members.values()}))
        for member_id in group.member_ids():
            self.consumer.cancel_member_timers(group_id, member_id)
        rt.metadata_refresh.discard(group_id)
        self.classic.groups[group_id] = classic
        for member in classic.members.values():
            self.classic.reschedule_heartbeat(classic, member)
        out: Result = Result(None, records)
        replaced = group.members.get(leaving[0]) if joining is not None else None
        resubscribed = replaced is not None and joining is not None and set(replaced.subscribed_topic_names) != set(
            joining[1].subscribed_topic_names)
        if joining is None or resubscribed:
            self.classic.prepare_rebalance(classic, out)
        return out

    def _classic_group(self, group_id: str, epoch: int,
                       staying: list[tuple[str, ConsumerGroupMemberMetadataValue, Assignment]]) -> ClassicGroup:
        """`ClassicGroup.fromConsumerGroup`: Stable at generation = group epoch, each member assigned its
        target in the assignment version of its own subscription."""
        group = ClassicGroup(group_id, GroupState.STABLE, None, epoch, PROTOCOL_TYPE, None, None, self.rt.now_ms())
        targets = {}
        for member_id, meta, target in staying:
            classic = classic_metadata_of(meta)
            if classic is None:  # staying members speak the classic protocol: maybe_downgrade checks it
                raise AssertionError(f"member {member_id} of group {group_id} does not speak the classic protocol")
            rebalance = meta.rebalance_timeout_ms
            session = classic.session_timeout_ms
            group.add(ClassicMember(
                member_id, meta.instance_id, meta.client_id, meta.client_host,
                rebalance if rebalance != -1 else session, session, PROTOCOL_TYPE,
                [(p.name, bytes(p.metadata)) for p in classic.supported_protocols],
            ))
            targets[member_id] = target
        group.protocol_name = group.select_protocol()
        for member in group.members.values():
            member.assignment = assignment_bytes(self.rt.topics, targets[member.member_id],
                                                 member.metadata(group.protocol_name))
        return group
