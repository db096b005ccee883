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
import uuid

from groupctl.coordinator.topics import Topic
from groupctl.errors import KAFKA_ERROR_CODES, KafkaError
from groupctl.log.batch import NO_TIMESTAMP
from groupctl.protocol.data.records_apis import (
    FetchableTopicResponse,
    FetchRequestData,
    FetchResponseData,
    ListOffsetsPartitionResponse,
    ListOffsetsRequestData,
    ListOffsetsResponseData,
    ListOffsetsTopicResponse,
    PartitionData,
    PartitionProduceResponse,
    ProduceRequestData,
    ProduceResponseData,
    TopicProduceResponse,
)
from groupctl.server.broker import Broker
from groupctl.server.connection import ConnectionClosed
from groupctl.server.dispatch import RequestContext, handles
from groupctl.server.partitions import LEADER_EPOCH, PartitionLog, PartitionStore

#: ListOffsets' special timestamps (`ListOffsetsRequest`).
LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED, EARLIEST_PENDING_UPLOAD = -1, -2, -3, -4, -5, -6
UNKNOWN_TOPIC_OR_PARTITION = "UNKNOWN_TOPIC_OR_PARTITION"
UNKNOWN_TOPIC_ID = "UNKNOWN_TOPIC_ID"


def partition_store(broker: Broker) -> PartitionStore:
    """The broker's partition logs, opened (and recovered) once: when the server starts."""
    store = broker.partitions
    if store is None:
        store = PartitionStore(broker.directory, broker.backend.end_offsets_by_topic)
        for notice in store.notices:
            print(f"groupctl serve: {notice}", file=sys.stderr)
        broker.partitions = store
    return store


def resolve_topic(ctx: RequestContext, name: str, topic_id: uuid.UUID, id_version: int) -> tuple[Topic | None, str]:
    """The topic a request entry names (by id from `id_version`), or None and the error to give."""
    topics = ctx.broker.topics
    if ctx.api_version >= id_version:
        return topics.by_id(topic_id), UNKNOWN_TOPIC_ID
    return topics.get(name), UNKNOWN_TOPIC_OR_PARTITION


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


def produce_error(index: int, name: str, message: str | None = None) -> PartitionProduceResponse:
    return PartitionProduceResponse(index=index, error_code=KAFKA_ERROR_CODES[name], base_offset=-1,
                                    log_append_time_ms=-1, log_start_offset=-1, error_message=message)


@handles(0)
async def produce(ctx: RequestContext, body: ProduceRequestData) -> ProduceResponseData | None:
    store = partition_store(ctx.broker)
    acks = body.acks
    failed = False
    responses = []
    for topic_data in body.topic_data:
        topic, missing = resolve_topic(ctx, topic_data.name, topic_data.topic_id, 13)
        answers = []
        for data in topic_data.partition_data:
            index = data.index
            log = locate(store, topic, missing, index)
            if isinstance(log, str):
                answer = produce_error(index, log)
            elif acks not in (-1, 0, 1):
                answer = produce_error(index, "INVALID_REQUIRED_ACKS")
            else:
                try:  # null records are refused as empty ones are
                    base = log.append(data.records or b"", allow_zstd=ctx.api_version >= 7)
                except KafkaError as exc:
                    answer = produce_error(index, exc.name, exc.message)
                else:
                    answer = PartitionProduceResponse(index=index, error_code=0, base_offset=base,
                                                      log_append_time_ms=NO_TIMESTAMP,
                                                      log_start_offset=log.log_start_offset)
            failed = failed or answer.error_code != 0
            answers.append(answer)
        responses.append(TopicProduceResponse(name=topic_data.name, topic_id=topic_data.topic_id,
                                              partition_responses=answers))
    if acks == 0:
        if failed:  # the producer hears of a failure only by losing the connection, as from Kafka
            raise ConnectionClosed("an acks=0 produce request failed")
        return None
    return ProduceResponseData(responses=responses, throttle_time_ms=0)


# -- Fetch -------------------------------------------------------------------------------------------


