"""Subscriptions by regular expression (KIP-848): a new regex is validated on the request path, its
resolution runs as a deferred task (Kafka's background executor), and resolutions are refreshed at
most every `REGEX_REFRESH_INTERVAL_MS` and at the latest every `REGEX_MAX_AGE_MS`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groupctl.coordinator.consumer import records as rec
from groupctl.coordinator.consumer.subscriptions import metadata_changed, topic_facts
from groupctl.coordinator.log import Record
from groupctl.coordinator.runtime import Result, Runtime
from groupctl.coordinator.state import GroupIndex
from groupctl.errors import KafkaError
from groupctl.protocol.data.records import ConsumerGroupMemberMetadataValue
from groupctl.regex import InvalidRegex, broker_error_message, compile_topic_regex

if TYPE_CHECKING:
    from groupctl.log.replay import ConsumerGroupState

#: `REGEX_BATCH_REFRESH_MIN_INTERVAL_MS`: regexes of a group re-resolve at most this often.
REGEX_REFRESH_INTERVAL_MS = 10_000
#: `group.consumer.regex.refresh.interval.ms` default: resolved regexes are refreshed after this.
REGEX_MAX_AGE_MS = 600_000


def maybe_update_regexes(
    rt: Runtime, gid: str, group: ConsumerGroupState | None, idx: GroupIndex, old: ConsumerGroupMemberMetadataValue,
    updated: ConsumerGroupMemberMetadataValue, records: list[Record],
) -> bool:
    """Kafka's `maybeUpdateRegularExpressions`: validate a new regex, schedule resolution, maybe bump;
    the last member leaving a regex tombstones its resolution. True when the group epoch must move."""
    old_regex, new_regex = old.subscribed_topic_regex, updated.subscribed_topic_regex
    bump = False
    require = False
    if old_regex != new_regex and old_regex and idx.regex_members.get(old_regex, 0) == 1:
        records.append(rec.regex_tombstone(gid, old_regex))
    if old_regex != new_regex and new_regex:
        if idx.regex_members.get(new_regex, 0) == 0:
            try:
                compile_topic_regex(new_regex)
            except InvalidRegex as exc:
                raise KafkaError(
                    "INVALID_REGULAR_EXPRESSION", broker_error_message(new_regex, exc.description)
                ) from None
            require = True
        else:
            bump = group is not None and new_regex in group.regexes
    if not require and not idx.regex_members:
        return bump
    regexes = dict(idx.regex_members)
    if old_regex:
        regexes[old_regex] = regexes.get(old_regex, 0) - 1
    if new_regex:
        regexes[new_regex] = regexes.get(new_regex, 0) + 1
    in_use = sorted(r for r, k in regexes.items() if k > 0)
    resolved = group.regexes if group is not None else {}
    last_refresh = max((v.timestamp for v in resolved.values()), default=-REGEX_REFRESH_INTERVAL_MS - 1)
    now = rt.now_ms()
    if now <= last_refresh + REGEX_REFRESH_INTERVAL_MS:
        return bump
    last_version = max((v.version for v in resolved.values()), default=-1)
    require |= len(in_use) != len(resolved)
    require |= last_version < rt.topics.new_topics_version
    require |= now > last_refresh + REGEX_MAX_AGE_MS
    if require and in_use:
        rt.schedule_task(f"{gid}-regex", lambda: resolve_regexes(rt, gid, in_use))
    return bump


def resolve_regexes(rt: Runtime, gid: str, regexes: list[str]) -> Result[None]:
    """`refreshRegularExpressions` + `handleRegularExpressionsResult`: records, and a bump on change."""
    out: Result[None] = Result()
    group = rt.state.consumer.get(gid)
    if group is None:
        return out
    idx = rt.state.indexes.get(gid) or GroupIndex()
    now = rt.now_ms()
    names = rt.topics.names()
    bump = False
    resolved_now: dict[str, list[str]] = {}
    for regex in regexes:
        if idx.regex_members.get(regex, 0) == 0:
            continue
        try:
            topics = compile_topic_regex(regex).select(names)
        except InvalidRegex:
            topics = []
        previous = group.regexes.get(regex)
        if previous is None or sorted(previous.topics) != topics:
            bump = True
        resolved_now[regex] = topics
        out.records.append(rec.regex(gid, regex, topics, rt.topics.version, now))
    subscribed = set(idx.names)
    for regex, resolved in group.regexes.items():
        if idx.regex_members.get(regex, 0) > 0:
            subscribed.update(resolved_now.get(regex, resolved.topics))
    for topics in resolved_now.values():
        subscribed.update(topics)
    facts = topic_facts(rt.topics, subscribed)
    if metadata_changed(group, facts, rt.kafka_40_records):
        bump = True
    if bump:
        out.records += rec.epoch_records(gid, group.epoch + 1, facts, group, rt.kafka_40_records)
    return out
