"""Simulated consumers that behave towards the coordinator as the Java consumer does, on virtual time.

Two kinds, one interface (`start`, `stop`, `tick`, `next_due`): a classic consumer (JoinGroup/SyncGroup/
Heartbeat, the eager protocol with the range assignor, which is what the Java consumer's defaults run)
and a KIP-848 consumer (ConsumerGroupHeartbeat). Each instance stands for one process (a pod): a
restart is `stop` then `start`, and a new incarnation ignores answers meant for the old one.

Requests are answered synchronously or, for JoinGroup/SyncGroup, through a callback that may run
later, inside another client's request or a timer. Callbacks only queue the answer; the client acts
on it at its next `tick`, so no client ever calls the coordinator from inside the coordinator.

A client's state is plain values (`to_jsonable`, `restore_client`), so a process that ends can leave
its consumers to the next one (`groupctl local`): what a restored client was waiting for when the
previous process ended is lost with that process, and it asks again, as a client does after a
request timed out.
"""

from __future__ import annotations

import re
import uuid
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from groupctl.coordinator.consumer import LEAVE_EPOCH, STATIC_LEAVE_EPOCH
from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.errors import KAFKA_ERROR_CODES, KAFKA_ERROR_NAMES, DecodeError, KafkaError
from groupctl.protocol.consumer_protocol import (
    PROTOCOL_TYPE,
    decode_assignment,
    decode_subscription,
    encode_assignment,
    encode_subscription,
)
from groupctl.protocol.data.consumer_groups import (
    ConsumerGroupHeartbeatRequestData,
    ConsumerGroupHeartbeatResponseData,
    TopicPartitions,
)
from groupctl.protocol.data.groups import (
    HeartbeatRequestData,
    JoinGroupRequestData,
    JoinGroupRequestProtocol,
    JoinGroupResponseData,
    JoinGroupResponseMember,
    MemberIdentity,
    SyncGroupRequestAssignment,
    SyncGroupRequestData,
    SyncGroupResponseData,
)
from groupctl.protocol.primitives import WireError, uuid_from_kafka, uuid_to_kafka
from groupctl.simulation.ownership import Partition
from groupctl.simulation.range_assignor import RangeMember, range_assign

#: The Java consumer's defaults that shape a rebalance.
HEARTBEAT_INTERVAL_MS = 3_000  # heartbeat.interval.ms (classic; KIP-848 uses the interval the broker returns)
MAX_POLL_INTERVAL_MS = 300_000  # max.poll.interval.ms, sent as the rebalance timeout
RETRY_BACKOFF_MS = 100  # retry.backoff.ms
#: partition.assignment.strategy's default: range first, so the group picks range (eager).
CLASSIC_PROTOCOLS = ("range", "cooperative-sticky")
#: What one tick may do at most; the rest waits for the next tick (keeps every loop bounded).
MAX_ACTIONS_PER_TICK = 16

_CODE = KAFKA_ERROR_CODES
Observer = Callable[[str, frozenset[Partition], frozenset[Partition], int], None]


def error_name(code: int) -> str:
    return KAFKA_ERROR_NAMES.get(code, str(code))


@dataclass(frozen=True, slots=True)
class HeartbeatResult:
    """One heartbeat's answer as the member saw it: `epoch` is the generation (classic) or member epoch."""

    error: str  # Kafka's error name, NONE when there was none
    message: str | None
    member_id: str
    epoch: int
    assignment: frozenset[Partition] | None = None  # KIP-848: sent only when it changed
    interval_ms: int | None = None


def _partitions_jsonable(partitions: frozenset[Partition]) -> list[list[Any]]:
    return [[t, p] for t, p in sorted(partitions)]


def _partitions_from(data: list[list[Any]]) -> frozenset[Partition]:
    return frozenset((str(t), int(p)) for t, p in data)


