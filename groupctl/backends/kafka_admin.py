"""The confluent-kafka (librdkafka) half of the Kafka backend: offsets, topics and group configs.

librdkafka does cluster admin well (DESIGN.md, Backends), so it answers what needs no group
coordinator RPC of groupctl's own: committed offsets (OffsetFetch), log end offsets (ListOffsets,
latest), the topic list (Metadata), and group configs (DescribeConfigs / IncrementalAlterConfigs on
resource type GROUP, with validate_only). One AdminClient per command, made on first use from the
same settings as the wire client (`ClientConfig.librdkafka_properties`).

Every call waits until its deadline at most, polling the client meanwhile so that librdkafka's own
reports (refused connections, failed logins) are collected and can explain a timeout. When
librdkafka reports every broker down (ALL_BROKERS_DOWN: each known broker dropped or refused the
connection) and then a refused reconnect, or no broker came back within `ALL_DOWN_GRACE_S`, the call
fails at once with those reports, which name the brokers: librdkafka would keep reconnecting until
the deadline, and the operator would only learn "timed out". Connection setup is bounded by the
same `socket.connection.setup.timeout.ms` as the wire client's (librdkafka's own default is 30 s).
librdkafka writes nothing to stderr itself (log_level 0) unless the settings ask for its logs
(`debug`, `log_level`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Future, wait
from typing import TYPE_CHECKING, Any, Final

from groupctl.errors import KAFKA_ERROR_NAMES, GroupctlError
from groupctl.kafka.config import ClientConfig
from groupctl.kafka.deadline import Deadline, seconds_text
from groupctl.model import CommittedOffset, TopicPartition

if TYPE_CHECKING:
    from confluent_kafka import KafkaError as LibrdkafkaError
    from confluent_kafka.admin import AdminClient

POLL_S: Final = 0.05
METADATA_SLICE_S: Final = 0.5
ALL_DOWN_GRACE_S: Final = 2.0
"""How long every broker may stay down, without a refused reconnect to say why, before a call gives up:
long enough for librdkafka's first reconnects (reconnect.backoff.ms, 100 ms growing to 10 s)."""
LIBRDKAFKA_MIN_SETUP_MS: Final = 1000
"""librdkafka refuses a `socket.connection.setup.timeout.ms` below 1000."""
MAX_REQUEST_TIMEOUT_S: Final = 3600.0
"""The longest `request_timeout` confluent-kafka takes (it refuses more than 3,600,000 ms with a ValueError);
a longer --timeout keeps waiting in `_wait`, which polls until the command's own deadline."""
REPORTS_SHOWN: Final = 3


