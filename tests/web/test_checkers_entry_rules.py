"""The checkers rules in the page (web/static/checkers-rules.js, run by Debian's Chromium) are the
server's (adjudicator.checkers.board and played): the same legal moves, the same position after a
move, legal or as played, and the record's text cut and written so that the server reads it back
with the moves kept and the move added. The move entry answers a tap with them, without asking the
server, so they must not differ from the rules the ruling applies."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from adjudicator.checkers.board import START, Position
from adjudicator.checkers.pdn import split_games
from adjudicator.checkers.played import physical, push_as_played
from adjudicator.checkers.replay import replay_checkers

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data" / "checkers"


@pytest.fixture
def rules(live_server: str, phone: Any) -> Any:
    """The page, with checkers-rules.js imported as window.rules (the file the claim form loads)."""
    phone.goto(f"{live_server}/claims/new?game=checkers")
    src = phone.get_attribute('script[src*="checkers-entry.js"]', "src")
    phone.evaluate("async (src) => { window.rules = await import(src.replace('checkers-entry', 'checkers-rules')) }",
                   src)
    return phone


def js_moves(page: Any, fens: list[str]) -> list[list[str]]:
    return list(page.evaluate(
        "(fens) => fens.map((f) => rules.legalMoves(rules.fromFen(f)).map((m) => rules.moveText(m)).sort())", fens))


def server_moves(fen: str) -> list[str]:
    return sorted(str(m) for m in Position.from_fen(fen).legal_moves())


def test_perft_from_the_start_is_the_published_count(rules: Any) -> None:
    published = json.loads((DATA / "perft_start.json").read_text())["perft"]
    found = rules.evaluate("""(depth) => {
        const perft = (pos, d) => d === 0 ? 1
            : rules.legalMoves(pos).reduce((n, m) => n + perft(rules.push(pos, m), d - 1), 0)
        return Array.from({length: depth}, (_, i) => perft(rules.startPosition(), i + 1)) }""", 7)
    assert found == [published[str(d)] for d in range(1, 8)]


def test_the_shared_test_positions_have_the_servers_moves(rules: Any) -> None:
    positions = json.loads((DATA / "movegen_testset.json").read_text())["positions"]
    fens = [p["fen"] for p in positions]
    assert js_moves(rules, fens) == [server_moves(f) for f in fens]
    counts = rules.evaluate("""(fens) => fens.map((f) => {
        const perft = (pos, d) => d === 0 ? 1
            : rules.legalMoves(pos).reduce((n, m) => n + perft(rules.push(pos, m), d - 1), 0)
        const pos = rules.fromFen(f)
        return [rules.legalMoves(pos).length, perft(pos, 2), perft(pos, 3)] })""", fens)
    assert counts == [[p["n_moves"], p["perft2"], p["perft3"]] for p in positions]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_move_and_misplay_as_on_the_server(rules: Any, seed: int) -> None:
    """Random games to their end: the moves and the position after each (the FEN as the server writes it);
    and at every position a random move as played although illegal, pushed as the server pushes it."""
    rng = random.Random(seed)
    fens: list[str] = []
    played: list[list[int]] = []
    misplays: list[tuple[str, list[int], str | None]] = []
    for _ in range(12):
        position = START
        for _ in range(150):
            moves = position.legal_moves()
            if not moves:
                break
            fens.append(position.fen())
            move = rng.choice(moves)
            played.append(list(move.path))
            squares = [rng.choice([n for n in range(1, 33) if position.piece_at(n) is not None and
                                   (position.piece_at(n) or "").lower() == ("r" if position.red_to_move else "w")])]
            squares += rng.sample(range(1, 33), rng.choice([1, 1, 1, 2]))
            bodily = physical(position, squares)
            after = None if bodily is None else push_as_played(position, bodily).fen()
            misplays.append((position.fen(), squares, after))
            position = position.push(move)
    assert js_moves(rules, fens) == [server_moves(f) for f in fens]
    after = rules.evaluate("""([fens, paths]) => fens.map((f, i) => {
        const pos = rules.fromFen(f)
        const move = rules.legalMoves(pos).find((m) => m.path.join() === paths[i].join())
        return rules.toFen(rules.push(pos, move)) })""", [fens, played])
    assert after == [Position.from_fen(f).push(next(m for m in Position.from_fen(f).legal_moves()
                                                        if list(m.path) == p)).fen() for f, p in zip(fens, played,
                                                                                                   strict=True)]
    found = rules.evaluate("""(cases) => cases.map(([f, squares]) => {
        const move = rules.physical(rules.fromFen(f), squares)
        return move === null ? null : rules.toFen(rules.push(rules.fromFen(f), move)) })""",
                           [[f, s] for f, s, _ in misplays])
    assert found == [expected for _, _, expected in misplays]


def test_the_record_is_cut_and_written_as_the_server_reads_it(rules: Any) -> None:
    """Real games (tinsley.pdn: tags, comments, move numbers glued or not, quiet moves written with x): the
    text kept for the first k moves reads back as those k moves; a move written after them is the k+1-th."""
    games = split_games((DATA / "tinsley.pdn").read_text(encoding="utf-8", errors="replace"))[:60]
    rng = random.Random(7)
    cases = []
    for text in games:
        replay = replay_checkers(text)
        if replay.illegal or replay.unreadable or not replay.plies:
            continue
        keep = rng.randrange(len(replay.plies))
        nxt = replay.plies[keep]
        cases.append((text, keep, str(nxt.move), [str(p.move) for p in replay.plies[:keep + 1]]))
    written = rules.evaluate("(cases) => cases.map(([t, k, tok]) => [rules.writeRecord(t, k, []),"
                             " rules.writeRecord(t, k, [tok]), rules.dropped(t, k)])", [c[:3] for c in cases])
    assert len(cases) > 40
    for (text, keep, _token, moves), (kept, added, lost) in zip(cases, written, strict=True):
        assert [str(p.move) for p in replay_checkers(kept).plies] == moves[:keep], text[:80]
        assert [str(p.move) for p in replay_checkers(added).plies] == moves, text[:80]
        assert lost and text.rstrip().endswith(lost)  # what goes is the text's end: nothing else changed
        assert added.startswith(kept)


def test_a_record_written_move_by_move_is_numbered_as_pdn(rules: Any) -> None:
    text = rules.evaluate("""() => { let t = ""; ["11-15", "23-19", "8-11", "22-17"].forEach((m, i) => {
        t = rules.writeRecord(t, i, [m]) }); return t }""")
    assert text == "1. 11-15 23-19 2. 8-11 22-17"
    tagged = rules.evaluate("""() => rules.writeRecord('[Event "Club"]\\n[Result "*"]\\n', 0, ["11-15"])""")
    assert tagged == '[Event "Club"]\n[Result "*"]\n\n1. 11-15'
    clocks = rules.evaluate("""() => rules.writeRecord("1. 11-15 {[%clk 0:29:50]} 23-19 {[%clk 0:29:40]} 1/2-1/2",
                                                   2, ["8-11"])""")
    assert clocks == "1. 11-15 {[%clk 0:29:50]} 23-19 {[%clk 0:29:40]} 2. 8-11"
