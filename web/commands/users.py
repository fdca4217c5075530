"""``adjudicator users ...``: create users, list them, and take their access back.

    adjudicator users add NAME --role td|committee|appeals|admin   # prints the API token
    adjudicator users list
    adjudicator users token NAME          # a new API token; the old one and the user's event tokens stop
    adjudicator users revoke-token NAME   # no token of the user works until a new one is issued
    adjudicator users deactivate NAME     # sessions end and tokens stop at once; log-in refused
    adjudicator users activate NAME       # log-in allowed again (tokens stay revoked)
    adjudicator users totp NAME [--off]   # time-based one-time passwords at log-in (web.auth.totp)

The token alone goes to standard output (so ``TOKEN=$(adjudicator users add ...)``
works); a generated password is printed on standard error. ``--json`` prints
everything as one JSON object instead. Every change is an audit entry.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.contract import ContractError
from web.audit import append
from web.auth.revoke import AccessChangeRefused, activate, deactivate, renew_token, revoke_token
from web.auth.totp import link, new_secret
from web.cli import emit
from web.commands.store import command_session
from web.config import load_config
from web.tables.users import ROLES, User, UserError, create_user, user_by_name


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
    token = actions.add_parser("token", help="issue a new API token for a user (the old one and the user's "
                               "event tokens stop working)")
    token.add_argument("name")
    token.set_defaults(func=run_token)
    for action, helptext, func in (
            ("revoke-token", "stop the user's API token and event tokens (none works until a new one is issued)",
             run_revoke),
            ("deactivate", "deactivate a user: their sessions end and their tokens stop at once", run_deactivate),
            ("activate", "let a deactivated user log in again (issue a token with `users token`)", run_activate)):
        sub_parser = actions.add_parser(action, help=helptext)
        sub_parser.add_argument("name")
        sub_parser.set_defaults(func=func)
    totp = actions.add_parser("totp", help="ask the user for a one-time code at log-in: prints the otpauth:// link "
                              "and the secret for their authenticator app")
    totp.add_argument("name")
    totp.add_argument("--off", action="store_true", help="stop asking (a lost phone): the secret is removed")
    totp.set_defaults(func=run_totp)


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


def _user(session: Session, name: str) -> User:

    user = user_by_name(session, name)
    if user is None:
        raise ContractError("unknown_user", f"no user named {name!r}", "name")
    return user


def run_token(args: argparse.Namespace) -> int:

    with command_session(load_config()) as session:
        token = renew_token(session, _user(session, args.name), actor="command line")
        session.commit()
    sys.stdout.write(token + "\n")
    return 0


def run_revoke(args: argparse.Namespace) -> int:

    with command_session(load_config()) as session:
        user = _user(session, args.name)
        revoke_token(session, user, actor="command line")
        session.commit()
        emit({"name": user.name, "token": "revoked", "event_tokens": "revoked"})
    return 0


def run_deactivate(args: argparse.Namespace) -> int:

    with command_session(load_config()) as session:
        user = _user(session, args.name)
        try:
            ended = deactivate(session, user, actor="command line")
        except AccessChangeRefused as exc:
            raise ContractError("refused", str(exc), exc.field) from None
        session.commit()
        emit({"name": user.name, "active": False, "sessions_ended": ended, "tokens": "revoked"})
    return 0


def run_totp(args: argparse.Namespace) -> int:
    """A new one-time password secret for the user (replacing any), or none with ``--off``."""
    with command_session(load_config()) as session:
        user = _user(session, args.name)
        secret = None if args.off else new_secret()
        user.totp_secret, user.totp_last_step = secret, None
        session.flush()
        append(session, "user", f"user:{user.id}", user.audit_payload(), actor="command line")
        session.commit()
        if secret is None:
            emit({"name": user.name, "totp": False})
        else:
            emit({"name": user.name, "totp": True, "secret": secret, "link": link(user, secret)})
    return 0


def run_activate(args: argparse.Namespace) -> int:

    with command_session(load_config()) as session:
        user = _user(session, args.name)
        activate(session, user, actor="command line")
        session.commit()
        emit({"name": user.name, "active": True})
    return 0
