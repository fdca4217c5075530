"""The floors of ``web/`` (web/README.md), read from the imports with :mod:`ast` (issue 38).

Every ``import`` counts wherever it stands: at the top, in a function, under ``TYPE_CHECKING``
(the edges come from :func:`tests.test_import_cycles.imports_of`). From the bottom up:

- the **tables** (``web/tables/``) import only the declarative base and each other;
- the **infrastructure** imports only the infrastructure and the tables: never an area;
- the **shared** drawing and services may use any area's services, never a page;
- an **area** holds its pages and its services; a page never imports another area's page;
- the **entrances** (the app factory, the command line) may import anything.

No module imports its own package's ``__init__`` (the two circles of issue 38 went through one), the
domain and the engines import nothing of ``web`` (``python -m adjudicator`` is the one door, in
``adjudicator/__main__.py``), and every import made inside a function is listed below with its reason.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from tests.test_import_cycles import ROOT, imports_of
from tests.test_import_cycles import modules as read_modules

modules = cache(read_modules)

TABLES = frozenset({"web.tables"})
INFRASTRUCTURE = frozenset({
    "web.audit", "web.claim_jobs", "web.config", "web.db", "web.errors", "web.failures", "web.htmx", "web.inputs",
    "web.jobs",
    "web.limits", "web.migrations", "web.qr", "web.queue", "web.schema", "web.runner", "web.security",
    "web.settings",
    "web.sides", "web.static_files", "web.timefmt",
})
SHARED = frozenset({"web.articles", "web.boards", "web.charts", "web.evidence", "web.outcomes", "web.players",
                    "web.submit"})
AREAS = frozenset({"web.admin", "web.api", "web.appeals", "web.auth", "web.broadcast", "web.checks", "web.claims",
                   "web.committee", "web.events", "web.history", "web.rulings", "web.watch"})
ENTRANCES = frozenset({"web", "web.app", "web.cli", "web.commands", "web.kinds"})
FLOORS = {"tables": TABLES, "infrastructure": INFRASTRUCTURE, "shared": SHARED, "area": AREAS,
          "entrance": ENTRANCES}

ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
"""Edges from the infrastructure to an area still standing (module, area), with the reason."""

FUNCTION_LEVEL = {
    ("web", "create_app", "web.app"):
        "importing any web module runs web/__init__: Flask and every area load only when an app is built",
    ("web.claims.entry", "service", "engines.chess.entry"): "the engines load on the move-entry board's first use",
    ("web.jobs", "services", "engines"): "a page that rules on nothing loads no engine",
    ("web.queue.worker", "services", "engines"): "a worker starts its engines on first use",
    ("web.watch.service", "mate_oracle", "engines.chess.unwinnable"):
        "optional: a build without the unwinnability analyser watches without it (ModuleNotFoundError)",
    ("web.db", "migrate", "alembic"): "only a migration needs Alembic",
    ("web.db", "migrate", "alembic.config"): "only a migration needs Alembic",
    ("web.db", "init_app", "flask"): "Flask only where an app is served, not on check-games' broker path (issue 40)",
    ("web.db", "get_session", "flask"): "as init_app",
    ("web.db", "sessions", "flask"): "as init_app",
    ("web.tables.users", "check_password", "werkzeug.security"):
        "Werkzeug (0.035 s) only where a password is checked or set: most tables name the users table",
    ("web.tables.users", "create_user", "werkzeug.security"): "as check_password",
    ("web.queue", "make_celery", "celery"): "optional: Celery only with a broker",
    ("web.queue.collection", "_forget", "redis"): "optional: only a Redis broker carries the signals",
    ("web.queue.recovery", "held_ids", "redis"): "optional: only a Redis broker carries the signals",
    ("web.queue.remote", "signal_done", "redis"): "optional: only a Redis broker carries the signals",
    ("web.queue.direct", "connect", "psycopg"): "only a PostgreSQL database needs its driver",
    ("web.queue.remote", "signals", "redis"): "optional: only a Redis broker carries the signals",
    ("web.queue.remote", "_push", "redis"): "optional: only a Redis broker is pushed to (without Celery)",
    ("web.queue.remote", "wait_done", "redis"): "optional: only a Redis broker carries the signals",
    ("web.rulings.sheet", "sheet_pdf", "weasyprint"): "WeasyPrint is heavy: loaded for the PDF only",
    ("web.commands.build_db", "_verify", "engines.checkers"): "NumPy and the compiled kernel, for this command only",
    ("web.commands.build_db", "_verify", "engines.checkers.verify"):
        "NumPy and the compiled kernel, for this command only",
    ("web.commands.build_db", "run", "engines.checkers.compiled"):
        "NumPy and the compiled kernel, for this command only",
    ("web.commands.build_db", "run", "engines.checkers.database"):
        "NumPy and the compiled kernel, for this command only",
    ("web.commands.check_games", "_run", "engines.collection"): "`adjudicator --help` loads every command's module",
    ("web.commands.check_games", "_stamp", "engines.collection"): "`adjudicator --help` loads every command's module",
    ("web.commands.check_games", "_run", "web.queue.collection"): "only with a broker",
    ("web.commands.check_games", "_broker", "web.queue"): "only with a broker",
    ("web.commands.check_games", "_broker", "web.config"): "only with a broker",
    ("web.commands.check_games", "_broker", "web.db"):
        "SQLAlchemy only for a database behind the migrations' head, or a URL the driver might read otherwise",
    ("web.commands.check_games", "_broker", "web.queue.remote"): "only with a broker",
    ("web.commands.check_games", "_broker", "web.queue.direct"): "only with a broker",
    ("web.commands.check_games", "_broker", "web.queue.rows"):
        "SQLAlchemy only for a database behind the migrations' head, or a URL the driver might read otherwise",
    ("web.commands.events", "run_add", "web.events.changes"):
        "the claim registry and the broadcast reader (0.9 s) for the commands that change an event, not `list`",
    ("web.commands.events", "run_set", "web.events.changes"): "as run_add",
    ("web.commands.events", "run_staff", "web.events.changes"): "as run_add",
    ("web.commands.events", "run_token", "web.events.changes"): "as run_add",
    ("web.commands.events", "run_revoke", "web.events.changes"): "as run_add",
    ("web.commands.events", "run_unstaff", "web.events.changes"): "as run_add",
    ("web.commands.replay", "run", "adjudicator.chess.positions"): "only with --start-fen",
    ("web.commands.rule", "run", "engines"): "`adjudicator --help` loads every command's module: no engine for it",
    ("web.commands.serve", "waitress_options", "web.security"): "Flask's side, for `serve` only",
    ("web.commands.serve", "run", "waitress"): "the WSGI server, for `serve` only",
    ("web.commands.serve", "run", "web.app"): "the whole app, for `serve` only",
    ("web.commands.unwinnable", "parse_board", "adjudicator.chess.positions"): "the command's work, when it runs",
    ("web.commands.unwinnable", "run", "engines.chess.unwinnable"): "the analyser, when the command runs",
    ("web.commands.watch", "mate_oracle", "engines.chess.unwinnable"):
        "optional: a build without the unwinnability analyser watches without it (ModuleNotFoundError)",
    ("web.commands.worker", "run", "web.config"): "`adjudicator --help` loads every command's module",
    ("web.commands.worker", "run", "web.db"): "`adjudicator --help` loads every command's module",
    ("web.commands.worker", "run", "web.queue"): "Celery and the queue, for `worker` only",
    ("web.commands.worker", "run", "web.queue.remote"): "Celery and the queue, for `worker` only",
    ("web.commands.worker", "run", "web.queue.rows"): "Celery and the queue, for `worker` only",
    ("web.commands.worker", "run", "web.queue.worker"): "Celery and the queue, for `worker` only",
    ("web.commands.worker", "run", "web.queue.recovery"): "Celery and the queue, for `worker` only",
    ("web.commands.worker", "run", "engines.collection"): "collection checks, for `worker` only",
    ("web.commands.worker", "run", "web.kinds"): "the job kinds (the areas' work), for `worker` only",
    ("web.cli", "error_json", "web.failures"):
        "the map of every failure loads on an error only (check-games' start-up)",
}
"""Every import made inside a function in ``web/``, with why it is not at the top: (module, function, target)."""


def unit_of(name: str) -> str:
    """The top-level module or package of ``web`` that ``name`` belongs to (``web.claims.views`` -> ``web.claims``)."""
    return ".".join(name.split(".")[:2])


def floor_of(name: str) -> str:
    unit = unit_of(name)
    found = [floor for floor, units in FLOORS.items() if unit in units]
    assert len(found) == 1, f"{unit} stands on {found or 'no floor'}: name its floor in tests/test_layers.py"
    return found[0]


def web_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {t for t in imports_of(name, path, is_package, known) if t == "web" or t.startswith("web.")}
            for name, (path, is_package) in known.items() if name == "web" or name.startswith("web.")}


def _tree(name: str) -> ast.Module:
    path, _ = modules()[name]
    return ast.parse(path.read_text(encoding="utf-8"))


def is_page(name: str) -> bool:
    """A module that makes a blueprint or puts routes on one."""
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Blueprint":
            return True
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                call = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(call, ast.Attribute) and call.attr in {"route", "get", "post", "put", "patch", "delete"}:
                    return True
    return False


def function_level_imports(root: Path = ROOT) -> set[tuple[str, str, str]]:
    """(module, function, imported module) for every import inside a function in ``web/``."""
    found: set[tuple[str, str, str]] = set()
    for path in sorted((root / "web").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        seen: set[int] = set()
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in seen:
                    seen.add(id(node))
                    target = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                    found.add((name, function.name, target or ""))
    return found


def test_every_module_of_web_stands_on_a_named_floor() -> None:
    for name in web_graph():
        floor_of(name)  # raises, naming the module, for a module on no floor or on two


def test_the_tables_import_only_the_declarative_base_and_each_other() -> None:
    graph = web_graph()
    assert "web.tables.rulings" in graph["web.tables.committee"]  # the walk sees the tables' imports
    for name, targets in graph.items():
        if floor_of(name) == "tables":
            assert targets <= {"web", "web.db"} | {t for t in targets if unit_of(t) == "web.tables"}, (name, targets)


def test_every_table_is_defined_on_the_tables_floor_and_nothing_loads_tables_by_name() -> None:
    tables_at: set[str] = set()
    for name in web_graph():
        tree = _tree(name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__tablename__"
                                                      for t in s.targets) for s in node.body):
                tables_at.add(name)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "import_module"):
                assert name in {"web.cli", "web.commands.replay"}, f"{name} loads a module by name"
    assert "web.tables.committee" in tables_at
    assert {unit_of(name) for name in tables_at} == {"web.tables"}, sorted(tables_at)


def test_the_infrastructure_imports_no_area() -> None:
    graph = web_graph()
    assert "web.tables.jobs" in graph["web.runner"]  # the walk sees the infrastructure's imports
    upward = {(name, unit_of(target)) for name, targets in graph.items() if floor_of(name) == "infrastructure"
              for target in targets if floor_of(target) not in {"infrastructure", "tables"}}
    assert upward == set(ALLOWED_UPWARD), sorted(upward ^ set(ALLOWED_UPWARD))


def test_a_page_is_imported_only_by_its_own_area_and_the_entrances() -> None:
    graph = web_graph()
    pages = {name for name in graph if floor_of(name) == "area" and is_page(name)}
    assert {"web.rulings.views", "web.claims.views", "web.admin.staff", "web.admin.people"} <= pages
    crossing = sorted((name, target) for name, targets in graph.items() for target in targets & pages
                      if unit_of(target) != unit_of(name) and floor_of(name) != "entrance")
    assert crossing == [], crossing


OWN_PACKAGE_IMPORTS = {
    "web.queue": "its __init__ holds the broker's settings and imports none of its modules (the jobs helper's "
                 "part of issue 38 reshapes web/queue)",
}
"""Packages whose own modules still import their ``__init__``, with the reason."""


def test_no_module_of_web_imports_its_own_package() -> None:
    """A package's ``__init__`` may import its modules; a module importing its package back makes a circle."""
    known = modules()
    for name, (path, is_package) in known.items():
        if not name.startswith("web.") or unit_of(name) in OWN_PACKAGE_IMPORTS:
            continue
        here = name.split(".") if is_package else name.split(".")[:-1]
        own = {".".join(name.split(".")[:i]) for i in range(1, len(name.split(".")))}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named: set[str] = set()
            if isinstance(node, ast.Import):
                named = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*here[: len(here) - node.level + 1], *([node.module] if node.module else [])])
                named = {base} if all(f"{base}.{a.name}" not in known for a in node.names) else set()
            assert not named & own, f"{name} imports its own package {sorted(named & own)}"
    for package in OWN_PACKAGE_IMPORTS:  # and such a package's __init__ imports none of its modules: no circle
        path, _ = known[package]
        assert not {t for t in imports_of(package, path, True, known) if t.startswith(package + ".")}, package


