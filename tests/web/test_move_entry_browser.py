"""Entering a record on the chess entry board of the claim form, on a 390x844 touch phone in Debian's
Chromium (issue 21): a real 45-move game entered by taps (candidates and two-tap moves) that ends in a
threefold repetition, ruled on; a typed record that the board and the chips follow, and a step back to
any ply; a move accepted within 100 ms of the tap; an illegal move entered on purpose; a promotion;
the keypad; the page's fit, accessibility and tap targets; no CSP violation. Screenshots:
tests/artifacts/entry-*.png.

The real game: lichess game #337 of scalachess's 500 production games (tests/data/lichess-prod500.txt,
see tests/data/README.md), 89 plies, whose last move brings the position about for the third time
(Black, to move, claims)."""

from __future__ import annotations

import io
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from adjudicator.chess.candidates import PIECE_ORDER, SHOWN, row_key
from adjudicator.chess.replay import replay_chess
from tests.web.conftest import ARTIFACTS, PHONE, shot
from tests.web.phone_support import check_page

pytestmark = pytest.mark.browser

GAMES = Path(__file__).resolve().parent.parent / "data" / "lichess-prod500.txt"
THREEFOLD_GAME = 337
ENTRY = "[data-chess-entry]"
BOARD = "[data-move-entry]"

WATCH = """() => {
  // every write of the record field, and every tap, with performance.now()
  const field = document.querySelector('#f-record')
  const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
  window.__writes = []; window.__taps = []
  Object.defineProperty(field, 'value', {configurable: true, get() { return native.get.call(this) },
    set(v) { native.set.call(this, v); window.__writes.push(performance.now()) }})
  document.addEventListener('pointerdown', () => window.__taps.push(performance.now()), {capture: true})
  // the network answers a write waited for: requests sent at or after the tap and answered by the write
  performance.setResourceTimingBufferSize(100000)
  window.__waited = (tap, write) => performance.getEntriesByType('resource')
    .filter((e) => e.startTime >= tap && e.responseEnd > 0 && e.responseEnd <= write).map((e) => e.name)
}"""

CSP_WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def real_game(number: int) -> list[str]:
    return GAMES.read_text().splitlines()[number - 1].split()


def open_entry(page: Any, base: str, claim: str = "threefold-repetition") -> list[str]:
    """The claim form with the entry board ready; the console's CSP complaints are collected."""
    complaints: list[str] = []
    page.on("console", lambda m: complaints.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(CSP_WATCH)
    page.goto(f"{base}/claims/new?claim={claim}")
    page.wait_for_selector(f"{ENTRY}[data-ready='2']")
    page.locator(ENTRY).scroll_into_view_if_needed()
    return complaints


def no_csp_violation(page: Any, complaints: list[str]) -> None:
    assert complaints == [] and page.evaluate("() => window.__csp") == [], complaints


def square(page: Any, name: str) -> Any:
    return page.locator(f'{BOARD} rect[data-square="{name}"]')


def candidates_ready(page: Any, ply: int) -> None:
    page.wait_for_selector(f'[data-candidates][data-ply="{ply}"][aria-busy="false"]', state="attached")


def shown_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'{BOARD}[data-ply="{ply}"]', state="attached")


def board_pieces(page: Any) -> dict[str, str]:
    """The entry board's pieces as drawn: square -> cm-chessboard's piece name (``wp``, ``bk``)."""
    found = page.evaluate(f"""() => Object.fromEntries(
        [...document.querySelectorAll('{BOARD} g[data-piece][data-square]')]
        .map((g) => [g.dataset.square, g.dataset.piece]))""")
    return {str(k): str(v) for k, v in found.items()}


def drawn_pieces(page: Any, expected: dict[str, str], seconds: float = 10.0) -> dict[str, str]:
    """The entry board's pieces once they are ``expected``, or as drawn after ``seconds``: cm-chessboard
    animates a move, so the board may still show the piece on its way just after the ply is shown."""
    until = time.monotonic() + seconds
    drawn = board_pieces(page)
    while drawn != expected and time.monotonic() < until:
        page.wait_for_timeout(50)
        drawn = board_pieces(page)
    return drawn


