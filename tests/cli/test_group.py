"""`groupctl group` on both backends: list, describe, remove-members, config get/set/unset.

One DIR is built per module (a classic group with static members and a dynamic one, a KIP-848 group
with static members, a simple group with offsets only, a config override). Each test body runs
against the local backend (`--local DIR`) and against `groupctl serve` over a copy of DIR
(`-b 127.0.0.1:PORT`, the Kafka backend): plaintext, TLS, and SASL SCRAM, the client settings of the
last two in a --command-config file. Where the wire cannot carry what the local coordinator knows
(ListGroups has no member count, DescribeGroups no generation, LeaveGroup no per-member message),
the test states what each backend shows.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from confluent_kafka import Consumer

from groupctl.backends.local import LocalBackend
from groupctl.coordinator.classic import COMPLETING_REBALANCE, STABLE
from groupctl.coordinator.offsets import CommitPartition
from groupctl.coordinator.runtime import Caller
from groupctl.errors import GroupctlError
from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription
from tests.classic_requests import join_req, sync_req
from tests.fake_broker import coordinator_reply
from tests.heartbeats import assigned, hb
from tests.server.waits import OUTLASTS_S, WAIT_S, promptly, wait_until

from .conftest import SASL_PASSWORD

LONG_TIMEOUT = f"{OUTLASTS_S:.0f}s"  # a --timeout the command must not wait out

FORMATS = ("table", "wide", "json", "yaml", "csv")

#: The session timeout of the DIRs' classic members: group.max.session.timeout.ms. A served copy runs on the
#: wall clock and these members never heartbeat, so they must outlast the slowest test on a loaded machine.
SESSION_MS = 1_800_000


def _classic_group(b: LocalBackend, group: str, topic: str, partitions: int, members: list[str | None]) -> dict:
    """Classic consumers (an instance id each, or None for a dynamic one) joined, synced, Stable.

    Returns instance id (or "dynamic-N") -> member id.
    """
    c = b.coordinator
    subscription = encode_subscription({"topics": [topic], "userData": None}, 0)
    ids: dict[str, str] = {}
    responses: dict[str, list] = {}

    def answered(name: str):
        def respond(response) -> None:
            responses[name].append(response)
            if response.member_id:
                ids[name] = response.member_id
        return respond

    for n, instance in enumerate(members):
        name = instance or f"dynamic-{n}"
        responses[name] = []
        for _ in range(2):  # a dynamic member first gets MEMBER_ID_REQUIRED, then joins with that id
            c.join_group(join_req(group, SESSION_MS, 30_000, ids.get(name, ""), instance,
                                  protocols=[("range", subscription)]), answered(name),
                         Caller(client_id=f"app-{name}", client_host=f"/10.0.0.{n + 1}"))
            if not responses[name] or responses[name][-1].error_code == 0:
                break
    state = c.classic.groups[group]
    for _ in range(40):
        if state.state == COMPLETING_REBALANCE:
            break
        c.advance(1000)
    assert state.state == COMPLETING_REBALANCE
    joined = [r[-1] for r in responses.values() if r and r[-1].error_code == 0]
    leader_response = next(r for r in joined if r.members)
    order = [m.member_id for m in leader_response.members]
    assignments = []
    for i, member_id in enumerate(order):
        mine = [p for p in range(partitions) if p % len(order) == i]
        assignments.append((member_id, encode_assignment(
            {"assignedPartitions": [{"topic": topic, "partitions": mine}], "userData": None}, 0)))
    by_member = {v: k for k, v in ids.items()}
    for member_id in sorted(order, key=lambda m: m == state.leader):  # the leader syncs last
        instance = by_member[member_id]
        c.sync_group(sync_req(group, state.generation, member_id, None if instance.startswith("dynamic-")
                              else instance, assignments=assignments if member_id == state.leader else []),
                     lambda r: None)
    assert state.state == STABLE
    for p in range(partitions):
        owner = order[p % len(order)]
        instance = by_member[owner]
        c.commit_offsets(group, owner, state.generation, [CommitPartition(topic, p, 100 + p)],
                         instance_id=None if instance.startswith("dynamic-") else instance)
    return ids


def _consumer_group(b: LocalBackend, group: str, topic: str, instances: list[str]) -> None:
    """KIP-848 members, each acknowledging what it gets, heartbeating until the group is Stable."""
    c = b.coordinator
    topic_id = b.topics.get(topic).topic_id
    owned: dict[str, tuple[int, list]] = {}
    for instance in instances:
        r = c.heartbeat(hb(group, f"member-{instance}", 0, instance_id=instance,
                           rebalance_timeout_ms=30_000, subscribed_topic_names=[topic],
                           topic_partitions=[]), Caller(client_id=f"app-{instance}"))
        assert r.error_code == 0, r
        owned[f"member-{instance}"] = (r.member_epoch, sorted((assigned(r) or {}).items()))
    for _ in range(10):
        if c.describe(group).state == "Stable":
            break
        for member_id, (epoch, parts) in list(owned.items()):
            r = c.heartbeat(hb(group, member_id, epoch, topic_partitions=parts),
                            Caller(client_id=member_id.replace("member-", "app-")))
            assert r.error_code == 0, r
            owned[member_id] = (r.member_epoch, sorted(assigned(r).items()) if r.assignment is not None else parts)
    assert c.describe(group).state == "Stable"
    for member_id, (epoch, parts) in owned.items():
        commits = [CommitPartition(topic, p, 40) for t, ps in parts if t == topic_id for p in ps]
        c.commit_offsets(group, member_id, epoch, commits)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("group") / "local"
    with LocalBackend(directory, create=True) as b:
        b.coordinator.create_topic("orders", 6)
        b.coordinator.create_topic("payments", 4)
        b.coordinator.create_topic("invoices", 1)
        b.end_offsets_by_topic.update(orders=[150] * 6, payments=[50] * 4, invoices=[900])
        _classic_group(b, "orders-app", "orders", 6, ["orders-0", "orders-1", "orders-2", None])
        _consumer_group(b, "payments-app", "payments", ["pod-0", "pod-1", "pod-2"])
        b.coordinator.commit_offsets("billing", "", -1, [CommitPartition("invoices", 0, 500)])
        b.alter_config("payments-app", {"consumer.session.timeout.ms": "50000"}, [])
    return directory


@pytest.fixture
def local(template: Path, tmp_path: Path) -> Path:
    """A copy of the module's DIR that a test may change."""
    shutil.copytree(template, tmp_path / "local")
    return tmp_path / "local"


