"""ConsumerGroupHeartbeat throughput through `groupctl serve`'s listener, over loopback.

200 simulated KIP-848 members join one group (a topic with a partition per member, uniform assignor) by raw
ConsumerGroupHeartbeat v1 frames, spread over a few sockets, and are driven to Stable (each acks its
assignment as a client does). Then every member heartbeats round after round as a KIP-848 client
does in steady state (member id and epoch only); a round pipelines each socket's requests, as a
client with several requests in flight does, and the broker answers each socket in order. The
members run in a separate process, as real clients would, so the server has its interpreter to itself.

Peers: a Kafka 4.0 broker's rate on the same load, recorded on this 2-core machine (issue 20: 44,562/s;
the target is at least half of it), or the rate given with `--kafka-rate`, or measured in this run
on a live broker with `--kafka-bootstrap HOST:PORT` (the same raw frames: a topic made by
CreateTopics, the group's coordinator found by FindCoordinator); and the in-process coordinator's own
steady heartbeat rate for the same members of the same group (called on the server's loop, no
wire): the share of it the listener keeps. Also printed: the server's CPU time per heartbeat (its
process's user + system time over the measured rounds), which a loaded machine disturbs less than
the rate.

Usage: python3 benchmarks/bench_serve.py [--members 200] [--connections 8] [--rounds 50]
                                         [--loop uvloop|asyncio] [--kafka-bootstrap HOST:PORT | --kafka-rate N]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import resource
import sys
import tempfile
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from groupctl.coordinator.consumer import HeartbeatRequest
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.server import ServerOptions, ServerThread

#: Kafka 4.0.0's broker on this load on this 2-core machine (issue 20), and the share of it to reach.
KAFKA_RECORDED_PER_S = 44_562
#: Its server CPU per heartbeat then (all of its threads), microseconds.
KAFKA_RECORDED_CPU_US = "18-20"
KAFKA_RECORDED = "recorded: a Kafka 4.0.0 broker on the same load on this 2-core machine (issue 20)"
TARGET_SHARE = 0.5
GROUP = "bench"
TOPIC = "bench-topic"
CGH = 68
VERSION = 1
SETTLE_ROUNDS = 60
FIND_COORDINATOR, CREATE_TOPICS, METADATA = 10, 19, 3


class Member:
    """One simulated KIP-848 consumer: its id, epoch, what it owns, and what it last told the broker."""

    def __init__(self, index: int, group: str, topic: str) -> None:
        self.member_id = f"bench-member-{index:04d}"
        self.client_id = self.member_id
        self.group, self.topic = group, topic
        self.epoch = 0
        self.owned: list[dict] = []
        self.sent_owned: list[dict] | None = None

    def request(self) -> dict[str, Any]:
        if self.epoch == 0:
            return {"groupId": self.group, "memberId": self.member_id, "memberEpoch": 0,
                    "rebalanceTimeoutMs": 60_000, "subscribedTopicNames": [self.topic], "topicPartitions": []}
        body: dict[str, Any] = {"groupId": self.group, "memberId": self.member_id, "memberEpoch": self.epoch}
        if self.owned != self.sent_owned:
            body["topicPartitions"] = self.owned
        return body

    def handle(self, sent: dict[str, Any], answer: dict[str, Any]) -> bool:
        """Apply a response; True when it moved anything (epoch or assignment)."""
        if answer["errorCode"]:
            raise SystemExit(f"{self.member_id}: error {answer['errorCode']} {answer['errorMessage']}")
        if "topicPartitions" in sent:
            self.sent_owned = sent["topicPartitions"]
        moved = answer["memberEpoch"] != self.epoch
        self.epoch = answer["memberEpoch"]
        if answer["assignment"] is not None:
            owned = [{"topicId": t["topicId"], "partitions": sorted(t["partitions"])}
                     for t in answer["assignment"]["topicPartitions"]]
            moved |= owned != self.owned
            self.owned = owned
        return moved


class Socket:
    """One client connection and the members whose requests it carries."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, members: list[Member]) -> None:
        self.reader, self.writer, self.members = reader, writer, members
        self.correlation = 0

    async def round(self) -> bool:
        """Every member heartbeats once, all requests in flight together; True if anything moved."""
        sent = [m.request() for m in self.members]
        frames = []
        for member, body in zip(self.members, sent, strict=True):
            self.correlation += 1
            frames.append(framing.encode_request(CGH, VERSION, self.correlation, member.client_id, body))
        self.writer.write(b"".join(frames))
        await self.writer.drain()
        moved = False
        for member, body in zip(self.members, sent, strict=True):
            moved |= member.handle(body, await self._answer())
        return moved

    async def steady(self, rounds: int) -> int:
        """`rounds` steady heartbeats per member, the frames built once; returns how many were answered."""
        frames = b"".join(
            framing.encode_request(CGH, VERSION, i, m.client_id,
                                   {"groupId": m.group, "memberId": m.member_id, "memberEpoch": m.epoch})
            for i, m in enumerate(self.members)
        )
        answered = 0
        for _ in range(rounds):
            self.writer.write(frames)
            await self.writer.drain()
            for member in self.members:
                answer = await self._answer()
                if answer["errorCode"] or answer["memberEpoch"] != member.epoch:
                    raise SystemExit(f"{member.member_id}: steady heartbeat answered {answer}")
                answered += 1
        return answered

    async def _answer(self) -> dict[str, Any]:
        size = framing.frame_size(await self.reader.readexactly(4), 1 << 24)
        return framing.decode_response(await self.reader.readexactly(size), CGH, VERSION).body


