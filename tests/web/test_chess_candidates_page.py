"""The chess entry board's candidates as the page works them out (web/static/chess-candidates.js, run by
Debian's Chromium) are the server's (adjudicator.chess.candidates), on the positions of real games: the
page's own first candidates are the server's ranking without the book and the engine, and the row is laid
out alike (the split row of issue 37 item 4: the likeliest first, then by piece and square), so that the
bench's figures (bench/entry.py, which ranks and lays out with the server's code) are the page's.

The games: the first 20 of lichess's 500 production games (tests/data/lichess-prod500.txt, see
tests/data/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import pytest

from adjudicator.chess.candidates import Candidate, rank, row_order
from adjudicator.chess.replay import repetition_key

pytestmark = pytest.mark.browser

GAMES = Path(__file__).resolve().parent.parent / "data" / "lichess-prod500.txt"


@pytest.fixture
def page(live_server: str, phone: Any) -> Any:
    """The claim form, with chess-candidates.js as window.cands and chess.js's Chess as window.Chess."""
    phone.goto(f"{live_server}/claims/new?claim=threefold-repetition")
    phone.wait_for_selector("[data-chess-entry][data-ready='2']", state="attached")
    src = phone.get_attribute('script[src*="chess-entry.js"]', "src")
    chess_js = phone.get_attribute("[data-chess-entry]", "data-chess-js")
    phone.evaluate("""async ([src, chessJs]) => {
      window.cands = await import(src.replace('chess-entry', 'chess-candidates'))
      window.Chess = (await import(chessJs)).Chess
    }""", [src, chess_js])
    return phone


def positions() -> list[dict[str, Any]]:
    """Each position of the games: its FEN, the earlier positions a move could return to (FENs, the same
    side to move since the last capture or pawn move, as the page sends them), the last move, and the
    server's ranking without book and engine (UCI)."""
    found: list[dict[str, Any]] = []
    for line in GAMES.read_text().splitlines()[:20]:
        board = chess.Board()
        fens = [board.fen()]
        last: chess.Move | None = None
        for san in line.split():
            halfmoves = board.halfmove_clock
            seen = [fens[i] for i in range(len(fens) - 2, max(-1, len(fens) - 2 - halfmoves), -2)][::-1]
            ranked = rank(board, [repetition_key(chess.Board(f)) for f in seen], (), (), last)
            found.append({"fen": board.fen(), "seen": seen, "last": last.uci() if last else None,
                          "server": [c.move.uci() for c in ranked], "sans": [c.san for c in ranked],
                          "row": [c.move.uci() for c in row_order(ranked)]})
            last = board.push_san(san)
            fens.append(board.fen())
    return found


def test_the_pages_first_candidates_and_row_are_the_servers_on_real_games(page: Any) -> None:
    cases = positions()
    assert len(cases) > 500
    answers = page.evaluate("""(cases) => cases.map((c) => {
      const game = new Chess(c.fen)
      const local = cands.localCandidates(game, {seen: c.seen, last: c.last})
      const server = c.server.map((uci, i) => ({uci, san: c.sans[i]}))
      return [local.map((m) => m.uci), cands.rowLayout(server).map((x) => x.candidate.uci)]
    })""", cases)
    for case, (local, row) in zip(cases, answers, strict=True):
        assert local == case["server"], case["fen"]
        assert row == case["row"], case["fen"]


def test_the_row_keeps_a_moves_place_whatever_its_rank(page: Any) -> None:
    board = chess.Board()
    ranked = [Candidate(m, board.san(m), "book") for m in map(board.parse_san, ("e4", "d4", "Nf3", "c4", "Nc3", "g3"))]
    for order in (ranked, [ranked[0], *reversed(ranked[1:])]):
        row = page.evaluate("(cs) => cands.rowLayout(cs).map((x) => [x.candidate.san, x.group])",
                            [{"uci": c.move.uci(), "san": c.san} for c in order])
        assert row == [["e4", "first"], ["Nc3", "N"], ["Nf3", "N"], ["c4", "P"], ["d4", "P"], ["g3", "P"]]
        assert [c.san for c in row_order(order)] == [san for san, _ in row]