def fetch_error(partition: int, name: str) -> PartitionData:
    return PartitionData(partition_index=partition, error_code=KAFKA_ERROR_CODES[name], high_watermark=-1,
                         last_stable_offset=-1, log_start_offset=-1, aborted_transactions=None,
                         preferred_read_replica=-1, records=b"")


def read_fetch(
    ctx: RequestContext, store: PartitionStore, body: FetchRequestData
) -> tuple[list[FetchableTopicResponse], int, list[PartitionLog], bool]:
    """One pass over a Fetch's partitions: the answers, their record bytes, the logs read, and
    whether any partition failed (Kafka then answers at once)."""
    room = body.max_bytes
    read_committed = body.isolation_level == 1
    min_one = True
    total = 0
    logs: list[PartitionLog] = []
    failed = False
    responses = []
    for wanted in body.topics:
        topic, missing = resolve_topic(ctx, wanted.topic, wanted.topic_id, 13)
        answers = []
        for part in wanted.partitions:
            index, offset = part.partition, part.fetch_offset
            log = locate(store, topic, missing, index, part.current_leader_epoch)
            if not isinstance(log, str) and not log.log_start_offset <= offset <= log.end_offset:
                log = "OFFSET_OUT_OF_RANGE"
            if isinstance(log, str):
                answers.append(fetch_error(index, log))
                failed = True
                continue
            records = log.read(offset, min(part.partition_max_bytes, room), min_one=min_one)
            if records:
                min_one = False
                room -= len(records)
                total += len(records)
            logs.append(log)
            answers.append(PartitionData(
                partition_index=index, error_code=0, high_watermark=log.end_offset,
                last_stable_offset=log.end_offset, log_start_offset=log.log_start_offset,
                aborted_transactions=[] if read_committed else None, preferred_read_replica=-1, records=records,
            ))
        responses.append(FetchableTopicResponse(topic=wanted.topic, topic_id=wanted.topic_id, partitions=answers))
    return responses, total, logs, failed


@handles(1)
async def fetch(ctx: RequestContext, body: FetchRequestData) -> FetchResponseData:
    store = partition_store(ctx.broker)
    if ctx.api_version >= 7 and body.session_epoch not in (0, -1):
        # An incremental fetch names a session, and this broker never hands one out.
        return FetchResponseData(error_code=KAFKA_ERROR_CODES["FETCH_SESSION_ID_NOT_FOUND"], session_id=0, responses=[])
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0, body.max_wait_ms) / 1000
    while True:
        responses, total, logs, failed = read_fetch(ctx, store, body)
        left = deadline - loop.time()
        if total >= body.min_bytes or failed or not logs or left <= 0:
            return FetchResponseData(throttle_time_ms=0, error_code=0, session_id=0, responses=responses)
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
async def list_offsets(ctx: RequestContext, body: ListOffsetsRequestData) -> ListOffsetsResponseData:
    store = partition_store(ctx.broker)
    topics = ctx.broker.topics
    responses = []
    for wanted in body.topics:
        topic = topics.get(wanted.name)
        answers = []
        for part in wanted.partitions:
            index = part.partition_index
            log = locate(store, topic, UNKNOWN_TOPIC_OR_PARTITION, index, part.current_leader_epoch)
            if isinstance(log, str):
                answer = ListOffsetsPartitionResponse(partition_index=index, error_code=KAFKA_ERROR_CODES[log],
                                                      timestamp=NO_TIMESTAMP, offset=-1)
            else:
                timestamp, offset, epoch = list_offset(log, part.timestamp)
                answer = ListOffsetsPartitionResponse(partition_index=index, error_code=0, timestamp=timestamp,
                                                      offset=offset)
                if ctx.api_version >= 4:  # no LeaderEpoch field before v4, and the writer refuses a value for it
                    answer.leader_epoch = epoch
            answers.append(answer)
        responses.append(ListOffsetsTopicResponse(name=wanted.name, partitions=answers))
    return ListOffsetsResponseData(throttle_time_ms=0, topics=responses)
