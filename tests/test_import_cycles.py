"""No import circle in the domain, the engines or the web floor (issues 16, 24).

Every ``import`` in ``adjudicator/``, ``engines/`` and ``web/`` is read with :mod:`ast`, wherever it
stands (at the top, in a function, under ``TYPE_CHECKING``), and the graph of modules is
searched depth first. Importing ``a.b.c`` runs the ``__init__`` of ``a`` and ``a.b`` first,
so a module imports its target's packages too (but not its own: they are already running),
unless it names its own package itself (``from a.b import x`` in ``a.b.c``): that is an edge, and
with the ``__init__``'s own import of ``a.b.c`` (in a function or not) a circle (issue 38: the
circles ``web.checks`` <-> ``web.checks.views`` and ``web.broadcast`` <-> ``.boards`` <-> ``.views``
went that way, and this test missed them while it dropped such edges).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("adjudicator", "engines", "web")


def modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's ``__init__``)."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports_of(name: str, path: Path, is_package: bool, known: dict[str, tuple[Path, bool]]) -> set[str]:
    here = name.split(".") if is_package else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*here[: len(here) - node.level + 1], *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    targets.add(f"{base}.{alias.name}")
                elif base in known:
                    targets.add(base)
    explicit = set(targets)
    for target in list(targets):
        parts = target.split(".")
        targets.update(".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in known)
    own_packages = {".".join(name.split(".")[:i]) for i in range(1, len(name.split(".")))}
    return targets - (own_packages - explicit) - {name}  # an explicit import of its own package is an edge


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_the_domain_the_engines_and_the_web_floor_have_no_import_circle() -> None:
    known = modules()
    graph = {name: imports_of(name, path, is_package, known) for name, (path, is_package) in known.items()}
    assert "adjudicator.services" in graph["adjudicator.chess.assessment"]  # the walk sees imports at all
    assert "web.queue.claims" in graph["web.jobs"] and "web.events.access" in graph["web.auth.tokens"]  # and web/
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_a_package_init_importing_its_module_in_a_function_and_the_module_importing_the_package_is_a_circle(
        tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    init, views, other = tmp_path / "pkg" / "__init__.py", tmp_path / "pkg" / "views.py", tmp_path / "pkg" / "other.py"
    init.write_text("LIMIT = 1\n\ndef init_app():\n    from pkg.views import bp\n")
    views.write_text("from pkg import LIMIT\nfrom pkg.other import x\n")
    other.write_text("x = 1\n")
    known = {"pkg": (init, True), "pkg.views": (views, False), "pkg.other": (other, False)}
    graph = {name: imports_of(name, path, is_package, known) for name, (path, is_package) in known.items()}
    assert graph == {"pkg": {"pkg.views"}, "pkg.views": {"pkg", "pkg.other"}, "pkg.other": set()}
    assert find_cycle(graph) == ["pkg", "pkg.views", "pkg"]


def test_the_search_finds_a_circle_through_a_package_init() -> None:
    graph = {"a": {"a.b"}, "a.b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "a.b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
