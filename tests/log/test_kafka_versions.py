"""The Kafka version table: every row tested at the releases on both sides of its boundary, with
small constructed records printed as each release's kafka-dump-log.sh prints them."""

from __future__ import annotations

import re
import struct
import uuid
from collections.abc import Callable

import pytest

from groupctl.log.decode import DecodedRecord, decode_record
from groupctl.log.dumplog import record_line, share_state_record_line
from groupctl.log.kafka_versions import (
    DIFFERENCES,
    NEWEST,
    SUPPORTED_VERSIONS,
    at_least,
    check_version,
    profile,
)
from groupctl.log.segment import iter_batches
from groupctl.log.share_state import decode_record as decode_share_state
from groupctl.log.writer import SimpleRecord, build_batch, build_message_set
from groupctl.protocol import share_state
from groupctl.protocol.primitives import uuid_to_kafka
from groupctl.protocol.records import encode_key, encode_value

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

TOPIC_ID = uuid.UUID(bytes=bytes(range(1, 17)))
TOPIC_ID_TEXT = uuid_to_kafka(TOPIC_ID)


def decoded(key: bytes | None, value: bytes | None) -> DecodedRecord:
    data = build_batch([SimpleRecord(key, value, 1000)])
    batch = next(iter(iter_batches(data, strict=True)))
    return decode_record(batch, batch.records[0])


def payload(rec: DecodedRecord, version: str) -> str:
    """What follows `key: ` on the record's line, as release `version` prints it."""
    line = record_line(rec, profile(version))
    return line.split(" key: ", 1)[1]


def with_version(value: bytes, version: int) -> bytes:
    """The same value bytes under another int16 version prefix."""
    return struct.pack(">h", version) + value[2:]


def before(since: str) -> str:
    """The covered release just before `since`."""
    return SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.index(since) - 1]


def row(what: str):
    return next(d for d in DIFFERENCES if d.what.startswith(what))


def offset_commit_key(record_type: int = 1) -> bytes:
    return encode_key(record_type, {"group": "g", "topic": "t", "partition": 0})


# --- the table itself -------------------------------------------------------------------------------


def test_supported_versions_are_ordered_and_newest_is_the_default():
    assert list(SUPPORTED_VERSIONS) == sorted(SUPPORTED_VERSIONS, key=lambda v: tuple(map(int, v.split("."))))
    assert NEWEST == SUPPORTED_VERSIONS[-1] == "4.3"
    assert profile() is profile(NEWEST)
    assert at_least("4.10", "4.3") and not at_least("4.2", "4.3")


@pytest.mark.parametrize("text", ["5.0", "3.7", "4", "4.0.0", "latest", ""])
def test_unknown_versions_are_refused_naming_the_supported_ones(text):
    with pytest.raises(ValueError, match=re.escape("covered for 3.8, 3.9, 4.0, 4.1, 4.2, 4.3")):
        check_version(text)


def test_every_row_names_its_source_and_a_covered_or_later_release():
    for d in DIFFERENCES:
        assert d.source and d.before and d.after, d.what
        assert at_least(d.since, SUPPORTED_VERSIONS[0]), d.what
        assert d.since in SUPPORTED_VERSIONS or d.unsettled, d.what


def test_every_row_has_a_boundary_test():
    """Adding a row to the table without a test here fails."""
    assert {d.what for d in DIFFERENCES} == set(ROW_TESTS)


# --- one test per row -----------------------------------------------------------------------------


