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

#: The Kafka versions whose coordinator records groupctl writes, oldest first.
KAFKA_VERSIONS = ("4.0", "4.1", "4.2", "4.3")
#: The default: the newest.
NEWEST = KAFKA_VERSIONS[-1]
#: The last version that writes type 4 and a type 3 without MetadataHash.
LAST_PARTITION_METADATA = "4.0"


def kafka_version(value: str) -> str:
    """`value` as one of KAFKA_VERSIONS (a patch release names its minor: 4.0.1 is 4.0), or ValueError."""
    text = value.strip()
    parts = text.split(".")
    minor = ".".join(parts[:2]) if len(parts) >= 2 and all(p.isdigit() for p in parts) else text
    if minor not in KAFKA_VERSIONS:
        raise ValueError(f"Kafka version must be one of {', '.join(KAFKA_VERSIONS)} (the coordinator records of "
                         f"KIP-848 as released), not {value!r}")
    return minor


def writes_partition_metadata(version: str) -> bool:
    """Whether this Kafka writes type-4 records (and type 3 without MetadataHash)."""
    return KAFKA_VERSIONS.index(version) <= KAFKA_VERSIONS.index(LAST_PARTITION_METADATA)
