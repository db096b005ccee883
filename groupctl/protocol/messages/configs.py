"""DescribeConfigs (32) and IncrementalAlterConfigs (44): topic, broker and GROUP (type 32) configs.

DescribeConfigs 1-4 (v0 removed in Kafka 4.0; flexible from 4): v1 synonyms and ConfigSource, v3
ConfigType and documentation. IncrementalAlterConfigs 0-1 (flexible from 1); ConfigOperation is
0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT.
"""

from __future__ import annotations

from typing import Final

from groupctl.protocol.schema import field, message

DESCRIBE_CONFIGS_REQUEST: Final = message(
    "DescribeConfigsRequest",
    "1-4",
    "4+",
    [
        field(
            "Resources",
            "[]DescribeConfigsResource",
            fields=[
                field("ResourceType", "int8"),
                field("ResourceName", "string"),
                field("ConfigurationKeys", "[]string", nullable="0+"),
            ],
        ),
        field("IncludeSynonyms", "bool", "1+", default=False),
        field("IncludeDocumentation", "bool", "3+", default=False),
    ],
    api_key=32,
)

DESCRIBE_CONFIGS_RESPONSE: Final = message(
    "DescribeConfigsResponse",
    "1-4",
    "4+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Results",
            "[]DescribeConfigsResult",
            fields=[
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", nullable="0+"),
                field("ResourceType", "int8"),
                field("ResourceName", "string"),
                field(
                    "Configs",
                    "[]DescribeConfigsResourceResult",
                    fields=[
                        field("Name", "string"),
                        field("Value", "string", nullable="0+"),
                        field("ReadOnly", "bool"),
                        field("ConfigSource", "int8", "1+", default=-1, ignorable=True),
                        field("IsDefault", "bool", "0"),
                        field("IsSensitive", "bool"),
                        field(
                            "Synonyms",
                            "[]DescribeConfigsSynonym",
                            "1+",
                            ignorable=True,
                            fields=[
                                field("Name", "string", "1+"),
                                field("Value", "string", "1+", nullable="0+"),
                                field("Source", "int8", "1+"),
                            ],
                        ),
                        field("ConfigType", "int8", "3+", default=0, ignorable=True),
                        field("Documentation", "string", "3+", nullable="0+", ignorable=True),
                    ],
                ),
            ],
        ),
    ],
    api_key=32,
)

INCREMENTAL_ALTER_CONFIGS_REQUEST: Final = message(
    "IncrementalAlterConfigsRequest",
    "0-1",
    "1+",
    [
        field(
            "Resources",
            "[]AlterConfigsResource",
            fields=[
                field("ResourceType", "int8"),
                field("ResourceName", "string"),
                field(
                    "Configs",
                    "[]AlterableConfig",
                    fields=[
                        field("Name", "string"),
                        field("ConfigOperation", "int8"),
                        field("Value", "string", nullable="0+"),
                    ],
                ),
            ],
        ),
        field("ValidateOnly", "bool"),
    ],
    api_key=44,
)

INCREMENTAL_ALTER_CONFIGS_RESPONSE: Final = message(
    "IncrementalAlterConfigsResponse",
    "0-1",
    "1+",
    [
        field("ThrottleTimeMs", "int32"),
        field(
            "Responses",
            "[]AlterConfigsResourceResponse",
            fields=[
                field("ErrorCode", "int16"),
                field("ErrorMessage", "string", nullable="0+"),
                field("ResourceType", "int8"),
                field("ResourceName", "string"),
            ],
        ),
    ],
    api_key=44,
)
