"""SASL PLAIN (RFC 4616) and SCRAM (RFC 5802, RFC 7677) exchanges as pure message functions.

No sockets here: the wire client (`groupctl.kafka`) and the listener (`groupctl serve`) carry these
bytes inside SaslAuthenticate requests, and tests drive both sides in memory.

Kafka's choices, kept so that groupctl interoperates with real brokers and clients:

* only the gs2 header `n` (no channel binding), so a client-final's `c=` is always `biws`
  (base64 of `n,,`) unless the client named an authzid;
* passwords are used as their UTF-8 bytes, without SASLprep (Kafka's `ScramFormatter.normalize`);
* at least 4096 iterations for both mechanisms, at most 16384 for a credential Kafka's tools create;
* a failed exchange answers with one generic text that names only the mechanism, so that a client
  cannot tell a wrong password from an unknown user (`generic_failure_message`).

An unknown user is carried through the exchange on a made-up credential (RFC 5802 §9) and refused
at the client-final message; Kafka refuses one step earlier, with the same text.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from groupctl.errors import GroupctlError

PLAIN: Final = "PLAIN"
SCRAM_SHA_256: Final = "SCRAM-SHA-256"
SCRAM_SHA_512: Final = "SCRAM-SHA-512"

SCRAM_HASHES: Final[dict[str, str]] = {SCRAM_SHA_256: "sha256", SCRAM_SHA_512: "sha512"}
"""SCRAM mechanism -> hashlib name. Kafka knows these two."""

SUPPORTED_MECHANISMS: Final = (PLAIN, SCRAM_SHA_256, SCRAM_SHA_512)

MIN_ITERATIONS: Final = 4096
MAX_CREDENTIAL_ITERATIONS: Final = 16384
"""Kafka's bounds for a stored credential (`ScramMechanism`)."""

MAX_CLIENT_ITERATIONS: Final = 1_000_000
"""What a client agrees to compute for a server: bounds the CPU a hostile broker can demand."""

PLAIN_INVALID_CREDENTIALS: Final = "Authentication failed: Invalid username or password"
"""Kafka's PLAIN answer to a wrong password or an unknown user (`PlainServerCallbackHandler`)."""

AUTHZID_MISMATCH: Final = "Authentication failed: Client requested an authorization id that is different from username"

_GS2_NO_BINDING: Final = "n"
_PRINTABLE: Final = re.compile(r"^[\x21-\x2b\x2d-\x7e]+$")  # RFC 5802 "printable": %x21-7E except ","
_EXTENSION_NAME: Final = re.compile(r"^[A-Za-z]+$")


class SaslError(GroupctlError):
    """A SASL exchange that cannot go on: malformed input, a bad server answer, a refused login."""


class SaslAuthenticationFailed(SaslError):
    """A server-side refusal; `message` is what the broker sends the client (SASL_AUTHENTICATION_FAILED).

    `reason` says why for the server's own log; it is never sent, since it may reveal whether the
    user exists.
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or message


def generic_failure_message(mechanism: str, reauthentication: bool = False) -> str:
    """Kafka's one text for any failed exchange (`SaslServerAuthenticator.handleSaslToken`)."""
    phase = "re-authentication" if reauthentication else "authentication"
    return f"Authentication failed during {phase} due to invalid credentials with SASL mechanism {mechanism}"


# --- PLAIN ----------------------------------------------------------------------------------------


def plain_initial_response(username: str, password: str, authzid: str = "") -> bytes:
    """`authzid NUL username NUL password` in UTF-8 (RFC 4616 §2)."""
    for name, value in (("authzid", authzid), ("username", username), ("password", password)):
        if "\0" in value:
            raise SaslError(f"SASL/PLAIN {name} cannot contain a NUL character")
    if not username or not password:
        raise SaslError("SASL/PLAIN needs a non-empty username and password")
    return f"{authzid}\0{username}\0{password}".encode()


def parse_plain(data: bytes) -> tuple[str, str, str]:
    """`(authzid, username, password)` from a PLAIN initial response.

    Malformed bytes raise `SaslError` (Kafka then sends `generic_failure_message`); an empty username
    or password, or an authzid naming someone else, raises `SaslAuthenticationFailed` with the text
    Kafka's `PlainSaslServer` sends.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaslError("Invalid SASL/PLAIN response: not UTF-8") from exc
    tokens = text.split("\0")
    if len(tokens) != 3:
        raise SaslError(f"Invalid SASL/PLAIN response: expected 3 tokens, got {len(tokens)}")
    authzid, username, password = tokens
    if not username:
        raise SaslAuthenticationFailed("Authentication failed: username not specified")
    if not password:
        raise SaslAuthenticationFailed("Authentication failed: password not specified")
    if authzid and authzid != username:
        raise SaslAuthenticationFailed(AUTHZID_MISMATCH)
    return authzid, username, password


def verify_plain(data: bytes, password_of: Callable[[str], str | None]) -> str:
    """The authenticated username, or `SaslAuthenticationFailed` with Kafka's text; compares in constant time."""
    try:
        _, username, password = parse_plain(data)
    except SaslAuthenticationFailed:
        raise
    except SaslError as exc:
        raise SaslAuthenticationFailed(generic_failure_message(PLAIN), str(exc)) from exc
    expected = password_of(username)
    if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
        raise SaslAuthenticationFailed(PLAIN_INVALID_CREDENTIALS, f"bad password or unknown user {username!r}")
    return username


