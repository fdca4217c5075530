"""``adjudicator events ...``: events, their staff and event-scoped tokens (issue 11).

    adjudicator events add SLUG --name "..." [--starts YYYY-MM-DD --ends YYYY-MM-DD]
                                 [--ruleset ID] [--private] [--broadcast SOURCE]
    adjudicator events set SLUG --broadcast SOURCE | --no-broadcast    # the event's live games
    adjudicator events list
    adjudicator events staff SLUG USER --role td|committee|appeals|organiser   # assign
    adjudicator events staff SLUG                                     # list the staff
    adjudicator events token SLUG USER                                # a token for that event only
    adjudicator events revoke-token SLUG USER                         # that token stops working
    adjudicator events unstaff SLUG USER [--role td|committee|appeals] # take a user off the staff

Each command prints JSON (``token`` prints the token alone, like ``users add``). Every
event, change of an event, assignment and token is an audit entry. A new token replaces the user's earlier one
for the event (it stops working); a user taken off the staff loses their token for the event
once no role there is left. The rules of each change (valid values, who may, the audit entry) are
:mod:`web.events.changes`, which the event's staff pages (``/admin/events/<slug>``) follow too; the
command line acts as the install's operator (its audit entries say ``command line``).

An ``organiser`` (issue 22) runs one event from the web: its settings, its TDs, committee pool and
appeals committee, and its tokens, without being an admin of the whole install.

``--broadcast SOURCE`` (issue 21, item 4): where the event's live games are published, a
folder on the server (a DGT LiveChess export, one PGN per round) or an http(s) URL polled for
a PGN; the claim form then lists the round's boards to the event's staff (:mod:`web.broadcast`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.contract import ContractError
from adjudicator.rulesets import RulesetBook
from web.cli import emit
from web.commands.store import command_session
from web.config import load_config
from web.tables.events import STAFF_ROLES, VISIBILITIES, Event, EventStaff, event_by_slug
from web.tables.users import User, user_by_name

BROADCAST_HELP = ("the event's live games: a folder on the server (absolute path; a DGT LiveChess export), "
                  "a single PGN file there, or an http(s) URL of a PGN (a lichess broadcast round)")


def register(sub: Any) -> None:
    parser = sub.add_parser("events", help="events, their staff and event-scoped tokens")
    actions = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    add = actions.add_parser("add", help="create an event")
    add.add_argument("slug", help="short name: lower-case letters, digits and dashes (used in the API)")
    add.add_argument("--name", required=True)
    add.add_argument("--starts", help="first day, YYYY-MM-DD")
    add.add_argument("--ends", help="last day, YYYY-MM-DD")
    add.add_argument("--ruleset", help="the event's ruleset id (every case in it is ruled under it)")
    add.add_argument("--private", action="store_true", help="rulings visible only to the event's staff")
    add.add_argument("--broadcast", metavar="SOURCE", help=BROADCAST_HELP)
    add.set_defaults(func=run_add)
    change = actions.add_parser("set", help="change an event: its broadcast")
    change.add_argument("slug")
    which = change.add_mutually_exclusive_group(required=True)
    which.add_argument("--broadcast", metavar="SOURCE", help=BROADCAST_HELP)
    which.add_argument("--no-broadcast", action="store_true", help="the event has no broadcast any more")
    change.set_defaults(func=run_set)
    listing = actions.add_parser("list", help="list the events")
    listing.set_defaults(func=run_list)
    staff = actions.add_parser("staff", help="assign a user to an event's staff, or list its staff")
    staff.add_argument("slug")
    staff.add_argument("user", nargs="?")
    staff.add_argument("--role", choices=STAFF_ROLES,
                       help="td, committee (the pool), appeals, or organiser (runs the event from the web)")
    staff.set_defaults(func=run_staff)
    token = actions.add_parser("token", help="issue an API token that acts for USER in this event only")
    token.add_argument("slug")
    token.add_argument("user")
    token.set_defaults(func=run_token)
    revoke = actions.add_parser("revoke-token", help="stop USER's token for this event")
    revoke.add_argument("slug")
    revoke.add_argument("user")
    revoke.set_defaults(func=run_revoke)
    unstaff = actions.add_parser("unstaff", help="take USER off the event's staff (every role, or --role)")
    unstaff.add_argument("slug")
    unstaff.add_argument("user")
    unstaff.add_argument("--role", choices=STAFF_ROLES, help="only this role")
    unstaff.set_defaults(func=run_unstaff)


def _event(session: Session, slug: str) -> Event:
    found = event_by_slug(session, slug)
    if found is None:
        raise ContractError("unknown_event", f"there is no event {slug!r}", "slug")
    return found


def run_add(args: argparse.Namespace) -> int:
    """Create an event (the rules: :func:`web.events.changes.create_event`)."""
    # deferred on purpose: every command's module loads on each run
    from web.events.changes import check_slug, create_event, settings

    config = load_config()
    check_slug(args.slug)
    chosen = settings(RulesetBook.from_config(config), name=args.name, starts=args.starts, ends=args.ends,
                      ruleset=args.ruleset, visibility=VISIBILITIES[1] if args.private else VISIBILITIES[0],
                      broadcast=args.broadcast)
    with command_session(config) as session:
        event = create_event(session, args.slug, chosen, by=None)
        session.commit()
        emit(event.to_json())
    return 0


def run_set(args: argparse.Namespace) -> int:
    """Change an event's broadcast (an audit entry: the event as it is now)."""
    from web.events.changes import set_broadcast  # deferred on purpose: every command's module loads on each run

    with command_session(load_config()) as session:
        event = set_broadcast(session, _event(session, args.slug), None if args.no_broadcast else args.broadcast,
                              by=None)
        session.commit()
        emit(event.to_json())
    return 0


