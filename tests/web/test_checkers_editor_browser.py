"""The checkers editor in the page (Debian's Chromium, a 390x844 phone): taps change the board and the
PDN FEN without a request to the server, and the FEN it writes is the server's (web.boards)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from tests.web.phone_support import check_page, choose, set_up_position
from web.boards import CHECKERS_START, edit_checkers, parse_pdn_fen, pdn_fen

pytestmark = pytest.mark.browser

FENS = ["B:W21,22,23,K30:B9,10,11", "W:WK23,30:BK14", "B:W:B", CHECKERS_START, "[FEN \"W:W18,K23:B1-5\"]",
        "W:B1,2:W32", "b:w5,6:bk7.", "B:W33:B1", "B:W1x:B2", "X:W1:B2", "B:W1-40:B2", "nonsense", "B:W123:B1"]


def open_checkers(page: Any, base: str) -> None:
    page.goto(f"{base}/claims/new")
    choose(page, "#f-game", "checkers")
    page.wait_for_selector("#checkers-editor[data-ready='1']", state="attached")
    set_up_position(page)


def test_the_editors_fen_rules_are_the_servers(live_server: str, phone: Any) -> None:
    open_checkers(phone, live_server)
    src = phone.get_attribute('script[src*="checkers-editor.js"]', "src")
    found = phone.evaluate(
        "async ([src, fens]) => { const m = await import(src);"
        " return fens.map((f) => { const p = m.parsePdnFen(f); return p === null ? null : m.pdnFen(p, true) }) }",
        [src, FENS],
    )
    expected = [None if parse_pdn_fen(f) is None else pdn_fen(parse_pdn_fen(f) or {}, True) for f in FENS]
    assert found == expected


def test_taps_edit_the_board_in_the_page(live_server: str, phone: Any) -> None:
    open_checkers(phone, live_server)
    posts: list[str] = []
    phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    fen = ""
    taps = [("clear", "x"), ("14", "R"), ("30", "w"), ("23", "W"), ("30", "w"), ("9", "r"), ("9", "x"), ("5", "r")]
    for action, piece in taps:
        if action == "clear":
            phone.click("#checkers-editor button[value=clear]")
        else:
            phone.check(f'input[name="checkers_piece"][value="{piece}"]', force=True)
            phone.click(f'#checkers-editor [data-square="{action}"]')
        fen = edit_checkers(fen, action, piece, True)  # the server's rule for the same tap
        assert phone.input_value("#f-fen") == fen, (action, piece)
    assert fen == "B:WK23:B5,K14"
    assert phone.get_attribute('#checkers-editor [data-square="23"]', "aria-label") == "square 23: white king"
    assert phone.locator('#checkers-editor [data-square="30"] .piece').count() == 0, "a second tap took it off"
    phone.select_option('select[name="checkers_turn"]', "white")
    assert phone.input_value("#f-fen") == "W:WK23:B5,K14"
    phone.fill("#f-fen", "B:W21,22:B1")
    phone.dispatch_event("#f-fen", "change")
    assert phone.locator("#checkers-editor .piece").count() == 3
    assert phone.input_value('select[name="checkers_turn"]') == "red"
    phone.click("#checkers-editor button[value=start]")
    assert phone.input_value("#f-fen") == CHECKERS_START and phone.locator("#checkers-editor .piece").count() == 24
    assert posts == [], f"no round trip: {posts}"
    labels = phone.locator("#checkers-editor .editor-row button, #checkers-editor .segmented span").all_inner_texts()
    for label in labels:  # nothing clipped: each control shows its whole word
        assert re.fullmatch(r"[A-Za-z ]+", label), label
    widths = phone.evaluate(
        "() => [...document.querySelectorAll('#checkers-editor button, #checkers-editor select')]"
        ".map((e) => e.scrollWidth - e.clientWidth)")
    assert max(widths) <= 0, "a control's text overflows it"
    heights = phone.evaluate("() => [...document.querySelectorAll('#checkers-editor .segmented span')]"
                             ".map((e) => e.getBoundingClientRect().height)")
    assert max(heights) - min(heights) < 2, f"a piece's label wraps: {heights}"
    check_page(phone, live_server, "checkers-editor-start")


STATUS = "#checkers-editor [data-position-status]"


def server_refuses(base: str, page: Any, fen: str) -> str:
    """What the claim form says of ``fen`` on submitting it (a flag claim on the position alone), as the
    editor words it: the server's refusal on the fen field, else "Legal position"."""
    token = page.input_value("input[name=csrf_token]")  # the page's own session and token
    response = page.request.post(f"{base}/claims", max_redirects=0, form={
        "csrf_token": token, "game": "checkers", "ruleset": "acf", "claim": "flag", "claimant": "red", "fen": fen,
        "clock_red": "0:01:00", "clock_white": "0:00:00", "flagged": "white"})
    found = re.search(r'<div class="error" id="fen-error">([^<]*)</div>', response.text())
    if found is None:
        assert response.status in (200, 303), response.status
        return "Legal position"
    assert response.status == 422
    return "Invalid position: " + re.sub(r"^fen is not a checkers position: ('[^']*': )?", "",
                                         html.unescape(found.group(1)))


def wait_status(page: Any, text: str) -> None:
    page.wait_for_function("([sel, text]) => document.querySelector(sel).textContent === text", arg=[STATUS, text])


def tap(page: Any, piece: str, *squares: int) -> None:
    page.check(f'input[name="checkers_piece"][value="{piece}"]', force=True)
    for square in squares:
        page.click(f'#checkers-editor [data-square="{square}"]')


def test_the_editor_warns_live_of_a_position_the_server_refuses(live_server: str, phone: Any) -> None:
    open_checkers(phone, live_server)
    phone.click("#checkers-editor button[value=start]")
    wait_status(phone, "Legal position")
    tap(phone, "w", 17)  # a 13th white man
    fen = phone.input_value("#f-fen")
    wait_status(phone, server_refuses(live_server, phone, fen))
    assert phone.inner_text(STATUS).startswith("Invalid position: White has 13 pieces; a side has at most 12")
    check_page(phone, live_server, "checkers-editor-invalid")
    tap(phone, "x", 17)
    wait_status(phone, "Legal position")
    phone.click("#checkers-editor button[value=clear]")
    wait_status(phone, server_refuses(live_server, phone, phone.input_value("#f-fen")))
    assert "no pieces on the board" in phone.inner_text(STATUS)
    tap(phone, "r", 30)  # a red man on Red's crowning row (29-32) is a king
    tap(phone, "w", 5)
    wait_status(phone, server_refuses(live_server, phone, phone.input_value("#f-fen")))
    assert "Red has a man on square 30, its crowning row" in phone.inner_text(STATUS)
    tap(phone, "R", 30)
    wait_status(phone, "Legal position")
    assert server_refuses(live_server, phone, phone.input_value("#f-fen")) == "Legal position"
    phone.fill("#f-fen", "B:W1-13:B20")  # typed, not tapped: checked the same way
    phone.dispatch_event("#f-fen", "change")
    wait_status(phone, server_refuses(live_server, phone, "B:W1-13:B20"))
    assert phone.get_attribute(STATUS, "role") == "status", "read out by a screen reader as it changes"
