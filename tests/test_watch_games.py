"""The facts of one live game the watch reads (adjudicator/watch/chess_game.py, checkers_game.py).

A position that only looks repeated raises nothing (FIDE 9.2.3); a dead position (5.2.2), a mate with play
going on (5.1.1), fifty moves (9.3.2), a draw before the event's move (us-senior: no draw before move 30),
and the checkers PDN facts (WCDF 2008 draw rules (a), (b); a flag under the match-clock rule).
"""

from __future__ import annotations

from adjudicator.rulesets import RulesetBook
from adjudicator.watch import SourceFile, Watcher, WatchState
from engines.chess.unwinnable import UnwinnabilityAnalyser
from tests.watch_round import pgn


def kinds(book: RulesetBook, ruleset: str, text: str, name: str = "games.pgn") -> list[tuple[str, str, int]]:
    alerts, _ = Watcher(book[ruleset]).watch([SourceFile(name, text)], WatchState())  # type: ignore[arg-type]
    return [(a.kind, a.action, a.ply) for a in alerts]


def test_a_position_that_only_looks_repeated_raises_nothing(book: RulesetBook) -> None:
    # after 1...Nf6 White may still castle short; after 3...Nf6 and 5...Nf6 the rook has moved: 2 occurrences
    moves = ["Nf3", "Nf6", "Rg1", "Ng8", "Rh1", "Nf6", "Rg1", "Ng8", "Rh1", "Nf6"]
    assert kinds(book, "fide-standard", pgn(moves, 1, "A", "B")) == []
    # with the castling rights gone the same positions come round: the third occurrences from ply 11 on
    assert kinds(book, "fide-standard", pgn([*moves, "Rg1", "Ng8", "Rh1", "Nf6"], 1, "A", "B")) == [
        ("threefold-available", "claimable", ply) for ply in (11, 12, 13, 14)]


def test_en_passant_rights_make_another_position(book: RulesetBook) -> None:
    # 1.e4 Nf6 2.e5 d5: e5xd6 possible once; the same squares later without it
    moves = ["e4", "Nf6", "e5", "d5", "Nf3", "Nbd7", "Ng1", "Nb8", "Nf3", "Nbd7", "Ng1", "Nb8"]
    assert kinds(book, "fide-standard", pgn(moves, 1, "A", "B")) == []


def test_mate_with_play_going_on(book: RulesetBook) -> None:
    mate = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert kinds(book, "fide-standard", pgn(mate, 1, "A", "B")) == []  # the game ended there: nothing to do
    assert kinds(book, "fide-standard", pgn([*mate, "Kxf7", "Bxf7"], 1, "A", "B"))[0] == ("checkmate", "act", 7)
    assert kinds(book, "uschess", pgn([*mate, "Kxf7", "Bxf7"], 1, "A", "B"))[0] == ("checkmate", "act", 7)


def test_bare_kings_end_the_game(book: RulesetBook) -> None:
    text = ('[Round "1.1"]\n[White "A"]\n[Black "B"]\n[SetUp "1"]\n[FEN "8/8/4k3/8/3p4/4K3/8/8 w - - 0 1"]\n\n'
            "1. Kxd4 Kd6 2. Kc4 *\n")
    assert kinds(book, "fide-standard", text) == [("dead-position", "act", 1)]
    assert kinds(book, "uschess", text) == [("dead-position", "act", 1)]


def test_fifty_moves_are_claimable_once_per_stretch(book: RulesetBook) -> None:
    text = ('[Round "1.1"]\n[White "A"]\n[Black "B"]\n[SetUp "1"]\n[FEN "8/8/4k3/8/8/4K3/8/R7 w - - 98 60"]\n\n'
            "60. Ra2 Kd6 61. Ra1 Ke6 *\n")
    assert kinds(book, "fide-standard", text) == [("fifty-available", "claimable", 2)]


def test_a_draw_before_the_events_move_is_an_event_rule(book: RulesetBook) -> None:
    text = pgn(["e4", "e5", "Nf3", "Nc6"], 1, "A", "B", result="1/2-1/2")
    assert kinds(book, "us-senior", text) == [("early-draw", "event-rule", 4)]
    assert kinds(book, "fide-standard", text) == []


def test_a_flag_the_arbiter_calls_says_what_the_call_gives(book: RulesetBook) -> None:
    """FIDE 6.8 and 6.9: Black's flag falls. Against a king and queen Black loses; against a bare king the game
    is drawn, for White cannot checkmate by any series of legal moves. Without the unwinnability analysis, only
    material settles it: a king and queen may still be unable to mate, so the arbiter is told to check."""
    def flag(fen: str, mate: UnwinnabilityAnalyser | None = None) -> tuple[str, tuple[str, ...]]:
        text = (f'[Round "1.1"]\n[White "A"]\n[Black "B"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n'
                "60. Kd2 {[%clk 0:10:00]} Ke7 {[%clk 0:00:00]} *\n")
        watcher = Watcher(book["fide-standard"], mate)  # type: ignore[arg-type]
        alerts, _ = watcher.watch([SourceFile("games.pgn", text)], WatchState())
        (alert,) = [a for a in alerts if a.kind == "flag-down"]
        assert alert.action == "act"
        return alert.reason, alert.rule_refs

    won, refs = flag("4k3/8/8/8/8/8/8/3QK3 w - - 0 60", UnwinnabilityAnalyser())
    assert won.endswith("White can checkmate: Black loses on time.") and refs == ("FIDE 6.8", "FIDE 6.9")
    drawn, _ = flag("4k3/8/8/8/8/8/8/q3K3 w - - 0 60")
    assert drawn.endswith("White cannot checkmate by any series of legal moves: the game is drawn.")
    unknown, _ = flag("4k3/8/8/8/8/8/8/3QK3 w - - 0 60")
    assert unknown.endswith("Black loses on time if White can checkmate by a series of legal moves; the arbiter "
                            "checks.")


PDN = """[Event "Checkers open"]
[Round "2.4"]
[Black "Red Player"]
[White "White Player"]
[Result "*"]

1. 11-15 {[%clk 0:29:00]} 23-19 {[%clk 0:29:00]} 2. 8-11 {[%clk 0:28:00]} 22-17 {[%clk 0:00:00]} *
"""


def test_a_checkers_pdn_game(book: RulesetBook) -> None:
    found = kinds(book, "acf", PDN, "round.pdn")
    assert found == [("flag-down", "act", 4)]
    missing = PDN.replace(" {[%clk 0:28:00]}", "")
    assert ("missing-clock", "check-board", 3) in kinds(book, "acf", missing, "round.pdn")
    alerts, _ = Watcher(book.checkers("acf")).watch([SourceFile("round.pdn", PDN)], WatchState())
    assert alerts[0].board == 4 and alerts[0].players == ("Red Player", "White Player")
    assert alerts[0].rule_refs == ("ACF tournament rules (time forfeit)",)