@pytest.fixture(params=("local", "serve", "serve-tls", "serve-sasl-scram"))
def backend(request: pytest.FixtureRequest) -> str:
    """Where the groups live: the local backend, or `groupctl serve` (plaintext, TLS, SASL SCRAM)."""
    return request.param


@dataclass
class Target:
    """A cluster holding the module's groups, as the command line selects it."""

    args: tuple[str, ...]
    location: str  # how messages name it
    coordinator: str  # the COORDINATOR (ID) column
    local: bool


def _target(backend: str, directory: Path, request: pytest.FixtureRequest) -> Target:
    if backend == "local":
        return Target(("--local", str(directory)), f"local {directory}", f"{directory} (1)", True)
    served = request.getfixturevalue("serve")(directory, backend)
    return Target(served.args, served.location, f"{served.location} (1)", False)


@pytest.fixture
def cluster(backend: str, template: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Target:
    """The module's groups, not to be changed: DIR itself locally, a served copy otherwise."""
    if backend == "local":
        return _target(backend, template, request)
    shutil.copytree(template, tmp_path / "served")
    return _target(backend, tmp_path / "served", request)


@pytest.fixture
def scratch(backend: str, local: Path, request: pytest.FixtureRequest) -> Target:
    """A copy of the module's groups that the test may change."""
    return _target(backend, local, request)


def _rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line.strip()]


def _items(cli, *args: str, kind: str) -> list[dict]:
    r = cli(*args, "-o", "json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert (doc["apiVersion"], doc["kind"]) == ("groupctl/v1", kind)
    return doc["items"]


# -- cluster selection --------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("group", "list"),
    ("group", "describe", "g"),
    ("group", "remove-members", "g", "--instance-id", "a", "--yes"),
    ("group", "config", "get", "g"),
    ("group", "config", "set", "g", "consumer.session.timeout.ms=50000"),
    ("group", "config", "unset", "g", "consumer.session.timeout.ms"),
])
def test_no_cluster_selected_is_a_usage_error_naming_both_options(cli, monkeypatch, args):
    for variable in ("GROUPCTL_LOCAL", "GROUPCTL_BOOTSTRAP_SERVER", "GROUPCTL_COMMAND_CONFIG"):
        monkeypatch.delenv(variable, raising=False)
    r = cli(*args)
    assert r.code == 2
    assert "--local DIR" in r.err and "--bootstrap-server HOST:PORT" in r.err and "GROUPCTL_BOOTSTRAP_SERVER" in r.err
    assert "Traceback" not in r.err and r.out == ""


def test_local_from_the_environment(cli, monkeypatch, template):
    monkeypatch.setenv("GROUPCTL_LOCAL", str(template))
    r = cli("group", "list")
    assert r.code == 0 and "orders-app" in r.out


def test_a_directory_without_a_coordinator(cli, tmp_path):
    r = cli("group", "list", "--local", str(tmp_path))
    assert r.code == 1 and "holds no local coordinator" in r.err


def test_notices_of_the_backend_go_to_stderr(cli, local):
    segment = next((local / "__consumer_offsets-0").glob("*.log"))
    segment.write_bytes(segment.read_bytes() + b"\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00")  # a torn last batch
    r = cli("group", "list", "--local", str(local))
    assert r.code == 0, r.err
    assert r.err.startswith("groupctl: note: ") and "too few for a batch header (a write cut short)" in r.err
    assert "orders-app" in r.out


# -- a Kafka cluster: selection, client settings, failures in bounded time --------------------------------

KAFKA_COMMANDS = [
    ("group", "list"),
    ("group", "describe", "orders-app"),
    ("group", "remove-members", "orders-app", "-i", "orders-0", "--yes"),
    ("group", "config", "get", "orders-app"),
    ("group", "config", "set", "orders-app", "consumer.session.timeout.ms=50000"),
    ("regex", "validate", "--from-cluster", "orders.*"),
]


def test_bootstrap_server_from_the_environment(cli, monkeypatch, serve, local):
    served = serve(local, "serve")
    monkeypatch.delenv("GROUPCTL_LOCAL", raising=False)
    monkeypatch.setenv("GROUPCTL_BOOTSTRAP_SERVER", served.location)
    r = cli("group", "list")
    assert r.code == 0, r.err
    assert [row[0] for row in _rows(r.out)[1:]] == ["billing", "orders-app", "payments-app"]


def test_the_command_config_file_may_name_the_cluster(cli, monkeypatch, serve, local, tmp_path):
    served = serve(local, "serve")
    config = tmp_path / "client.properties"
    config.write_text(f"# the same file kafka-consumer-groups.sh takes\nbootstrap.servers={served.location}\n")
    monkeypatch.delenv("GROUPCTL_LOCAL", raising=False)
    monkeypatch.setenv("GROUPCTL_COMMAND_CONFIG", str(config))
    r = cli("group", "describe", "billing", "--state")
    assert r.code == 0, r.err
    assert _rows(r.out)[1][:3] == ["billing", served.location, "(1)"]


def test_a_command_config_that_cannot_be_read_is_a_usage_error(cli, tmp_path, monkeypatch):
    missing = tmp_path / "client.properties"
    r = cli("group", "list", "-b", "127.0.0.1:9", "--command-config", str(missing))
    assert r.code == 2 and r.out == ""
    assert r.err == (f"groupctl: error: --command-config {missing}: no such file; give the client properties file "
                     "(what kafka-consumer-groups.sh --command-config takes)\n")
    monkeypatch.setenv("GROUPCTL_COMMAND_CONFIG", str(tmp_path))
    r = cli("group", "list", "-b", "127.0.0.1:9")
    assert r.code == 2 and f"GROUPCTL_COMMAND_CONFIG (--command-config) {tmp_path} is a directory" in r.err


@pytest.mark.parametrize("kafka", [("-b", "127.0.0.1:9092"), ("--command-config", "client.properties"),
                                   ("-X", "client.id=ops")])
def test_local_and_a_kafka_cluster_together_is_a_usage_error(cli, template, kafka):
    r = cli("group", "list", "--local", str(template), *kafka)
    assert r.code == 2 and "selects the in-process coordinator and" in r.err and "give one of them" in r.err


def test_a_cluster_from_the_environment_is_named_in_the_conflict(cli, monkeypatch, template):
    monkeypatch.setenv("GROUPCTL_LOCAL", str(template))
    r = cli("group", "list", "-b", "127.0.0.1:9092")
    assert r.code == 2
    assert "GROUPCTL_LOCAL (--local) selects the in-process coordinator and --bootstrap-server a Kafka cluster" in r.err


