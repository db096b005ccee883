"""Topic lists for the preview: comments, blank lines, internal topics, and files that are not there."""

from __future__ import annotations

import pytest

from groupctl.errors import GroupctlError, UsageError
from groupctl.regex.topics import is_internal, parse_topic_lines, read_topics_file, visible


def test_lines_comments_and_blanks():
    lines = ["# from kafka-topics.sh --list", "orders", "", "  payments  ", "orders-eu # EU copy", "#", "\t"]
    assert parse_topic_lines(lines) == ["orders", "payments", "orders-eu"]


def test_internal_topics():
    assert is_internal("__consumer_offsets")
    assert is_internal("__transaction_state")
    assert is_internal("__share_group_state")
    assert not is_internal("_schemas")
    assert not is_internal("orders__v2")


def test_visible_drops_internal_and_repeats():
    topics = ["orders", "__consumer_offsets", "orders", "__transaction_state", "payments"]
    assert visible(topics, include_internal=False) == ["orders", "payments"]
    assert visible(topics, include_internal=True) == ["orders", "__consumer_offsets", "__transaction_state", "payments"]


def test_read_file(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text("orders\n# comment\n\npayments\n")
    assert read_topics_file(path) == ["orders", "payments"]


def test_missing_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        read_topics_file(tmp_path / "nope.txt")


def test_directory_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="is a directory"):
        read_topics_file(tmp_path)


def test_binary_file_is_an_error(tmp_path):
    path = tmp_path / "topics.bin"
    path.write_bytes(b"orders\n\xff\xfe\n")
    with pytest.raises(GroupctlError, match="not UTF-8"):
        read_topics_file(path)