async def call(host: str, port: int, api_key: int, version: int, body: dict[str, Any]) -> dict[str, Any]:
    """One request on a connection of its own (preparing a live broker)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(framing.encode_request(api_key, version, 1, "bench-serve", body))
        size = framing.frame_size(await asyncio.wait_for(reader.readexactly(4), 30), 1 << 24)
        return framing.decode_response(await reader.readexactly(size), api_key, version).body
    finally:
        writer.close()


async def prepare_kafka(host: str, port: int, group: str, topic: str, partitions: int) -> tuple[str, int]:
    """Make the topic on a live broker, wait until its metadata shows it, and find the group's coordinator."""
    created = await call(host, port, CREATE_TOPICS, 5, {
        "topics": [{"name": topic, "numPartitions": partitions, "replicationFactor": 1}], "timeoutMs": 30_000})
    if created["topics"][0]["errorCode"]:
        raise SystemExit(f"CreateTopics {topic}: {created['topics'][0]}")
    deadline = time.monotonic() + 30
    while True:
        metadata = await call(host, port, METADATA, 9, {"topics": [{"name": topic}]})
        if len(metadata["topics"][0]["partitions"]) == partitions:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"{topic} has no metadata after 30 s")
        await asyncio.sleep(0.1)
    found = await call(host, port, FIND_COORDINATOR, 4, {"keyType": 0, "coordinatorKeys": [group]})
    coordinator = found["coordinators"][0]
    if coordinator["errorCode"]:
        raise SystemExit(f"FindCoordinator {group}: {coordinator}")
    return coordinator["host"], coordinator["port"]


