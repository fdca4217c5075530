"""The move-entry board's questions to the server (issue 21): the record as the ruling reads it
(``POST /claims/record``) and the candidate moves (``GET /claims/candidates``), with real Stockfish
and the opening book when installed. A bad field is a 422 naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.chess.candidates import SHOWN
from engines.chess.entry import DEBIAN_BOOK, CandidateEngine, Candidates, OpeningBook
from tests.web.conftest import make_app

RUY = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"


def read(client: FlaskClient, record: str, **fields: str) -> tuple[int, dict[str, Any]]:
    response = client.post("/claims/record", data={"record": record, **fields})
    return response.status_code, response.get_json()


def test_a_record_is_read_ply_by_ply_with_each_token_s_place(client: FlaskClient) -> None:
    record = '[Event "Club"]\n\n' + RUY + " {[%clk 0:10:00]} 4. Ba4"
    status, answer = read(client, record)
    assert status == 200
    plies = answer["plies"]
    assert len(plies) == 7
    assert [record[p["start"]:p["end"]] for p in plies] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    assert [p["label"] for p in plies[:2]] == ["1.e4", "1...e5"]
    assert plies[2]["uci"] == "g1f3" and plies[2]["is_legal"] is True
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"):
        board.push_san(san)
    assert plies[-1]["fen"] == board.fen()
    assert answer["unreadable"] is None and answer["language"] == "en"


def test_places_are_counted_as_the_page_counts_them() -> None:
    from web.claims.entry import read_record

    record = "{a comment 🙂} 1. e4 e5"  # the emoji is two UTF-16 code units, as in a JavaScript string
    plies = read_record(record, None)["plies"]
    assert [record.encode("utf-16-le")[2 * p["start"]:2 * p["end"]].decode("utf-16-le") for p in plies] == ["e4", "e5"]


def test_an_illegal_move_in_long_form_is_read_as_that_move_and_marked(client: FlaskClient) -> None:
    status, answer = read(client, "1. e4 e5 2. Qd1-d4")
    assert status == 200
    last = answer["plies"][-1]
    assert last["uci"] == "d1d4" and last["is_legal"] is False and last["san"] == "Qd1-d4"
    assert "cannot pass" in last["reason"]


def test_an_unreadable_token_is_named_with_its_place(client: FlaskClient) -> None:
    record = "1. e4 e5 2. Xz9 Nc6"
    status, answer = read(client, record)
    assert status == 200 and len(answer["plies"]) == 2
    bad = answer["unreadable"]
    assert isinstance(bad, dict) and bad["ply"] == 3 and record[bad["start"]:bad["end"]] == "Xz9"


def test_a_record_in_german_letters_is_read_in_german(client: FlaskClient) -> None:
    status, answer = read(client, "1. e4 e5 2. Sf3 Sc6 3. Lb5", language="de")
    assert status == 200 and answer["language"] == "de"
    assert [p["san"] for p in answer["plies"]] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_bad_fields_are_422_naming_the_field(client: FlaskClient) -> None:
    status, answer = read(client, RUY, language="xx")
    assert status == 422 and answer["field"] == "language"
    status, answer = read(client, '[Variant "Crazyhouse"]\n1. e4', game="chess")
    assert status == 422 and answer["field"] == "record"
    for query, field in (({"fen": "nonsense"}, "fen"), ({"fen": chess.STARTING_FEN, "last": "zz"}, "last"),
                         ({"fen": chess.STARTING_FEN, "seen": [chess.STARTING_FEN] * 101}, "seen")):
        response = client.get("/claims/candidates", query_string=query)
        assert response.status_code == 422 and response.get_json()["field"] == field


def test_the_candidates_put_the_return_to_an_earlier_position_first(client: FlaskClient) -> None:
    board = chess.Board()
    seen = [board.fen()]
    for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
        board.push_san(san)
        seen.append(board.fen())
    # White to move in the start position again: Nf3 returns to the position after 1. Nf3
    response = client.get("/claims/candidates", query_string={"fen": board.fen(), "seen": seen[1::2]})
    assert response.status_code == 200
    candidates = response.get_json()["candidates"]
    assert candidates[0] == {"uci": "g1f3", "san": "Nf3", "source": "repetition"}
    assert len(candidates) == SHOWN and all(chess.Move.from_uci(c["uci"]) in board.legal_moves for c in candidates)


def test_a_middlegame_position_gets_the_engine_s_moves(client: FlaskClient) -> None:
    fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P3BPPP/R1BQ1RK1 w - - 0 9"
    answer = client.get("/claims/candidates", query_string={"fen": fen}).get_json()
    sources = {c["source"] for c in answer["candidates"]}
    assert "engine" in sources, answer
    assert answer["ms"] >= 0


def test_a_position_no_game_reaches_gets_candidates_without_the_engine(client: FlaskClient) -> None:
    # after an illegal move entered on purpose: White's king in check with Black to move
    fen = "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1"
    answer = client.get("/claims/candidates", query_string={"fen": fen}).get_json()
    assert answer["candidates"] and {c["source"] for c in answer["candidates"]} == {"heuristic"}


def test_the_candidate_engine_is_ended_with_the_app(tmp_path: Path) -> None:
    application: Flask = make_app(tmp_path)
    client = application.test_client()
    client.get("/claims/candidates", query_string={"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"})
    service = application.extensions["move_entry"]
    assert service.engine is not None and service.engine.pids(), "the engine runs"
    application.extensions["adjudicator"].shutdown()
    assert service.engine.pids() == []


def test_the_engine_gives_its_best_moves_legal_and_best_first() -> None:
    engine = CandidateEngine.from_config({})
    try:
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        moves = engine.top_moves(board, nodes=2000, count=4)
        assert moves[0] == chess.Move.from_uci("a1a8"), "mate in one first"
        assert 1 <= len(moves) <= 4 and all(m in board.legal_moves for m in moves)
    finally:
        engine.close()


@pytest.mark.skipif(not Path(DEBIAN_BOOK).is_file(), reason="Debian's gnuchess-book is not installed (.ci/install)")
def test_the_opening_book_knows_the_start() -> None:
    book = OpeningBook.find()
    assert book is not None
    moves = book.moves(chess.Board())
    assert {chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")} <= set(moves[:3])
    assert book.moves(chess.Board("8/8/8/4k3/8/8/4K3/8 w - - 0 1")) == []


def test_without_engine_or_book_the_heuristic_still_offers_moves() -> None:
    service = Candidates.from_config({"entry": {"engine_nodes": 0, "book": ""}})
    assert service.engine is None and service.book is None
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
    board.push_san("exd4")
    ranked = service.rank(board, [], board.peek())
    assert ranked[0].san == "Nxd4" and ranked[0].source == "heuristic"


@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60),
       st.sampled_from(["{1}. {0}", "{1}.{0}", "{0}"]), st.sampled_from([" ", "\n", "  ", " {[%clk 0:01:00]} "]))
@settings(max_examples=60, deadline=None)
def test_every_ply_s_place_in_the_text_is_its_token(choices: list[int], numbering: str, gap: str) -> None:
    """Whatever the spacing, the move numbers and the comments, the page can cut the text at each ply."""
    from web.claims.entry import read_record

    board, words, moves = chess.Board(), [], []
    for choice in choices:
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = legal[choice % len(legal)]
        san = board.san(move)
        words.append(numbering.format(san, board.fullmove_number) if board.turn == chess.WHITE else san)
        moves.append(move.uci())
        board.push(move)
    record = gap.join(words)
    plies = read_record(record, None)["plies"]
    assert [p["uci"] for p in plies] == moves
    assert [record[p["start"]:p["end"]] for p in plies] == [p["token"] for p in plies]
    assert plies[-1]["fen"] == board.fen()
