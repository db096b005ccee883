"""Produce, Fetch and ListOffsets: the data plane of the one-node cluster, over `PartitionStore`.

Node 1 leads every partition at leader epoch 0 and has no replicas, so the high watermark, the last
stable offset and the log end offset are one number. There is no transaction coordinator:
transactional and idempotent batches are stored as they come, and nothing is ever aborted. Fetch
keeps no sessions (every answer is a full one with session id 0, which clients accept and which
makes them send full requests); a Fetch with too little data waits for an append to one of its
partitions, up to its MaxWaitMs, holding only its own connection.
"""

from __future__ import annotations

import asyncio
import sys

from groupctl.coordinator.topics import Topic
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.log.batch import NO_TIMESTAMP
from groupctl.server.broker import Broker
from groupctl.server.connection import ConnectionClosed
from groupctl.server.dispatch import Body, RequestContext, handles
from groupctl.server.partitions import LEADER_EPOCH, PartitionLog, PartitionStore

#: ListOffsets' special timestamps (`ListOffsetsRequest`).
LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED, EARLIEST_PENDING_UPLOAD = -1, -2, -3, -4, -5, -6
UNKNOWN_TOPIC_OR_PARTITION = "UNKNOWN_TOPIC_OR_PARTITION"
UNKNOWN_TOPIC_ID = "UNKNOWN_TOPIC_ID"
_INT32_MAX = 0x7FFFFFFF


def partition_store(broker: Broker) -> PartitionStore:
    """The broker's partition logs, opened (and recovered) once: when the server starts."""
    store = broker.partitions
    if store is None:
        store = PartitionStore(broker.directory, broker.backend.end_offsets_by_topic)
        for notice in store.notices:
            print(f"groupctl serve: {notice}", file=sys.stderr)
        broker.partitions = store
    return store


def resolve_topic(ctx: RequestContext, entry: Body, name_key: str, id_version: int) -> tuple[Topic | None, str]:
    """The topic a request entry names (by id from `id_version`), or None and the error to give."""
    topics = ctx.broker.coordinator.topics
    if ctx.api_version >= id_version:
        return topics.by_id(entry["topicId"]), UNKNOWN_TOPIC_ID
    return topics.get(entry[name_key]), UNKNOWN_TOPIC_OR_PARTITION


def locate(
    store: PartitionStore, topic: Topic | None, missing: str, index: int, leader_epoch: int = -1
) -> PartitionLog | str:
    """The partition's log, or the name of the error a request naming it gets: the topic's `missing`
    error, UNKNOWN_TOPIC_OR_PARTITION, or UNKNOWN_LEADER_EPOCH for an epoch ahead of the only one."""
    if topic is None:
        return missing
    if not 0 <= index < topic.partitions:
        return UNKNOWN_TOPIC_OR_PARTITION
    if leader_epoch > LEADER_EPOCH:
        return "UNKNOWN_LEADER_EPOCH"
    return store.log(topic.name, index)


# -- Produce -----------------------------------------------------------------------------------------


def produce_error(index: int, name: str, message: str | None = None) -> Body:
    return {"index": index, "errorCode": KAFKA_ERROR_CODES[name], "baseOffset": -1, "logAppendTimeMs": -1,
            "logStartOffset": -1, "errorMessage": message}


@handles(0)
async def produce(ctx: RequestContext, body: Body) -> Body | None:
    store = partition_store(ctx.broker)
    acks = body["acks"]
    failed = False
    responses = []
    for topic_data in body["topicData"]:
        topic, missing = resolve_topic(ctx, topic_data, "name", 13)
        answers = []
        for data in topic_data["partitionData"]:
            index = data["index"]
            log = locate(store, topic, missing, index)
            if isinstance(log, str):
                answer = produce_error(index, log)
            elif acks not in (-1, 0, 1):
                answer = produce_error(index, "INVALID_REQUIRED_ACKS")
            else:
                try:
                    base = log.append(data["records"], allow_zstd=ctx.api_version >= 7)
                except KafkaError as exc:
                    answer = produce_error(index, exc.name, exc.message)
                else:
                    answer = {"index": index, "errorCode": 0, "baseOffset": base, "logAppendTimeMs": NO_TIMESTAMP,
                              "logStartOffset": log.log_start_offset}
            failed = failed or answer["errorCode"] != 0
            answers.append(answer)
        responses.append({"name": topic_data.get("name", ""), "topicId": topic_data.get("topicId"),
                          "partitionResponses": answers})
    if acks == 0:
        if failed:  # the producer hears of a failure only by losing the connection, as from Kafka
            raise ConnectionClosed("an acks=0 produce request failed")
        return None
    return {"responses": responses, "throttleTimeMs": 0}


# -- Fetch -------------------------------------------------------------------------------------------


def fetch_error(partition: int, name: str) -> Body:
    return {"partitionIndex": partition, "errorCode": KAFKA_ERROR_CODES[name], "highWatermark": -1,
            "lastStableOffset": -1, "logStartOffset": -1, "abortedTransactions": None, "preferredReadReplica": -1,
            "records": b""}


