"""Shared fixtures: where the real broker-written vectors live (read in place, never copied), the
CLI run in-process, and the doubles for talking to a cluster: fake brokers, TLS material, a closed
port."""

from __future__ import annotations

import functools
import importlib
import inspect
import io
import json
import os
import pkgutil
import re
import signal
import socket
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings

from groupctl.cli.app import main
from groupctl.server.server import ServerOptions, ServerThread

from .audit_dumps import write_every_finding
from .fake_broker import HOST, FakeBroker
from .tls_material import make_certificates, server_context

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "kafka-consumer-offsets-vectors"
KAFKA_40_VECTORS = ROOT.parent / "shared" / "kafka-4.0-broker-vectors"
KAFKA_40_SEGMENTS = sorted(KAFKA_40_VECTORS.glob("__consumer_offsets-*/00000000000000000000.log"))
"""A Kafka 4.0.0 broker's segments, each with `.offsets-decoder.txt` beside it: what 4.0.0's
kafka-dump-log.sh printed for it (empty when the vectors are absent)."""
KAFKA_41_VECTORS = ROOT.parent / "shared" / "kafka-4.1-broker-vectors"
KAFKA_41_SHARE = KAFKA_41_VECTORS / "__consumer_offsets-41" / "00000000000000000000.log"
"""A Kafka 4.1.0 broker's segment holding the share group v41-share (types 10-15), with 4.1.0's and
4.0.0's kafka-dump-log.sh output beside it."""


