"""ConsumerGroupHeartbeat throughput through `groupctl serve`'s listener, over loopback.

200 simulated KIP-848 members join one group (a topic with a partition per member, uniform assignor) by raw
ConsumerGroupHeartbeat v1 frames, spread over a few sockets, and are driven to Stable (each acks its
assignment as a client does). Then every member heartbeats round after round as a KIP-848 client
does in steady state (member id and epoch only); a round pipelines each socket's requests, as a
client with several requests in flight does, and the broker answers each socket in order. The
members run in a separate process, as real clients would, so the server has its interpreter to itself.

The peer, measured in the same run: the in-process coordinator's own steady heartbeat rate for the
same members of the same group (called on the server's loop, no wire). Prints both, their ratio (the
share of the coordinator's rate the listener keeps), and the issue's target (5,000/s over loopback).

Usage: python3 benchmarks/bench_serve.py [--members 200] [--connections 8] [--rounds 50]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from groupctl.coordinator.consumer import HeartbeatRequest
from groupctl.protocol.messages import framing
from groupctl.server.broker import Broker
from groupctl.server.server import ServerOptions, ServerThread

TARGET_PER_S = 5_000
GROUP = "bench"
TOPIC = "bench-topic"
CGH = 68
VERSION = 1
SETTLE_ROUNDS = 60


class Member:
    """One simulated KIP-848 consumer: its id, epoch, what it owns, and what it last told the broker."""

    def __init__(self, index: int) -> None:
        self.member_id = f"bench-member-{index:04d}"
        self.client_id = self.member_id
        self.epoch = 0
        self.owned: list[dict] = []
        self.sent_owned: list[dict] | None = None

    def request(self) -> dict[str, Any]:
        if self.epoch == 0:
            return {"groupId": GROUP, "memberId": self.member_id, "memberEpoch": 0, "rebalanceTimeoutMs": 60_000,
                    "subscribedTopicNames": [TOPIC], "topicPartitions": []}
        body: dict[str, Any] = {"groupId": GROUP, "memberId": self.member_id, "memberEpoch": self.epoch}
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
                                   {"groupId": GROUP, "memberId": m.member_id, "memberEpoch": m.epoch})
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


async def drive(host: str, port: int, members: int, connections: int, control: Connection) -> None:
    """The client process's loop: obey `control` ("settle", "measure", "stop") and report back."""
    everyone = [Member(i) for i in range(members)]
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
                start = time.perf_counter()
                answered = await asyncio.gather(*(s.steady(rounds) for s in sockets))
                control.send((sum(answered), time.perf_counter() - start))
            else:
                return
    finally:
        for s in sockets:
            s.writer.close()


def client_process(host: str, port: int, members: int, connections: int, control: Connection) -> None:
    asyncio.run(drive(host, port, members, connections, control))


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        server = ServerThread(ServerOptions(Path(tmp) / "cluster", port=0), timeout_s=60.0)
        server.start()
        try:
            server.call(lambda b: b.backend.create_topic(TOPIC, args.members))
            host, port = server.bootstrap.rsplit(":", 1)
            context = multiprocessing.get_context("spawn")
            control, child_end = context.Pipe()
            client = context.Process(target=client_process,
                                     args=(host, int(port), args.members, args.connections, child_end))
            client.start()
            try:
                return run(server, control, args)
            finally:
                control.send(("stop", 0))
                client.join(30)
                if client.is_alive():
                    client.terminate()
        finally:
            server.stop()


def run(server: ServerThread, control: Connection, args: argparse.Namespace) -> int:
    start = time.perf_counter()
    control.send(("settle", SETTLE_ROUNDS))
    quiet, epoch, member_ids = control.recv()
    state = server.call(lambda b: b.coordinator.describe(GROUP).state)
    if not quiet or state != "Stable":
        raise SystemExit(f"the group did not settle (state {state}, quiet {quiet})")
    settle_s = time.perf_counter() - start

    control.send(("measure", args.rounds))
    count, elapsed = control.recv()
    per_s = count / elapsed
    peer_count, peer_elapsed = server.call(lambda b: coordinator_rate(b, member_ids, epoch, args.rounds))
    peer_per_s = peer_count / peer_elapsed

    print(f"group {GROUP!r}: {args.members} members over {args.connections} sockets, Stable at epoch {epoch} "
          f"after {settle_s:.2f} s of joining and reconciling")
    print(f"over loopback: {count:,} steady heartbeats in {elapsed:.3f} s = {per_s:,.0f}/s "
          f"(target >= {TARGET_PER_S:,}/s: {'met' if per_s >= TARGET_PER_S else 'MISSED'}; "
          f"{per_s / TARGET_PER_S:.2f}x the target)")
    print(f"peer, the in-process coordinator on the same group: {peer_count:,} in {peer_elapsed:.3f} s = "
          f"{peer_per_s:,.0f}/s")
    print(f"listener/coordinator ratio: {per_s / peer_per_s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
