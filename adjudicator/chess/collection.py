"""Checking a chess game of a collection: its recorded result against the laws (contract: "Checking a collection").

:func:`check_chess` checks one chess game of a collection (:mod:`adjudicator.collection`
cuts the file into records); it gives a :class:`~adjudicator.findings.GameCheck`
(headers, the recorded result, the lawful result, the findings) with its JSON.

The rules a finding rests on are the claims' own, reused here, not rewritten:

- the automatic endings (checkmate 5.1.1, stalemate 5.2.1, dead position 5.2.2, fivefold
  9.6.1, 75 moves 9.6.2; US Chess 12A, 14A, 14D) come from
  :func:`adjudicator.clocks.game_end.game_end`, the same that a flag claim asks; under
  US Chess 14K the fivefold and 75-move draws are the TD's to declare, so a result
  that ignores them breaks no rule and gives no finding;
- a loss on time is tested with the ruleset's no-win test (``flag.no_win_test``: FIDE 6.9
  helpmate, US Chess 14E), :func:`adjudicator.clocks.no_win.win_chance`, on the position
  the flag claim would judge (FIDE 7.5.1 applied to an impossible final position);
- illegal and unreadable moves come from the record reader (:mod:`adjudicator.chess.replay`), and so
  does what it read past by a stated rule (a stray bracket, a game ended at a blank line, a result
  mark before the last move, a draw offer): a ``reading`` finding at its ply; a move number that
  parts from the order of the moves (:mod:`adjudicator.chess.numbering`) is a ``numbering-gap`` finding.

A finding is given only where the recorded result differs from the lawful one, or the
record itself is faulty (an illegal move, an unreadable token, no result). An illegal
move that stood (nobody corrected it during the game) does not change the result: FIDE
7.5.1 corrects it only "during a game"; the lawful result is then decided on the record
as played. No I/O: the caller passes the lines and the services.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chess

from adjudicator.chess.movetext import Note, RawGame
from adjudicator.chess.notation import LANGUAGE_NAMES
from adjudicator.chess.positions import judged_record_position
from adjudicator.chess.replay import RecordError, Replay, UnsupportedVariant, replay_game
from adjudicator.clocks.dead_position import Deadness
from adjudicator.clocks.no_win import win_chance
from adjudicator.contract import quoted
from adjudicator.findings import Finding, GameCheck, later_plies, numbering_gap
from adjudicator.rulesets import ChessRuleset, Ruleset
from adjudicator.services import MateOracle, Services

if TYPE_CHECKING:
    from adjudicator.clocks.game_end import GameEnd

RESULTS = ("1-0", "0-1", "1/2-1/2")
SIDES = ("white", "black")
_TIME_FORFEIT = re.compile(
    r"time\s*forfeit|\b(?:won|lost|loses|wins)\s+on\s+time\b|\btime-?out\b|\bflag(?:ged|\s*fall)?\b", re.IGNORECASE
)
"""``Termination`` values that mean a loss on time (PGN "time forfeit", lichess, chess.com "X won on time")."""
_MISMATCH_CODES = {
    "checkmate": "checkmate-mismatch",
    "stalemate": "stalemate-mismatch",
    "dead-position": "dead-position",
    "fivefold": "fivefold",
    "seventy-five-moves": "seventy-five-moves",
}


def looks_like_chess_game(game: RawGame) -> bool:
    """Whether a split-off game is a game record at all: a tag pair, a result token, or a first move that reads."""
    if game.tags or game.result is not None:
        return True
    if not game.moves or game.moves[0].unreadable is not None:
        return False
    try:
        replay = replay_game(RawGame(moves=game.moves[:1]))
    except RecordError:
        return False
    return bool(replay.plies)


def recorded_result(text: str | None) -> str | None:
    return text if text in RESULTS else None


def _ref(ruleset: Ruleset, fide: str, us: str) -> str:
    return ruleset.ref(us if ruleset.is_a("uschess") else fide)


def check_chess(
    game: RawGame, ruleset: ChessRuleset, services: Services, dead_screen: MateOracle | None = None
) -> GameCheck:
    """Check one chess game's recorded result against ``ruleset`` (see the module docstring).

    ``dead_screen``: a cheaper helpmate oracle for the dead-position test of the positions the
    game reached (5.2.2), such as ``engines.chess.unwinnable.screen.DeadScreen``. The test stays
    sound: a position is dead only when both sides are proven unable to mate, and an undecided
    answer counts as alive, so a cheaper oracle can only miss a dead position that needs a long
    proof, never invent one. The loss-on-time question (6.9) always gets ``services.mate``.
    """
    tags = tuple(game.tags)
    recorded = recorded_result(game.result if game.result not in (None, "*") else game.tag("Result"))
    language = ruleset.record.language or None
    try:
        replay = replay_game(game, None, language)
    except UnsupportedVariant as exc:
        finding = Finding("unsupported-variant", 0, ruleset.ref("1.1"), f"{exc.message}; its result is not checked.")
        return GameCheck(tags, recorded, None, (finding,))
    except RecordError as exc:
        finding = Finding("unreadable", exc.ply or 0, _ref(ruleset, "8.1.1", "15A"), f"{exc.message}.")
        return GameCheck(tags, recorded, None, (finding,))
    recorded = replay.result if replay.result in RESULTS else None
    choices = _reading_choices(replay, ruleset)
    findings = [_illegal(replay, ply, ruleset, choices) for ply in (p.number for p in replay.illegal)]
    findings.extend(choices)
    findings.extend(_read_past(note, ruleset) for note in replay.file_notes)
    findings.extend(numbering_gap(gap, _ref(ruleset, "8.1.1", "15A")) for gap in replay.numbering_gaps)
    tag = recorded_result(game.tag("Result"))
    if tag is not None and recorded is not None and tag != recorded:
        findings.append(
            Finding("result-conflict", len(replay.plies), _ref(ruleset, "8.7", "15A"),
                    f"The Result tag says {tag} but the moves end with {recorded}; {recorded} is taken as recorded.")
        )
    if replay.unreadable:
        findings.append(_unreadable(replay, ruleset))
    deadness = Deadness(ruleset.flag.dead_position, services.mate)
    forfeit = _time_forfeit(replay, recorded)
    judged = judged_record_position(replay) if forfeit is not None else None
    if (
        judged is not None and ruleset.flag.no_win_test == "helpmate" and deadness.analyses
        and not judged.board.is_insufficient_material()
    ):
        winner = chess.WHITE if recorded == "1-0" else chess.BLACK
        deadness.search(judged.board, winner)  # the 6.9 question first: the dead-position test reuses it
    screen = deadness
    if dead_screen is not None and deadness.analyses:
        screen = Deadness(deadness.configured, dead_screen)
        screen.searches.update(deadness.searches)  # the winner's full 6.9 answer stands
    from adjudicator.clocks.game_end import game_end  # the endings' rules and rulings: the lenient path's alone

    ended = game_end(replay, replay.final_board, ruleset, screen, SIDES)
    if ended is not None and ended.is_mandatory:
        ended_result = _armageddon(ruleset, ended.result)
        if recorded != ended_result:
            findings.append(_ended(replay, ended, recorded, ended_result))
        return GameCheck(tags, recorded, ended_result, tuple(findings))
    if replay.unreadable:
        return GameCheck(tags, recorded, None, tuple(findings))
    if forfeit is not None and judged is not None:
        lawful, flag_finding = flag_result(
            len(replay.plies), judged.board, judged.reinstated, recorded or "", forfeit, ruleset, services, deadness
        )
        if flag_finding is not None:
            findings.append(flag_finding)
        return GameCheck(tags, recorded, lawful, tuple(findings))
    if recorded is None:
        findings.append(
            Finding("no-result", len(replay.plies), _ref(ruleset, "8.7", "15A"),
                    "The record gives no result and the laws did not end the game: its result cannot be checked.")
        )
    return GameCheck(tags, recorded, recorded, tuple(findings))


def _illegal(replay: Replay, number: int, ruleset: Ruleset, choices: Sequence[Finding] = ()) -> Finding:
    """An illegal move as played; where an earlier token was read one of two ways, the message says so (the
    move may be legal under the other reading: the ``reading`` finding at that ply names it)."""
    ply = replay.plies[number - 1]
    earlier = [c for c in choices if c.ply < number]
    after = "".join(
        f" (Ply {c.ply}, {quoted(c.evidence.get('token', ''))}, was read as {c.evidence['readings'][0]}; it also reads "
        f"as {' or '.join(c.evidence['readings'][1:])}: see the reading finding there.)"
        for c in earlier if c.evidence.get("readings")
    ) + "".join(
        f" (In {LANGUAGE_NAMES.get(c.evidence['language'], c.evidence['language'])} letters the record reads as "
        f"legally from ply {c.ply}: see the reading finding there.)"
        for c in choices if c.evidence.get("language") and c.ply <= number
    )
    return Finding(
        "illegal-move", number, _ref(ruleset, "7.5.1", "11A"),
        f"{replay.label(number)} was illegal as played: {ply.reason}.{after}",
    )


def _reading_choices(replay: Replay, ruleset: Ruleset) -> list[Finding]:
    """The choices the reader made between readings of the record, as ``reading`` findings (as a ruling's
    ``record_notes`` and ``alternative_readings`` show them): each token read two ways legally (``bxc6``: the
    bishop or the b-pawn), with the reading replayed and why; and another language's letters that read every
    move with other moves and no move illegal that the reading replayed has legal (FIDE C.3)."""
    found = [
        Finding("reading", note.ply, _ref(ruleset, "8.1.1", "15A"), f"Ply {note.ply} ({quoted(note.token)!r}): "
                f"{note.note.text}.", {"token": quoted(note.token), "readings": list(note.note.readings)})
        for note in replay.notes if note.note.kind == "two-readings"
    ]
    irregular = {p.number for p in replay.illegal} | {u.ply for u in replay.unreadable}
    for other in replay.alternatives:
        if {p.number for p in other.illegal} | {u.ply for u in other.unreadable} - irregular:
            continue  # that reading makes a move illegal which this one reads as legal
        shown = replay.alternative_json(other)["first_difference"]
        found.append(Finding(
            "reading", shown["ply"], _ref(ruleset, "8.1.1", "15A"),
            f"The record is read in {LANGUAGE_NAMES.get(replay.language, replay.language)} letters "
            f"({replay.reading}); in {LANGUAGE_NAMES.get(other.language, other.language)} letters every move reads "
            f"too, as legally, with other moves: ply {shown['ply']} ({quoted(shown['token'] or '')!r}) is "
            f"{shown['that_reading']} there, not {shown['this_reading']}.",
            {"language": other.language, "token": quoted(shown["token"] or "")},
        ))
    return sorted(found, key=lambda f: f.ply)


def _read_past(note: Note, ruleset: Ruleset) -> Finding:
    """What the reader read past or decided by its stated rule (a stray bracket, a game ended at a blank line)."""
    return Finding(
        "reading", note.ply, _ref(ruleset, "8.1.1", "15A"), f"Ply {note.ply} ({quoted(note.token)!r}): {note.text}.",
        {"token": quoted(note.token)},
    )


def _unreadable(replay: Replay, ruleset: Ruleset) -> Finding:
    bad = replay.unreadable[0]
    hint = f"; it may be {' or '.join(bad.candidates)}" if bad.candidates else ""
    return Finding(
        "unreadable", bad.ply, _ref(ruleset, "8.1.1", "15A"),
        f"Ply {bad.ply} ({quoted(bad.token)!r}) cannot be read as a move: {bad.reason}{hint}. "
        "The record is checked only up to it.",
        {"token": quoted(bad.token), "candidates": list(bad.candidates)},
    )


def _ended(replay: Replay, ended: GameEnd, recorded: str | None, lawful: str) -> Finding:
    later = len(replay.plies) - ended.ply
    after = later_plies(later)
    evidence = {"fen": replay.fen_at(ended.ply), **ended.evidence}
    return Finding(
        _MISMATCH_CODES[ended.kind], ended.ply, ended.articles[0],
        f"{ended.reason}{after} The laws give {lawful}; the record gives {recorded or 'no result'}.",
        evidence,
    )


def _time_forfeit(replay: Replay, recorded: str | None) -> str | None:
    """How the record shows a loss on time (a Termination tag, the loser's last clock at 0), if it does."""
    if recorded not in ("1-0", "0-1"):
        return None
    termination = replay.tag("Termination") or ""
    if _TIME_FORFEIT.search(termination):
        return terminated_on_time(termination)
    loser = chess.BLACK if recorded == "1-0" else chess.WHITE
    for ply in reversed(replay.plies):
        if ply.mover == loser:
            if ply.clock is not None and ply.clock <= 0:
                return clock_at_zero(loser)
            break
    return None


def terminated_on_time(termination: str) -> str:
    """How a Termination tag shows a loss on time (:data:`_TIME_FORFEIT`), in the finding's words."""
    return f'the Termination tag says "{termination}"'


def clock_at_zero(loser: chess.Color) -> str:
    """How the loser's last ``[%clk]`` at zero shows a loss on time, in the finding's words."""
    return f"{'White' if loser else 'Black'}'s last clock reading ([%clk]) is 0:00:00"


def flag_result(
    plies: int,
    board: chess.Board,
    reinstated: Any,
    recorded: str,
    forfeit: str,
    ruleset: ChessRuleset,
    services: Services,
    deadness: Deadness,
) -> tuple[str | None, Finding | None]:
    """A recorded loss on time under the ruleset's no-win test (FIDE 6.9 helpmate, US Chess 14E), judged on
    ``board`` (the position after ``plies`` plies, or the one ``reinstated`` by 7.5.1): the lawful result and
    the finding, if any (also :func:`adjudicator.chess.bulk.check.check_clean`'s)."""
    winner = "white" if recorded == "1-0" else "black"
    color = chess.WHITE if winner == "white" else chess.BLACK
    chance = win_chance(board, winner, color, ruleset.flag.no_win_test, ruleset, services, deadness)
    ply = plies if reinstated is None else reinstated.number - 1
    loser = "Black" if winner == "white" else "White"
    evidence: dict[str, Any] = {"fen": board.fen(), "test": chance.test, "lost_on_time": forfeit, **chance.evidence}
    article = chance.articles[0] if chance.articles else ruleset.ref("6.9")
    if chance.can_win is None:
        return None, Finding(
            "time-forfeit-undecided", ply, article,
            f"{loser} lost on time ({forfeit}); {' '.join(chance.reasons)} The arbiter decides the result.",
            evidence,
        )
    if chance.can_win:
        return recorded, None
    lawful = _armageddon(ruleset, "1/2-1/2")
    if lawful == recorded:
        return lawful, None
    return lawful, Finding(
        "time-forfeit-unwinnable", ply, article,
        f"{loser} lost on time ({forfeit}), but {' '.join(chance.reasons)} The game is drawn.",
        evidence,
    )


def _armageddon(ruleset: ChessRuleset, result: str) -> str:
    """Armageddon (``flag.armageddon``): a draw counts as a win for ``flag.armageddon_draw_winner``."""
    if result != "1/2-1/2" or not ruleset.flag.armageddon:
        return result
    return "1-0" if ruleset.flag.armageddon_draw_winner == "white" else "0-1"
