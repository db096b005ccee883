"""The `__share_group_state` record keys and values, as classes: generated from `groupctl.protocol.share_state_schemas`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields
from groupctl.protocol.primitives import ZERO_UUID


class ShareSnapshotKey(Data):
    """ShareSnapshotKey, versions 0."""

    __slots__ = ("group_id", "partition", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topic_id", "topicId", None),
        ("partition", "partition", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareSnapshotKey"

    group_id: str
    topic_id: uuid.UUID
    partition: int

    def __init__(
        self,
        *,
        group_id: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partition: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topic_id = topic_id
        self.partition = partition
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareUpdateKey(Data):
    """ShareUpdateKey, versions 0."""

    __slots__ = ("group_id", "partition", "topic_id")
    _FIELDS: ClassVar[FieldTable] = (
        ("group_id", "groupId", None),
        ("topic_id", "topicId", None),
        ("partition", "partition", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareUpdateKey"

    group_id: str
    topic_id: uuid.UUID
    partition: int

    def __init__(
        self,
        *,
        group_id: str = "",
        topic_id: uuid.UUID = ZERO_UUID,
        partition: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.group_id = group_id
        self.topic_id = topic_id
        self.partition = partition
        self.unknown_tagged_fields = unknown_tagged_fields


class StateBatch(Data):
    """An entry of ShareSnapshotValue.StateBatches[]."""

    __slots__ = ("delivery_count", "delivery_state", "first_offset", "last_offset")
    _FIELDS: ClassVar[FieldTable] = (
        ("first_offset", "firstOffset", None),
        ("last_offset", "lastOffset", None),
        ("delivery_state", "deliveryState", None),
        ("delivery_count", "deliveryCount", None),
    )

    first_offset: int
    last_offset: int
    delivery_state: int
    delivery_count: int

    def __init__(
        self,
        *,
        first_offset: int = 0,
        last_offset: int = 0,
        delivery_state: int = 0,
        delivery_count: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_state = delivery_state
        self.delivery_count = delivery_count
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareSnapshotValue(Data):
    """ShareSnapshotValue, versions 0."""

    __slots__ = (
        "create_timestamp",
        "delivery_complete_count",
        "leader_epoch",
        "snapshot_epoch",
        "start_offset",
        "state_batches",
        "state_epoch",
        "write_timestamp",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("snapshot_epoch", "snapshotEpoch", None),
        ("state_epoch", "stateEpoch", None),
        ("leader_epoch", "leaderEpoch", None),
        ("start_offset", "startOffset", None),
        ("delivery_complete_count", "deliveryCompleteCount", None),
        ("create_timestamp", "createTimestamp", None),
        ("write_timestamp", "writeTimestamp", None),
        ("state_batches", "stateBatches", StateBatch),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareSnapshotValue"

    snapshot_epoch: int
    state_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int
    create_timestamp: int
    write_timestamp: int
    state_batches: list[StateBatch]

    def __init__(
        self,
        *,
        snapshot_epoch: int = 0,
        state_epoch: int = 0,
        leader_epoch: int = 0,
        start_offset: int = 0,
        delivery_complete_count: int = -1,
        create_timestamp: int = 0,
        write_timestamp: int = 0,
        state_batches: list[StateBatch] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.snapshot_epoch = snapshot_epoch
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.create_timestamp = create_timestamp
        self.write_timestamp = write_timestamp
        self.state_batches = [] if state_batches is UNSET else state_batches
        self.unknown_tagged_fields = unknown_tagged_fields


class ShareUpdateValue(Data):
    """ShareUpdateValue, versions 0."""

    __slots__ = ("delivery_complete_count", "leader_epoch", "snapshot_epoch", "start_offset", "state_batches")
    _FIELDS: ClassVar[FieldTable] = (
        ("snapshot_epoch", "snapshotEpoch", None),
        ("leader_epoch", "leaderEpoch", None),
        ("start_offset", "startOffset", None),
        ("delivery_complete_count", "deliveryCompleteCount", None),
        ("state_batches", "stateBatches", StateBatch),
    )
    SCHEMA_NAME: ClassVar[str] = "ShareUpdateValue"

    snapshot_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int
    state_batches: list[StateBatch]

    def __init__(
        self,
        *,
        snapshot_epoch: int = 0,
        leader_epoch: int = 0,
        start_offset: int = 0,
        delivery_complete_count: int = -1,
        state_batches: list[StateBatch] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.snapshot_epoch = snapshot_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.state_batches = [] if state_batches is UNSET else state_batches
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "ShareSnapshotKey": ShareSnapshotKey,
    "ShareUpdateKey": ShareUpdateKey,
    "ShareSnapshotValue": ShareSnapshotValue,
    "ShareUpdateValue": ShareUpdateValue,
}
"""Schema name -> class, for the 4 top-level classes."""
