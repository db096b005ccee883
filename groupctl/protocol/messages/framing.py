"""Whole requests and responses as they travel on a connection: int32 size, header, body.

The listener and the wire client share this so that both pick the header version the same way
(`headers.request_header_version` / `response_header_version`) and both survive bad input the same
way: every malformed byte raises a `DecodeError`, and a request for an API or version without a
schema raises `UnsupportedRequest`, which still carries the header a reply needs.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from groupctl.errors import DecodeError
from groupctl.protocol.messages import API_NAMES, API_SCHEMAS
from groupctl.protocol.messages import headers as H
from groupctl.protocol.schema import Message

SIZE: Final = struct.Struct(">i")

_PEEK: Final = struct.Struct(">hhi")  # api key, api version, correlation id: the same in every header version


class Request(NamedTuple):
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    body: Any  # the request's generated class (`groupctl.protocol.data`)
    header: dict[str, Any]


class Response(NamedTuple):
    correlation_id: int
    api_version: int
    body: Any  # the response's generated class (`groupctl.protocol.data`)
    header: dict[str, Any]


class UnsupportedRequest(DecodeError):
    """No schema for this API key or version; Kafka answers ApiVersions with UNSUPPORTED_VERSION and
    closes the connection for anything else, and the caller needs the header to do either."""

    def __init__(self, api_key: int, api_version: int, correlation_id: int) -> None:
        name = API_NAMES.get(api_key, f"unknown API {api_key}")
        super().__init__(f"{name} version {api_version} is not supported")
        self.api_key = api_key
        self.api_version = api_version
        self.correlation_id = correlation_id


def frame(payload: bytes) -> bytes:
    """Prefix `payload` with its int32 size."""
    return SIZE.pack(len(payload)) + payload


def frame_size(prefix: bytes, max_size: int) -> int:
    """The payload size a 4-byte prefix announces; refuses negative sizes and sizes above `max_size`."""
    if len(prefix) < SIZE.size:
        raise DecodeError(f"frame size needs {SIZE.size} bytes, got {len(prefix)}")
    (size,) = SIZE.unpack_from(prefix)
    if size < 0 or size > max_size:
        raise DecodeError(f"invalid frame size {size} (the limit is {max_size})")
    return size


def peek_request(payload: bytes) -> tuple[int, int, int]:
    """`(api_key, api_version, correlation_id)` without decoding the rest (the first 8 bytes)."""
    if len(payload) < _PEEK.size:
        raise DecodeError(f"a request header needs at least {_PEEK.size} bytes, got {len(payload)}")
    api_key, api_version, correlation_id = _PEEK.unpack_from(payload)
    return api_key, api_version, correlation_id


def peek_correlation_id(payload: bytes) -> int:
    """The correlation id a response starts with, to find the request it answers."""
    if len(payload) < SIZE.size:
        raise DecodeError(f"a response header needs {SIZE.size} bytes, got {len(payload)}")
    return int(SIZE.unpack_from(payload)[0])


def schemas_for(api_key: int, api_version: int, correlation_id: int = -1) -> tuple[Message, Message]:
    """The (request, response) schemas, or `UnsupportedRequest`."""
    pair = API_SCHEMAS.get(api_key)
    if pair is None or api_version not in pair[0].valid_versions:
        raise UnsupportedRequest(api_key, api_version, correlation_id)
    return pair


def encode_request(api_key: int, api_version: int, correlation_id: int, client_id: str | None, body: Any) -> bytes:
    """A complete, size-prefixed request frame."""
    request, _ = schemas_for(api_key, api_version, correlation_id)
    header = {
        "requestApiKey": api_key,
        "requestApiVersion": api_version,
        "correlationId": correlation_id,
        "clientId": client_id,
    }
    head = H.encode_request_header(header, H.request_header_version(request, api_version))
    write = request.writer(api_version)
    return frame(head + write(body))


def decode_request(payload: bytes) -> Request:
    """Decode a request frame's payload (the bytes after the size prefix)."""
    return decode_peeked_request(payload, *peek_request(payload))


def decode_peeked_request(payload: bytes, api_key: int, api_version: int, correlation_id: int) -> Request:
    """`decode_request` for a caller that has already peeked at the header (a listener routing requests)."""
    codecs = _REQUEST_DECODERS.get((api_key, api_version)) or _request_decoders(api_key, api_version, correlation_id)
    header, pos = codecs[0](payload, 0)
    body, _ = codecs[1](payload, pos)
    return Request(api_key, api_version, correlation_id, header.get("clientId"), body, header)


def encode_response(api_key: int, api_version: int, correlation_id: int, body: Any) -> bytes:
    """A complete, size-prefixed response frame."""
    codecs = _RESPONSE_ENCODERS.get((api_key, api_version)) or _response_encoders(api_key, api_version, correlation_id)
    payload = codecs[0]({"correlationId": correlation_id}) + codecs[1](body)
    return SIZE.pack(len(payload)) + payload


#: The header and body codecs of each (API key, version) a listener has met, found once: looking them
#: up through the schemas costs more than decoding a heartbeat's header.
_REQUEST_DECODERS: dict[tuple[int, int], tuple[Callable[[bytes, int], tuple[Any, int]], ...]] = {}
_RESPONSE_ENCODERS: dict[tuple[int, int], tuple[Callable[[Any], bytes], ...]] = {}


def _request_decoders(api_key: int, api_version: int,
                      correlation_id: int) -> tuple[Callable[[bytes, int], tuple[Any, int]], ...]:
    request, _ = schemas_for(api_key, api_version, correlation_id)
    read = request.reader(api_version)
    codecs = (H.request_header_decoder(H.request_header_version(request, api_version)), read)
    _REQUEST_DECODERS[(api_key, api_version)] = codecs
    return codecs


def _response_encoders(api_key: int, api_version: int, correlation_id: int) -> tuple[Callable[[Any], bytes], ...]:
    _, response = schemas_for(api_key, api_version, correlation_id)
    header = H.RESPONSE_HEADER.encoder(H.response_header_version(response, api_version))
    write = response.writer(api_version)
    codecs = (header, write)
    _RESPONSE_ENCODERS[(api_key, api_version)] = codecs
    return codecs


def decode_response(payload: bytes, api_key: int, api_version: int) -> Response:
    """Decode a response frame's payload; the caller knows which request (key, version) it answers.

    A broker answers an ApiVersions request of a version it does not know with a v0 response
    (UNSUPPORTED_VERSION and its own version range), so an ApiVersions body that does not parse at
    the requested version is read again at v0, as Kafka's clients do; `api_version` says which.
    """
    _, response = schemas_for(api_key, api_version)
    header, pos = H.decode_response_header(payload, 0, H.response_header_version(response, api_version))
    read = response.reader
    try:
        body, _ = read(api_version)(payload, pos)
    except DecodeError:
        if api_key != H.API_VERSIONS_KEY or api_version == 0:
            raise
        api_version = 0
        body, _ = read(0)(payload, pos)
    return Response(header["correlationId"], api_version, body, header)
