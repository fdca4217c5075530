"""``adjudicator audit verify``: check the audit trail's hash chain and every audited row.

Exit 0 and ``{"ok": true, ...}`` when intact; exit 1 with the first entry that was
edited or removed (and every problem found) otherwise.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from web.audit import verify
from web.cli import emit
from web.commands.store import command_session
from web.config import load_config


def register(sub: Any) -> None:
    parser = sub.add_parser("audit", help="the audit trail")
    actions = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    verify_parser = actions.add_parser("verify", help="report the first audit entry that was edited or removed")
    verify_parser.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    with command_session(load_config()) as session:
        result = verify(session)
    emit(result.to_json())
    if result.is_intact:
        sys.stderr.write(f"adjudicator: audit trail intact ({result.entries} entries)\n")
        return 0
    sys.stderr.write(f"adjudicator: audit trail broken at {result.problems[0].sentence()}\n")
    return 1
