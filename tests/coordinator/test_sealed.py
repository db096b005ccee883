"""Code outside groupctl/coordinator/ asks the Coordinator what it needs (its queries and commands) and
never reaches into its internals: the runtime, the replayed state, the timers, the log, the protocol halves.

The scan is an AST walk: an attribute read whose receiver is named `coordinator` or `coord` (`coordinator`,
`self.coord`, `broker.coordinator` ...) must not be one of the internals. Tests may look inside, through
`coordinator.runtime` (and the classic half, `coordinator.classic`, which the classic-group tests drive);
library code may not.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "groupctl"
COORDINATOR = PACKAGE / "coordinator"

#: What a coordinator holds inside: the runtime and the parts of it a handler reads, and the protocol halves.
INTERNALS = frozenset({
    "runtime", "state", "timers", "log", "ids", "records_written", "metadata_refresh",
    "classic", "consumer", "offsets", "migration", "_classic", "_consumer", "_offsets", "_migration", "_state",
})
#: Names a coordinator goes by in groupctl/.
RECEIVERS = frozenset({"coordinator", "coord"})


def _receiver_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def internal_reads(source: str) -> list[tuple[int, str]]:
    """(line, attribute) of every read of a coordinator's internals in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in INTERNALS and _receiver_name(node.value) in RECEIVERS:
            found.append((node.lineno, node.attr))
    return sorted(found)


def test_the_scan_finds_the_reads_it_forbids() -> None:
    source = (
        "deadline = self.coord.timers.next_deadline()\n"
        "consumer = broker.coordinator.state.consumer\n"
        "rt = coordinator.runtime\n"
        "groups = ctx.broker.coordinator._classic.groups\n"
        "fine = coordinator.next_timer_deadline(), self.coord.topics, state.consumer, other.timers\n"
    )
    assert internal_reads(source) == [(1, "timers"), (2, "state"), (3, "runtime"), (4, "_classic")]


def test_no_module_outside_the_coordinator_reads_its_internals() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(COORDINATOR):
            continue
        relative = path.relative_to(PACKAGE).as_posix()
        for line, attribute in internal_reads(path.read_text(encoding="utf-8")):
            offenders.append(f"groupctl/{relative}:{line}: .{attribute}")
    assert offenders == [], "ask the Coordinator instead of reading its internals:\n" + "\n".join(offenders)

