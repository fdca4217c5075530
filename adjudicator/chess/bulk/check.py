"""A clean game's recorded result against the laws, as :func:`adjudicator.chess.collection.check_chess` checks it.

:func:`check_clean` gives the same :class:`~adjudicator.findings.GameCheck` for a game the
compiled reader replayed (:func:`.games.read`), or None where the game needs more than
this module decides (the caller then checks :meth:`.games.CleanGame.raw` with
``check_chess``): a position given that has ended the game already, occurrences that must
be consecutive (US Chess 14K). An ending the laws imposed (checkmate, stalemate, a fifth
occurrence, 75 moves, a dead position) with another result recorded gets ``check_chess``'s
finding from ``game_end`` asked of the game's :func:`.games.as_replay` (the moves the
compiled reader read, replayed without reading their words again). A loss on time (a
Termination tag, the loser's last ``[%clk]`` at zero) is checked here as ``check_chess``
checks it: the 6.9 question asked of the final position first (its answer stands in the
dead-position test), then :func:`adjudicator.chess.collection.flag_result`.

The dead-position test (5.2.2) of the final position is the collection check's own
(:class:`adjudicator.clocks.dead_position.Deadness` with the oracle ``check_chess`` gets),
asked on the same board. Only where that oracle says it answers *undecided* for a plainly
open position (``open_positions_undecided``, the quick screen
``engines.chess.unwinnable.screen.DeadScreen``), and the compiled reader found the
position so (two legal moves or more, a side whose material can mate with a queen, rook or
knight that steps at once into the loser king's walk), or checkmate, is it not asked: its
answer would be "alive".
"""

from __future__ import annotations

import chess

from adjudicator.chess.collection import (
    _TIME_FORFEIT,
    RESULTS,
    SIDES,
    _armageddon,
    _ended,
    _ref,
    clock_at_zero,
    flag_result,
    recorded_result,
    terminated_on_time,
)
from adjudicator.chess.positions import position_problem
from adjudicator.clocks.dead_position import Deadness
from adjudicator.findings import Finding, GameCheck
from adjudicator.rulesets import ChessRuleset
from adjudicator.services import MateOracle, Services

from .games import BulkReplay, CleanGame, as_replay, read


def check_clean(
    game: CleanGame, ruleset: ChessRuleset, services: Services, dead_screen: MateOracle | None = None
) -> GameCheck | None:
    """``check_chess(game.raw(), ruleset, services, dead_screen)``, or None (see the module docstring)."""
    found = checked_or_why(game, ruleset, services, dead_screen)
    return found if isinstance(found, GameCheck) else None


FALLBACK_REASONS = {
    "not-read": "the compiled reader did not read every move (a language to choose, an illegal move...)",
    "start-ended": "the position given has ended the game already",
    "lost-on-time": "a loss on time judged on a position before the last (7.5.1)",
    "consecutive": "occurrences that must be consecutive (US Chess 14K)",
    "ending-mismatch": "an ending with another result recorded that game_end does not find as this module did",
}
"""Why :func:`check_clean` left a game to ``check_chess`` (:func:`checked_or_why`), in a reader's words."""


def checked_or_why(
    game: CleanGame, ruleset: ChessRuleset, services: Services, dead_screen: MateOracle | None = None
) -> GameCheck | str:
    """:func:`check_clean`'s check, or the key in :data:`FALLBACK_REASONS` of why it leaves the game to
    ``check_chess`` (``bench/check_games.py`` counts them)."""
    replay = read(game, None, ruleset.record.language or None)
    if replay is None or replay.scanned.facts is None:
        return "not-read"
    if replay.start is not None and _start_ended(replay, ruleset):
        return "start-ended"
    tags = tuple(game.tags)
    recorded = replay.result if replay.result in RESULTS else None
    findings: list[Finding] = []
    tag = recorded_result(game.tag("Result"))
    if tag is not None and recorded is not None and tag != recorded:
        findings.append(
            Finding("result-conflict", replay.plies, _ref(ruleset, "8.7", "15A"),
                    f"The Result tag says {tag} but the moves end with {recorded}; {recorded} is taken as recorded.")
        )
    mate, _, _, _, _, _, white_clock, black_clock = replay.scanned.facts
    forfeit = final = searched = None
    if recorded in ("1-0", "0-1"):  # a loss on time: check_chess's _time_forfeit, then the 6.9 question first
        termination = dict(tags).get("Termination") or ""  # Replay.tag: the last of that name
        if _TIME_FORFEIT.search(termination):
            forfeit = terminated_on_time(termination)
        elif (black_clock if recorded == "1-0" else white_clock) == 0:
            forfeit = clock_at_zero(chess.BLACK if recorded == "1-0" else chess.WHITE)
    if forfeit is not None:
        final = chess.Board(replay.final_fen)
        if position_problem(final) is not None:
            return "lost-on-time"  # judged on an earlier position (7.5.1): the lenient replay has them
        searched = Deadness(ruleset.flag.dead_position, services.mate)
        if ruleset.flag.no_win_test == "helpmate" and searched.analyses and not final.is_insufficient_material():
            searched.search(final, chess.WHITE if recorded == "1-0" else chess.BLACK)
    drawn = _drawn(replay, ruleset, services, dead_screen, searched)
    if drawn is None:
        return "consecutive"
    if drawn or mate:
        if drawn:
            lawful = _armageddon(ruleset, "1/2-1/2")
        else:
            mover_white = (replay.plies % 2 == 1) == (_start_turn(replay) == chess.WHITE)
            lawful = _armageddon(ruleset, "1-0" if mover_white else "0-1")
        if recorded != lawful:
            found = _ending_finding(replay, ruleset, services, dead_screen, searched, recorded, lawful)
            if found is None:
                return "ending-mismatch"
            findings.append(found)
        return GameCheck(tags, recorded, lawful, tuple(findings))
    if forfeit is not None and final is not None and searched is not None:
        lawful_result, flag_finding = flag_result(replay.plies, final, None, recorded or "", forfeit, ruleset,
                                                  services, searched)
        if flag_finding is not None:
            findings.append(flag_finding)
        return GameCheck(tags, recorded, lawful_result, tuple(findings))
    if recorded is None:
        findings.append(
            Finding("no-result", replay.plies, _ref(ruleset, "8.7", "15A"),
                    "The record gives no result and the laws did not end the game: its result cannot be checked.")
        )
    return GameCheck(tags, recorded, recorded, tuple(findings))


