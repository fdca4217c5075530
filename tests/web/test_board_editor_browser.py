"""The chess board editor on a 390x844 phone (Debian's Chromium): it opens empty on an empty FEN,
has Empty / Start / Flip in words, castling and en passant controls, and says live whether the
position is legal, in the words the server refuses it with (GET /claims/position)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from typing import Any

import pytest

from tests.web.phone_support import check_page
from tests.web.test_web_browser import open_form, place

pytestmark = pytest.mark.browser

EDITOR = "[data-board-editor]"
STATUS = f"{EDITOR} [data-position-status]"


def server_says(base: str, fen: str) -> str:
    """The server's own verdict on a position, as the editor shows it."""
    url = f"{base}/claims/position?{urllib.parse.urlencode({'fen': fen})}"
    with urllib.request.urlopen(url, timeout=10) as response:
        answer = json.load(response)
    if answer["is_legal"]:
        return "Legal position"
    return "Invalid position: " + str(answer["message"]).removeprefix("fen is not a legal position: ")


def wait_status(page: Any, text: str) -> None:
    page.wait_for_function("([sel, text]) => document.querySelector(sel).textContent === text", arg=[STATUS, text])


def fen_is(page: Any, fen: str) -> bool:
    """Wait until the editor has written ``fen`` (it writes after the board has redrawn)."""
    page.wait_for_function("(fen) => document.querySelector('#f-fen').value === fen", arg=fen)
    return True


def pieces(page: Any) -> int:
    return int(page.locator(f"{EDITOR} [data-board] g[data-piece]").count())


def test_an_empty_fen_opens_an_empty_board_with_word_buttons(live_server: str, phone: Any) -> None:
    open_form(phone, live_server, "flag")
    phone.wait_for_selector(f"{EDITOR}[data-ready='2']")
    assert fen_is(phone, "") and pieces(phone) == 0, "no FEN: no pieces, not the start position"
    buttons = [phone.inner_text(f"{EDITOR} [data-{name}]") for name in ("clear", "start", "flip")]
    assert buttons == ["Empty", "Start", "Flip"]
    assert phone.inner_text(STATUS) == ""
    phone.click(f"{EDITOR} [data-start]")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert fen_is(phone, start) and pieces(phone) == 32
    wait_status(phone, "Legal position")
    assert all(phone.is_checked(f"{EDITOR} [data-castle='{c}']") for c in "KQkq")
    check_page(phone, live_server, "editor-1-start")
    phone.click(f"{EDITOR} [data-clear]")
    assert fen_is(phone, "") and pieces(phone) == 0, "Empty clears the position"
    wait_status(phone, "")


def test_the_live_warning_is_the_servers_verdict(live_server: str, phone: Any) -> None:
    open_form(phone, live_server, "flag")
    phone.wait_for_selector(f"{EDITOR}[data-ready='2']")
    place(phone, "wk", "e1")
    assert fen_is(phone, "8/8/8/8/8/8/8/4K3 w - - 0 1")
    wait_status(phone, server_says(live_server, "8/8/8/8/8/8/8/4K3 w - - 0 1"))
    assert phone.inner_text(STATUS) == "Invalid position: Black has no king"
    check_page(phone, live_server, "editor-2-invalid")
    place(phone, "bk", "e8")
    wait_status(phone, "Legal position")
    place(phone, "wr", "e7")  # White to move, Black's king in check
    wait_status(phone, "Invalid position: the side not to move is in check")
    phone.select_option(f"{EDITOR} [data-turn]", "b")
    wait_status(phone, "Legal position")
    place(phone, "wp", "a8")
    fen = "P3k3/4R3/8/8/8/8/8/4K3 b - - 0 1"
    assert fen_is(phone, fen)
    wait_status(phone, server_says(live_server, fen))
    assert "pawn stands on the first or last rank" in phone.inner_text(STATUS)


def test_castling_and_en_passant_controls_write_the_fen(live_server: str, phone: Any) -> None:
    open_form(phone, live_server, "flag")
    phone.wait_for_selector(f"{EDITOR}[data-ready='2']")
    for piece, square in (("wk", "e1"), ("wr", "h1"), ("bk", "e8")):
        place(phone, piece, square)
    assert phone.is_enabled(f"{EDITOR} [data-castle='K']") and phone.is_checked(f"{EDITOR} [data-castle='K']")
    assert not phone.is_enabled(f"{EDITOR} [data-castle='Q']"), "no rook on a1: no O-O-O to give"
    assert fen_is(phone, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    phone.uncheck(f"{EDITOR} [data-castle='K']")
    assert fen_is(phone, "4k3/8/8/8/8/8/8/4K2R w - - 0 1"), "the king has moved: no right"
    # typing a FEN sets the board and every control; its move counters are kept
    phone.fill("#f-fen", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3")
    phone.dispatch_event("#f-fen", "change")
    phone.wait_for_function("(sel) => document.querySelector(sel).value === 'd6'", arg=f"{EDITOR} [data-ep]")
    assert pieces(phone) == 4
    place(phone, "wn", "b1")
    assert fen_is(phone, "4k3/8/8/3pP3/8/8/8/1N2K3 w - d6 0 3")
    phone.select_option(f"{EDITOR} [data-ep]", "-")
    assert fen_is(phone, "4k3/8/8/3pP3/8/8/8/1N2K3 w - - 0 3")
    phone.select_option(f"{EDITOR} [data-turn]", "b")
    assert phone.locator(f"{EDITOR} [data-ep] option").all_inner_texts() == ["none"], "Black to move: no d6"
    check_page(phone, live_server, "editor-3-castling-en-passant")


def test_flip_turns_the_board(live_server: str, phone: Any) -> None:
    open_form(phone, live_server, "flag")
    phone.wait_for_selector(f"{EDITOR}[data-ready='2']")
    top = "(sq) => document.querySelector(`[data-board] rect[data-square='${sq}']`).getBoundingClientRect().top"
    assert phone.evaluate(top, "a1") > phone.evaluate(top, "h8"), "White at the bottom"
    phone.click(f"{EDITOR} [data-flip]")
    phone.wait_for_function("(sel) => document.querySelector(sel).getAttribute('aria-pressed') === 'true'",
                            arg=f"{EDITOR} [data-flip]")
    assert phone.evaluate(top, "a1") < phone.evaluate(top, "h8"), "Black at the bottom"
    place(phone, "wk", "a1")
    assert fen_is(phone, "8/8/8/8/8/8/8/K7 w - - 0 1"), "squares keep their names when flipped"
