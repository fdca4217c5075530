"""The printed ruling sheet (WeasyPrint): the signatures on the first page with the ruling time
filled in, after an illegal move the diagram of the position the arbiter reinstates (FIDE 7.5.1),
and a long ruling on one A4 page (pages counted in the PDF the app serves), its evidence continued
on page 2 only when page 1 cannot hold it."""

from __future__ import annotations

import io
import time
from typing import Any

import chess
import pypdf
from flask import Flask, render_template

from tests.web.conftest import ARTIFACTS
from web.rulings.views import context_for, load
from web.tables import rulings as store

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
    deadline = time.monotonic() + 120  # polled; the deadline only bounds a hang
    while time.monotonic() < deadline:
        if location.startswith("/rulings/"):
            return int(location.rsplit("/", 1)[1])
        response = client.get(location)
        location = response.headers.get("Location", location)
        time.sleep(0.05)
    raise AssertionError("no ruling")


def _pdf_pages(app: Flask, ruling_id: int, name: str | None = None) -> list[str]:
    """The text of each page of the sheet the app serves (/rulings/<id>/sheet.pdf), read from the PDF
    (kept as tests/artifacts/sheet-<name>.pdf when named)."""
    response = app.test_client().get(f"/rulings/{ruling_id}/sheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    if name is not None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"sheet-{name}.pdf").write_bytes(response.data)
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(response.data)).pages]


def _sheet(app: Flask, ruling_id: int) -> tuple[str, list[str]]:
    """The sheet's HTML (one page's layout) and the text of each page of the PDF served."""
    with app.test_request_context():
        ruling, case = load(ruling_id)
        html = render_template("rulings/sheet.html", **context_for(ruling, case))
    return html, _pdf_pages(app, ruling_id)


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


def test_a_game_already_over_shows_the_position_where_it_ended(app: Flask) -> None:
    """40...Bxc1 left king and bishop against king (5.2.2): the illegal move later changes nothing, and the
    sheet draws the position where the game ended, not the last one."""
    record = '[SetUp "1"]\n[FEN "4k3/8/8/8/8/4b3/8/2R1K3 b - - 0 40"]\n\n40... Bxc1 41. Kd1 Bf4 42. Kd1-d3'
    html, pages = _sheet(app, _ruling(app, record=record, claimant="black"))
    assert "The game ended here, after 40... Bxc1 (ply 1): a dead position" in html
    assert _drawn(html) == str(chess.Board("4k3/8/8/8/8/8/8/2b1K3 w - - 0 41"))
    assert "FIDE 5.2.2" in pages[0]


def test_the_records_tags_name_the_players_nobody_typed(app: Flask) -> None:
    ruling_id = _ruling(app, first_player="", second_player="", round="")
    html, pages = _sheet(app, ruling_id)
    assert "White player: Ann Alpha" in pages[0] and "Black player: Bob Beta" in pages[0]
    found = app.test_client().get("/history?player=alpha").get_data(as_text=True)
    assert "Ann Alpha" in found, "History finds the ruling by the record's player"
    typed = _ruling(app, first_player="A. Alpha", second_player="B. Beta")
    assert "White player: A. Alpha" in _sheet(app, typed)[1][0], "typed names win"


def _long_game(plies: int) -> str:
    """A game of ``plies`` moves, each the first legal one (in UCI order) that repeats no position and
    does not end the game, with a [%clk] reading after every move (90 minutes, a few seconds a move)."""
    board, seen, words, left = chess.Board(), set(), [], [5400, 5400]
    for ply in range(plies):
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            board.push(move)
            fresh = board._transposition_key() not in seen and not board.is_game_over(claim_draw=True)
            board.pop()
            if fresh:
                break
        san, side = board.san(move), 0 if board.turn == chess.WHITE else 1
        if side == 0:
            words.append(f"{board.fullmove_number}.")
        left[side] -= 20 + ply % 37
        words.append(f"{san} {{[%clk {left[side] // 3600}:{left[side] % 3600 // 60:02d}:{left[side] % 60:02d}]}}")
        board.push(move)
        seen.add(board._transposition_key())
    return " ".join(words)


