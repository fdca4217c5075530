"""What each ruleset asks of the arbiter for a fact seen without a claim (``shared/notes/watch.md``'s table).

- Automatic endings: ``repetition.automatic`` / ``move_rule.automatic`` ``mandatory`` → ``act`` (FIDE 9.6),
  ``discretionary`` → ``may-act`` (US 14K); a dead position the TD may declare (``flag.dead_position =
  "material-then-td"``) → ``may-act``; checkmate or stalemate with play going on → ``act`` (5.1.1, 5.2.1;
  US 12A, 14A).
- A flag at 0:00:00: ``act`` where the arbiter calls flags (``flag.called_by = "arbiter"`` in a supervised
  game: FIDE 6.8, A.4, B.2), else ``do-not-call`` (A.5.3, US 13C1); ``watch.flag_call = "never"``: always
  ``do-not-call`` (Sabah v.5, CalChess).
- An illegal move: ``check-board`` (7.5.1: the board may have misread it); ``before-reply``: only until the
  opponent replies (A.5.2), then ``do-not-call``; ``never``: ``do-not-call`` (US 11A, Sabah v.5, CalChess).
"""

from __future__ import annotations

from adjudicator.rulesets import CheckersRuleset, ChessRuleset
from adjudicator.watch.alerts import Action


def ending_action(is_mandatory: bool) -> Action:
    return "act" if is_mandatory else "may-act"


def chess_flag(ruleset: ChessRuleset) -> tuple[Action, tuple[str, ...]]:
    """The action and article for a flag seen down in the live record."""
    calls = (ruleset.watch.flag_call == "by-supervision" and ruleset.flag.called_by == "arbiter"
             and ruleset.supervised)
    if ruleset.watch.flag_ref:
        ref = ruleset.watch.flag_ref
    elif calls:
        ref = ruleset.ref("6.8")
    else:
        ref = ruleset.flag.refs.flag or ruleset.ref("6.9")
    return ("act" if calls else "do-not-call"), (ref,)


def chess_illegal(ruleset: ChessRuleset, replied: bool) -> tuple[Action, tuple[str, ...]]:
    """The action and article for an illegal move in the live record (``replied``: the opponent has moved)."""
    mode = ruleset.watch.illegal_move_call
    if ruleset.watch.illegal_move_ref:
        ref = ruleset.watch.illegal_move_ref
    elif ruleset.is_a("uschess"):
        ref = ruleset.ref("11A")
    elif mode == "before-reply":
        ref = ruleset.ref("A.5.2")
    else:
        ref = ruleset.ref("7.5.1")
    if mode == "never" or (mode == "before-reply" and replied):
        return "do-not-call", (ref,)
    return "check-board", (ref,)


def checkers_flag(ruleset: CheckersRuleset) -> tuple[Action, tuple[str, ...]]:
    ref = ruleset.flag.refs.flag or ruleset.ref("time forfeit")
    return ("act" if ruleset.watch.flag_call == "referee" else "do-not-call"), (ref,)
