"""Kafka's checks of a ConsumerGroupHeartbeat before it changes anything: the request's fields
(`throwIfConsumerGroupHeartbeatRequestIsInvalid`) and the member's epoch."""

from __future__ import annotations

from collections.abc import Iterable

from groupctl.coordinator.assignors import Assignment
from groupctl.coordinator.consumer.messages import (
    CLIENT_MEMBER_ID_VERSION,
    JOIN_EPOCH,
    LEAVE_EPOCH,
    STATIC_LEAVE_EPOCH,
)
from groupctl.coordinator.consumer.reconcile import MemberAssignment, Owned
from groupctl.errors import KafkaError
from groupctl.protocol.data.consumer_groups import ConsumerGroupHeartbeatRequestData


def _invalid(message: str) -> KafkaError:
    return KafkaError("INVALID_REQUEST", message)


def _is_subset(owned: Owned, assigned: Assignment) -> bool:
    if owned is None:
        return False
    for topic_id, parts in owned:
        have = assigned.get(topic_id)
        if have is None or any(p not in have for p in parts):
            return False
    return True


def check_member_epoch(ma: MemberAssignment, received: int, owned: Owned) -> None:
    """Kafka's `throwIfConsumerGroupMemberEpochIsInvalid`, lost-response case included.

    Epoch 0 is always accepted: a fenced member rejoins with its member id (KAFKA-19233, Kafka 4.3;
    before it, a member that had moved through two epochs stayed fenced until its session expired).
    """
    if received == JOIN_EPOCH:
        return
    if received > ma.member_epoch:
        raise KafkaError(
            "FENCED_MEMBER_EPOCH",
            f"The consumer group member has a greater member epoch ({received}) than the one known by the group "
            f"coordinator ({ma.member_epoch}). The member must abandon all its partitions and rejoin.",
        )
    if received < ma.member_epoch and (received != ma.previous_member_epoch or not _is_subset(owned, ma.assigned)):
        raise KafkaError(
            "FENCED_MEMBER_EPOCH",
            f"The consumer group member has a smaller member epoch ({received}) than the one known by the group "
            f"coordinator ({ma.member_epoch}). The member must abandon all its partitions and rejoin.",
        )


def validate_request(req: ConsumerGroupHeartbeatRequestData, version: int,
                     supported_assignors: Iterable[str]) -> None:
    """Kafka's `throwIfConsumerGroupHeartbeatRequestIsInvalid`, in its order; `version` is the request's."""
    if (version >= CLIENT_MEMBER_ID_VERSION or req.member_epoch > 0 or req.member_epoch == LEAVE_EPOCH) and \
            req.member_id == "":
        raise _invalid("MemberId can't be empty.")
    if req.group_id == "":
        raise _invalid("GroupId can't be empty.")
    if req.instance_id == "":
        raise _invalid("InstanceId can't be empty.")
    if req.rack_id == "":
        raise _invalid("RackId can't be empty.")
    if req.member_epoch == JOIN_EPOCH:
        if req.rebalance_timeout_ms == -1:
            raise _invalid("RebalanceTimeoutMs must be provided in first request.")
        if req.topic_partitions is None or req.topic_partitions:
            raise _invalid("TopicPartitions must be empty when (re-)joining.")
        if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
            raise _invalid("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.")
    elif req.member_epoch == STATIC_LEAVE_EPOCH:
        if req.instance_id is None:
            raise _invalid("InstanceId can't be null.")
    elif req.member_epoch < STATIC_LEAVE_EPOCH:
        raise _invalid("MemberEpoch is invalid.")
    supported = list(supported_assignors)
    if req.server_assignor is not None and req.server_assignor not in supported:
        raise KafkaError(
            "UNSUPPORTED_ASSIGNOR",
            f"ServerAssignor {req.server_assignor} is not supported. Supported assignors: {', '.join(supported)}.",
        )
