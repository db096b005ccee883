"""SaslHandshake (17) and SaslAuthenticate (36): SASL PLAIN and SCRAM exchanges framed as Kafka requests.

SaslHandshake 0-1 is never flexible (v1 switches the tokens into SaslAuthenticate requests).
SaslAuthenticate 0-2 (flexible from 2; v1 adds the session lifetime for re-authentication, KIP-368).
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

SASL_HANDSHAKE_REQUEST: Final = message(
    "SaslHandshakeRequest", "0-1", "none", [field("Mechanism", "string")], api_key=17
)

SASL_HANDSHAKE_RESPONSE: Final = message(
    "SaslHandshakeResponse",
    "0-1",
    "none",
    [field("ErrorCode", "int16"), field("Mechanisms", "[]string")],
    api_key=17,
)

SASL_AUTHENTICATE_REQUEST: Final = message(
    "SaslAuthenticateRequest", "0-2", "2+", [field("AuthBytes", "bytes")], api_key=36
)

SASL_AUTHENTICATE_RESPONSE: Final = message(
    "SaslAuthenticateResponse",
    "0-2",
    "2+",
    [
        field("ErrorCode", "int16"),
        field("ErrorMessage", "string", nullable="0+"),
        field("AuthBytes", "bytes"),
        field("SessionLifetimeMs", "int64", "1+", default=0, ignorable=True),
    ],
    api_key=36,
)