async def drive(host: str, port: int, members: int, connections: int, control: Connection, group: str,
                topic: str, kafka: bool) -> None:
    """The client process's loop: obey `control` ("settle", "measure", "stop") and report back."""
    if kafka:
        host, port = await prepare_kafka(host, port, group, topic, members)
    everyone = [Member(i, group, topic) for i in range(members)]
    sockets = []
    for c in range(connections):
        reader, writer = await asyncio.open_connection(host, port)
        sockets.append(Socket(reader, writer, everyone[c::connections]))
    try:
        while True:
            command, rounds = control.recv()
            if command == "settle":
                quiet = False
                for _ in range(rounds):
                    moved = await asyncio.gather(*(s.round() for s in sockets))
                    if not any(moved) and len({m.epoch for m in everyone}) == 1:
                        quiet = True
                        break
                control.send((quiet, everyone[0].epoch, [m.member_id for m in everyone]))
            elif command == "measure":
                start, cpu = time.perf_counter(), time.process_time()
                answered = await asyncio.gather(*(s.steady(rounds) for s in sockets))
                control.send((sum(answered), time.perf_counter() - start, time.process_time() - cpu))
            else:
                return
    finally:
        for s in sockets:
            s.writer.close()


def client_process(host: str, port: int, members: int, connections: int, control: Connection, group: str = GROUP,
                   topic: str = TOPIC, kafka: bool = False) -> None:
    asyncio.run(drive(host, port, members, connections, control, group, topic, kafka))


def coordinator_rate(broker: Broker, member_ids: list[str], epoch: int, rounds: int) -> tuple[int, float]:
    """The peer: the same steady heartbeats straight into the coordinator (same client id and host, so
    nothing changes and nothing is written)."""
    requests = [HeartbeatRequest(GROUP, mid, epoch, client_id=mid, client_host="/127.0.0.1") for mid in member_ids]
    heartbeat = broker.coordinator.heartbeat
    before = broker.coordinator.records_written
    start = time.perf_counter()
    for _ in range(rounds):
        for request in requests:
            response = heartbeat(request)
            if response.error_code:
                raise SystemExit(f"in-process heartbeat failed: {response.error}")
    elapsed = time.perf_counter() - start
    if broker.coordinator.records_written != before:
        raise SystemExit("a steady in-process heartbeat wrote records")
    return rounds * len(requests), elapsed