def pieces_of(board: chess.Board) -> dict[str, str]:
    return {chess.square_name(sq): ("w" if p.color else "b") + p.symbol().lower()
            for sq, p in board.piece_map().items()}


def record_moves(text: str) -> list[str]:
    """The record field's moves, read by python-chess (SAN)."""
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, game.errors if game else text
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def when(page: Any, selector: str, answer: str) -> Any:
    """The value of the expression ``answer`` in the page once ``selector`` is attached: a wait and a read in
    one round trip (a 45-move game entered by taps makes hundreds of them). Compiled by the driver, not by the
    page: the page's Content-Security-Policy forbids eval, and this test watches for violations."""
    return page.evaluate(f"""async () => {{
      while (!document.querySelector({json.dumps(selector)})) await new Promise((r) => requestAnimationFrame(r))
      return {answer}
    }}""")


def tap_move(page: Any, board: chess.Board, move: chess.Move, is_candidate: bool | None = None) -> str:
    """Enter ``move`` as a TD would: its candidate button when it is one (``is_candidate``, if already read),
    else the piece and its square (and the promotion piece). Returns how: ``candidate`` or ``two taps``."""
    candidate = page.locator(f'[data-candidate="{move.uci()}"]')
    if candidate.count() if is_candidate is None else is_candidate:
        candidate.tap()
        return "candidate"
    target = move.to_square
    if board.is_castling(move):
        target = chess.square(6 if board.is_kingside_castling(move) else 2, chess.square_rank(move.from_square))
    square(page, chess.square_name(move.from_square)).tap(force=True)
    square(page, chess.square_name(target)).tap(force=True)
    if move.promotion:
        colour = "w" if board.turn else "b"
        page.locator(f'.promotion-dialog-button[data-piece="{colour}{chess.piece_symbol(move.promotion)}"]').tap(force=True)
    return "two taps"


def test_a_real_45_move_game_entered_by_taps_ends_in_threefold_and_the_claim_is_upheld(
        live_server: str, phone: Any) -> None:
    sans = real_game(THREEFOLD_GAME)
    assert len(sans) == 89
    complaints = open_entry(phone, live_server)
    phone.check('input[name="claimant"][value="black"]', force=True)
    phone.evaluate(WATCH)
    board = chess.Board()
    how: dict[str, int] = {"candidate": 0, "two taps": 0}
    latencies: list[float] = []
    for ply, san in enumerate(sans):
        move = board.parse_san(san)
        taps_before, is_candidate = when(  # the candidates ready (candidates_ready), the taps so far, the move's
            phone, f'[data-candidates][data-ply="{ply}"][aria-busy="false"]',  # button
            f"[window.__taps.length, document.querySelector('[data-candidate=\"{move.uci()}\"]') !== null]")
        how[tap_move(phone, board, move, is_candidate)] += 1
        board.push(move)
        taps, writes, waited = when(phone, f'{BOARD}[data-ply="{ply + 1}"]',  # shown (shown_ply), then the times
                                    "[window.__taps, window.__writes,"
                                    " window.__waited(window.__taps.at(-1), window.__writes.at(-1))]")
        latencies.append(writes[-1] - taps[-1] if len(taps) > taps_before else float("nan"))
        assert waited == [], f"ply {ply + 1} was written only after the network answered {waited}"
        if ply == 30:
            shot(phone, "entry-1-game-in-progress")
            check_page(phone, live_server, "entry-1-game-in-progress-axe")
    load = os.getloadavg()[0]
    print(f"\nentered {len(sans)} plies: {how['candidate']} by a candidate, {how['two taps']} by two taps "
          f"({(how['candidate'] + 2 * how['two taps']) / len(sans):.2f} taps a ply); first move accepted "
          f"{latencies[0]:.1f} ms after its tap, median {sorted(latencies)[len(latencies) // 2]:.1f} ms, "
          f"max {max(latencies):.1f} ms; load average {load:.2f} on {os.cpu_count()} cores")
    # the cause, not the milliseconds (issue 41; the times are bench/entry.py's): no move waited for the network
    assert how["candidate"] > 0 and how["two taps"] > 0, how
    text = phone.input_value("#f-record")
    assert record_moves(text) == sans, "the record field holds the game, move for move"
    assert drawn_pieces(phone, pieces_of(board)) == pieces_of(board)
    replay = replay_chess(text)
    assert len(replay.occurrences(len(replay.plies))) == 3, "the server reads the same game: the position thrice"
    shot(phone, "entry-2-game-entered")
    no_csp_violation(phone, complaints)
    phone.click("#claim-submit")
    phone.wait_for_url(re.compile(r"/rulings/\d+"))
    assert phone.inner_text("#verdict").lower() == "upheld"
    assert phone.inner_text("#result") == "½–½"
    shot(phone, "entry-3-threefold-upheld")


