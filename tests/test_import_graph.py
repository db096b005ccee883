"""groupctl's modules import one another without going round in circles.

A circle between modules is held together by imports placed inside functions ("imported here:
... reads this module's state"), and each such import hides which module sits on which floor. The
byte readers sit below the replay, the wire client and the views (`groupctl.protocol.member_bytes`),
and the JSON-file helpers below the local backend and its settings (`groupctl.json_files`), so those
modules must be in no circle at all, counting every import they make, even one inside a function or
only for type checking. The whole package must have no circle at module level, where
a circle decides what an import finds half-initialised, except the CLI's command registration.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "groupctl"

#: Modules that were held in circles by imports inside functions (issue 28): none of them may reach itself
#: through imports. The views, replay and the wire client over the member-bytes readers; the local backend
#: and its settings over the JSON-file helpers.
FLOORS = ("groupctl.describe", "groupctl.log.replay", "groupctl.kafka.groups", "groupctl.protocol.member_bytes",
          "groupctl.backends.local", "groupctl.backends.local_settings", "groupctl.json_files")

#: `group` imports `group_delete` at its end so that it registers `group delete` on `group`'s Typer app,
#: which `group_delete` imports: the one module-level circle the package keeps on purpose.
REGISTRATION = frozenset({"groupctl.cli.group", "groupctl.cli.group_delete"})


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its `__init__`)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(
    body: Iterable[ast.stmt], *, type_only: bool, everywhere: bool
) -> Iterable[ast.Import | ast.ImportFrom]:
    """The import statements run when the module is imported (inside `if` and `try` too); with
    `type_only` those under `if TYPE_CHECKING:` as well; with `everywhere` also those in functions."""
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            yield stmt
        elif isinstance(stmt, ast.If):
            if type_only or not _is_type_checking(stmt.test):
                yield from _statements(stmt.body, type_only=type_only, everywhere=everywhere)
            yield from _statements(stmt.orelse, type_only=type_only, everywhere=everywhere)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                yield from _statements(block, type_only=type_only, everywhere=everywhere)
        elif everywhere:
            yield from (node for node in ast.walk(stmt) if isinstance(node, ast.Import | ast.ImportFrom))


def _ancestors(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def import_graph(modules: dict[str, Path], *, type_only: bool, everywhere: bool = False) -> dict[str, set[str]]:
    """Which of the package's modules each module imports.

    `from a.b import c` imports the module `a.b.c` when there is one, else `a.b`; importing a module
    also runs the `__init__` of each package above it, except the importer's own (already running).
    """
    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for stmt in _statements(ast.parse(path.read_text()).body, type_only=type_only, everywhere=everywhere):
            if isinstance(stmt, ast.Import):
                targets.update(known(alias.name) for alias in stmt.names)
                continue
            base = stmt.module or ""
            if stmt.level:
                up = package.split(".")[: len(package.split(".")) - (stmt.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets.update(known(f"{base}.{alias.name}") for alias in stmt.names)
        edges = {t for t in targets if t is not None}
        edges |= {a for t in edges for a in _ancestors(t)} - _ancestors(name)
        graph[name] = edges - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_the_graph_sees_a_circle_through_a_type_only_or_function_import(tmp_path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from pkg.sub.low import x\n")
    (package / "sub" / "low.py").write_text("def f():\n    from pkg import top\n")
    (package / "top.py").write_text(
        "from typing import TYPE_CHECKING\nfrom . import leaf\nif TYPE_CHECKING:\n    from pkg.sub import low\n")
    (package / "leaf.py").write_text(
        "try:\n    from .sub import low\nexcept ImportError:\n    pass\nif TYPE_CHECKING:\n    from pkg.top import T\n")
    modules = module_files(package)
    assert circles(import_graph(modules, type_only=False)) == []
    assert circles(import_graph(modules, type_only=True)) == [frozenset({"pkg.top", "pkg.leaf"})]
    assert circles(import_graph(modules, type_only=False, everywhere=True)) == [
        frozenset({"pkg.top", "pkg.leaf", "pkg.sub", "pkg.sub.low"})]
    graph = import_graph(modules, type_only=True, everywhere=True)
    assert graph["pkg.top"] == {"pkg.leaf", "pkg.sub", "pkg.sub.low"}  # the package above `low` runs too
    assert graph["pkg.sub.low"] == {"pkg.top"}  # its own package is already running


def test_the_split_floors_are_in_no_circle_counting_every_import() -> None:
    modules = module_files()
    assert set(FLOORS) <= set(modules)
    graph = import_graph(modules, type_only=True, everywhere=True)
    caught = {m: sorted(c) for c in circles(graph) for m in FLOORS if m in c}
    assert caught == {}


def test_the_package_has_no_module_level_circle_but_the_cli_registration() -> None:
    found = circles(import_graph(module_files(), type_only=False))
    assert [sorted(c) for c in found if c != REGISTRATION] == []