def check_classic_member_metadata() -> None:
    key = encode_key(5, {"groupId": "g", "memberId": "m"})
    member = {"instanceId": None, "rackId": None, "clientId": "c", "clientHost": "/h", "subscribedTopicNames": ["t"],
              "subscribedTopicRegex": "", "rebalanceTimeoutMs": 300000, "serverAssignor": None}
    null = decoded(key, encode_value(5, 0, {**member, "classicMemberMetadata": None}))
    absent = decoded(key, encode_value(5, 0, member))
    classic = decoded(key, encode_value(5, 0, {**member, "classicMemberMetadata": {
        "sessionTimeoutMs": 45000, "supportedProtocols": [{"name": "range", "metadata": b"\x00\x01"}]}}))
    assert len(null.record.value) == len(absent.record.value) + 3  # tag 0, size 1, null marker
    for version in (SUPPORTED_VERSIONS[0], NEWEST):
        assert payload(null, version).endswith(',"serverAssignor":null,"classicMemberMetadata":null}}')
        assert payload(absent, version).endswith(',"serverAssignor":null}}')
        assert payload(classic, version).endswith(
            ',"classicMemberMetadata":{"sessionTimeoutMs":45000,'
            '"supportedProtocols":[{"name":"range","metadata":"AAE="}]}}}')


def check_share_group_types() -> None:
    d = row("share-group record types")
    rec = decoded(encode_key(11, {"groupId": "s"}), encode_value(11, 0, {"epoch": 3, "metadataHash": 7}))
    assert payload(rec, before(d.since)) == "Unknown record type 11 at offset 0, skipping."
    # 4.0 reads type 11 with its own layout, Epoch only: the hash's leading zero byte reads as no tagged fields
    assert payload(rec, d.since) == '{"type":"11","data":{"groupId":"s"}} payload: {"version":"0","data":{"epoch":3}}'
    assert payload(rec, "4.1").endswith('{"version":"0","data":{"epoch":3,"metadataHash":7}}')
    for record_type in d.types_added:
        assert record_type not in profile(before(d.since)).record_types
        assert record_type in profile(d.since).record_types


def check_regex_type() -> None:
    d = row("record type 16")
    rec = decoded(encode_key(16, {"groupId": "g", "regularExpression": "t.*"}), None)
    assert payload(rec, before(d.since)) == "Unknown record type 16 at offset 0, skipping."
    assert payload(rec, d.since) == '{"type":"16","data":{"groupId":"g","regularExpression":"t.*"}} payload: <DELETE>'


def check_value_version_check() -> None:
    d = row("a value version outside")
    v4 = encode_value(1, 4, {"offset": 7, "leaderEpoch": 2, "metadata": "m", "commitTimestamp": 9,
                             "topicId": TOPIC_ID})
    rec = decoded(offset_commit_key(), with_version(v4, 5))
    assert payload(rec, before(d.since)) == (
        '{"type":"1","data":{"group":"g","topic":"t","partition":0}} payload: '
        '{"version":"5","data":{"offset":7,"leaderEpoch":2,"metadata":"m","commitTimestamp":9}}')
    assert payload(rec, d.since) == "Error at offset 0, skipping. Found an unknown record version 5 for 1 type"
    assert payload(rec, NEWEST) == payload(rec, d.since)
    # A consumer group's metadata v5 is read as v4 too, its members' protocol bytes still decoded.
    group = decoded(encode_key(2, {"group": "g"}), with_version(encode_value(2, 4, {
        "protocolType": "consumer", "generation": 1, "protocol": "range", "leader": "m", "currentStateTimestamp": 5,
        "members": [{"memberId": "m", "groupInstanceId": None, "clientId": "c", "clientHost": "h",
                     "rebalanceTimeout": 1, "sessionTimeout": 2, "subscription": b"\x00\x00\x00\x00\x00\x01\x00\x01t"
                     b"\xff\xff\xff\xff", "assignment": b""}]}), 5))
    older = payload(group, before(d.since))
    assert older.startswith(
        '{"type":"2","data":{"group":"g"}} payload: {"version":"5","data":{"protocolType":"consumer"')
    assert '"subscription":{"topics":["t"],"userData":null}' in older
    assert payload(group, d.since) == "Error at offset 0, skipping. Found an unknown record version 5 for 2 type"


