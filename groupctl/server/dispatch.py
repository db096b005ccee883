"""Which coroutine answers which API, and what a handler is given.

Handlers live in modules named for the APIs they answer (`cluster`, `groups`, `data`, `auth`) and
register themselves with `@handles(api_key)`. A handler takes the request context and the decoded
request body (a dict in the schema's JSON names) and returns the response body, or None when
Kafka sends no response (Produce with acks=0). Fields it leaves out take the schema's defaults, so a
handler may build the superset of every version's fields and the encoder keeps those of the
negotiated version. The listener runs a handler at once and makes it a task only when it awaits
(`eager`): on Python 3.11 it runs outside any task until its first await, so `asyncio.timeout` or a
`TaskGroup` must come after one there (`asyncio.wait_for` and `asyncio.wait` may come first).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from groupctl.protocol.messages import API_SCHEMAS

if TYPE_CHECKING:
    from groupctl.server.broker import Broker

Body = dict[str, Any]


@dataclass
class Session:
    """One client connection: who it is, and what it has proved so far."""

    peer: str
    listener: str = "PLAINTEXT"
    principal: str = "User:ANONYMOUS"
    authenticated: bool = True
    #: The SASL mechanism chosen by SaslHandshake, and the exchange in progress.
    mechanism: str | None = None
    exchange: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class RequestContext:
    broker: Broker
    session: Session
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None


#: A handler's body is a `Body` dict, or the generated request class for an API in `framing.TYPED_APIS` (and it
#: returns the matching response class): `Any` until every API is typed.
Handler = Callable[[RequestContext, Any], Awaitable[Any]]


@dataclass(frozen=True)
class Registration:
    handler: Handler
    versions: range


HANDLERS: dict[int, Registration] = {}


def handles(api_key: int, versions: range | None = None) -> Callable[[Handler], Handler]:
    """Register a handler for `api_key`; `versions` narrows what ApiVersions advertises (default: the
    schema's whole range)."""
    schema = API_SCHEMAS[api_key][0]

    def register(handler: Handler) -> Handler:
        if api_key in HANDLERS:
            raise ValueError(f"API {api_key} already has a handler")
        HANDLERS[api_key] = Registration(handler, versions if versions is not None else schema.versions)
        return handler

    return register


def supported_versions() -> dict[int, range]:
    """What ApiVersions advertises: every registered API and its version range."""
    load_handlers()
    return {key: reg.versions for key, reg in sorted(HANDLERS.items())}


def api_keys_body() -> list[Body]:
    """ApiVersions' ApiKeys list: every registered API with its version range (also sent with
    UNSUPPORTED_VERSION, so a client can retry at a version it shares)."""
    return [{"apiKey": key, "minVersion": versions.start, "maxVersion": versions.stop - 1}
            for key, versions in supported_versions().items()]


def load_handlers() -> None:
    """Import every handler module once (each registers itself on import)."""
    from groupctl.server import handler_modules  # noqa: F401 - imported for its registrations
