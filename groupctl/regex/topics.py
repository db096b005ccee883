"""Topic names to preview a regex against: which ones are internal, and reading them from a file."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from groupctl.errors import GroupctlError, UsageError
from groupctl.small_files import read_small_stream, read_small_text

INTERNAL_PREFIX = "__"  # __consumer_offsets, __transaction_state, __share_group_state, ...
#: The internal topics a 4.x cluster has (or creates on first use): checked when no topic list is given.
KNOWN_INTERNAL_TOPICS = ("__consumer_offsets", "__share_group_state", "__transaction_state")


def is_internal(topic: str) -> bool:
    """Kafka's own topics, by the name prefix Kafka reserves for them."""
    return topic.startswith(INTERNAL_PREFIX)


def visible(topics: Iterable[str], include_internal: bool = True) -> list[str]:
    """The names a preview matches against, each once, in their first order: every topic, as the broker
    resolves a regex over every topic; `include_internal=False` leaves Kafka's own out."""
    return [t for t in dict.fromkeys(topics) if include_internal or not is_internal(t)]


def parse_topic_lines(lines: Iterable[str]) -> list[str]:
    """One topic per line; blank lines and `#` comments (whole-line or trailing) are skipped.

    A `#` can never be part of a topic name (legal characters are ASCII letters, digits, `.`, `_`
    and `-`), so everything after one is a comment.
    """
    topics = []
    for line in lines:
        name = line.split("#", 1)[0].strip()
        if name:
            topics.append(name)
    return topics


def read_topics_file(path: str | Path) -> list[str]:
    """The topics listed in `path` (`-`: standard input), e.g. the output of `kafka-topics.sh --list`."""
    if str(path) == "-":
        return parse_topic_lines(read_small_stream("topics list").splitlines())
    path = Path(path)
    if not path.exists():
        raise UsageError(f"topics file '{path}' does not exist; give a file with one topic name per line "
                         "(kafka-topics.sh --list prints one), or - for standard input")
    if path.is_dir():
        raise UsageError(f"topics file '{path}' is a directory; give a file with one topic name per line")
    try:
        text = read_small_text(path, "topics file")
    except UnicodeDecodeError as exc:
        raise GroupctlError(f"topics file '{path}' is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise GroupctlError(f"cannot read topics file '{path}': {exc.strerror or exc}") from exc
    return parse_topic_lines(text.splitlines())