def run_list(args: argparse.Namespace) -> int:
    with command_session(load_config()) as session:
        for event in session.scalars(select(Event).order_by(Event.id)):
            emit(event.to_json())
    return 0


def run_staff(args: argparse.Namespace) -> int:
    from web.events.changes import assign_staff  # deferred on purpose: every command's module loads on each run

    with command_session(load_config()) as session:
        event = _event(session, args.slug)
        if args.user is None:
            for row in session.scalars(select(EventStaff).where(EventStaff.event_id == event.id)
                                       .order_by(EventStaff.role, EventStaff.id)):
                emit({"event": event.slug, "user": row.user.name, "role": row.role})
            return 0
        if args.role is None:
            raise ContractError("missing_field", "give the role: --role td|committee|appeals|organiser", "role")
        user = _user(session, args.user)
        assign_staff(session, event, user, args.role, by=None)
        session.commit()
        emit({"event": event.slug, "user": user.name, "role": args.role})
    return 0


def _user(session: Session, name: str) -> User:
    user = user_by_name(session, name)
    if user is None:
        raise ContractError("unknown_user", f"no user named {name!r}", "user")
    return user


def run_token(args: argparse.Namespace) -> int:
    from web.events.changes import issue_token  # deferred on purpose: every command's module loads on each run

    with command_session(load_config()) as session:
        event = _event(session, args.slug)
        token = issue_token(session, event, _user(session, args.user), by=None)
        session.commit()
    sys.stdout.write(token + "\n")
    sys.stdout.flush()
    sys.stderr.write(f"adjudicator: a token for {args.user} in the event {args.slug} (any earlier one stops)\n")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    from web.events.changes import revoke_tokens  # deferred on purpose: every command's module loads on each run

    with command_session(load_config()) as session:
        event = _event(session, args.slug)
        user = _user(session, args.user)
        count = revoke_tokens(session, event, user, by=None)
        session.commit()
        emit({"event": event.slug, "user": user.name, "revoked": count})
    return 0


def run_unstaff(args: argparse.Namespace) -> int:
    from web.events.changes import unassign_staff  # deferred on purpose: every command's module loads on each run

    with command_session(load_config()) as session:
        event = _event(session, args.slug)
        user = _user(session, args.user)
        removed = unassign_staff(session, event, user, args.role, by=None)
        if not removed:
            what = f"as {args.role}" if args.role else "at all"
            raise ContractError("not_staff", f"{user.name} is not on the staff of the event {event.slug!r} {what}",
                                "user")
        session.commit()
        emit({"event": event.slug, "user": user.name, "removed": removed})
    return 0