@pytest.mark.parametrize("secret", [
    "sasl.password=hunter2",
    'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password="hunter2";',
    "ssl.key.password=hunter2",
    "ssl.keystore.password=hunter2",
])
def test_secrets_are_refused_on_the_command_line(cli, secret):
    r = cli("group", "list", "-b", "127.0.0.1:9092", "-X", "client.id=ops", "-X", secret)
    assert r.code == 2 and r.out == ""
    assert f"-X {secret.split('=')[0]}=...: secrets are not taken from the command line" in r.err
    assert "--command-config file" in r.err and "GROUPCTL_SASL_PASSWORD or GROUPCTL_SSL_KEY_PASSWORD" in r.err
    assert "hunter2" not in r.err


def test_debug_shows_the_client_settings_with_secrets_redacted(cli, serve, local):
    served = serve(local, "serve-sasl-scram")
    r = cli("--debug", "group", "list", *served.args)
    assert r.code == 0, r.err
    assert f"groupctl: client settings for {served.location}: " in r.err
    assert "sasl.mechanisms=SCRAM-SHA-512" in r.err and "sasl.password=[redacted]" in r.err
    assert SASL_PASSWORD not in r.err + r.out


@pytest.mark.parametrize("args", KAFKA_COMMANDS)
def test_an_unreachable_bootstrap_server_fails_at_once(cli, closed_port, args):
    with promptly("a refused connection is an answer, not the --timeout waited out"):
        r = cli(*args, "-b", f"127.0.0.1:{closed_port}", "--timeout", LONG_TIMEOUT)
    assert r.code == 1 and r.out == ""
    assert r.err == (f"groupctl: error: cannot reach 127.0.0.1:{closed_port}: no bootstrap server answered "
                     f"(127.0.0.1:{closed_port}: connection refused); check bootstrap.servers / "
                     "--bootstrap-server and that the brokers run and are reachable\n")


@pytest.mark.parametrize("args", KAFKA_COMMANDS[::3])
def test_a_broker_that_never_answers_costs_the_timeout_and_no_more(cli, args):
    with socket.socket() as silent:  # connections wait in its backlog, unanswered
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        start = time.monotonic()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        with promptly("the 1 s --timeout, not the 30 s default"):
            r = cli(*args, "-b", address, "--timeout", "1s")
        assert time.monotonic() - start > 0.9  # the --timeout, waited out
    assert r.code == 1
    # the request's own budget is what was left of the second once connected: 1.0 s, or just under it (in ms)
    assert re.search(rf"cannot reach {re.escape(address)}: no bootstrap server answered within 1\.0 s "
                     rf"\({re.escape(address)}: ApiVersions v3 timed out after (1\.0 s|1000 ms|9\d\d ms)\)",
                     r.err), r.err


@pytest.mark.parametrize("args", KAFKA_COMMANDS[::3])
def test_a_hung_bootstrap_server_costs_seconds_then_the_next_one_answers(cli, serve, local, args):
    served = serve(local, "serve")
    with socket.socket() as hung:  # accepts (the kernel's backlog) and never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(8)
        servers = f"127.0.0.1:{hung.getsockname()[1]},{served.location}"
        with promptly("the 5 s connection setup bound, not the --timeout"):
            r = cli(*args, "-b", servers, "--timeout", LONG_TIMEOUT)
    assert r.code in (0, 3), r.err  # remove-members may find the member already gone: a per-member result
    assert "timed out" not in r.err


@pytest.mark.parametrize("args", KAFKA_COMMANDS[::3])
def test_a_wrong_password_is_explained(cli, serve, local, monkeypatch, args):
    served = serve(local, "serve-sasl-scram")
    monkeypatch.setenv("GROUPCTL_SASL_PASSWORD", "not-the-password")
    with promptly("a failed login is an answer, not the --timeout waited out"):
        r = cli(*args, *served.args, "--timeout", LONG_TIMEOUT)
    assert r.code == 1 and r.out == ""
    error = r.err.splitlines()[-1]  # the served broker logs the failed login on the same stderr, in-process
    assert error.startswith("groupctl: error: authentication failed for user alice with SCRAM-SHA-512 on ")
    assert "(SASL_AUTHENTICATION_FAILED: Authentication failed during authentication due to invalid credentials" \
        in error
    assert error.endswith("; check sasl.username/sasl.password (or the credentials in sasl.jaas.config)")


@pytest.mark.parametrize("args", [("group", "describe", "orders-app"), ("group", "config", "get", "orders-app")])
def test_every_connection_is_closed_when_the_command_ends(cli, serve, local, args):
    served = serve(local, "serve")
    assert cli(*args, *served.args).code == 0
    wait_until(lambda: served.server.server.connection_count == 0, "the server sees every connection closed")


@pytest.mark.parametrize("mechanism", ["GSSAPI", "OAUTHBEARER"])
def test_mechanisms_the_wire_client_lacks_are_named(cli, serve, local, mechanism):
    served = serve(local, "serve")
    r = cli("group", "describe", "orders-app", *served.args, "-X", "security.protocol=SASL_PLAINTEXT",
            "-X", f"sasl.mechanism={mechanism}", "--timeout", "5s")
    assert r.code == 1 and r.out == ""
    assert r.err.startswith(f"groupctl: error: SASL mechanism {mechanism} is not supported by groupctl's wire client")
    assert "describe, list, remove-members" in r.err


def test_a_removed_member_whose_process_still_runs_is_reported(cli, serve, tmp_path):
    served = serve(tmp_path / "lab", "serve")
    served.server.call(lambda b: b.backend.create_topic("orders", 2))
    served.server.call(lambda b: setattr(b.coordinator.classic, "initial_delay_ms", 0))
    consumer = Consumer({"bootstrap.servers": served.location, "group.id": "shop", "group.instance.id": "pod-0",
                         "session.timeout.ms": 6000, "heartbeat.interval.ms": 300, "log_level": 0})
    assigned = threading.Event()
    stop = threading.Event()
    consumer.subscribe(["orders"], on_assign=lambda c, partitions: assigned.set())

    def poll() -> None:
        while not stop.is_set():
            consumer.poll(0.1)

    polling = threading.Thread(target=poll, daemon=True)
    polling.start()
    try:
        assert assigned.wait(WAIT_S), "the consumer did not join"
        r = cli("group", "remove-members", "shop", "-i", "pod-0", "--yes", "--verify-after", "3", *served.args,
                "-o", "json")
        assert r.code == 0, r.err
        (item,) = r.json()["items"]
        assert (item["removed"], item["rejoined"]) == (True, True)
        assert "groupctl: warning: instance 'pod-0' is back in group 'shop' 3 s after its removal" in r.err
        assert r.err.rstrip().endswith("its process still runs: stop it, or it rejoins")
    finally:
        stop.set()
        polling.join(10)
        consumer.close()  # a static member leaves no LeaveGroup behind: it stays until removed
    r = cli("group", "remove-members", "shop", "-i", "pod-0", "--yes", "--verify-after", "1", *served.args,
            "-o", "json")
    assert r.code == 0, r.err
    assert [(i["removed"], i["rejoined"]) for i in r.json()["items"]] == [(True, False)]
    assert "warning" not in r.err


