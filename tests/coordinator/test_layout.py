"""The records of a configured Kafka version: Kafka 4.0's type 4 and epoch-only type 3 and OffsetCommitValue
v3, byte for byte as a real 4.0.0 broker wrote them; 4.1+'s MetadataHash; a log moving from one to the other."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.coordinator.coordinator import Coordinator
from groupctl.coordinator.ids import IdGenerator
from groupctl.coordinator.layout import KAFKA_VERSIONS, NEWEST, kafka_version
from groupctl.coordinator.offsets import CommitPartition
from groupctl.log.decode import DecodedRecord
from groupctl.log.segment import iter_batches
from groupctl.protocol.primitives import uuid_from_kafka
from tests.classic_requests import join_req, sync_req
from tests.heartbeats import hb

BROKER_VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "kafka-4.0-broker-vectors"
#: oc-k848 as the 4.0.0 broker had it (live/topics-describe.txt).
OC_K848 = ("oc-k848", "CyN4vuEgSMWwlZhSs37low", 4)


def coordinator(version: str, log: object | None = None) -> Coordinator:
    coord = Coordinator(ids=IdGenerator(3), kafka=version, **({"log": log} if log is not None else {}))
    if log is None:
        coord.create_topic(OC_K848[0], OC_K848[2], uuid_from_kafka(OC_K848[1]))
    return coord


def join(coord: Coordinator, member: str, topics: list[str] | None = None) -> None:
    answer = coord.heartbeat(hb("g", member, 0, rebalance_timeout_ms=30_000,
                                              subscribed_topic_names=topics or [OC_K848[0]], topic_partitions=[]))
    assert answer.error_code == 0, answer.error_message


def written(coord: Coordinator, since: int = 0) -> list[DecodedRecord]:
    return list(coord.runtime.log.read())[since:]


def raw_values(coord: Coordinator, since: int = 0) -> list[tuple[int, bytes | None]]:
    """(record type, value bytes) of what the coordinator wrote, from the log's own bytes."""
    out = []
    for batch in iter_batches(coord.runtime.log.segment_bytes(), path="log", strict=True):
        for record in batch.records:
            out.append((int.from_bytes(record.key[:2], "big"), record.value))
    return out[since:]


def test_versions_are_release_lines_shared_with_dump_log() -> None:
    assert kafka_version(" 4.1 ") == "4.1" and KAFKA_VERSIONS[-1] == NEWEST and KAFKA_VERSIONS[0] == "4.0"
    with pytest.raises(ValueError) as bad:
        kafka_version("3.9")
    assert str(bad.value).startswith("Kafka version must be one of 4.0, 4.1")
    with pytest.raises(ValueError) as patch:
        kafka_version("4.0.0")
    assert str(patch.value).endswith("give the release line as X.Y (4.0)")
    with pytest.raises(ValueError):
        Coordinator(kafka="four")


def test_kafka_40_writes_partition_metadata_then_the_epoch_alone() -> None:
    coord = coordinator("4.0")
    join(coord, "a")
    types = [(r.key.type, r.value is None) for r in written(coord)]
    assert types[:3] == [(5, False), (4, False), (3, False)]
    (metadata,) = [r for r in written(coord) if r.key.type == 4]
    assert metadata.value.data["topics"] == [{"topicId": uuid_from_kafka(OC_K848[1]), "topicName": "oc-k848",
                                              "numPartitions": 4, "partitionMetadata": []}]
    sizes = {t: len(v) for t, v in raw_values(coord) if t in (3, 4)}
    assert sizes == {3: 7, 4: 34}  # the valueSize the 4.0.0 broker's records have (partition 36)
    before = coord.runtime.log.next_offset
    join(coord, "b")  # same topics: a new epoch, no new partition metadata
    assert [r.key.type for r in written(coord, before)].count(4) == 0
    coord.add_partitions("oc-k848", 6)
    coord.heartbeat(hb("g", "a", coord.runtime.state.consumer["g"].current["a"].member_epoch))
    assert [r.key.type for r in written(coord, before)].count(4) == 1
    assert coord.rebuild().runtime.state == coord.runtime.state


def test_kafka_40_type_4_and_3_values_are_the_brokers_bytes() -> None:
    """The first type 4 and type 3 of oracle-k848-dyn in partition 36, byte for byte."""
    segment = BROKER_VECTORS / "__consumer_offsets-36" / "00000000000000000000.log"
    if not segment.is_file():
        pytest.skip("the Kafka 4.0 broker vectors are not present at ../shared/kafka-4.0-broker-vectors")
    broker: dict[int, bytes] = {}
    for batch in iter_batches(segment.read_bytes(), path=str(segment), strict=False):
        for record in batch.records:
            if record.key is not None and b"oracle-k848-dyn" in record.key and record.value is not None:
                broker.setdefault(int.from_bytes(record.key[:2], "big"), bytes(record.value))
    coord = coordinator("4.0")
    join(coord, "a")
    ours = {t: bytes(v) for t, v in raw_values(coord) if t in (3, 4) and v is not None}
    assert ours[4] == broker[4]
    assert ours[3] == broker[3]  # epoch 1


