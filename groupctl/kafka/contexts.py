"""Named clusters: contexts in `config.toml`, each a bootstrap list and client properties.

Operators name their clusters once (`prod`, `staging`, `lab`) instead of repeating `-b` and
`--command-config` on every command, as kafkactl contexts and rpk profiles let them. The file:

    current-context = "prod"

    [contexts.prod]
    bootstrap-servers = ["kafka-1:9093", "kafka-2:9093"]   # or one "host:port,host:port" string

    [contexts.prod.properties]                              # the --command-config names, either dialect
    security.protocol = "SASL_SSL"
    sasl.mechanism = "SCRAM-SHA-512"
    sasl.username = "ops"
    sasl.password = { env = "PROD_KAFKA_PASSWORD" }         # or { file = "~/.secrets/prod" }

A secret is best a reference: `{ env = "NAME" }` reads an environment variable, `{ file = "PATH" }`
a file (relative to the config file; one trailing newline dropped), both when the context is used,
so `context list` and `show` work without them. An inline secret is accepted, as it is in a
--command-config file, but warned about when the config file is readable by other users.

Where the file is: GROUPCTL_CONFIG, else $XDG_CONFIG_HOME/groupctl/config.toml, else
~/.config/groupctl/config.toml. Reading uses the standard library's tomllib; `use` rewrites only
the `current-context` line, atomically, so comments and layout stay as the operator wrote them.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from groupctl.errors import UsageError
from groupctl.kafka.config import REDACTED, is_secret
from groupctl.plurals import plural
from groupctl.small_files import read_small_text

CONFIG_ENV: Final = "GROUPCTL_CONFIG"
CURRENT_KEY: Final = "current-context"
_CONTEXT_KEYS: Final = ("bootstrap-servers", "properties")
_REFERENCE_KINDS: Final = ("env", "file")
_CURRENT_LINE: Final = re.compile(r"^[ \t]*(current-context|\"current-context\"|'current-context')[ \t]*=")
_TABLE_LINE: Final = re.compile(r"^[ \t]*\[")


def shown_path(path: Path) -> str:
    """`path` as people write it in messages: the home directory as ~."""
    try:
        return f"~/{path.relative_to(Path.home())}"
    except (ValueError, RuntimeError):
        return str(path)


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """GROUPCTL_CONFIG, else the XDG config home's groupctl/config.toml (a relative XDG_CONFIG_HOME is
    ignored, as the XDG spec says)."""
    env = os.environ if environ is None else environ
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV]).expanduser()
    xdg = env.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path("~/.config").expanduser()
    return base / "groupctl" / "config.toml"


@dataclass(frozen=True)
class SecretRef:
    """`{ env = "NAME" }` or `{ file = "PATH" }`: where a property's value is read from when used."""

    kind: str
    target: str

    def shown(self) -> str:
        return f"<from {'environment variable' if self.kind == 'env' else 'file'} {self.target}>"


Value = str | SecretRef