# -- group list -----------------------------------------------------------------------------------------


def test_list(cli, cluster):
    r = cli("group", "list", *cluster.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "TYPE", "STATE"]
    assert rows[1:] == [["billing", "classic", "Empty"], ["orders-app", "classic", "Stable"],
                        ["payments-app", "consumer", "Stable"]]
    wide = _rows(cli("group", "list", *cluster.args, "-o", "wide").out)
    assert wide[0] == ["GROUP", "TYPE", "STATE", "PROTOCOL-TYPE", "MEMBERS", "MIXED"]
    counts = ["0", "4", "3"] if cluster.local else ["-", "-", "-"]  # ListGroups carries no member count
    # MIXED: known locally; on a cluster, wide output describes the consumer groups to tell
    assert wide[1:] == [["billing", "classic", "Empty", "-", counts[0], "-"],
                        ["orders-app", "classic", "Stable", "consumer", counts[1], "-"],
                        ["payments-app", "consumer", "Stable", "consumer", counts[2], "-"]]


def test_list_every_format(cli, cluster, checks):
    checks.every_format(("group", "list", *cluster.args), "GroupList",
                   ["GROUP", "TYPE", "STATE"], ["PROTOCOL-TYPE", "MEMBERS", "MIXED"])
    items = _items(cli, "group", "list", *cluster.args, kind="GroupList")
    # Without -o wide a cluster's consumer groups are not described, so whether they are mixed is unknown.
    assert items[2] == {"groupId": "payments-app", "type": "consumer", "state": "Stable",
                        "protocolType": "consumer", "members": 3 if cluster.local else None,
                        "mixed": False if cluster.local else None}
    assert items[0]["mixed"] is False  # a classic group never is
    r = cli("-o", "csv", "group", "list", *cluster.args)  # the global -o
    assert r.out.splitlines()[0] == "group,type,state,protocolType,members,mixed"


def test_list_filters_are_case_insensitive(cli, cluster):
    def groups(*args: str) -> list[str]:
        return [i["groupId"] for i in _items(cli, "group", "list", *cluster.args, *args, kind="GroupList")]

    assert groups("--type", "CONSUMER") == ["payments-app"]
    assert groups("--type", "classic,consumer", "--state", "stable") == ["orders-app", "payments-app"]
    assert groups("--state", "empty", "--state", "Assigning") == ["billing"]
    assert groups("--type", "share,streams") == []


@pytest.mark.parametrize(("args", "message"), [
    (("--type", "classic,cosumer"), "unknown type 'cosumer' in --type; valid types (any case): classic, consumer, "
                                    "share, streams"),
    (("--state", "Rebalancing"), "unknown state 'Rebalancing' in --state; valid states (any case): Empty, "
                                 "PreparingRebalance, CompletingRebalance, Stable, Dead, Assigning, Reconciling"),
])
def test_list_rejects_unknown_types_and_states(cli, cluster, args, message):
    r = cli("group", "list", *cluster.args, *args)
    assert r.code == 2 and message in r.err


# -- group describe -------------------------------------------------------------------------------------


def test_describe_offsets_is_the_default(cli, cluster):
    r = cli("group", "describe", "orders-app", *cluster.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID",
                       "HOST", "CLIENT-ID"]
    assert sorted((row[:6] for row in rows[1:]), key=lambda row: int(row[2])) == [
        ["orders-app", "orders", str(p), str(100 + p), "150", str(50 - p)] for p in range(6)]
    # As kafka-consumer-groups.sh orders them: members with the most partitions first, each member's
    # partitions in order.
    by_member: dict[str, list[int]] = {}
    for row in rows[1:]:
        by_member.setdefault(row[6], []).append(int(row[2]))
    assert [row[6] for row in rows[1:]] == [m for m, ps in by_member.items() for _ in ps]
    assert [len(ps) for ps in by_member.values()] == [2, 2, 1, 1]
    assert all(ps == sorted(ps) for ps in by_member.values())
    assert rows[1:] == _rows(cli("group", "describe", "orders-app", "--offsets", *cluster.args).out)[1:]


def test_describe_offsets_json_carries_the_lag_the_table_shows(cli, cluster):
    (item,) = _items(cli, "group", "describe", "orders-app", "--offsets", *cluster.args, kind="GroupDescription")
    assert sorted((o["partition"], o["offset"], o["logEndOffset"], o["lag"]) for o in item["offsets"]) == [
        (p, 100 + p, 150, 50 - p) for p in range(6)]


def test_describe_shows_the_log_end_offset_of_a_partition_never_committed(cli, backend, local, request):
    with LocalBackend(local) as b:
        r = b.coordinator.heartbeat(hb("fresh-app", "member-new", 0, rebalance_timeout_ms=30_000,
                                       subscribed_topic_names=["invoices"], topic_partitions=[]),
                                    Caller(client_id="app-new"))
        assert r.error_code == 0, r
    target = _target(backend, local, request)
    out = cli("group", "describe", "fresh-app", *target.args, "-o", "csv")
    assert out.code == 0, out.err
    (row,) = list(csv.DictReader(io.StringIO(out.out)))
    assert (row["topic"], row["partition"], row["currentOffset"], row["logEndOffset"], row["lag"]) == (
        "invoices", "0", "", "900", "")
    assert row["consumerId"] == "member-new"


def test_describe_members(cli, cluster):
    r = cli("group", "describe", "payments-app", "--members", *cluster.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "PROTOCOL", "MEMBER-EPOCH",
                       "#PARTITIONS"]
    assert sorted(row[2] for row in rows[1:]) == ["pod-0", "pod-1", "pod-2"]
    assert {row[5] for row in rows[1:]} == {"consumer"}
    assert sum(int(row[7]) for row in rows[1:]) == 4
    verbose = cli("group", "describe", "payments-app", "--members", "--verbose", *cluster.args)
    head = verbose.out.splitlines()[0].split()
    assert head[-5:] == ["CURRENT-ASSIGNMENT", "TARGET-ASSIGNMENT", "PENDING-REVOCATION", "SUBSCRIPTION", "UPGRADED"]
    assert [line.split()[-1] for line in verbose.out.splitlines()[1:]] == ["true"] * 3
    assert "payments:" in verbose.out
    assert verbose.out == cli("group", "describe", "payments-app", "--members", "-o", "wide",
                              *cluster.args).out
    classic = cli("group", "describe", "orders-app", "--members", "--verbose", *cluster.args)
    assert [line.split()[-1] for line in classic.out.splitlines()] == ["UPGRADED"] + ["-"] * 4  # a classic group