def cpu_s() -> tuple[float, float]:
    """This process's user and system CPU time so far: the server's, while the members run in their own process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), help="the server's event loop (default: uvloop "
                        "when installed)")
    kafka = parser.add_mutually_exclusive_group()
    kafka.add_argument("--kafka-bootstrap", metavar="HOST:PORT", help="a live Kafka 4.x broker to run the same load "
                       "against, in this run")
    kafka.add_argument("--kafka-rate", type=float, metavar="N", help="a Kafka broker's rate on this load measured "
                       "elsewhere, heartbeats/s")
    args = parser.parse_args()
    kafka_rate, kafka_source = float(KAFKA_RECORDED_PER_S), KAFKA_RECORDED
    if args.kafka_rate is not None:
        kafka_rate, kafka_source = args.kafka_rate, "given with --kafka-rate"
    elif args.kafka_bootstrap:
        kafka_rate = measure_kafka(args)
        kafka_source = f"measured in this run on the broker at {args.kafka_bootstrap}"
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        options = ServerOptions(Path(tmp) / "cluster", port=0)
        server = ServerThread(options, timeout_s=60.0, **({"loop": args.loop} if args.loop else {}))
        server.start()
        try:
            server.call(lambda b: b.backend.create_topic(TOPIC, args.members))
            host, port = server.bootstrap.rsplit(":", 1)
            with MembersProcess(host, int(port), args) as control:
                return run(server, control, args, kafka_rate, kafka_source)
        finally:
            server.stop()


class MembersProcess:
    """The members in their own process, driven over a pipe; stopped (bounded) on exit."""

    def __init__(self, host: str, port: int, args: argparse.Namespace, group: str = GROUP, topic: str = TOPIC,
                 kafka: bool = False) -> None:
        context = multiprocessing.get_context("spawn")
        self.control, child_end = context.Pipe()
        self.process = context.Process(target=client_process, args=(host, port, args.members, args.connections,
                                                                    child_end, group, topic, kafka))

    def __enter__(self) -> Connection:
        self.process.start()
        return self.control

    def __exit__(self, *exc: object) -> None:
        self.control.send(("stop", 0))
        self.process.join(30)
        if self.process.is_alive():
            self.process.terminate()


def settle(control: Connection) -> tuple[int, list[str], float]:
    """Drive the members to a quiet group: (epoch, member ids, seconds it took)."""
    start = time.perf_counter()
    control.send(("settle", SETTLE_ROUNDS))
    quiet, epoch, member_ids = control.recv()
    if not quiet:
        raise SystemExit(f"the group did not settle in {SETTLE_ROUNDS} rounds")
    return epoch, member_ids, time.perf_counter() - start


def measure(control: Connection, rounds: int) -> tuple[int, float, float]:
    """`rounds` steady heartbeats of every member: (how many were answered, seconds, the members' CPU seconds)."""
    control.send(("measure", rounds))
    count, elapsed, client_cpu_s = control.recv()
    return count, elapsed, client_cpu_s


def measure_kafka(args: argparse.Namespace) -> float:
    """The same load on a live broker, a fresh group and topic of its own; its steady rate."""
    host, port = args.kafka_bootstrap.rsplit(":", 1)
    suffix = uuid.uuid4().hex[:8]
    with MembersProcess(host, int(port), args, f"{GROUP}-{suffix}", f"{TOPIC}-{suffix}", kafka=True) as control:
        epoch, _, settle_s = settle(control)
        count, elapsed, _ = measure(control, args.rounds)
    print(f"Kafka at {args.kafka_bootstrap}: Stable at epoch {epoch} after {settle_s:.2f} s; {count:,} steady "
          f"heartbeats in {elapsed:.3f} s = {count / elapsed:,.0f}/s")
    return count / elapsed


def run(server: ServerThread, control: Connection, args: argparse.Namespace, kafka_rate: float,
        kafka_source: str) -> int:
    epoch, member_ids, settle_s = settle(control)
    state = server.call(lambda b: b.coordinator.describe(GROUP).state)
    if state != "Stable":
        raise SystemExit(f"the group did not settle (state {state})")
    cpu_before = cpu_s()
    count, elapsed, client_cpu_s = measure(control, args.rounds)
    user_us, system_us = ((after - before) / count * 1e6 for after, before in zip(cpu_s(), cpu_before, strict=True))
    cpu_us = user_us + system_us
    per_s = count / elapsed
    peer_count, peer_elapsed = server.call(lambda b: coordinator_rate(b, member_ids, epoch, args.rounds))
    peer_per_s = peer_count / peer_elapsed
    loop_name = type(server.loop).__module__.split(".")[0]
    target = TARGET_SHARE * kafka_rate
    print(f"group {GROUP!r}: {args.members} members over {args.connections} sockets, Stable at epoch {epoch} "
          f"after {settle_s:.2f} s of joining and reconciling; server event loop: {loop_name}")
    print(f"over loopback: {count:,} steady heartbeats in {elapsed:.3f} s = {per_s:,.0f}/s; server CPU "
          f"{cpu_us:.1f} us per heartbeat ({user_us:.1f} user, {system_us:.1f} system; one core at that cost: "
          f"{1e6 / cpu_us:,.0f}/s), the members' {client_cpu_s / count * 1e6:.1f} us (Kafka 4.0's broker, recorded: "
          f"{KAFKA_RECORDED_CPU_US} us)")
    print(f"peer, Kafka: {kafka_rate:,.0f}/s ({kafka_source}); ratio {per_s / kafka_rate:.2f} "
          f"(target >= {TARGET_SHARE:g}, {target:,.0f}/s: {'met' if per_s >= target else 'MISSED'})")
    print(f"peer, the in-process coordinator on the same group: {peer_count:,} in {peer_elapsed:.3f} s = "
          f"{peer_per_s:,.0f}/s; listener/coordinator ratio: {per_s / peer_per_s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
