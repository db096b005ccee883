"""Which files a Spark audit reads, in `dump audit`'s order, and how they are split into tasks.

A unit is a run of consecutive input files from one directory: one `__consumer_offsets`
partition, whose records one task reads in order. Units in input order, each audited alone and
merged, give `dump audit`'s report when no two units share a group or a producer id (what a real
cluster guarantees: a group lives in one partition); `independent_runs` finds the units that do
share one, so they can be audited together instead.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from groupctl.errors import UsageError

_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_PARTITION = re.compile(r"^(.*)-(\d+)$")
_SEGMENT = re.compile(r"^(\d+)\.log$")


@dataclass(frozen=True)
class InputFile:
    """One file to read: a local path named as `dump audit` names it, or a Hadoop URI."""

    path: str
    size: int
    local: bool


@dataclass
class Unit:
    """Consecutive input files of one directory, read in order by one task."""

    index: int
    directory: str
    files: list[InputFile] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)


def is_uri(path: str) -> bool:
    """`hdfs://...`, `s3a://...`, `file:///...`: read through Spark; anything else is a local path."""
    return bool(_URI.match(path))


def partition_of(path: str) -> int | None:
    """The partition number in a file's directory name (`__consumer_offsets-7/...` -> 7), else None."""
    parent = path.rstrip("/").rsplit("/", 2)
    m = _PARTITION.match(parent[-2]) if len(parent) >= 2 else None
    return int(m.group(2)) if m else None


def _directory(path: str, local: bool) -> str:
    return str(Path(path).parent) if local else path.rsplit("/", 1)[0]


def local_files(path: str) -> list[InputFile]:
    """What `dump audit` reads for a local PATH, in its order (UsageError when there is nothing)."""
    from groupctl.log.decode import expand_path

    return [InputFile(str(f), f.stat().st_size, True) for f in expand_path(Path(path))]


def _partition_key(name: str) -> tuple[str, int, str]:
    m = _PARTITION.match(name)
    return (m.group(1), int(m.group(2)), name) if m else (name, -1, name)


def hadoop_fs(spark: Any, uri: str, what: str) -> Any:
    """The Hadoop FileSystem of `uri`; a usage error naming `what` (PATH, --out) when Spark has none for it."""
    from py4j.protocol import Py4JJavaError

    sc = spark.sparkContext
    try:
        return sc._jvm.org.apache.hadoop.fs.Path(uri).getFileSystem(sc._jsc.hadoopConfiguration())
    except Py4JJavaError as exc:
        scheme = uri.split(":", 1)[0]
        kind = exc.java_exception.getClass().getSimpleName()
        if kind == "UnsupportedFileSystemException":
            raise UsageError(f"{what} '{uri}': Spark has no file system for '{scheme}:' URIs; use a local path, "
                             "file://, hdfs://, or a scheme whose Hadoop connector is on Spark's classpath") from None
        if kind == "RuntimeException" and "ClassNotFoundException" in str(exc):
            raise UsageError(f"{what} '{uri}': the Hadoop connector for '{scheme}:' URIs is not on Spark's "
                             "classpath; add it (--conf spark.jars.packages=...) or use another URI") from None
        raise


def hadoop_files(spark: Any, uri: str) -> list[InputFile]:
    """What a URI (globs allowed) stands for, listed with Spark's Hadoop file systems, in `segment_files` order:
    a file is itself, a partition directory its segments by base offset, any other directory the
    segments of each partition directory in it (topic, then partition number)."""
    hadoop_path = spark.sparkContext._jvm.org.apache.hadoop.fs.Path
    fs = hadoop_fs(spark, uri, "PATH")

    def segments(directory: Any) -> list[InputFile]:
        found = [(int(m.group(1)), s) for s in fs.listStatus(directory)
                 if s.isFile() and (m := _SEGMENT.match(s.getPath().getName()))]
        return [InputFile(s.getPath().toString(), s.getLen(), False) for _, s in sorted(found, key=lambda x: x[0])]

    matches = fs.globStatus(hadoop_path(uri)) or []
    files: list[InputFile] = []
    for status in sorted(matches, key=lambda s: _partition_key(s.getPath().getName())):
        if status.isFile():
            files.append(InputFile(status.getPath().toString(), status.getLen(), False))
            continue
        own = segments(status.getPath())
        if own:
            files += own
            continue
        subdirs = [s for s in fs.listStatus(status.getPath())
                   if s.isDirectory() and not s.getPath().getName().endswith(("-delete", "-future"))]
        for sub in sorted(subdirs, key=lambda s: _partition_key(s.getPath().getName())):
            files += segments(sub.getPath())
    if not files:
        raise UsageError(f"'{uri}' holds no .log segment files (nor partition directories with them)")
    return files


def plan_units(files: Iterable[InputFile]) -> list[Unit]:
    """Files in input order cut into units: a new unit wherever the directory changes."""
    units: list[Unit] = []
    for f in files:
        directory = _directory(f.path, f.local)
        if not units or units[-1].directory != directory:
            units.append(Unit(len(units), directory))
        units[-1].files.append(f)
    return units


def independent_runs(keys: Sequence[Iterable[Hashable]]) -> list[range]:
    """Consecutive units cut into runs no two of which share a key (a group or a producer id).

    `keys[i]` is what unit i saw. A run is a single unit when nothing it saw appears in another;
    otherwise it stretches over every unit between two that share something, so that auditing each
    run in one go and merging the runs in order is exact.
    """
    last: dict[Hashable, int] = {}
    for i, seen in enumerate(keys):
        for k in seen:
            last[k] = i
    runs: list[range] = []
    start, reach = 0, -1
    for i, seen in enumerate(keys):
        reach = max(reach, i)
        for k in seen:
            reach = max(reach, last[k])
        if reach == i:
            runs.append(range(start, i + 1))
            start = i + 1
    return runs