def check_type_zero_values() -> None:
    d = row("record type 0 values")
    v1 = decoded(offset_commit_key(0), encode_value(1, 1, {"offset": 3, "metadata": "", "commitTimestamp": 4,
                                                            "expireTimestamp": 8}))
    assert payload(v1, before(d.since)) == (
        '{"type":"0","data":{"group":"g","topic":"t","partition":0}} payload: '
        '{"version":"1","data":{"offset":3,"metadata":"","commitTimestamp":4,"expireTimestamp":8}}')
    assert payload(v1, d.since) == "Error at offset 0, skipping. Found an unknown record version 1 for 0 type"
    v0 = decoded(offset_commit_key(0), encode_value(0, 0, {"offset": 3, "metadata": "x", "commitTimestamp": 4}))
    assert payload(v0, before(d.since)) == payload(v0, d.since) == (
        '{"type":"0","data":{"group":"g","topic":"t","partition":0}} payload: '
        '{"version":"0","data":{"offset":3,"metadata":"x","commitTimestamp":4}}')
    # Before 4.0 an unknown version is read with the nearest valid version's layout: v9 as v4 (bytes in
    # another layout are misread, as Kafka misreads them).
    v4 = encode_value(1, 4, {"offset": 3, "leaderEpoch": -1, "metadata": "", "commitTimestamp": 4})
    v9 = decoded(offset_commit_key(0), with_version(v4, 9))
    assert payload(v9, "3.9").endswith('payload: {"version":"9","data":{"offset":3,"leaderEpoch":-1,"metadata":"",'
                                       '"commitTimestamp":4}}')
    misread = decoded(offset_commit_key(0), with_version(v1.record.value, 9))
    assert payload(misread, "3.9") == ("Error at offset 0, skipping. Could not read record with version 9 from "
                                       "value's buffer due to: non-nullable field metadata was serialized as null.")
    assert payload(v9, "4.0") == "Error at offset 0, skipping. Found an unknown record version 9 for 0 type"


def check_type_nine_removed() -> None:
    d = row("record type 9 (")
    rec = decoded(encode_key(9, {"groupId": "s"}), encode_value(9, 0, {"topics": []}))
    assert payload(rec, before(d.since)) == (
        '{"type":"9","data":{"groupId":"s"}} payload: {"version":"0","data":{"topics":[]}}')
    assert payload(rec, d.since) == "Unknown record type 9 at offset 0, skipping."


def check_streams_types() -> None:
    d = row("streams-group record types")
    rec = decoded(encode_key(20, {"groupId": "s"}), encode_value(20, 0, {"assignmentEpoch": 4}))
    assert payload(rec, before(d.since)) == "Unknown record type 20 at offset 0, skipping."
    assert payload(rec, d.since) == (
        '{"type":"20","data":{"groupId":"s"}} payload: {"version":"0","data":{"assignmentEpoch":4}}')
    for record_type in (18, 24):  # in no covered release
        assert all(record_type not in profile(v).record_types for v in SUPPORTED_VERSIONS)


def check_topic_id() -> None:
    d = row("OffsetCommitValue.topicId")
    rec = decoded(offset_commit_key(), encode_value(1, 4, {"offset": 7, "leaderEpoch": -1, "metadata": "",
                                                           "commitTimestamp": 9, "topicId": TOPIC_ID}))
    assert payload(rec, before(d.since)).endswith(
        'payload: {"version":"4","data":{"offset":7,"leaderEpoch":-1,"metadata":"","commitTimestamp":9}}')
    assert payload(rec, d.since).endswith(
        f'payload: {{"version":"4","data":{{"offset":7,"leaderEpoch":-1,"metadata":"","commitTimestamp":9,'
        f'"topicId":"{TOPIC_ID_TEXT}"}}}}')


def check_metadata_hash() -> None:
    d = row("ConsumerGroupMetadataValue.metadataHash")
    rec = decoded(encode_key(3, {"groupId": "g"}), encode_value(3, 0, {"epoch": 10, "metadataHash": -5}))
    assert payload(rec, before(d.since)).endswith('payload: {"version":"0","data":{"epoch":10}}')
    assert payload(rec, d.since).endswith('payload: {"version":"0","data":{"epoch":10,"metadataHash":-5}}')