def test_describe_state(cli, cluster):
    r = cli("group", "describe", "--all", "--state", *cluster.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["GROUP", "COORDINATOR", "(ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH",
                       "ASSIGNMENT-EPOCH", "#MEMBERS", "CONVERGED", "MIGRATION"]
    by_group = {row[0]: row for row in rows[1:]}
    assert set(by_group) == {"billing", "orders-app", "payments-app"}
    generation = "1" if cluster.local else "-"  # DescribeGroups carries no generation
    assert by_group["orders-app"][3:] == ["range", "Stable", generation, "-", "4", "yes", "-"]
    assert by_group["payments-app"][3:6] == ["uniform", "Stable", by_group["payments-app"][6]]
    assert by_group["payments-app"][7:] == ["3", "yes", "-"]
    assert by_group["orders-app"][1:3] == cluster.coordinator.split()


def test_describe_every_format_and_view(cli, cluster, checks):
    base = ("group", "describe", "orders-app", "payments-app", *cluster.args)
    checks.every_format((*base, "--offsets"), "GroupDescription", ["CURRENT-OFFSET", "LAG"], ["LEADER-EPOCH"])
    checks.every_format((*base, "--members"), "GroupDescription", ["MEMBER-EPOCH"], ["TARGET-ASSIGNMENT"])
    checks.every_format((*base, "--state"), "GroupDescription", ["GROUP-EPOCH", "CONVERGED"], ["TYPE"])
    items = _items(cli, *base, kind="GroupDescription")
    assert [(i["groupId"], i["type"], i["converged"]) for i in items] == [("orders-app", "classic", True),
                                                                          ("payments-app", "consumer", True)]
    orders = items[0]
    assert sorted(m["instanceId"] or "-" for m in orders["members"]) == ["-", "orders-0", "orders-1", "orders-2"]
    assert [o["logEndOffset"] for o in orders["offsets"]] == [150] * 6


def test_describe_all_narrowed_by_type(cli, cluster):
    items = _items(cli, "group", "describe", "--all", "--type", "consumer", *cluster.args,
                   kind="GroupDescription")
    assert [i["groupId"] for i in items] == ["payments-app"]


def test_describe_empty_group_notes_it(cli, cluster):
    r = cli("group", "describe", "billing", *cluster.args)
    assert r.code == 0
    assert _rows(r.out)[1][:6] == ["billing", "invoices", "0", "500", "900", "400"]
    assert "group 'billing' has no active members" in r.err


def test_describe_unknown_group(cli, cluster):
    with promptly("GROUP_ID_NOT_FOUND is an answer, not something to wait out for the 30 s default"):
        r = cli("group", "describe", "nope", *cluster.args)
    assert r.code == 1
    assert r.err.strip() == f"groupctl: error: group 'nope' does not exist on {cluster.location}"
    r = cli("group", "describe", "orders-app", "nope", "--state", *cluster.args)
    assert r.code == 3 and "orders-app" in r.out
    assert f"group 'nope' does not exist on {cluster.location}" in r.err
    r = cli("group", "describe", "nope", "nada", *cluster.args, "-o", "json")
    assert r.code == 1 and json.loads(r.out)["items"] == []


@pytest.mark.parametrize(("args", "message"), [
    (("orders-app", "--members", "--state"), "only one of --members, --offsets and --state"),
    (("orders-app", "--all"), "not both"),
    ((), "name the groups to describe (GROUP... or --group GROUP), or pass --all"),
    (("--group", "orders-app", "--all-groups"), "not both"),
    (("orders-app", "--type", "classic"), "--type narrows --all"),
    (("--all", "--type", "nope"), "unknown type 'nope'"),
])
def test_describe_usage_errors(cli, cluster, args, message):
    r = cli("group", "describe", *args, *cluster.args)
    assert r.code == 2 and message in r.err


# -- group remove-members -------------------------------------------------------------------------------


def _members(cli, target: Target, group: str) -> list[str]:
    (item,) = _items(cli, "group", "describe", group, *target.args, kind="GroupDescription")
    return sorted(m["instanceId"] or m["memberId"] for m in item["members"])


def test_remove_static_members_of_a_consumer_group(cli, scratch):
    r = cli("group", "remove-members", "payments-app", "--instance-id", "pod-1,pod-2", "--yes", *scratch.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[0] == ["INSTANCE-ID", "MEMBER-ID", "RESULT", "PARTITIONS"]
    assert [row[:3] for row in rows[1:]] == [["pod-1", "member-pod-1", "removed"], ["pod-2", "member-pod-2", "removed"]]
    assert all(row[3].startswith("payments:") for row in rows[1:])
    assert "members to remove" in r.err and "pod-1" in r.err  # the plan, shown before the removal
    assert _members(cli, scratch, "payments-app") == ["pod-0"]


def test_remove_members_of_a_classic_group_by_instance_and_member_id(cli, scratch):
    (item,) = _items(cli, "group", "describe", "orders-app", *scratch.args, kind="GroupDescription")
    dynamic = next(m["memberId"] for m in item["members"] if m["instanceId"] is None)
    items = _items(cli, "group", "remove-members", "orders-app", "-i", "orders-2", "--member-id", dynamic, "--yes",
                   *scratch.args, kind="MemberRemoval")
    assert [(i["instanceId"], i["memberId"], i["outcome"], i["removed"]) for i in items] == [
        ("orders-2", items[0]["memberId"], "removed", True), (None, dynamic, "removed", True)]
    assert items[0]["memberId"].startswith("orders-2-")
    assert items[0]["partitions"] and {tp["topic"] for tp in items[0]["partitions"]} == {"orders"}


def test_a_kip848_member_cannot_be_named_by_member_id(cli, scratch):
    args = ("group", "remove-members", "payments-app", "--member-id", "member-pod-0", "--yes", *scratch.args)
    (planned,) = _items(cli, *args, "--dry-run", kind="MemberRemoval")
    assert planned["outcome"] == "UNKNOWN_MEMBER_ID" and "--instance-id" in planned["message"]
    r = cli(*args, "-o", "json")
    assert r.code == 3
    (result,) = json.loads(r.out)["items"]
    # LeaveGroup answers per member with a code only; the local coordinator also says why.
    message = ("Member member-pod-0 does not use the classic protocol." if scratch.local
               else "The coordinator is not aware of this member.")
    assert (result["outcome"], result["message"]) == ("UNKNOWN_MEMBER_ID", message)


def test_classic_removal_is_seen_by_the_next_invocation(cli, scratch):
    assert cli("group", "remove-members", "orders-app", "-i", "orders-2", "--yes", *scratch.args).code == 0
    assert "orders-2" not in _members(cli, scratch, "orders-app")


def test_unknown_instance_id_is_a_partial_failure_with_its_row(cli, scratch):
    with promptly("UNKNOWN_MEMBER_ID is an answer, not something to wait out for the 30 s default"):
        r = cli("group", "remove-members", "payments-app", "-i", "pod-0", "-i", "pod-9", "--yes", "--reason",
                "scale to 2", *scratch.args)
    assert r.code == 3
    rows = _rows(r.out)
    assert rows[1][:3] == ["pod-0", "member-pod-0", "removed"]
    assert rows[2] == ["pod-9", "-", "UNKNOWN_MEMBER_ID", "-"]
    assert "1 of 2 members was not removed from group 'payments-app'" in r.err
    wide = cli("group", "remove-members", "payments-app", "-i", "pod-9", "--yes", "-o", "wide", *scratch.args)
    message = "Instance id pod-9 is unknown." if scratch.local else "The coordinator is not aware of this member."
    assert wide.code == 3 and message in wide.out


def test_remove_members_every_format(cli, scratch):
    for n, fmt in enumerate(FORMATS):
        r = cli("group", "remove-members", "orders-app", "-i", f"orders-{n % 3}", "-i", "ghost", "--yes", "-o", fmt,
                *scratch.args)
        assert r.code == 3, (fmt, r.err)
        if fmt in ("table", "wide"):
            assert "UNKNOWN_MEMBER_ID" in r.out and ("MESSAGE" in r.out) == (fmt == "wide")
        elif fmt in ("json", "yaml"):
            doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
            assert doc["kind"] == "MemberRemoval" and doc["items"][1]["outcome"] == "UNKNOWN_MEMBER_ID"
        else:
            rows = list(csv.reader(io.StringIO(r.out)))
            assert rows[0] == ["instanceId", "memberId", "result", "partitions", "message"]
            assert rows[2][:3] == ["ghost", "", "UNKNOWN_MEMBER_ID"]


def test_dry_run_shows_the_plan_and_changes_nothing(cli, scratch):
    r = cli("group", "remove-members", "payments-app", "-i", "pod-0,pod-9", "--dry-run", *scratch.args)
    assert r.code == 0, r.err
    rows = _rows(r.out)
    assert rows[1][:3] == ["pod-0", "member-pod-0", "would-remove"] and rows[1][3].startswith("payments:")
    assert rows[2][:3] == ["pod-9", "-", "UNKNOWN_MEMBER_ID"]
    assert "dry run: nothing was removed" in r.err
    items = _items(cli, "group", "remove-members", "payments-app", "-i", "pod-0", "--dry-run", *scratch.args,
                   kind="MemberRemoval")
    assert items[0]["dryRun"] is True and items[0]["removed"] is False
    assert _members(cli, scratch, "payments-app") == ["pod-0", "pod-1", "pod-2"]


def test_from_file_with_comments_duplicates_and_stdin(cli_input, scratch, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("# scaled down from 3 to 1\npod-1\n\npod-2   # last one\npod-1\n")
    r = cli_input("group", "remove-members", "payments-app", "--from-file", str(ids), "-i", "pod-2", "--dry-run",
                  *scratch.args)
    assert r.code == 0, r.err
    assert [row[0] for row in _rows(r.out)[1:]] == ["pod-2", "pod-1"]  # options first, then the file; each once
    r = cli_input("group", "remove-members", "payments-app", "--from-file", "-", "--yes", *scratch.args,
                  input="pod-1\npod-2\n")
    assert r.code == 0, r.err
    assert _members(cli_input, scratch, "payments-app") == ["pod-0"]


def test_confirmation_on_a_terminal(cli_input, scratch):
    args = ("group", "remove-members", "payments-app", "-i", "pod-1", *scratch.args)
    r = cli_input(*args, input="n\n", tty=True)
    assert r.code == 1 and "Remove 1 member from group 'payments-app'" in r.err
    assert r.err.endswith("groupctl: not confirmed: nothing changed (no member was removed from group "
                          "'payments-app')\n") and r.out == ""
    assert _members(cli_input, scratch, "payments-app") == ["pod-0", "pod-1", "pod-2"]
    r = cli_input(*args, input="yes\n", tty=True)
    assert r.code == 0, r.err
    assert _rows(r.out)[1][:3] == ["pod-1", "member-pod-1", "removed"]
    assert _members(cli_input, scratch, "payments-app") == ["pod-0", "pod-2"]


def test_no_terminal_and_no_yes_is_refused(cli_input, scratch):
    r = cli_input("group", "remove-members", "payments-app", "-i", "pod-1", *scratch.args, tty=False)
    assert r.code == 2 and "pass --yes" in r.err
    r = cli_input("group", "remove-members", "payments-app", "--from-file", "-", *scratch.args, tty=True)
    assert r.code == 2 and "pass --yes" in r.err
    assert _members(cli_input, scratch, "payments-app") == ["pod-0", "pod-1", "pod-2"]


@pytest.mark.parametrize(("args", "code", "message"), [
    (("nope", "-i", "a", "--yes"), 1, "group 'nope' does not exist on {location}"),
    (("payments-app", "--yes"), 2, "name the members to remove"),
    (("payments-app", "-i", "pod 1", "--yes"), 2, "'pod 1' is not a group.instance.id"),
    (("payments-app", "--from-file", "missing.txt", "--yes"), 2, "instance-id file 'missing.txt' does not exist"),
])
def test_remove_members_errors_change_nothing(cli, scratch, args, code, message):
    r = cli("group", "remove-members", *args, *scratch.args)
    assert r.code == code and message.format(location=scratch.location) in r.err
    assert _members(cli, scratch, "payments-app") == ["pod-0", "pod-1", "pod-2"]


def test_bad_line_in_the_file_names_it(cli, scratch, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("pod-1\npod-2 pod-3\n")
    r = cli("group", "remove-members", "payments-app", "-f", str(ids), "--yes", *scratch.args)
    assert r.code == 2 and f"{ids}, line 2: 'pod-2 pod-3' is not a group.instance.id" in r.err
    assert _members(cli, scratch, "payments-app") == ["pod-0", "pod-1", "pod-2"]


# -- group config ---------------------------------------------------------------------------------------


def test_config_get(cli, cluster):
    r = cli("group", "config", "get", "payments-app", "consumer.session.timeout.ms", "consumer.heartbeat.interval.ms",
            *cluster.args)
    assert r.code == 0, r.err
    assert _rows(r.out) == [["NAME", "VALUE", "DEFAULT", "SOURCE"],
                            ["consumer.session.timeout.ms", "50000", "45000", "DYNAMIC_GROUP_CONFIG"],
                            ["consumer.heartbeat.interval.ms", "5000", "5000", "DEFAULT_CONFIG"]]
    wide = _rows(cli("group", "config", "get", "payments-app", "consumer.session.timeout.ms", "-o", "wide",
                     *cluster.args).out)
    assert wide == [["NAME", "VALUE", "DEFAULT", "SOURCE", "MIN", "MIN-CONFIG", "MAX", "MAX-CONFIG"],
                    ["consumer.session.timeout.ms", "50000", "45000", "DYNAMIC_GROUP_CONFIG", "45000",
                     "group.consumer.min.session.timeout.ms", "60000", "group.consumer.max.session.timeout.ms"]]
    everything = _items(cli, "group", "config", "get", "orders-app", *cluster.args, kind="GroupConfig")
    assert "share.isolation.level" in {i["name"] for i in everything}


def test_config_get_every_format(cli, cluster, checks):
    checks.every_format(("group", "config", "get", "payments-app", *cluster.args), "GroupConfig",
                   ["NAME", "VALUE", "DEFAULT", "SOURCE"], ["MIN-CONFIG", "MAX-CONFIG"])
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.session.timeout.ms",
                     *cluster.args, kind="GroupConfig")
    assert item == {"group": "payments-app", "name": "consumer.session.timeout.ms", "value": 50000, "default": 45000,
                    "source": "DYNAMIC_GROUP_CONFIG", "minimum": 45000, "maximum": 60000,
                    "minimumName": "group.consumer.min.session.timeout.ms",
                    "maximumName": "group.consumer.max.session.timeout.ms"}


def test_config_get_unknown_name(cli, cluster):
    r = cli("group", "config", "get", "payments-app", "session.timeout.ms", *cluster.args)
    assert r.code == 1 and "Unknown group config name: session.timeout.ms" in r.err
    assert "consumer.session.timeout.ms" in r.err  # the names that exist


def test_config_set_and_unset(cli, scratch):
    r = cli("group", "config", "set", "orders-app", "consumer.session.timeout.ms=55000",
            "consumer.heartbeat.interval.ms=6000", *scratch.args)
    assert r.code == 0, r.err
    assert _rows(r.out) == [["NAME", "ACTION", "OLD-VALUE", "NEW-VALUE"],
                            ["consumer.session.timeout.ms", "set", "45000", "55000"],
                            ["consumer.heartbeat.interval.ms", "set", "5000", "6000"]]
    (item,) = _items(cli, "group", "config", "get", "orders-app", "consumer.heartbeat.interval.ms",
                     *scratch.args, kind="GroupConfig")
    assert (item["value"], item["source"]) == (6000, "DYNAMIC_GROUP_CONFIG")
    items = _items(cli, "group", "config", "unset", "orders-app", "consumer.heartbeat.interval.ms",
                   *scratch.args, kind="GroupConfigChange")
    assert items == [{"group": "orders-app", "name": "consumer.heartbeat.interval.ms", "action": "unset",
                      "oldValue": 6000, "newValue": 5000, "source": "DEFAULT_CONFIG", "dryRun": False}]


def test_config_set_dry_run_validates_and_changes_nothing(cli, scratch):
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=60000", "--dry-run",
            *scratch.args)
    assert r.code == 0, r.err
    assert _rows(r.out)[1] == ["consumer.session.timeout.ms", "would-set", "50000", "60000"]
    assert "dry run: validated, nothing was changed" in r.err
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=70000", "--dry-run",
            *scratch.args)
    assert r.code == 1 and "must be less than or equal to group.consumer.max.session.timeout.ms" in r.err
    r = cli("group", "config", "unset", "payments-app", "consumer.session.timeout.ms", "--dry-run",
            *scratch.args)
    assert r.code == 0 and _rows(r.out)[1] == ["consumer.session.timeout.ms", "would-unset", "50000", "45000"]
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.session.timeout.ms",
                     *scratch.args, kind="GroupConfig")
    assert item["value"] == 50000


