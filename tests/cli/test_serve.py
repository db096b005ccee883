"""`groupctl serve` as a user runs it: a subprocess on an ephemeral port, stopped by a signal."""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from confluent_kafka.admin import AdminClient, NewTopic

from groupctl.errors import DecodeError
from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.metadata import MetadataRequestData
from groupctl.protocol.messages import framing
from tests.server.healthy import Healthy
from tests.server.waits import WAIT_S, wait_until

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 2 * WAIT_S  # a Python process started on a loaded machine: only a hang takes this long


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPCTL_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return {**env, **extra}


def groupctl(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "groupctl", *args], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=_env(**env))


def _first_line(process: subprocess.Popen[str]) -> str:
    """The first stdout line, or AssertionError when none comes within the timeout."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(TIMEOUT_S)
    assert box and box[0], f"no line on stdout; stderr: {process.stderr.read() if process.poll() is not None else ''}"  # type: ignore[union-attr]
    return box[0]


@contextmanager
def serving(*args: str, **env: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`groupctl serve ARGS` running, with its first stdout line; killed if the test did not stop it."""
    process = subprocess.Popen([sys.executable, "-m", "groupctl", "serve", "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(**env))
    try:
        yield process, _first_line(process)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT_S)


def _stop(process: subprocess.Popen[str], signum: int) -> tuple[int, str]:
    """Exit code and stderr once `signum` has stopped serve (TimeoutExpired when it does not)."""
    process.send_signal(signum)
    _, err = process.communicate(timeout=TIMEOUT_S)
    return process.returncode, err


def test_serve_prints_the_bootstrap_and_stops_on_sigterm_with_dir_saved(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    with serving("--local", str(lab), "-o", "json") as (process, line):
        (item,) = json.loads(line)["items"]
        bootstrap = item["bootstrap"]
        assert item["listener"] == f"PLAINTEXT://{bootstrap}" and item["dir"] == str(lab.resolve())
        admin = AdminClient({"bootstrap.servers": bootstrap})
        assert admin.create_topics([NewTopic("orders", 3, 1)], request_timeout=WAIT_S)["orders"].result(WAIT_S) is None
        # serve runs on until stopped below: a command that waited for DIR would time out instead
        busy = groupctl("group", "list", "--local", str(lab))
        assert busy.returncode == 1
        assert f"is being served by `groupctl serve` on PLAINTEXT://{bootstrap}" in busy.stderr
        assert f"reach it with -b {bootstrap} instead of --local" in busy.stderr
        code, err = _stop(process, signal.SIGTERM)
    assert code == 0, err
    assert f"listening on PLAINTEXT://{bootstrap}" in err
    assert "kafka-consumer-groups.sh --bootstrap-server" in err
    saved = json.loads((lab / "topics.json").read_text())
    assert [(t["name"], t["partitions"]) for t in saved["topics"]] == [("orders", 3)]
    assert not (lab / "serving.json").exists()
    after = groupctl("group", "list", "--local", str(lab), "-o", "json")
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout)["items"] == []


def test_dir_settings_and_broker_config_set_the_coordinator_and_only_dirs_are_saved(tmp_path: Path) -> None:
    from confluent_kafka.admin import ConfigResource

    lab = tmp_path / "lab"
    saved = groupctl("local", "settings", "group.consumer.migration.policy=upgrade", "group.max.size=9",
                     "--local", str(lab))
    assert saved.returncode == 0, saved.stderr
    with serving("--local", str(lab), "--broker-config", "group.max.size=2", "--broker-config",
                 "group.consumer.migration.policy=DOWNGRADE", "--kafka-version", "4.0") as (process, line):
        admin = AdminClient({"bootstrap.servers": line.strip()})
        resource = ConfigResource(ConfigResource.Type.BROKER, "1")
        configs = admin.describe_configs([resource], request_timeout=WAIT_S)[resource].result(WAIT_S)
        code, err = _stop(process, signal.SIGTERM)
    assert code == 0, err
    assert (configs["group.consumer.migration.policy"].value, configs["group.max.size"].value) == ("downgrade", "2")
    assert configs["group.initial.rebalance.delay.ms"].value == "3000"
    assert ("broker settings: group.consumer.migration.policy=downgrade (--broker-config), group.max.size=2 "
            "(--broker-config), kafka.version=4.0 (--broker-config)") in err
    after = json.loads((lab / "broker-settings.json").read_text())["settings"]
    assert after == {"group.consumer.migration.policy": "upgrade", "group.max.size": 9}


def test_table_output_is_the_bootstrap_alone_and_sigint_stops_it(tmp_path: Path) -> None:
    lab = tmp_path / "from-env"
    with serving(GROUPCTL_LOCAL=str(lab)) as (process, line):
        host, port = line.strip().rsplit(":", 1)
        assert host == "127.0.0.1" and int(port) > 0
        with socket.create_connection((host, int(port)), timeout=TIMEOUT_S):
            pass
        code, err = _stop(process, signal.SIGINT)
    assert code == 0, err
    assert (lab / "__consumer_offsets-0").is_dir()


def test_sasl_users_and_mechanisms_show_in_the_hint_never_the_password(tmp_path: Path) -> None:
    users = tmp_path / "users"
    users.write_text("alice:hunter2-secret\n")
    with serving("--local", str(tmp_path / "lab"), "--sasl-users", str(users), "--sasl-mechanisms",
                 "SCRAM-SHA-256", "-o", "json") as (process, line):
        (item,) = json.loads(line)["items"]
        assert (item["securityProtocol"], item["saslMechanisms"]) == ("SASL_PLAINTEXT", ["SCRAM-SHA-256"])
        admin = AdminClient({"bootstrap.servers": item["bootstrap"], "security.protocol": "SASL_PLAINTEXT",
                             "sasl.mechanism": "SCRAM-SHA-256", "sasl.username": "alice",
                             "sasl.password": "hunter2-secret"})
        assert admin.list_topics(timeout=WAIT_S).brokers
        code, err = _stop(process, signal.SIGTERM)
    assert code == 0
    assert "security.protocol=SASL_PLAINTEXT, sasl.mechanism=SCRAM-SHA-256" in err
    assert "hunter2" not in err and "hunter2" not in line


Cli = Callable[..., object]


def test_bad_options_are_usage_errors_and_create_nothing(cli: Cli, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    cert = tmp_path / "cert.pem"
    cert.write_text("not a certificate")
    cases = [
        (["serve"], "needs the state to serve: --local DIR"),
        (["serve", "--local", str(lab), "--tls-cert", str(cert)], "--tls-cert and --tls-key go together"),
        (["serve", "--local", str(lab), "--sasl-users", str(tmp_path / "missing")], "does not exist"),
        (["serve", "--local", str(lab), "--sasl-mechanisms", "PLAIN"], "--sasl-mechanisms needs --sasl-users"),
        (["serve", "--local", str(lab), "--port", "70000"], "less than or equal to 65535"),
        (["serve", "--local", str(cert)], "is not a directory"),
        (["serve", "--local", str(lab), "--broker-config", "group.consumer.migration.policy=sideways"],
         "--broker-config: group.consumer.migration.policy must be one of disabled, upgrade, downgrade, "
         "bidirectional"),
        (["serve", "--local", str(lab), "--broker-config", "log.retention.ms=1"],
         "'log.retention.ms' is not a broker setting of a local DIR; the settings are:"),
        (["serve", "--local", str(lab), "--kafka-version", "2.8"],
         "--broker-config: Kafka version must be one of 4.0, 4.1, 4.2, 4.3"),
    ]
    for args, message in cases:
        result = cli(*args)
        assert (result.code, message in result.err) == (2, True), (args, result.err)  # type: ignore[attr-defined]
    assert not lab.exists()


def test_unusable_files_and_a_busy_port_are_errors_and_create_nothing(cli: Cli, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    users = tmp_path / "users"
    users.write_text("alice-without-a-password\n")
    bad_pem = tmp_path / "bad.pem"
    bad_pem.write_text("-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        cases = [
            (["--sasl-users", str(users)], "line 1: expected user:password"),
            (["--tls-cert", str(bad_pem), "--tls-key", str(bad_pem)], "cannot use --tls-cert"),
            (["--port", port], f"cannot listen on 127.0.0.1:{port}"),
        ]
        for args, message in cases:
            result = cli("serve", "--local", str(lab), *args)
            assert (result.code, message in result.err) == (1, True), (args, result.err)  # type: ignore[attr-defined]
    assert not lab.exists()


# -- the real world: clients that vanish, a serve that was killed or is still loading -----------------------------

def _reset(sock: socket.socket) -> None:
    """Close with an RST (SO_LINGER 0), as a client killed or closing abruptly does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _metadata_v12(correlation_id: int) -> bytes:
    return framing.encode_request(3, 12, correlation_id, "pipelined", MetadataRequestData(topics=None))


def _answers(process: subprocess.Popen[str], host: str, port: int) -> bool:
    """True when serve answers ApiVersions on a fresh connection; AssertionError with its exit code if it died."""
    try:
        with socket.create_connection((host, port), timeout=TIMEOUT_S) as sock:  # a loaded CI machine is slow
            sock.sendall(framing.encode_request(18, 0, 1, "healthy", ApiVersionsRequestData()))
            size = framing.frame_size(sock.recv(4, socket.MSG_WAITALL), 1 << 20)
            answer = framing.decode_response(sock.recv(size, socket.MSG_WAITALL), 18, 0)
            return answer.body.error_code == 0
    except (OSError, DecodeError):
        try:
            process.wait(WAIT_S)
        except subprocess.TimeoutExpired:
            raise AssertionError("serve is running but does not answer") from None
        raise AssertionError(f"serve died (exit {process.returncode})") from None


def _create_topics(bootstrap: str, topics: list[NewTopic]) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})  # held until the answers are in: a freed client
    futures = admin.create_topics(topics, request_timeout=WAIT_S)  # fails its futures with _DESTROY
    assert all(f.result(WAIT_S) is None for f in futures.values())


def test_clients_that_reset_while_answers_are_written_cost_only_their_connection(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    with serving("--local", str(lab)) as (process, line):
        bootstrap = line.strip()
        host, port = bootstrap.rsplit(":", 1)
        _create_topics(bootstrap, [NewTopic(f"wide-{i:03d}", 20, 1) for i in range(60)])
        request = b"".join(_metadata_v12(n) for n in range(200))
        for _ in range(15):
            client = socket.create_connection((host, int(port)), timeout=TIMEOUT_S)
            client.sendall(request)
            client.recv(1)
            _reset(client)
        half = socket.create_connection((host, int(port)), timeout=TIMEOUT_S)
        half.sendall(request)
        half.shutdown(socket.SHUT_WR)
        half.recv(1)
        _reset(half)
        assert _answers(process, host, int(port))
        assert len(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=WAIT_S).topics) == 60
        code, err = _stop(process, signal.SIGTERM)
    assert code == 0, err
    assert "internal error" not in err
    assert not (lab / "serving.json").exists()
    assert len(json.loads((lab / "topics.json").read_text())["topics"]) == 60


def test_serving_json_left_by_a_killed_serve_is_removed_by_the_next_command(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    with serving("--local", str(lab)) as (process, _):
        pid = process.pid
        process.kill()
        process.wait(TIMEOUT_S)
    assert json.loads((lab / "serving.json").read_text())["pid"] == pid
    after = groupctl("group", "list", "--local", str(lab), "-o", "json")
    assert after.returncode == 0, after.stderr
    note = f"serving.json: removed; it was left by a `groupctl serve` (pid {pid}) that is no longer running"
    assert note in after.stderr
    assert not (lab / "serving.json").exists()


def _writable_fifo(path: Path, process: subprocess.Popen[str]) -> int:
    """A write end of the FIFO at `path` once `process` has opened it for reading (bounded)."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "serve never started loading DIR"
            time.sleep(0.02)


def test_a_local_command_fails_at_once_while_serve_is_still_loading_dir(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    assert groupctl("local", "topics", "create", "orders", "--partitions", "2", "--local",
                    str(lab)).returncode == 0
    topics = lab / "topics.json"
    saved = topics.read_bytes()
    topics.unlink()
    os.mkfifo(topics)  # serve blocks reading it, after taking DIR's lock: loading, as long as the test wants
    process = subprocess.Popen([sys.executable, "-m", "groupctl", "serve", "--port", "0", "--local", str(lab)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        fifo = _writable_fifo(topics, process)
        try:
            announced = json.loads((lab / "serving.json").read_text())
            # serve loads until the FIFO is written below: a command that waited for DIR would time out instead
            busy = groupctl("group", "list", "--local", str(lab))
        finally:
            os.write(fifo, saved)
            os.close(fifo)
        assert busy.returncode == 1, busy.stderr
        assert f"reach it with -b {announced['bootstrap']} instead of --local" in busy.stderr
        assert announced["pid"] == process.pid
        assert _first_line(process).strip() == announced["bootstrap"]
        code, err = _stop(process, signal.SIGTERM)
        assert code == 0, err
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT_S)
    assert json.loads(topics.read_text())["topics"][0]["name"] == "orders"


SOAK_CONNECTIONS = 3000
SOAK_CAP_S = 40.0


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _abuse(address: tuple[str, int], n: int, pipelined: bytes) -> None:
    """One abrupt client, the kind chosen by `n`: every way of going away a broker sees."""
    sock = socket.create_connection(address, timeout=5)
    try:
        kind = n % 6
        if kind == 1:  # a partial frame, then a reset
            sock.sendall(struct.pack(">i", 4 << 20) + b"\0" * 30_000)
        elif kind == 2:  # a partial frame, then a half-close
            sock.sendall(struct.pack(">i", 1000) + b"\0" * 10)
            sock.shutdown(socket.SHUT_WR)
            sock.recv(1)
        elif kind == 3:  # close while pipelined answers are being written
            sock.sendall(pipelined)
            sock.recv(1)
        elif kind == 4:  # garbage
            sock.sendall(b"GET / HTTP/1.1\r\n\r\n")
        elif kind == 5:  # a polite client
            sock.sendall(framing.encode_request(18, 0, 1, "polite", ApiVersionsRequestData()))
            sock.recv(4, socket.MSG_WAITALL)
    except OSError:
        pass
    finally:
        if n % 2 == 0:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


def test_soak_thousands_of_abrupt_clients_while_real_clients_work(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    with serving("--local", str(lab)) as (process, line):
        bootstrap = line.strip()
        host, port = bootstrap.rsplit(":", 1)
        _create_topics(bootstrap, [NewTopic("orders", 1, 1)] + [NewTopic(f"wide-{i:02d}", 20, 1) for i in range(20)])
        healthy = Healthy(bootstrap)
        try:
            rss_before = _rss_kb(process.pid)
            pipelined = b"".join(_metadata_v12(n) for n in range(30))
            done = [0, 0]
            deadline = time.monotonic() + SOAK_CAP_S

            def abuse(worker: int) -> None:
                for n in range(worker, SOAK_CONNECTIONS, 2):
                    if time.monotonic() > deadline:
                        return
                    _abuse((host, int(port)), n, pipelined)
                    done[worker] += 1

            workers = [threading.Thread(target=abuse, args=(w,), daemon=True) for w in range(2)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(SOAK_CAP_S + 10)
            assert _answers(process, host, int(port))
            rounds = healthy.rounds
            wait_until(lambda: healthy.rounds >= rounds + 2 or bool(healthy.errors), "two more healthy rounds")
        finally:
            healthy.stop()
        assert healthy.errors == []
        assert sum(done) > 0
        grown_mb = (_rss_kb(process.pid) - rss_before) / 1024
        assert grown_mb < 64, f"serve grew by {grown_mb:.0f} MB"
        code, err = _stop(process, signal.SIGTERM)
    assert code == 0, err
    assert "internal error" not in err
    assert len(err.splitlines()) < 30, err
    assert not (lab / "serving.json").exists()
    print(f"soak: {sum(done)} abrupt connections, {healthy.rounds} healthy rounds, RSS grew {grown_mb:.1f} MB")


def test_serve_whose_stdout_reader_is_gone_serves_on_and_stops_cleanly(tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    read_end, write_end = os.pipe()
    os.close(read_end)  # `groupctl serve | head -0`: nobody will read the bootstrap line
    process = subprocess.Popen([sys.executable, "-m", "groupctl", "serve", "--port", "0", "--local", str(lab)],
                               stdout=write_end, stderr=subprocess.PIPE, text=True, env=_env())
    os.close(write_end)
    try:
        wait_until(lambda: (lab / "serving.json").exists() or process.poll() is not None, "serve announces itself",
                   TIMEOUT_S)
        host, port = json.loads((lab / "serving.json").read_text())["bootstrap"].rsplit(":", 1)
        assert _answers(process, host, int(port))
        code, err = _stop(process, signal.SIGTERM)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(TIMEOUT_S)
    assert code == 0, err
    assert "stopped;" in err and "error" not in err
    assert not (lab / "serving.json").exists()


def test_a_dir_that_fails_to_load_leaves_no_serving_json(cli: Cli, tmp_path: Path) -> None:
    lab = tmp_path / "lab"
    assert groupctl("local", "topics", "create", "orders", "--partitions", "1", "--local", str(lab)).returncode == 0
    (lab / "topics.json").write_text("{ not json")
    result = cli("serve", "--local", str(lab), "--port", "0")
    assert (result.code, "topics.json is unreadable" in result.err) == (1, True), result.err  # type: ignore[attr-defined]
    assert not (lab / "serving.json").exists()
    after = groupctl("group", "list", "--local", str(lab))
    assert (after.returncode, "topics.json is unreadable" in after.stderr) == (1, True), after.stderr
