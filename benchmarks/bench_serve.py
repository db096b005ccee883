"""ConsumerGroupHeartbeat throughput through `groupctl serve`'s listener, over loopback.

200 simulated KIP-848 members join one group (a topic with a partition per member, uniform assignor) by raw
ConsumerGroupHeartbeat v1 frames, spread over a few sockets, and are driven to Stable (each acks its
assignment as a client does). Then every member heartbeats round after round as a KIP-848 client
does in steady state (member id and epoch only); a round pipelines each socket's requests, as a
client with several requests in flight does, and the broker answers each socket in order. The
members run in a separate process, as real clients would, so the server has its interpreter to itself.

Peers: a Kafka 4.0.0 broker's rate on the same load (this script with --kafka-bootstrap), measured live on this
kind of machine and read from ../shared/measured/kafka.json (--measured FILE elsewhere), labelled "recorded live"
with its date and machine; and a live figure when there is one: the rate given with `--kafka-rate`, or measured in
this run on a live broker with `--kafka-bootstrap HOST:PORT` (the same raw frames on a group and topic of its own:
the topic made by CreateTopics and waited for in Metadata, the group's coordinator found with groupctl's client,
which retries COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS and NOT_COORDINATOR as a fresh broker answers
while it creates and loads __consumer_offsets). Target: at least half of Kafka's rate. Also the in-process
coordinator's own steady heartbeat rate for the same members of the same group (called on the server's loop, no
wire): the share of it the listener keeps; and the server's CPU time per heartbeat (its process's user + system
time over the measured rounds), which a loaded machine disturbs less than the rate.

Before measuring, on either broker, the members heartbeat until the group is settled for STABLE_ROUNDS rounds in a
row: nothing moved, every member at the same epoch, every partition owned by exactly one member (bounded by
SETTLE_ROUNDS rounds and SETTLE_S seconds; a coordinator error meanwhile is waited out, as a client does).

Usage: python3 benchmarks/bench_serve.py [--members 200] [--connections 8] [--rounds 50]
                                         [--loop uvloop|asyncio] [--kafka-bootstrap HOST:PORT | --kafka-rate N]
                                         [--measured FILE]
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

import measured

from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_NAMES, GroupctlError
from groupctl.kafka.cluster import Cluster
from groupctl.kafka.config import ClientConfig
from groupctl.kafka.coordinator import RETRIABLE
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.groups import describe_consumer_groups
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
    TopicPartitions,
)
from groupctl.protocol.data.topics import CreatableTopic, CreateTopicsRequestData
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.server import ServerOptions, ServerThread

TARGET_SHARE = 0.5  # of Kafka's rate
GROUP = "bench"
TOPIC = "bench-topic"
CGH = 68
VERSION = 1
SETTLE_ROUNDS = 500
SETTLE_S = 60.0
STABLE_ROUNDS = 3
RETRY_S = 0.1  # between rounds while the coordinator answers with a coordinator error
PREPARE_S = 60.0  # making the topic and finding the coordinator on a live broker
CREATE_TOPICS, CREATE_TOPICS_VERSIONS = 19, range(2, 8)


class Member:
    """One simulated KIP-848 consumer: its id, epoch, what it owns, and what it last told the broker."""

    def __init__(self, index: int, group: str, topic: str) -> None:
        self.member_id = f"bench-member-{index:04d}"
        self.client_id = self.member_id
        self.group, self.topic = group, topic
        self.epoch = 0
        self.owned: list[TopicPartitions] = []
        self.sent_owned: list[TopicPartitions] | None = None
        self.coordinator_error = 0

    def request(self) -> ConsumerGroupHeartbeatRequestData:
        if self.epoch == 0:
            return ConsumerGroupHeartbeatRequestData(
                group_id=self.group, member_id=self.member_id, member_epoch=0, rebalance_timeout_ms=60_000,
                subscribed_topic_names=[self.topic], topic_partitions=[])
        body = ConsumerGroupHeartbeatRequestData(group_id=self.group, member_id=self.member_id, member_epoch=self.epoch)
        if self.owned != self.sent_owned:
            body.topic_partitions = self.owned
        return body

    def handle(self, sent: ConsumerGroupHeartbeatRequestData, answer: ConsumerGroupHeartbeatResponseData) -> bool:
        """Apply a response; True when it moved anything (epoch or assignment), or when it was a coordinator error
        (the coordinator loading or moving: the member asks again next round, as a client does)."""
        code = answer.error_code
        self.coordinator_error = code if code in RETRIABLE else 0
        if self.coordinator_error:
            return True
        if code:
            raise SystemExit(f"{self.member_id}: error {code} {answer.error_message}")
        if sent.topic_partitions is not None:
            self.sent_owned = sent.topic_partitions
        moved = answer.member_epoch != self.epoch
        self.epoch = answer.member_epoch
        if answer.assignment is not None:
            owned = [TopicPartitions(topic_id=t.topic_id, partitions=sorted(t.partitions))
                     for t in answer.assignment.topic_partitions]
            moved |= owned != self.owned
            self.owned = owned
        return moved


class Settling:
    """When a group is settled enough to measure: `needed` rounds in a row in which nothing moved, every member is
    at the same epoch (not 0) and each of the topic's `partitions` is owned by exactly one member. One quiet round
    is not enough on a real broker, where a member can wait a round for partitions another one still releases."""

    def __init__(self, partitions: int, needed: int = STABLE_ROUNDS) -> None:
        self.partitions, self.needed = partitions, needed
        self.quiet = 0
        self.rounds = 0
        self.last = "no round yet"

    def observe(self, moved: bool, members: list[Member]) -> bool:
        """Take one round's outcome; True once the group has been settled for `needed` rounds."""
        self.rounds += 1
        epochs = {m.epoch for m in members}
        owned = [(t.topic_id, p) for m in members for t in m.owned for p in t.partitions]
        errors = {m.coordinator_error for m in members} - {0}
        settled = not moved and len(epochs) == 1 and 0 not in epochs and len(set(owned)) == len(owned) == \
            self.partitions
        self.quiet = self.quiet + 1 if settled else 0
        self.last = (f"epochs {min(epochs)}..{max(epochs)}, {len(set(owned))} of {self.partitions} partitions owned"
                     f"{' (some twice)' if len(set(owned)) != len(owned) else ''}, "
                     f"{'something moved' if moved else 'nothing moved'}"
                     + (f", coordinator errors {sorted(errors)}" if errors else ""))
        return self.quiet >= self.needed


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
            framing.encode_request(CGH, VERSION, i, m.client_id, ConsumerGroupHeartbeatRequestData(
                group_id=m.group, member_id=m.member_id, member_epoch=m.epoch))
            for i, m in enumerate(self.members)
        )
        answered = 0
        for _ in range(rounds):
            self.writer.write(frames)
            await self.writer.drain()
            for member in self.members:
                answer = await self._answer()
                if answer.error_code or answer.member_epoch != member.epoch:
                    raise SystemExit(f"{member.member_id}: steady heartbeat answered {answer}")
                answered += 1
        return answered

    async def _answer(self) -> ConsumerGroupHeartbeatResponseData:
        size = framing.frame_size(await self.reader.readexactly(4), 1 << 24)
        return framing.decode_response(await self.reader.readexactly(size), CGH, VERSION).body


