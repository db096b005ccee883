"""Which `__consumer_offsets` partition holds a group: Kafka's `partitionFor`.

`Utils.abs(groupId.hashCode()) % numPartitions`, with Java's String.hashCode over UTF-16 code
units, 32-bit wrap-around, and `Utils.abs(Integer.MIN_VALUE) == 0`.
"""

from __future__ import annotations

DEFAULT_OFFSETS_PARTITIONS = 50


def java_string_hash(text: str) -> int:
    """Java's `String.hashCode()`: s[0]*31^(n-1) + ... over UTF-16 code units, as a signed int32."""
    data = text.encode("utf-16-be", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def kafka_abs(value: int) -> int:
    """Kafka's `Utils.abs`: like abs, except that Integer.MIN_VALUE maps to 0, not to itself."""
    return 0 if value == -(1 << 31) else abs(value)


def partition_for(group_id: str, partitions: int = DEFAULT_OFFSETS_PARTITIONS) -> int:
    """The `__consumer_offsets` partition whose coordinator owns `group_id`."""
    if partitions <= 0:
        raise ValueError("the partition count must be positive")
    return kafka_abs(java_string_hash(group_id)) % partitions
