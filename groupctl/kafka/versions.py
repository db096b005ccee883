"""A broker's ApiVersions answer and the choice of version per request: the highest both speak."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from groupctl.kafka.errors import UnsupportedApi
from groupctl.protocol.data.api_versions import ApiVersionsResponseData


@dataclass(frozen=True)
class ApiVersionTable:
    """API key -> (min, max) version as one broker advertised them."""

    ranges: Mapping[int, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def from_response(cls, body: ApiVersionsResponseData) -> ApiVersionTable:
        return cls({k.api_key: (k.min_version, k.max_version) for k in body.api_keys})

    def supports(self, api_key: int) -> bool:
        return api_key in self.ranges

    def max_version(self, api_key: int) -> int | None:
        found = self.ranges.get(api_key)
        return None if found is None else found[1]

    def version_for(self, api_key: int, ours: range | Iterable[int], where: str = "the broker") -> int:
        """The highest version in `ours` that the broker also speaks, else `UnsupportedApi` naming `where`."""
        ours = ours if isinstance(ours, range) else range(min(ours), max(ours) + 1)
        found = self.ranges.get(api_key)
        if found is not None:
            low, high = found
            best = min(high, ours.stop - 1)
            if best >= max(low, ours.start):
                return best
        raise UnsupportedApi(api_key, found, ours, where)