def test_kafka_40_offset_commits_are_value_version_3() -> None:
    for version, value_version, has_topic_id in (("4.0", 3, False), ("4.1", 4, True), (NEWEST, 4, True)):
        coord = coordinator(version)
        coord.commit_offsets("simple", "", -1, [CommitPartition("oc-k848", 0, 40)])
        (record,) = written(coord)
        assert (record.value.version, "topicId" in record.value.data) == (value_version, has_topic_id), version


def test_kafka_41_writes_the_metadata_hash_and_no_type_4() -> None:
    coord = coordinator("4.1")
    join(coord, "a")
    assert 4 not in [r.key.type for r in written(coord)]
    (epoch,) = [r for r in written(coord) if r.key.type == 3]
    assert epoch.value.data["metadataHash"] != 0


@pytest.mark.parametrize(("first", "then"), [("4.0", "4.1"), ("4.1", "4.0")])
def test_a_log_written_by_one_layout_carries_on_under_the_other(first: str, then: str) -> None:
    """A broker upgraded (or rolled back) over the same partition, as Kafka behaves: the first heartbeat
    finds the topics' metadata missing from its own layout and bumps the epoch once (4.1 computing a hash
    where 4.0 stored none, tombstoning 4.0's type 4; 4.0 finding no type 4); then all is steady."""
    coord = coordinator(first)
    join(coord, "a")
    epoch = coord.runtime.state.consumer["g"].current["a"].member_epoch
    owned = [(uuid_from_kafka(OC_K848[1]), [0, 1, 2, 3])]
    coord.heartbeat(hb("g", "a", epoch, topic_partitions=owned))
    moved = Coordinator(ids=IdGenerator(4), topics=coord.topics, log=coord.runtime.log, kafka=then)
    before = moved.runtime.log.next_offset
    answer = moved.heartbeat(hb("g", "a", epoch, topic_partitions=owned))
    kinds = [(r.key.type, r.value is None) for r in written(moved, before)]
    assert moved.runtime.state.consumer["g"].epoch == epoch + 1
    if then == "4.1":
        assert (4, True) in kinds and moved.runtime.state.consumer["g"].partition_metadata is None
    else:
        assert (4, False) in kinds and moved.runtime.state.consumer["g"].partition_metadata is not None
    settled = moved.runtime.log.next_offset
    moved.heartbeat(hb("g", "a", answer.member_epoch, topic_partitions=owned))
    moved.heartbeat(hb("g", "a", moved.runtime.state.consumer["g"].current["a"].member_epoch))
    assert moved.runtime.state.consumer["g"].epoch == epoch + 1
    assert [r.key.type for r in written(moved, settled)] in ([], [8])
    assert moved.rebuild().runtime.state == moved.runtime.state


def test_kafka_40_upgrade_writes_the_partition_metadata_with_the_joining_heartbeat() -> None:
    """A classic group converted under 4.0's layout: the conversion's epoch has no hash and no type 4 (as
    Kafka writes it), so the joining heartbeat finds the metadata changed: type 4, then the next epoch."""
    from groupctl.protocol.consumer_protocol import encode_assignment, encode_subscription

    coord = Coordinator(ids=IdGenerator(3), kafka="4.0", classic_settings={"group.initial.rebalance.delay.ms": 0})
    coord.create_topic(OC_K848[0], OC_K848[2], uuid_from_kafka(OC_K848[1]))
    joined = []
    subscription = encode_subscription({"topics": [OC_K848[0]], "userData": None}, 0)
    coord.join_group(join_req("g", 45_000, 30_000, "", "pod-a", protocols=[("range", subscription)]),
                     joined.append)
    coord.advance(0)
    member = joined[-1].member_id
    everything = encode_assignment({"assignedPartitions": [{"topic": OC_K848[0], "partitions": [0, 1, 2, 3]}],
                                    "userData": None}, 0)
    sync = sync_req("g", joined[-1].generation_id, member, "pod-a", assignments=[(member, everything)])
    coord.sync_group(sync, joined.append)
    before = coord.runtime.log.next_offset
    join(coord, "k1")
    kinds = [(r.key.type, r.value is None) for r in written(coord, before)]
    epochs = [r.value.data for r in written(coord, before) if r.key.type == 3]
    assert kinds[0] == (2, True) and (4, False) in kinds
    assert [e.get("metadataHash", 0) for e in epochs] == [0, 0] and [e["epoch"] for e in epochs] == [1, 2]
    assert coord.rebuild().runtime.state == coord.runtime.state