def test_config_change_every_format(cli, scratch):
    for fmt in FORMATS:
        r = cli("group", "config", "set", "orders-app", f"consumer.session.timeout.ms={50000 + len(fmt)}", "-o", fmt,
                *scratch.args)
        assert r.code == 0, (fmt, r.err)
        if fmt in ("json", "yaml"):
            doc = json.loads(r.out) if fmt == "json" else yaml.safe_load(r.out)
            assert doc["kind"] == "GroupConfigChange" and doc["items"][0]["newValue"] == 50000 + len(fmt)
        elif fmt == "csv":
            assert r.out.splitlines()[0] == "name,action,oldValue,newValue,source"
        else:
            assert ("SOURCE" in r.out) == (fmt == "wide") and str(50000 + len(fmt)) in r.out


def test_invalid_config_value_gets_kafkas_message_and_nothing_changes(cli, scratch):
    r = cli("group", "config", "set", "payments-app", "consumer.heartbeat.interval.ms=6000",
            "consumer.session.timeout.ms=1000", *scratch.args)
    assert r.code == 1
    assert ("consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
            in r.err)
    assert "nothing was changed" in r.err and r.out == ""
    (item,) = _items(cli, "group", "config", "get", "payments-app", "consumer.heartbeat.interval.ms",
                     *scratch.args, kind="GroupConfig")
    assert item["value"] == 5000  # the valid half of the change was not applied
    r = cli("group", "config", "set", "payments-app", "consumer.session.timeout.ms=soon", *scratch.args)
    assert r.code == 1 and "Invalid value soon for configuration consumer.session.timeout.ms" in r.err


