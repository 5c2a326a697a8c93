"""The layers hold (issue 28; docs/architecture.md is the map): the import-linter contracts in pyproject.toml pass and
bite, they name every module that serves a URL, each import they let through is written in docs/architecture.md, and
no import cycle joins two domain packages beyond the documented ones. Imports are read from the code by grimp,
function-level ones included."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from collections import defaultdict, deque
from pathlib import Path

import grimp
import pytest
from flask import Flask

from app.config import PROJECT_ROOT

PYPROJECT = PROJECT_ROOT / "pyproject.toml"
ARCHITECTURE = PROJECT_ROOT / "docs" / "architecture.md"
# What `make lint` runs, started from the project's interpreter so the venv's import-linter is the one used.
LINT_IMPORTS = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
ALL_OF_APP = "app.**"
WHERE_LISTED = "ALLOWED_CYCLE_EDGES (tests/core/test_architecture.py) and docs/architecture.md's Cycles still allowed"
PackageImports = dict[tuple[str, str], list[tuple[str, str]]]

# Dependencies between domain packages that still close an import cycle, each the one against the layer order, with
# the issue item that removes it (docs/architecture.md, "Cycles still allowed", says the same). When the imports
# behind one are gone, this test fails until its line goes here and there.
ALLOWED_CYCLE_EDGES: dict[tuple[str, str], str] = {}
# extensions.py is core's wiring (the objects built from core's classes), one layer with core in the contracts.
PACKAGE_OF = {"app.extensions": "app.core"}


def _contracts() -> dict[str, dict]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def _expand(graph: grimp.ImportGraph, expressions: list[str]) -> set[str]:
    """The modules a list of import-linter module expressions names."""
    modules: set[str] = set()
    for expression in expressions:
        modules |= graph.find_matching_modules(expression) if "*" in expression else {expression}
    return modules


def _split(import_expression: str) -> tuple[str, str]:
    importer, imported = (part.strip() for part in import_expression.split("->"))
    return importer, imported


def _route_lines(contracts: dict[str, dict]) -> list[str]:
    """The layers contract's lines that lift route modules above every layer (`<route module> -> app.**`)."""
    return [line for line in contracts["layers"]["ignore_imports"] if _split(line)[1] == ALL_OF_APP]


