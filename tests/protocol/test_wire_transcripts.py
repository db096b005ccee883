"""What a real Kafka 4.1.0 broker and its clients sent (the wire transcripts in ../shared/kafka-4.1-wire),
through the typed codecs: every recorded request and response of an API with a schema reads as its
generated class, holds what the dict decoder reads, and writes back to the very same bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groupctl.protocol.messages import API_SCHEMAS, framing
from groupctl.protocol.messages import headers as H

TRANSCRIPTS = Path(__file__).resolve().parents[2].parent / "shared" / "kafka-4.1-wire"


def recorded_pairs() -> list[dict[str, Any]]:
    """Every recorded pair of an API groupctl has a schema for, with the file it came from (the
    transcripts also hold ShareFetch, ShareAcknowledge, ListConfigResources and UpdateFeatures, which
    it does not speak)."""
    pairs = []
    for path in sorted(TRANSCRIPTS.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["apiKey"] in API_SCHEMAS:
                pairs.append({**record, "file": path.name})
    return pairs


PAIRS = recorded_pairs()


def dict_body(payload: bytes, api_key: int, version: int, kind: int) -> dict[str, Any]:
    """The body as the schema's dict decoder reads it (kind 0: request, 1: response)."""
    message = API_SCHEMAS[api_key][kind]
    if kind == 0:
        _, pos = H.decode_request_header(payload, 0, H.request_header_version(message, version))
    else:
        _, pos = H.decode_response_header(payload, 0, H.response_header_version(message, version))
    return message.decoder(version)(payload, pos)[0]


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="the wire transcripts (../shared/kafka-4.1-wire) are absent")
def test_the_transcripts_hold_typed_pairs() -> None:
    """The replay below is not vacuous: Fetch, ListOffsets, Metadata, OffsetCommit, OffsetFetch,
    FindCoordinator, JoinGroup, Heartbeat, SyncGroup, ApiVersions, DescribeConfigs, DeleteGroups,
    IncrementalAlterConfigs and the share-group APIs (76, 77, 90-92) were recorded."""
    assert {r["apiKey"] for r in PAIRS} >= {1, 2, 3, 8, 9, 10, 11, 12, 14, 18, 32, 42, 44, 76, 77, 90, 91, 92}


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="the wire transcripts (../shared/kafka-4.1-wire) are absent")
@pytest.mark.parametrize("pair", PAIRS, ids=lambda r: f"{r['file']}-{r['seq']}-{r['apiName']}-v{r['apiVersion']}")
def test_a_recorded_pair_reads_as_its_classes_and_writes_back_byte_for_byte(pair: dict[str, Any]) -> None:
    api_key, version = pair["apiKey"], pair["apiVersion"]
    request_schema, response_schema = API_SCHEMAS[api_key]
    sent = bytes.fromhex(pair["request"])
    request = framing.decode_request(sent)
    assert type(request.body) is request_schema.data_class
    assert request.body == request_schema.data_class.from_dict(dict_body(sent, api_key, version, 0))
    again = framing.encode_request(api_key, version, request.correlation_id, request.client_id, request.body)
    assert again == framing.frame(sent)

    answered = bytes.fromhex(pair["response"])
    response = framing.decode_response(answered, api_key, version)
    assert type(response.body) is response_schema.data_class
    assert response.body == response_schema.data_class.from_dict(dict_body(answered, api_key, version, 1))
    assert framing.encode_response(api_key, version, response.correlation_id, response.body) == framing.frame(answered)


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="the wire transcripts (../shared/kafka-4.1-wire) are absent")
def test_share_group_answers_read_as_kafka_reads_them() -> None:
    """Values, not just layout: what Kafka 4.1.0's own classes printed for the same bytes (s2's
    `.decoded.txt`): a Stable share group of the simple assignor whose one member holds t-share:0,
    a start offset per partition, and the refusal of DeleteShareGroupOffsets while members are active."""
    describe = next(r for r in PAIRS if r["apiKey"] == 77 and b"t-share" in bytes.fromhex(r["response"]))
    group = framing.decode_response(bytes.fromhex(describe["response"]), 77, 1).body.groups[0]
    assert (group.group_state, group.assignor_name, group.error_code) == ("Stable", "simple", 0)
    (member,) = group.members
    assert member.client_id == "console-share-consumer" and member.client_host == "/127.0.0.1"
    (topic,) = member.assignment.topic_partitions
    assert (topic.topic_name, topic.partitions) == ("t-share", [0])

    offsets = next(r for r in PAIRS if r["apiKey"] == 90 and b"t-share" in bytes.fromhex(r["response"]))
    (topic_offsets,) = framing.decode_response(bytes.fromhex(offsets["response"]), 90, 0).body.groups[0].topics
    assert topic_offsets.topic_name == "t-share"
    assert {p.lag for p in topic_offsets.partitions} == {-1}  # v0 carries no lag: the field's default

    refusals = [framing.decode_response(bytes.fromhex(r["response"]), 92, 0).body for r in PAIRS if r["apiKey"] == 92]
    assert (68, "The group is not empty.") in {(b.error_code, b.error_message) for b in refusals}
