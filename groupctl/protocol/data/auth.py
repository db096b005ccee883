"""The auth API messages, as classes: generated from `groupctl.protocol.messages.auth`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields


class SaslHandshakeRequestData(Data):
    """SaslHandshakeRequest, versions 0-1."""

    __slots__ = ("mechanism",)
    _FIELDS: ClassVar[FieldTable] = (
        ("mechanism", "mechanism", None),
    )
    SCHEMA_NAME: ClassVar[str] = "SaslHandshakeRequest"

    mechanism: str

    def __init__(
        self,
        *,
        mechanism: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.mechanism = mechanism
        self.unknown_tagged_fields = unknown_tagged_fields


class SaslHandshakeResponseData(Data):
    """SaslHandshakeResponse, versions 0-1."""

    __slots__ = ("error_code", "mechanisms")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("mechanisms", "mechanisms", None),
    )
    SCHEMA_NAME: ClassVar[str] = "SaslHandshakeResponse"

    error_code: int
    mechanisms: list[str]

    def __init__(
        self,
        *,
        error_code: int = 0,
        mechanisms: list[str] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.mechanisms = [] if mechanisms is UNSET else mechanisms
        self.unknown_tagged_fields = unknown_tagged_fields


class SaslAuthenticateRequestData(Data):
    """SaslAuthenticateRequest, versions 0-2."""

    __slots__ = ("auth_bytes",)
    _FIELDS: ClassVar[FieldTable] = (
        ("auth_bytes", "authBytes", None),
    )
    SCHEMA_NAME: ClassVar[str] = "SaslAuthenticateRequest"

    auth_bytes: bytes

    def __init__(
        self,
        *,
        auth_bytes: bytes = b"",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.auth_bytes = auth_bytes
        self.unknown_tagged_fields = unknown_tagged_fields


class SaslAuthenticateResponseData(Data):
    """SaslAuthenticateResponse, versions 0-2."""

    __slots__ = ("auth_bytes", "error_code", "error_message", "session_lifetime_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("auth_bytes", "authBytes", None),
        ("session_lifetime_ms", "sessionLifetimeMs", None),
    )
    SCHEMA_NAME: ClassVar[str] = "SaslAuthenticateResponse"

    error_code: int
    error_message: str | None
    auth_bytes: bytes
    session_lifetime_ms: int

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        auth_bytes: bytes = b"",
        session_lifetime_ms: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.auth_bytes = auth_bytes
        self.session_lifetime_ms = session_lifetime_ms
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "SaslHandshakeRequest": SaslHandshakeRequestData,
    "SaslHandshakeResponse": SaslHandshakeResponseData,
    "SaslAuthenticateRequest": SaslAuthenticateRequestData,
    "SaslAuthenticateResponse": SaslAuthenticateResponseData,
}
"""Schema name -> class, for the 4 top-level classes."""