# No test asserts on wall-clock time, hypothesis's tests included: its per-example deadline (200 ms) and its
# too-slow health check fail on a loaded machine, so the suite's profile turns both off. A test's own
# @settings still chooses its examples.
settings.register_profile("groupctl", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("groupctl")

REQUIRE_SHARED = os.environ.get("GROUPCTL_REQUIRE_SHARED") == "1"
"""Set by .ci/run, which has checked ../shared: there a test skipped for want of it is a failure."""
_WANTS_SHARED = re.compile(
    r"\.\./shared|shared vectors|real vectors|broker vectors|real broker segments|wire transcripts")


def wants_shared(reason: str) -> bool:
    """Whether a skip's reason is that ../shared (or a data set in it) is absent."""
    return bool(_WANTS_SHARED.search(reason))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SHARED and report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
        if wants_shared(reason):
            report.outcome = "failed"
            report.longrepr = f"GROUPCTL_REQUIRE_SHARED=1, yet this test was skipped: {reason}"


@pytest.fixture(autouse=True)
def _no_contexts_of_the_user(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests never see the contexts of whoever runs them: their config file and GROUPCTL_CONTEXT
    would select a cluster where a test expects none (tests of contexts set their own)."""
    monkeypatch.setenv("GROUPCTL_CONFIG", str(tmp_path_factory.getbasetemp() / "no-groupctl-config.toml"))
    monkeypatch.delenv("GROUPCTL_CONTEXT", raising=False)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    """A running `groupctl serve` on 127.0.0.1 (an ephemeral port) over a fresh DIR, stopped after the test;
    `served.bootstrap` is its `host:port`, `served.call(fn)` runs `fn(broker)`."""
    server = ServerThread(ServerOptions(tmp_path / "cluster", port=0))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """The shared vectors folder; tests that need it are skipped when it is absent."""
    if not VECTORS.is_dir():
        pytest.skip(f"real vectors not present at ../shared/kafka-consumer-offsets-vectors ({VECTORS})")
    return VECTORS


@pytest.fixture(scope="session")
def real_segments(vectors_dir: Path) -> list[Path]:
    """Every broker-written .log segment in the shared vectors."""
    segs = sorted((vectors_dir / "real-broker-segments").rglob("*.log"))
    if not segs:
        pytest.skip("no real broker segments found")
    return segs


@pytest.fixture(scope="session")
def every_finding(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A dump raising every audit finding kind over partition directories: [log dir, dump-log text file]."""
    return write_every_finding(tmp_path_factory.mktemp("every-finding"))


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture(autouse=True, scope="session")
def _sigpipe_stays_ignored() -> Iterator[None]:
    """The CLI gives SIGPIPE its default action so that `| head` ends it quietly. Run in-process here, that
    would let any socket a test's server or fake broker writes to after its peer left kill the whole
    pytest process (exit 141), so the in-process CLI's "default" is to keep ignoring it. `| head` is
    tested in a subprocess (tests/cli/test_app.py)."""
    patch = pytest.MonkeyPatch()
    patch.setattr("groupctl.cli.app.signal", SimpleNamespace(
        SIGPIPE=signal.SIGPIPE, SIG_DFL=signal.SIG_IGN, signal=signal.signal))
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    yield
    patch.undo()


@pytest.fixture
def cli() -> Iterator[Callable[..., Result]]:
    """`cli("dump", "locate", "g")` -> Result(code, stdout, stderr), through the real entry point, so the
    exit-code contract is what is tested."""

    def run(*args: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(list(args))
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        return Result(code, out.getvalue(), err.getvalue())

    yield run


@pytest.fixture
def fake_cluster() -> Iterator[Callable[..., list[FakeBroker]]]:
    """`fake_cluster(n=1, **FakeBroker options)`: started brokers, node ids 0..n-1, stopped afterwards."""
    created: list[FakeBroker] = []

    def make(n: int = 1, **options: Any) -> list[FakeBroker]:
        brokers = [FakeBroker(node_id=i, **options) for i in range(n)]
        for b in brokers:
            b.cluster = brokers
        created.extend(brokers)
        for b in brokers:
            b.start()
        return brokers

    try:
        yield make
    finally:
        for b in created:
            b.stop()


@pytest.fixture
def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Call(NamedTuple):
    """One call the product made into a compiled extension: its arguments and what C answered (None: declined)."""

    args: tuple[Any, ...]
    answer: Any


@pytest.fixture
def compiled_calls(monkeypatch: pytest.MonkeyPatch) -> Callable[..., dict[str, list[Call]]]:
    """`compiled_calls(extension, *names)`: from then on, every call the product makes into those functions of a
    compiled extension (`fast.built()`, `compiled.built()`) is recorded, the real function still answering.

    Product code looks each function up on the extension's module object when it dispatches, so replacing the
    module's attribute counts the product's own call sites, not a test calling C directly; calls C makes inside
    the extension are not seen. Forcing the compiled side on is the module's fixture's job (`record_loop`,
    `homogeneous_builder`), as is skipping when the extension is not built."""

    def count(extension: ModuleType, *names: str) -> dict[str, list[Call]]:
        calls: dict[str, list[Call]] = {}
        for name in names:
            calls[name] = []
            monkeypatch.setattr(extension, name, _recording(getattr(extension, name), calls[name]))
        return calls

    return count


def _recording(real: Callable[..., Any], calls: list[Call]) -> Callable[..., Any]:
    def recorded(*args: Any) -> Any:
        answer = real(*args)
        calls.append(Call(args, answer))
        return answer

    return recorded


def kafka_python_classes() -> dict[str, Any]:
    """kafka-python's ApiMessage classes by name (`ProduceRequest`, ...): the independent peer that both the
    wire client's tests (fixture `kp`) and the protocol tests compare bytes with, found one way for both."""
    from kafka.protocol.api_message import ApiMessage

    modules = [importlib.import_module("kafka.protocol.sasl")]
    for package in ("admin", "consumer", "metadata", "producer"):
        pkg = importlib.import_module(f"kafka.protocol.{package}")
        modules += [importlib.import_module(f"{pkg.__name__}.{i.name}") for i in pkgutil.iter_modules(pkg.__path__)]
    found: dict[str, Any] = {}
    for module in modules:
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, ApiMessage) and obj is not ApiMessage:
                found[name] = obj
    return found


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """`tests.tls_material`'s files; `tls_files.server_context(cert=None, key=None, require_client=False)`."""
    pytest.importorskip("cryptography")
    files = make_certificates(tmp_path_factory.mktemp("tls"))
    files.server_context = functools.partial(server_context, files)
    return files
