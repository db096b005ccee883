"""The api_versions API messages, as classes: generated from `groupctl.protocol.messages.api_versions`.

Do not edit: `python -m groupctl.protocol.datagen` writes this file.
"""

from __future__ import annotations

from typing import ClassVar

from groupctl.protocol.data.base import UNSET, Data, FieldTable, TaggedFields


class ApiVersionsRequestData(Data):
    """ApiVersionsRequest, versions 0-4."""

    __slots__ = ("client_software_name", "client_software_version")
    _FIELDS: ClassVar[FieldTable] = (
        ("client_software_name", "clientSoftwareName", None),
        ("client_software_version", "clientSoftwareVersion", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ApiVersionsRequest"

    client_software_name: str
    client_software_version: str

    def __init__(
        self,
        *,
        client_software_name: str = "",
        client_software_version: str = "",
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.client_software_name = client_software_name
        self.client_software_version = client_software_version
        self.unknown_tagged_fields = unknown_tagged_fields


class ApiVersion(Data):
    """An entry of ApiVersionsResponse.ApiKeys[]."""

    __slots__ = ("api_key", "max_version", "min_version")
    _FIELDS: ClassVar[FieldTable] = (
        ("api_key", "apiKey", None),
        ("min_version", "minVersion", None),
        ("max_version", "maxVersion", None),
    )

    api_key: int
    min_version: int
    max_version: int

    def __init__(
        self,
        *,
        api_key: int = 0,
        min_version: int = 0,
        max_version: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.api_key = api_key
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = unknown_tagged_fields


class SupportedFeatureKey(Data):
    """An entry of ApiVersionsResponse.SupportedFeatures[]."""

    __slots__ = ("max_version", "min_version", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("min_version", "minVersion", None),
        ("max_version", "maxVersion", None),
    )

    name: str
    min_version: int
    max_version: int

    def __init__(
        self,
        *,
        name: str = "",
        min_version: int = 0,
        max_version: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = unknown_tagged_fields


class FinalizedFeatureKey(Data):
    """An entry of ApiVersionsResponse.FinalizedFeatures[]."""

    __slots__ = ("max_version_level", "min_version_level", "name")
    _FIELDS: ClassVar[FieldTable] = (
        ("name", "name", None),
        ("max_version_level", "maxVersionLevel", None),
        ("min_version_level", "minVersionLevel", None),
    )

    name: str
    max_version_level: int
    min_version_level: int

    def __init__(
        self,
        *,
        name: str = "",
        max_version_level: int = 0,
        min_version_level: int = 0,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.name = name
        self.max_version_level = max_version_level
        self.min_version_level = min_version_level
        self.unknown_tagged_fields = unknown_tagged_fields


class ApiVersionsResponseData(Data):
    """ApiVersionsResponse, versions 0-4."""

    __slots__ = (
        "api_keys",
        "error_code",
        "finalized_features",
        "finalized_features_epoch",
        "supported_features",
        "throttle_time_ms",
        "zk_migration_ready",
    )
    _FIELDS: ClassVar[FieldTable] = (
        ("error_code", "errorCode", None),
        ("api_keys", "apiKeys", ApiVersion),
        ("throttle_time_ms", "throttleTimeMs", None),
        ("supported_features", "supportedFeatures", SupportedFeatureKey),
        ("finalized_features_epoch", "finalizedFeaturesEpoch", None),
        ("finalized_features", "finalizedFeatures", FinalizedFeatureKey),
        ("zk_migration_ready", "zkMigrationReady", None),
    )
    SCHEMA_NAME: ClassVar[str] = "ApiVersionsResponse"

    error_code: int
    api_keys: list[ApiVersion]
    throttle_time_ms: int
    supported_features: list[SupportedFeatureKey]
    finalized_features_epoch: int
    finalized_features: list[FinalizedFeatureKey]
    zk_migration_ready: bool

    def __init__(
        self,
        *,
        error_code: int = 0,
        api_keys: list[ApiVersion] = UNSET,
        throttle_time_ms: int = 0,
        supported_features: list[SupportedFeatureKey] = UNSET,
        finalized_features_epoch: int = -1,
        finalized_features: list[FinalizedFeatureKey] = UNSET,
        zk_migration_ready: bool = False,
        unknown_tagged_fields: TaggedFields = None,
    ) -> None:
        self.error_code = error_code
        self.api_keys = [] if api_keys is UNSET else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is UNSET else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is UNSET else finalized_features
        self.zk_migration_ready = zk_migration_ready
        self.unknown_tagged_fields = unknown_tagged_fields


CLASSES: dict[str, type[Data]] = {
    "ApiVersionsRequest": ApiVersionsRequestData,
    "ApiVersionsResponse": ApiVersionsResponseData,
}
"""Schema name -> class, for the 2 top-level classes."""
