"""The Backend protocol: what every group command needs from wherever the groups live.

Both backends return the model objects of `groupctl.model`; the CLI renders them without knowing
which backend answered. Backends never print; problems they repaired are in `notices`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from groupctl.model import (
    CommittedOffset,
    ConfigEntry,
    GroupDeletion,
    GroupDescription,
    GroupListing,
    OffsetDeletion,
    RemovalResult,
    TopicPartition,
)
from groupctl.protocol.data.groups import MemberIdentity


class Backend(Protocol):
    #: Who answers, for messages: "local /path/to/dir" or "host:port".
    location: str
    #: Things the backend noticed and dealt with (a repaired log tail ...), for stderr.
    notices: list[str]

    def list_groups(
        self, types: Iterable[str] | None = None, states: Iterable[str] | None = None, *, mixed: bool = False
    ) -> list[GroupListing]:
        """Every group, filtered. `mixed` asks for `GroupListing.mixed` even where it costs more requests
        (a describe of the consumer groups on a cluster); a backend that knows it anyway fills it always."""
        ...

    def describe_groups(self, group_ids: Iterable[str]) -> list[GroupDescription]:
        """Each named group; GroupNotFound for one that does not exist."""
        ...

    def remove_members(self, group_id: str, members: Iterable[MemberIdentity]) -> list[RemovalResult]:
        """One LeaveGroup naming every member given (member id or "", instance id, reason); one result each."""
        ...

    def get_config(self, group_id: str, names: Iterable[str] | None = None) -> list[ConfigEntry]: ...

    def alter_config(
        self, group_id: str, set_values: Mapping[str, str], delete: Iterable[str], *, validate_only: bool = False
    ) -> None: ...

    def list_topics(self) -> list[str]: ...

    def committed_offsets(self, group_id: str) -> list[CommittedOffset]: ...

    def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Backend: ...

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        """Close; a backend may undo what a command that failed on the way did (a local DIR does)."""

    # -- offsets reset ---------------------------------------------------------------------------

    def partition_counts(self, topics: Iterable[str]) -> dict[str, int]:
        """How many partitions each named topic has; a topic the cluster lacks is left out."""
        ...

    def start_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """Log start offsets (ListOffsets, earliest); a partition the cluster lacks is left out."""
        ...

    def offsets_for_time(self, partitions: Iterable[TopicPartition], timestamp_ms: int) -> dict[TopicPartition, int]:
        """The first offset whose record timestamp is at least `timestamp_ms` (ListOffsets by timestamp);
        the log end when every record is older, as Kafka's tool resets for a time after the last record."""
        ...

    def alter_offsets(self, group_id: str, offsets: Mapping[TopicPartition, int]) -> dict[TopicPartition, str | None]:
        """Commit `offsets` for the group in one OffsetCommit as the admin API does (generation -1, no
        member id); the Kafka error name per partition, None where it was committed."""
        ...

    # -- deletion -------------------------------------------------------------------------------------

    def delete_groups(self, group_ids: Iterable[str]) -> list[GroupDeletion]:
        """DeleteGroups: one result per group, in order ("deleted" or the Kafka error name and message)."""
        ...

    def delete_offsets(self, group_id: str, partitions: Iterable[TopicPartition]) -> list[OffsetDeletion]:
        """OffsetDelete: one result per partition; a group-level failure raises (GroupNotFound for a missing
        group, KafkaError naming the group for NON_EMPTY_GROUP and the like)."""
        ...


class ShareOffsetsBackend(Backend, Protocol):
    """A backend that also sets and deletes share groups' start offsets (the local one so far): apart from
    `Backend` until the cluster backend implements them too, so that both still satisfy `Backend`."""

    def alter_share_offsets(self, group_id: str,
                            offsets: Mapping[TopicPartition, int]) -> dict[TopicPartition, str | None]:
        """AlterShareGroupOffsets: the Kafka error name per partition, None where set; a group-level refusal
        raises KafkaError (groupctl.errors) naming the group (NON_EMPTY_GROUP with Kafka's message)."""
        ...

    def delete_share_offsets(self, group_id: str, topics: Iterable[str]) -> list[OffsetDeletion]:
        """DeleteShareGroupOffsets: one OffsetDeletion per topic (partition -1); group-level refusal raises."""
        ...