def prepare_kafka(bootstrap: str, group: str, topic: str, partitions: int, timeout_s: float = PREPARE_S
                  ) -> tuple[str, int]:
    """Make `topic` on a live broker, wait until Metadata shows its partitions led, and find `group`'s
    coordinator, ready to take heartbeats: (host, port). Any failure ends the benchmark with what went wrong."""
    try:
        config = ClientConfig.from_properties({"bootstrap.servers": bootstrap, "client.id": "bench-serve"})
        with Cluster(config, timeout=timeout_s) as cluster:
            deadline = cluster.deadline()
            request = CreateTopicsRequestData(
                topics=[CreatableTopic(name=topic, num_partitions=partitions, replication_factor=1)],
                timeout_ms=int(timeout_s * 1000))
            _, created = cluster.any_connection(deadline).call(CREATE_TOPICS, CREATE_TOPICS_VERSIONS,
                                                               lambda v: request, deadline)
            if created.topics[0].error_code:
                raise SystemExit(f"--kafka-bootstrap {bootstrap}: CreateTopics {topic}: {created.topics[0]}")
            while True:
                found = cluster.metadata(deadline, [topic]).topics.get(topic)
                if found is not None and not found.error_code and len(found.partitions) == partitions and all(
                        p.leader_id >= 0 and not p.error_code for p in found.partitions.values()):
                    break
                if deadline.expired:
                    raise SystemExit(f"--kafka-bootstrap {bootstrap}: {topic} has no led partitions after "
                                     f"{timeout_s:g} s")
                deadline.sleep(0.1)
            coordinator = find_coordinator(cluster, group, deadline)
    except GroupctlError as exc:
        raise SystemExit(f"--kafka-bootstrap {bootstrap}: {exc}") from None
    return coordinator