def read_fetch(
    ctx: RequestContext, store: PartitionStore, body: Body
) -> tuple[list[Body], int, list[PartitionLog], bool]:
    """One pass over a Fetch's partitions: the answers, their record bytes, the logs read, and
    whether any partition failed (Kafka then answers at once)."""
    room = body.get("maxBytes", _INT32_MAX)
    read_committed = body.get("isolationLevel", 0) == 1
    min_one = True
    total = 0
    logs: list[PartitionLog] = []
    failed = False
    responses = []
    for wanted in body["topics"]:
        topic, missing = resolve_topic(ctx, wanted, "topic", 13)
        answers = []
        for part in wanted["partitions"]:
            index, offset = part["partition"], part["fetchOffset"]
            log = locate(store, topic, missing, index, part.get("currentLeaderEpoch", -1))
            if not isinstance(log, str) and not log.log_start_offset <= offset <= log.end_offset:
                log = "OFFSET_OUT_OF_RANGE"
            if isinstance(log, str):
                answers.append(fetch_error(index, log))
                failed = True
                continue
            records = log.read(offset, min(part["partitionMaxBytes"], room), min_one=min_one)
            if records:
                min_one = False
                room -= len(records)
                total += len(records)
            logs.append(log)
            answers.append({
                "partitionIndex": index, "errorCode": 0, "highWatermark": log.end_offset,
                "lastStableOffset": log.end_offset, "logStartOffset": log.log_start_offset,
                "abortedTransactions": [] if read_committed else None, "preferredReadReplica": -1,
                "records": records,
            })
        responses.append({"topic": wanted.get("topic", ""), "topicId": wanted.get("topicId"), "partitions": answers})
    return responses, total, logs, failed


@handles(1)
async def fetch(ctx: RequestContext, body: Body) -> Body:
    store = partition_store(ctx.broker)
    if ctx.api_version >= 7 and body.get("sessionEpoch", -1) not in (0, -1):
        # An incremental fetch names a session, and this broker never hands one out.
        return {"errorCode": KAFKA_ERROR_CODES["FETCH_SESSION_ID_NOT_FOUND"], "sessionId": 0, "responses": []}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0, body["maxWaitMs"]) / 1000
    while True:
        responses, total, logs, failed = read_fetch(ctx, store, body)
        left = deadline - loop.time()
        if total >= body["minBytes"] or failed or not logs or left <= 0:
            return {"throttleTimeMs": 0, "errorCode": 0, "sessionId": 0, "responses": responses}
        await store.wait_for_append(logs, left)


# -- ListOffsets -------------------------------------------------------------------------------------


def list_offset(log: PartitionLog, timestamp: int) -> tuple[int, int, int]:
    """(timestamp, offset, leader epoch) for one ListOffsets partition, as `UnifiedLog.fetchOffsetByTimestamp`
    answers without tiered storage; nothing found is (-1, -1, -1)."""
    if timestamp == LATEST:
        return NO_TIMESTAMP, log.end_offset, LEADER_EPOCH
    if timestamp in (EARLIEST, EARLIEST_LOCAL):
        return NO_TIMESTAMP, log.log_start_offset, LEADER_EPOCH
    if timestamp in (LATEST_TIERED, EARLIEST_PENDING_UPLOAD):
        return NO_TIMESTAMP, -1, -1
    found = log.max_timestamp() if timestamp == MAX_TIMESTAMP else log.offset_for_timestamp(timestamp)
    if found is None:
        return NO_TIMESTAMP, -1, -1
    return found[0], found[1], LEADER_EPOCH


@handles(2)
async def list_offsets(ctx: RequestContext, body: Body) -> Body:
    store = partition_store(ctx.broker)
    topics = ctx.broker.coordinator.topics
    responses = []
    for wanted in body["topics"]:
        topic = topics.get(wanted["name"])
        answers = []
        for part in wanted["partitions"]:
            index = part["partitionIndex"]
            log = locate(store, topic, UNKNOWN_TOPIC_OR_PARTITION, index, part.get("currentLeaderEpoch", -1))
            if isinstance(log, str):
                answer = {"partitionIndex": index, "errorCode": KAFKA_ERROR_CODES[log], "timestamp": NO_TIMESTAMP,
                          "offset": -1, "leaderEpoch": -1}
            else:
                timestamp, offset, epoch = list_offset(log, part["timestamp"])
                answer = {"partitionIndex": index, "errorCode": 0, "timestamp": timestamp, "offset": offset,
                          "leaderEpoch": epoch}
            if ctx.api_version < 4:  # no LeaderEpoch field before v4, and the encoder refuses a value for it
                del answer["leaderEpoch"]
            answers.append(answer)
        responses.append({"name": wanted["name"], "partitions": answers})
    return {"throttleTimeMs": 0, "topics": responses}