class SimulatedClient(ABC):
    """What both kinds share: identity, the partitions held, and reporting changes to an observer."""

    protocol = ""

    def __init__(self, coord: Coordinator, name: str, group_id: str, topics: list[str], *,
                 instance_id: str | None, observe: Observer, anomalies: list[str], regex: str | None = None) -> None:
        self.coord = coord
        self.name = name
        self.group_id = group_id
        self.topics = sorted(topics)
        self.regex = regex  # a pattern subscription instead of `topics`
        self.instance_id = instance_id
        self.observe = observe
        self.anomalies = anomalies
        self.member_id = ""
        self.owned: frozenset[Partition] = frozenset()
        self.running = False
        self.incarnation = 0

    @property
    def now(self) -> int:
        return self.coord.clock.now_ms()

    def _set_owned(self, partitions: frozenset[Partition]) -> None:
        """Revoke and assign (the rebalance listener's work) in one step, and tell the observer."""
        if partitions != self.owned:
            before, self.owned = self.owned, partitions
            self.observe(self.name, before, partitions, self.now)

    def _anomaly(self, what: str) -> None:
        self.anomalies.append(f"{self.now} ms {self.name}: {what}")

    def _fail(self, what: str) -> None:
        """A fatal error, as the Java consumer raises it: the process stops without leaving."""
        self._anomaly(what)
        self.running = False
        self.incarnation += 1
        self._set_owned(frozenset())

    @abstractmethod
    def start(self) -> None:
        """A new incarnation: a new process joining the group."""

    @abstractmethod
    def stop(self) -> None:
        """`KafkaConsumer.close()`, then the process exits."""

    @abstractmethod
    def tick(self) -> bool:
        """Act on answers and on whatever is due now; True when anything happened."""

    @abstractmethod
    def next_due(self) -> int | None:
        """When this client next acts on its own (None: only an answer can wake it)."""

    @abstractmethod
    def heartbeat_now(self) -> HeartbeatResult:
        """Send one heartbeat at once, whatever is due, and act on the answer as a due one."""

    def crash(self) -> None:
        """The process dies: nothing is sent, the coordinator learns of it only when the session expires."""
        self._set_owned(frozenset())
        self.running = False
        self.incarnation += 1

    def to_jsonable(self) -> dict[str, Any]:
        """The client's state as plain values; `restore_client` binds it to a coordinator again."""
        return {
            "protocol": self.protocol, "name": self.name, "groupId": self.group_id, "topics": list(self.topics),
            "regex": self.regex, "instanceId": self.instance_id, "memberId": self.member_id,
            "owned": _partitions_jsonable(self.owned), "running": self.running, "incarnation": self.incarnation,
        }

    def _restore_common(self, data: dict[str, Any]) -> None:
        self.member_id = data["memberId"]
        self.owned = _partitions_from(data["owned"])
        self.running = bool(data["running"])
        self.incarnation = int(data["incarnation"])


# -- classic ---------------------------------------------------------------------------------------

#: A classic client's own states, as `to_jsonable` writes them; named CLIENT_ so that none reads as a
#: group's state (`GroupState.STABLE` is "Stable") or a KIP-848 member's (`MemberState.STABLE`).
CLIENT_UNJOINED, CLIENT_JOINING, CLIENT_SYNCING = "unjoined", "joining", "syncing"
CLIENT_STABLE, CLIENT_STOPPED = "stable", "stopped"
CLASSIC_CLIENT_STATES = (CLIENT_UNJOINED, CLIENT_JOINING, CLIENT_SYNCING, CLIENT_STABLE, CLIENT_STOPPED)
#: What the Java consumer's JoinGroup/SyncGroup/Heartbeat handlers raise to the application instead of rejoining.
CLASSIC_FATAL_ERRORS = ("FENCED_INSTANCE_ID", "INCONSISTENT_GROUP_PROTOCOL", "INVALID_SESSION_TIMEOUT",
                        "INVALID_GROUP_ID", "GROUP_MAX_SIZE_REACHED")


