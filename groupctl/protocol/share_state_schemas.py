"""The `__share_group_state` record schemas (the share coordinator's topic), keys and values, as data.

Transcribed from Kafka's `share-coordinator/src/main/resources/common/message/Share{Snapshot,Update}
{Key,Value}.json`. The topic has its own record-type space, framed as `__consumer_offsets` is (int16
type + key, int16 version + value): type 0 is a ShareSnapshot (a share-partition's whole state),
type 1 a ShareUpdate (a delta on the last snapshot). Both keys name one share-partition: the group,
the topic id and the partition.

The layout is the one Kafka 4.3's DumpLogSegments test prints (createTimestamp and writeTimestamp in
the snapshot, between startOffset and stateBatches). DeliveryCompleteCount (tag 0, KIP-1226) came in
4.2; in ShareUpdateValue it is declared after StartOffset, and it is placed there in the snapshot too
(the stored sources did not show the 4.2 snapshot file).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import Field, Message, field, message

SHARE_SNAPSHOT: Final = 0
SHARE_UPDATE: Final = 1


def _key(name: str, type_id: int) -> Message:
    fields = [field("GroupId", "string"), field("TopicId", "uuid"), field("Partition", "int32")]
    return message(name, "0", "none", fields, api_key=type_id)


def _state_batches() -> Field:
    return field(
        "StateBatches",
        "[]StateBatch",
        fields=[
            field("FirstOffset", "int64"),
            field("LastOffset", "int64"),
            field("DeliveryState", "int8"),
            field("DeliveryCount", "int16"),
        ],
    )


def _delivery_complete_count() -> Field:
    return field("DeliveryCompleteCount", "int32", tag=0, default=-1)


SHARE_STATE_KEY_SCHEMAS: Final[dict[int, Message]] = {
    SHARE_SNAPSHOT: _key("ShareSnapshotKey", SHARE_SNAPSHOT),
    SHARE_UPDATE: _key("ShareUpdateKey", SHARE_UPDATE),
}

SHARE_STATE_VALUE_SCHEMAS: Final[dict[int, Message]] = {
    SHARE_SNAPSHOT: message(
        "ShareSnapshotValue",
        "0",
        "0+",
        [
            field("SnapshotEpoch", "int32"),
            field("StateEpoch", "int32"),
            field("LeaderEpoch", "int32"),
            field("StartOffset", "int64"),
            _delivery_complete_count(),
            field("CreateTimestamp", "int64"),
            field("WriteTimestamp", "int64"),
            _state_batches(),
        ],
        api_key=SHARE_SNAPSHOT,
    ),
    SHARE_UPDATE: message(
        "ShareUpdateValue",
        "0",
        "0+",
        [
            field("SnapshotEpoch", "int32"),
            field("LeaderEpoch", "int32"),
            field("StartOffset", "int64"),
            _delivery_complete_count(),
            _state_batches(),
        ],
        api_key=SHARE_UPDATE,
    ),
}

SHARE_STATE_RECORD_TYPE_NAMES: Final[dict[int, str]] = {SHARE_SNAPSHOT: "SHARE_SNAPSHOT", SHARE_UPDATE: "SHARE_UPDATE"}
"""Record type -> the share coordinator's `CoordinatorRecordType` constant name."""