def find_coordinator(cluster: Cluster, group: str, deadline: Deadline) -> tuple[str, int]:
    """`group`'s coordinator, once it takes requests for the group: groupctl's own client asks it
    ConsumerGroupDescribe, rediscovering and backing off while FindCoordinator or the coordinator answers
    COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS or NOT_COORDINATOR (a fresh broker does while it
    creates and loads __consumer_offsets). A group that does not exist yet is answered GROUP_ID_NOT_FOUND: that
    is the coordinator ready."""
    info = describe_consumer_groups(cluster, [group], deadline)[group]
    if info.coordinator is None:
        raise SystemExit(f"no coordinator named for group {group!r}")
    return info.coordinator.host, info.coordinator.port


def kafka_group_state(bootstrap: str, group: str, timeout_s: float = PREPARE_S) -> tuple[str, int]:
    """The group's state and epoch as the live broker describes them (ConsumerGroupDescribe, groupctl's client)."""
    try:
        config = ClientConfig.from_properties({"bootstrap.servers": bootstrap, "client.id": "bench-serve"})
        with Cluster(config, timeout=timeout_s) as cluster:
            info = describe_consumer_groups(cluster, [group], cluster.deadline())[group]
    except GroupctlError as exc:
        raise SystemExit(f"--kafka-bootstrap {bootstrap}: describing group {group!r}: {exc}") from None
    described = info.described
    if described.error_code:
        raise SystemExit(f"--kafka-bootstrap {bootstrap}: describing group {group!r}: error {described.error_code} "
                         f"{described.error_message}")
    return described.group_state, described.group_epoch


async def drive(host: str, port: int, members: int, connections: int, control: Connection, group: str,
                topic: str) -> None:
    """The client process's loop: obey `control` ("settle", "measure", "stop") and report back."""
    everyone = [Member(i, group, topic) for i in range(members)]
    sockets = []
    for c in range(connections):
        reader, writer = await asyncio.open_connection(host, port)
        sockets.append(Socket(reader, writer, everyone[c::connections]))
    try:
        while True:
            command, rounds = control.recv()
            if command == "settle":
                settling = Settling(members)
                settled = False
                deadline = time.monotonic() + SETTLE_S
                for _ in range(rounds):
                    moved = await asyncio.gather(*(s.round() for s in sockets))
                    settled = settling.observe(any(moved), everyone)
                    if settled or time.monotonic() > deadline:
                        break
                    if any(m.coordinator_error for m in everyone):
                        await asyncio.sleep(RETRY_S)
                control.send((settled, everyone[0].epoch, [m.member_id for m in everyone], settling.rounds,
                              settling.last))
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
                   topic: str = TOPIC) -> None:
    asyncio.run(drive(host, port, members, connections, control, group, topic))


def coordinator_rate(broker: Broker, member_ids: list[str], epoch: int, rounds: int) -> tuple[int, float]:
    """The peer: the same steady heartbeats straight into the coordinator (same client id and host, so
    nothing changes and nothing is written)."""
    requests = [(ConsumerGroupHeartbeatRequestData(group_id=GROUP, member_id=mid, member_epoch=epoch),
                 Caller(mid, "/127.0.0.1", 1)) for mid in member_ids]
    heartbeat = broker.coordinator.heartbeat
    before = broker.coordinator.runtime.records_written
    start = time.perf_counter()
    for _ in range(rounds):
        for request, caller in requests:
            response = heartbeat(request, caller)
            if response.error_code:
                raise SystemExit(f"in-process heartbeat failed: {KAFKA_ERROR_NAMES.get(response.error_code)}")
    elapsed = time.perf_counter() - start
    if broker.coordinator.runtime.records_written != before:
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
                       "live beside this run, heartbeats/s")
    measured.add_argument(parser)
    args = parser.parse_args()
    recorded = measured.load(args.measured)
    peers: list[tuple[str, float]] = []
    rate = recorded.figure("broker_heartbeats_per_s_median")
    if rate is not None:
        peers.append((f"{recorded.kafka} broker on this load ({recorded.provenance}, median of 5)", rate))
    else:
        print(recorded.missing("a Kafka broker on this load"))
    if args.kafka_rate is not None:
        peers.append(("a Kafka broker on this load, measured live beside this run (--kafka-rate)", args.kafka_rate))
    elif args.kafka_bootstrap:
        peers.append((f"the broker at {args.kafka_bootstrap} on this load, measured live in this run",
                      measure_kafka(args)))
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        options = ServerOptions(Path(tmp) / "cluster", port=0)
        server = ServerThread(options, timeout_s=60.0, **({"loop": args.loop} if args.loop else {}))
        server.start()
        try:
            server.call(lambda b: b.backend.create_topic(TOPIC, args.members))
            host, port = server.bootstrap.rsplit(":", 1)
            with MembersProcess(host, int(port), args) as control:
                return run(server, control, args, peers)
        finally:
            server.stop()