class ClassicClient(SimulatedClient):
    """A classic consumer: eager rebalances, the leader runs the range assignor.

    On a rebalance it revokes everything before it rejoins (the eager protocol), so every partition
    is unowned from a member's JoinGroup until its SyncGroup answer. A dynamic member joins with an
    empty member id and gets MEMBER_ID_REQUIRED first (JoinGroup v4+); a static one joins with its
    instance id and takes over its previous member's place. Closing sends LeaveGroup only for a
    dynamic member: a static member relies on the session timeout (KIP-345).
    """

    protocol = "classic"

    def __init__(self, coord: Coordinator, name: str, group_id: str, topics: list[str], *,
                 instance_id: str | None, session_timeout_ms: int, client_id: str, observe: Observer,
                 anomalies: list[str], regex: str | None = None) -> None:
        super().__init__(coord, name, group_id, topics, instance_id=instance_id, observe=observe,
                         anomalies=anomalies, regex=regex)
        self.session_timeout_ms = session_timeout_ms
        self.client_id = client_id
        self.generation = -1
        self.protocol_name: str | None = None
        self.state = CLIENT_STOPPED
        self.next_heartbeat = 0
        self.inbox: deque[JoinGroupResponseData | SyncGroupResponseData] = deque()
        # The leader's `assignmentSnapshot`: partition counts it assigned from; a change means a rebalance.
        self.assigned_metadata: dict[str, int] | None = None

    def start(self) -> None:
        self.incarnation += 1
        self.running = True
        self.member_id, self.generation, self.protocol_name = "", -1, None
        self.state = CLIENT_UNJOINED
        self.inbox.clear()

    def crash(self) -> None:
        super().crash()
        self.state = CLIENT_STOPPED
        self.inbox.clear()

    def to_jsonable(self) -> dict[str, Any]:
        return {
            **super().to_jsonable(), "sessionTimeoutMs": self.session_timeout_ms, "clientId": self.client_id,
            "generation": self.generation, "protocolName": self.protocol_name, "state": self.state,
            "nextHeartbeatMs": self.next_heartbeat, "assignedMetadata": self.assigned_metadata,
            "inbox": [_answer_jsonable(a) for a in self.inbox],
        }

    def stop(self) -> None:
        """`KafkaConsumer.close()`: a dynamic member that is in the group leaves; a static one says nothing."""
        if self.running and self.instance_id is None and self.member_id and self.state != CLIENT_UNJOINED:
            try:
                leaving = [MemberIdentity(member_id=self.member_id, reason="the consumer is being closed")]
                answer = self.coord.leave_group(self.group_id, leaving)
            except KafkaError as exc:  # the Java client logs a failed leave, and closes all the same
                self._anomaly(f"LeaveGroup answered {exc}")
            else:
                for member in answer.response.members:
                    if member.error_code:
                        self._anomaly(f"LeaveGroup answered {error_name(member.error_code)} for {member.member_id}")
        self._set_owned(frozenset())
        self.running = False
        self.state = CLIENT_STOPPED
        self.incarnation += 1
        self.inbox.clear()

    def next_due(self) -> int | None:
        if not self.running:
            return None
        if self.inbox or self.state == CLIENT_UNJOINED:
            return self.now
        return self.next_heartbeat if self.state == CLIENT_STABLE else None

    def tick(self) -> bool:
        acted = False
        for _ in range(MAX_ACTIONS_PER_TICK):
            if not self.running:
                break
            if self.inbox:
                answer = self.inbox.popleft()
                if isinstance(answer, JoinGroupResponseData):
                    self._on_join(answer)
                else:
                    self._on_sync(answer)
            elif self.state == CLIENT_UNJOINED:
                self._join()
            elif self.state == CLIENT_STABLE and self.now >= self.next_heartbeat:
                if self._rejoin_needed():
                    self.state = CLIENT_UNJOINED  # `rejoinNeededOrPending()`: the metadata it joined with changed
                else:
                    self._heartbeat()
            else:
                break
            acted = True
        return acted

    def _deliver(self, incarnation: int) -> Callable[[JoinGroupResponseData | SyncGroupResponseData], None]:
        def deliver(answer: JoinGroupResponseData | SyncGroupResponseData) -> None:
            if incarnation == self.incarnation and self.running:
                self.inbox.append(answer)

        return deliver

    def _subscription(self) -> bytes:
        return encode_subscription({
            "topics": self.topics, "userData": None, "ownedPartitions": _by_topic(self.owned),
            "generationId": self.generation, "rackId": None,
        }, 3)

    def _resolved_topics(self) -> list[str]:
        """A pattern subscription resolved against the topics the client sees (java.util.regex full match)."""
        if self.regex is None:
            return self.topics
        pattern = re.compile(self.regex)
        return [t for t in self.coord.topics.names() if pattern.fullmatch(t)]

    def _partition_counts(self, topics: list[str] | dict[str, int]) -> dict[str, int]:
        counts = {}
        for topic in topics:
            found = self.coord.topics.get(topic)
            counts[topic] = -1 if found is None else found.partitions
        return counts

    def _rejoin_needed(self) -> bool:
        """A pattern that now matches other topics, or (leader) partition counts that moved since it assigned."""
        if self.regex is not None and self._resolved_topics() != self.topics:
            return True
        metadata = self.assigned_metadata
        return metadata is not None and self._partition_counts(metadata) != metadata

    def _join(self) -> None:
        self._set_owned(frozenset())  # eager: onPartitionsRevoked(everything) before JoinGroup
        self.state = CLIENT_JOINING
        if self.regex is not None:
            self.topics = self._resolved_topics()
        subscription = self._subscription()
        self.coord.join_group(JoinGroupRequestData(
            group_id=self.group_id, session_timeout_ms=self.session_timeout_ms,
            rebalance_timeout_ms=MAX_POLL_INTERVAL_MS, member_id=self.member_id, group_instance_id=self.instance_id,
            protocol_type=PROTOCOL_TYPE,
            protocols=[JoinGroupRequestProtocol(name=name, metadata=subscription) for name in CLASSIC_PROTOCOLS],
        ), self._deliver(self.incarnation), Caller(client_id=self.client_id))

    def _on_join(self, r: JoinGroupResponseData) -> None:
        code = r.error_code
        if code == 0:
            self.member_id, self.generation, self.protocol_name = r.member_id, r.generation_id, r.protocol_name
            self.assigned_metadata = None
            assignments: list[SyncGroupRequestAssignment] = []
            if r.leader == self.member_id and not r.skip_assignment:
                assignments = self._assign(r.members)
            elif r.leader == self.member_id:
                # A static leader back in a Stable group skips the assignment but, as the Java client keeps
                # its assignment snapshot, still watches the partition counts it was led with.
                self.assigned_metadata = self._partition_counts(
                    sorted({t for info in self._subscriptions(r.members) for t in info.topics})
                )
            self.state = CLIENT_SYNCING
            self.coord.sync_group(SyncGroupRequestData(
                group_id=self.group_id, generation_id=self.generation, member_id=self.member_id,
                group_instance_id=self.instance_id, protocol_type=PROTOCOL_TYPE, protocol_name=self.protocol_name,
                assignments=assignments,
            ), self._deliver(self.incarnation))
        elif code == _CODE["MEMBER_ID_REQUIRED"]:
            self.member_id = r.member_id
            self.state = CLIENT_UNJOINED
        else:
            self._on_group_error(code, "JoinGroup")

    def _on_sync(self, r: SyncGroupResponseData) -> None:
        if r.error_code:
            self._on_group_error(r.error_code, "SyncGroup")
            return
        self._set_owned(assignment_partitions(r.assignment))
        self.state = CLIENT_STABLE
        self.next_heartbeat = self.now + HEARTBEAT_INTERVAL_MS

    def _heartbeat(self) -> None:
        code = self.coord.classic_heartbeat(HeartbeatRequestData(
            group_id=self.group_id, generation_id=self.generation, member_id=self.member_id,
            group_instance_id=self.instance_id,
        )).error_code
        if code == 0:
            self.next_heartbeat = self.now + HEARTBEAT_INTERVAL_MS
        else:
            self._on_group_error(code, "Heartbeat")

    def heartbeat_now(self) -> HeartbeatResult:
        """The heartbeat thread's request; only a member of a stable generation acts on the answer."""
        member_id, generation = self.member_id, self.generation
        code = self.coord.classic_heartbeat(HeartbeatRequestData(
            group_id=self.group_id, generation_id=generation, member_id=member_id, group_instance_id=self.instance_id,
        )).error_code
        if self.state == CLIENT_STABLE:
            if code == 0:
                self.next_heartbeat = self.now + HEARTBEAT_INTERVAL_MS
            else:
                self._on_group_error(code, "Heartbeat")
        return HeartbeatResult(error_name(code), None, member_id, generation)

    def _on_group_error(self, code: int, api: str) -> None:
        """`AbstractCoordinator`'s handling: rejoin, resetting what the error says is stale."""
        name = error_name(code)
        if name in CLASSIC_FATAL_ERRORS:
            self._fail(f"{api} answered {name}: the consumer shuts down")
            self.state = CLIENT_STOPPED
            self.inbox.clear()
            return
        if name == "UNKNOWN_MEMBER_ID":
            self.member_id, self.generation = "", -1
        elif name == "ILLEGAL_GENERATION":
            self.generation = -1
        elif name != "REBALANCE_IN_PROGRESS":
            self._anomaly(f"{api} answered {name}; rejoining")
        self.state = CLIENT_UNJOINED

    def _subscriptions(self, members: list[JoinGroupResponseMember]) -> list[RangeMember]:
        infos = []
        for member in members:
            try:
                topics = tuple(decode_subscription(member.metadata)[1]["topics"])
            except (DecodeError, WireError):
                self._anomaly(f"undecodable subscription from {member.member_id}")
                topics = ()
            infos.append(RangeMember(member.member_id, member.group_instance_id, topics))
        return infos

    def _assign(self, members: list[JoinGroupResponseMember]) -> list[SyncGroupRequestAssignment]:
        """The leader's work: decode every subscription, run range, encode each member's share."""
        infos = self._subscriptions(members)

        def partition_count(topic: str) -> int | None:
            found = self.coord.topics.get(topic)
            return None if found is None else found.partitions

        plan = range_assign(infos, partition_count)
        self.assigned_metadata = self._partition_counts(sorted({t for info in infos for t in info.topics}))
        return [SyncGroupRequestAssignment(member_id=m.member_id, assignment=encode_assignment({
            "assignedPartitions": [{"topic": t, "partitions": ps} for t, ps in sorted(plan[m.member_id].items())],
            "userData": None,
        }, 3)) for m in members]


