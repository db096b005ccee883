"""--master: the URL checked, and a cluster master's address tried, before a JVM starts.

A JVM takes seconds to start, and Spark's standalone client then spends a minute retrying an
unreachable master (three registration attempts, 20 s apart) before it gives up with a Java
stack. A TCP connection to the master's address says the same in milliseconds, so it is tried
first; only the master's own answer still needs Spark (see `groupctl.spark.session`).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from groupctl.errors import GroupctlError, UsageError
from groupctl.spark.reach import PROBE_SECONDS, why_unreachable

# The masters Spark 4 accepts (SparkSubmit and SparkContext.createTaskScheduler), checked before a JVM starts.
_HOST_PORT = r"(?:\[[0-9A-Fa-f:.]+\]|[^\s,:/\[\]]+):\d{1,5}"
_MASTER = re.compile(
    r"local(\[(\*|[1-9]\d*)(,\s*[1-9]\d*)?\])?|local-cluster\[[1-9]\d*,\s*[1-9]\d*,\s*[1-9]\d*\]"
    rf"|spark://{_HOST_PORT}(,{_HOST_PORT})*|k8s://\S+|yarn"
)
MASTER_HINT = "local, local[N], local[*], spark://HOST:PORT, yarn or k8s://https://HOST:PORT"
YARN_HINT = ("--master yarn needs the cluster's client configuration: set HADOOP_CONF_DIR or YARN_CONF_DIR "
             "to the directory holding its core-site.xml and yarn-site.xml")


@dataclass(frozen=True)
class Endpoint:
    """One address a master URL names (a standalone URL may list several masters)."""

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def check_master(master: str) -> None:
    """A usage error for a --master Spark would refuse, said before a JVM starts."""
    if not _MASTER.fullmatch(master.strip()) or any(not 0 < e.port < 65536 for e in endpoints(master)):
        raise UsageError(f"--master '{master}' is not a Spark master URL; use {MASTER_HINT}")


def check_environment(master: str) -> None:
    """What a cluster master needs from the environment, said before a JVM starts (Spark says it after)."""
    if master.strip() == "yarn" and not (os.environ.get("HADOOP_CONF_DIR") or os.environ.get("YARN_CONF_DIR")):
        raise GroupctlError(YARN_HINT)


def endpoints(master: str) -> list[Endpoint]:
    """The addresses a spark:// or k8s:// master names (none for local and yarn, whose address Spark finds)."""
    master = master.strip()
    if master.startswith("spark://"):
        found = []
        for part in master.removeprefix("spark://").split(","):
            host, _, port = part.rpartition(":")
            if port.isdigit():
                found.append(Endpoint(host.strip("[]"), int(port)))
        return found
    if master.startswith("k8s://"):
        api = master.removeprefix("k8s://")
        if "://" not in api:
            api = "https://" + api  # as Spark reads a k8s master without a scheme
        try:
            url = urlsplit(api)
            api_port = url.port or (80 if url.scheme == "http" else 443)
        except ValueError:
            return []
        return [Endpoint(url.hostname, api_port)] if url.hostname else []
    return []


def probe_master(master: str, timeout: float = PROBE_SECONDS) -> None:
    """A one-line error when no address of a spark:// or k8s:// master takes a TCP connection.

    Each address gets `timeout` seconds, and the whole probe at most twice that; one that
    answers is enough, as Spark registers with whichever standalone master is alive.
    """
    found = endpoints(master)
    if not found:
        return
    deadline = time.monotonic() + 2 * timeout
    reasons = []
    for endpoint in found:
        left = min(timeout, deadline - time.monotonic())
        if left <= 0:
            reasons.append(f"{endpoint}: not tried within {2 * timeout:g} s")
            continue
        reason = why_unreachable(endpoint.host, endpoint.port, left)
        if reason is None:
            return
        reasons.append(reason if len(found) == 1 else f"{endpoint}: {reason}")
    what, check = described(master)
    raise GroupctlError(f"cannot reach {what}: {'; '.join(reasons)} — {check} check --master")


def described(master: str) -> tuple[str, str]:
    """How an error names a cluster master, and the question that goes with it."""
    if master.strip().startswith("k8s://"):
        return f"the Kubernetes API server of {master}", "is the cluster up?"
    return f"Spark master {master}", "is the master running?"