def test_a_long_ruling_fits_on_one_a4_page(app: Flask) -> None:
    # 75 moves each with clock readings; White's flag falls past move 40 and the clock never added the
    # second period: adjustments, instructions, reasons, articles, the period evidence and the clock chart
    record = '[White "Ann Alpha"]\n[Black "Bob Beta"]\n\n' + _long_game(150)
    ruling_id = _ruling(app, claim="flag", claimant="black", record=record, clock_white="0:00:00",
                        clock_black="0:00:20", flagged="white", time_control="40/5400+30:1800+30")
    with app.test_request_context():
        ruling, _ = load(ruling_id)
    assert ruling.data["adjustments"] and len(ruling.data["evidence"]) >= 6 and len(ruling.data["rule_refs"]) >= 2
    pages = _pdf_pages(app, ruling_id, "long-flag")
    assert len(pages) == 1, f"{len(pages)} pages"
    page = pages[0]
    for text in ("Clock adjustments", "Instructions", "Reasons", "Articles and the clocks", "FIDE 6.9",
                 "Evidence", "The period", "Arbiter (name, signature)", "White player: Ann Alpha"):
        assert text in page, f"{text!r} not on the page"
    assert "continued on page 2" not in page


def _stored(app: Flask, ruling: dict[str, Any]) -> int:
    """A ruling on an illegal-move case, stored as the app stores one (its sheet is drawn from the store)."""
    case = {"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move", "claimant": "black",
            "record": ILLEGAL}
    with app.extensions["db_sessions"]() as session:
        row = store.add_case(session, case, {"first_player": "Ann Alpha", "second_player": "Bob Beta"}, "api")
        stored = store.ruling_row(row.id, {"claim": "illegal-move", "adjustments": [], "instructions": [],
                                           "rule_refs": ["FIDE 7.5.1"], "confidence": 1.0, **ruling}, 5)
        session.add(stored)
        session.commit()
        return stored.id


def test_evidence_page_1_cannot_hold_is_shortened_there_and_given_in_full_on_page_2(app: Flask) -> None:
    long_fact = "engine line " + " ".join(f"{n}. Nf3 Nf6 {n}. Ng1 Ng8" for n in range(1, 30)) + " (the end)"
    evidence = {f"analysis {n}": {"depth": 30 + n, "note": long_fact} for n in range(14)}
    ruling_id = _stored(app, {"verdict": "upheld", "result": None, "instructions": ["Reinstate the position."],
                              "reasons": ["4.Ke3 was illegal."], "evidence": evidence})
    pages = _pdf_pages(app, ruling_id, "evidence-continued")
    assert len(pages) >= 2
    first, rest = pages[0], " ".join(pages[1:])
    assert "Arbiter (name, signature)" in first and "Black player: Bob Beta" in first, "signed on page 1"
    assert "FIDE 7.5.1" in first and "Analysis 13" in first, "every piece of evidence named on page 1"
    assert "continued on page 2" in first and "(the end)" not in first
    assert rest.startswith(f"Ruling {ruling_id}, continued from page 1") and rest.count("(the end)") == 14


def test_reasons_that_fill_page_1_keep_the_signatures_there_and_the_evidence_follows(app: Flask) -> None:
    reasons = [f"Reason {n}: " + "the arbiter saw the move and the clock, and wrote it down. " * 3 for n in range(16)]
    ruling_id = _stored(app, {"verdict": "upheld", "result": None, "reasons": reasons,
                              "evidence": {"ply": 7, "move": "Ke1-e3"}})
    pages = _pdf_pages(app, ruling_id, "ruling-first")
    assert len(pages) == 2
    assert "Reason 15" in pages[0] and "Arbiter (name, signature)" in pages[0]
    assert "The articles and the evidence: continued on page 2." in pages[0]
    assert "FIDE 7.5.1" in pages[1] and "Move: Ke1-e3" in pages[1]


def test_the_sheet_gives_the_evidence_in_words_not_raw_data(app: Flask) -> None:
    """Issue 22: players sign the sheet; its evidence reads as the ruling page's, not as stored JSON."""
    flag = _ruling(app, claim="flag", claimant="white", record="", fen="4k3/8/8/8/8/8/8/4K2R b K - 0 1",
                   clock_white="0:01:10", clock_black="0:00:00", flagged="black")
    text = " ".join(_pdf_pages(app, flag, "words-flag"))
    assert "Black had made 0 moves" in text and "Flag down: Black" in text
    assert "Kd7 Rf1" in text, "the helpmate in notation"
    for raw in ("period: side", "moves made:", "e8d7", "helpmate san", "win test"):
        assert raw not in text, f"{raw!r}: raw data on the sheet"
    illegal = _ruling(app)
    text = " ".join(_pdf_pages(app, illegal))
    assert "Clocks before the illegal move: White 0:58:00; Black 0:57:00" in text
    assert "Illegal move: ply 7 (4. Ke1-e3)" in text
    assert "3480" not in text and "3420" not in text, "clocks in seconds"