# --- SCRAM primitives ---------------------------------------------------------------------------------


def escape_saslname(name: str) -> str:
    """RFC 5802 §5.1: `=` as `=3D`, `,` as `=2C` (in that order, so `=` is not escaped twice)."""
    return name.replace("=", "=3D").replace(",", "=2C")


def unescape_saslname(value: str) -> str:
    """The inverse of `escape_saslname`; any other `=` sequence is malformed."""
    if re.search(r"=(?!2C|3D)", value):
        raise SaslError(f"Invalid SCRAM saslname {value!r}: '=' must start =2C or =3D")
    return value.replace("=2C", ",").replace("=3D", "=")


def salted_password(hash_name: str, password: str, salt: bytes, iterations: int) -> bytes:
    """Hi(password, salt, i) = PBKDF2 with HMAC-H (RFC 5802 §2.2)."""
    return hashlib.pbkdf2_hmac(hash_name, password.encode("utf-8"), salt, iterations)


def _hmac(hash_name: str, key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hash_name).digest()


def scram_keys(hash_name: str, salted: bytes) -> tuple[bytes, bytes, bytes]:
    """`(client_key, stored_key, server_key)` from a salted password (RFC 5802 §3)."""
    client_key = _hmac(hash_name, salted, b"Client Key")
    stored_key = hashlib.new(hash_name, client_key).digest()
    server_key = _hmac(hash_name, salted, b"Server Key")
    return client_key, stored_key, server_key


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(value: str, what: str) -> bytes:
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise SaslError(f"Invalid SCRAM {what}: not base64") from exc


def _hash_for(mechanism: str) -> str:
    try:
        return SCRAM_HASHES[mechanism]
    except KeyError:
        raise SaslError(f"{mechanism!r} is not a SCRAM mechanism Kafka supports ({', '.join(SCRAM_HASHES)})") from None


def _new_nonce() -> str:
    return secrets.token_urlsafe(24)


def _check_nonce(nonce: str) -> str:
    if not _PRINTABLE.match(nonce):
        raise SaslError(f"Invalid SCRAM nonce {nonce!r}: printable ASCII without ',' expected")
    return nonce