def test_a_typed_record_redraws_the_board_and_the_chips_and_any_ply_can_be_shown(live_server: str, phone: Any) -> None:
    sans = real_game(1)[:30]
    complaints = open_entry(phone, live_server)
    board = chess.Board()
    numbered = []
    for i, san in enumerate(sans):
        numbered.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
    phone.fill("#f-record", " ".join(numbered))
    shown_ply(phone, 30)
    for san in sans:
        board.push_san(san)
    assert phone.locator("[data-chips] button[data-ply]").count() == 31, "a chip for each ply, and the start"
    assert drawn_pieces(phone, pieces_of(board)) == pieces_of(board)
    # step to ply 12: the board shows that position, the record stays whole
    phone.locator('[data-chips] button[data-ply="12"]').tap()
    shown_ply(phone, 12)
    at_12 = chess.Board()
    for san in sans[:12]:
        at_12.push_san(san)
    assert drawn_pieces(phone, pieces_of(at_12)) == pieces_of(at_12)
    assert phone.get_attribute('[data-chips] button[data-ply="12"]', "aria-current") == "step"
    assert record_moves(phone.input_value("#f-record")) == sans
    # White at the bottom, the a-file on the left
    box = {name: square(phone, name).bounding_box() for name in ("a1", "h1", "a8")}
    assert box["a1"]["y"] > box["a8"]["y"] and box["a1"]["x"] < box["h1"]["x"]
    # the arrows step too
    phone.locator(f"{ENTRY} [data-next]").tap()
    shown_ply(phone, 13)
    # flipped: Black at the bottom, the squares keep their names
    phone.locator(f"{ENTRY} [data-flip]").tap()
    phone.wait_for_selector(f'{BOARD}[data-orientation="black"]', state="attached")
    box = {name: square(phone, name).bounding_box() for name in ("a1", "h1", "a8")}
    assert box["a1"]["y"] < box["a8"]["y"] and box["a1"]["x"] > box["h1"]["x"]
    phone.locator(f"{ENTRY} [data-flip]").tap()
    phone.wait_for_selector(f'{BOARD}[data-orientation="white"]', state="attached")
    shot(phone, "entry-4-typed-record-stepped")
    no_csp_violation(phone, complaints)