def test_config_unknown_names(cli, scratch):
    r = cli("group", "config", "set", "payments-app", "session.timeout.ms=50000", *scratch.args)
    assert r.code == 1 and "Unknown group config name: session.timeout.ms" in r.err
    r = cli("group", "config", "unset", "payments-app", "x", *scratch.args)
    assert r.code == 1 and "Unknown group config name: x" in r.err


@pytest.mark.parametrize(("pair", "message"), [
    ("consumer.session.timeout.ms", "is not KEY=VALUE"),
    ("=5", "is not KEY=VALUE"),
    ("consumer.session.timeout.ms =5", "is not KEY=VALUE"),
    ("consumer.session.timeout.ms=", "has no value"),
])
def test_config_set_parses_key_value_strictly(cli, scratch, pair, message):
    r = cli("group", "config", "set", "payments-app", pair, *scratch.args)
    assert r.code == 2 and message in r.err


def test_config_set_same_key_twice(cli, scratch):
    r = cli("group", "config", "set", "g", "consumer.session.timeout.ms=50000", "consumer.session.timeout.ms=55000",
            *scratch.args)
    assert r.code == 2 and "given twice" in r.err


# -- --timeout and --verify-after take durations ---------------------------------------------------------


@pytest.mark.parametrize("timeout", ["5000", "24h", "90s", "120000ms", "2m", "1.5s"])
def test_any_timeout_in_range_works_with_the_admin_client_too(cli, serve, local, timeout):
    served = serve(local, "serve")  # describe and config get ask librdkafka too, which takes at most 3600 s a call
    for args in (("group", "describe", "orders-app"), ("group", "config", "get", "payments-app")):
        r = cli(*args, *served.args, "--timeout", timeout)
        assert r.code == 0, r.err
        assert "internal error" not in r.err


