"""Durations on the command line: units, bare seconds, and the range that makes the rest a usage error."""

from __future__ import annotations

import pytest
import typer

from groupctl.cli.durations import MAX_S, duration_option, parse_duration


@pytest.mark.parametrize(("text", "seconds"), [
    ("30s", 30.0), ("5000ms", 5.0), ("2m", 120.0), ("1.5s", 1.5), ("1h", 3600.0), ("24h", MAX_S),
    ("5000", 5000.0), ("0.25", 0.25), (".5s", 0.5), ("1ms", 0.001), (" 10 S ", 10.0), ("3.m", 180.0),
])
def test_forms(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


def test_numbers_are_seconds() -> None:
    assert parse_duration(30.0) == 30.0 and parse_duration(7) == 7.0


@pytest.mark.parametrize(("text", "says"), [
    ("0", "out of range"), ("0s", "out of range"), ("0.5ms", "out of range"), ("24.01h", "out of range"),
    ("86401", "out of range"), ("1e9", "is not a duration"), ("-5", "cannot be negative"),
    ("-1s", "cannot be negative"),
    ("5x", "unknown unit 'x'"), ("10 sec", "unknown unit 'sec'"), ("", "is not a duration"), ("s", "is not a duration"),
    ("nan", "is not a duration"), ("inf", "is not a duration"), ("1:30", "is not a duration"),
])
def test_what_is_refused_says_why_and_the_forms(text: str, says: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_duration(text)
    assert says in str(err.value)
    assert "30s, 5000ms, 2m or 1.5s" in str(err.value)


def test_zero_only_where_allowed() -> None:
    assert parse_duration("0", allow_zero=True) == 0.0
    assert parse_duration("0ms", allow_zero=True) == 0.0
    with pytest.raises(ValueError, match="from 0"):
        parse_duration("0.1ms", allow_zero=True)


def test_the_option_parser_raises_a_usage_error() -> None:
    parse = duration_option()
    assert parse("2m") == 120.0
    with pytest.raises(typer.BadParameter, match="'0' is out of range: give from 1ms to 24h"):
        parse("0")


@pytest.mark.parametrize(("text", "seconds"), [("5000", 5.0), ("1", 0.001), ("86400000", MAX_S), ("2.5", 0.0025),
                                               ("30s", 30.0), ("2m", 120.0)])
def test_a_bare_number_in_milliseconds_where_kafkas_tool_means_that(text: str, seconds: float) -> None:
    assert parse_duration(text, bare_unit="ms") == pytest.approx(seconds)


def test_the_bare_unit_is_named_in_the_refusal() -> None:
    with pytest.raises(ValueError, match=r"'86400001' is out of range.*\(a bare number is milliseconds\)"):
        parse_duration("86400001", bare_unit="ms")


def test_timeout_takes_kafka_consumer_groups_milliseconds(cli, tmp_path) -> None:
    """24 h written in ms is accepted (as seconds it would be out of range), a millisecond more is not."""
    from groupctl.backends.local import LocalBackend

    with LocalBackend(tmp_path / "local", create=True) as b:
        b.coordinator.create_topic("orders", 1)
    assert cli("group", "list", "--local", str(tmp_path / "local"), "--timeout", "86400000").code == 0
    r = cli("group", "list", "--local", str(tmp_path / "local"), "--timeout", "86400001")
    assert r.code == 2 and "'86400001' is out of range: give from 1ms to 24h" in r.err
    assert "(a bare number is milliseconds)" in r.err
    helped = cli("group", "list", "--help", "--local", "x")
    assert "--timeout 5000 is 5 s, as" in " ".join(helped.out.replace("│", " ").split())
