"""Client settings from Kafka (Java) and librdkafka property names, for the wire client.

Operators already have a client properties file; groupctl reads it as it is. Both dialects work:

| setting            | Java client                                   | librdkafka                          |
|--------------------|-----------------------------------------------|-------------------------------------|
| brokers            | bootstrap.servers                             | bootstrap.servers                   |
| protocol           | security.protocol                             | security.protocol                   |
| mechanism          | sasl.mechanism                                | sasl.mechanisms                     |
| user, password     | sasl.jaas.config (Plain/ScramLoginModule)     | sasl.username, sasl.password        |
| trusted CAs        | ssl.truststore.type=PEM + .location or        | ssl.ca.location, ssl.ca.pem         |
|                    | ssl.truststore.certificates                   |                                     |
| client certificate | ssl.keystore.type=PEM + ssl.keystore.location | ssl.certificate.location,           |
|                    |                                               | ssl.key.location                    |
| key password       | ssl.key.password                              | ssl.key.password                    |
| hostname check     | ssl.endpoint.identification.algorithm         | (the same; "none" or "" turns off)  |

Every property is kept as given (`properties`); `librdkafka_properties()` turns the same settings
into confluent-kafka's config, so one file drives both clients. What only the wire client cannot
do (GSSAPI and OAUTHBEARER, Java keystores other than PEM, inline client keys) is refused when a
connection needs it (`ClientConfig.sasl()`, `ClientConfig.tls()`), not when the file is read.

Secrets never come from the command line alone (`refuse_secret_overrides`): they come from the
file, or from GROUPCTL_SASL_PASSWORD / GROUPCTL_SSL_KEY_PASSWORD (`SECRET_ENV`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from groupctl import sasl as mechanisms
from groupctl.errors import GroupctlError, UsageError
from groupctl.kafka.properties import load_properties, parse_overrides

SECURITY_PROTOCOLS: Final = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
DEFAULT_PORT: Final = 9092
DEFAULT_CLIENT_ID: Final = "groupctl"
DEFAULT_REQUEST_TIMEOUT_MS: Final = 30_000
DEFAULT_CONNECT_TIMEOUT_MS: Final = 5_000
"""A connection's setup (DNS, TCP, TLS, ApiVersions, SASL) must finish within this, else the next server is
tried. Kafka's clients give the TCP connect 10 s and librdkafka the whole setup 30 s, but a broker answers
ApiVersions from memory in milliseconds; 5 s keeps `-b HUNG,GOOD` answering from GOOD within a few seconds,
and a slow broker still gets in: each round of retries doubles the bound up to the `.max.ms` setting."""
DEFAULT_CONNECT_TIMEOUT_MAX_MS: Final = 30_000
"""Kafka's `socket.connection.setup.timeout.max.ms` default: the bound retries grow to."""
DEFAULT_SASL_MECHANISM: Final = "GSSAPI"
"""What Kafka's clients and librdkafka use when no mechanism is set."""

REDACTED: Final = "[redacted]"
_SECRET_NAME: Final = re.compile(r"password|secret|jaas|token|(^|\.)key\.pem$|keystore\.key$", re.IGNORECASE)
_HOST_PORT: Final = re.compile(
    r"^(?:[A-Za-z0-9_+.-]+://)?(?:\[(?P<v6>[0-9A-Fa-f:.%]+)\]|(?P<host>[^:\[\]]+))(?::(?P<port>\d+))?$"
)
_JAAS_TOKEN: Final = re.compile(r'\s*(?:(?P<quoted>"(?:[^"\\]|\\.)*")|(?P<punct>[=;])|(?P<word>[^\s=;"]+))', re.DOTALL)
_JAAS_FLAGS: Final = ("required", "requisite", "sufficient", "optional")
_LOGIN_MODULE_MECHANISMS: Final = {
    "PlainLoginModule": "PLAIN",
    "ScramLoginModule": "SCRAM",
    "OAuthBearerLoginModule": "OAUTHBEARER",
    "Krb5LoginModule": "GSSAPI",
}
SECRET_ENV: Final = {"sasl.password": "GROUPCTL_SASL_PASSWORD", "ssl.key.password": "GROUPCTL_SSL_KEY_PASSWORD"}
"""Secrets that may come from the environment, and the variable for each (the file is the other place)."""
JAVA_ONLY: Final = frozenset(
    {
        "sasl.jaas.config",
        "sasl.login.class",
        "sasl.login.callback.handler.class",
        "sasl.client.callback.handler.class",
        "ssl.truststore.type",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.truststore.certificates",
        "ssl.keystore.type",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.protocol",
        "ssl.enabled.protocols",
        "ssl.keymanager.algorithm",
        "ssl.trustmanager.algorithm",
        "ssl.secure.random.implementation",
        "ssl.provider",
        "ssl.engine.factory.class",
        "security.providers",
        "default.api.timeout.ms",
        "socket.connection.setup.timeout.max.ms",
        "metadata.recovery.strategy",
    }
)
"""Java client properties librdkafka would refuse: their meaning is carried over where librdkafka has
one (JAAS logins, PEM stores); the rest tune the JVM's own TLS and login machinery."""


