"""groupctl's own errors, each carrying the exit code the CLI contract gives it.

The CLI catches `GroupctlError` and prints its message on stderr; anything else is a bug and
shows a trace only with --debug.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_PARTIAL = 3
EXIT_FINDINGS = 4
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports a process ended by SIGINT

#: Every exit code and what it means: the README's table and each man page's EXIT STATUS come from it.
EXIT_STATUSES = (
    (EXIT_OK, "ok"),
    (EXIT_ERROR, "error; also a confirmation answered no (nothing changed)"),
    (EXIT_USAGE, "usage error"),
    (EXIT_PARTIAL, "partial failure: some input was damaged or skipped (a damaged or torn batch, a bad "
                   "dump-log line, a record whose key or value does not decode), or some items failed"),
    (EXIT_FINDINGS, "findings at or above `--fail-on` (damaged input wins: an audit of it exits 3)"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)


class GroupctlError(Exception):
    """A failure the operator can act on; the message names the thing and the fix."""

    exit_code = EXIT_ERROR


class UsageError(GroupctlError):
    """Bad command-line input (exit 2)."""

    exit_code = EXIT_USAGE


class DecodeError(GroupctlError):
    """Bytes that do not parse as what they claim to be.

    `path` and `position` (byte offset in the file) are filled in by whoever knows them, so the
    operator sees where the damage is. Decoding commands exit 3 when they skipped such input.
    """

    exit_code = EXIT_PARTIAL

    def __init__(self, reason: str, *, path: str | None = None, position: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path
        self.position = position

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}"
            if self.position is not None:
                where += f" at byte {self.position}"
            where += ": "
        elif self.position is not None:
            where = f"at byte {self.position}: "
        return where + self.reason


class PartialFailure(GroupctlError):
    """Some items failed while others succeeded (exit 3); the output holds what succeeded."""

    exit_code = EXIT_PARTIAL


class FindingsReached(GroupctlError):
    """An audit found something at or above --fail-on (exit 4); the report itself went to stdout."""

    exit_code = EXIT_FINDINGS


class NotConfirmed(GroupctlError):
    """The person at the terminal answered no (exit 1): nothing went wrong and nothing changed, so the
    CLI says so plainly rather than as an error."""

    exit_code = EXIT_ERROR

    def __init__(self, unchanged: str) -> None:
        super().__init__(f"not confirmed: nothing changed ({unchanged})")


# Kafka's error codes (`Errors.java`, trunk), code -> name.
KAFKA_ERROR_NAMES: dict[int, str] = dict(enumerate((
    "NONE", "OFFSET_OUT_OF_RANGE", "CORRUPT_MESSAGE", "UNKNOWN_TOPIC_OR_PARTITION", "INVALID_FETCH_SIZE",
    "LEADER_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "REQUEST_TIMED_OUT", "BROKER_NOT_AVAILABLE",
    "REPLICA_NOT_AVAILABLE", "MESSAGE_TOO_LARGE", "STALE_CONTROLLER_EPOCH", "OFFSET_METADATA_TOO_LARGE",
    "NETWORK_EXCEPTION", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR",
    "INVALID_TOPIC_EXCEPTION", "RECORD_LIST_TOO_LARGE", "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
    "INVALID_REQUIRED_ACKS", "ILLEGAL_GENERATION", "INCONSISTENT_GROUP_PROTOCOL", "INVALID_GROUP_ID",
    "UNKNOWN_MEMBER_ID", "INVALID_SESSION_TIMEOUT", "REBALANCE_IN_PROGRESS", "INVALID_COMMIT_OFFSET_SIZE",
    "TOPIC_AUTHORIZATION_FAILED", "GROUP_AUTHORIZATION_FAILED", "CLUSTER_AUTHORIZATION_FAILED", "INVALID_TIMESTAMP",
    "UNSUPPORTED_SASL_MECHANISM", "ILLEGAL_SASL_STATE", "UNSUPPORTED_VERSION", "TOPIC_ALREADY_EXISTS",
    "INVALID_PARTITIONS", "INVALID_REPLICATION_FACTOR", "INVALID_REPLICA_ASSIGNMENT", "INVALID_CONFIG",
    "NOT_CONTROLLER", "INVALID_REQUEST", "UNSUPPORTED_FOR_MESSAGE_FORMAT", "POLICY_VIOLATION",
    "OUT_OF_ORDER_SEQUENCE_NUMBER", "DUPLICATE_SEQUENCE_NUMBER", "INVALID_PRODUCER_EPOCH", "INVALID_TXN_STATE",
    "INVALID_PRODUCER_ID_MAPPING", "INVALID_TRANSACTION_TIMEOUT", "CONCURRENT_TRANSACTIONS",
    "TRANSACTION_COORDINATOR_FENCED", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "SECURITY_DISABLED",
    "OPERATION_NOT_ATTEMPTED", "KAFKA_STORAGE_ERROR", "LOG_DIR_NOT_FOUND", "SASL_AUTHENTICATION_FAILED",
    "UNKNOWN_PRODUCER_ID", "REASSIGNMENT_IN_PROGRESS", "DELEGATION_TOKEN_AUTH_DISABLED",
    "DELEGATION_TOKEN_NOT_FOUND", "DELEGATION_TOKEN_OWNER_MISMATCH", "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED",
    "DELEGATION_TOKEN_AUTHORIZATION_FAILED", "DELEGATION_TOKEN_EXPIRED", "INVALID_PRINCIPAL_TYPE",
    "NON_EMPTY_GROUP", "GROUP_ID_NOT_FOUND", "FETCH_SESSION_ID_NOT_FOUND", "INVALID_FETCH_SESSION_EPOCH",
    "LISTENER_NOT_FOUND", "TOPIC_DELETION_DISABLED", "FENCED_LEADER_EPOCH", "UNKNOWN_LEADER_EPOCH",
    "UNSUPPORTED_COMPRESSION_TYPE", "STALE_BROKER_EPOCH", "OFFSET_NOT_AVAILABLE", "MEMBER_ID_REQUIRED",
    "PREFERRED_LEADER_NOT_AVAILABLE", "GROUP_MAX_SIZE_REACHED", "FENCED_INSTANCE_ID",
    "ELIGIBLE_LEADERS_NOT_AVAILABLE", "ELECTION_NOT_NEEDED", "NO_REASSIGNMENT_IN_PROGRESS",
    "GROUP_SUBSCRIBED_TO_TOPIC", "INVALID_RECORD", "UNSTABLE_OFFSET_COMMIT", "THROTTLING_QUOTA_EXCEEDED",
    "PRODUCER_FENCED", "RESOURCE_NOT_FOUND", "DUPLICATE_RESOURCE", "UNACCEPTABLE_CREDENTIAL",
    "INCONSISTENT_VOTER_SET", "INVALID_UPDATE_VERSION", "FEATURE_UPDATE_FAILED",
    "PRINCIPAL_DESERIALIZATION_FAILURE", "SNAPSHOT_NOT_FOUND", "POSITION_OUT_OF_RANGE", "UNKNOWN_TOPIC_ID",
    "DUPLICATE_BROKER_REGISTRATION", "BROKER_ID_NOT_REGISTERED", "INCONSISTENT_TOPIC_ID", "INCONSISTENT_CLUSTER_ID",
    "TRANSACTIONAL_ID_NOT_FOUND", "FETCH_SESSION_TOPIC_ID_ERROR", "INELIGIBLE_REPLICA", "NEW_LEADER_ELECTED",
    "OFFSET_MOVED_TO_TIERED_STORAGE", "FENCED_MEMBER_EPOCH", "UNRELEASED_INSTANCE_ID", "UNSUPPORTED_ASSIGNOR",
    "STALE_MEMBER_EPOCH", "MISMATCHED_ENDPOINT_TYPE", "UNSUPPORTED_ENDPOINT_TYPE", "UNKNOWN_CONTROLLER_ID",
    "UNKNOWN_SUBSCRIPTION_ID", "TELEMETRY_TOO_LARGE", "INVALID_REGISTRATION", "TRANSACTION_ABORTABLE",
    "INVALID_RECORD_STATE", "SHARE_SESSION_NOT_FOUND", "INVALID_SHARE_SESSION_EPOCH", "FENCED_STATE_EPOCH",
    "INVALID_VOTER_KEY", "DUPLICATE_VOTER", "VOTER_NOT_FOUND", "INVALID_REGULAR_EXPRESSION",
    "REBOOTSTRAP_REQUIRED", "STREAMS_INVALID_TOPOLOGY", "STREAMS_INVALID_TOPOLOGY_EPOCH",
    "STREAMS_TOPOLOGY_FENCED", "SHARE_SESSION_LIMIT_REACHED", "GROUP_DELETION_FAILED",
    "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", "CONTROLLER_ID_NOT_REGISTERED",
)))
KAFKA_ERROR_NAMES[-1] = "UNKNOWN_SERVER_ERROR"
KAFKA_ERROR_CODES: dict[str, int] = {name: code for code, name in KAFKA_ERROR_NAMES.items()}

# The default messages of the exceptions Kafka raises for group errors (`Errors.java`).
KAFKA_DEFAULT_MESSAGES: dict[str, str] = {
    "ILLEGAL_GENERATION": "Specified group generation id is not valid.",
    "UNKNOWN_MEMBER_ID": "The coordinator is not aware of this member.",
    "REBALANCE_IN_PROGRESS": "The group is rebalancing, so a rejoin is needed.",
    "GROUP_ID_NOT_FOUND": "The group id does not exist.",
    "NON_EMPTY_GROUP": "The group is not empty.",
    "MEMBER_ID_REQUIRED": "The group member needs to have a valid member id before actually entering a consumer "
    "group.",
    "GROUP_MAX_SIZE_REACHED": "The group has reached its maximum size.",
    "FENCED_INSTANCE_ID": "The broker rejected this static consumer since another consumer with the same "
    "group.instance.id has registered with a different member.id.",
    "FENCED_MEMBER_EPOCH": "The member epoch is fenced by the group coordinator. The member must abandon all its "
    "partitions and rejoin.",
    "UNRELEASED_INSTANCE_ID": "The instance ID is still used by another member in the consumer group. That member "
    "must leave first.",
    "UNSUPPORTED_ASSIGNOR": "The assignor or its version range is not supported by the consumer group.",
    "STALE_MEMBER_EPOCH": "The member epoch is stale. The member must retry after receiving its updated member "
    "epoch via the ConsumerGroupHeartbeat API.",
    "INVALID_REGULAR_EXPRESSION": "The regular expression is not valid.",
}


class KafkaError(GroupctlError):
    """An error as a Kafka broker returns it: a code, its name, and the message sent with it.

    The in-process coordinator raises these where Kafka throws an ApiException; request handlers
    turn them into a response's ErrorCode/ErrorMessage.
    """

    def __init__(self, name: str, message: str | None = None) -> None:
        self.name = name
        self.code = KAFKA_ERROR_CODES[name]
        self.message = message if message is not None else KAFKA_DEFAULT_MESSAGES.get(name)
        super().__init__(f"{name}: {self.message}" if self.message else name)


class GroupNotFound(GroupctlError):
    """A named group does not exist where the command looked."""

    def __init__(self, group_id: str, location: str) -> None:
        super().__init__(f"group '{group_id}' does not exist on {location}")
        self.group_id = group_id
        self.location = location
