"""ApiVersions (18): the first request on every connection, so its shape must stay readable by all.

Versions 0-4 (flexible from 3). v3 adds the client software name/version and the tagged feature
lists; v4 only lifts a restriction on SupportedFeatures.MinVersion.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

API_VERSIONS_REQUEST: Final = message(
    "ApiVersionsRequest",
    "0-4",
    "3+",
    [
        field("ClientSoftwareName", "string", "3+", ignorable=True),
        field("ClientSoftwareVersion", "string", "3+", ignorable=True),
    ],
    api_key=18,
)

API_VERSIONS_RESPONSE: Final = message(
    "ApiVersionsResponse",
    "0-4",
    "3+",
    [
        field("ErrorCode", "int16"),
        field(
            "ApiKeys",
            "[]ApiVersion",
            fields=[field("ApiKey", "int16"), field("MinVersion", "int16"), field("MaxVersion", "int16")],
        ),
        field("ThrottleTimeMs", "int32", "1+", ignorable=True),
        field(
            "SupportedFeatures",
            "[]SupportedFeatureKey",
            "3+",
            tag=0,
            ignorable=True,
            fields=[
                field("Name", "string", "3+"),
                field("MinVersion", "int16", "3+"),
                field("MaxVersion", "int16", "3+"),
            ],
        ),
        field("FinalizedFeaturesEpoch", "int64", "3+", tag=1, default=-1, ignorable=True),
        field(
            "FinalizedFeatures",
            "[]FinalizedFeatureKey",
            "3+",
            tag=2,
            ignorable=True,
            fields=[
                field("Name", "string", "3+"),
                field("MaxVersionLevel", "int16", "3+"),
                field("MinVersionLevel", "int16", "3+"),
            ],
        ),
        field("ZkMigrationReady", "bool", "3+", tag=3, default=False, ignorable=True),
    ],
    api_key=18,
)
