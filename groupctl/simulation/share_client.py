"""A simulated share consumer (KIP-932: `KafkaShareConsumer`, ShareGroupHeartbeat v1).

It generates its member id at start and joins with epoch 0 and its subscription; afterwards it heartbeats
at the interval the broker returns, and at once after its assignment changed (as the Java share consumer
does: s6's second heartbeat follows the one that brought the partition). Nothing is revoked: a share
member takes its new assignment as it comes. After FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID it drops its
partitions and rejoins with epoch 0 and the same member id; closing sends the leave heartbeat (epoch -1).
Share groups commit no offsets, and the lab fetches no records, so the client only holds partitions.
"""

from __future__ import annotations

import uuid
from typing import Any

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.runtime import Caller
from groupctl.protocol.data.share_groups import ShareGroupHeartbeatRequestData, ShareGroupHeartbeatResponseData
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.simulation.clients import (
    RETRY_BACKOFF_MS,
    HeartbeatingClient,
    HeartbeatResult,
    Observer,
    by_topic_id,
    error_name,
    from_topic_ids,
)

#: What makes a share consumer rejoin (epoch 0, same member id) rather than stop.
SHARE_REJOIN_ERRORS = ("FENCED_MEMBER_EPOCH", "UNKNOWN_MEMBER_ID")
#: What the share consumer raises to the application: the process stops without leaving.
SHARE_FATAL_ERRORS = ("GROUP_ID_NOT_FOUND", "INVALID_REQUEST", "GROUP_MAX_SIZE_REACHED", "GROUP_AUTHORIZATION_FAILED",
                      "UNSUPPORTED_VERSION")
LEAVE_EPOCH = -1


class ShareClient(HeartbeatingClient):
    protocol = "share"

    def __init__(self, coord: Coordinator, name: str, group_id: str, topics: list[str], *, ids: IdGenerator,
                 observe: Observer, anomalies: list[str], client_id: str | None = None) -> None:
        super().__init__(coord, name, group_id, topics, instance_id=None, observe=observe, anomalies=anomalies)
        self.ids = ids
        self.client_id = client_id
        self.caller = Caller() if client_id is None else Caller(client_id)
        self.epoch = 0
        self.owned_ids: dict[uuid.UUID, frozenset[int]] = {}
        self.next_heartbeat = 0

    def start(self) -> None:
        self.incarnation += 1
        self.running = True
        self.member_id = self.member_id or self.ids.member_id()
        self.epoch = 0
        self.next_heartbeat = self.now

    def stop(self) -> None:
        """`KafkaShareConsumer.close()`: the partitions go, then the leave heartbeat if it is a member."""
        self._take({})
        if self.running and self.epoch > 0:
            r = self.coord.share_heartbeat(ShareGroupHeartbeatRequestData(
                group_id=self.group_id, member_id=self.member_id, member_epoch=LEAVE_EPOCH), self.caller)
            if r.error_code:
                self._anomaly(f"leave heartbeat answered {error_name(r.error_code)}: {r.error_message}")
        self.running = False
        self.incarnation += 1
        self.epoch = 0



    def request(self) -> ShareGroupHeartbeatRequestData:
        """The next heartbeat: the subscription when joining, only the epoch afterwards."""
        return ShareGroupHeartbeatRequestData(
            group_id=self.group_id, member_id=self.member_id, member_epoch=self.epoch,
            subscribed_topic_names=list(self.topics) if self.epoch == 0 else None)

    def _heartbeat(self) -> ShareGroupHeartbeatResponseData:
        req = self.request()
        r = self.coord.share_heartbeat(req, self.caller)
        self.handle(r)
        return r

    def heartbeat_now(self) -> HeartbeatResult:
        sent_epoch = self.epoch
        r = self._heartbeat()
        assignment = None
        if r.assignment is not None and not r.error_code:
            names = {t.topic_id: t.name for t in self.coord.topics}
            assignment = frozenset((names.get(t.topic_id, uuid_to_kafka(t.topic_id)), p)
                                   for t in r.assignment.topic_partitions for p in t.partitions)
        return HeartbeatResult(error_name(r.error_code) if r.error_code else "NONE", r.error_message,
                               r.member_id or self.member_id, sent_epoch if r.error_code else r.member_epoch,
                               assignment, r.heartbeat_interval_ms or None)

    def handle(self, r: ShareGroupHeartbeatResponseData) -> None:
        if r.error_code:
            error = error_name(r.error_code)
            if error in SHARE_REJOIN_ERRORS:
                self._take({})
                self.epoch = 0
                self.next_heartbeat = self.now
            elif error in SHARE_FATAL_ERRORS:
                self.owned_ids = {}
                self.epoch = 0
                self._fail(f"heartbeat answered {error}: {r.error_message}")
            else:
                self._anomaly(f"heartbeat answered {error}: {r.error_message}; retrying")
                self.next_heartbeat = self.now + RETRY_BACKOFF_MS
            return
        self.epoch = r.member_epoch
        self.next_heartbeat = self.now + r.heartbeat_interval_ms
        if r.assignment is not None:
            new = {t.topic_id: frozenset(t.partitions) for t in r.assignment.topic_partitions if t.partitions}
            if new != self.owned_ids:
                self._take(new)
                self.next_heartbeat = self.now

    def _take(self, assignment: dict[uuid.UUID, frozenset[int]]) -> None:
        self.owned_ids = assignment
        names = {t.topic_id: t.name for t in self.coord.topics}
        self._set_owned(frozenset((names[t], p) for t, ps in assignment.items() for p in ps if t in names))

    def crash(self) -> None:
        super().crash()
        self.owned_ids = {}

    def to_jsonable(self) -> dict[str, Any]:
        """In the KIP-848 client's layout (members.json checks one shape for both), with no assignor."""
        return {
            **super().to_jsonable(), "assignor": None, "clientId": self.client_id, "epoch": self.epoch,
            "ownedIds": by_topic_id(self.owned_ids),
            "sentOwned": None, "full": self.epoch == 0, "nextHeartbeatMs": self.next_heartbeat,
        }


def restore_share_client(coord: Coordinator, data: dict[str, Any], *, observe: Observer, anomalies: list[str],
                         ids: IdGenerator) -> ShareClient:
    """A client from `to_jsonable`, bound to `coord` (see `clients.restore_client`)."""
    client = ShareClient(coord, data["name"], data["groupId"], list(data["topics"]), ids=ids, observe=observe,
                         anomalies=anomalies, client_id=data["clientId"])
    client._restore_common(data)
    client.epoch = int(data["epoch"])
    client.owned_ids = from_topic_ids(data["ownedIds"])
    client.next_heartbeat = int(data["nextHeartbeatMs"])
    return client
