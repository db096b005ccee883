"""The configs API messages, as classes: generated from `groupctl.protocol.messages.configs`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields


class DescribeConfigsResource(Data):
    """An entry of DescribeConfigsRequest.Resources[]."""

    __slots__ = ("configuration_keys", "resource_name", "resource_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("resource_type", "resourceType", None),
        ("resource_name", "resourceName", None),
        ("configuration_keys", "configurationKeys", None),
    )

    resource_type: int
    resource_name: str
    configuration_keys: list[str] | None

    def __init__(
        self,
        *,
        resource_type: int = 0,
        resource_name: str = "",
        configuration_keys: list[str] | None = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configuration_keys = [] if configuration_keys is UNSET else configuration_keys
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeConfigsRequestData(Data):
    """DescribeConfigsRequest, versions 1-4."""

    __slots__ = ("include_documentation", "include_synonyms", "resources")
    _FIELDS: ClassVar[FieldTable] = (
        ("resources", "resources", DescribeConfigsResource),
        ("include_synonyms", "includeSynonyms", None),
        ("include_documentation", "includeDocumentation", None),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeConfigsRequest"

    resources: list[DescribeConfigsResource]
    include_synonyms: bool
    include_documentation: bool

    def __init__(
        self,
        *,
        resources: list[DescribeConfigsResource] = UNSET,
        include_synonyms: bool = False,
        include_documentation: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.resources = [] if resources is UNSET else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeConfigsSynonym(Data):
    """An entry of DescribeConfigsResponse.Results[].Configs[].Synonyms[]."""

    __slots__ = ("name", "source", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("value", "value", None),
        ("source", "source", None),
    )

    name: str
    value: str | None
    source: int

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        source: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.value = value
        self.source = source
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeConfigsResourceResult(Data):
    """An entry of DescribeConfigsResponse.Results[].Configs[]."""

    __slots__ = (
        "config_source",
        "config_type",
        "documentation",
        "is_default",
        "is_sensitive",
        "name",
        "read_only",
        "synonyms",
        "value",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("value", "value", None),
        ("read_only", "readOnly", None),
        ("config_source", "configSource", None),
        ("is_default", "isDefault", None),
        ("is_sensitive", "isSensitive", None),
        ("synonyms", "synonyms", DescribeConfigsSynonym),
        ("config_type", "configType", None),
        ("documentation", "documentation", None),
    )

    name: str
    value: str | None
    read_only: bool
    config_source: int
    is_default: bool
    is_sensitive: bool
    synonyms: list[DescribeConfigsSynonym]
    config_type: int
    documentation: str | None

    def __init__(
        self,
        *,
        name: str = "",
        value: str | None = "",
        read_only: bool = False,
        config_source: int = -1,
        is_default: bool = False,
        is_sensitive: bool = False,
        synonyms: list[DescribeConfigsSynonym] = UNSET,
        config_type: int = 0,
        documentation: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_default = is_default
        self.is_sensitive = is_sensitive
        self.synonyms = [] if synonyms is UNSET else synonyms
        self.config_type = config_type
        self.documentation = documentation
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeConfigsResult(Data):
    """An entry of DescribeConfigsResponse.Results[]."""

    __slots__ = ("configs", "error_code", "error_message", "resource_name", "resource_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("resource_type", "resourceType", None),
        ("resource_name", "resourceName", None),
        ("configs", "configs", DescribeConfigsResourceResult),
    )

    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str
    configs: list[DescribeConfigsResourceResult]

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        resource_type: int = 0,
        resource_name: str = "",
        configs: list[DescribeConfigsResourceResult] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is UNSET else configs
        self.unknown_tagged_fields = unknown_tagged_fields


class DescribeConfigsResponseData(Data):
    """DescribeConfigsResponse, versions 1-4."""

    __slots__ = ("results", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("results", "results", DescribeConfigsResult),
    )
    SCHEMA_NAME: ClassVar[str] = "DescribeConfigsResponse"

    throttle_time_ms: int
    results: list[DescribeConfigsResult]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        results: list[DescribeConfigsResult] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is UNSET else results
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterableConfig(Data):
    """An entry of IncrementalAlterConfigsRequest.Resources[].Configs[]."""

    __slots__ = ("config_operation", "name", "value")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("config_operation", "configOperation", None),
        ("value", "value", None),
    )

    name: str
    config_operation: int
    value: str | None

    def __init__(
        self,
        *,
        name: str = "",
        config_operation: int = 0,
        value: str | None = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.config_operation = config_operation
        self.value = value
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterConfigsResource(Data):
    """An entry of IncrementalAlterConfigsRequest.Resources[]."""

    __slots__ = ("configs", "resource_name", "resource_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("resource_type", "resourceType", None),
        ("resource_name", "resourceName", None),
        ("configs", "configs", AlterableConfig),
    )

    resource_type: int
    resource_name: str
    configs: list[AlterableConfig]

    def __init__(
        self,
        *,
        resource_type: int = 0,
        resource_name: str = "",
        configs: list[AlterableConfig] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is UNSET else configs
        self.unknown_tagged_fields = unknown_tagged_fields


class IncrementalAlterConfigsRequestData(Data):
    """IncrementalAlterConfigsRequest, versions 0-1."""

    __slots__ = ("resources", "validate_only")
    _FIELDS: ClassVar[FieldTable] = (
        ("resources", "resources", AlterConfigsResource),
        ("validate_only", "validateOnly", None),
    )
    SCHEMA_NAME: ClassVar[str] = "IncrementalAlterConfigsRequest"

    resources: list[AlterConfigsResource]
    validate_only: bool

    def __init__(
        self,
        *,
        resources: list[AlterConfigsResource] = UNSET,
        validate_only: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.resources = [] if resources is UNSET else resources
        self.validate_only = validate_only
        self.unknown_tagged_fields = unknown_tagged_fields


class AlterConfigsResourceResponse(Data):
    """An entry of IncrementalAlterConfigsResponse.Responses[]."""

    __slots__ = ("error_code", "error_message", "resource_name", "resource_type")
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("error_message", "errorMessage", None),
        ("resource_type", "resourceType", None),
        ("resource_name", "resourceName", None),
    )

    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str

    def __init__(
        self,
        *,
        error_code: int = 0,
        error_message: str | None = "",
        resource_type: int = 0,
        resource_name: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.unknown_tagged_fields = unknown_tagged_fields


class IncrementalAlterConfigsResponseData(Data):
    """IncrementalAlterConfigsResponse, versions 0-1."""

    __slots__ = ("responses", "throttle_time_ms")
    _FIELDS: ClassVar[FieldTable] = (
        ("throttle_time_ms", "throttleTimeMs", None),
        ("responses", "responses", AlterConfigsResourceResponse),
    )
    SCHEMA_NAME: ClassVar[str] = "IncrementalAlterConfigsResponse"

    throttle_time_ms: int
    responses: list[AlterConfigsResourceResponse]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        responses: list[AlterConfigsResourceResponse] = UNSET,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is UNSET else responses
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "DescribeConfigsRequest": DescribeConfigsRequestData,
    "DescribeConfigsResponse": DescribeConfigsResponseData,
    "IncrementalAlterConfigsRequest": IncrementalAlterConfigsRequestData,
    "IncrementalAlterConfigsResponse": IncrementalAlterConfigsResponseData,
}
"""Schema name -> class, for the 4 top-level classes."""
