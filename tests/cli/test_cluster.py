"""The cluster options every group and local command shares (`groupctl.cli.cluster`): what they refuse
at parse time, before anything is read or sent."""

from __future__ import annotations

import os
import re

import pytest

EMPTY_LOCAL_COMMANDS = [
    ("group", "list"),
    ("group", "describe", "g"),
    ("local", "topics", "list"),
    ("local", "topics", "create", "t", "-p", "1"),
    ("serve", "--port", "0"),
    ("demo",),
]


@pytest.mark.parametrize("command", EMPTY_LOCAL_COMMANDS, ids=" ".join)
def test_an_empty_local_is_a_usage_error_not_the_current_directory(cli, command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli(*command, "--local", "")
    assert r.code == 2, (r.out, r.err)
    assert "--local" in r.err and "empty" in r.err
    assert os.listdir(tmp_path) == []  # nothing was created in the current directory


def test_an_empty_groupctl_local_is_unset(cli, tmp_path, monkeypatch):
    """An empty environment variable is taken as unset (as Click takes every envvar): no cluster is selected."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GROUPCTL_LOCAL", "")
    r = cli("group", "list")
    assert r.code == 2 and "no cluster selected" in r.err
    assert os.listdir(tmp_path) == []


def test_local_dot_is_still_the_current_directory(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("local", "topics", "create", "orders", "-p", "1", "--local", ".")
    assert r.code == 0, r.err
    assert os.listdir(tmp_path)  # the coordinator's files


def test_an_empty_command_config_is_a_usage_error(cli):
    r = cli("group", "list", "--command-config", "")
    assert r.code == 2
    assert "'--command-config'" in r.err and "the value is empty; give the client properties file" in r.err


NOT_UTF8 = b"\xff".decode("utf-8", "surrogateescape")  # what Python makes of the argument bytes $'\xff'


@pytest.mark.parametrize("args", [
    ("-b", f"{NOT_UTF8}:9092"),
    ("-b", f"127.0.0.1:9092,{NOT_UTF8}:9092"),
    ("-b", "127.0.0.1:1", "-X", f"client.id={NOT_UTF8}"),
    ("-b", "127.0.0.1:1", "-X", f"{NOT_UTF8}=1"),
    ("--context", f"lab{NOT_UTF8}"),
], ids=["bootstrap", "second-bootstrap", "X-value", "X-key", "context"])
def test_names_that_are_not_utf8_are_usage_errors(cli, args):
    r = cli("group", "list", "--timeout", "2s", *args)
    assert r.code == 2, r.err
    assert "not valid UTF-8" in r.err and "\\xff" in r.err
    assert "internal error" not in r.err


def test_a_bootstrap_server_from_the_environment_that_is_not_utf8(cli, monkeypatch):
    monkeypatch.setenv("GROUPCTL_BOOTSTRAP_SERVER", f"{NOT_UTF8}:9092")
    r = cli("group", "list", "--timeout", "2s")
    assert r.code == 2 and "not valid UTF-8" in r.err


@pytest.mark.parametrize("host", ["a..b", "a" * 64])
def test_a_host_name_idna_cannot_encode_is_named_not_called_text_that_is_not_utf8(cli, host):
    r = cli("group", "list", "-b", f"{host}:9092", "--timeout", "2s")
    assert r.code == 1
    assert f"'{host}' is not a valid host name" in r.err and "UTF-8" not in r.err


def test_a_bare_timeout_below_a_second_is_said_in_ms_with_the_seconds_spelling(cli, fake_cluster):
    """--timeout 15 is 15 ms, as Kafka's tools read it: the failure says so, and how to write 15 seconds."""
    (broker,) = fake_cluster()
    broker.on(3, lambda r, s: broker.NO_REPLY)
    r = cli("group", "list", "-b", broker.address, "--timeout", "15")
    assert r.code == 1
    assert "15 ms" in r.err and "0.0 s" not in r.err
    assert "--timeout 15s" in r.err


def test_a_timeout_with_its_unit_gets_no_note(cli, fake_cluster):
    (broker,) = fake_cluster()
    broker.on(3, lambda r, s: broker.NO_REPLY)
    r = cli("group", "list", "-b", broker.address, "--timeout", "300ms")
    assert r.code == 1
    assert re.search(r"\b\d{1,3} ms\b", r.err) and " 0.0 s" not in r.err and " 0.2 s" not in r.err
    assert "--timeout 300s" not in r.err and "note" not in r.err