def _decode(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaslError(f"Invalid SCRAM {what}: not UTF-8") from exc


def _attributes(text: str, what: str) -> list[tuple[str, str]]:
    """`a=value,b=value` as pairs, in order. RFC 5802's attributes are one letter; extensions may be
    longer (`tokenauth=true`, as Kafka's delegation tokens send)."""
    pairs: list[tuple[str, str]] = []
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not _EXTENSION_NAME.match(key):
            raise SaslError(f"Invalid SCRAM {what}: bad attribute {part!r} in {text!r}")
        pairs.append((key, value))
    return pairs


def _take(pairs: list[tuple[str, str]], names: str, what: str, text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The values of the leading attributes `names` (in that order) and the rest (extensions)."""
    if pairs and pairs[0][0] == "m":
        raise SaslError(f"Invalid SCRAM {what}: mandatory extension m= is not supported")
    if len(pairs) < len(names) or [k for k, _ in pairs[: len(names)]] != list(names):
        raise SaslError(f"Invalid SCRAM {what} format: {text!r} (expected {','.join(n + '=' for n in names)}...)")
    rest = pairs[len(names) :]
    for key, _ in rest:
        if key in names:
            raise SaslError(f"Invalid SCRAM {what}: unexpected attribute {key}= in {text!r}")
    return [v for _, v in pairs[: len(names)]], rest


# --- SCRAM client -------------------------------------------------------------------------------------


class ScramClient:
    """One client exchange: client-first, then client-final from the server-first, then check the server."""

    def __init__(self, mechanism: str, username: str, password: str, nonce: str | None = None) -> None:
        self.mechanism = mechanism
        self._hash = _hash_for(mechanism)
        if not username:
            raise SaslError(f"{mechanism} needs a username")
        self.username = username
        self._password = password
        self._nonce = _check_nonce(nonce) if nonce is not None else _new_nonce()
        self._first_bare: str | None = None
        self._auth_message: str | None = None
        self._server_key: bytes | None = None
        self.complete = False

    def first_message(self) -> bytes:
        """`n,,n=<saslname>,r=<client nonce>`."""
        self._first_bare = f"n={escape_saslname(self.username)},r={self._nonce}"
        return f"{_GS2_NO_BINDING},,{self._first_bare}".encode()

    def final_message(self, server_first: bytes) -> bytes:
        """`c=biws,r=<nonce>,p=<proof>` for the server's `r=...,s=...,i=...`."""
        if self._first_bare is None:
            raise SaslError("SCRAM client-first message was not sent yet")
        text = _decode(server_first, "server first message")
        what = "server first message"
        (nonce, salt_b64, iterations_text), _ = _take(_attributes(text, what), "rsi", what, text)
        if not nonce.startswith(self._nonce) or len(nonce) == len(self._nonce):
            raise SaslError("Invalid server nonce: does not start with client nonce")
        _check_nonce(nonce)
        salt = _unb64(salt_b64, "server first message salt")
        if not iterations_text.isdigit():
            raise SaslError(f"Invalid SCRAM server first message format: invalid iterations {iterations_text!r}")
        iterations = int(iterations_text)
        if iterations < MIN_ITERATIONS:
            raise SaslError(
                f"Requested iterations {iterations} is less than the minimum {MIN_ITERATIONS} for {self.mechanism}"
            )
        if iterations > MAX_CLIENT_ITERATIONS:
            raise SaslError(
                f"Requested iterations {iterations} is more than groupctl computes ({MAX_CLIENT_ITERATIONS})"
            )
        salted = salted_password(self._hash, self._password, salt, iterations)
        client_key, stored_key, self._server_key = scram_keys(self._hash, salted)
        without_proof = f"c={_b64(b'n,,')},r={nonce}"
        self._auth_message = f"{self._first_bare},{text},{without_proof}"
        signature = _hmac(self._hash, stored_key, self._auth_message.encode())
        return f"{without_proof},p={_b64(_xor(client_key, signature))}".encode()

    def verify_server_final(self, server_final: bytes) -> None:
        """Check `v=<server signature>`; an `e=` answer or a wrong signature raises SaslError."""
        if self._auth_message is None or self._server_key is None:
            raise SaslError("SCRAM client-final message was not sent yet")
        text = _decode(server_final, "server final message")
        pairs = _attributes(text, "server final message")
        key, value = pairs[0]
        if key == "e":
            raise SaslError(f"Sasl authentication using {self.mechanism} failed with error: {value}")
        if key != "v":
            raise SaslError(f"Invalid SCRAM server final message format: {text!r}")
        expected = _hmac(self._hash, self._server_key, self._auth_message.encode())
        if not hmac.compare_digest(_unb64(value, "server signature"), expected):
            raise SaslError("Invalid server signature in server final message")
        self.complete = True


# --- SCRAM server -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScramCredential:
    """What a broker stores per user and mechanism: never the password (RFC 5802 §3)."""

    salt: bytes
    iterations: int
    stored_key: bytes = field(repr=False)
    server_key: bytes = field(repr=False)

    @classmethod
    def derive(
        cls, mechanism: str, password: str, salt: bytes | None = None, iterations: int = MIN_ITERATIONS
    ) -> ScramCredential:
        """A credential as `kafka-configs --add-config 'SCRAM-SHA-256=[password=...]'` creates one."""
        hash_name = _hash_for(mechanism)
        if not MIN_ITERATIONS <= iterations <= MAX_CREDENTIAL_ITERATIONS:
            raise SaslError(
                f"Iterations {iterations} for {mechanism} must be between {MIN_ITERATIONS} and "
                f"{MAX_CREDENTIAL_ITERATIONS}"
            )
        salt = secrets.token_bytes(32) if salt is None else salt
        _, stored_key, server_key = scram_keys(hash_name, salted_password(hash_name, password, salt, iterations))
        return cls(salt, iterations, stored_key, server_key)


_MOCK_KEY: Final = secrets.token_bytes(32)
"""Derives made-up salts for unknown users, the same per user within a process."""


class ScramServer:
    """One server exchange. Every failure raises `SaslAuthenticationFailed` whose `message` is the
    text to send with SASL_AUTHENTICATION_FAILED; `reason` is for the server's log."""

    def __init__(
        self, mechanism: str, lookup: Callable[[str], ScramCredential | None], nonce: str | None = None
    ) -> None:
        self.mechanism = mechanism
        self._hash = _hash_for(mechanism)
        self._lookup = lookup
        self._server_nonce = _check_nonce(nonce) if nonce is not None else _new_nonce()
        self._user: str | None = None
        self._known = False
        self._credential: ScramCredential | None = None
        self._gs2_header = ""
        self._first_bare = ""
        self._server_first = ""
        self._nonce = ""
        self.complete = False
        self.extensions: dict[str, str] = {}

    def _fail(self, reason: str, message: str | None = None) -> SaslAuthenticationFailed:
        self._credential = None
        return SaslAuthenticationFailed(message or generic_failure_message(self.mechanism), reason)

    @property
    def username(self) -> str:
        """The authenticated user; only after a successful `handle_client_final`."""
        if not self.complete or self._user is None:
            raise SaslError("the SCRAM exchange has not completed")
        return self._user

    def handle_client_first(self, data: bytes) -> bytes:
        """Parse `n,[a=authzid],n=user,r=nonce[,ext=...]` and answer `r=<nonce>,s=<salt>,i=<iterations>`."""
        if self._user is not None:
            raise self._fail("client-first message received twice")
        try:
            text = _decode(data, "client first message")
            parts = text.split(",", 2)
            if len(parts) != 3 or parts[0] != _GS2_NO_BINDING:
                raise SaslError(
                    f"Invalid SCRAM client first message format: {text!r} (only gs2 header 'n' is supported)"
                )
            authzid = ""
            if parts[1]:
                if not parts[1].startswith("a="):
                    raise SaslError(f"Invalid SCRAM client first message format: {text!r}")
                authzid = unescape_saslname(parts[1][2:])
            (saslname, nonce), extensions = _take(
                _attributes(parts[2], "client first message"), "nr", "client first message", text
            )
            user = unescape_saslname(saslname)
            if not user:
                raise SaslError("Invalid SCRAM client first message: empty username")
            _check_nonce(nonce)
        except SaslError as exc:
            raise self._fail(str(exc)) from exc
        if authzid and authzid != user:
            raise self._fail(f"authzid {authzid!r} is not the user {user!r}", AUTHZID_MISMATCH)
        credential = self._lookup(user)
        self._known = credential is not None
        if credential is None:
            credential = self._mock_credential(user)
        elif credential.iterations < MIN_ITERATIONS:
            raise self._fail(
                f"Iterations {credential.iterations} is less than the minimum {MIN_ITERATIONS} for {self.mechanism}"
            )
        self._user = user
        self._credential = credential
        self.extensions = dict(extensions)
        self._gs2_header = f"{parts[0]},{parts[1]},"
        self._first_bare = parts[2]
        self._nonce = nonce + self._server_nonce
        self._server_first = f"r={self._nonce},s={_b64(credential.salt)},i={credential.iterations}"
        return self._server_first.encode()

    def _mock_credential(self, user: str) -> ScramCredential:
        """A stable, unusable credential for an unknown user, so the exchange looks the same (RFC 5802 §9)."""
        salt = _hmac("sha256", _MOCK_KEY, b"salt:" + user.encode())
        key = _hmac(self._hash, _MOCK_KEY, b"key:" + user.encode())
        return ScramCredential(salt, MIN_ITERATIONS, hashlib.new(self._hash, key).digest(), key)

    def handle_client_final(self, data: bytes) -> bytes:
        """Check `c=...,r=...,p=<proof>` and answer `v=<server signature>`."""
        credential = self._credential
        if credential is None or self.complete:
            raise self._fail("client-final message without a pending client-first message")
        try:
            text = _decode(data, "client final message")
            head, sep, proof_b64 = text.rpartition(",p=")
            if not sep:
                raise SaslError(f"Invalid SCRAM client final message format: {text!r} (no proof)")
            (binding_b64, nonce), _ = _take(
                _attributes(head, "client final message"), "cr", "client final message", text
            )
            binding = _unb64(binding_b64, "channel binding")
            proof = _unb64(proof_b64, "client proof")
        except SaslError as exc:
            raise self._fail(str(exc)) from exc
        if binding != self._gs2_header.encode():
            raise self._fail(f"channel binding {binding!r} does not repeat the gs2 header {self._gs2_header!r}")
        if nonce != self._nonce:
            raise self._fail("Invalid client nonce in the final client message.")
        auth_message = f"{self._first_bare},{self._server_first},{head}".encode()
        signature = _hmac(self._hash, credential.stored_key, auth_message)
        if len(proof) != len(signature):
            raise self._fail(f"client proof of {len(proof)} bytes, expected {len(signature)}")
        stored_key = hashlib.new(self._hash, _xor(proof, signature)).digest()
        if not self._known:
            raise self._fail(f"unknown user {self._user!r}")
        if not hmac.compare_digest(stored_key, credential.stored_key):
            raise self._fail(f"Invalid client credentials for user {self._user!r}")
        server_signature = _hmac(self._hash, credential.server_key, auth_message)
        self._credential = None
        self.complete = True
        return f"v={_b64(server_signature)}".encode()
