"""Which coroutine answers which API, and what a handler is given.

Handlers live in modules named for the APIs they answer (`cluster`, `groups`, `data`, `auth`) and
register themselves with `@handles(api_key)`. A handler takes the request context and the decoded
request body (the API's generated request class, `groupctl.protocol.data`) and returns its response
class, or None when Kafka sends no response (Produce with acks=0). Fields it leaves out keep the
schema's defaults, and the encoder keeps those of the negotiated version (a non-default value in a
field that version lacks is refused unless the schema marks it ignorable). The listener runs a
handler at once and makes it a task only when it awaits (`eager`): on Python 3.11 it runs outside
any task until its first await, so `asyncio.timeout` or a `TaskGroup` must come after one there
(`asyncio.wait_for` and `asyncio.wait` may come first).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from groupctl.protocol.data.api_versions import ApiVersion
from groupctl.protocol.messages import API_SCHEMAS

if TYPE_CHECKING:
    from groupctl.server.broker import Broker

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


Handler = Callable[[RequestContext, Any], Coroutine[Any, Any, Any]]
"""A handler's body types are its API's own (a generated request class in, its response class out),
which have no common type narrower than `Data`; the registry names them `Any` so each handler can
declare its own."""


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


def api_keys() -> list[ApiVersion]:
    """ApiVersions' ApiKeys list: every registered API with its version range (also sent with
    UNSUPPORTED_VERSION, so a client can retry at a version it shares)."""
    return [ApiVersion(api_key=key, min_version=versions.start, max_version=versions.stop - 1)
            for key, versions in supported_versions().items()]


def load_handlers() -> None:
    """Import every handler module once (each registers itself on import)."""
    from groupctl.server import handler_modules  # noqa: F401 - imported for its registrations
