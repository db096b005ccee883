"""Contexts in config.toml: where the file is, how a context reads, its secrets, and `use` rewriting one line."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from groupctl.errors import UsageError
from groupctl.kafka.config import REDACTED
from groupctl.kafka.contexts import SecretRef, config_path, load_contexts, shown_path, use_context

PROD = """\
# the clusters of the team
current-context = "lab"   # switched by `groupctl context use`

[contexts.lab]
bootstrap-servers = "127.0.0.1:9092"

[contexts.prod]
bootstrap-servers = ["kafka-1:9093", "kafka-2:9093"]

[contexts.prod.properties]
security.protocol = "SASL_SSL"
sasl.mechanism = "SCRAM-SHA-512"
sasl.username = "ops"
sasl.password = { env = "PROD_PASSWORD" }
"ssl.key.password" = { file = "secrets/key-password" }
request.timeout.ms = 15000
enable.ssl.certificate.verification = true
"""


def _write(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    path.chmod(mode)
    return path


def test_the_file_is_groupctl_config_else_xdg_config_home_else_dot_config(tmp_path: Path) -> None:
    home = Path("~").expanduser()
    assert config_path({"GROUPCTL_CONFIG": str(tmp_path / "c.toml")}) == tmp_path / "c.toml"
    assert config_path({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "groupctl" / "config.toml"
    assert config_path({"XDG_CONFIG_HOME": "relative/dir"}) == home / ".config" / "groupctl" / "config.toml"
    assert config_path({}) == home / ".config" / "groupctl" / "config.toml"


def test_a_context_reads_dotted_and_quoted_property_names_lists_and_scalars(tmp_path: Path) -> None:
    loaded = load_contexts(_write(tmp_path, PROD))
    assert (loaded.exists, loaded.current, sorted(loaded.contexts)) == (True, "lab", ["lab", "prod"])
    prod = loaded.get("prod")
    assert prod.bootstrap == "kafka-1:9093,kafka-2:9093"
    assert prod.values["sasl.password"] == SecretRef("env", "PROD_PASSWORD")
    assert prod.values["ssl.key.password"] == SecretRef("file", "secrets/key-password")
    assert (prod.values["request.timeout.ms"], prod.values["enable.ssl.certificate.verification"]) == ("15000", "true")


def test_secrets_are_read_from_the_environment_and_from_a_file_beside_the_config(tmp_path: Path) -> None:
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "key-password").write_text("k3y\n")
    prod = load_contexts(_write(tmp_path, PROD)).get("prod")
    props = prod.properties({"PROD_PASSWORD": "s3cret"})
    assert (props["sasl.password"], props["ssl.key.password"]) == ("s3cret", "k3y")
    assert props["bootstrap.servers"] == "kafka-1:9093,kafka-2:9093"


def test_a_missing_secret_variable_or_file_is_a_usage_error_naming_both_the_property_and_the_place(
        tmp_path: Path) -> None:
    prod = load_contexts(_write(tmp_path, PROD)).get("prod")
    with pytest.raises(UsageError, match=r"context 'prod' .*sasl.password comes from the environment variable "
                                         r"PROD_PASSWORD, which is not set"):
        prod.properties({})
    with pytest.raises(UsageError, match=r"ssl.key.password comes from the file .*key-password, which cannot be read"):
        prod.properties({"PROD_PASSWORD": "x"})


def test_shown_properties_say_where_secrets_come_from_and_redact_inline_ones(tmp_path: Path) -> None:
    text = PROD.replace('sasl.username = "ops"', 'sasl.username = "ops"\n"sasl.jaas.config" = "inline"')
    shown = load_contexts(_write(tmp_path, text)).get("prod").shown()
    assert shown["sasl.password"] == "<from environment variable PROD_PASSWORD>"
    assert shown["ssl.key.password"] == "<from file secrets/key-password>"
    assert (shown["sasl.jaas.config"], shown["sasl.username"]) == (REDACTED, "ops")
    assert next(iter(shown)) == "bootstrap.servers"


def test_inline_secrets_are_warned_about_only_in_a_file_other_users_may_read(tmp_path: Path) -> None:
    text = '[contexts.x]\nbootstrap-servers = "h:1"\nproperties = { "sasl.password" = "pw" }\n'
    private = load_contexts(_write(tmp_path, text, 0o600)).get("x")
    assert private.inline_secrets == ["sasl.password"] and private.world_readable_warning() is None
    shared = load_contexts(_write(tmp_path, text, 0o644)).get("x")
    warning = shared.world_readable_warning()
    assert warning is not None
    assert "sasl.password inline" in warning and "mode 644" in warning and "chmod 600" in warning
    referenced = load_contexts(_write(tmp_path, PROD, 0o644)).get("prod")
    assert referenced.world_readable_warning() is None


@pytest.mark.parametrize(("text", "message"), [
    ('[contexts.a]\nbootstrap-servers = "h:1"\nbootstrap = "x"\n',
     r"\[contexts.a\]: unknown key bootstrap; a context has bootstrap-servers, properties"),
    ('current = "a"\n', r"unknown key current; the file has current-context"),
    ('[contexts.a]\nbootstrap-servers = []\n', "bootstrap-servers must be"),
    ('[contexts.a]\nproperties = { "x" = [1] }\n', r"\[contexts.a\]: x: expected a string"),
    ("current-context = 3\n", "current-context must be a context name"),
    ('[contexts]\na = 1\n', r"\[contexts.a\] must be a table"),
])
def test_a_file_laid_out_wrong_is_a_usage_error_naming_the_file_and_the_key(tmp_path: Path, text: str,
                                                                            message: str) -> None:
    with pytest.raises(UsageError, match=message):
        load_contexts(_write(tmp_path, text))


def test_bad_toml_is_a_usage_error_with_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, '[contexts.a]\nbootstrap-servers = "h:1"\nsasl.password = \n')
    with pytest.raises(UsageError, match=r"config.toml is not valid TOML: .*line 3"):
        load_contexts(path)


def test_a_missing_file_has_no_contexts_and_naming_one_says_the_file_does_not_exist(tmp_path: Path) -> None:
    loaded = load_contexts(tmp_path / "none.toml")
    assert (loaded.exists, loaded.contexts, loaded.current) == (False, {}, None)
    with pytest.raises(UsageError, match=r"--context prod: there are no contexts, as .*none.toml does not exist"):
        loaded.get("prod")


def test_an_unknown_name_lists_the_contexts(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"--context staging: no such context in .*; the contexts are: lab, prod"):
        load_contexts(_write(tmp_path, PROD)).get("staging")


def test_use_rewrites_only_the_current_context_line_keeping_comments_and_mode(tmp_path: Path) -> None:
    path = _write(tmp_path, PROD, 0o640)
    use_context("prod", path)
    after = path.read_text()
    assert after == PROD.replace('current-context = "lab"   # switched by `groupctl context use`',
                                 'current-context = "prod"')
    assert (load_contexts(path).current, oct(path.stat().st_mode & 0o777)) == ("prod", "0o640")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_use_adds_the_line_at_the_top_when_there_is_none_and_follows_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "groupctl.toml"
    real.parent.mkdir()
    real.write_text('[contexts."odd \\"name\\""]\nbootstrap-servers = "h:1"\n')
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    use_context('odd "name"', link)
    assert link.is_symlink()
    assert tomllib.loads(real.read_text())["current-context"] == 'odd "name"'
    assert real.read_text().startswith('current-context = "odd \\"name\\""\n\n[contexts.')


def test_use_of_an_unknown_context_changes_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path, PROD)
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    with pytest.raises(UsageError, match="the contexts are: lab, prod"):
        use_context("staging", path)
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before


def test_messages_show_paths_under_home_with_a_tilde(tmp_path: Path) -> None:
    assert shown_path(Path.home() / ".config" / "groupctl" / "config.toml") == "~/.config/groupctl/config.toml"
    assert shown_path(Path("/etc/groupctl.toml")) == "/etc/groupctl.toml"
