"""Behaviour check: ``adjudicator rule --jsonl`` on every case document written in the tests.

Not a test (no ``test_`` prefix): a tool run by hand before and after a refactoring.

    python3 tests/tools/rule_snapshot.py cases OUT.jsonl      # the case documents, one a line
    python3 tests/tools/rule_snapshot.py capture OUT.jsonl TESTS...   # and those the tests parse as they run
    python3 tests/tools/rule_snapshot.py rule CASES OUT       # their rulings through the CLI, timings masked
    diff BEFORE AFTER                                         # identical, or the refactoring changed behaviour

A case document is a dict literal with a ``"claim"`` key in a test module, evaluated in that
module's globals (those that use a test's local variables cannot be evaluated here and are
skipped; the count says how many were found). ``capture`` adds the documents the given tests
hand to :func:`adjudicator.contract.parse_case` as they run (CI=true: hypothesis derandomized).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MASKED = re.compile(r"(elapsed|_ms$|^ms$|millis|nodes|nps|duration|spent|took|wall|cpu)", re.I)


def case_documents() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    sys.path.insert(0, str(ROOT))
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if '"claim"' not in text:
            continue
        module_name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        try:
            module = importlib.import_module(module_name)
        except Exception:  # a module that needs what is not here: its documents are skipped
            continue
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Dict):
                continue
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if "claim" not in keys:
                continue
            try:
                value = eval(compile(ast.Expression(node), str(path), "eval"), dict(vars(module)))
            except Exception:
                continue
            try:
                line = json.dumps(value, sort_keys=True)
            except (TypeError, ValueError):
                continue
            if line not in seen:
                seen.add(line)
                found.append(value)
    return found


CAPTURE = os.environ.get("RULE_SNAPSHOT_CAPTURE")


def pytest_configure(config: Any) -> None:
    """As a pytest plugin (``-p tests.tools.rule_snapshot``): every case document parsed is written down."""
    if not CAPTURE:
        return
    import adjudicator.contract as contract

    original = contract.parse_case
    out = open(CAPTURE, "a", encoding="utf-8")  # noqa: SIM115 (open for the whole run)

    def parse_case(data: object) -> Any:
        if isinstance(data, dict):
            with contextlib.suppress(TypeError, ValueError):
                out.write(json.dumps(data, sort_keys=True) + "\n")
        return original(data)

    contract.parse_case = parse_case  # type: ignore[assignment]


def masked(value: Any, timed: bool = False) -> Any:
    """Timings (an engine's nodes, its seconds in the evidence) masked; a clock's seconds kept."""
    if isinstance(value, dict):
        return {
            k: "<masked>" if MASKED.search(k) or (timed and k == "seconds") else masked(v, timed or k == "evidence")
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [masked(v, timed) for v in value]
    return value


def main(argv: list[str]) -> int:
    if argv[:1] == ["cases"]:
        documents = case_documents()
        Path(argv[1]).write_text("".join(json.dumps(d, sort_keys=True) + "\n" for d in documents), encoding="utf-8")
        print(f"{len(documents)} case documents", file=sys.stderr)
        return 0
    if argv[:1] == ["capture"]:
        out = Path(argv[1])
        seen: set[str] = set()
        if out.exists():
            seen.update(out.read_text(encoding="utf-8").splitlines())
        raw = out.with_suffix(".raw")
        raw.unlink(missing_ok=True)
        env = dict(os.environ, PYTHONPATH=str(ROOT), CI="true", RULE_SNAPSHOT_CAPTURE=str(raw))
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "tests.tools.rule_snapshot", "-m", "not browser",
             *argv[2:]], cwd=ROOT, env=env, check=False,
        )
        lines = [line for line in raw.read_text(encoding="utf-8").splitlines() if line not in seen]
        new = list(dict.fromkeys(lines))
        with out.open("a", encoding="utf-8") as opened:
            opened.writelines(line + "\n" for line in new)
        raw.unlink()
        print(f"{len(new)} more case documents", file=sys.stderr)
        return 0
    if argv[:1] == ["rule"]:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run(
            [sys.executable, "-m", "adjudicator", "rule", "--jsonl", argv[1]],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )
        lines = [json.dumps(masked(json.loads(line)), sort_keys=True) for line in done.stdout.splitlines()]
        Path(argv[2]).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"{len(lines)} rulings, exit {done.returncode}", file=sys.stderr)
        return done.returncode
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