def test_the_candidate_row_shows_the_likeliest_first_then_the_others_by_piece_and_square(
        live_server: str, phone: Any) -> None:
    """The split row (issue 37, item 4): after 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3, Black's move back to the position
    after 1...Nf6 is the likeliest and stands first; the other seven follow by piece (king, queen, rook,
    bishop, knight, pawn) and by the square they go to, each piece's group marked at its start."""
    open_entry(phone, live_server)
    phone.fill("#f-record", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3")
    candidates_ready(phone, 5)
    board = chess.Board()
    for san in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3"):
        board.push_san(san)
    row = phone.evaluate("""() => [...document.querySelectorAll('[data-candidates] button[data-candidate]')]
        .map((b) => [b.dataset.candidate, b.dataset.group, 'groupStart' in b.dataset, b.dataset.source])""")
    assert len(row) == SHOWN
    assert row[0] == ["g8f6", "first", True, "repetition"], "Nf6, back to an earlier position, first"
    keys = [row_key(board.san(chess.Move.from_uci(uci)), uci) for uci, *_ in row[1:]]
    assert keys == sorted(keys), [board.san(chess.Move.from_uci(uci)) for uci, *_ in row]
    groups = [PIECE_ORDER[key[0]] for key in keys]
    assert [group for _, group, _, _ in row[1:]] == groups
    assert [start for _, _, start, _ in row[1:]] == [i == 0 or groups[i] != groups[i - 1] for i in range(len(groups))]
    shot(phone, "entry-5-split-row")
    phone.locator('[data-candidate="g8f6"]').tap()
    shown_ply(phone, 6)
    assert record_moves(phone.input_value("#f-record"))[-1] == "Nf6"


def test_a_move_entered_while_stepped_back_steps_on_or_asks_before_replacing(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    phone.fill("#f-record", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6")
    shown_ply(phone, 6)
    phone.locator('[data-chips] button[data-ply="2"]').tap()
    shown_ply(phone, 2)
    candidates_ready(phone, 2)
    after_e5 = chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    tap_move(phone, after_e5, chess.Move.from_uci("g1f3"))
    shown_ply(phone, 3)
    assert phone.input_value("#f-record") == "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "the recorded move: one step on"
    square(phone, "g8").tap(force=True)
    square(phone, "f6").tap(force=True)  # 2...Nf6 instead of the recorded 2...Nc6
    phone.wait_for_selector("[data-confirm]:not([hidden])")
    assert "Replace the 3 moves recorded after 2.Nf3" in phone.inner_text("[data-confirm]")
    shot(phone, "entry-5-replace-asked")
    phone.locator(f"{ENTRY} [data-confirm-yes]").tap()
    shown_ply(phone, 4)
    assert phone.input_value("#f-record") == "1. e4 e5 2. Nf3 Nf6"


def test_an_illegal_move_is_entered_after_a_confirmation_and_read_back_as_that_move(
        live_server: str, phone: Any) -> None:
    open_entry(phone, live_server, "illegal-move")
    phone.fill("#f-record", "1. e4 e5")
    shown_ply(phone, 2)
    square(phone, "d1").tap(force=True)
    square(phone, "d4").tap(force=True)  # the queen jumps over the d2 pawn
    phone.wait_for_selector("[data-confirm]:not([hidden])")
    assert "Qd1-d4 is not a legal move here" in phone.inner_text("[data-confirm]")
    phone.locator(f"{ENTRY} [data-confirm-yes]").tap()
    phone.wait_for_selector('[data-chips] button[data-ply="3"].is-illegal')
    text = phone.input_value("#f-record")
    assert text == "1. e4 e5 2. Qd1-d4"
    replay = replay_chess(text)
    assert replay.plies[2].move == chess.Move.from_uci("d1d4") and not replay.plies[2].is_legal
    assert "illegal" in phone.get_attribute('[data-chips] button[data-ply="3"]', "aria-label")
    played = pieces_of(replay.final_board)
    assert drawn_pieces(phone, played) == played, "the board shows the position as played"
    shot(phone, "entry-6-illegal-move")
    # take it back: the record loses it, nothing else
    phone.locator(f"{ENTRY} [data-takeback]").tap()
    shown_ply(phone, 2)
    assert phone.input_value("#f-record") == "1. e4 e5"


def test_a_promotion_asks_for_the_piece(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    record = "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7"
    phone.fill("#f-record", record)
    shown_ply(phone, 8)
    square(phone, "b7").tap(force=True)
    square(phone, "a8").tap(force=True)
    knight = phone.locator('.promotion-dialog-button[data-piece="wn"]')
    knight.wait_for(state="attached")
    shot(phone, "entry-7-promotion")
    knight.tap(force=True)
    shown_ply(phone, 9)
    assert phone.input_value("#f-record") == record + " 5. bxa8=N"
    promoted = pieces_of(replay_chess(record + " 5. bxa8=N").final_board)
    assert drawn_pieces(phone, promoted) == promoted and promoted["a8"] == "wn"


def test_the_keypad_enables_only_keys_that_continue_a_legal_move_and_enters_it_when_unambiguous(
        live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    phone.select_option("#f-language", "de")
    phone.fill("#f-record", "1. e4 e5")
    shown_ply(phone, 2)
    phone.locator(f"{ENTRY} [data-keypad-toggle]").tap()
    keys = "[data-keypad] button[data-key]"
    phone.wait_for_selector("[data-keypad]:not([hidden])")
    enabled = phone.eval_on_selector_all(keys, "bs => bs.filter(b => !b.disabled).map(b => b.dataset.key)")
    assert "K" in enabled and "Q" in enabled and "R" not in enabled and "O-O" not in enabled
    assert phone.inner_text('[data-keypad] button[data-key="N"]') == "S", "German letters"
    # the keypad as the TD sees it, under the claim bar (the fill above scrolled to the record field, below the board)
    phone.locator("[data-entry-status]").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    check_page(phone, live_server, "entry-8-keypad")
    for key in ("N", "f"):
        phone.locator(f'{keys}[data-key="{key}"]').tap()
    shown_ply(phone, 3)  # Sf3 is the only knight move to the f-file: entered at once
    assert phone.input_value("#f-record") == "1. e4 e5 2. Sf3"
    assert phone.inner_text('[data-chips] button[data-ply="3"]') == "2.Nf3"


def test_the_form_with_the_entry_board_fits_the_phone_and_shows_board_and_candidates_together(
        live_server: str, phone: Any) -> None:
    complaints = open_entry(phone, live_server)
    candidates_ready(phone, 0)
    phone.locator("[data-entry-status]").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    top = phone.locator("[data-candidates]").bounding_box()
    board = phone.locator(BOARD).bounding_box()
    actions = phone.locator(f"{ENTRY} [data-takeback]").bounding_box()
    assert top["y"] >= 0 and actions["y"] + actions["height"] <= PHONE["height"], \
        "the candidates, the whole board and its controls on one screen"
    assert board["width"] >= 8 * 44, "a square is at least 44 px"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "entry-9-phone-viewport.png"))  # the screen as the TD sees it
    check_page(phone, live_server, "entry-9-form-axe")
    # the first move by two taps, timed in the page: the tap on its square, then the record written
    phone.evaluate(WATCH)
    square(phone, "e2").tap(force=True)
    square(phone, "e4").tap(force=True)
    shown_ply(phone, 1)
    taps, writes, waited = phone.evaluate(
        "() => [window.__taps, window.__writes, window.__waited(window.__taps.at(-1), window.__writes[0])]")
    took = writes[0] - taps[-1]
    print(f"\nfirst move by two taps accepted {took:.1f} ms after the second tap; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    assert phone.input_value("#f-record") == "1. e4"
    assert waited == [], f"the move was written only after the network answered {waited}"  # the cause, not a time
    no_csp_violation(phone, complaints)


def test_without_javascript_the_record_field_is_the_whole_of_it(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/claims/new?claim=threefold-repetition")
        assert not page.locator(ENTRY).is_visible()
        page.check('input[name="claimant"][value="white"]', force=True)
        page.fill("#f-record", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8")
        page.click("#claim-submit")
        page.wait_for_url(re.compile(r"/rulings/\d+"))
        assert page.inner_text("#verdict").lower() == "upheld"
    finally:
        context.close()
