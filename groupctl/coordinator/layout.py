"""Which Kafka's records the coordinator writes: the record layouts differ by broker version, and a DIR
or `serve` meant to stand in for a given Kafka writes what that Kafka writes (so `dump` output, audits
and Kafka's own tools see the same bytes).

Kafka 4.0 writes ConsumerGroupPartitionMetadataValue (type 4: the subscribed topics' ids, names and
partition counts) whenever they change, before a ConsumerGroupMetadataValue (type 3) holding only the
epoch, and OffsetCommitValue v3. Kafka 4.1 (KIP-1101) replaced type 4 by a MetadataHash field of type 3
and tombstones a group's type 4 when it next bumps the epoch; it writes OffsetCommitValue v4 with the
topic id. The layouts have not changed since.
"""

from __future__ import annotations

from groupctl.log.kafka_versions import NEWEST, SUPPORTED_VERSIONS, at_least

#: The Kafka releases whose coordinator records groupctl writes (KIP-848 as released: 4.0 on), oldest first.
KAFKA_VERSIONS = tuple(v for v in SUPPORTED_VERSIONS if at_least(v, "4.0"))
#: The first release that writes MetadataHash and no type 4.
FIRST_METADATA_HASH = "4.1"

__all__ = ["KAFKA_VERSIONS", "NEWEST", "kafka_version", "writes_partition_metadata"]


def kafka_version(value: str) -> str:
    """`value` as one of KAFKA_VERSIONS (a release line, X.Y), or ValueError naming them."""
    text = value.strip()
    if text in KAFKA_VERSIONS:
        return text
    line = ".".join(text.split(".")[:2])
    hint = f"; give the release line as X.Y ({line})" if text.count(".") == 2 and line in KAFKA_VERSIONS else ""
    raise ValueError(f"Kafka version must be one of {', '.join(KAFKA_VERSIONS)} (the coordinator records of "
                     f"KIP-848 as released), not {value!r}{hint}")


def writes_partition_metadata(version: str) -> bool:
    """Whether this Kafka writes type-4 records (and type 3 without MetadataHash)."""
    return not at_least(version, FIRST_METADATA_HASH)
