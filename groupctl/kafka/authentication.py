"""SASL on a fresh connection: SaslHandshake v1, then the mechanism's tokens in SaslAuthenticate.

The order Kafka's clients use (KIP-152): ApiVersions, SaslHandshake v1 naming the mechanism, then
SaslAuthenticate (v0-2, whichever the broker speaks) once for PLAIN and twice for SCRAM. The
token exchange itself is `groupctl.sasl`; this module only carries it and words the failures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groupctl import sasl
from groupctl.kafka.config import SaslSettings
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import (
    SASL_AUTHENTICATION_FAILED,
    UNSUPPORTED_SASL_MECHANISM,
    AuthenticationFailed,
    UnsupportedApi,
    broker_error,
)
from groupctl.protocol.data.auth import (
    SaslAuthenticateRequestData,
    SaslAuthenticateResponseData,
    SaslHandshakeRequestData,
    SaslHandshakeResponseData,
)

if TYPE_CHECKING:
    from groupctl.kafka.connection import BrokerConnection

SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36
ILLEGAL_SASL_STATE = 34
HANDSHAKE_VERSIONS = range(1, 2)
AUTHENTICATE_VERSIONS = range(0, 3)


def authenticate(conn: BrokerConnection, settings: SaslSettings, deadline: Deadline) -> str:
    """Log in as `settings.username`; returns it, or raises `AuthenticationFailed`."""
    try:
        handshake_version = conn.version_for(SASL_HANDSHAKE, HANDSHAKE_VERSIONS)
        authenticate_version = conn.version_for(SASL_AUTHENTICATE, AUTHENTICATE_VERSIONS)
    except UnsupportedApi as exc:
        raise AuthenticationFailed(
            f"{exc}: groupctl authenticates with SaslHandshake v1 and SaslAuthenticate (Kafka 1.0+)"
        ) from exc
    answer: SaslHandshakeResponseData = conn.request(
        SASL_HANDSHAKE, handshake_version, SaslHandshakeRequestData(mechanism=settings.mechanism), deadline)
    code = answer.error_code
    if code == UNSUPPORTED_SASL_MECHANISM:
        enabled = ", ".join(answer.mechanisms) or "none"
        raise AuthenticationFailed(
            f"{conn.where} does not enable SASL mechanism {settings.mechanism} (it enables: {enabled}); "
            "set sasl.mechanism to one of those"
        )
    if code == ILLEGAL_SASL_STATE:
        raise AuthenticationFailed(
            f"{conn.where} refused SaslHandshake (ILLEGAL_SASL_STATE): the listener is probably not a SASL "
            f"listener; check security.protocol={conn.config.security_protocol}"
        )
    if code:
        raise broker_error(code, None, f"SaslHandshake on {conn.where}")

    def exchange(token: bytes) -> bytes:
        reply: SaslAuthenticateResponseData = conn.request(
            SASL_AUTHENTICATE, authenticate_version, SaslAuthenticateRequestData(auth_bytes=token), deadline)
        if reply.error_code == SASL_AUTHENTICATION_FAILED:
            raise AuthenticationFailed(
                f"authentication failed for user {settings.username} with {settings.mechanism} on {conn.where} "
                f"(SASL_AUTHENTICATION_FAILED: {reply.error_message or 'no reason given'}); "
                "check sasl.username/sasl.password (or the credentials in sasl.jaas.config)"
            )
        if reply.error_code:
            raise broker_error(reply.error_code, reply.error_message, f"SaslAuthenticate on {conn.where}")
        return bytes(reply.auth_bytes)

    try:
        if settings.mechanism == sasl.PLAIN:
            exchange(sasl.plain_initial_response(settings.username, settings.password))
        else:
            client = sasl.ScramClient(settings.mechanism, settings.username, settings.password)
            server_first = exchange(client.first_message())
            server_final = exchange(client.final_message(server_first))
            client.verify_server_final(server_final)
    except sasl.SaslError as exc:
        raise AuthenticationFailed(
            f"{settings.mechanism} exchange with {conn.where} as user {settings.username} failed: {exc}"
        ) from exc
    return settings.username
