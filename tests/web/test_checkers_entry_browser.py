"""Checkers move entry on the claim form (issue 21), in Debian's Chromium on a 390x844 phone.

A real game goes in by taps (a candidate when the move is one, else the piece and its square,
each landing of a jump in turn) and the forty-move claim is ruled on it. The game: Tinsley v
Davis, 1989, game 2 (tests/data/checkers/tinsley.pdn, its event tag "1989, game 2"): 156 plies,
a draw, whose last 43 plies have no man move and no capture. No real game in tinsley.pdn (724
games) or acf_archive_sample500.pdn (500) reaches the 80 plies the harmonised rule needs (the
longest stretch is 50), so the game goes on with SHUFFLE: 40 king moves made up for this test
(Red's four kings wander, White's king goes back and forth; no capture is ever possible), a
king shuffle of the kind the rule exists for. The claim is ruled twice: on the real game
alone (rejected: 21 moves by Red and 22 by White since the last man move), then, from the
ruling's "Edit and claim again", with the shuffle entered on the same board (upheld).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from adjudicator.checkers.pdn import read_game, split_games
from adjudicator.checkers.replay import replay_checkers, replay_game
from tests.web.phone_support import check_page
from tests.web.test_security_browser import violations

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "checkers"
EVENT = "1989, game 2"
SHUFFLE = [
    "11-8", "28-24", "8-11", "24-28", "15-10", "28-32", "23-18", "32-27", "18-14", "27-23", "10-15", "23-27", "15-18",
    "27-32", "14-17", "20-24", "18-14", "24-19", "11-8", "32-28", "14-18", "28-24", "17-21", "24-27", "21-17", "27-32",
    "17-22", "19-24", "18-23", "32-28", "23-18", "24-20", "8-4", "28-32", "18-14", "32-28", "22-18", "20-16", "3-7",
    "16-19",
]
CANDIDATES = "els => els.map((e) => e.dataset.candidate)"
READY = "[data-checkers-entry] [data-candidates][aria-busy='false']"
READ = """async ([ready, candidates]) => {
  // once the candidates are READY: their moves (CANDIDATES) and the record field (record), in one round trip
  while (!document.querySelector(ready)) await new Promise((r) => requestAnimationFrame(r))
  return [[...document.querySelectorAll(candidates)].map((e) => e.dataset.candidate),
          document.querySelector('#f-record').value]
}"""
"""The candidates are drawn just after the board (checkers-entry.js): wait for them before reading them."""
ENTRY = "[data-checkers-entry]"
BOARD = '[data-move-entry="checkers"]'


def real_game() -> list[str]:
    """The moves of Tinsley v Davis 1989, game 2, each with every square it visits (``15x24x31``)."""
    text = next(g for g in split_games((DATA / "tinsley.pdn").read_text(encoding="utf-8", errors="replace"))
                if f'[Event "{EVENT}"]' in g)
    replay = replay_game(read_game(text))
    assert not replay.illegal and not replay.unreadable
    return [str(p.move) for p in replay.plies]


def as_pdn(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def record(page: Any) -> str:
    return str(page.input_value("#f-record"))


def enter(page: Any, moves: list[str], already: int) -> dict[str, int]:
    """Enter ``moves`` by taps: the candidate when it is one, else the piece and each square it goes to.
    Returns how many were entered each way; each move must reach the record at once (no round trip)."""
    used = {"candidate": 0, "squares": 0, "taps": 0}
    for i, move in enumerate(moves):
        candidates, before = page.evaluate(READ, [READY, f"{ENTRY} [data-candidate]"])
        if move in candidates:
            page.click(f'{ENTRY} [data-candidate="{move}"]')
            used["candidate"] += 1
            used["taps"] += 1
        else:
            squares = [int(n) for n in re.split("[-x]", move)]
            for square in squares:
                page.click(f'{ENTRY} [data-square="{square}"]')
                used["taps"] += 1
                if record(page) != before:
                    break
            used["squares"] += 1
        assert record(page) != before, f"ply {already + i + 1} ({move}) was not entered"
    return used


def test_a_real_game_entered_by_taps_rules_the_forty_move_claim(live_server: str, phone: Any) -> None:
    game = real_game()
    assert len(game) == 156
    seen = violations(phone)  # the Content-Security-Policy (web/security.py) holds throughout
    phone.goto(f"{live_server}/claims/new?game=checkers&claim=forty-move")
    phone.wait_for_selector(f"{ENTRY}[data-ready='1']")
    assert phone.locator(f"{BOARD} [data-square]").count() == 32, "the hooks: the board, its 32 numbered squares"
    check_page(phone, live_server, "checkers-entry-start")
    phone.evaluate("""() => {
        window.taps = []
        document.addEventListener("pointerdown", (e) => { window.taps.push(e.timeStamp) }, true)
        document.querySelector("#f-record").addEventListener("record:written",
                                                             () => { window.entered = performance.now() })
    }""")
    first = game[0]
    phone.wait_for_selector(READY, state="attached")
    phone.click(f'{ENTRY} [data-candidate="{first}"]')
    accepted = phone.evaluate("() => window.entered - window.taps[0]")
    assert record(phone) == f"1. {first}"
    assert 0 <= accepted < 100, f"the first move reached the record {accepted:.0f} ms after the tap"

    used = enter(phone, game[1:], 1)
    assert record(phone) == as_pdn(game), "the record field is the game, move for move, as PDN writes it"
    assert [str(p.move) for p in replay_checkers(record(phone)).plies] == game
    assert used["candidate"] > 60 and used["squares"] > 10, used
    assert phone.locator(f"{ENTRY} [data-chips] button").count() == 157  # the start and each ply
    phone.wait_for_selector(READY, state="attached")
    first_candidate = phone.locator(f"{ENTRY} [data-candidate]").first
    assert first_candidate.get_attribute("data-candidate") == "3-7", "7-3 was just played: 3-7 goes back, first"
    assert first_candidate.get_attribute("data-source") == "repetition"
    check_page(phone, live_server, "checkers-entry-real-game")

    phone.check('input[name="claimant"][value="white"]', force=True)
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "rejected"
    assert "Only 21 moves by Red and 22 by White" in phone.inner_text("main")

    phone.click("text=Edit and claim again")
    phone.wait_for_selector(f"{ENTRY}[data-ready='1']")
    assert record(phone) == as_pdn(game)
    assert phone.locator(f'{ENTRY} [data-chips] button[aria-current="step"]').inner_text() == game[-1], \
        "the board opens at the record's last move"
    more = enter(phone, SHUFFLE, len(game))
    assert record(phone) == as_pdn(game + SHUFFLE)
    assert more["candidate"] > 0 and more["squares"] > 0, more
    phone.check('input[name="claimant"][value="white"]', force=True)
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "upheld"
    assert "83 moves (plies) have been played since" in phone.inner_text("main")
    assert seen == [], seen


def open_entry(page: Any, base: str, claim: str = "forty-move") -> None:
    page.goto(f"{base}/claims/new?game=checkers&claim={claim}")
    page.wait_for_selector(f"{ENTRY}[data-ready='1']")


def tap(page: Any, *squares: int) -> None:
    for square in squares:
        page.click(f'{ENTRY} [data-square="{square}"]')


def piece(page: Any, square: int) -> str:
    return str(page.get_attribute(f'{ENTRY} [data-square="{square}"]', "data-piece"))


def chips(page: Any) -> list[str]:
    return [str(t) for t in page.locator(f"{ENTRY} [data-chips] button").all_inner_texts()]


def test_an_illegal_move_goes_in_on_purpose_marked_and_is_ruled(live_server: str, phone: Any) -> None:
    """1. 11-15 22-18 2. 8-11: Red had to jump (15x22). Tapping 8 then 11 asks first, with the server's
    reason; confirmed, the move is in the record and its chip says illegal; the claim is upheld."""
    seen = violations(phone)
    open_entry(phone, live_server, "illegal-move")
    tap(phone, 11, 15)
    tap(phone, 22, 18)
    phone.wait_for_selector(READY, state="attached")
    assert phone.eval_on_selector_all(f"{ENTRY} [data-candidate]", CANDIDATES) \
        == ["15x22"], "a jump is compulsory: it is the only candidate"
    tap(phone, 8)
    assert phone.get_attribute(f'{ENTRY} [data-square="11"]', "class").find("is-target") < 0
    tap(phone, 11)
    confirm = f"{ENTRY} [data-confirm]"
    phone.wait_for_selector(f"{confirm}:not([hidden])")
    phone.wait_for_function("(sel) => document.querySelector(sel).textContent.includes('a jump was compulsory')",
                            arg=f"{confirm} [data-confirm-text]")
    assert record(phone) == "1. 11-15 22-18", "nothing is written before the TD confirms"
    check_page(phone, live_server, "checkers-entry-illegal-confirm")
    phone.click(f"{confirm} [data-confirm-yes]")
    assert record(phone) == "1. 11-15 22-18 2. 8-11"
    assert chips(phone)[-1] == "2. 8-11 ✗"
    label = phone.get_attribute(f'{ENTRY} [data-chips] button[data-ply="3"]', "aria-label")
    assert label is not None and "illegal" in label
    phone.wait_for_function("(sel) => document.querySelector(sel).getAttribute('aria-label').includes('compulsory')",
                            arg=f'{ENTRY} [data-chips] button[data-ply="3"]')  # the server's reason, read back
    assert piece(phone, 11) == "r" and piece(phone, 8) == ""
    phone.fill("#f-alleged_illegal_ply", "3")
    phone.check('input[name="claimant"][value="white"]', force=True)
    phone.fill("#f-clock_red", "0:10:00")
    phone.fill("#f-clock_white", "0:10:00")
    phone.fill("#f-time_control", "G/30")
    phone.click("#claim-submit")
    phone.wait_for_selector("#verdict")
    assert phone.inner_text("#verdict").lower() == "upheld"
    assert "a jump was compulsory (15x22)" in phone.inner_text("main")
    assert seen == [], seen


def test_an_incomplete_jump_is_entered_square_by_square(live_server: str, phone: Any) -> None:
    """A multiple jump stopped half way (ACF: it must be completed) goes in through "Illegal move":
    the piece, then each square it went to."""
    open_entry(phone, live_server, "illegal-move")
    phone.fill("#f-record", '[FEN "B:W15,22,31:B11,1"]\n')
    phone.dispatch_event("#f-record", "change")
    phone.wait_for_function("(sel) => document.querySelector(sel).dataset.piece === 'w'",
                            arg=f'{ENTRY} [data-square="15"]')
    phone.wait_for_selector(READY, state="attached")
    assert phone.eval_on_selector_all(f"{ENTRY} [data-candidate]", CANDIDATES) \
        == ["11x18x25"]
    phone.click(f"{ENTRY} [data-illegal-mode]")
    assert phone.get_attribute(f"{ENTRY} [data-illegal-mode]", "aria-pressed") == "true"
    tap(phone, 11, 18)
    phone.wait_for_selector(f"{ENTRY} [data-confirm]:not([hidden])")
    phone.wait_for_function("(sel) => document.querySelector(sel).textContent.includes('not complete')",
                            arg=f"{ENTRY} [data-confirm] [data-confirm-text]")
    phone.click(f"{ENTRY} [data-confirm] [data-confirm-yes]")
    assert record(phone) == '[FEN "B:W15,22,31:B11,1"]\n\n1. 11x18'
    assert chips(phone)[-1] == "1. 11x18 ✗"
    assert piece(phone, 18) == "r" and piece(phone, 15) == "" and piece(phone, 22) == "w"
    assert phone.get_attribute(f"{ENTRY} [data-illegal-mode]", "aria-pressed") == "false"


def test_a_typed_record_redraws_the_board_and_a_step_shows_that_ply(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    posts: list[str] = []
    phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    phone.fill("#f-record", '[Event "Club"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14')
    phone.wait_for_function("(sel) => document.querySelectorAll(sel).length === 9", arg=f"{ENTRY} [data-chips] button")
    assert any(url.endswith("/claims/checkers/replay") for url in posts), "read by the server's reader"
    assert chips(phone) == ["Start", "1. 11-15", "23-19", "2. 8-11", "22-17", "3. 9-13", "17-14", "4. 10x17", "21x14"]
    assert piece(phone, 14) == "w" and piece(phone, 10) == "" and piece(phone, 17) == "" and piece(phone, 21) == ""
    phone.click(f'{ENTRY} [data-chips] button[data-ply="4"]')  # after 22-17
    assert piece(phone, 17) == "w" and piece(phone, 22) == "" and piece(phone, 6) == "r" and piece(phone, 9) == "r"
    assert "after ply 4 of 8" in phone.inner_text(f"{ENTRY} [data-entry-status]")
    phone.click(f"{ENTRY} [data-prev]")
    assert piece(phone, 17) == "" and piece(phone, 22) == "w"
    phone.click(f"{ENTRY} [data-first]")
    assert piece(phone, 11) == "r" and piece(phone, 23) == "w"
    phone.click(f"{ENTRY} [data-last]")
    assert piece(phone, 14) == "w"

    posts.clear()
    phone.click(f'{ENTRY} [data-chips] button[data-ply="2"]')  # after 23-19: the record's own 8-11 steps on
    tap(phone, 8, 11)
    assert record(phone).endswith("4. 10x17 21x14") and posts == []
    assert "after ply 3 of 8" in phone.inner_text(f"{ENTRY} [data-entry-status]")
    tap(phone, 24, 20)  # another move than 22-17: it would replace the rest, so it asks
    phone.wait_for_selector(f"{ENTRY} [data-confirm]:not([hidden])")
    assert "22-17 3. 9-13 17-14 4. 10x17 21x14" in phone.inner_text(f"{ENTRY} [data-confirm]")
    phone.click(f"{ENTRY} [data-confirm] [data-confirm-no]")
    assert record(phone).endswith("4. 10x17 21x14")
    tap(phone, 24, 20)
    phone.click(f"{ENTRY} [data-confirm] [data-confirm-yes]")
    assert record(phone) == '[Event "Club"]\n1. 11-15 23-19 2. 8-11 24-20'
    phone.click(f"{ENTRY} [data-takeback]")
    assert record(phone) == '[Event "Club"]\n1. 11-15 23-19 2. 8-11'
    assert piece(phone, 24) == "w" and piece(phone, 20) == ""
    assert posts == [], f"taps, steps and takebacks need no round trip: {posts}"


def test_drag_flip_and_a_jump_with_two_endings(live_server: str, phone: Any) -> None:
    open_entry(phone, live_server)
    box = phone.locator(f'{ENTRY} [data-square="11"]').bounding_box()
    to = phone.locator(f'{ENTRY} [data-square="15"]').bounding_box()
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    phone.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=4)
    phone.mouse.up()
    assert record(phone) == "1. 11-15", "a drag is the two taps"
    top = ("(n) => document.querySelector(`[data-move-entry='checkers'] [data-square='${n}']`)"
           ".getBoundingClientRect().top")
    assert phone.evaluate(top, 1) < phone.evaluate(top, 32)
    phone.click(f"{ENTRY} [data-flip]")
    assert phone.evaluate(top, 1) > phone.evaluate(top, 32), "flipped: White's side at the top"
    assert phone.get_attribute(f"{ENTRY} [data-entry-board]", "aria-label") == "checkers board, White at the top"
    # a king's jumps: two end on 25, by two paths; tapping 25 offers both; tapping each landing needs no choice
    fen = '[FEN "B:W10,15,16,22,23,24:BK11"]\n'
    phone.fill("#f-record", fen)
    phone.dispatch_event("#f-record", "change")
    phone.wait_for_function("(sel) => document.querySelector(sel).dataset.piece === 'R'",
                            arg=f'{ENTRY} [data-square="11"]')
    phone.click(f"{ENTRY} [data-flip]")
    phone.wait_for_selector(READY, state="attached")
    assert sorted(phone.eval_on_selector_all(f"{ENTRY} [data-candidate]", CANDIDATES)) \
        == ["11x18x25", "11x18x27x20x11", "11x20x27x18x11", "11x20x27x18x25"]
    tap(phone, 11, 25)
    choices = phone.locator(f"{ENTRY} [data-choices] button").all_inner_texts()
    assert sorted(choices) == ["11x18x25", "11x20x27x18x25"]
    phone.click(f"{ENTRY} [data-choices] button:has-text('11x20x27x18x25')")
    assert record(phone) == fen + "\n1. 11x20x27x18x25"
    phone.click(f"{ENTRY} [data-takeback]")
    tap(phone, 11, 20, 27, 18, 25)
    assert record(phone) == fen + "\n1. 11x20x27x18x25"
    assert phone.locator(f"{ENTRY} [data-choices]").is_hidden()
