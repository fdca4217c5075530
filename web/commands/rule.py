"""``adjudicator rule CASE.json`` and ``adjudicator rule --jsonl FILE``.

``--jsonl`` streams: each line is ruled as soon as it is read and its ruling (or error line)
printed and flushed before the next line is read, so a client may write one case to standard
input and wait for its ruling.
"""

from __future__ import annotations

import argparse
from typing import Any

from adjudicator import json_input
from adjudicator.contract import ContractError
from adjudicator.requirements import checked_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook
from adjudicator.services import Services
from web.cli import emit, error_json, fail, lines_of, read_input
from web.config import load_config


def register(sub: Any) -> None:
    parser = sub.add_parser("rule", help="rule on a case (contract JSON)")
    parser.add_argument("case", nargs="?", help="case JSON file, or - for standard input")
    parser.add_argument("--jsonl", metavar="FILE", help="batch: one case per line (- for stdin)")
    parser.set_defaults(func=run)


def decode(text: str, field: str = "case") -> object:
    """The case document (nesting, huge integers and NUL refused, the field named: exit 2)."""
    return json_input.loads(text, field)


def rule_json(data: object, book: RulesetBook, services: Services) -> dict[str, Any]:
    """The ruling on a case, once :func:`adjudicator.requirements.checked_case` finds it can be ruled on
    (the same check as the claim form's and the API's; :class:`CaseRefused` exits 2 naming the field)."""
    return rule(checked_case(data, book, services), book, services).to_json()


def run(args: argparse.Namespace) -> int:
    from engines import build_services  # deferred on purpose: every command's module loads on each run

    if (args.case is None) == (args.jsonl is None):
        raise ContractError("usage", "give either a CASE file or --jsonl FILE", "argv")
    config = load_config()
    book = RulesetBook.from_config(config)
    services = build_services(config)
    try:
        if args.jsonl is None:
            emit(rule_json(decode(read_input(args.case, "case")), book, services))
            return 0
        with lines_of(args.jsonl, "jsonl") as lines:  # each line ruled as it arrives, each ruling flushed
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    emit(rule_json(decode(line, f"line {number}"), book, services))
                except Exception as exc:  # a bad line yields an error line; the batch goes on
                    body = error_json(exc)
                    body["error"]["line"] = number
                    emit(body)
        return 0
    finally:
        close = getattr(services, "close", None)
        if callable(close):
            close()


__all__ = ["register", "run", "fail"]
