"""Who may connect: SASL PLAIN and SCRAM-SHA-256/512 over SaslHandshake/SaslAuthenticate, the users
file they check against, and the TLS context of an SSL or SASL_SSL listener.

Only SaslHandshake v1 is advertised: the tokens then travel inside SaslAuthenticate requests, as
every current client sends them. v0's raw-token mode (size-prefixed SASL bytes with no Kafka header
after the handshake) is not implemented, so a v0 handshake closes the connection as any other
unsupported version does.

As on a Kafka broker, a failed exchange is answered with SASL_AUTHENTICATION_FAILED and Kafka's
message, and the connection is then closed; an unknown mechanism is answered with
UNSUPPORTED_SASL_MECHANISM and the enabled list, then closed. Either answer leaves only after
Kafka's `connection.failed.authentication.delay.ms` (100 ms; the connection's own task sleeps, the
others go on), so a client cannot try thousands of passwords a second. A successful exchange makes the
connection's principal `User:<name>`; nothing is authorised differently afterwards (there is no
authorizer), and sessions do not expire (SessionLifetimeMs 0).

The users file holds one `user:password` per line (`#` comments and blank lines skipped; the name
ends at the first colon, and whitespace around the line is ignored). SCRAM credentials are derived
from it once at start-up, with a random salt and 4096 iterations, as `kafka-configs --add-config
'SCRAM-SHA-256=[password=...]'` would store them. Passwords are never written anywhere: not to
logs, not to DIR, not into an error message about the file.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from pathlib import Path

from groupctl.errors import KAFKA_ERROR_CODES, GroupctlError, UsageError
from groupctl.protocol.data.auth import (
    SaslAuthenticateRequestData,
    SaslAuthenticateResponseData,
    SaslHandshakeRequestData,
    SaslHandshakeResponseData,
)
from groupctl.sasl import (
    PLAIN,
    SCRAM_HASHES,
    SUPPORTED_MECHANISMS,
    SaslAuthenticationFailed,
    ScramCredential,
    ScramServer,
    verify_plain,
)
from groupctl.server.connection import CLOSE_AFTER_RESPONSE, ConnectionClosed
from groupctl.server.dispatch import RequestContext, Session, handles
from groupctl.small_files import read_small_text

ILLEGAL_SASL_STATE = KAFKA_ERROR_CODES["ILLEGAL_SASL_STATE"]
UNSUPPORTED_SASL_MECHANISM = KAFKA_ERROR_CODES["UNSUPPORTED_SASL_MECHANISM"]
SASL_AUTHENTICATION_FAILED = KAFKA_ERROR_CODES["SASL_AUTHENTICATION_FAILED"]


@dataclass(frozen=True)
class User:
    """One user of the users file: the password PLAIN compares with, and a SCRAM credential per mechanism."""

    name: str
    password: str = field(repr=False)
    scram: dict[str, ScramCredential] = field(default_factory=dict, repr=False)


def parse_mechanisms(text: str) -> tuple[str, ...]:
    """`PLAIN,SCRAM-SHA-256` as a tuple, each name once, in the order given; unknown names are a usage error."""
    names = [n.strip().upper() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in SUPPORTED_MECHANISMS]
    if unknown or not names:
        raise UsageError(f"--sasl-mechanisms: {', '.join(unknown) or 'nothing given'} is not a mechanism groupctl "
                         f"serve offers; choose from {', '.join(SUPPORTED_MECHANISMS)}")
    return tuple(dict.fromkeys(names))


def read_users(path: Path, mechanisms: tuple[str, ...]) -> dict[str, User]:
    """The users of a users file, with SCRAM credentials derived for the SCRAM mechanisms enabled.

    Errors name the file and the line number, never the line (it holds a password).
    """
    if not path.exists():
        raise UsageError(f"--sasl-users: '{path}' does not exist; give a file with one user:password per line")
    if path.is_dir():
        raise UsageError(f"--sasl-users: '{path}' is a directory; give a file with one user:password per line")
    try:
        text = read_small_text(path, "users file")
    except UnicodeDecodeError as exc:
        raise GroupctlError(f"users file '{path}' is not UTF-8 text (at byte {exc.start})") from exc
    except OSError as exc:
        raise GroupctlError(f"cannot read users file '{path}': {exc.strerror or exc}") from exc
    users: dict[str, User] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, password = line.strip().partition(":")
        if not sep or not name or not password:
            raise GroupctlError(f"users file '{path}', line {number}: expected user:password (a non-empty name, "
                                "a colon, a non-empty password)")
        if name in users:
            raise GroupctlError(f"users file '{path}', line {number}: user '{name}' is listed twice")
        scram = {m: ScramCredential.derive(m, password) for m in mechanisms if m in SCRAM_HASHES}
        users[name] = User(name, password, scram)
    if not users:
        raise GroupctlError(f"users file '{path}' lists no users; add one user:password per line")
    return users


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server context for a PEM certificate chain and its private key (TLS 1.2 or later)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    for option, path in (("--tls-cert", cert), ("--tls-key", key)):
        if not path.is_file():
            raise UsageError(f"{option}: '{path}' does not exist or is not a file; give a PEM file")
    try:
        context.load_cert_chain(certfile=str(cert), keyfile=str(key))
    except ssl.SSLError as exc:
        raise GroupctlError(f"cannot use --tls-cert '{cert}' with --tls-key '{key}': {exc.reason or exc} (both must "
                            "be PEM, the key unencrypted and matching the certificate)") from exc
    except OSError as exc:
        raise GroupctlError(f"cannot read --tls-cert '{cert}' or --tls-key '{key}': {exc.strerror or exc}") from exc
    return context


def _users(ctx: RequestContext) -> dict[str, User]:
    return ctx.broker.options.users


def _close_after(session: Session, reason: str) -> None:
    session.extra[CLOSE_AFTER_RESPONSE] = reason


@handles(17, range(1, 2))
async def sasl_handshake(ctx: RequestContext, body: SaslHandshakeRequestData) -> SaslHandshakeResponseData:
    session = ctx.session
    enabled = list(ctx.broker.options.sasl_mechanisms)
    if session.authenticated:
        return SaslHandshakeResponseData(error_code=ILLEGAL_SASL_STATE, mechanisms=enabled)
    if session.mechanism is not None:
        _close_after(session, "a second SaslHandshake during SASL authentication")
        return SaslHandshakeResponseData(error_code=ILLEGAL_SASL_STATE, mechanisms=enabled)
    mechanism = body.mechanism
    if mechanism not in enabled:
        _close_after(session, f"unsupported SASL mechanism {mechanism!r}")
        return SaslHandshakeResponseData(error_code=UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled)
    session.mechanism = mechanism
    session.exchange = None
    return SaslHandshakeResponseData(error_code=0, mechanisms=enabled)


def _succeeded(session: Session, username: str) -> None:
    session.authenticated = True
    session.principal = f"User:{username}"
    session.exchange = None


def _failed(ctx: RequestContext, failure: SaslAuthenticationFailed) -> SaslAuthenticateResponseData:
    session = ctx.session
    ctx.broker.log.line(session.peer, f"failed authentication with {session.peer} ({session.mechanism}): "
                        f"{failure.reason}")
    _close_after(session, "authentication failed")
    session.exchange = None
    return SaslAuthenticateResponseData(error_code=SASL_AUTHENTICATION_FAILED, error_message=failure.message)


@handles(36)
async def sasl_authenticate(ctx: RequestContext, body: SaslAuthenticateRequestData) -> SaslAuthenticateResponseData:
    session = ctx.session
    if session.authenticated:
        return SaslAuthenticateResponseData(
            error_code=ILLEGAL_SASL_STATE,
            error_message="SaslAuthenticate request received after successful authentication")
    if session.mechanism is None:
        raise ConnectionClosed("SaslAuthenticate before SaslHandshake")
    token = bytes(body.auth_bytes)
    users = _users(ctx)
    try:
        if session.mechanism == PLAIN:
            _succeeded(session, verify_plain(token, lambda name: _password(users, name)))
            return SaslAuthenticateResponseData(error_code=0, error_message=None)
        if session.exchange is None:
            mechanism = session.mechanism
            session.exchange = ScramServer(mechanism, lambda name: _credential(users, name, mechanism))
            return SaslAuthenticateResponseData(error_code=0, error_message=None,
                                                auth_bytes=session.exchange.handle_client_first(token))
        exchange: ScramServer = session.exchange
        server_final = exchange.handle_client_final(token)
        _succeeded(session, exchange.username)
        return SaslAuthenticateResponseData(error_code=0, error_message=None, auth_bytes=server_final)
    except SaslAuthenticationFailed as failure:
        return _failed(ctx, failure)


def _password(users: dict[str, User], name: str) -> str | None:
    user = users.get(name)
    return user.password if user is not None else None


def _credential(users: dict[str, User], name: str, mechanism: str) -> ScramCredential | None:
    user = users.get(name)
    return user.scram.get(mechanism) if user is not None else None

