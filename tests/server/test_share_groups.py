"""Share groups over `groupctl serve`: the recorded admin exchanges of Kafka 4.1.0's kafka-share-groups.sh
(../shared/kafka-4.1-wire/s2-share-groups.jsonl) replayed against the lab, each answer compared field by
field with the broker's, and the versions ApiVersions advertises for the share APIs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from groupctl.coordinator.offsets import CommitPartition
from groupctl.protocol.data.api_versions import ApiVersionsRequestData
from groupctl.protocol.data.share_groups import ShareGroupHeartbeatRequestData
from groupctl.protocol.messages import framing
from groupctl.protocol.primitives import uuid_from_kafka
from groupctl.server.server import ServerThread
from tests.server.frames import Wire

WIRE = Path(__file__).resolve().parents[2].parent / "shared" / "kafka-4.1-wire"
S2 = WIRE / "s2-share-groups.jsonl"
#: The APIs of s2 the lab answers as the broker did (the rest are ApiVersions, Metadata, FindCoordinator).
REPLAYED = {16, 42, 77, 90, 91, 92}
#: The share member of s2 and s6 (from their ShareGroupHeartbeat and ShareGroupDescribe pairs).
S2_MEMBER, S6_MEMBER = "VhuYUGYkTJqcbal8P6LKYg", "s6-member"
#: The broker's topic ids (s2's decoded answers), each checked against the id its topic has in its own run.
RECORDED_TOPIC_IDS = {"t-share": uuid_from_kafka("LftUdk_7SiKGlBbtuqdMXw"),
                      "t-s6": uuid_from_kafka("ddAOhvPTTVSHNzE1xkaUUQ")}
#: From this step on the recorded start offsets are the ones AlterShareGroupOffsets set (step 17, to 0), which
#: the lab can match; before it the broker's share fetches had resolved them, and the lab has no share fetch.
ALTERED_STEP = 17
#: Step 24 describes s-share6 after step 23 altered it to 3: Kafka 4.1.0 still answered 0 (its alter had no
#: effect, see s6-share-consumer.md), the lab answers the offset it was set to.
UNEFFECTIVE_ALTER_STEP = 24


def pairs(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        pytest.skip(f"the wire transcripts are not present at ../shared/kafka-4.1-wire ({path})")
    return [json.loads(line) for line in path.read_text().splitlines()]


def heartbeat(wire: Wire, group: str, member: str, epoch: int, topics: list[str] | None = None) -> Any:
    answer = wire.call(76, 1, ShareGroupHeartbeatRequestData(group_id=group, member_id=member, member_epoch=epoch,
                                                             subscribed_topic_names=topics))
    assert answer.error_code == 0, answer.error_message
    return answer


def normalized(body: Any, topic_ids: dict[str, Any], *, offsets: bool) -> Any:
    """A response as a dict without what a run cannot share: throttle times, authorized operations, topic
    ids (checked against the lab's id of the topic named beside them), and start offsets when `offsets` is
    false."""
    def walk(value: Any) -> Any:
        if isinstance(value, list):
            return [walk(v) for v in value]
        if not isinstance(value, dict):
            return value
        out = {}
        for key, item in value.items():
            if key in ("throttleTimeMs", "authorizedOperations", "topicId"):
                continue
            if not offsets and key in ("startOffset", "leaderEpoch"):
                continue
            out[key] = walk(item)
        if "topicId" in value and "topicName" in value and value["topicName"] in topic_ids:
            out["topicIdIsTheTopics"] = value["topicId"] == topic_ids[value["topicName"]]
        return out

    return walk(body.to_dict())


@pytest.fixture
def lab(served: ServerThread) -> Iterator[tuple[Wire, Wire]]:
    def setup(broker: Any) -> None:
        broker.backend.create_topic("t-share", 1, messages=10)
        broker.backend.create_topic("t-s6", 1, messages=5)
        broker.coordinator.commit_offsets("g-classic", "", -1, [CommitPartition("t-share", 0, 1)])

    served.call(setup)
    member, admin = Wire(served, "console-share-consumer"), Wire(served, "adminclient-1")
    try:
        yield member, admin
    finally:
        member.close()
        admin.close()


def test_api_versions_advertise_the_share_apis_at_kafka_41s_versions(lab: tuple[Wire, Wire]) -> None:
    recorded = pairs(WIRE / "api-versions.jsonl")[-1]
    theirs = framing.decode_response(bytes.fromhex(recorded["response"]), 18, recorded["apiVersion"]).body
    ours = lab[1].call(18, 3, ApiVersionsRequestData(client_software_name="t", client_software_version="1"))
    share = {76, 77, 90, 91, 92}
    assert {(k.api_key, k.min_version, k.max_version) for k in ours.api_keys if k.api_key in share} == {
        (k.api_key, k.min_version, k.max_version) for k in theirs.api_keys if k.api_key in share}


def test_the_recorded_admin_exchanges_answer_as_the_broker_did(lab: tuple[Wire, Wire], served: ServerThread) -> None:
    member, admin = lab
    heartbeat(member, "s-share", S2_MEMBER, 0, ["t-share"])
    assert heartbeat(member, "s-share", S2_MEMBER, 1).member_epoch == 2
    topic_ids = served.call(lambda b: {t.name: t.topic_id for t in b.topics})
    compared = set()
    for pair in pairs(S2):
        if pair["apiKey"] not in REPLAYED:
            continue
        step = pair["step"]
        if step == 14 and "left" not in compared:  # the member was stopped before step 14
            assert heartbeat(member, "s-share", S2_MEMBER, 2).member_epoch == 2
            member.call(76, 1, ShareGroupHeartbeatRequestData(group_id="s-share", member_id=S2_MEMBER, member_epoch=-1))
            compared.add("left")
        if step == 23 and "s6" not in compared:  # scenario 6 ran here: its member joined, got t-s6, left
            heartbeat(member, "s-share6", S6_MEMBER, 0, ["t-s6"])
            heartbeat(member, "s-share6", S6_MEMBER, 1)
            member.call(76, 1, ShareGroupHeartbeatRequestData(group_id="s-share6", member_id=S6_MEMBER,
                                                              member_epoch=-1))
            compared.add("s6")
        api_key, version = pair["apiKey"], pair["apiVersion"]
        request = framing.decode_request(bytes.fromhex(pair["request"])).body
        theirs = framing.decode_response(bytes.fromhex(pair["response"]), api_key, version).body
        ours = admin.call(api_key, version, request)
        offsets = ALTERED_STEP <= step != UNEFFECTIVE_ALTER_STEP
        expected = normalized(theirs, RECORDED_TOPIC_IDS, offsets=offsets)
        assert normalized(ours, topic_ids, offsets=offsets) == expected, f"seq {pair['seq']} {pair['apiName']}"
        if api_key == 90 and step == UNEFFECTIVE_ALTER_STEP:
            [group] = ours.groups
            assert [(p.partition_index, p.start_offset) for t in group.topics for p in t.partitions] == [(0, 3)]
        compared.add(api_key)
    assert compared >= REPLAYED


def test_a_share_consumers_recorded_heartbeats_answer_as_the_broker_did(lab: tuple[Wire, Wire]) -> None:
    """s6: join (epoch 1, nothing assigned while the share-partition initializes), the next heartbeat gets
    t-s6:0 at epoch 2, one more with no change, leave; later a rejoin gets the partition at once (epoch 4)."""
    member, _ = lab
    heartbeats = [p for p in pairs(WIRE / "s6-share-consumer.jsonl") if p["apiKey"] == 76]
    assert len(heartbeats) == 7
    for pair in heartbeats:
        request = framing.decode_request(bytes.fromhex(pair["request"])).body
        theirs = framing.decode_response(bytes.fromhex(pair["response"]), 76, 1).body
        ours = member.call(76, 1, request)
        assert normalized(ours, {}, offsets=True) == normalized(theirs, {}, offsets=True), f"seq {pair['seq']}"
