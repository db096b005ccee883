"""Which Kafka release's `kafka-dump-log.sh --offsets-decoder --deep-iteration` the dump-log format copies.

Every difference between the releases' outputs for `__consumer_offsets` is one row of
`DIFFERENCES`: what changed, the first release that prints it the new way, what it printed before
and after, and the Kafka change the fact was read from. `profile(version)` folds the rows into the
switches the printer (`groupctl.log.dumplog`) consults; nothing else in the printer knows versions.

The covered releases are `SUPPORTED_VERSIONS` (3.8 is the first whose tool prints Kafka's JSON; 4.3
is the newest release). Facts come from Kafka's sources and pull requests; where the stored sources
could not settle a release, the row's `unsettled` says so instead of guessing.

Record types 18 (a development-only streams record, removed before 4.1) and 24 (seen in a newer
copy of the schemas, in no release branch we could read) are unknown to every covered release, so
the tool prints `Unknown record type T at offset O, skipping.` for them at every version.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

SUPPORTED_VERSIONS: Final = ("3.8", "3.9", "4.0", "4.1", "4.2", "4.3")
"""The releases `--kafka-version` accepts, oldest first."""

NEWEST: Final = SUPPORTED_VERSIONS[-1]
"""The default: the newest release covered."""


def version_key(version: str) -> tuple[int, int]:
    """"4.10" -> (4, 10), so releases compare as numbers, not text."""
    major, minor = version.split(".")
    return int(major), int(minor)


def at_least(version: str, since: str) -> bool:
    return version_key(version) >= version_key(since)


def check_version(text: str) -> str:
    """The release `text` names, or ValueError naming the supported ones."""
    text = text.strip()
    if text in SUPPORTED_VERSIONS:
        return text
    supported = ", ".join(SUPPORTED_VERSIONS)
    if re.fullmatch(r"\d+\.\d+\.\d+", text) and ".".join(text.split(".")[:2]) in SUPPORTED_VERSIONS:
        hint = f"; give the release line as X.Y ({'.'.join(text.split('.')[:2])})"
    else:
        hint = ""
    raise ValueError(f"unsupported Kafka version {text!r}: dump-log output is covered for {supported}{hint}")


@dataclass(frozen=True)
class Difference:
    """One change in the tool's output: the `after` behaviour holds from release `since` on."""

    what: str
    since: str
    before: str
    after: str
    source: str
    unsettled: str = ""
    types_added: frozenset[int] = frozenset()
    types_removed: frozenset[int] = frozenset()
    tagged_fields: Mapping[int, frozenset[str]] = field(default_factory=dict)
    """Record type -> JSON paths of tagged fields the schemas gained at `since` (unknown, so never
    printed, before it)."""
    share_state_tagged_fields: Mapping[int, frozenset[str]] = field(default_factory=dict)
    """The same for `__share_group_state` record types (their own type space: 0 snapshot, 1 update)."""
    layouts_changed: frozenset[int] = frozenset()
    """Record types whose value layout changed at `since`: before it they are read with the earlier layout
    (`record_schemas.KAFKA_40_VALUE_SCHEMAS`)."""


def _paths(*paths: str) -> frozenset[str]:
    return frozenset(paths)


_STREAMS_TASK_LISTS = (
    "activeTasks", "standbyTasks", "warmupTasks",
    "activeTasksPendingRevocation", "standbyTasksPendingRevocation", "warmupTasksPendingRevocation",
)

BASE_RECORD_TYPES: Final = frozenset(range(0, 9))
"""The record types 3.8's tool decodes (KAFKA-16470, PR #15652): classic records and KIP-848's."""