def _ending_finding(
    replay: BulkReplay, ruleset: ChessRuleset, services: Services, dead_screen: MateOracle | None,
    searched: Deadness | None, recorded: str | None, lawful: str,
) -> Finding | None:
    """``check_chess``'s finding for an ending the laws imposed with another result recorded: ``game_end`` asked
    of the game's :func:`.games.as_replay` with the test ``check_chess`` builds (the 6.9 search of a loss on
    time standing in it); None where that ending is not the one found here (then the lenient reader decides)."""
    deadness = searched if searched is not None else Deadness(ruleset.flag.dead_position, services.mate)
    screen = deadness
    if dead_screen is not None and deadness.analyses:
        screen = Deadness(deadness.configured, dead_screen)
        screen.searches.update(deadness.searches)
    from adjudicator.clocks.game_end import game_end  # the endings' rules and rulings: only for a mismatch

    built = as_replay(replay)
    ended = game_end(built, built.final_board, ruleset, screen, SIDES)
    if ended is None or not ended.is_mandatory or _armageddon(ruleset, ended.result) != lawful:
        return None
    return _ended(built, ended, recorded, lawful)


def _start_turn(replay: BulkReplay) -> chess.Color:
    return chess.WHITE if replay.start is None else replay.start.board.turn


def _start_ended(replay: BulkReplay, ruleset: ChessRuleset) -> bool:
    """A position given (FEN) that has ended the game, or lets the TD end it, by itself (ply 0)."""
    assert replay.start is not None
    board = replay.start.board
    limit = 2 * ruleset.move_rule.automatic_moves
    return not any(board.generate_legal_moves()) or (
        ruleset.move_rule.automatic != "none" and board.halfmove_clock >= limit
    )


def _drawn(
    replay: BulkReplay, ruleset: ChessRuleset, services: Services, dead_screen: MateOracle | None,
    searched: Deadness | None = None,
) -> bool | None:
    """Whether an ending that draws by itself (mandatory) came in the record: stalemate, a fifth occurrence,
    75 moves, a dead position (``game_end`` takes the earliest; with every move legal a checkmate can only be
    the last move, so any of these comes first). None where this module cannot tell (consecutive
    occurrences under US Chess 14K). ``searched``: the test that asked the 6.9 question of the final position
    (a loss on time): its answer stands in the dead-position test, as in ``check_chess``."""
    assert replay.scanned.facts is not None
    mate, stalemate, most, highest, dead_material, open_, _, _ = replay.scanned.facts
    if stalemate:
        return True
    repetition = ruleset.repetition
    if repetition.automatic == "mandatory" and most >= repetition.automatic_occurrences:
        return None if repetition.automatic_consecutive else True
    if ruleset.move_rule.automatic == "mandatory" and highest >= 2 * ruleset.move_rule.automatic_moves:
        return True
    deadness = searched if searched is not None else Deadness(ruleset.flag.dead_position, services.mate)
    if dead_material or deadness.mode != "helpmate":
        return dead_material  # material and material-then-td: only the listed endings end the game
    oracle = dead_screen if dead_screen is not None else services.mate
    if searched is None and getattr(oracle, "open_positions_undecided", False) and (mate or open_):
        return False
    screen = deadness
    if dead_screen is not None:
        screen = Deadness(deadness.configured, dead_screen)
        screen.searches.update(deadness.searches)  # the winner's full 6.9 answer stands (check_chess)
    return screen.is_dead(chess.Board(replay.final_fen))