def _by_topic(partitions: frozenset[Partition]) -> list[dict]:
    grouped: dict[str, list[int]] = {}
    for topic, partition in sorted(partitions):
        grouped.setdefault(topic, []).append(partition)
    return [{"topic": t, "partitions": ps} for t, ps in grouped.items()]


def assignment_partitions(raw: bytes) -> frozenset[Partition]:
    """The partitions in a ConsumerProtocolAssignment (empty bytes: none, as the coordinator's default)."""
    if not raw:
        return frozenset()
    data = decode_assignment(raw)[1]
    return frozenset((tps["topic"], p) for tps in data["assignedPartitions"] for p in tps["partitions"])


# -- KIP-848 ---------------------------------------------------------------------------------------

REJOIN_ERRORS = ("FENCED_MEMBER_EPOCH", "UNKNOWN_MEMBER_ID")
FATAL_ERRORS = ("UNRELEASED_INSTANCE_ID", "FENCED_INSTANCE_ID", "GROUP_MAX_SIZE_REACHED", "UNSUPPORTED_ASSIGNOR",
                "INVALID_REQUEST", "GROUP_ID_NOT_FOUND", "INVALID_REGULAR_EXPRESSION")


class HeartbeatingClient(SimulatedClient):
    """A client of the heartbeat-only protocols (consumer, share): it acts when its next heartbeat is due."""

    next_heartbeat: int

    @abstractmethod
    def _heartbeat(self) -> object:
        """Send the due heartbeat and act on its answer."""

    def next_due(self) -> int | None:
        return self.next_heartbeat if self.running else None

    def tick(self) -> bool:
        acted = False
        for _ in range(MAX_ACTIONS_PER_TICK):
            if not self.running or self.now < self.next_heartbeat:
                break
            self._heartbeat()
            acted = True
        return acted