class AdminCallFailed(GroupctlError):
    """A broker refused an admin request; `name` is Kafka's error name (INVALID_CONFIG ...)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}" if message else name)
        self.name = name
        self.message = message


class AdminSession:
    """confluent-kafka's AdminClient for one command; `close()` releases it."""

    def __init__(self, config: ClientConfig, where: str) -> None:
        self.config = config
        self.where = where
        self._client: AdminClient | None = None
        self._reports: list[str] = []
        self._all_down_at: float | None = None
        self._refused_since_down = False

    def close(self) -> None:
        self._client = None  # librdkafka's handle is destroyed with its last reference

    def client(self) -> AdminClient:
        """confluent-kafka's AdminClient with the command's settings, made on first use."""
        if self._client is None:
            from confluent_kafka import KafkaException
            from confluent_kafka.admin import AdminClient

            props: dict[str, Any] = dict(self.config.librdkafka_properties())
            if "debug" not in props:
                props.setdefault("log_level", 0)
            props["socket.connection.setup.timeout.ms"] = str(max(LIBRDKAFKA_MIN_SETUP_MS,
                                                                  self.config.connect_timeout_ms))
            props["error_cb"] = self._report
            try:
                self._client = AdminClient(props)
            except KafkaException as exc:
                raise GroupctlError(
                    f"confluent-kafka refused the client settings: {exc.args[0].str()} (check --command-config and -X)"
                ) from exc
        return self._client

    def _report(self, error: LibrdkafkaError) -> None:
        from confluent_kafka import KafkaError

        self._reports.append(error.str())
        if error.code() == KafkaError._ALL_BROKERS_DOWN and self._all_down_at is None:
            self._all_down_at = time.monotonic()
        elif error.code() == KafkaError._TRANSPORT and "refused" in error.str() and self._all_down_at is not None:
            self._refused_since_down = True

    def _check_brokers(self, what: str) -> None:
        """Collect librdkafka's reports; fail when every broker is down and one refused to reconnect (or
        none came back within the grace period): a broker that went away mid-command."""
        self.client().poll(0)
        down = self._all_down_at
        if down is not None and (self._refused_since_down or time.monotonic() - down >= ALL_DOWN_GRACE_S):
            raise GroupctlError(
                f"{what} on {self.where} failed: every broker is down{self._reported()}; check that the brokers "
                "run and are reachable (a broker that went away mid-command refuses connections)"
            )

    def _reported(self) -> str:
        recent = list(dict.fromkeys(self._reports))[-REPORTS_SHOWN:]
        return f"; librdkafka reported: {'; '.join(recent)}" if recent else ""

    def wait_for(self, future: Future, deadline: Deadline, what: str) -> Any:
        """The future's result once it is done, polling for librdkafka's reports until the deadline."""
        from confluent_kafka import KafkaException

        while not wait([future], timeout=min(POLL_S, deadline.remaining())).done:
            self._check_brokers(what)
            if deadline.expired:
                raise self._timed_out(what, deadline)
        try:
            return future.result()
        except KafkaException as exc:
            self.client().poll(0)  # librdkafka's reports, to say why
            raise self._failure(exc.args[0], what, deadline) from exc

    def _timed_out(self, what: str, deadline: Deadline) -> GroupctlError:
        return GroupctlError(
            f"{what} on {self.where} timed out after {seconds_text(deadline.total)}{self._reported()}; check that the "
            "cluster is reachable with these settings, or give more time with --timeout"
        )

    def _failure(self, error: LibrdkafkaError, what: str, deadline: Deadline) -> GroupctlError:
        from confluent_kafka import KafkaError

        if error.code() > 0:  # the broker's error code, named as Kafka names it
            return AdminCallFailed(KAFKA_ERROR_NAMES.get(error.code(), error.name()), error.str())
        if error.code() == KafkaError._TIMED_OUT:  # librdkafka's own clock, set to the same deadline
            return self._timed_out(what, deadline)
        return GroupctlError(f"{what} on {self.where} failed: {error.str()}{self._reported()}")

    @staticmethod
    def request_timeout(deadline: Deadline) -> float:
        """librdkafka's request timeout for what is left of the deadline (at least 1 ms, at most the cap)."""
        return min(max(deadline.remaining(), 0.001), MAX_REQUEST_TIMEOUT_S)

    # --- offsets --------------------------------------------------------------------------------

    def committed_offsets(self, group_id: str, deadline: Deadline) -> list[CommittedOffset]:
        """Every committed offset of the group (OffsetFetch on its coordinator), sorted."""
        from confluent_kafka import ConsumerGroupTopicPartitions

        request = [ConsumerGroupTopicPartitions(group_id)]
        futures = self.client().list_consumer_group_offsets(request, request_timeout=self.request_timeout(deadline))
        answer = self.wait_for(futures[group_id], deadline, f"OffsetFetch for group '{group_id}'")
        offsets = [
            CommittedOffset(
                tp.topic,
                tp.partition,
                tp.offset,
                metadata=tp.metadata or "",
                leader_epoch=tp.leader_epoch if tp.leader_epoch is not None and tp.leader_epoch >= 0 else None,
            )
            for tp in answer.topic_partitions
            if tp.error is None and tp.offset >= 0
        ]
        return sorted(offsets, key=lambda o: (o.topic, o.partition))

    def end_offsets(
        self, partitions: Iterable[TopicPartition], deadline: Deadline
    ) -> tuple[dict[TopicPartition, int], dict[TopicPartition, str]]:
        """Log end offsets (ListOffsets, latest, read_uncommitted), and the error of each partition without one."""
        from confluent_kafka import TopicPartition as LibrdkafkaPartition
        from confluent_kafka.admin import OffsetSpec

        wanted = sorted(set(partitions))
        if not wanted:
            return {}, {}
        request = {LibrdkafkaPartition(tp.topic, tp.partition): OffsetSpec.latest() for tp in wanted}
        futures = self.client().list_offsets(request, request_timeout=self.request_timeout(deadline))
        offsets: dict[TopicPartition, int] = {}
        errors: dict[TopicPartition, str] = {}
        for asked, future in futures.items():
            tp = TopicPartition(asked.topic, asked.partition)
            try:
                offsets[tp] = self.wait_for(future, deadline, "ListOffsets").offset
            except AdminCallFailed as exc:
                errors[tp] = exc.name
        return offsets, errors

    # --- topics -----------------------------------------------------------------------------------

    def metadata(self, deadline: Deadline) -> Any:
        """The cluster's Metadata (every topic) from librdkafka, its failures said as every other call's:
        asked in slices until the deadline, so that librdkafka's reports are read between them."""
        from confluent_kafka import KafkaError, KafkaException

        admin = self.client()
        while True:
            try:
                return admin.list_topics(timeout=min(self.request_timeout(deadline), METADATA_SLICE_S))
            except KafkaException as exc:
                self._check_brokers("Metadata")
                if exc.args[0].code() not in (KafkaError._TIMED_OUT, KafkaError._TRANSPORT) or deadline.expired:
                    raise self._failure(exc.args[0], "Metadata", deadline) from exc

    def topic_names(self, deadline: Deadline) -> list[str]:
        """Every topic of the cluster (Metadata), internal ones included, sorted."""
        return sorted(self.metadata(deadline).topics)

    # --- configs ------------------------------------------------------------------------------------

    def group_configs(self, group_id: str, deadline: Deadline) -> dict[str, Any]:
        """DescribeConfigs for GROUP `group_id`: name -> confluent-kafka ConfigEntry (with synonyms)."""
        from confluent_kafka.admin import ConfigResource, ResourceType

        resource = ConfigResource(ResourceType.GROUP, group_id)
        futures = self.client().describe_configs([resource], request_timeout=self.request_timeout(deadline))
        return dict(self.wait_for(futures[resource], deadline, f"DescribeConfigs for group '{group_id}'"))

    def broker_settings(self, deadline: Deadline) -> dict[str, str]:
        """The configs of one broker (DescribeCluster's controller, else the first node), by name."""
        from confluent_kafka.admin import ConfigResource, ResourceType

        admin = self.client()
        cluster = self.wait_for(admin.describe_cluster(request_timeout=self.request_timeout(deadline)), deadline,
                             "DescribeCluster")
        nodes = ([cluster.controller] if cluster.controller is not None else []) + sorted(
            cluster.nodes or (), key=lambda n: n.id
        )
        if not nodes:
            raise GroupctlError(f"DescribeCluster on {self.where} named no broker")
        node = nodes[0]
        resource = ConfigResource(ResourceType.BROKER, str(node.id))
        futures = admin.describe_configs([resource], request_timeout=self.request_timeout(deadline))
        entries = self.wait_for(futures[resource], deadline, f"DescribeConfigs for broker {node.id}")
        return {name: entry.value for name, entry in entries.items() if entry.value is not None}

    def alter_group_configs(
        self,
        group_id: str,
        set_values: Mapping[str, str],
        delete: Iterable[str],
        *,
        validate_only: bool,
        deadline: Deadline,
    ) -> None:
        """IncrementalAlterConfigs on GROUP `group_id`: SET and DELETE operations, all or none."""
        from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

        changes = [ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in set_values.items()]
        changes += [ConfigEntry(k, None, incremental_operation=AlterConfigOpType.DELETE) for k in delete]
        resource = ConfigResource(ResourceType.GROUP, group_id, incremental_configs=changes)
        futures = self.client().incremental_alter_configs(
            [resource], validate_only=validate_only, request_timeout=self.request_timeout(deadline)
        )
        self.wait_for(futures[resource], deadline, f"IncrementalAlterConfigs for group '{group_id}'")
