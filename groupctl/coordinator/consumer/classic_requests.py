"""Classic-protocol members inside a consumer group (KIP-848 online migration), as Kafka 4.x serves
them: `classicGroupJoinToConsumerGroup`, `classicGroupSyncToConsumerGroup` and
`classicGroupHeartbeatToConsumerGroup`.

A JoinGroup runs the consumer group's own steps for the member (its subscription and owned partitions
read from the embedded consumer protocol) and answers with its member epoch as the generation;
SyncGroup hands it the partitions it holds now; Heartbeat answers REBALANCE_IN_PROGRESS while its
assignment must still change, so the client rejoins and reconciles one JoinGroup at a time.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from groupctl.coordinator.classic.group import MEMBER_ID_REQUIRED_VERSION
from groupctl.coordinator.classic.messages import (
    NONE,
    JoinCallback,
    SyncCallback,
    answer_join,
    join_error,
    protocol_pairs,
)
from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.heartbeat import (
    JoiningMember,
    advance,
    check_group_size,
    check_static_member,
    default_member,
    member_copy,
    replace_static,
)
from groupctl.coordinator.consumer.membership import ConsumerGroups, classic_metadata_of
from groupctl.coordinator.consumer.reconcile import MemberAssignment
from groupctl.coordinator.runtime import Caller, Result, member_join_key, member_sync_key
from groupctl.coordinator.state import GroupIndex
from groupctl.coordinator.topics import TopicImage
from groupctl.errors import KAFKA_ERROR_CODES, DecodeError, KafkaError
from groupctl.model import MemberState
from groupctl.protocol.consumer_protocol import PROTOCOL_TYPE, decode_subscription, encode_assignment
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    HeartbeatResponseData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.protocol.data.records import ClassicMemberMetadata, ClassicProtocol, ConsumerGroupMemberMetadataValue
from groupctl.protocol.primitives import WireError

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState

_CODE = KAFKA_ERROR_CODES
#: The highest ConsumerProtocolAssignment version; a member's own version is used up to it.
_LATEST_ASSIGNMENT_VERSION = 3


def classic_metadata(session_timeout_ms: int, protocols: list[tuple[str, bytes]]) -> ClassicMemberMetadata:
    """ConsumerGroupMemberMetadataValue.ClassicMemberMetadata of a member's JoinGroup."""
    return ClassicMemberMetadata(
        session_timeout_ms=session_timeout_ms,
        supported_protocols=[ClassicProtocol(name=name, metadata=bytes(data)) for name, data in protocols],
    )


def supports_protocols(group: ConsumerGroupState, protocol_type: str, names: set[str]) -> bool:
    """`ConsumerGroup.supportsClassicProtocols`: the consumer protocol type, and a protocol every
    classic-protocol member already supports (any, when there are none)."""
    if protocol_type != PROTOCOL_TYPE:
        return False
    classic = [c for c in map(classic_metadata_of, group.members.values()) if c is not None]
    if not group.member_ids():
        return bool(names)
    return any(all(name in {p.name for p in c.supported_protocols} for c in classic) for name in names)


def owned_partitions(topics: TopicImage, owned: list[dict] | None) -> list[tuple[uuid.UUID, list[int]]]:
    """A subscription's OwnedPartitions by topic id; topics the cluster does not know are left out."""
    out = []
    for tp in owned or ():
        topic = topics.get(tp["topic"])
        if topic is not None:
            out.append((topic.topic_id, list(tp["partitions"])))
    return out


def assignment_bytes(topics: TopicImage, partitions: dict[uuid.UUID, frozenset[int]], metadata: bytes) -> bytes:
    """A ConsumerProtocolAssignment of `partitions`, at the version of the member's subscription bytes."""
    version = int.from_bytes(metadata[:2], "big", signed=True) if len(metadata) >= 2 else 0
    assigned: list[dict[str, Any]] = []
    for topic_id, parts in sorted(partitions.items(), key=lambda kv: kv[0].bytes):
        topic = topics.by_id(topic_id)
        if topic is not None and parts:
            assigned.append({"topic": topic.name, "partitions": sorted(parts)})
    data = {"assignedPartitions": sorted(assigned, key=lambda t: t["topic"]), "userData": None}
    return encode_assignment(data, min(max(version, 0), _LATEST_ASSIGNMENT_VERSION))


# -- JoinGroup ----------------------------------------------------------------------------------------


def join(groups: ConsumerGroups, req: JoinGroupRequestData, caller: Caller, respond: JoinCallback) -> Result[None]:
    """A classic member's JoinGroup (from `caller`) to a non-empty consumer group: answered now, never parked."""
    return answer_join(lambda out: _join(groups, req, caller, respond, out), req, respond)


