"""After `groupctl serve` is killed with SIGKILL, offline commands take log end offsets from the
partition logs, not from a topics.json the dead server never got to save."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from confluent_kafka import Consumer, Producer, TopicPartition

from groupctl.backends.local import DATA_DIR
from groupctl.server import partitions

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 30.0
RECORDS = 10
COMMITTED = 8


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GROUPCTL_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def groupctl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "groupctl", *args], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=_env(), cwd=ROOT)


def _bootstrap(process: subprocess.Popen[str]) -> str:
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(TIMEOUT_S)
    assert box and box[0].strip(), "serve printed no bootstrap address"
    return box[0].strip()


def _produce_and_commit(bootstrap: str) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "message.timeout.ms": 20_000})
    failures: list[object] = []
    for i in range(RECORDS):
        producer.produce("orders", key=b"k%d" % i, value=b"v%d" % i, partition=0,
                         on_delivery=lambda err, _msg: failures.append(err) if err is not None else None)
    assert producer.flush(TIMEOUT_S) == 0 and failures == []
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "g", "enable.auto.commit": False})
    try:
        committed = consumer.commit(offsets=[TopicPartition("orders", 0, COMMITTED)], asynchronous=False)
        assert [(tp.partition, tp.offset, tp.error) for tp in committed] == [(0, COMMITTED, None)]
    finally:
        consumer.close()


def test_describe_after_kill_9_reads_log_end_offsets_from_the_partition_logs(tmp_path: Path) -> None:
    assert DATA_DIR == partitions.DATA_DIR
    lab = tmp_path / "lab"
    created = groupctl("local", "topics", "create", "orders", "--partitions", "1", "--local", str(lab))
    assert created.returncode == 0, created.stderr
    before_serve = tmp_path / "topics-before-serve.json"
    shutil.copy(lab / "topics.json", before_serve)

    process = subprocess.Popen([sys.executable, "-m", "groupctl", "serve", "--port", "0", "--local", str(lab)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT)
    try:
        _produce_and_commit(_bootstrap(process))
        process.kill()
        process.wait(TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT_S)
    assert process.returncode == -9
    # serve saves topics.json about once a second: whether that happened before the kill is a race, so
    # put back the one from before it ran, the state of a server killed before its first save.
    shutil.copy(before_serve, lab / "topics.json")
    assert (lab / DATA_DIR / "orders-0").is_dir() and (lab / "serving.json").exists()  # left by the dead server

    described = groupctl("group", "describe", "g", "--offsets", "--local", str(lab), "-o", "json")
    assert described.returncode == 0, described.stderr
    (item,) = json.loads(described.stdout)["items"]
    assert [(o["partition"], o["offset"], o["logEndOffset"]) for o in item["offsets"]] == [(0, COMMITTED, RECORDS)]
    assert f"log end offsets taken from the logs: orders-0 0 -> {RECORDS}" in described.stderr

    table = groupctl("group", "describe", "g", "--offsets", "--local", str(lab))
    assert table.returncode == 0, table.stderr
    row = next(line.split() for line in table.stdout.splitlines() if line.split()[:2] == ["g", "orders"])
    assert row[2:6] == ["0", str(COMMITTED), str(RECORDS), str(RECORDS - COMMITTED)], table.stdout
    assert "taken from the logs" not in table.stderr  # the first command saved what it found