class MembersProcess:
    """The members in their own process, driven over a pipe; stopped (bounded) on exit."""

    def __init__(self, host: str, port: int, args: argparse.Namespace, group: str = GROUP, topic: str = TOPIC
                 ) -> None:
        context = multiprocessing.get_context("spawn")
        self.control, child_end = context.Pipe()
        self.process = context.Process(target=client_process, args=(host, port, args.members, args.connections,
                                                                    child_end, group, topic))

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
    settled, epoch, member_ids, rounds, last = control.recv()
    if not settled:
        raise SystemExit(f"the group did not settle ({STABLE_ROUNDS} quiet rounds in a row) in {rounds} rounds "
                         f"(at most {SETTLE_ROUNDS}, {SETTLE_S:g} s); last round: {last}")
    return epoch, member_ids, time.perf_counter() - start


def measure(control: Connection, rounds: int) -> tuple[int, float, float]:
    """`rounds` steady heartbeats of every member: (how many were answered, seconds, the members' CPU seconds)."""
    control.send(("measure", rounds))
    count, elapsed, client_cpu_s = control.recv()
    return count, elapsed, client_cpu_s


def measure_kafka(args: argparse.Namespace) -> float:
    """The same load on a live broker, a fresh group and topic of its own; its steady rate."""
    suffix = uuid.uuid4().hex[:8]
    group, topic = f"{GROUP}-{suffix}", f"{TOPIC}-{suffix}"
    host, port = prepare_kafka(args.kafka_bootstrap, group, topic, args.members)
    with MembersProcess(host, port, args, group, topic) as control:
        epoch, _, settle_s = settle(control)
        state, group_epoch = kafka_group_state(args.kafka_bootstrap, group)
        if state != "Stable" or group_epoch != epoch:
            raise SystemExit(f"--kafka-bootstrap {args.kafka_bootstrap}: the members settled at epoch {epoch}, but "
                             f"the broker describes group {group!r} as {state} at epoch {group_epoch}")
        count, elapsed, _ = measure(control, args.rounds)
    print(f"the broker at {args.kafka_bootstrap}: group {group!r} Stable at epoch {epoch} after {settle_s:.2f} s; "
          f"{count:,} steady heartbeats in {elapsed:.3f} s = {count / elapsed:,.0f}/s")
    return count / elapsed


def run(server: ServerThread, control: Connection, args: argparse.Namespace, peers: list[tuple[str, float]]) -> int:
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
    print(f"group {GROUP!r}: {args.members} members over {args.connections} sockets, Stable at epoch {epoch} "
          f"after {settle_s:.2f} s of joining and reconciling; server event loop: {loop_name}")
    print(f"over loopback: {count:,} steady heartbeats in {elapsed:.3f} s = {per_s:,.0f}/s; server CPU "
          f"{cpu_us:.1f} us per heartbeat ({user_us:.1f} user, {system_us:.1f} system; one core at that cost: "
          f"{1e6 / cpu_us:,.0f}/s), the members' {client_cpu_s / count * 1e6:.1f} us")
    for name, kafka_rate in peers:
        target = TARGET_SHARE * kafka_rate
        print(f"peer, {measured.compare(name, kafka_rate, per_s, 'heartbeats/s', digits=0, higher_is_better=True)}"
              f"; target >= {TARGET_SHARE:g}x ({target:,.0f}/s): {'met' if per_s >= target else 'MISSED'}")
    print(f"peer, the in-process coordinator on the same group: {peer_count:,} in {peer_elapsed:.3f} s = "
          f"{peer_per_s:,.0f}/s; listener/coordinator ratio: {per_s / peer_per_s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
