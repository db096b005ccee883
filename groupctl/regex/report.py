"""One pattern's full assessment: the broker's verdict, the lint warnings, the topics it selects."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from groupctl.regex.lint import LintWarning, lint
from groupctl.regex.matching import InvalidRegex, compile_topic_regex
from groupctl.regex.messages import broker_error_message, kafka_tool_message
from groupctl.regex.syntax import tokenize
from groupctl.regex.topics import KNOWN_INTERNAL_TOPICS, is_internal


@dataclass
class PatternReport:
    pattern: str
    description: str | None  # RE2/J's, when the broker rejects the pattern
    warnings: list[LintWarning]
    matches: list[str] | None  # None: no topic list was given

    @property
    def valid(self) -> bool:
        return self.description is None

    @property
    def broker_message(self) -> str | None:
        """What ConsumerGroupHeartbeat answers with INVALID_REGULAR_EXPRESSION for this pattern."""
        return None if self.description is None else broker_error_message(self.pattern, self.description)

    @property
    def kafka_tool_line(self) -> str:
        return kafka_tool_message(self.pattern, self.description)

    def to_item(self) -> dict[str, Any]:
        item: dict[str, Any] = {
            "pattern": self.pattern,
            "valid": self.valid,
            "error": self.description,
            "brokerMessage": self.broker_message,
            "warnings": [{"code": w.code, "message": w.message} for w in self.warnings],
        }
        if self.matches is not None:
            item["matches"] = self.matches
        return item


def assess(pattern: str, topics: Sequence[str] | None = None) -> PatternReport:
    """Verdict and warnings for `pattern`, and the sorted names of `topics` it matches (when given)."""
    try:
        regex = compile_topic_regex(pattern)
        description = None
    except InvalidRegex as exc:
        regex, description = None, exc.description
    warnings = lint(pattern, tokenize(pattern), valid=description is None, topics=topics)
    matches = None
    if topics is not None:
        matches = regex.select(topics) if regex is not None else []
    if regex is not None:
        internal = [t for t in topics if is_internal(t)] if topics is not None else list(KNOWN_INTERNAL_TOPICS)
        selected = regex.select(internal)
        if selected:
            warnings.append(_internal_warning(selected))
    return PatternReport(pattern, description, warnings, matches)


def _internal_warning(selected: list[str]) -> LintWarning:
    """The broker resolves SubscribedTopicRegex over every topic name, internal ones included (only
    DESCRIBE ACLs filter), so such a pattern gets its consumers assigned Kafka's own topics."""
    names = ", ".join(selected)
    return LintWarning(
        "matches-internal-topic",
        f"selects Kafka's internal topic{'s' if len(selected) > 1 else ''} {names}: the broker resolves the regex over "
        "every topic, internal ones included, so its consumers would be assigned them; write the pattern so it "
        "cannot match a name starting with __ (RE2 has no lookahead: start it with the topics' own prefix)",
    )


def assess_all(patterns: Iterable[str], topics: Sequence[str] | None = None) -> list[PatternReport]:
    return [assess(p, topics) for p in patterns]