def _section(heading: str) -> str:
    """The text of docs/architecture.md under a `## ` heading, up to the next one."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\n(?P<body>.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"docs/architecture.md has no section '## {heading}'"
    return match.group("body")


def _documented_imports(heading: str) -> set[str]:
    """Every `importer -> imported` written in backticks at the start of a list item of a section."""
    return {
        f"{importer} -> {imported}"
        for importer, imported in re.findall(r"^- `([\w.*]+) -> ([\w.*]+)`", _section(heading), re.MULTILINE)
    }


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("app", cache_dir=None)


def _lint_imports(directory: Path) -> subprocess.CompletedProcess:
    """lint-imports on the code and pyproject.toml in directory."""
    return subprocess.run(  # noqa: S603 - our own interpreter and arguments
        [*LINT_IMPORTS, "--no-cache", "--no-logo"], cwd=directory, capture_output=True, text=True, check=False
    )


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(PROJECT_ROOT)
    assert result.returncode == 0, f"lint-imports (pyproject.toml's contracts) fails:\n{result.stdout}{result.stderr}"


def test_an_upward_import_breaks_the_contracts(tmp_path: Path) -> None:
    """The same contracts on a copy of the code where core reaches up: catalog, a route module, the entry points."""
    shutil.copytree(PROJECT_ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("static", "__pycache__"))
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")
    with (tmp_path / "app" / "core" / "errors.py").open("a", encoding="utf-8") as module:
        module.write(
            "\n\ndef _upward():\n"
            "    import worker\n"
            "    from app import create_app, launcher\n"
            "    from app.catalog import api, models\n\n"
            "    return worker, create_app, launcher, api, models\n"
        )

    result = _lint_imports(tmp_path)

    assert result.returncode == 1, result.stdout + result.stderr
    for broken in (
        "app.core is not allowed to import app.catalog",
        "- app.core.errors -> app.catalog.models",
        "Illegal imports of protected package app.catalog.api",
        "Illegal imports of protected package app:",
        "Illegal imports of protected package app.launcher:",
        "app is not allowed to import worker",
    ):
        assert broken in result.stdout, f"{broken!r} not in:\n{result.stdout}"


def test_the_contracts_name_every_route_module(app: Flask, graph: grimp.ImportGraph) -> None:
    """A module serving a URL is a route module: protected as a leaf and lifted above the layers; no other module is."""
    serving = {
        module
        for rule in app.url_map.iter_rules()
        if (module := app.view_functions[rule.endpoint].__module__).startswith("app.")
    }
    contracts = _contracts()
    protected = _expand(graph, contracts["route-modules"]["protected_modules"])
    lifted = _expand(graph, [_split(line)[0] for line in _route_lines(contracts)])

    assert sorted(serving - protected) == [], "serve URLs but are missing from route-modules' protected_modules"
    assert sorted(protected - serving) == [], "in route-modules' protected_modules but serve no URL"
    assert sorted(serving - lifted) == [], "serve URLs but have no `<module> -> app.**` line in the layers contract"
    assert sorted(lifted - serving) == [], "lifted above the layers (`-> app.**`) but serve no URL"


def test_every_departure_is_written_in_architecture_md() -> None:
    contracts = _contracts()
    route_lines = set(_route_lines(contracts))
    ignored = {line for contract in contracts.values() for line in contract.get("ignore_imports", [])} - route_lines
    documented = _documented_imports("Departures")

    assert sorted(ignored - documented) == [], "ignore_imports lines with no line in architecture.md's Departures"
    assert sorted(documented - ignored) == [], "Departures in architecture.md that no contract ignores any more"


def _package(module: str) -> str:
    """The domain package a module belongs to: `app` itself (the app factory) or a child of it."""
    package = ".".join(module.split(".")[:2])
    return PACKAGE_OF.get(package, package)


def route_modules(graph: grimp.ImportGraph) -> set[str]:
    return _expand(graph, _contracts()["route-modules"]["protected_modules"])


def _package_imports(graph: grimp.ImportGraph, leaves: set[str]) -> PackageImports:
    """(importer package, imported package) -> the module imports behind it. Imports by leaves (modules nothing in
    the domains imports: the route modules) are left out, since no cycle of imports can pass through them."""
    edges = defaultdict(list)
    for importer in graph.modules - leaves:
        for imported in graph.find_modules_directly_imported_by(importer):
            if _package(importer) != _package(imported):
                edges[(_package(importer), _package(imported))].append((importer, imported))
    return edges


def _shortest_path(edges: set[tuple[str, str]], start: str, goal: str) -> list[str] | None:
    """The shortest package path of one step or more from start to goal (breadth first), or None."""
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        package = queue.popleft()
        for importer, imported in sorted(edges):
            if importer != package or imported in previous:
                continue
            previous[imported] = package
            if imported == goal:
                path = [goal]
                while len(path) == 1 or path[-1] != start:
                    path.append(previous[path[-1]])
                return path[::-1]
            queue.append(imported)
    return None


def _describe_cycle(graph: grimp.ImportGraph, edges: PackageImports, cycle: list[str]) -> str:
    lines = [" -> ".join(cycle)]
    for importer_package, imported_package in zip(cycle, cycle[1:], strict=False):
        for importer, imported in sorted(edges[(importer_package, imported_package)])[:3]:
            numbers = sorted(d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported))
            lines.append(f"    {importer} imports {imported} (l.{', '.join(map(str, numbers))})")
    return "\n".join(lines)


def _rings(edges: set[tuple[str, str]]) -> list[tuple[list[str], set[str]]]:
    """Each group of packages that reach one another (a ring), with one of its shortest cycles."""
    packages = sorted({package for edge in edges for package in edge})
    reached = {start: {end for end in packages if _shortest_path(edges, start, end)} for start in packages}
    rings, placed = [], set()
    for package in packages:
        cycle = _shortest_path(edges, package, package)
        if package in placed or not cycle:
            continue
        ring = {other for other in reached[package] if package in reached[other]}
        placed |= ring
        rings.append((cycle, ring))
    return rings


def cycle_problems(
    graph: grimp.ImportGraph, allowed: dict[tuple[str, str], str], leaves: set[str] = frozenset()
) -> list[str]:
    """What is wrong with the cycles between domain packages: a new one, or an allowed edge gone or closing none."""
    edges = _package_imports(graph, leaves)
    problems = []
    for importer, imported in sorted(allowed):
        if (importer, imported) not in edges:
            problems.append(f"{importer} -> {imported} is listed but no longer imported: delete it from {WHERE_LISTED}")
        elif _shortest_path(set(edges), imported, importer) is None:
            problems.append(
                f"{importer} -> {imported} is listed but closes no cycle any more: delete it from {WHERE_LISTED}"
            )
    remaining = set(edges) - set(allowed)
    for cycle, ring in _rings(remaining):
        others = f" (the ring also holds {', '.join(sorted(ring - set(cycle)))})" if ring - set(cycle) else ""
        problems.append(f"new import cycle{others}: " + _describe_cycle(graph, edges, cycle))
    return problems


def test_no_import_cycle_between_domain_packages(graph: grimp.ImportGraph) -> None:
    problems = cycle_problems(graph, ALLOWED_CYCLE_EDGES, route_modules(graph))
    assert not problems, "\n".join(problems)


def test_the_allowed_cycles_are_written_in_architecture_md() -> None:
    allowed = {f"{importer} -> {imported}" for importer, imported in ALLOWED_CYCLE_EDGES}
    assert _documented_imports("Cycles still allowed") == allowed


def _graph(*imports: str) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for number, expression in enumerate(imports, start=1):
        importer, imported = _split(expression)
        graph.add_import(importer=importer, imported=imported, line_number=number, line_contents=expression)
    return graph


def test_the_cycle_check_finds_a_new_cycle_and_holds_the_allowed_list_true() -> None:
    base = ("app.catalog.store -> app.vehicles.models", "app.vehicles.decode -> app.catalog.backfill")
    allowed = {("app.vehicles", "app.catalog"): "the reason"}

    assert cycle_problems(_graph(*base), allowed) == []
    # A new cycle through a third package, described by the imports behind each step.
    both_ways = ("app.billing.x -> app.catalog.y", "app.catalog.z -> app.billing.w")
    assert cycle_problems(_graph(*base, *both_ways), allowed) == [
        "new import cycle: app.billing -> app.catalog -> app.billing\n"
        "    app.billing.x imports app.catalog.y (l.3)\n"
        "    app.catalog.z imports app.billing.w (l.4)"
    ]
    # The allowed edge's imports are gone; then the way back is gone though the edge stays.
    assert cycle_problems(_graph(base[0]), allowed) == [
        f"app.vehicles -> app.catalog is listed but no longer imported: delete it from {WHERE_LISTED}"
    ]
    assert cycle_problems(_graph(base[1]), allowed) == [
        f"app.vehicles -> app.catalog is listed but closes no cycle any more: delete it from {WHERE_LISTED}"
    ]


def test_the_cycle_check_leaves_out_route_modules_and_reads_extensions_as_core() -> None:
    """A route module importing a package that imports the route module's own package closes no cycle of imports;
    a service doing the same does, and so does core through extensions.py."""
    back = ("app.auth.services -> app.accounts.models",)
    routes = ("app.accounts.views -> app.auth.services",)
    assert cycle_problems(_graph(*back, *routes), {}, leaves={"app.accounts.views"}) == []
    assert cycle_problems(_graph(*back, *routes), {}) == [
        "new import cycle: app.accounts -> app.auth -> app.accounts\n"
        "    app.accounts.views imports app.auth.services (l.2)\n"
        "    app.auth.services imports app.accounts.models (l.1)"
    ]
    wiring = ("app.extensions -> app.core.db", "app.core.tasks -> app.extensions", "app.core.db -> app.storage.s3")
    assert cycle_problems(_graph(*wiring, "app.storage.s3 -> app.extensions"), {}) == [
        "new import cycle: app.core -> app.storage -> app.core\n"
        "    app.core.db imports app.storage.s3 (l.3)\n"
        "    app.storage.s3 imports app.extensions (l.4)"
    ]