class ConsumerClient(HeartbeatingClient):
    """A KIP-848 consumer (`group.protocol=consumer`, ConsumerGroupHeartbeat v1, or v0 on request).

    It generates its member id at start (KIP-1082; a v0 client joins with an empty one and takes the
    id the coordinator gives) and joins with epoch 0; afterwards it heartbeats at the interval the
    broker returns, and at once after it reconciled a new assignment (revoked what is gone, taken what
    is new) to report what it owns. Like the Java client it sends the full request when joining and
    after an error or a lost response, and otherwise only what changed (a new subscription, new owned
    partitions). After FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID it drops its partitions and rejoins with
    epoch 0, keeping its member id. Closing revokes everything and leaves with epoch -2 when static (the
    coordinator keeps its assignment for the session timeout), -1 when dynamic. A pattern subscription
    (`regex`) is sent as SubscribedTopicRegex beside the (empty) name list and resolved by the broker
    (RE2/J); `assignor` is `group.remote.assignor`, sent as ServerAssignor.

    With `auto_ack` off the rebalance listener is slow: a new assignment waits in `pending_assignment`
    until `finish_reconciliation()`, and meanwhile the member reports what it still owns. `member_id`
    fixes a v1 client's member id for every start instead of drawing a new one from `ids`, for scenarios
    that name their members (the uniform assignor breaks ties by member id).
    """

    protocol = "consumer"

    def __init__(self, coord: Coordinator, name: str, group_id: str, topics: list[str], *,
                 instance_id: str | None, ids: IdGenerator, observe: Observer, anomalies: list[str],
                 regex: str | None = None, assignor: str | None = None, client_id: str | None = None,
                 version: int = 1, rebalance_timeout_ms: int = MAX_POLL_INTERVAL_MS,
                 member_id: str | None = None) -> None:
        super().__init__(coord, name, group_id, topics, instance_id=instance_id, observe=observe,
                         anomalies=anomalies, regex=regex)
        if member_id is not None and (version < 1 or not member_id):
            raise ValueError("only a v1 client chooses its member id, and it is never empty")
        self.fixed_member_id = member_id
        self.assignor = assignor
        self.client_id = client_id
        self.ids = ids
        self.version = version
        #: What its requests carry beside the body: its client id (groupctl's default when None), its version.
        self.caller = Caller(api_version=version) if client_id is None else Caller(client_id, api_version=version)
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.epoch = 0
        self.owned_ids: dict[uuid.UUID, frozenset[int]] = {}
        self.sent_owned: dict[uuid.UUID, frozenset[int]] | None = None
        self.sent_topics: list[str] | None = None
        self.sent_regex: str | None = None
        self.full = True
        self.next_heartbeat = 0
        self.auto_ack = True
        self.pending_assignment: dict[uuid.UUID, frozenset[int]] | None = None

    def start(self) -> None:
        self.incarnation += 1
        self.running = True
        if self.version < 1:
            self.member_id = ""
        else:
            self.member_id = self.fixed_member_id or self.ids.member_id()
        self.epoch = 0
        self._resend_all()
        self.pending_assignment = None
        self.next_heartbeat = self.now

    def __repr__(self) -> str:
        return f"ConsumerClient({self.name} {self.member_id or '-'} epoch={self.epoch} instance={self.instance_id})"

    def stop(self) -> None:
        """`KafkaConsumer.close()`: onPartitionsRevoked, then the leave heartbeat."""
        self.leave()

    def leave(self, epoch: int | None = None) -> ConsumerGroupHeartbeatResponseData | None:
        """Close: revoke everything and, if a member, send the leave heartbeat; its answer (None: nothing sent).

        `epoch` is the leave epoch: by default -2 for a static member (a temporary leave) and -1 for a dynamic
        one; -1 makes a static member leave for good."""
        self._take({})
        r = None
        if self.running and self.epoch > 0:
            if epoch is None:
                epoch = STATIC_LEAVE_EPOCH if self.instance_id is not None else LEAVE_EPOCH
            r = self.coord.heartbeat(ConsumerGroupHeartbeatRequestData(
                group_id=self.group_id, member_id=self.member_id, member_epoch=epoch, instance_id=self.instance_id,
            ), self.caller)
            if r.error_code:
                self._anomaly(f"leave heartbeat (epoch {epoch}) answered {error_name(r.error_code)}: "
                              f"{r.error_message}")
        self.running = False
        self.incarnation += 1
        return r


    def to_jsonable(self) -> dict[str, Any]:
        return {
            **super().to_jsonable(), "assignor": self.assignor, "clientId": self.client_id, "epoch": self.epoch,
            "ownedIds": by_topic_id(self.owned_ids),
            "sentOwned": None if self.sent_owned is None else by_topic_id(self.sent_owned), "full": self.full,
            "nextHeartbeatMs": self.next_heartbeat,
        }


    def _owned_list(self) -> list[TopicPartitions]:
        return [TopicPartitions(topic_id=t, partitions=sorted(ps))
                for t, ps in sorted(self.owned_ids.items(), key=lambda kv: kv[0].bytes) if ps]

    def _resend_all(self) -> None:
        """What the client sent is forgotten (a join, an error, a lost answer): the next request is full."""
        self.full = True
        self.sent_owned = self.sent_topics = self.sent_regex = None

    def _names(self) -> list[str]:
        """SubscribedTopicNames: the topics, or an empty list beside a pattern (a full request carries both)."""
        return [] if self.regex is not None else list(self.topics)

    def request(self) -> ConsumerGroupHeartbeatRequestData:
        """The next ConsumerGroupHeartbeat: everything when joining or `full`, otherwise only what changed."""
        if self.epoch == 0:
            return ConsumerGroupHeartbeatRequestData(
                group_id=self.group_id, member_id=self.member_id, member_epoch=0, instance_id=self.instance_id,
                rebalance_timeout_ms=self.rebalance_timeout_ms, subscribed_topic_names=self._names(),
                subscribed_topic_regex=self.regex, server_assignor=self.assignor, topic_partitions=[],
            )
        full, names = self.full, self._names()
        return ConsumerGroupHeartbeatRequestData(
            group_id=self.group_id, member_id=self.member_id, member_epoch=self.epoch, instance_id=self.instance_id,
            rebalance_timeout_ms=self.rebalance_timeout_ms if full else -1,
            subscribed_topic_names=names if full or names != self.sent_topics else None,
            subscribed_topic_regex=self.regex if self.regex is not None and (full or self.regex != self.sent_regex)
            else None,
            server_assignor=self.assignor if full else None,
            topic_partitions=self._owned_list() if full or self.owned_ids != self.sent_owned else None,
        )

    def _heartbeat(self) -> None:
        req = self.request()
        self.handle(req, self.coord.heartbeat(req, self.caller))

    def heartbeat_now(self) -> HeartbeatResult:
        req = self.request()
        r = self.coord.heartbeat(req, self.caller)
        self.handle(req, r)
        assignment = None
        if r.assignment is not None and not r.error_code:
            names = {t.topic_id: t.name for t in self.coord.topics}
            assignment = frozenset((names.get(t.topic_id, uuid_to_kafka(t.topic_id)), p)
                                   for t in r.assignment.topic_partitions for p in t.partitions)
        epoch = req.member_epoch if r.error_code else r.member_epoch
        return HeartbeatResult(error_name(r.error_code) if r.error_code else "NONE", r.error_message,
                               r.member_id or req.member_id, epoch, assignment, r.heartbeat_interval_ms or None)

    def response_lost(self) -> None:
        """The coordinator handled a heartbeat whose answer never arrived: send everything again next time."""
        self._resend_all()

    def handle(self, req: ConsumerGroupHeartbeatRequestData, r: ConsumerGroupHeartbeatResponseData) -> None:
        """Act on the answer to `req`: rejoin, fail, retry, or take the epoch and reconcile the assignment."""
        if r.error_code:
            self._resend_all()
            error = error_name(r.error_code)
            if error in REJOIN_ERRORS:
                self._take({})  # onPartitionsLost
                self.pending_assignment = None
                self.epoch = 0
                self.next_heartbeat = self.now
            elif error in FATAL_ERRORS:
                self.pending_assignment = None
                self.owned_ids = {}
                self._fail(f"heartbeat answered {error}: {r.error_message}")
            else:
                self._anomaly(f"heartbeat answered {error}: {r.error_message}; retrying")
                self.next_heartbeat = self.now + RETRY_BACKOFF_MS
            return
        self.full = False
        if req.topic_partitions is not None:
            self.sent_owned = {t.topic_id: frozenset(t.partitions) for t in req.topic_partitions if t.partitions}
        if req.subscribed_topic_names is not None:
            self.sent_topics = list(req.subscribed_topic_names)
        if req.subscribed_topic_regex is not None:
            self.sent_regex = req.subscribed_topic_regex
        self.member_id = r.member_id or self.member_id
        self.epoch = r.member_epoch
        self.next_heartbeat = self.now + r.heartbeat_interval_ms
        if r.assignment is not None:
            new = {t.topic_id: frozenset(t.partitions) for t in r.assignment.topic_partitions if t.partitions}
            if new == self.owned_ids:
                self.pending_assignment = None
            elif not self.auto_ack:
                self.pending_assignment = new  # the slow listener reconciles it later
            else:
                self.pending_assignment = None
                self._take(new)
                self.next_heartbeat = self.now  # acknowledge the reconciliation at once

    def finish_reconciliation(self) -> bool:
        """The slow rebalance listener is done: revoke and assign what the last assignment said.
        True if anything moved."""
        if self.pending_assignment is None:
            return False
        self._take(self.pending_assignment)
        self.pending_assignment = None
        self.next_heartbeat = self.now
        return True

    def _take(self, assignment: dict[uuid.UUID, frozenset[int]]) -> None:
        self.owned_ids = assignment
        names = {t.topic_id: t.name for t in self.coord.topics}
        self._set_owned(frozenset((names[t], p) for t, ps in assignment.items() for p in ps))