def is_secret(name: str) -> bool:
    """Whether a property holds a secret (passwords, JAAS lines, inline private keys, tokens)."""
    return bool(_SECRET_NAME.search(name))


@dataclass(frozen=True)
class SaslSettings:
    """A SASL login the wire client can perform."""

    mechanism: str  # PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
    username: str
    password: str = field(repr=False)


@dataclass(frozen=True)
class TlsSettings:
    """What an `ssl.SSLContext` for the brokers is made of (see `groupctl.kafka.tls`)."""

    ca_location: str | None = None  # a PEM file or a directory of hashed PEM files
    ca_pem: str | None = field(default=None, repr=False)  # PEM text given inline
    certificate_location: str | None = None  # client certificate chain (PEM); may hold the key too
    key_location: str | None = None
    key_password: str | None = field(default=None, repr=False)
    check_hostname: bool = True
    verify_certificates: bool = True


@dataclass(frozen=True)
class ClientConfig:
    """The settings one wire client needs, and every property it was built from."""

    bootstrap_servers: tuple[tuple[str, int], ...]
    security_protocol: str = "PLAINTEXT"
    client_id: str = DEFAULT_CLIENT_ID
    request_timeout_ms: int = DEFAULT_REQUEST_TIMEOUT_MS
    connect_timeout_ms: int = DEFAULT_CONNECT_TIMEOUT_MS
    connect_timeout_max_ms: int = DEFAULT_CONNECT_TIMEOUT_MAX_MS
    properties: Mapping[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_properties(cls, properties: Mapping[str, str]) -> ClientConfig:
        """Validate and interpret `properties`; a missing bootstrap.servers is an error."""
        props = dict(properties)
        servers = props.get("bootstrap.servers", "").strip()
        if not servers:
            raise GroupctlError("no bootstrap servers: give --bootstrap-server HOST:PORT or bootstrap.servers")
        protocol = props.get("security.protocol", "PLAINTEXT").strip().upper()
        if protocol not in SECURITY_PROTOCOLS:
            raise GroupctlError(f"security.protocol={protocol!r} is not one of {', '.join(SECURITY_PROTOCOLS)}")
        return cls(
            bootstrap_servers=parse_bootstrap_servers(servers),
            security_protocol=protocol,
            client_id=props.get("client.id", "").strip() or DEFAULT_CLIENT_ID,
            request_timeout_ms=_positive_int(props, "request.timeout.ms", DEFAULT_REQUEST_TIMEOUT_MS),
            connect_timeout_ms=_positive_int(props, "socket.connection.setup.timeout.ms", DEFAULT_CONNECT_TIMEOUT_MS),
            connect_timeout_max_ms=_positive_int(
                props, "socket.connection.setup.timeout.max.ms", DEFAULT_CONNECT_TIMEOUT_MAX_MS
            ),
            properties=props,
        )

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    @property
    def uses_sasl(self) -> bool:
        return self.security_protocol in ("SASL_PLAINTEXT", "SASL_SSL")

    @property
    def sasl_mechanism(self) -> str:
        """The configured mechanism, upper case; GSSAPI when none is set, as in Kafka."""
        java = self.properties.get("sasl.mechanism", "").strip().upper()
        librdkafka = self.properties.get("sasl.mechanisms", "").strip().upper()
        if java and librdkafka and java != librdkafka:
            raise GroupctlError(f"sasl.mechanism={java} and sasl.mechanisms={librdkafka} disagree; keep one")
        return java or librdkafka or DEFAULT_SASL_MECHANISM

    def sasl(self) -> SaslSettings | None:
        """The login to perform, None without SASL; a clear error for what the wire client cannot do."""
        if not self.uses_sasl:
            return None
        mechanism = self.sasl_mechanism
        if mechanism not in mechanisms.SUPPORTED_MECHANISMS:
            unset = "" if self._mechanism_set else " (sasl.mechanism is not set, and Kafka clients then use GSSAPI)"
            raise GroupctlError(
                f"SASL mechanism {mechanism}{unset} is not supported by groupctl's wire client, which speaks "
                "PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 only; the group commands that need it (describe, "
                "list, remove-members) cannot run with this configuration"
            )
        username = self.properties.get("sasl.username")
        password = self.properties.get("sasl.password")
        jaas = self.properties.get("sasl.jaas.config", "").strip()
        if jaas and (username is None or password is None):
            module, options = parse_jaas_config(jaas)
            family = _LOGIN_MODULE_MECHANISMS.get(module.rsplit(".", 1)[-1])
            if family in ("OAUTHBEARER", "GSSAPI"):
                raise GroupctlError(
                    f"sasl.jaas.config uses {module.rsplit('.', 1)[-1]} ({family}), but sasl.mechanism is "
                    f"{mechanism}; give a PlainLoginModule or ScramLoginModule line with username and password"
                )
            username = username if username is not None else options.get("username")
            password = password if password is not None else options.get("password")
        if not username or password is None:
            raise GroupctlError(
                f"{self.security_protocol} with {mechanism} needs a username and password: set sasl.username and "
                "sasl.password, or sasl.jaas.config with a PlainLoginModule/ScramLoginModule line"
            )
        return SaslSettings(mechanism, username, password)

    @property
    def _mechanism_set(self) -> bool:
        names = ("sasl.mechanism", "sasl.mechanisms")
        return any(self.properties.get(name, "").strip() for name in names)

    def tls(self) -> TlsSettings | None:
        """The TLS settings, None without TLS; Java keystores other than PEM get a conversion hint."""
        if not self.uses_tls:
            return None
        p = {k: v.strip() for k, v in self.properties.items()}
        ca_location = p.get("ssl.ca.location") or None
        if ca_location == "probe":  # librdkafka: the system's CA store, which is also groupctl's default
            ca_location = None
        ca_pem = p.get("ssl.ca.pem") or p.get("ssl.truststore.certificates") or None
        truststore = p.get("ssl.truststore.location")
        if truststore:
            kind = (p.get("ssl.truststore.type") or "JKS").upper()
            if kind != "PEM":
                raise GroupctlError(
                    f"ssl.truststore.type={kind}: groupctl reads PEM only. Export the CA certificate "
                    f"(keytool -exportcert -rfc -keystore {truststore} -alias ALIAS -file ca.pem) and set "
                    "ssl.ca.location=ca.pem, or ssl.truststore.type=PEM with a PEM ssl.truststore.location"
                )
            ca_location = ca_location or truststore
        certificate = p.get("ssl.certificate.location") or None
        key = p.get("ssl.key.location") or None
        keystore = p.get("ssl.keystore.location")
        if keystore:
            kind = (p.get("ssl.keystore.type") or "JKS").upper()
            if kind != "PEM":
                raise GroupctlError(
                    f"ssl.keystore.type={kind}: groupctl reads PEM only. Convert the keystore "
                    f"(openssl pkcs12 -in {keystore} -out client.pem, after keytool -importkeystore to PKCS12 "
                    "for JKS) and set ssl.certificate.location/ssl.key.location"
                )
            certificate = certificate or keystore
        inline_names = ("ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.certificate.pem", "ssl.key.pem")
        inline = [k for k in inline_names if p.get(k)]
        if inline:
            raise GroupctlError(
                f"{', '.join(inline)}: inline client certificates and keys are not supported; write them to files "
                "and set ssl.certificate.location and ssl.key.location"
            )
        if key and not certificate:
            raise GroupctlError("ssl.key.location is set without ssl.certificate.location")
        algorithm = p.get("ssl.endpoint.identification.algorithm", "https").lower()
        if algorithm not in ("https", "", "none"):
            raise GroupctlError(f"ssl.endpoint.identification.algorithm={algorithm!r}: expected https, none or empty")
        verify = p.get("enable.ssl.certificate.verification", "true").lower()
        if verify not in ("true", "false"):
            raise GroupctlError(f"enable.ssl.certificate.verification={verify!r}: expected true or false")
        return TlsSettings(
            ca_location=ca_location,
            ca_pem=ca_pem,
            certificate_location=certificate,
            key_location=key,
            key_password=self.properties.get("ssl.key.password") or None,
            check_hostname=algorithm == "https" and verify == "true",
            verify_certificates=verify == "true",
        )

    def redacted(self) -> dict[str, str]:
        """Every property, sorted, with secrets replaced: safe to print or log."""
        return {k: (REDACTED if is_secret(k) else v) for k, v in sorted(self.properties.items())}

    @property
    def bootstrap_text(self) -> str:
        return ",".join(format_address(h, p) for h, p in self.bootstrap_servers)

    def librdkafka_properties(self) -> dict[str, str]:
        """The same settings as confluent-kafka (librdkafka) names them.

        librdkafka names pass through; Java-only names are translated (a PLAIN/SCRAM JAAS line to
        sasl.username/sasl.password, PEM trust and key stores to ssl.ca.location and
        ssl.certificate.location/ssl.key.location, an empty endpoint algorithm to `none`) or
        dropped (`JAVA_ONLY`). A PKCS12 keystore stays `ssl.keystore.location`, which librdkafka
        reads as PKCS#12. Explicit librdkafka names win over translated ones.
        """
        p = {k: v.strip() for k, v in self.properties.items()}
        out = {k: v for k, v in self.properties.items() if k not in JAVA_ONLY}
        out["bootstrap.servers"] = self.bootstrap_text
        out["security.protocol"] = self.security_protocol
        out["client.id"] = self.client_id
        out.pop("sasl.mechanism", None)
        if self._mechanism_set or self.uses_sasl:
            out["sasl.mechanisms"] = self.sasl_mechanism
        jaas = p.get("sasl.jaas.config", "")
        if jaas:
            module, options = parse_jaas_config(jaas)
            if _LOGIN_MODULE_MECHANISMS.get(module.rsplit(".", 1)[-1]) in ("PLAIN", "SCRAM"):
                for name in ("username", "password"):
                    if name in options:
                        out.setdefault(f"sasl.{name}", options[name])
        if p.get("ssl.truststore.location") and (p.get("ssl.truststore.type") or "JKS").upper() == "PEM":
            out.setdefault("ssl.ca.location", p["ssl.truststore.location"])
        if p.get("ssl.truststore.certificates"):
            out.setdefault("ssl.ca.pem", p["ssl.truststore.certificates"])
        if p.get("ssl.keystore.location") and (p.get("ssl.keystore.type") or "").upper() == "PEM":
            out.pop("ssl.keystore.location")
            out.pop("ssl.keystore.password", None)
            out.setdefault("ssl.certificate.location", p["ssl.keystore.location"])
            out.setdefault("ssl.key.location", p["ssl.keystore.location"])
        if "ssl.endpoint.identification.algorithm" in p:
            out["ssl.endpoint.identification.algorithm"] = p["ssl.endpoint.identification.algorithm"].lower() or "none"
        return out


def load_client_config(
    path: str | Path | None = None,
    overrides: Iterable[str] | Mapping[str, str] = (),
    *,
    bootstrap_servers: str | None = None,
    environ: Mapping[str, str] | None = None,
    base: Mapping[str, str] | None = None,
) -> ClientConfig:
    """Settings from `base` (a context's properties), then a properties file over them, then the
    secrets of `environ` (`SECRET_ENV`), then `-X key=value` overrides, then --bootstrap-server."""
    props: dict[str, str] = dict(base or {})
    if path is not None:
        props.update(load_properties(path))
    for name, variable in SECRET_ENV.items():
        if environ and environ.get(variable):
            props[name] = environ[variable]
    props.update(overrides if isinstance(overrides, Mapping) else parse_overrides(overrides))
    if bootstrap_servers:
        props["bootstrap.servers"] = bootstrap_servers
    return ClientConfig.from_properties(props)


def refuse_secret_overrides(overrides: Iterable[str]) -> None:
    """A secret given as `-X` would sit in the shell history and in `ps` for every user to read."""
    for name in parse_overrides(overrides):
        if is_secret(name):
            variables = " or ".join(SECRET_ENV.values())
            raise UsageError(
                f"-X {name}=...: secrets are not taken from the command line, where the shell history and ps "
                f"show them; put {name} in the --command-config file, or set {variables}"
            )


def parse_bootstrap_servers(text: str) -> tuple[tuple[str, int], ...]:
    """`host:port,host:port`; an optional `SCHEME://` is dropped and a missing port is 9092."""
    servers: list[tuple[str, int]] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        m = _HOST_PORT.match(item)
        port = int(m.group("port")) if m and m.group("port") else DEFAULT_PORT
        if not m or not 0 < port < 65536:
            raise GroupctlError(f"bootstrap server {item!r} is not HOST:PORT")
        servers.append((m.group("v6") or m.group("host"), port))
    if not servers:
        raise GroupctlError(f"bootstrap servers {text!r} name no HOST:PORT")
    return tuple(servers)


def format_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def parse_jaas_config(text: str) -> tuple[str, dict[str, str]]:
    """`(login module class, options)` of a one-module `sasl.jaas.config` value.

    `module flag key=value ... ;` with values bare or double-quoted (backslash escapes inside
    quotes), as Kafka's `JaasConfig` reads it; Kafka accepts exactly one module here.
    """
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _JAAS_TOKEN.match(text, pos)
        if not m:
            raise GroupctlError("sasl.jaas.config: cannot parse (an unterminated quote?)")
        pos = m.end()
        kind = m.lastgroup or "word"
        value = m.group(kind)
        if kind == "quoted":
            value = re.sub(r"\\(.)", r"\1", value[1:-1], flags=re.DOTALL)
        tokens.append((kind, value))
    if len(tokens) < 3 or tokens[0][0] != "word" or tokens[1][0] != "word":
        raise GroupctlError("sasl.jaas.config: expected 'LoginModuleClass required key=\"value\" ...;'")
    module, flag = tokens[0][1], tokens[1][1]
    if flag.lower() not in _JAAS_FLAGS:
        raise GroupctlError(f"sasl.jaas.config: {flag!r} is not a login module flag ({', '.join(_JAAS_FLAGS)})")
    options: dict[str, str] = {}
    i = 2
    while i < len(tokens) and tokens[i] != ("punct", ";"):
        if i + 2 >= len(tokens) or tokens[i][0] != "word" or tokens[i + 1] != ("punct", "="):
            raise GroupctlError(f"sasl.jaas.config: expected key=value after {module}")
        if tokens[i + 2][0] == "punct":
            raise GroupctlError(f"sasl.jaas.config: option {tokens[i][1]} has no value")
        options[tokens[i][1]] = tokens[i + 2][1]
        i += 3
    if i >= len(tokens):
        raise GroupctlError("sasl.jaas.config: the login module line must end with ';'")
    if i + 1 != len(tokens):
        raise GroupctlError("sasl.jaas.config: exactly one login module is allowed (Kafka's rule)")
    return module, options


def _positive_int(props: Mapping[str, str], name: str, default: int) -> int:
    raw = props.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise GroupctlError(f"{name}={raw!r} is not a whole number of milliseconds") from None
    if value <= 0:
        raise GroupctlError(f"{name}={raw!r} must be positive")
    return value
