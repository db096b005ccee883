"""A fake broker that answers with what a real Kafka 4.1.0 broker answered (../shared/kafka-4.1-wire).

groupctl's requests are not Kafka's tools' requests byte for byte (other versions, batching, flags), so the
fake does not look requests up by their bytes: it keeps the recorded answer for each *subject* — a group's
entry in ListGroups, its DescribedGroup in ConsumerGroupDescribe, DescribeGroups and ShareGroupDescribe, its
DescribeShareGroupOffsets entry — and builds each response from the entries the request names, at the
version the request came in. A group the recording never described by some API is answered as the 4.1.0
broker answers an unknown group (GROUP_ID_NOT_FOUND, "Group g not found.").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from groupctl.protocol.data.consumer_groups import ConsumerGroupDescribeResponseData
from groupctl.protocol.data.consumer_groups import DescribedGroup as ConsumerDescribed
from groupctl.protocol.data.group_admin import (
    DeletableGroupResult,
    DeleteGroupsResponseData,
    DescribedGroup,
    DescribeGroupsResponseData,
    ListGroupsResponseData,
)
from groupctl.protocol.data.offsets import (
    OffsetFetchResponseData,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponseTopic,
)
from groupctl.protocol.data.records_apis import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponseData,
    ListOffsetsTopicResponse,
)
from groupctl.protocol.data.share_groups import DescribedGroup as ShareDescribed
from groupctl.protocol.data.share_groups import (
    DescribeShareGroupOffsetsResponseData,
    DescribeShareGroupOffsetsResponseGroup,
    ShareGroupDescribeResponseData,
)
from groupctl.protocol.messages import framing
from tests.fake_broker import FakeBroker

WIRE = Path(__file__).resolve().parents[1].parent / "shared" / "kafka-4.1-wire"
GROUP_ID_NOT_FOUND = 69
NON_EMPTY_GROUP = 68
LIST_GROUPS, DESCRIBE_GROUPS, CONSUMER_GROUP_DESCRIBE, SHARE_GROUP_DESCRIBE, DESCRIBE_SHARE_OFFSETS = 16, 15, 69, 77, 90
OFFSET_FETCH, LIST_OFFSETS, LATEST, EARLIEST = 9, 2, -1, -2
ALTER_SHARE_OFFSETS, DELETE_SHARE_OFFSETS, DELETE_GROUPS = 91, 92, 42


def pairs(name: str, steps: range | None = None) -> list[tuple[framing.Request, framing.Response]]:
    """The decoded pairs of one transcript (`s2-share-groups`), optionally only some of its steps."""
    out = []
    for line in (WIRE / f"{name}.jsonl").read_text().splitlines():
        r = json.loads(line)
        if steps is not None and r["step"] not in steps:
            continue
        request = framing.decode_request(bytes.fromhex(r["request"]))
        out.append((request, framing.decode_response(bytes.fromhex(r["response"]), r["apiKey"], r["apiVersion"])))
    return out


@dataclass
class RecordedGroups:
    """The recorded answers per group, the later recording of a subject replacing the earlier."""

    listed: dict[str, Any] = field(default_factory=dict)
    described: dict[int, dict[str, Any]] = field(default_factory=dict)
    share_offsets: dict[str, DescribeShareGroupOffsetsResponseGroup] = field(default_factory=dict)
    committed: dict[str, Any] = field(default_factory=dict)  # group id -> OffsetFetchResponseGroup (v8+ form)
    log_ends: dict[tuple[str, int], int] = field(default_factory=dict)
    #: Whole answers to one group's request (AlterShareGroupOffsets, DeleteShareGroupOffsets), and DeleteGroups'
    #: result per group.
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)
    deleted: dict[str, Any] = field(default_factory=dict)

    def add(self, name: str, steps: range | None = None) -> RecordedGroups:
        for request, response in pairs(name, steps):
            body = response.body
            if request.api_key == LIST_GROUPS and not request.body.types_filter:
                self.listed.update({g.group_id: g for g in body.groups})
            elif request.api_key in (DESCRIBE_GROUPS, CONSUMER_GROUP_DESCRIBE, SHARE_GROUP_DESCRIBE):
                self.described.setdefault(request.api_key, {}).update({g.group_id: g for g in body.groups})
            elif request.api_key == DESCRIBE_SHARE_OFFSETS:
                self.share_offsets.update({g.group_id: g for g in body.groups})
            elif request.api_key in (ALTER_SHARE_OFFSETS, DELETE_SHARE_OFFSETS):
                self.answers.setdefault(request.api_key, {})[request.body.group_id] = body
            elif request.api_key == DELETE_GROUPS:
                self.deleted.update({r.group_id: r for r in body.results})
            elif request.api_key == OFFSET_FETCH and request.api_version >= 8:
                self.committed.update({g.group_id: g for g in body.groups})
            elif request.api_key == LIST_OFFSETS and request.body.topics[0].partitions[0].timestamp == LATEST:
                self.log_ends.update({(t.name, p.partition_index): p.offset for t in body.topics for p in t.partitions})
        return self

    def only(self, *group_ids: str) -> RecordedGroups:
        """The same answers, with ListGroups listing these groups only (the state one scenario held)."""
        self.listed = {g: self.listed[g] for g in group_ids}
        return self

    def _described(self, api_key: int, group_id: str, make: type) -> Any:
        found = self.described.get(api_key, {}).get(group_id)
        if found is not None:
            return found
        if api_key == DESCRIBE_GROUPS:
            return make(error_code=GROUP_ID_NOT_FOUND, error_message=f"Group {group_id} not found.",
                        group_id=group_id, group_state="Dead", protocol_type="", protocol_data="", members=[])
        return make(error_code=GROUP_ID_NOT_FOUND, error_message=f"Group {group_id} not found.", group_id=group_id,
                    members=[])

    def install(self, broker: FakeBroker) -> FakeBroker:
        """Answer ListGroups, the three describes and DescribeShareGroupOffsets on `broker` from the recording."""
        broker.on(LIST_GROUPS, lambda r, _s: ListGroupsResponseData(error_code=0, groups=list(self.listed.values())))
        broker.on(DESCRIBE_GROUPS, lambda r, _s: DescribeGroupsResponseData(
            groups=[self._described(DESCRIBE_GROUPS, g, DescribedGroup) for g in r.body.groups]))
        broker.on(CONSUMER_GROUP_DESCRIBE, lambda r, _s: ConsumerGroupDescribeResponseData(
            groups=[self._described(CONSUMER_GROUP_DESCRIBE, g, ConsumerDescribed) for g in r.body.group_ids]))
        broker.on(SHARE_GROUP_DESCRIBE, lambda r, _s: ShareGroupDescribeResponseData(
            groups=[self._described(SHARE_GROUP_DESCRIBE, g, ShareDescribed) for g in r.body.group_ids]))
        broker.on(DESCRIBE_SHARE_OFFSETS, lambda r, _s: DescribeShareGroupOffsetsResponseData(groups=[
            self.share_offsets.get(g.group_id) or DescribeShareGroupOffsetsResponseGroup(
                group_id=g.group_id, topics=[], error_code=GROUP_ID_NOT_FOUND,
                error_message=f"Group {g.group_id} not found.")
            for g in r.body.groups]))
        for key in (ALTER_SHARE_OFFSETS, DELETE_SHARE_OFFSETS):
            broker.on(key, lambda r, _s: self.answers[r.api_key][r.body.group_id])
        broker.on(DELETE_GROUPS, lambda r, _s: DeleteGroupsResponseData(results=[
            self.deleted.get(g) or DeletableGroupResult(group_id=g, error_code=self._delete_refusal(g))
            for g in r.body.groups_names]))
        broker.on(OFFSET_FETCH, self._offset_fetch)
        broker.on(LIST_OFFSETS, self._list_offsets)
        for topic, partition in self.log_ends:
            broker.topics.setdefault(topic, {})[partition] = broker.node_id
        return broker

    def _delete_refusal(self, group_id: str) -> int:
        """What the broker answers a DeleteGroups the recording has no answer for: NON_EMPTY_GROUP for a group
        described with members (the coordinator's rule for every type), else GROUP_ID_NOT_FOUND."""
        for described in self.described.values():
            g = described.get(group_id)
            if g is not None and g.error_code == 0 and g.members:
                return NON_EMPTY_GROUP
        return GROUP_ID_NOT_FOUND

    def _offset_fetch(self, request: framing.Request, _state: Any) -> OffsetFetchResponseData:
        """The recorded committed offsets, in the groups form (v8+) or the one-group form before it."""
        if request.api_version >= 8:
            return OffsetFetchResponseData(groups=[
                self.committed.get(g.group_id) or OffsetFetchResponseGroup(group_id=g.group_id, topics=[])
                for g in request.body.groups])
        found = self.committed.get(request.body.group_id)
        return OffsetFetchResponseData(topics=[
            OffsetFetchResponseTopic(name=t.name, partitions=[OffsetFetchResponsePartition(
                partition_index=p.partition_index, committed_offset=p.committed_offset,
                committed_leader_epoch=p.committed_leader_epoch, metadata=p.metadata) for p in t.partitions])
            for t in (found.topics if found else [])])

    def _list_offsets(self, request: framing.Request, _state: Any) -> ListOffsetsResponseData:
        """The recorded log end offsets; the log start is 0 (the recorded topics were never truncated), and
        a time finds the log end (no record is that recent: the tests here ask for a time in the future)."""
        return ListOffsetsResponseData(topics=[
            ListOffsetsTopicResponse(name=t.name, partitions=[ListOffsetsPartitionResponse(
                partition_index=p.partition_index, timestamp=-1, leader_epoch=0,
                offset=0 if p.timestamp == EARLIEST else self.log_ends.get((t.name, p.partition_index), 0))
                for p in t.partitions])
            for t in request.body.topics])