def check_streams_metadata_tags() -> None:
    d = row("StreamsGroupMetadataValue.validatedTopologyEpoch")
    rec = decoded(encode_key(17, {"groupId": "s"}), encode_value(17, 0, {
        "epoch": 2, "metadataHash": 1, "validatedTopologyEpoch": 2,
        "lastAssignmentConfigs": [{"key": "num.standby.replicas", "value": "1"}],
        "storedDescriptionTopologyEpoch": 5}))
    assert payload(rec, before(d.since)).endswith('payload: {"version":"0","data":{"epoch":2,"metadataHash":1}}')
    assert payload(rec, d.since).endswith(
        'payload: {"version":"0","data":{"epoch":2,"metadataHash":1,"validatedTopologyEpoch":2,'
        '"lastAssignmentConfigs":[{"key":"num.standby.replicas","value":"1"}]}}')


def _tasks(epochs: list[int] | None) -> list[dict]:
    return [{"subtopologyId": "0", "partitions": [1], "assignmentEpochs": epochs}]


def check_streams_task_epochs() -> None:
    d = row("TaskIds.assignmentEpochs")
    rec = decoded(encode_key(22, {"groupId": "s", "memberId": "m"}), encode_value(22, 0, {
        "memberEpoch": 3, "previousMemberEpoch": 2, "state": 1, "activeTasks": _tasks([3]), "standbyTasks": [],
        "warmupTasks": [], "activeTasksPendingRevocation": [], "standbyTasksPendingRevocation": [],
        "warmupTasksPendingRevocation": _tasks([2])}))
    older, newer = payload(rec, before(d.since)), payload(rec, d.since)
    assert '"activeTasks":[{"subtopologyId":"0","partitions":[1]}]' in older and "assignmentEpochs" not in older
    assert '"activeTasks":[{"subtopologyId":"0","partitions":[1],"assignmentEpochs":[3]}]' in newer
    assert '"warmupTasksPendingRevocation":[{"subtopologyId":"0","partitions":[1],"assignmentEpochs":[2]}]' in newer


def check_assignment_timestamp() -> None:
    d = row("assignmentTimestamp")
    for record_type in (6, 12, 20):
        rec = decoded(encode_key(record_type, {"groupId": "g"}),
                      encode_value(record_type, 0, {"assignmentEpoch": 4, "assignmentTimestamp": 1700}))
        assert payload(rec, before(d.since)).endswith('payload: {"version":"0","data":{"assignmentEpoch":4}}')
        assert payload(rec, d.since).endswith(
            'payload: {"version":"0","data":{"assignmentEpoch":4,"assignmentTimestamp":1700}}')


def check_partition_epochs() -> None:
    d = row("TopicPartitions.assignmentEpochs")
    rec = decoded(encode_key(8, {"groupId": "g", "memberId": "m"}), encode_value(8, 0, {
        "memberEpoch": 5, "previousMemberEpoch": 4, "state": 0,
        "assignedPartitions": [{"topicId": TOPIC_ID, "partitions": [0, 1], "assignmentEpochs": [5, 4]}],
        "partitionsPendingRevocation": []}))
    assert payload(rec, before(d.since)).endswith(
        f'"assignedPartitions":[{{"topicId":"{TOPIC_ID_TEXT}","partitions":[0,1]}}],'
        '"partitionsPendingRevocation":[]}}')
    assert payload(rec, d.since).endswith(
        f'"assignedPartitions":[{{"topicId":"{TOPIC_ID_TEXT}","partitions":[0,1],"assignmentEpochs":[5,4]}}],'
        '"partitionsPendingRevocation":[]}}')


def check_legacy_crc() -> None:
    d = row("legacy (magic 0/1) record line")
    data = build_message_set([SimpleRecord(offset_commit_key(), encode_value(1, 1, {
        "offset": 9, "metadata": "", "commitTimestamp": 5, "expireTimestamp": 99}), 1000)], magic=1)
    batch = next(iter(iter_batches(data, strict=True)))
    rec = decode_record(batch, batch.records[0])
    crc = rec.record.crc
    assert f" isValid: true crc: {crc}}} key: " in record_line(rec, profile(before(d.since)))
    assert f" isValid: true crc: {crc} key: " in record_line(rec, profile(d.since))


