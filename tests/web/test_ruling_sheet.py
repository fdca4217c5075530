"""The printed ruling sheet (WeasyPrint): the signatures on the first page with the ruling time
filled in, and after an illegal move the diagram of the position the arbiter reinstates (FIDE 7.5.1)."""

from __future__ import annotations

import time

import chess
from flask import Flask, render_template
from weasyprint import HTML

from web.rulings.views import context_for, load

# 4. Ke3 is illegal (ply 7); Black's reply follows, then Black claims. Clock readings fill the sheet.
ILLEGAL = (
    '[White "Ann Alpha"]\n[Black "Bob Beta"]\n\n'
    "1. e4 {[%clk 0:59:50]} e5 {[%clk 0:59:40]} 2. Nf3 {[%clk 0:59:00]} Nc6 {[%clk 0:58:30]} "
    "3. Bb5 {[%clk 0:58:00]} a6 {[%clk 0:57:00]} 4. Ke3 {[%clk 0:56:00]} Nf6 {[%clk 0:55:00]}"
)


def _ruling(app: Flask, **fields: str) -> int:
    client = app.test_client()
    data = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "claimant": "black",
            "record": ILLEGAL, "first_player": "Ann Alpha", "second_player": "Bob Beta", "round": "3", "board": "7"}
    data.update(fields)
    location = client.post("/claims", data=data).headers["Location"]
    for _ in range(200):
        if location.startswith("/rulings/"):
            return int(location.rsplit("/", 1)[1])
        response = client.get(location)
        location = response.headers.get("Location", location)
        time.sleep(0.05)
    raise AssertionError("no ruling")


def _sheet(app: Flask, ruling_id: int) -> tuple[str, list[str]]:
    """The sheet's HTML and the text of each printed page."""
    with app.test_request_context():
        ruling, case = load(ruling_id)
        html = render_template("rulings/sheet.html", **context_for(ruling, case))
    pages = []
    for page in HTML(string=html).render().pages:
        texts = [getattr(box, "text", "") for box in page._page_box.descendants()]
        pages.append(" ".join(t for t in texts if t))
    return html, pages


def test_the_signatures_and_the_ruling_time_are_on_the_first_page(app: Flask) -> None:
    html, pages = _sheet(app, _ruling(app))
    assert len(pages) >= 1
    first = pages[0]
    for text in ("Arbiter (name, signature)", "White player", "Black player", "Time of the ruling"):
        assert text in first, f"{text!r} not on page 1"
    assert "________ " not in first.split("Time of the ruling")[1][:12], "the ruling time is filled in"
    with app.test_request_context():
        ruling, _ = load(1)
        assert ruling.created_at.strftime("%Y-%m-%d %H:%M UTC") in first.split("Time of the ruling")[1]


def _drawn(html: str) -> str:
    """The position the sheet's diagram draws (python-chess writes it as text in the SVG's description)."""
    diagram = html[html.index('<div class="diagram">'):]
    return diagram[diagram.index("<pre>") + 5:diagram.index("</pre>")]


def test_the_illegal_move_diagram_is_the_position_to_reinstate(app: Flask) -> None:
    html, _ = _sheet(app, _ruling(app))
    assert "Position to reinstate: before 4. Ke1-e3 (ply 7)" in html
    before = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"):
        before.push_san(san)
    assert _drawn(html) == str(before), "the king back on e1, Black's later 4... Nf6 taken back too"
    assert "#e0565b" in html[html.index('<div class="diagram">'):], "the illegal move's squares shaded"


def test_a_rejected_illegal_move_claim_shows_the_position_as_it_stands(app: Flask) -> None:
    legal = "1. e4 e5 2. Nf3 Nc6"
    html, _ = _sheet(app, _ruling(app, record=legal, claimant="white"))
    assert "Position to reinstate" not in html and "Position after 2... Nc6 (ply 4)" in html
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
    assert _drawn(html) == str(board)


def test_the_records_tags_name_the_players_nobody_typed(app: Flask) -> None:
    ruling_id = _ruling(app, first_player="", second_player="", round="")
    html, pages = _sheet(app, ruling_id)
    assert "White player: Ann Alpha" in pages[0] and "Black player: Bob Beta" in pages[0]
    found = app.test_client().get("/history?player=alpha").get_data(as_text=True)
    assert "Ann Alpha" in found, "History finds the ruling by the record's player"
    typed = _ruling(app, first_player="A. Alpha", second_player="B. Beta")
    assert "White player: A. Alpha" in _sheet(app, typed)[1][0], "typed names win"
