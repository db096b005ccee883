"""Version choice: the highest version both sides speak, or an error naming the API and the ranges."""

from __future__ import annotations

import pytest

from groupctl.kafka.errors import UnsupportedApi
from groupctl.kafka.versions import ApiVersionTable
from groupctl.protocol.data.api_versions import ApiVersion, ApiVersionsResponseData

TABLE = ApiVersionTable.from_response(ApiVersionsResponseData(api_keys=[
    ApiVersion(api_key=13, min_version=0, max_version=2), ApiVersion(api_key=16, min_version=0, max_version=5)]))


def test_highest_common_version() -> None:
    assert TABLE.version_for(16, range(0, 6)) == 5
    assert TABLE.version_for(16, range(0, 4)) == 3
    assert TABLE.version_for(13, range(0, 6)) == 2
    assert TABLE.version_for(16, [2, 3]) == 3
    assert TABLE.supports(13) and not TABLE.supports(69)
    assert TABLE.max_version(13) == 2 and TABLE.max_version(69) is None


def test_no_common_version() -> None:
    with pytest.raises(UnsupportedApi) as err:
        TABLE.version_for(13, range(3, 6), "127.0.0.1:9092 (node 1)")
    assert str(err.value) == "127.0.0.1:9092 (node 1) supports LeaveGroup (API 13) v0-2; groupctl speaks v3-5"
    assert err.value.broker_versions == (0, 2) and err.value.api_name == "LeaveGroup"


def test_missing_api() -> None:
    with pytest.raises(UnsupportedApi, match=r"^the broker has no ConsumerGroupDescribe \(API 69\)$") as err:
        TABLE.version_for(69, range(0, 2))
    assert err.value.broker_versions is None


def test_broker_newer_than_us_and_older_minimum() -> None:
    table = ApiVersionTable({10: (4, 9)})
    assert table.version_for(10, range(0, 7)) == 6
    with pytest.raises(UnsupportedApi):
        table.version_for(10, range(0, 4))
