"""Kafka's figures measured live on this kind of machine, for the benchmarks to compare with.

They live beside the repository, in `../shared/measured/kafka.json` (the README there says how each was
taken); `--measured FILE` points elsewhere. A figure comes with its provenance (Kafka version, date, machine,
load), so every comparison says it was recorded live, not measured in this run. A benchmark is not a test:
when the file or a figure is missing it says so and prints groupctl's own figures only.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = ROOT.parent / "shared" / "measured" / "kafka.json"
SHOWN_PATH = "../shared/measured/kafka.json"


@dataclass(frozen=True)
class Recorded:
    """kafka.json as loaded (`data`), or why it could not be (`problem`)."""

    path: Path
    data: Mapping[str, Any] | None
    problem: str | None = None

    def figure(self, *keys: str) -> float | None:
        """The number at `keys` (nested), or None when the file, the key or a number is not there."""
        node: Any = self.data
        for key in keys:
            if not isinstance(node, Mapping) or key not in node:
                return None
            node = node[key]
        if isinstance(node, bool) or not isinstance(node, int | float) or node <= 0:
            return None
        return float(node)

    def section(self, *keys: str) -> Mapping[str, Any]:
        """The mapping at `keys`, empty when absent."""
        node: Any = self.data
        for key in keys:
            if not isinstance(node, Mapping):
                return {}
            node = node.get(key)
        return node if isinstance(node, Mapping) else {}

    @property
    def kafka(self) -> str:
        """"Kafka 4.0.0", as the file names the version."""
        return f"Kafka {self._field('kafka_version')}"

    @property
    def provenance(self) -> str:
        """Where a recorded figure comes from, for its label."""
        return (f"recorded live {self._field('measured')}, {self._field('machine')}, "
                f"load average {self._field('load_average')}")

    def release(self) -> str | None:
        """The recorded Kafka's X.Y ("4.0" of "4.0.0"), for output that copies a release's tools."""
        parts = self._field("kafka_version").split(".")
        return ".".join(parts[:2]) if len(parts) >= 2 and all(p.isdigit() for p in parts[:2]) else None

    def missing(self, what: str) -> str:
        """The line printed instead of a comparison that has no recorded figure."""
        if self.data is None:
            return f"{what}: no recorded Kafka figure ({self.problem}); groupctl's figure only"
        return f"{what}: {self.path.name} has no recorded Kafka figure for this input; groupctl's figure only"

    def _field(self, key: str) -> str:
        value = self.data.get(key) if self.data is not None else None
        return str(value) if value is not None else "?"


def load(path: Path | None = None) -> Recorded:
    """kafka.json at `path` (default: ../shared/measured/kafka.json beside the repository)."""
    path = DEFAULT_PATH if path is None else path
    shown = SHOWN_PATH if path == DEFAULT_PATH else str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Recorded(path, None, f"{shown} not found; give --measured FILE")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Recorded(path, None, f"{shown} unreadable: {exc}")
    if not isinstance(data, Mapping):
        return Recorded(path, None, f"{shown} does not hold a JSON object")
    return Recorded(path, data)


def add_argument(parser: argparse.ArgumentParser) -> None:
    """`--measured FILE`, the same in every benchmark."""
    parser.add_argument("--measured", type=Path, default=None, metavar="FILE",
                        help=f"Kafka's live-measured figures (default: {SHOWN_PATH} beside the repository)")


def compare(peer: str, peer_value: float, ours: float, unit: str, *, digits: int = 3,
            higher_is_better: bool = False) -> str:
    """One comparison line: the peer's figure (labelled by the caller), groupctl's from this run, and
    groupctl/peer, with which way it goes in words (`higher_is_better` for rates, otherwise times)."""
    ratio = ours / peer_value
    better = ratio > 1 if higher_is_better else ratio < 1
    factor = ratio if ratio >= 1 else 1 / ratio
    words = "the same" if abs(ratio - 1) < 0.005 else f"groupctl {factor:.2f}x {'faster' if better else 'slower'}"
    return (f"{peer}: {peer_value:,.{digits}f} {unit}; groupctl (this run): {ours:,.{digits}f} {unit}; "
            f"ratio groupctl/Kafka {ratio:.2f}x ({words})")
