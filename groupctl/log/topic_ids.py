"""Topic id -> topic name maps, from the dump itself and from the files operators already have.

KIP-848 assignment records name topics by id only. Most dumps carry the names too:
ConsumerGroupPartitionMetadata values (written up to Kafka 4.0, replayed still) list each
subscribed topic's id and name, and OffsetCommitValue v4 (Kafka 4.1+) carries the topic id beside
the key's topic name. `dump_topic_names` gathers those. For ids the dump does not name, a map is
read from `kafka-topics.sh --describe` output (`Topic: orders  TopicId: AbC...`), a JSON object
(either direction) or list of {"name"/"topic", "topicId"/"id"} objects, or plain `name id` /
`name,id` lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from groupctl.errors import UsageError
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.small_files import read_small_text

if TYPE_CHECKING:
    from collections.abc import Mapping

    from groupctl.log.replay import OffsetEntry, Replay

_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")
_DESCRIBE = re.compile(r"Topic:\s*(\S+)\s+TopicId:\s*(\S+)")


def _is_id(text: str) -> bool:
    return bool(_ID.match(text))


def _pair(a: str, b: str) -> tuple[str, str] | None:
    """(id, name) from two fields in either order; None when neither looks like a topic id."""
    if _is_id(b):
        return b, a
    if _is_id(a):
        return a, b
    return None


def parse_topic_ids(text: str, source: str = "<text>") -> dict[str, str]:
    """Parse a map in any of the accepted forms; errors name the line that does not fit."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            doc = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{source}: not valid JSON ({exc})") from None
        pairs = doc.items() if isinstance(doc, dict) else [
            (str(o.get("name", o.get("topic", ""))), str(o.get("topicId", o.get("id", ""))))
            for o in doc if isinstance(o, dict)
        ]
        out = {}
        for a, b in pairs:
            pair = _pair(str(a), str(b))
            if pair is None:
                raise UsageError(f"{source}: no topic id (22 base64url characters) in {a!r}: {b!r}")
            out[pair[0]] = pair[1]
        return out
    out = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        described = _DESCRIBE.search(line)
        if described:
            out[described.group(2)] = described.group(1)
            continue
        if line.startswith("Topic:") or line.startswith("\tTopic:"):
            continue
        fields = [f for f in re.split(r"[\s,]+", line) if f]
        pair = _pair(fields[0], fields[1]) if len(fields) == 2 else None
        if pair is None:
            raise UsageError(f"{source}:{number}: expected 'name id' (or kafka-topics --describe output), "
                             f"got {line[:80]!r}")
        out[pair[0]] = pair[1]
    return out


def load_topic_ids(path: Path) -> dict[str, str]:
    try:
        text = read_small_text(path, "topic-id map")
    except OSError as exc:
        raise UsageError(f"cannot read the topic-id map '{path}': {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"the topic-id map '{path}' is not UTF-8 text (byte {exc.start}); give kafka-topics.sh "
                         "--describe output, JSON, or 'name id' lines") from None
    return parse_topic_ids(text, str(path))


def dump_topic_names(replay: Replay) -> dict[str, str]:
    """Topic id (base64url) -> name, as the replayed dump itself records them.

    Every ConsumerGroupPartitionMetadata value the replay saw, and the topic id of every offset
    commit still held (committed or pending in a transaction) beside its key's topic name. A
    partition-metadata name wins over an offset's: both come from the broker's metadata image, and
    the former is what the group coordinator itself resolved.
    """
    names: dict[str, str] = {}
    held: list[Mapping[tuple, OffsetEntry]] = [*replay.offsets.values(), *replay.pending.values()]
    for entries in held:
        for tp, entry in entries.items():
            topic_id = entry.topic_id
            if topic_id is not None:
                names[uuid_to_kafka(topic_id)] = tp[-2]
    names.update((uuid_to_kafka(topic_id), name) for topic_id, name in replay.topic_names.items())
    return names
