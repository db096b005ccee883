"""Kafka's own wording for a regex verdict, so groupctl's output can be compared with Kafka's."""

from __future__ import annotations


def broker_error_message(pattern: str, description: str) -> str:
    """The INVALID_REGULAR_EXPRESSION message of ConsumerGroupHeartbeat for a rejected SubscribedTopicRegex."""
    return f"SubscribedTopicRegex `{pattern}` is not a valid regular expression: {description}."


def kafka_tool_message(pattern: str, description: str | None) -> str:
    """What `kafka-consumer-groups.sh --validate-regex` prints (description None: the pattern is valid)."""
    if description is None:
        return f"The regular expression `{pattern}` is valid."
    return f"The regular expression `{pattern}` is invalid: {description}."