# -- persistence -----------------------------------------------------------------------------------


def _answer_jsonable(answer: JoinGroupResponseData | SyncGroupResponseData) -> dict[str, Any]:
    if isinstance(answer, JoinGroupResponseData):
        return {
            "api": "JoinGroup", "errorCode": answer.error_code, "generationId": answer.generation_id,
            "protocolType": answer.protocol_type, "protocolName": answer.protocol_name, "leader": answer.leader,
            "skipAssignment": answer.skip_assignment, "memberId": answer.member_id,
            "members": [[m.member_id, m.group_instance_id, m.metadata.hex()] for m in answer.members],
        }
    return {"api": "SyncGroup", "errorCode": answer.error_code, "protocolType": answer.protocol_type,
            "protocolName": answer.protocol_name, "assignment": answer.assignment.hex()}


def by_topic_id(owned: dict[uuid.UUID, frozenset[int]]) -> dict[str, list[int]]:
    return {uuid_to_kafka(t): sorted(ps) for t, ps in sorted(owned.items(), key=lambda kv: kv[0].bytes)}


def from_topic_ids(data: dict[str, list[int]]) -> dict[uuid.UUID, frozenset[int]]:
    return {uuid_from_kafka(t): frozenset(ps) for t, ps in data.items()}


def _answer_from(data: dict[str, Any]) -> JoinGroupResponseData | SyncGroupResponseData:
    if data["api"] == "JoinGroup":
        return JoinGroupResponseData(
            error_code=data["errorCode"], generation_id=data["generationId"], protocol_type=data["protocolType"],
            protocol_name=data["protocolName"], leader=data["leader"], skip_assignment=data["skipAssignment"],
            member_id=data["memberId"],
            members=[JoinGroupResponseMember(member_id=m, group_instance_id=i, metadata=bytes.fromhex(h))
                     for m, i, h in data["members"]],
        )
    return SyncGroupResponseData(error_code=data["errorCode"], protocol_type=data["protocolType"],
                                 protocol_name=data["protocolName"], assignment=bytes.fromhex(data["assignment"]))


