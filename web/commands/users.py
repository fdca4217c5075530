"""``adjudicator users add NAME --role td|committee|appeals|admin``: create a user, print the API token.

The token alone goes to standard output (so ``TOKEN=$(adjudicator users add ...)``
works); a generated password is printed on standard error. ``--json`` prints
everything as one JSON object instead.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sqlalchemy import select

from adjudicator.contract import ContractError
from web.auth.models import ROLES, User, UserError, create_user
from web.cli import emit
from web.committee.store import command_session
from web.config import load_config


def register(sub: Any) -> None:
    parser = sub.add_parser("users", help="manage users (TDs, committee and appeals members)")
    actions = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    add = actions.add_parser("add", help="create a user and print an API token")
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=ROLES)
    add.add_argument("--password", help="login password (default: a generated one, printed on stderr)")
    add.add_argument("--club", help="the member's club (a member cannot sit on a game of their club)")
    add.add_argument("--team", help="the member's team (likewise)")
    add.add_argument("--json", action="store_true", help="print name, role, token and password as JSON")
    add.set_defaults(func=run_add)
    listing = actions.add_parser("list", help="list the users")
    listing.set_defaults(func=run_list)
    token = actions.add_parser("token", help="issue a new API token for a user (the old one stops working)")
    token.add_argument("name")
    token.set_defaults(func=run_token)


def run_add(args: argparse.Namespace) -> int:
    with command_session(load_config()) as session:
        try:
            user, token, password = create_user(session, args.name, args.role, args.password, args.club, args.team)
        except UserError as exc:
            raise ContractError("invalid_user", str(exc), exc.field) from None
        session.commit()
    if args.json:
        emit({"name": user.name, "role": user.role, "token": token,
              "password": None if args.password else password})
        return 0
    sys.stdout.write(token + "\n")
    sys.stdout.flush()
    note = f"; password: {password}" if not args.password else ""
    sys.stderr.write(f"adjudicator: created {user.role} {user.name}{note}\n")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with command_session(load_config()) as session:
        for user in session.scalars(select(User).order_by(User.name)):
            emit({"name": user.name, "role": user.role, "club": user.club, "team": user.team,
                  "active": user.active})
    return 0


def run_token(args: argparse.Namespace) -> int:
    import secrets

    from web.audit import append
    from web.auth.models import token_digest, user_by_name

    with command_session(load_config()) as session:
        user = user_by_name(session, args.name)
        if user is None:
            raise ContractError("unknown_user", f"no user named {args.name!r}", "name")
        token = secrets.token_urlsafe(32)
        user.token_hash = token_digest(token)
        append(session, "token", f"user:{user.id}", {"name": user.name, "reissued": True}, actor="command line")
        session.commit()
    sys.stdout.write(token + "\n")
    return 0
