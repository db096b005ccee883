"""The GroupMetadataValue records of a classic group, as Kafka's `GroupCoordinatorRecordHelpers`
builds them (`newEmptyGroupMetadataRecord`, `newGroupMetadataRecord`, the group tombstone)."""

from __future__ import annotations

from groupctl.coordinator.classic.group import ClassicGroup
from groupctl.coordinator.log import Record
from groupctl.protocol.records import encode_key, encode_value

#: `GROUP_METADATA_VALUE_VERSION`: the version Kafka writes, with groupInstanceId.
GROUP_METADATA_VERSION = 3


def _key(group_id: str) -> bytes:
    return encode_key(2, {"group": group_id})


def _timestamp(group: ClassicGroup) -> int:
    return group.state_timestamp if group.state_timestamp is not None else -1


def empty_group_record(group: ClassicGroup) -> Record:
    """A new group before its first rebalance, whoever joined it."""
    value = {
        "protocolType": "", "generation": 0, "protocol": None, "leader": None,
        "currentStateTimestamp": _timestamp(group), "members": [],
    }
    return _key(group.group_id), encode_value(2, GROUP_METADATA_VERSION, value)


def group_record(group: ClassicGroup, assignment: dict[str, bytes] | None) -> Record:
    """GroupMetadataValue v3 of the group as it stands; no members when `assignment` is None."""
    members = []
    if assignment is not None:
        for m in group.members.values():
            members.append({
                "memberId": m.member_id, "groupInstanceId": m.instance_id, "clientId": m.client_id,
                "clientHost": m.client_host, "rebalanceTimeout": m.rebalance_timeout_ms,
                "sessionTimeout": m.session_timeout_ms, "subscription": m.metadata(group.protocol_name),
                "assignment": assignment.get(m.member_id, b""),
            })
    value = {
        "protocolType": group.protocol_type or "", "generation": group.generation,
        "protocol": group.protocol_name, "leader": group.leader,
        "currentStateTimestamp": _timestamp(group), "members": members,
    }
    return _key(group.group_id), encode_value(2, GROUP_METADATA_VERSION, value)


def group_tombstone(group_id: str) -> Record:
    """Removes a classic (or simple) group: deleted, or replaced by a consumer group."""
    return _key(group_id), None
