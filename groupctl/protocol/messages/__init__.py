"""The Kafka wire protocol messages groupctl speaks, as schema data, and a registry by API key.

Transcribed from Kafka's `clients/src/main/resources/common/message/*.json` (the 4.2-era files, with
trunk's later additions from `reference/kafka-facts.md` §7: DeleteGroups v3, ConsumerGroupDescribe
v1). Both the listener (`groupctl serve`) and the wire client use these: one schema per request and
response, coded by `groupctl.protocol.codegen`, framed by `framing`.

| API                     | key | versions | flexible | module            |
|-------------------------|-----|----------|----------|-------------------|
| Produce                 |   0 | 3-13     | 9+       | records_apis      |
| Fetch                   |   1 | 4-18     | 12+      | records_apis      |
| ListOffsets             |   2 | 1-11     | 6+       | records_apis      |
| Metadata                |   3 | 0-13     | 9+       | metadata          |
| OffsetCommit            |   8 | 2-10     | 8+       | offsets           |
| OffsetFetch             |   9 | 1-10     | 6+       | offsets           |
| FindCoordinator         |  10 | 0-6      | 3+       | group_admin       |
| JoinGroup               |  11 | 0-9      | 6+       | groups            |
| Heartbeat               |  12 | 0-4      | 4+       | groups            |
| LeaveGroup              |  13 | 0-5      | 4+       | groups            |
| SyncGroup               |  14 | 0-5      | 4+       | groups            |
| DescribeGroups          |  15 | 0-6      | 5+       | group_admin       |
| ListGroups              |  16 | 0-5      | 3+       | group_admin       |
| SaslHandshake           |  17 | 0-1      | none     | auth              |
| ApiVersions             |  18 | 0-4      | 3+       | api_versions      |
| CreateTopics            |  19 | 2-7      | 5+       | topics            |
| InitProducerId          |  22 | 0-6      | 2+       | producers         |
| DescribeConfigs         |  32 | 1-4      | 4+       | configs           |
| SaslAuthenticate        |  36 | 0-2      | 2+       | auth              |
| CreatePartitions        |  37 | 0-3      | 2+       | topics            |
| DeleteGroups            |  42 | 0-3      | 2+       | group_admin       |
| IncrementalAlterConfigs |  44 | 0-1      | 1+       | configs           |
| OffsetDelete            |  47 | 0        | none     | offsets           |
| DescribeCluster         |  60 | 0-2      | 0+       | metadata          |
| ConsumerGroupHeartbeat  |  68 | 0-1      | 0+       | consumer_groups   |
| ConsumerGroupDescribe   |  69 | 0-1      | 0+       | consumer_groups   |
| ShareGroupHeartbeat     |  76 | 1        | 1+       | share_groups      |
| ShareGroupDescribe      |  77 | 1        | 1+       | share_groups      |
| DescribeShareGroupOffsets | 90 | 0-1     | 0+       | share_groups      |
| AlterShareGroupOffsets  |  91 | 0        | 0+       | share_groups      |
| DeleteShareGroupOffsets |  92 | 0        | 0+       | share_groups      |

Every version in the table is covered, including ones real clients do not send yet (Fetch 18,
DeleteGroups 3). Headers (RequestHeader 0-2, ResponseHeader 0-1) live in `headers`.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.messages import (
    api_versions,
    auth,
    configs,
    consumer_groups,
    group_admin,
    groups,
    metadata,
    offsets,
    producers,
    records_apis,
    share_groups,
    topics,
)
from groupctl.protocol.schema import Message

_PAIRS: Final[tuple[tuple[Message, Message], ...]] = (
    (records_apis.PRODUCE_REQUEST, records_apis.PRODUCE_RESPONSE),
    (records_apis.FETCH_REQUEST, records_apis.FETCH_RESPONSE),
    (records_apis.LIST_OFFSETS_REQUEST, records_apis.LIST_OFFSETS_RESPONSE),
    (metadata.METADATA_REQUEST, metadata.METADATA_RESPONSE),
    (offsets.OFFSET_COMMIT_REQUEST, offsets.OFFSET_COMMIT_RESPONSE),
    (offsets.OFFSET_FETCH_REQUEST, offsets.OFFSET_FETCH_RESPONSE),
    (group_admin.FIND_COORDINATOR_REQUEST, group_admin.FIND_COORDINATOR_RESPONSE),
    (groups.JOIN_GROUP_REQUEST, groups.JOIN_GROUP_RESPONSE),
    (groups.HEARTBEAT_REQUEST, groups.HEARTBEAT_RESPONSE),
    (groups.LEAVE_GROUP_REQUEST, groups.LEAVE_GROUP_RESPONSE),
    (groups.SYNC_GROUP_REQUEST, groups.SYNC_GROUP_RESPONSE),
    (group_admin.DESCRIBE_GROUPS_REQUEST, group_admin.DESCRIBE_GROUPS_RESPONSE),
    (group_admin.LIST_GROUPS_REQUEST, group_admin.LIST_GROUPS_RESPONSE),
    (auth.SASL_HANDSHAKE_REQUEST, auth.SASL_HANDSHAKE_RESPONSE),
    (api_versions.API_VERSIONS_REQUEST, api_versions.API_VERSIONS_RESPONSE),
    (topics.CREATE_TOPICS_REQUEST, topics.CREATE_TOPICS_RESPONSE),
    (producers.INIT_PRODUCER_ID_REQUEST, producers.INIT_PRODUCER_ID_RESPONSE),
    (configs.DESCRIBE_CONFIGS_REQUEST, configs.DESCRIBE_CONFIGS_RESPONSE),
    (auth.SASL_AUTHENTICATE_REQUEST, auth.SASL_AUTHENTICATE_RESPONSE),
    (topics.CREATE_PARTITIONS_REQUEST, topics.CREATE_PARTITIONS_RESPONSE),
    (group_admin.DELETE_GROUPS_REQUEST, group_admin.DELETE_GROUPS_RESPONSE),
    (configs.INCREMENTAL_ALTER_CONFIGS_REQUEST, configs.INCREMENTAL_ALTER_CONFIGS_RESPONSE),
    (offsets.OFFSET_DELETE_REQUEST, offsets.OFFSET_DELETE_RESPONSE),
    (metadata.DESCRIBE_CLUSTER_REQUEST, metadata.DESCRIBE_CLUSTER_RESPONSE),
    (consumer_groups.CONSUMER_GROUP_HEARTBEAT_REQUEST, consumer_groups.CONSUMER_GROUP_HEARTBEAT_RESPONSE),
    (consumer_groups.CONSUMER_GROUP_DESCRIBE_REQUEST, consumer_groups.CONSUMER_GROUP_DESCRIBE_RESPONSE),
    (share_groups.SHARE_GROUP_HEARTBEAT_REQUEST, share_groups.SHARE_GROUP_HEARTBEAT_RESPONSE),
    (share_groups.SHARE_GROUP_DESCRIBE_REQUEST, share_groups.SHARE_GROUP_DESCRIBE_RESPONSE),
    (share_groups.DESCRIBE_SHARE_GROUP_OFFSETS_REQUEST, share_groups.DESCRIBE_SHARE_GROUP_OFFSETS_RESPONSE),
    (share_groups.ALTER_SHARE_GROUP_OFFSETS_REQUEST, share_groups.ALTER_SHARE_GROUP_OFFSETS_RESPONSE),
    (share_groups.DELETE_SHARE_GROUP_OFFSETS_REQUEST, share_groups.DELETE_SHARE_GROUP_OFFSETS_RESPONSE),
)


def _registry(pairs: tuple[tuple[Message, Message], ...]) -> dict[int, tuple[Message, Message]]:
    """Key the pairs by API key, refusing a pair whose request and response disagree on key or
    versions (the framing picks header versions from them)."""
    registry: dict[int, tuple[Message, Message]] = {}
    for req, resp in pairs:
        key = req.api_key
        if key is None or key != resp.api_key or key in registry:
            raise ValueError(f"{req.name}/{resp.name}: bad or duplicate api key {key}")
        if req.valid_versions != resp.valid_versions or req.flexible_versions != resp.flexible_versions:
            raise ValueError(f"{req.name}/{resp.name}: versions differ")
        registry[key] = (req, resp)
    return registry


API_SCHEMAS: Final[dict[int, tuple[Message, Message]]] = _registry(_PAIRS)
"""API key -> (request schema, response schema)."""

API_NAMES: Final[dict[int, str]] = {key: req.name.removesuffix("Request") for key, (req, _) in API_SCHEMAS.items()}
"""API key -> Kafka's name for the API ("JoinGroup"), as ApiKeys and the broker logs spell it."""