def check_missing_key() -> None:
    d = row("a record without a key")
    rec = decoded(None, b"\x00\x00")
    assert "missing key" in rec.error
    for version in (before(d.since), d.since):
        assert record_line(rec, profile(version)).endswith(" sequence: -1 headerKeys: []")


def share_state_record(value: dict) -> DecodedRecord:
    key, raw = share_state.encode_key(1, SHARE_KEY), share_state.encode_value(1, 0, value)
    data = build_batch([SimpleRecord(key, raw, 1000)])
    batch = next(iter(iter_batches(data, strict=True)))
    return decode_share_state(batch, batch.records[0])


SHARE_KEY = {"groupId": "s", "topicId": TOPIC_ID, "partition": 3}
SHARE_UPDATE = {"snapshotEpoch": 1, "leaderEpoch": 2, "startOffset": 7, "stateBatches": []}


def check_share_state_decoder() -> None:
    d = row("the --share-group-state-decoder option")
    rec = share_state_record(SHARE_UPDATE)
    assert not profile(before(d.since)).share_state_decoder and profile(d.since).share_state_decoder
    line = share_state_record_line(rec, profile(d.since))
    assert line.split(" key: ", 1)[1] == (
        f'{{"type":"1","data":{{"groupId":"s","topicId":"{TOPIC_ID_TEXT}","partition":3}}}} payload: '
        '{"version":"0","data":{"snapshotEpoch":1,"leaderEpoch":2,"startOffset":7,"stateBatches":[]}}')


def check_delivery_complete_count() -> None:
    d = row("deliveryCompleteCount of ShareSnapshotValue")
    rec = share_state_record({**SHARE_UPDATE, "deliveryCompleteCount": 4})
    assert '"startOffset":7,"stateBatches"' in share_state_record_line(rec, profile(before(d.since)))
    assert '"startOffset":7,"deliveryCompleteCount":4,"stateBatches"' in share_state_record_line(rec, profile(d.since))


def check_share_layouts_of_4_1() -> None:
    d = row("ShareGroupMetadataValue (type 11) and ShareGroupStatePartitionMetadataValue (type 15)")
    key = encode_key(11, {"groupId": "s"})
    hashed = decoded(key, encode_value(11, 0, {"epoch": 3, "metadataHash": 0x5222BBC1D38409E6}))
    zero = decoded(key, encode_value(11, 0, {"epoch": 3, "metadataHash": 0}))
    assert payload(hashed, d.since).endswith('"data":{"epoch":3,"metadataHash":5918499301469981158}}')
    assert payload(hashed, before(d.since)) == ("Error at offset 0, skipping. Could not read record with version 0 "
                                                "from value's buffer due to: -1869291333.")
    assert payload(zero, before(d.since)).endswith(' payload: {"version":"0","data":{"epoch":3}}')
    topic = {"topicId": TOPIC_ID, "topicName": "t", "partitions": [0]}
    key = encode_key(15, {"groupId": "s"})
    initialized = decoded(key, encode_value(15, 0, {"initializingTopics": [], "initializedTopics": [topic],
                                                     "deletingTopics": []}))
    initializing = decoded(key, encode_value(15, 0, {"initializingTopics": [topic], "initializedTopics": [],
                                                      "deletingTopics": []}))
    assert payload(initialized, before(d.since)).endswith(
        f'"data":{{"initializedTopics":[],"deletingTopics":[{{"topicId":"{TOPIC_ID_TEXT}","topicName":"t"}}]}}}}')
    assert payload(initializing, before(d.since)).endswith("from value's buffer due to: null.")
    assert '"initializingTopics":[{' in payload(initializing, d.since)
    assert profile(before(d.since)).kafka40_layouts == d.layouts_changed and not profile(d.since).kafka40_layouts