@pytest.mark.parametrize(("timeout", "says"), [
    ("0", "'0' is out of range: give from 1ms to 24h"),
    ("25h", "'25h' is out of range"),
    ("-5", "a duration cannot be negative"),
    ("5x", "unknown unit 'x'; the units are ms, s, m, h"),
    ("soon", "'soon' is not a duration"),
])
def test_a_timeout_out_of_range_is_a_usage_error(cli, timeout, says):
    r = cli("group", "describe", "orders-app", "-b", "127.0.0.1:9", "--timeout", timeout)
    assert r.code == 2 and r.out == ""
    assert "Invalid value for '--timeout'" in r.err and says in r.err
    assert "30s, 5000ms, 2m or 1.5s (a bare number is milliseconds)" in r.err


def test_verify_after_takes_a_duration(cli, local):
    r = cli("group", "remove-members", "orders-app", "-i", "orders-0", "--yes", "--local", str(local),
            "--verify-after", "100ms", "-o", "json")
    assert r.code == 0, r.err
    (item,) = r.json()["items"]
    assert item["removed"] is True and item["rejoined"] is False
    bad = cli("group", "remove-members", "orders-app", "-i", "orders-1", "--yes", "--local", str(local),
              "--verify-after", "6 sec")
    assert bad.code == 2 and "Invalid value for '--verify-after'" in bad.err and "unknown unit 'sec'" in bad.err


# -- a broker that goes away ------------------------------------------------------------------------------


def test_a_coordinator_that_went_away_fails_at_once_with_connection_refused(cli, fake_cluster, closed_port):
    (broker,) = fake_cluster()

    def gone(request, state):  # FindCoordinator names node 7, which no longer listens
        return coordinator_reply(request, 7, "127.0.0.1", closed_port)

    broker.on(10, gone)
    with promptly("refused reconnects are an answer, not the --timeout waited out"):
        r = cli("group", "describe", "orders-app", "-b", broker.address, "--timeout", LONG_TIMEOUT)
    assert r.code == 1 and r.out == ""
    assert r.err.startswith(f"groupctl: error: cannot reach 127.0.0.1:{closed_port}: connection refused 3 times in a "
                            "row by node 7, the coordinator of group 'orders-app' (ConsumerGroupDescribe)")
    assert "timed out" not in r.err and "internal error" not in r.err


# -- a long wait says what it waits for, on a terminal only ---------------------------------------------


@pytest.mark.parametrize("terminal", [True, False])
def test_the_verify_after_wait_is_announced_on_a_terminal_only(cli, local, monkeypatch, terminal):
    slept: list[float] = []
    monkeypatch.setattr("groupctl.operations.time", SimpleNamespace(sleep=slept.append))
    monkeypatch.setattr("groupctl.cli.group._stderr_is_terminal", lambda: terminal)
    r = cli("group", "remove-members", "orders-app", "-i", "orders-0", "--yes", "--local", str(local),
            "--verify-after", "6s")
    assert r.code == 0, r.err
    assert slept == [6.0]
    announced = "groupctl: waiting 6 s for removed members to rejoin before verifying (--verify-after)..."
    assert (announced in r.err) is terminal
    if terminal:  # said before the wait, after the plan
        assert r.err.index("members to remove") < r.err.index(announced)


def test_a_short_verify_after_wait_is_not_announced(cli, local, monkeypatch):
    monkeypatch.setattr("groupctl.cli.group._stderr_is_terminal", lambda: True)
    r = cli("group", "remove-members", "orders-app", "-i", "orders-0", "--yes", "--local", str(local),
            "--verify-after", "200ms")
    assert r.code == 0, r.err
    assert "waiting" not in r.err


def test_a_failed_verification_keeps_the_removal_and_says_so(cli, local, monkeypatch):
    calls: list[str] = []
    describe = LocalBackend.describe_groups

    def gone_after_the_removal(self, group_ids):
        calls.append("describe")
        if len(calls) > 1:
            raise GroupctlError("cannot reach 127.0.0.1:9: connection refused")
        return describe(self, group_ids)

    monkeypatch.setattr(LocalBackend, "describe_groups", gone_after_the_removal)
    r = cli("group", "remove-members", "orders-app", "-i", "orders-0", "--yes", "--local", str(local),
            "--verify-after", "10ms", "-o", "json")
    assert r.code == 0, r.err
    (item,) = r.json()["items"]
    assert item["removed"] is True and item["rejoined"] is None
    assert ("groupctl: warning: the members were removed, but whether any came back is unknown: describing group "
            "'orders-app' again after 0.01 s failed: cannot reach 127.0.0.1:9: connection refused") in r.err


def test_a_host_name_that_does_not_resolve_is_named_at_once(cli, monkeypatch):
    real = socket.getaddrinfo

    def resolver(host, *args, **kwargs):  # no lookup leaves the machine: the name is refused here
        if host == "kafka-9.example":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr("groupctl.kafka.connection.socket.getaddrinfo", resolver)
    with promptly("a name that does not resolve is an answer, not the --timeout waited out"):
        r = cli("group", "list", "-b", "kafka-9.example:9092", "--timeout", LONG_TIMEOUT)
    assert r.code == 1 and r.out == ""
    assert r.err == ("groupctl: error: cannot reach kafka-9.example:9092: no bootstrap server answered "
                     "(kafka-9.example:9092: cannot resolve the host name 'kafka-9.example' (Name or service not "
                     "known)); check bootstrap.servers / --bootstrap-server and that the brokers run and are "
                     "reachable\n")