def _join(groups: ConsumerGroups, req: JoinGroupRequestData, caller: Caller, respond: JoinCallback,
          out: Result) -> None:
    rt = groups.rt
    gid = req.group_id
    group = groups.group(gid)
    idx = rt.state.indexes.get(gid) or GroupIndex()
    unknown = req.member_id == ""
    member_id = rt.ids.member_id() if unknown else req.member_id
    check_group_size(rt.max_group_size, group, member_id)
    if not supports_protocols(group, req.protocol_type, {p.name for p in req.protocols}):
        raise KafkaError("INCONSISTENT_GROUP_PROTOCOL", f"Member {member_id}'s protocols are not supported.")
    if unknown and req.group_instance_id is None and caller.api_version >= MEMBER_ID_REQUIRED_VERSION:
        out.reply(respond, join_error(_CODE["MEMBER_ID_REQUIRED"], member_id))
        return
    try:
        subscription = decode_subscription(bytes(req.protocols[0].metadata))[1]
    except (DecodeError, WireError, ValueError) as exc:
        raise KafkaError(
            "UNKNOWN_SERVER_ERROR", "Malformed embedded consumer protocol in subscription deserialization.",
        ) from exc

    # 1. create or update the member
    member = _joining(groups, group, idx, req, member_id, unknown)
    updated = member_copy(member.old)
    if req.group_instance_id is not None:
        updated.instance_id = req.group_instance_id
    if subscription.get("rackId") is not None:
        updated.rack_id = subscription["rackId"]
    if req.rebalance_timeout_ms != -1:
        updated.rebalance_timeout_ms = req.rebalance_timeout_ms
    if subscription.get("topics") is not None:
        updated.subscribed_topic_names = sorted(set(subscription["topics"]))
    updated.client_id = caller.client_id
    updated.client_host = caller.client_host
    updated.classic_member_metadata = classic_metadata(req.session_timeout_ms, protocol_pairs(req))
    # 2. and 3.: the target, then the member reconciled against what it says it owns
    owned = owned_partitions(rt.topics, subscription.get("ownedPartitions"))
    new_ma = advance(groups, group, idx, member, updated, owned)
    out.records += member.records

    # 4. a classic member replacing the last consumer-protocol one (a static member) may downgrade the group
    converted = None
    if member.replaced is not None and groups.downgrade is not None:
        converted = groups.downgrade(gid, [member.replaced], (member_id, updated))
    response = JoinGroupResponseData(
        error_code=NONE, generation_id=new_ma.member_epoch, protocol_type=PROTOCOL_TYPE,
        protocol_name=req.protocols[0].name, member_id=member_id,
    )
    rt.timers.cancel(member_join_key(gid, member_id))
    if converted is not None:
        out.merge(converted)
    else:
        groups.schedule_session_timeout(gid, member_id, req.session_timeout_ms)
        rebalance = req.rebalance_timeout_ms if req.rebalance_timeout_ms != -1 else req.session_timeout_ms
        groups.schedule_sync_timeout(gid, member_id, rebalance)
    out.reply(respond, response)


def _joining(groups: ConsumerGroups, group: ConsumerGroupState, idx: GroupIndex, req: JoinGroupRequestData,
             member_id: str, unknown: bool) -> JoiningMember:
    """`getOrMaybeSubscribe{Dynamic,Static}ConsumerGroupMember` for the classic protocol: any member id is
    taken (a new member is created), and a static member with no member id replaces its predecessor."""
    iid = req.group_instance_id
    if iid is not None:
        existing = idx.static.get(iid)
        if unknown and existing is not None:
            return replace_static(group, req.group_id, existing, member_id)
        if not unknown:
            check_static_member(req.group_id, existing, member_id, iid)
    old = group.members.get(member_id)
    return JoiningMember(req.group_id, member_id, old if old is not None else default_member(),
                         rec.member_assignment(group.current.get(member_id)), None, [])


# -- SyncGroup and Heartbeat --------------------------------------------------------------------------


