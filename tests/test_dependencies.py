"""Every third-party module groupctl imports is one its package metadata requires.

An undeclared import works wherever the machine happens to have the module and breaks a fresh
virtual environment, a pipx install or a wheel (typer 0.29 stopped installing click, which
groupctl imported without declaring it). So: each import in `groupctl/` is traced to the
distribution that provides it, and that distribution must be a requirement of groupctl. A
requirement that applies only with an extra (`groupctl[spark]`) or only on some platforms (uvloop)
may be imported only where its absence is handled: inside a function, or under
`try: ... except ImportError`.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "groupctl"
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def normalized(name: str) -> str:
    """A distribution name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Requirement:
    """One line of groupctl's Requires-Dist: which distribution, under which extra, and whether always."""

    name: str
    extra: str | None
    conditional: bool  # an environment marker other than the extra (platform, implementation)


def requirements(dist: str = "groupctl") -> list[Requirement]:
    """groupctl's requirements as its installed metadata gives them, `groupctl[x]` in an extra expanded."""
    found: list[tuple[Requirement, list[str]]] = []
    for line in metadata.requires(dist) or []:
        spec, _, marker = line.partition(";")
        match = _NAME.match(spec)
        assert match is not None, line
        wanted = re.search(r"\[([^\]]*)\]", spec)
        extra = _EXTRA.search(marker)
        rest = _EXTRA.sub("", marker).strip(" ()andor")
        req = Requirement(normalized(match.group(1)), extra.group(1) if extra else None, bool(rest))
        found.append((req, [e.strip() for e in wanted.group(1).split(",")] if wanted else []))
    expanded: list[Requirement] = []
    for req, extras in found:
        if req.name != normalized(dist):
            expanded.append(req)
            continue
        for extra in extras:
            expanded += [Requirement(r.name, req.extra, r.conditional) for r, _ in found if r.extra == extra]
    return expanded


@dataclass(frozen=True)
class Import:
    """A top-level module name imported somewhere in groupctl/, and whether its absence is handled there."""

    module: str
    where: str
    guarded: bool


class _Imports(ast.NodeVisitor):
    def __init__(self, where: str) -> None:
        self.where = where
        self.depth = 0  # functions entered
        self.handlers = 0  # try blocks entered whose handlers catch ImportError
        self.found: list[Import] = []

    def _add(self, module: str, line: int) -> None:
        self.found.append(Import(module.split(".")[0], f"{self.where}:{line}", self.depth > 0 or self.handlers > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self._add(node.module, node.lineno)

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Try(self, node: ast.Try) -> None:
        catches = any(_catches_import_error(h.type) for h in node.handlers)
        self.handlers += catches
        for stmt in node.body:
            self.visit(stmt)
        self.handlers -= catches
        for stmt in [*node.handlers, *node.orelse, *node.finalbody]:
            self.visit(stmt)


def _catches_import_error(kind: ast.expr | None) -> bool:
    if kind is None:
        return True
    names = [e.id for e in (kind.elts if isinstance(kind, ast.Tuple) else [kind]) if isinstance(e, ast.Name)]
    return bool({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"} & set(names))


def imports(root: Path = PACKAGE) -> list[Import]:
    """Every absolute import in the package's sources, stdlib and groupctl itself left out."""
    found: list[Import] = []
    for path in sorted(root.rglob("*.py")):
        visitor = _Imports(str(path.relative_to(root.parent)))
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        found += visitor.found
    own = {"groupctl", "__future__"}
    return [i for i in found if i.module not in sys.stdlib_module_names and i.module not in own]


def undeclared(found: list[Import], required: list[Requirement], providers: dict[str, list[str]]) -> list[str]:
    """What is wrong with `found`: an import no requirement provides, or one needing a guard it lacks."""
    by_name: dict[str, list[Requirement]] = {}
    for req in required:
        by_name.setdefault(req.name, []).append(req)
    problems = []
    for imp in found:
        dists = [normalized(d) for d in providers.get(imp.module, [])]
        reqs = [r for d in dists for r in by_name.get(d, [])]
        if not reqs:
            who = f"distribution {', '.join(dists)}" if dists else "no installed distribution"
            problems.append(f"{imp.where}: imports {imp.module!r} ({who}), which groupctl does not require")
        elif not imp.guarded and not any(r.extra is None and not r.conditional for r in reqs):
            why = ", ".join(f"extra {r.extra!r}" if r.extra else "a platform marker" for r in reqs)
            problems.append(f"{imp.where}: imports {imp.module!r} at module level, but it is required only with "
                            f"{why}: import it where it is used, or under try/except ImportError")
    return problems


def test_every_import_of_groupctl_is_a_declared_requirement() -> None:
    try:
        required = requirements()
    except metadata.PackageNotFoundError:
        pytest.fail("groupctl is not installed: pip install -e '.[dev]' (its metadata is what is checked)")
    assert imports(), "no imports found: the scan is broken"
    assert undeclared(imports(), required, metadata.packages_distributions()) == []


def test_the_check_catches_an_undeclared_import_and_an_unguarded_extra(tmp_path: Path) -> None:
    package = tmp_path / "groupctl"
    package.mkdir()
    (package / "a.py").write_text("import click\nimport typer\n")
    (package / "b.py").write_text("import pyspark\n\ndef run():\n    import pyarrow\n")
    (package / "c.py").write_text("try:\n    import uvloop\nexcept ImportError:\n    uvloop = None\n")
    required = [Requirement("typer", None, False), Requirement("pyspark", "spark", False),
                Requirement("pyarrow", "spark", False), Requirement("uvloop", None, True)]
    providers = {"click": ["click"], "typer": ["typer"], "pyspark": ["pyspark"], "pyarrow": ["pyarrow"],
                 "uvloop": ["uvloop"]}
    problems = undeclared(imports(package), required, providers)
    assert problems == [
        "groupctl/a.py:1: imports 'click' (distribution click), which groupctl does not require",
        "groupctl/b.py:1: imports 'pyspark' at module level, but it is required only with extra 'spark': "
        "import it where it is used, or under try/except ImportError",
    ]


def test_requirements_read_the_metadata_with_extras_expanded() -> None:
    required = requirements()
    names = {(r.name, r.extra) for r in required}
    assert ("typer", None) in names and ("pyspark", "spark") in names
    assert ("pyspark", "dev") in names, "groupctl[spark] inside the dev extra is expanded"
    assert next(r for r in required if r.name == "uvloop").conditional


def _release(version: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in re.findall(r"\d+", version))
    return parts + (0,) * (4 - len(parts))


def test_the_minimum_constraints_are_the_stated_lower_bounds() -> None:
    """constraints-minimum.txt (what .ci/run tests the lower bounds with) pins each `>=` bound exactly."""
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    bounds: dict[str, str] = {}
    for line in lines:
        spec = line.partition(";")[0]
        name = normalized(_NAME.match(spec).group(1))  # type: ignore[union-attr]  # every line names one
        low = re.search(r">=\s*([0-9][^,\s]*)", spec)
        if name not in ("groupctl", "ruff") and low:
            bounds[name] = low.group(1)
    pinned = {}
    for line in (PACKAGE.parent / "constraints-minimum.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pinned[normalized(name)] = version.strip()
    assert sorted(pinned) == sorted(bounds)
    assert {n: _release(v) for n, v in pinned.items()} == {n: _release(v) for n, v in bounds.items()}
