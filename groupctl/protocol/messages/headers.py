"""Request and response headers, and which header version an API version travels with.

Kafka's RequestHeader keeps ClientId's int16 length prefix even in the flexible v2 (old brokers must
read the ClientId of any ApiVersions request, whatever its version). That is a per-field override
the schema language has no word for, so the header fields are described as never flexible and the
v2 tag section is coded by a second, field-less flexible message (`HEADER_TAGS`). Both are still
schema data: no byte of a header is written by hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from groupctl.protocol.schema import UNKNOWN_TAGS, Message, field, message

API_VERSIONS_KEY: Final = 18
"""ApiVersions responses always use response header v0, so that any client can read them."""

REQUEST_HEADER: Final = message(
    "RequestHeader",
    "0-2",
    "none",
    [
        field("RequestApiKey", "int16"),
        field("RequestApiVersion", "int16"),
        field("CorrelationId", "int32"),
        field("ClientId", "string", "1+", nullable="1+"),
    ],
)

HEADER_TAGS: Final = message("HeaderTags", "0", "0+", [])
"""The tag section that ends request header v2 (no known tags; unknown ones survive)."""

RESPONSE_HEADER: Final = message("ResponseHeader", "0-1", "1+", [field("CorrelationId", "int32")])


def request_header_version(request: Message, version: int) -> int:
    """Header v2 for flexible request versions, v1 otherwise (v0 is ControlledShutdown v0's only)."""
    return 2 if request.is_flexible(version) else 1


def response_header_version(response: Message, version: int) -> int:
    """Header v1 for flexible response versions, v0 otherwise and always for ApiVersions."""
    if response.api_key == API_VERSIONS_KEY:
        return 0
    return 1 if response.is_flexible(version) else 0


def encode_request_header(header: dict[str, Any], header_version: int) -> bytes:
    """The header bytes; at v2 unknown tags under `UNKNOWN_TAGS` are written back."""
    raw = REQUEST_HEADER.encode(header, header_version)
    if header_version >= 2:
        raw += HEADER_TAGS.encode({UNKNOWN_TAGS: header.get(UNKNOWN_TAGS) or []}, 0)
    return raw


def decode_request_header(buf: bytes, pos: int, header_version: int) -> tuple[dict[str, Any], int]:
    """`(header, end)`; raises `primitives.WireError` (a DecodeError) on bad bytes."""
    return request_header_decoder(header_version)(buf, pos)


@functools.cache
def request_header_decoder(header_version: int) -> Callable[[bytes, int], tuple[dict[str, Any], int]]:
    """`decode_request_header` at one header version, looked up once (a listener decodes one per request)."""
    fields = REQUEST_HEADER.decoder(header_version)
    if header_version < 2:
        return fields
    tag_section = HEADER_TAGS.decoder(0)

    def decode(buf: bytes, pos: int) -> tuple[dict[str, Any], int]:
        header, pos = fields(buf, pos)
        tags, pos = tag_section(buf, pos)
        if UNKNOWN_TAGS in tags:
            header[UNKNOWN_TAGS] = tags[UNKNOWN_TAGS]
        return header, pos

    return decode


def encode_response_header(header: dict[str, Any], header_version: int) -> bytes:
    return RESPONSE_HEADER.encoder(header_version)(header)


def decode_response_header(buf: bytes, pos: int, header_version: int) -> tuple[dict[str, Any], int]:
    return RESPONSE_HEADER.decoder(header_version)(buf, pos)