@dataclass(frozen=True)
class Context:
    """One named cluster as the file gives it; `properties` resolves its references."""

    name: str
    bootstrap: str | None
    values: dict[str, Value] = field(repr=False)
    source: Path

    @property
    def inline_secrets(self) -> list[str]:
        return sorted(k for k, v in self.values.items() if isinstance(v, str) and is_secret(k))

    def properties(self, environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The client properties with every reference read; a missing variable or file is a usage error."""
        env = os.environ if environ is None else environ
        out: dict[str, str] = {}
        for name, value in self.values.items():
            out[name] = value if isinstance(value, str) else self._read(name, value, env)
        if self.bootstrap:
            out["bootstrap.servers"] = self.bootstrap
        return out

    def _read(self, name: str, ref: SecretRef, env: Mapping[str, str]) -> str:
        where = f"context '{self.name}' ({shown_path(self.source)})"
        if ref.kind == "env":
            if ref.target not in env:
                raise UsageError(f"{where}: {name} comes from the environment variable {ref.target}, which is not "
                                 f"set; export {ref.target}, or pass --context with another context")
            return env[ref.target]
        path = Path(ref.target).expanduser()
        path = path if path.is_absolute() else self.source.parent / path
        try:
            text = read_small_text(path, f"{where}: the {name} file")
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise UsageError(f"{where}: {name} comes from the file {path}, which cannot be read ({why}); create "
                             "it or fix the { file = ... } path") from None
        return text.removesuffix("\n").removesuffix("\r")

    def shown(self) -> dict[str, str]:
        """Every property for display: references say where they read from, inline secrets are redacted."""
        out = {"bootstrap.servers": self.bootstrap} if self.bootstrap else {}
        for name, value in sorted(self.values.items()):
            if name == "bootstrap.servers" and self.bootstrap:
                continue
            out[name] = value.shown() if isinstance(value, SecretRef) else REDACTED if is_secret(name) else value
        return out

    def world_readable_warning(self) -> str | None:
        """A warning when inline secrets sit in a file that other users may read (as ssh warns of keys)."""
        secrets = self.inline_secrets
        try:
            mode = self.source.stat().st_mode
        except OSError:
            return None
        if not secrets or not mode & (stat.S_IRWXG | stat.S_IRWXO):
            return None
        return (f"context '{self.name}' holds {', '.join(secrets)} inline in {shown_path(self.source)}, which "
                f"other users may read (mode {stat.S_IMODE(mode):o}): chmod 600 it, or use {{ env = \"NAME\" }} or "
                "{ file = \"PATH\" } for the secret")


@dataclass(frozen=True)
class ContextFile:
    """The parsed config file: its contexts and the current one (None when the file does not exist)."""

    path: Path
    exists: bool
    current: str | None
    contexts: dict[str, Context]

    def get(self, name: str, option: str = "--context") -> Context:
        """The named context; an unknown name is a usage error listing the ones there are."""
        if name in self.contexts:
            return self.contexts[name]
        if not self.exists:
            raise UsageError(f"{option} {name}: there are no contexts, as {shown_path(self.path)} does not exist; "
                             "create it with a [contexts.NAME] table (see the README's Contexts section), or set "
                             "GROUPCTL_CONFIG")
        known = ", ".join(sorted(self.contexts)) or "none"
        raise UsageError(f"{option} {name}: no such context in {shown_path(self.path)}; the contexts are: {known}")


def _scalar(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    raise UsageError(f"{where}: expected a string, number or boolean, or {{ env = \"NAME\" }} / {{ file = \"PATH\" }}")


def _reference(value: Mapping[str, Any]) -> SecretRef | None:
    """A one-key table `{ env = "NAME" }` or `{ file = "PATH" }`, else None."""
    if len(value) == 1:
        ((kind, target),) = value.items()
        if kind in _REFERENCE_KINDS and isinstance(target, str) and target:
            return SecretRef(kind, target)
    return None


def _flatten(table: Mapping[str, Any], prefix: str, where: str, out: dict[str, Value]) -> None:
    """Dotted keys (`sasl.password = ...`, which TOML reads as nested tables) back to property names."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            ref = _reference(value)
            if ref is not None:
                out[name] = ref
            else:
                _flatten(value, f"{name}.", where, out)
        else:
            out[name] = _scalar(value, f"{where}: {name}")


def _bootstrap(value: Any, where: str) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return ",".join(v.strip() for v in value)
    raise UsageError(f"{where}: bootstrap-servers must be \"host:port,...\" or a list of \"host:port\" strings")


def _context(name: str, table: Any, path: Path) -> Context:
    where = f"{shown_path(path)}: [contexts.{name}]"
    if not isinstance(table, Mapping):
        raise UsageError(f"{where} must be a table")
    unknown = sorted(set(table) - set(_CONTEXT_KEYS))
    if unknown:
        raise UsageError(f"{where}: unknown {plural(len(unknown), 'key')} {', '.join(unknown)}; a context has "
                         f"{', '.join(_CONTEXT_KEYS)}")
    values: dict[str, Value] = {}
    properties = table.get("properties", {})
    if not isinstance(properties, Mapping):
        raise UsageError(f"{where}: properties must be a table of client properties")
    _flatten(properties, "", where, values)
    bootstrap = _bootstrap(table["bootstrap-servers"], where) if "bootstrap-servers" in table else None
    if bootstrap is None:
        given = values.get("bootstrap.servers")
        bootstrap = given if isinstance(given, str) else None
    return Context(name, bootstrap, values, path)


def load_contexts(path: Path | None = None) -> ContextFile:
    """The config file at `path` (default `config_path()`); a missing file has no contexts. A file that is
    not TOML, or not laid out as above, is a usage error naming the file and the line."""
    path = config_path() if path is None else path
    try:
        text = read_small_text(path, "groupctl config")
    except FileNotFoundError:
        return ContextFile(path, False, None, {})
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise UsageError(f"cannot read the groupctl config {shown_path(path)} ({why}); fix it, or point "
                         "GROUPCTL_CONFIG elsewhere") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{shown_path(path)} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {CURRENT_KEY, "contexts"})
    if unknown:
        raise UsageError(f"{shown_path(path)}: unknown {plural(len(unknown), 'key')} {', '.join(unknown)}; the file "
                         f"has {CURRENT_KEY} "
                         "and [contexts.NAME] tables")
    tables = data.get("contexts", {})
    if not isinstance(tables, Mapping):
        raise UsageError(f"{shown_path(path)}: contexts must be tables, [contexts.NAME]")
    current = data.get(CURRENT_KEY)
    if current is not None and not isinstance(current, str):
        raise UsageError(f"{shown_path(path)}: {CURRENT_KEY} must be a context name in quotes")
    return ContextFile(path, True, current, {name: _context(name, t, path) for name, t in tables.items()})


def _with_current(text: str, name: str) -> str:
    """`text` with its top-level current-context line set to `name` (added at the top when missing)."""
    line = f"{CURRENT_KEY} = {json.dumps(name)}"
    lines = text.splitlines(keepends=True)
    for i, old in enumerate(lines):
        if _TABLE_LINE.match(old):
            break
        if _CURRENT_LINE.match(old):
            ending = old[len(old.rstrip("\r\n")):] or "\n"
            lines[i] = line + ending
            return "".join(lines)
    return f"{line}\n" + ("\n" if lines and lines[0].strip() else "") + text


def use_context(name: str, path: Path | None = None) -> ContextFile:
    """Make `name` the current context: the file is rewritten whole (temporary file, fsync, rename), so a
    reader sees the old file or the new one; only the current-context line changes."""
    loaded = load_contexts(path)
    loaded.get(name, option="context use")
    target = loaded.path.resolve()
    text = read_small_text(target, "groupctl config")
    new = _with_current(text, name)
    after = tomllib.loads(new)
    if after.get(CURRENT_KEY) != name or after.get("contexts") != tomllib.loads(text).get("contexts"):
        raise UsageError(f"{shown_path(target)}: could not set {CURRENT_KEY} by editing one line; set {CURRENT_KEY} = "
                         f"{json.dumps(name)} at the top of the file by hand")
    mode = stat.S_IMODE(target.stat().st_mode)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(new)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return load_contexts(path)
