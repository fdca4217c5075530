"""The page's comparison of the two scoresheets (web/static/scoresheet-switch.js, run by Debian's Chromium) is the
server's (adjudicator.scoresheets.compare_scoresheets, the one the form and the ruling show), on random pairs of
scoresheets of both games: one the TD is entering on the board, the other already there.

The page compares the sheet being entered, which is unfinished: where it finds a difference, it is the server's
first difference, with the same two moves; where it finds none, the server finds none either, or finds only
that the sheet being entered ends before the other (what the TD has still to enter)."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from adjudicator.checkers.board import START, Position
from adjudicator.scoresheets import Reading, compare_scoresheets
from web.claims.checkers_entry import reading
from web.claims.entry import read_record

pytestmark = pytest.mark.browser

CASES = 60


@pytest.fixture
def page(live_server: str, phone: Any) -> Any:
    """The claim form, with scoresheet-switch.js imported as window.sheets (the file the entry boards load)."""
    phone.goto(f"{live_server}/claims/new")
    src = phone.get_attribute('script[src*="chess-entry.js"]', "src")
    phone.evaluate("async (src) => { window.sheets = await import(src.replace('chess-entry', 'scoresheet-switch')) }",
                   src)
    return phone


def chess_text(sans: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {s}" if i % 2 == 0 else s for i, s in enumerate(sans))


def random_chess(rng: random.Random, board: chess.Board, plies: int) -> list[str]:
    sans: list[str] = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        sans.append(board.san(move))
        board.push(move)
    return sans


def chess_pair(rng: random.Random) -> tuple[list[str], list[str]]:
    """Two scoresheets of one game: the same, one a prefix of the other, or apart from a random ply on."""
    base = random_chess(rng, chess.Board(), rng.randint(1, 40))
    kind = rng.choice(["same", "shorter", "longer", "apart", "apart", "unreadable"])
    if kind == "same":
        return base, list(base)
    if kind == "shorter":
        return base, base[:rng.randint(1, len(base))]
    if kind == "longer":
        board = chess.Board()
        for san in base:
            board.push_san(san)
        return base, base + random_chess(rng, board, rng.randint(1, 6))
    at = rng.randint(0, len(base) - 1)
    if kind == "unreadable":  # a token the reader stops at, as the server reads it: Nz9 is no square
        return base, [*base[:at], "Nz9", *base[at + 1:]]
    board = chess.Board()
    for san in base[:at]:
        board.push_san(san)
    other = [m for m in board.legal_moves if board.san(m) != base[at]]
    if not other:
        return base, list(base)
    move = rng.choice(other)
    head = [*base[:at], board.san(move)]
    board.push(move)
    return base, head + random_chess(rng, board, rng.randint(0, 10))


def pdn_text(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def random_checkers(rng: random.Random, position: Position, plies: int) -> list[str]:
    moves: list[str] = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(str(move))
        position = position.push(move)
    return moves


def checkers_pair(rng: random.Random) -> tuple[list[str], list[str]]:
    base = random_checkers(rng, START, rng.randint(1, 40))
    kind = rng.choice(["same", "shorter", "apart", "apart"])
    if kind == "same":
        return base, list(base)
    if kind == "shorter":
        return base, base[:rng.randint(1, len(base))]
    at = rng.randint(0, len(base) - 1)
    position = START
    for text in base[:at]:
        position = position.push(next(m for m in position.legal_moves() if str(m) == text))
    other = [m for m in position.legal_moves() if str(m) != base[at]]
    if not other:
        return base, list(base)
    move = rng.choice(other)
    return base, [*base[:at], str(move), *random_checkers(rng, position.push(move), rng.randint(0, 10))]


def page_compares(page: Any, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per case, the page's first difference with the sheet ``current`` on the board, and both moves there."""
    return list(page.evaluate("""(cases) => cases.map((c) => {
        const checkers = (plies) => sheets.checkersPlies(plies.map((p) => ({text: p.token, path: p.path})), c.red_first)
        const norm = (read) => c.game === "chess"
          ? sheets.withUnreadable(read.plies.map(sheets.chessPly), read.unreadable)
          : sheets.withUnreadable(checkers(read.plies), read.unreadable, (token) => token)
        const current = norm(c.current), other = norm(c.other)
        const ply = sheets.firstDifference(current, other)
        return {ply, current: ply && current[ply - 1] ? current[ply - 1].written : null,
                other: ply && other[ply - 1] ? other[ply - 1].written : null}
      })""", cases))


def written(reading: Reading) -> str | None:
    """How the page names the move of a scoresheet's reading: as the server does, or the token it cannot read."""
    if reading.move is not None:
        return reading.move
    if reading.token is not None:
        return f"“{reading.token}”, which cannot be read"
    return None


def check(cases: list[dict[str, Any]], found: list[dict[str, Any]]) -> int:
    differ = 0
    for case, page in zip(cases, found, strict=True):
        server = compare_scoresheets(case["game"], case["claimant_text"], case["opponent_text"])
        assert server.problem is None, server.problem
        on_board = case["on_board"]
        if page["ply"] is not None:
            differ += 1
            assert page["ply"] == server.first_difference, case
            assert server.claimant is not None and server.opponent is not None
            mine, theirs = (server.claimant, server.opponent) if on_board == "claimant" else \
                (server.opponent, server.claimant)
            assert page["current"] == written(mine) and page["other"] == written(theirs), (case, server.sentence())
        else:
            entered = len(case["current"]["plies"]) + bool(case["current"]["unreadable"])
            assert server.first_difference in (None, entered + 1), (case, server.sentence())
    return differ


def test_the_page_finds_the_servers_first_difference_in_chess(page: Any) -> None:
    rng = random.Random(37)
    cases = []
    for n in range(CASES):
        claimant, opponent = chess_pair(rng)
        texts = {"claimant": chess_text(claimant), "opponent": chess_text(opponent)}
        on_board = "opponent" if n % 2 == 0 else "claimant"
        off = "claimant" if on_board == "opponent" else "opponent"
        cases.append({"game": "chess", "claimant_text": texts["claimant"], "opponent_text": texts["opponent"],
                      "on_board": on_board, "current": read_record(texts[on_board], None),
                      "other": read_record(texts[off], None)})
    found = page_compares(page, cases)
    differ = check(cases, found)
    assert 0 < differ < CASES, "both kinds of pair: some differ, some agree so far"
    assert any("cannot be read" in (f["current"] or "") + (f["other"] or "") for f in found), "an unreadable token"


def test_the_page_finds_the_servers_first_difference_in_checkers(page: Any) -> None:
    rng = random.Random(5)
    cases = []
    for n in range(CASES):
        claimant, opponent = checkers_pair(rng)
        texts = {"claimant": pdn_text(claimant), "opponent": pdn_text(opponent)}
        on_board = "opponent" if n % 2 == 0 else "claimant"
        off = "claimant" if on_board == "opponent" else "opponent"
        cases.append({"game": "checkers", "claimant_text": texts["claimant"], "opponent_text": texts["opponent"],
                      "on_board": on_board, "current": reading(texts[on_board]),
                      "other": reading(texts[off]), "red_first": START.red_to_move})
    differ = check(cases, page_compares(page, cases))
    assert 0 < differ < CASES, "both kinds of pair: some differ, some agree so far"
