"""Whether a host:port takes a TCP connection, within a bound: the cheap check before a JVM starts.

Both the resolver and the connection are bounded, so a name server or a host that does not
answer costs seconds, not the minutes a JVM-side client may spend retrying.
"""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

from groupctl.errors import GroupctlError

PROBE_SECONDS = 5.0


def _resolve(host: str, port: int, timeout: float) -> list[tuple]:
    """getaddrinfo with a bound: a resolver that does not answer must not hold the command."""
    found: list[list[tuple] | BaseException] = []

    def lookup() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:
            found.append(exc)

    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(timeout)
    if not found:
        raise TimeoutError(f"the host name {host} did not resolve within {timeout:g} s")
    if isinstance(found[0], BaseException):
        raise found[0]
    return found[0]


def why_unreachable(host: str, port: int, timeout: float) -> str | None:
    """None when a TCP connection to host:port opens within `timeout` seconds, else why not."""
    deadline = time.monotonic() + timeout
    try:
        addresses = _resolve(host, port, timeout)
    except socket.gaierror:
        return f"the host name {host} does not resolve"
    except TimeoutError as exc:
        return str(exc)
    reason = "no address"
    for family, kind, proto, _, address in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            return f"no connection within {timeout:g} s"
        with socket.socket(family, kind, proto) as sock:
            sock.settimeout(left)
            try:
                sock.connect(address)
                return None
            except ConnectionRefusedError:
                reason = "connection refused"
            except TimeoutError:
                reason = f"no connection within {timeout:g} s"
            except OSError as exc:
                reason = (exc.strerror or str(exc)).lower()
    return reason


def check_namenode(uri: str, what: str, timeout: float = PROBE_SECONDS) -> None:
    """A one-line error when an hdfs://HOST:PORT URI's namenode takes no TCP connection.

    Hadoop's client retries a refused namenode for tens of seconds before Spark reports it. A URI
    without a port may name an HA nameservice that only the cluster's configuration resolves, so
    only an explicit HOST:PORT is tried.
    """
    try:
        url = urlsplit(uri)
        port = url.port
    except ValueError:
        return
    if url.scheme.lower() != "hdfs" or not url.hostname or port is None:
        return
    reason = why_unreachable(url.hostname, port, timeout)
    if reason is not None:
        raise GroupctlError(f"cannot reach the HDFS namenode of {what} '{uri}': {reason} — is HDFS up? check the URI")