DIFFERENCES: Final[tuple[Difference, ...]] = (
    Difference(
        what="classicMemberMetadata of a consumer-protocol member (type 5, tag 0)",
        since="3.8",
        before="(no JSON offsets decoder before 3.8)",
        after='a null value written by the broker is printed: "classicMemberMetadata":null',
        source="ConsumerGroupMemberMetadataValue.json declares \"default\": null (a JSON null), which the "
        "generator's FieldSpec turns into no default (the empty struct), so a null is non-default; "
        "Kafka 4.0.0's own output shows it",
        unsettled="seen in the 3.8-era and the 4.1-era schema file and in 4.0.0's output; no later change "
        "was found, but no 4.2 or 4.3 copy of the file could be read",
    ),
    Difference(
        what="share-group record types 9-15",
        since="4.0",
        before="Unknown record type T at offset O, skipping.",
        after="decoded and printed",
        source="KAFKA-16733 (PR #17282), after the 3.9 branch",
        types_added=frozenset(range(9, 16)),
    ),
    Difference(
        what="the --share-group-state-decoder option (__share_group_state: ShareSnapshot 0, ShareUpdate 1)",
        since="4.0",
        before="no such option: the tool cannot decode __share_group_state",
        after="each record printed as the offsets decoder prints its records, with the share coordinator's "
        "record types",
        source="DumpLogSegments' ShareGroupStateMessageParser (KIP-932); its Kafka 4.3 test gives the JSON layout",
        unsettled="no real __share_group_state segment or tool output was at hand; the 4.0 and 4.1 value layouts "
        "are taken to be 4.3's (createTimestamp and writeTimestamp included) without a copy of those releases' "
        "schema files",
    ),
    Difference(
        what="record type 16 (CONSUMER_GROUP_REGULAR_EXPRESSION)",
        since="4.0",
        before="Unknown record type 16 at offset O, skipping.",
        after="decoded and printed",
        source="KAFKA-18234 (PR #18173)",
        types_added=frozenset({16}),
    ),
    Difference(
        what="a value version outside the type's valid versions",
        since="4.0",
        before="read with the layout of the nearest valid version (the serde did not check it) and printed "
        'with its own number, e.g. an OffsetCommitValue v5 as v4 with "version":"5"',
        after="Error at offset O, skipping. Found an unknown record version V for T type",
        source="KAFKA-18672 (PR #18749, cherry-picked to 4.0 as PR #18786 before 4.0.0). KIP-915's forward "
        "compatibility is flexible versions with tagged fields, not reading a higher version",
    ),
    Difference(
        what="record type 0 values",
        since="4.1",
        before="read as OffsetCommitValue (versions 0-4; v0 prints as LegacyOffsetCommitValue does)",
        after="read as LegacyOffsetCommitValue (version 0 only; v1-4 are unknown versions)",
        source="KAFKA-18301 (PR #18261): coordinator records with an apiKey, type 0 split out",
        unsettled="the change reached trunk around the 4.0 branch cut (2024-12/2025-01); the release "
        "branches groupctl's reference facts were read from place it in 4.1, which the stored sources "
        "could not confirm. Only type 0 values of versions 1-4 print differently, and no broker writes them",
    ),
    Difference(
        what="ShareGroupMetadataValue (type 11) and ShareGroupStatePartitionMetadataValue (type 15) layouts",
        since="4.1",
        before="read with 4.0's layouts (11: Epoch only; 15: InitializedTopics, DeletingTopics): type 11's "
        "MetadataHash bytes read as tagged fields (an error unless the hash is 0), type 15's topics shifted "
        "down a list, or an error",
        after="11: Epoch, MetadataHash; 15: InitializingTopics, InitializedTopics, DeletingTopics",
        source="Kafka 4.0.0's own kafka-dump-log.sh on a 4.1.0 broker's segment (kafka-4.1-broker-vectors, "
        "__consumer_offsets-41)",
        layouts_changed=frozenset({11, 15}),
    ),
    Difference(
        what="record type 9 (SHARE_GROUP_PARTITION_METADATA)",
        since="4.1",
        before="decoded and printed",
        after="Unknown record type 9 at offset O, skipping.",
        source="the record was removed in 2025-06 (commit 2977cb17d0), as the 4.1 branch was cut",
        types_removed=frozenset({9}),
    ),
    Difference(
        what="streams-group record types 17 and 19-23",
        since="4.1",
        before="Unknown record type T at offset O, skipping.",
        after="decoded and printed",
        source="KIP-1071 records; DumpLogSegments prints every record through the generated "
        "CoordinatorRecordJsonConverters (KAFKA-18457, PR #18480)",
        unsettled="placed at 4.1 by groupctl's reference facts (the streams protocol's early access); "
        "whether 4.0's tool, which may already use the generated converters, knew these types was not settled",
        types_added=frozenset({17, 19, 20, 21, 22, 23}),
    ),
    Difference(
        what="OffsetCommitValue.topicId (type 1, v4+, tag 0)",
        since="4.1",
        before="not in the schema: the tag is unknown and never printed",
        after='"topicId" printed when non-zero',
        source="KAFKA-19141",
        tagged_fields={1: _paths("topicId")},
    ),
    Difference(
        what="ConsumerGroupMetadataValue.metadataHash (type 3, tag 0)",
        since="4.1",
        before="not in the schema: never printed",
        after='"metadataHash" printed when non-zero',
        source="KIP-1101",
        tagged_fields={3: _paths("metadataHash")},
    ),
    Difference(
        what="deliveryCompleteCount of ShareSnapshotValue and ShareUpdateValue (__share_group_state, tag 0)",
        since="4.2",
        before="not in the schemas: never printed",
        after='"deliveryCompleteCount" printed when not -1',
        source="KIP-1226 (the ShareUpdateValue.json comment: added in Apache Kafka 4.2)",
        unsettled="its place among ShareSnapshotValue's fields is taken from ShareUpdateValue's (after startOffset)",
        share_state_tagged_fields={0: _paths("deliveryCompleteCount"), 1: _paths("deliveryCompleteCount")},
    ),
    Difference(
        what="StreamsGroupMetadataValue.validatedTopologyEpoch and lastAssignmentConfigs (type 17, tags 0-1)",
        since="4.2",
        before="not in the schema: never printed",
        after="printed when not at their defaults",
        source="Kafka 4.2 schema (groupctl's reference facts, section 1.3; not re-read here)",
        tagged_fields={17: _paths("validatedTopologyEpoch", "lastAssignmentConfigs")},
    ),
    Difference(
        what="TaskIds.assignmentEpochs in StreamsGroupCurrentMemberAssignmentValue (type 22, tag 0)",
        since="4.2",
        before="not in the schema: never printed",
        after="printed when not null",
        source="Kafka 4.2 schema (groupctl's reference facts, section 1.3; not re-read here)",
        tagged_fields={22: frozenset(f"{name}.assignmentEpochs" for name in _STREAMS_TASK_LISTS)},
    ),
    Difference(
        what="assignmentTimestamp of target assignment metadata (types 6, 12, 20, tag 0)",
        since="4.3",
        before="not in the schema: never printed",
        after='"assignmentTimestamp" printed when non-zero',
        source="KIP-1263",
        tagged_fields={6: _paths("assignmentTimestamp"), 12: _paths("assignmentTimestamp"),
                       20: _paths("assignmentTimestamp")},
    ),
    Difference(
        what="TopicPartitions.assignmentEpochs in ConsumerGroupCurrentMemberAssignmentValue (type 8, tag 0)",
        since="4.3",
        before="not in the schema: never printed",
        after="printed when not null",
        source="KIP-1251 (KAFKA-20066)",
        tagged_fields={8: _paths("assignedPartitions.assignmentEpochs",
                                 "partitionsPendingRevocation.assignmentEpochs")},
    ),
    Difference(
        what="legacy (magic 0/1) record line",
        since="4.3",
        before="`isValid: true crc: N}` (a stray brace in the Scala tool)",
        after="`isValid: true crc: N`",
        source="KAFKA-14579 (PR #21223): DumpLogSegments rewritten in Java in the tools module",
    ),
    Difference(
        what="a record without a key: the tool stops with this exception on stderr (groupctl prints the "
        "record line without a key, goes on, and counts the record as undecodable)",
        since="4.3",
        before="Failed to decode message at offset O using offset topic decoder (message had a missing key)",
        after="Failed to decode message at offset O using the specified decoder (message had a missing key)",
        source="KAFKA-14579 (PR #21223)",
    ),
    Difference(
        what="StreamsGroupMetadataValue.storedDescriptionTopologyEpoch and failedDescriptionTopologyEpoch "
        "(type 17, tags 2-3)",
        since="4.4",
        before="not in the schema of any covered release: never printed",
        after="printed when not -1",
        source="trunk (4.4 development) schema",
        unsettled="after the newest covered release; listed so no covered version prints them",
        tagged_fields={17: _paths("storedDescriptionTopologyEpoch", "failedDescriptionTopologyEpoch")},
    ),
)


