"""Test doubles for the wire client: kafka-python's encodings, client settings, a silent listener.

The fake broker (`fake_cluster`), TLS material (`tls_files`) and `closed_port` are shared with the
backend and CLI tests, in tests/conftest.py. Tests reach these through fixtures (pytest runs with
--import-mode=importlib, so a test module cannot import this conftest by name):

* `config_for(broker_or_address, **properties)` is a `ClientConfig` for a fake broker;
* `silent_listener` accepts connections and never answers;
* `kp` builds kafka-python 3.0.12 requests and responses (the independent peer) as framed bytes.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from groupctl.kafka.config import ClientConfig

from ..conftest import kafka_python_classes

HOST = "127.0.0.1"


@pytest.fixture
def config_for() -> Callable[..., ClientConfig]:
    """`config_for(broker_or_address, **properties)` with dots spelled as underscores in the keys."""

    def make(target: Any, **props: str) -> ClientConfig:
        address = target if isinstance(target, str) else target.address
        return ClientConfig.from_properties(
            {"bootstrap.servers": address, **{k.replace("_", "."): v for k, v in props.items()}}
        )

    return make


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A 127.0.0.1 port that accepts connections (the kernel's backlog) and never answers."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((HOST, 0))
    s.listen(8)
    try:
        yield int(s.getsockname()[1])
    finally:
        s.close()


# --- kafka-python, the independent peer ------------------------------------------------------------


@pytest.fixture(scope="session")
def kp() -> SimpleNamespace:
    """`kp.cls[name]` is a kafka-python ApiMessage class; `kp.frame(name, version, correlation_id,
    client_id, **fields)` its size-prefixed encoding with header; `kp.response(...)` likewise."""
    classes = kafka_python_classes()

    def frame(name: str, version: int, correlation_id: int, client_id: str | None = None, **fields: Any) -> bytes:
        obj = classes[name][version](**fields)
        if name.endswith("Request"):
            obj.with_header(correlation_id=correlation_id, client_id=client_id)
        else:
            obj.with_header(correlation_id=correlation_id)
        return bytes(obj.encode(header=True, framed=True))

    return SimpleNamespace(cls=classes, frame=frame)