def test_the_domain_and_the_engines_import_nothing_of_web_and_the_domain_no_engine() -> None:
    known = modules()
    for name, (path, is_package) in known.items():
        if not name.startswith(("adjudicator", "engines")) or name == "adjudicator.__main__":
            continue
        targets = imports_of(name, path, is_package, known)
        assert not {t for t in targets if t.split(".")[0] == "web"}, name
        if name.startswith("adjudicator"):
            assert not {t for t in targets if t.split(".")[0] == "engines"}, name
    main_path, _ = known["adjudicator.__main__"]
    assert imports_of("adjudicator.__main__", main_path, False, known) >= {"web.cli"}  # the one door
    assert all("adjudicator.__main__" not in imports_of(n, p, i, known) for n, (p, i) in known.items())


def test_every_import_inside_a_function_is_listed_with_its_reason() -> None:
    found = function_level_imports()
    assert ("web.db", "migrate", "alembic") in found  # the walk sees imports inside functions
    assert all(FUNCTION_LEVEL.values())
    new = sorted(found - set(FUNCTION_LEVEL))
    assert new == [], f"new, list them with a reason: {new}"
    assert set(FUNCTION_LEVEL) - found == set(), "gone, drop them: " + repr(sorted(set(FUNCTION_LEVEL) - found))


def test_every_table_is_registered_by_web_tables_every() -> None:
    """Alembic, the audit check and every process that may write any table import ``web.tables.every``: a table
    module it left out would be missing from all three (importing one table loads only the tables it names)."""
    import pkgutil

    import web.tables
    from web.tables import every

    tables = {found.name for found in pkgutil.iter_modules(web.tables.__path__)} - {"every"}
    assert set(every.__all__) == tables
    assert all(getattr(every, name).__name__ == f"web.tables.{name}" for name in tables)