_NONE_HIDDEN: Final[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class Profile:
    """What one release's tool does, as the printer needs it."""

    version: str
    record_types: frozenset[int]
    hidden_fields: Mapping[int, frozenset[str]]
    checks_value_version: bool
    type0_is_offset_commit: bool
    legacy_crc_brace: bool
    share_state_decoder: bool = True
    share_state_hidden_fields: Mapping[int, frozenset[str]] = field(default_factory=dict)
    kafka40_layouts: frozenset[int] = frozenset()
    """Record types this release reads with Kafka 4.0's layouts (`record_schemas.KAFKA_40_VALUE_SCHEMAS`)."""

    def hidden(self, record_type: int) -> frozenset[str]:
        return self.hidden_fields.get(record_type, _NONE_HIDDEN)

    def share_state_hidden(self, record_type: int) -> frozenset[str]:
        """The tagged fields of a `__share_group_state` record type this release's schemas lack."""
        return self.share_state_hidden_fields.get(record_type, _NONE_HIDDEN)


def _row(what: str) -> Difference:
    return next(d for d in DIFFERENCES if d.what.startswith(what))


_PROFILES: dict[str, Profile] = {}


def profile(version: str = NEWEST) -> Profile:
    """The switches for `version` (one of SUPPORTED_VERSIONS), built from DIFFERENCES."""
    cached = _PROFILES.get(version)
    if cached is not None:
        return cached
    check_version(version)
    types = set(BASE_RECORD_TYPES)
    hidden: dict[int, set[str]] = {}
    share_hidden: dict[int, set[str]] = {}
    older_layouts: set[int] = set()
    for row in sorted(DIFFERENCES, key=lambda d: version_key(d.since)):
        if at_least(version, row.since):
            types |= row.types_added
            types -= row.types_removed
        else:
            older_layouts |= row.layouts_changed
            for record_type, paths in row.tagged_fields.items():
                hidden.setdefault(record_type, set()).update(paths)
            for record_type, paths in row.share_state_tagged_fields.items():
                share_hidden.setdefault(record_type, set()).update(paths)
    built = Profile(
        version=version,
        record_types=frozenset(types),
        hidden_fields={t: frozenset(p) for t, p in hidden.items()},
        checks_value_version=at_least(version, _row("a value version outside").since),
        type0_is_offset_commit=not at_least(version, _row("record type 0 values").since),
        legacy_crc_brace=not at_least(version, _row("legacy (magic 0/1) record line").since),
        share_state_decoder=at_least(version, _row("the --share-group-state-decoder option").since),
        share_state_hidden_fields={t: frozenset(p) for t, p in share_hidden.items()},
        kafka40_layouts=frozenset(older_layouts),
    )
    _PROFILES[version] = built
    return built