def restore_client(coord: Coordinator, data: dict[str, Any], *, observe: Observer, anomalies: list[str],
                   ids: IdGenerator) -> SimulatedClient:
    """A client from `to_jsonable`, bound to `coord` (typically a coordinator reloaded from the same log).

    A classic client that was waiting for a JoinGroup or SyncGroup answer will never get it (the
    request was parked in the process that ended), so it joins again with its member id, as the
    Java client does after a request failed.
    """
    name, group_id, topics = data["name"], data["groupId"], list(data["topics"])
    client: SimulatedClient
    if data["protocol"] == "classic":
        classic = ClassicClient(coord, name, group_id, topics, instance_id=data["instanceId"],
                                session_timeout_ms=int(data["sessionTimeoutMs"]), client_id=data["clientId"],
                                observe=observe, anomalies=anomalies, regex=data["regex"])
        classic._restore_common(data)
        classic.topics = topics  # as resolved at the last join (a pattern subscription re-resolves at the next)
        classic.generation = int(data["generation"])
        classic.protocol_name = data["protocolName"]
        classic.state = data["state"]
        classic.next_heartbeat = int(data["nextHeartbeatMs"])
        classic.assigned_metadata = data["assignedMetadata"]
        classic.inbox.extend(_answer_from(a) for a in data["inbox"])
        if classic.running and classic.state in (CLIENT_JOINING, CLIENT_SYNCING) and not classic.inbox:
            classic.state = CLIENT_UNJOINED
        client = classic
    elif data["protocol"] == "consumer":
        consumer = ConsumerClient(coord, name, group_id, topics, instance_id=data["instanceId"], ids=ids,
                                  observe=observe, anomalies=anomalies, regex=data["regex"],
                                  assignor=data["assignor"], client_id=data["clientId"])
        consumer._restore_common(data)
        consumer.epoch = int(data["epoch"])
        consumer.owned_ids = from_topic_ids(data["ownedIds"])
        consumer.sent_owned = None if data["sentOwned"] is None else from_topic_ids(data["sentOwned"])
        consumer.full = bool(data["full"])
        if not consumer.full:  # the subscription went out with the last full request
            consumer.sent_topics, consumer.sent_regex = consumer._names(), consumer.regex
        consumer.next_heartbeat = int(data["nextHeartbeatMs"])
        client = consumer
    elif data["protocol"] == "share":
        from groupctl.simulation.share_client import restore_share_client  # it builds on this module

        client = restore_share_client(coord, data, observe=observe, anomalies=anomalies, ids=ids)
    else:
        raise ValueError(f"unknown simulated client protocol {data['protocol']!r}")
    return client
