"""The Kafka backend: a real cluster behind the Backend protocol.

The group coordinator RPCs go through groupctl's wire client (`groupctl.kafka`): ListGroups on
every broker, ConsumerGroupDescribe and DescribeGroups, LeaveGroup v3-v5. They carry what
librdkafka drops (epochs, member regex and protocol, the KIP-848 states) or cannot send at all
(LeaveGroup by instance id). Offsets, topics and group configs go through confluent-kafka
(`kafka_admin`), which does cluster admin well. One settings object drives both.

Groups are described as Kafka's admin client describes them: ConsumerGroupDescribe first, and
DescribeGroups for the groups it does not know (GROUP_ID_NOT_FOUND: classic groups) or for every
group when the coordinator lacks the API. What a broker cannot do is said in words, in `notices`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final, TypeVar

from groupctl.backends import kafka_offsets
from groupctl.backends.kafka_admin import AdminSession
from groupctl.backends.kafka_configs import config_entries
from groupctl.describe import from_consumer_group_describe, from_describe_groups, member_holds
from groupctl.errors import KAFKA_DEFAULT_MESSAGES, GroupctlError, GroupNotFound
from groupctl.kafka.cluster import DEFAULT_TIMEOUT_S, Broker, Cluster
from groupctl.kafka.config import ClientConfig
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.deletion import delete_groups, delete_offsets
from groupctl.kafka.errors import GROUP_ID_NOT_FOUND, UnsupportedApi, broker_error, error_name
from groupctl.kafka.groups import (
    CONSUMER_GROUP_DESCRIBE,
    CONSUMER_GROUP_HEARTBEAT,
    LIST_GROUPS,
    ConsumerGroupInfo,
    describe_classic_groups,
    describe_consumer_groups,
    leave_group,
    list_groups,
)
from groupctl.kafka.share_groups import (
    DESCRIBE_SHARE_GROUP_OFFSETS,
    SHARE_GROUP_DESCRIBE,
    ShareGroupInfo,
    alter_share_offsets,
    delete_share_offsets,
    describe_share_groups,
    describe_share_offsets,
)
from groupctl.leaving import Departure, LeaveAnswer, removal_results
from groupctl.model import (
    DELETED,
    OFFSET_DELETE_MESSAGES,
    CommittedOffset,
    ConfigEntry,
    GroupDeletion,
    GroupDescription,
    GroupListing,
    OffsetDeletion,
    RemovalResult,
    TopicPartition,
    attach_log_ends,
    described_partitions,
)
from groupctl.protocol.data.groups import MemberIdentity
from groupctl.share_groups import from_share_group_describe, share_offsets

#: ListGroups v4 added the state filter (Kafka 2.6), v5 the type filter (Kafka 3.8).
STATES_FROM: Final = 4
TYPES_FROM: Final = 5


def coordinator_text(broker: Broker | None) -> str | None:
    """`host:port (id)`, as kafka-consumer-groups.sh shows the coordinator."""
    return f"{broker.address} ({broker.node_id})" if broker is not None else None


Info = TypeVar("Info", ConsumerGroupInfo, ShareGroupInfo)


def _described(answers: Mapping[str, Info], describe: Callable[[Info], GroupDescription],
               api: str) -> dict[str, GroupDescription]:
    """The groups a describe answered for, with their coordinator; GROUP_ID_NOT_FOUND leaves a group to the
    next API (another type, or none), any other error raises."""
    found = {}
    for group, info in answers.items():
        code = info.described.error_code
        if code == 0:
            found[group] = describe(info)
            found[group].coordinator = coordinator_text(info.coordinator)
        elif code != GROUP_ID_NOT_FOUND:
            raise broker_error(code, info.described.error_message, f"{api} for group '{group}' on {info.coordinator}")
    return found


class KafkaBackend:
    """One command's view of a cluster; use as a context manager (every connection closed on exit)."""

    def __init__(self, config: ClientConfig, *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.config = config
        self.timeout = timeout
        self.location = config.bootstrap_text
        self.notices: list[str] = []
        self.cluster = Cluster(config, timeout=timeout)
        self.admin = AdminSession(config, self.location)
        self._consumer_describe = True
        self._share_describe = True
        self._share_describe_missing: str | None = None

    def close(self) -> None:
        try:
            self.cluster.close()
        finally:
            self.admin.close()

    def __enter__(self) -> KafkaBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _deadline(self) -> Deadline:
        return self.cluster.deadline()

    def _reach(self, deadline: Deadline) -> None:
        """Connect with the wire client before confluent-kafka is asked anything: its failures say
        at once what is wrong (refused, TLS, SASL), where librdkafka would retry until the timeout.
        Settings only librdkafka can use (GSSAPI, OAUTHBEARER, PKCS12 keystores) skip the check."""
        try:
            self.config.sasl()
            self.config.tls()
        except GroupctlError:
            return
        self.cluster.any_connection(deadline)

    # --- groups: the wire client ----------------------------------------------------------------

    def list_groups(
        self, types: Iterable[str] | None = None, states: Iterable[str] | None = None, *, mixed: bool = False
    ) -> list[GroupListing]:
        """ListGroups on every broker. Member counts are not known here (ListGroups has none); a classic
        group is never mixed, and with `mixed` the consumer groups are described to tell (`_fill_mixed`)."""
        wanted_types = [t for t in types or () if t]
        wanted_states = [s for s in states or () if s]
        deadline = self._deadline()
        self._check_listing(deadline, wanted_types, wanted_states)
        listings = list_groups(self.cluster, deadline, states=wanted_states or None, types=wanted_types or None)
        for listing in listings:
            if listing.type == "classic":
                listing.mixed = False
        if mixed:
            self._fill_mixed([g for g in listings if g.type == "consumer"], deadline)
        return listings

    def _fill_mixed(self, listings: list[GroupListing], deadline: Deadline) -> None:
        """One ConsumerGroupDescribe batch for the consumer groups listed, within the listing's own
        deadline. A group it fails for keeps `mixed` None (unknown), and the listing stands: the
        failure is a notice, not an error."""
        if not listings or not self._consumer_describe:
            return
        try:
            answers = describe_consumer_groups(self.cluster, [g.group_id for g in listings], deadline)
        except GroupctlError as exc:
            self.notices.append(f"whether the consumer groups are mixed is unknown (MIXED left empty): {exc}")
            return
        failed = []
        for listing in listings:
            info = answers.get(listing.group_id)
            if info is None or info.described.error_code:
                failed.append(f"'{listing.group_id}' ({info.error_name if info else 'no answer'})")
                continue
            listing.mixed = info.mixed
        if failed:
            self.notices.append(f"ConsumerGroupDescribe failed for {', '.join(failed)}: whether those groups are "
                                "mixed is unknown (MIXED left empty)")

    def _check_listing(self, deadline: Deadline, types: list[str], states: list[str]) -> None:
        """Say what each broker's ListGroups version cannot do, or refuse a --type it cannot honour."""
        for broker in self.cluster.list_brokers(deadline):
            versions = self.cluster.connection(broker, deadline).api_versions
            version = versions.max_version(LIST_GROUPS)
            if version is None:
                continue  # the listing itself says that this broker has no ListGroups
            if version < TYPES_FROM and versions.supports(CONSUMER_GROUP_HEARTBEAT):
                if types:
                    raise GroupctlError(
                        f"{broker} answers ListGroups v{version} only (group types need v{TYPES_FROM}, Kafka 3.8+) but "
                        "may hold consumer groups (it has ConsumerGroupHeartbeat), so --type cannot be applied to "
                        "its groups; list without --type (their type shows as unknown)"
                    )
                self.notices.append(
                    f"{broker} answers ListGroups v{version} only (group types need v{TYPES_FROM}, Kafka 3.8+): "
                    "the type of its groups is unknown"
                )
            elif version < TYPES_FROM and types:
                self.notices.append(
                    f"{broker} answers ListGroups v{version} only (no type filter before v{TYPES_FROM}, Kafka 3.8+); "
                    "it has no ConsumerGroupHeartbeat, so all its groups are classic and groupctl applied --type itself"
                )
            if version < STATES_FROM and states:
                self.notices.append(
                    f"{broker} answers ListGroups v{version} only (no state filter before v{STATES_FROM}, Kafka 2.6+): "
                    "groupctl read the states with DescribeGroups and applied --state itself"
                )

    def _describe(self, group_ids: list[str], deadline: Deadline) -> dict[str, GroupDescription]:
        """Members and epochs, without offsets; GroupNotFound for a group that does not exist."""
        found: dict[str, GroupDescription] = {}
        if self._consumer_describe:
            try:
                answers = describe_consumer_groups(self.cluster, group_ids, deadline)
            except UnsupportedApi as exc:
                if exc.api_key != CONSUMER_GROUP_DESCRIBE:
                    raise
                self._consumer_describe = False
                self.notices.append(
                    f"{exc}: KIP-848 consumer groups need it (Kafka 3.8+); showing classic fields only (the groups "
                    "were described with DescribeGroups: no epochs, target assignments or member protocols)"
                )
                answers = {}
            found.update(_described(answers, from_consumer_group_describe, "ConsumerGroupDescribe"))
        rest = [g for g in group_ids if g not in found]
        unknown = []
        if rest:
            for group, classic in describe_classic_groups(self.cluster, rest, deadline).items():
                code = classic.described.error_code
                if code not in (0, GROUP_ID_NOT_FOUND):
                    raise broker_error(code, classic.described.error_message,
                                       f"DescribeGroups for group '{group}' on {classic.coordinator}")
                if not classic.exists:
                    unknown.append(group)
                    continue
                found[group] = from_describe_groups(classic)
                found[group].coordinator = coordinator_text(classic.coordinator)
        if unknown:
            found.update(self._describe_other_types(unknown, deadline))
        return found

    def _describe_other_types(self, group_ids: list[str], deadline: Deadline) -> dict[str, GroupDescription]:
        """Groups neither ConsumerGroupDescribe nor DescribeGroups knows: share groups by ShareGroupDescribe;
        the rest are looked up in ListGroups, and a group listed with a type groupctl cannot describe (streams,
        or share on a broker without ShareGroupDescribe v1) gets one row saying so. GroupNotFound for the first
        group no broker lists."""
        found: dict[str, GroupDescription] = {}
        if self._share_describe:
            try:
                answers = describe_share_groups(self.cluster, group_ids, deadline)
            except UnsupportedApi as exc:
                if exc.api_key != SHARE_GROUP_DESCRIBE:
                    raise
                self._share_describe = False
                self._share_describe_missing = str(exc)
                answers = {}
            found.update(_described(answers, from_share_group_describe, "ShareGroupDescribe"))
        rest = [g for g in group_ids if g not in found]
        if not rest:
            return found
        listed = {g.group_id: g for g in list_groups(self.cluster, deadline)}
        for group in rest:
            listing = listed.get(group)
            if listing is None:
                raise GroupNotFound(group, self.location)
            found[group] = GroupDescription(group, listing.type, listing.state, protocol_type=listing.protocol_type,
                                            unsupported=self._not_describable(listing.type))
        return found

    def _not_describable(self, group_type: str) -> str:
        """Why a listed group has no description, in words an operator can act on."""
        if group_type == "share" and self._share_describe_missing:
            return (f"a share group, and {self._share_describe_missing} (share groups are described from Kafka 4.1 "
                    "on, where it is v1)")
        if group_type == "share":
            return "a share group its coordinator's ShareGroupDescribe did not know (deleted since it was listed?)"
        if group_type == "streams":
            return ("a streams group (KIP-1071): groupctl cannot describe streams groups yet; "
                    "kafka-streams-groups.sh can")
        return f"a group of type '{group_type}', which groupctl cannot describe"

    def describe_groups(self, group_ids: Iterable[str]) -> list[GroupDescription]:
        """Each group with its members, its committed offsets and their log end offsets."""
        ids = list(dict.fromkeys(group_ids))
        deadline = self._deadline()
        found = self._describe(ids, deadline)
        for group in ids:
            desc = found[group]
            if desc.type == "share" and desc.unsupported is None:
                self._add_share_offsets(desc, deadline)
            elif desc.unsupported is None:
                self._add_offsets(desc, deadline)
        return [found[g] for g in ids]

    def _add_share_offsets(self, desc: GroupDescription, deadline: Deadline) -> None:
        """Each share-partition's start offset (and lag, from a Kafka 4.2+ broker), as kafka-share-groups.sh
        --describe asks: DescribeShareGroupOffsets for all the group's topics."""
        try:
            answer = describe_share_offsets(self.cluster, desc.group_id, deadline)
        except UnsupportedApi as exc:
            if exc.api_key != DESCRIBE_SHARE_GROUP_OFFSETS:
                raise
            self.notices.append(f"{exc}: no start offsets for share group '{desc.group_id}'")
            return
        if answer.group.error_code:
            raise broker_error(answer.group.error_code, answer.group.error_message,
                               f"DescribeShareGroupOffsets for group '{desc.group_id}'")
        desc.share_offsets = share_offsets(answer)
        failed = [f"{t.topic_name}-{p.partition_index} ({error_name(p.error_code)})"
                  for t in answer.group.topics for p in t.partitions if p.error_code]
        if failed:
            self.notices.append(f"no start offset for {', '.join(failed)} (share group '{desc.group_id}')")

    def _add_offsets(self, desc: GroupDescription, deadline: Deadline) -> None:
        """The group's committed offsets, and the log end offsets of those and of its assigned partitions."""
        desc.offsets = self.admin.committed_offsets(desc.group_id, deadline)
        ends, errors = self.admin.end_offsets(described_partitions(desc), deadline)
        attach_log_ends(desc, ends)
        if errors:
            listed = ", ".join(f"{tp.topic}-{tp.partition} ({name})" for tp, name in sorted(errors.items()))
            self.notices.append(f"no log end offset, so no lag, for {listed} (group '{desc.group_id}')")

    def remove_members(self, group_id: str, members: Iterable[MemberIdentity]) -> list[RemovalResult]:
        """One LeaveGroup (v3-v5) naming every member given; the partitions each removed member held
        come from a describe just before."""
        targets = list(members)
        deadline = self._deadline()
        before = self._describe([group_id], deadline)[group_id]
        by_instance = {m.instance_id: m for m in before.members if m.instance_id is not None}
        by_member = {m.member_id: m for m in before.members}
        response, coordinator = leave_group(self.cluster, group_id, targets, deadline)
        if response.error_code and not response.members:
            if response.error_code == GROUP_ID_NOT_FOUND:
                raise GroupNotFound(group_id, self.location)
            raise broker_error(response.error_code, None, f"LeaveGroup for group '{group_id}' on {coordinator}")
        answer = LeaveAnswer(response)
        for member in response.members:
            if member.error_code:
                answer.departures.append(Departure.refused(member))
                continue
            instance = member.group_instance_id
            held = by_instance.get(instance) if instance is not None else by_member.get(member.member_id)
            answer.departures.append(Departure(member, held.member_id, member_holds(held)) if held is not None
                                     else Departure(member))
        return removal_results(group_id, targets, answer)

    # --- offsets, topics and configs: confluent-kafka ---------------------------------------------

    def committed_offsets(self, group_id: str) -> list[CommittedOffset]:
        deadline = self._deadline()
        self._reach(deadline)
        return self.admin.committed_offsets(group_id, deadline)

    def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        deadline = self._deadline()
        self._reach(deadline)
        return self.admin.end_offsets(partitions, deadline)[0]

    def list_topics(self) -> list[str]:
        deadline = self._deadline()
        self._reach(deadline)
        return self.admin.topic_names(deadline)

    def get_config(self, group_id: str, names: Iterable[str] | None = None) -> list[ConfigEntry]:
        """The group's configs; the broker bounds (MIN/MAX) from one broker's own configs."""
        deadline = self._deadline()
        self._reach(deadline)
        described = self.admin.group_configs(group_id, deadline)
        broker: dict[str, str] | None = None
        try:
            broker = self.admin.broker_settings(deadline)
        except GroupctlError as exc:
            self.notices.append(f"the broker bounds of the group configs are not shown: {exc}")
        entries = config_entries(described, broker)
        if names is None:
            return entries
        by_name = {e.name: e for e in entries}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise GroupctlError(f"Unknown group config name: {unknown[0]} (group configs: {', '.join(by_name)})")
        return [by_name[n] for n in names]

    def alter_config(
        self, group_id: str, set_values: Mapping[str, str], delete: Iterable[str], *, validate_only: bool = False
    ) -> None:
        deadline = self._deadline()
        self._reach(deadline)
        self.admin.alter_group_configs(group_id, set_values, list(delete), validate_only=validate_only,
                                       deadline=deadline)

    # --- offsets reset: log starts, offsets by time, the admin commit (kafka_offsets) --------------

    def partition_counts(self, topics: Iterable[str]) -> dict[str, int]:
        deadline = self._deadline()
        self._reach(deadline)
        return kafka_offsets.partition_counts(self.admin, topics, deadline)

    def start_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        from confluent_kafka.admin import OffsetSpec

        deadline = self._deadline()
        self._reach(deadline)
        return kafka_offsets.list_offsets(self.admin, partitions, OffsetSpec.earliest, deadline)[0]

    def offsets_for_time(self, partitions: Iterable[TopicPartition], timestamp_ms: int) -> dict[TopicPartition, int]:
        """ListOffsets by timestamp; where the broker finds no record that recent (-1), the log end."""
        from confluent_kafka.admin import OffsetSpec

        wanted = list(partitions)
        deadline = self._deadline()
        self._reach(deadline)
        found = kafka_offsets.list_offsets(self.admin, wanted, lambda: OffsetSpec.for_timestamp(timestamp_ms),
                                           deadline)[0]
        after = [tp for tp, offset in found.items() if offset < 0]
        if after:
            found.update(self.admin.end_offsets(after, deadline)[0])
        return found

    def alter_offsets(self, group_id: str, offsets: Mapping[TopicPartition, int]) -> dict[TopicPartition, str | None]:
        deadline = self._deadline()
        self._reach(deadline)
        return kafka_offsets.alter_offsets(self.admin, group_id, offsets, deadline)

    # --- deletion: DeleteGroups and OffsetDelete, the wire client ----------------------------------

    def delete_groups(self, group_ids: Iterable[str]) -> list[GroupDeletion]:
        """One DeleteGroups per coordinator; the message is the broker's (v3) or Kafka's default."""
        ids = list(dict.fromkeys(group_ids))
        answers = delete_groups(self.cluster, ids, self._deadline())
        out = []
        for group in ids:
            answer = answers[group]
            if answer.error_code == 0:
                out.append(GroupDeletion(group, DELETED))
                continue
            name = error_name(answer.error_code)
            out.append(GroupDeletion(group, name, answer.error_message or KAFKA_DEFAULT_MESSAGES.get(name)))
        return out

    def delete_offsets(self, group_id: str, partitions: Iterable[TopicPartition]) -> list[OffsetDeletion]:
        """One OffsetDelete v0 on the group's coordinator; results in the order asked."""
        wanted = list(dict.fromkeys(partitions))
        answer = delete_offsets(self.cluster, group_id, wanted, self._deadline())
        where = f"OffsetDelete for group '{group_id}' on {answer.coordinator}"
        if answer.error_code == GROUP_ID_NOT_FOUND:
            raise GroupNotFound(group_id, self.location)
        if answer.error_code:
            raise broker_error(answer.error_code, None, where)
        out = []
        for tp in wanted:
            code = answer.partitions.get(tp)
            if code is None:
                out.append(OffsetDeletion(group_id, tp.topic, tp.partition, "UNKNOWN_SERVER_ERROR",
                                          f"{where}: the answer did not mention this partition"))
            elif code == 0:
                out.append(OffsetDeletion(group_id, tp.topic, tp.partition, DELETED))
            else:
                name = error_name(code)
                out.append(OffsetDeletion(group_id, tp.topic, tp.partition, name,
                                          OFFSET_DELETE_MESSAGES.get(name, KAFKA_DEFAULT_MESSAGES.get(name))))
        return out

    # --- share groups: AlterShareGroupOffsets and DeleteShareGroupOffsets, the wire client ---------

    def alter_share_offsets(
        self, group_id: str, offsets: Mapping[TopicPartition, int]
    ) -> dict[TopicPartition, str | None]:
        """One AlterShareGroupOffsets v0. A partition the answer leaves out was set: a real 4.1.0 broker
        answers success with an empty list. A top-level error raises, in the broker's words."""
        body, broker = alter_share_offsets(self.cluster, group_id, offsets, self._deadline())
        if body.error_code == GROUP_ID_NOT_FOUND:
            raise GroupNotFound(group_id, self.location)
        if body.error_code:
            raise broker_error(body.error_code, body.error_message,
                               f"AlterShareGroupOffsets for group '{group_id}' on {broker}")
        errors = {TopicPartition(t.topic_name, p.partition_index): error_name(p.error_code)
                  for t in body.responses for p in t.partitions if p.error_code}
        return {tp: errors.get(tp) for tp in offsets}

    def delete_share_offsets(self, group_id: str, topics: Iterable[str]) -> list[OffsetDeletion]:
        """One DeleteShareGroupOffsets v0: one result per topic (partition -1), in the order asked."""
        wanted = list(dict.fromkeys(topics))
        body, broker = delete_share_offsets(self.cluster, group_id, wanted, self._deadline())
        if body.error_code == GROUP_ID_NOT_FOUND:
            raise GroupNotFound(group_id, self.location)
        if body.error_code:
            raise broker_error(body.error_code, body.error_message,
                               f"DeleteShareGroupOffsets for group '{group_id}' on {broker}")
        answered = {t.topic_name: t for t in body.responses}
        out = []
        for topic in wanted:
            t = answered.get(topic)
            if t is None or t.error_code == 0:
                out.append(OffsetDeletion(group_id, topic, -1, DELETED))
            else:
                name = error_name(t.error_code)
                out.append(OffsetDeletion(group_id, topic, -1, name,
                                          t.error_message or KAFKA_DEFAULT_MESSAGES.get(name)))
        return out
