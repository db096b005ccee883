"""The wire client's failures, each worded for the operator: what, where, and what to check.

Broker error codes become `groupctl.errors.KafkaError` (code, Kafka's name, the broker's message)
through `broker_error`, with the RPC and the broker in the message.
"""

from __future__ import annotations

from groupctl.errors import KAFKA_ERROR_NAMES, GroupctlError, KafkaError
from groupctl.kafka.deadline import seconds_text
from groupctl.protocol.messages import API_NAMES

COORDINATOR_LOAD_IN_PROGRESS = 14
COORDINATOR_NOT_AVAILABLE = 15
NOT_COORDINATOR = 16
UNSUPPORTED_SASL_MECHANISM = 33
UNSUPPORTED_VERSION = 35
SASL_AUTHENTICATION_FAILED = 58
GROUP_ID_NOT_FOUND = 69
REFUSED = "connection refused"
"""How a refused connection is worded, first in `ConnectionFailed.reason`."""


def error_name(code: int) -> str:
    """Kafka's name for an error code (`UNKNOWN_SERVER_ERROR` style), or `ERROR_<code>` for a newer one."""
    return KAFKA_ERROR_NAMES.get(code, f"ERROR_{code}")


class WireClientError(GroupctlError):
    """A failure talking to a cluster."""


class ConnectionFailed(WireClientError):
    """The broker could not be reached, or the connection broke; `address` is `host:port`.

    `timed_out` tells a silent broker (worth another try with more time) from one that said no at
    once (refused, unresolvable, closed), which another try within the same command would not change.
    """

    def __init__(self, address: str, reason: str, *, timed_out: bool = False) -> None:
        super().__init__(f"cannot reach {address}: {reason}")
        self.address = address
        self.reason = reason
        self.timed_out = timed_out

    @property
    def refused(self) -> bool:
        return self.reason.startswith(REFUSED)


class RequestTimedOut(ConnectionFailed):
    """No complete answer before the deadline; the connection is closed (its state is unknown)."""

    def __init__(self, address: str, what: str, seconds: float) -> None:
        WireClientError.__init__(self, f"{what} to {address} timed out after {seconds_text(seconds)}")
        self.address = address
        self.reason = f"{what} timed out after {seconds_text(seconds)}"
        self.timed_out = True


class TlsFailed(WireClientError):
    """The TLS handshake or the TLS settings failed; not worth trying another broker."""


class AuthenticationFailed(WireClientError):
    """SASL refused the login or could not run; not worth trying another broker."""


class ProtocolFailure(WireClientError):
    """The broker sent bytes that are not the answer to our request."""


class UnsupportedApi(WireClientError):
    """No version of an API that both sides speak; `broker_versions` is None when the broker lacks it."""

    def __init__(self, api_key: int, broker_versions: tuple[int, int] | None, ours: range, where: str) -> None:
        name = API_NAMES.get(api_key, f"API {api_key}")
        if broker_versions is None:
            message = f"{where} has no {name} (API {api_key})"
        else:
            low, high = broker_versions
            message = (
                f"{where} supports {name} (API {api_key}) v{low}-{high}; groupctl speaks v{ours.start}-{ours.stop - 1}"
            )
        super().__init__(message)
        self.api_key = api_key
        self.api_name = name
        self.broker_versions = broker_versions
        self.ours = ours
        self.where = where


class CoordinatorUnavailable(WireClientError):
    """The group coordinator stayed unavailable (loading, moving) until the deadline."""


def broker_error(code: int, message: str | None, context: str) -> KafkaError:
    """A KafkaError for a response's error code; `context` names the RPC and the broker."""
    name = KAFKA_ERROR_NAMES.get(code)
    if name is None:
        detail = f": {message}" if message else ""
        error = KafkaError("UNKNOWN_SERVER_ERROR", f"{context}: error code {code}{detail}")
        error.code = code
        return error
    error = KafkaError(name, message)
    detail = f": {error.message}" if error.message else ""
    error.args = (f"{context} failed with {name}{detail}",)
    return error
