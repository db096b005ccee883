"""`groupctl context list|show|use` and `--context` on the cluster commands, against a `serve` in the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import SASL_PASSWORD, SASL_USER, Served


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An XDG config home holding groupctl/config.toml (written by each test); GROUPCTL_CONFIG unset."""
    home = tmp_path / "xdg"
    (home / "groupctl").mkdir(parents=True)
    monkeypatch.delenv("GROUPCTL_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home / "groupctl" / "config.toml"


@pytest.fixture
def lab(cli, tmp_path: Path) -> Path:
    """A DIR with one topic and one classic group, `orders-app`."""
    d = str(tmp_path / "lab")
    for args in (("local", "topics", "create", "orders", "--partitions", "2"),
                 ("local", "member", "join", "m0", "--group", "orders-app", "--instance-id", "i0", "--topics",
                  "orders")):
        r = cli(*args, "--local", d)
        assert r.code == 0, r.err
    return tmp_path / "lab"


def _config(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o600)
    return path


def _groups(result) -> list[str]:
    assert result.code == 0, result.err
    return [i["groupId"] for i in result.json()["items"]]


def test_list_marks_the_current_context_and_show_masks_secrets(cli, xdg: Path) -> None:
    _config(xdg, 'current-context = "prod"\n[contexts.lab]\nbootstrap-servers = "127.0.0.1:9092"\n'
                 '[contexts.prod]\nbootstrap-servers = ["k1:9093", "k2:9093"]\n[contexts.prod.properties]\n'
                 'sasl.username = "ops"\nsasl.password = { env = "PROD_PW" }\n"sasl.jaas.config" = "inline"\n')
    r = cli("context", "list")
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["CURRENT  NAME  BOOTSTRAP-SERVERS",
                                  "         lab   127.0.0.1:9092",
                                  "*        prod  k1:9093,k2:9093"]
    r = cli("context", "show")
    assert r.code == 0, r.err
    assert "sasl.password      <from environment variable PROD_PW>" in r.out
    assert "sasl.jaas.config   [redacted]" in r.out and "inline" not in r.out
    (item,) = cli("context", "show", "lab", "-o", "json").json()["items"]
    assert item == {"name": "lab", "current": False, "source": str(xdg), "bootstrapServers": "127.0.0.1:9092",
                    "properties": {}}


def test_use_switches_the_current_context_and_unknown_names_are_usage_errors_listing_the_contexts(
        cli, xdg: Path) -> None:
    _config(xdg, '[contexts.a]\nbootstrap-servers = "h:1"\n[contexts.b]\nbootstrap-servers = "h:2"\n')
    r = cli("context", "use", "b")
    assert (r.code, r.out) == (0, f'Switched to context "b" ({xdg}).\n')
    assert xdg.read_text().startswith('current-context = "b"\n')
    for args in (("context", "use", "c"), ("context", "show", "c"), ("group", "list", "--context", "c")):
        r = cli(*args)
        assert r.code == 2 and "no such context" in r.err and "the contexts are: a, b" in r.err, (args, r.err)
    assert cli("context", "list", "-o", "json").json()["items"][1] == {
        "name": "b", "current": True, "bootstrapServers": "h:2", "properties": 0}


def test_bad_toml_is_exit_2_with_the_line_and_no_file_is_a_note(cli, xdg: Path) -> None:
    r = cli("context", "list")
    assert (r.code, r.out) == (0, "CURRENT  NAME  BOOTSTRAP-SERVERS\n")
    assert f"{xdg} does not exist" in r.err
    _config(xdg, '[contexts.a]\nbootstrap-servers = "h:1"\nbroken\n')
    for args in (("context", "list"), ("group", "list")):
        r = cli(*args)
        assert r.code == 2 and "is not valid TOML" in r.err and "line 3" in r.err and "Traceback" not in r.err, args


def test_group_list_through_the_current_context_and_through_groupctl_context(
        cli, xdg: Path, lab: Path, serve: Callable[[Path, str], Served], monkeypatch: pytest.MonkeyPatch) -> None:
    served = serve(lab, "serve")
    _config(xdg, f'current-context = "lab"\n[contexts.lab]\nbootstrap-servers = "{served.server.bootstrap}"\n'
                 '[contexts.dead]\nbootstrap-servers = "127.0.0.1:1"\n')
    assert _groups(cli("group", "list", "-o", "json")) == ["orders-app"]
    monkeypatch.setenv("GROUPCTL_CONTEXT", "dead")
    r = cli("group", "list", "--timeout", "2s")
    assert r.code == 1 and "cannot reach 127.0.0.1:1" in r.err
    assert _groups(cli("group", "list", "--context", "lab", "-o", "json")) == ["orders-app"]


def test_b_and_command_config_win_and_the_current_context_is_not_used_beside_them(
        cli, xdg: Path, lab: Path, serve: Callable[[Path, str], Served], tmp_path: Path) -> None:
    served = serve(lab, "serve")
    _config(xdg, 'current-context = "dead"\n[contexts.dead]\nbootstrap-servers = "127.0.0.1:1"\n'
                 '[contexts.dead.properties]\nsecurity.protocol = "SSL"\n')
    assert _groups(cli("group", "list", "-b", served.server.bootstrap, "-o", "json")) == ["orders-app"]
    props = tmp_path / "client.properties"
    props.write_text(f"bootstrap.servers={served.server.bootstrap}\n")
    assert _groups(cli("group", "list", "--command-config", str(props), "-o", "json")) == ["orders-app"]
    # A context named explicitly is the base: -b replaces its servers, -X its security.protocol.
    r = cli("group", "list", "--context", "dead", "-b", served.server.bootstrap, "-X", "security.protocol=PLAINTEXT",
            "-o", "json")
    assert _groups(r) == ["orders-app"]
    r = cli("group", "list", "--context", "dead", "-b", served.server.bootstrap, "--timeout", "2s")
    assert r.code == 1 and "Traceback" not in r.err  # still SSL from the context, against a plaintext listener


def test_local_and_a_context_together_are_a_usage_error_and_local_ignores_the_current_context(
        cli, xdg: Path, lab: Path) -> None:
    _config(xdg, 'current-context = "dead"\n[contexts.dead]\nbootstrap-servers = "127.0.0.1:1"\n')
    r = cli("group", "list", "--local", str(lab), "--context", "dead")
    assert r.code == 2 and "--local selects the in-process coordinator and --context a Kafka cluster" in r.err
    assert _groups(cli("group", "list", "--local", str(lab), "-o", "json")) == ["orders-app"]


def test_a_sasl_context_reads_its_password_from_a_file_or_the_environment(
        cli, xdg: Path, lab: Path, serve: Callable[[Path, str], Served], monkeypatch: pytest.MonkeyPatch) -> None:
    served = serve(lab, "serve-sasl-scram")
    monkeypatch.delenv("GROUPCTL_SASL_PASSWORD")
    (xdg.parent / "scram-password").write_text(SASL_PASSWORD + "\n")
    _config(xdg, f'[contexts.file]\nbootstrap-servers = "{served.server.bootstrap}"\n[contexts.file.properties]\n'
                 f'security.protocol = "SASL_PLAINTEXT"\nsasl.mechanisms = "SCRAM-SHA-512"\n'
                 f'sasl.username = "{SASL_USER}"\nsasl.password = {{ file = "scram-password" }}\n'
                 f'[contexts.env]\nbootstrap-servers = "{served.server.bootstrap}"\n[contexts.env.properties]\n'
                 f'security.protocol = "SASL_PLAINTEXT"\nsasl.mechanisms = "SCRAM-SHA-512"\n'
                 f'sasl.username = "{SASL_USER}"\nsasl.password = {{ env = "LAB_SCRAM_PASSWORD" }}\n')
    assert _groups(cli("group", "list", "--context", "file", "-o", "json")) == ["orders-app"]
    r = cli("group", "list", "--context", "env")
    assert r.code == 2 and "LAB_SCRAM_PASSWORD, which is not set" in r.err
    monkeypatch.setenv("LAB_SCRAM_PASSWORD", SASL_PASSWORD)
    assert _groups(cli("group", "list", "--context", "env", "-o", "json")) == ["orders-app"]


def test_an_inline_password_in_a_file_others_may_read_is_used_with_a_warning(
        cli, xdg: Path, lab: Path, serve: Callable[[Path, str], Served], monkeypatch: pytest.MonkeyPatch) -> None:
    served = serve(lab, "serve-sasl-scram")
    monkeypatch.delenv("GROUPCTL_SASL_PASSWORD")
    xdg.write_text(f'[contexts.inline]\nbootstrap-servers = "{served.server.bootstrap}"\n'
                   f'[contexts.inline.properties]\nsecurity.protocol = "SASL_PLAINTEXT"\n'
                   f'sasl.mechanisms = "SCRAM-SHA-512"\nsasl.username = "{SASL_USER}"\n'
                   f'sasl.password = {json.dumps(SASL_PASSWORD)}\n')
    xdg.chmod(0o644)
    r = cli("group", "list", "--context", "inline", "-o", "json")
    assert _groups(r) == ["orders-app"]
    assert "warning: context 'inline' holds sasl.password inline" in r.err and SASL_PASSWORD not in r.err
    xdg.chmod(0o600)
    assert "warning" not in cli("group", "list", "--context", "inline", "-o", "json").err


def test_help_states_the_precedence(cli) -> None:
    r = cli("group", "list", "--help")
    text = " ".join(r.out.replace("│", " ").split())
    assert "--context" in text and "-b, -X and --command-config override the context's settings" in text
