"""Topic regexes as the broker sees them (KIP-848): RE2/J's verdict, full matching, migration lint.

The group coordinator uses `compile_topic_regex` for SubscribedTopicRegex validation and
resolution; `groupctl regex validate` adds the lint warnings and a preview over topic names.
"""

from groupctl.regex.bounded import RegexTooComplex
from groupctl.regex.lint import LintWarning, lint
from groupctl.regex.matching import InvalidRegex, TopicRegex, compile_topic_regex, is_valid
from groupctl.regex.messages import broker_error_message, kafka_tool_message
from groupctl.regex.report import PatternReport, assess, assess_all

__all__ = [
    "InvalidRegex",
    "LintWarning",
    "PatternReport",
    "RegexTooComplex",
    "TopicRegex",
    "assess",
    "assess_all",
    "broker_error_message",
    "compile_topic_regex",
    "is_valid",
    "kafka_tool_message",
    "lint",
]