def check_description_epochs() -> None:
    d = row("StreamsGroupMetadataValue.storedDescriptionTopologyEpoch")
    rec = decoded(encode_key(17, {"groupId": "s"}), encode_value(17, 0, {
        "epoch": 2, "metadataHash": 1, "storedDescriptionTopologyEpoch": 5, "failedDescriptionTopologyEpoch": 6}))
    assert d.since not in SUPPORTED_VERSIONS
    assert payload(rec, NEWEST).endswith('payload: {"version":"0","data":{"epoch":2,"metadataHash":1}}')
    assert rec.value.data["storedDescriptionTopologyEpoch"] == 5  # decoded, kept for jsonl


ROW_TESTS: dict[str, Callable[[], None]] = {
    d.what: check
    for d, check in zip(
        DIFFERENCES,
        (
            check_classic_member_metadata,
            check_share_group_types,
            check_share_state_decoder,
            check_regex_type,
            check_value_version_check,
            check_type_zero_values,
            check_share_layouts_of_4_1,
            check_type_nine_removed,
            check_streams_types,
            check_topic_id,
            check_metadata_hash,
            check_delivery_complete_count,
            check_streams_metadata_tags,
            check_streams_task_epochs,
            check_assignment_timestamp,
            check_partition_epochs,
            check_legacy_crc,
            check_missing_key,
            check_description_epochs,
        ),
        strict=True,
    )
}


@pytest.mark.parametrize("what", [d.what for d in DIFFERENCES])
def test_row_at_both_sides_of_its_boundary(what):
    ROW_TESTS[what]()


# --- Kafka's own DumpLogSegmentsTest assertions, which hold in every covered release ------------------


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_dump_log_segments_test_cases_at_every_version(version):
    """testOffsetsMessageParser (core's Scala test in 3.8-4.2, tools' Java test in 4.3)."""
    group = encode_key(3, {"groupId": "group"})
    rec = decoded(group, encode_value(3, 0, {"epoch": 10}))
    assert payload(rec, version) == (
        '{"type":"3","data":{"groupId":"group"}} payload: {"version":"0","data":{"epoch":10}}')
    assert payload(decoded(group, None), version) == '{"type":"3","data":{"groupId":"group"}} payload: <DELETE>'
    unknown = decoded(b"\x7f\xff", b"")
    assert payload(unknown, version) == "Unknown record type 32767 at offset 0, skipping."
    wrong = encode_value(5, 0, {"instanceId": "", "rackId": "", "clientId": "", "clientHost": "",
                                "subscribedTopicNames": [], "subscribedTopicRegex": "", "rebalanceTimeoutMs": -1,
                                "serverAssignor": ""})
    assert payload(decoded(group, wrong), version) == (
        "Error at offset 0, skipping. Could not read record with version 0 from value's buffer due to: "
        "Error reading byte array of 536870911 byte(s): only 1 byte(s) available.")
    malformed = decoded(encode_key(2, {"group": "group"}), encode_value(2, 4, {
        "protocolType": "consumer", "generation": 10, "protocol": "range", "leader": "member",
        "currentStateTimestamp": -1, "members": [{
            "memberId": "member", "groupInstanceId": "instance", "clientId": "client", "clientHost": "host",
            "rebalanceTimeout": 1000, "sessionTimeout": 100, "subscription": b"Subscription",
            "assignment": b"Assignment"}]}))
    assert payload(malformed, version) == (
        '{"type":"2","data":{"group":"group"}} payload: {"version":"4","data":{"protocolType":"consumer",'
        '"generation":10,"protocol":"range","leader":"member","currentStateTimestamp":-1,"members":[{'
        '"memberId":"member","groupInstanceId":"instance","clientId":"client","clientHost":"host",'
        '"rebalanceTimeout":1000,"sessionTimeout":100,"subscription":"U3Vic2NyaXB0aW9u",'
        '"assignment":"QXNzaWdubWVudA=="}]}}')