def _member(groups: ConsumerGroups, gid: str, group: ConsumerGroupState, member_id: str, instance_id: str | None,
            generation_id: int) -> tuple[ConsumerGroupMemberMetadataValue, ClassicMemberMetadata, MemberAssignment]:
    """`validateConsumerGroupMember`, then the classic-protocol and generation checks: the member, its
    classic-protocol metadata and its assignment."""
    if instance_id is None:
        if member_id not in group.members:
            raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {member_id} is not a member of group {gid}.")
        found = member_id
    else:
        idx = groups.rt.state.indexes.get(gid) or GroupIndex()
        existing = idx.static.get(instance_id)
        if existing is None:
            raise KafkaError("UNKNOWN_MEMBER_ID",
                             f"Member with instance id {instance_id} is not a member of group {gid}.")
        check_static_member(gid, existing, member_id, instance_id)
        found = existing
    meta = group.members[found]
    classic = classic_metadata_of(meta)
    if classic is None:
        raise KafkaError("UNKNOWN_MEMBER_ID", f"Member {found} does not use the classic protocol.")
    ma = rec.member_assignment(group.current.get(found))
    if ma.member_epoch != generation_id:
        raise KafkaError(
            "ILLEGAL_GENERATION",
            f"The request generation id {generation_id} is not equal to the member epoch {ma.member_epoch} "
            f"of member {found}.",
        )
    return meta, classic, ma


def sync(groups: ConsumerGroups, req: SyncGroupRequestData, respond: SyncCallback) -> Result[None]:
    """A classic member's SyncGroup in a consumer group: the partitions it holds now, or the error."""
    out: Result[None] = Result()
    try:
        group = groups.group(req.group_id)
        meta, classic, ma = _member(groups, req.group_id, group, req.member_id, req.group_instance_id,
                                    req.generation_id)
        protocols = classic.supported_protocols
        if req.protocol_type is not None and req.protocol_type != PROTOCOL_TYPE:
            raise KafkaError(
                "INCONSISTENT_GROUP_PROTOCOL",
                f"The protocol type {req.protocol_type} from member {req.member_id} request is not equal to the "
                f"group protocol type {PROTOCOL_TYPE}.",
            )
        if req.protocol_name is not None and req.protocol_name != protocols[0].name:
            raise KafkaError(
                "INCONSISTENT_GROUP_PROTOCOL",
                f"The protocol name {req.protocol_name} from member {req.member_id} request is not equal to the "
                f"protocol name {protocols[0].name} returned in the join response.",
            )
        if group.epoch > ma.member_epoch and ma.state != MemberState.UNREVOKED_PARTITIONS:
            groups.schedule_join_timeout_if_absent(req.group_id, req.member_id, meta.rebalance_timeout_ms)
            raise KafkaError(
                "REBALANCE_IN_PROGRESS",
                f"A new rebalance is triggered in group {req.group_id} and member {req.member_id} should rejoin "
                "to catch up.",
            )
    except KafkaError as exc:
        out.reply(respond, SyncGroupResponseData(error_code=exc.code))
        return out
    groups.rt.timers.cancel(member_sync_key(req.group_id, req.member_id))
    groups.schedule_session_timeout(req.group_id, req.member_id, classic.session_timeout_ms)
    assignment = assignment_bytes(groups.rt.topics, ma.assigned, bytes(protocols[0].metadata))
    out.reply(respond, SyncGroupResponseData(error_code=NONE, protocol_type=req.protocol_type,
                                             protocol_name=req.protocol_name, assignment=assignment))
    return out


def heartbeat(groups: ConsumerGroups, req: HeartbeatRequestData) -> Result[HeartbeatResponseData]:
    """A classic member's Heartbeat in a consumer group: REBALANCE_IN_PROGRESS while it must rejoin
    (the group epoch moved past it, it has partitions to revoke, or what it waits for is free now)."""
    group_id, member_id = req.group_id, req.member_id
    try:
        group = groups.group(group_id)
        meta, classic, ma = _member(groups, group_id, group, member_id, req.group_instance_id, req.generation_id)
    except KafkaError as exc:
        return Result(HeartbeatResponseData(error_code=exc.code))
    groups.schedule_session_timeout(group_id, member_id, classic.session_timeout_ms)
    released = ma.state == MemberState.UNRELEASED_PARTITIONS and not _waiting(groups, group_id, group, member_id, ma)
    if ma.member_epoch < group.epoch or ma.state == MemberState.UNREVOKED_PARTITIONS or released:
        groups.schedule_join_timeout_if_absent(group_id, member_id, meta.rebalance_timeout_ms)
        return Result(HeartbeatResponseData(error_code=_CODE["REBALANCE_IN_PROGRESS"]))
    return Result(HeartbeatResponseData(error_code=NONE))


def _waiting(groups: ConsumerGroups, gid: str, group: ConsumerGroupState, member_id: str,
             ma: MemberAssignment) -> bool:
    """`waitingOnUnreleasedPartition`: a partition of its target is still held by another member."""
    owners = (groups.rt.state.indexes.get(gid) or GroupIndex()).owners
    for topic_id, parts in group.targets_map(member_id).items():
        held = ma.assigned.get(topic_id, frozenset())
        for p in parts:
            if p not in held and (topic_id, p) in owners:
                return True
    return False
