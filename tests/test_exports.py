"""Exports: the ruling as a comment on the record, the result as TRF codes."""

from __future__ import annotations

import io

import chess.pgn
import pytest

from adjudicator.exports import ExportError, annotate_record, comment_text, ruling_comment, trf_codes

PGN = """[Event "Club"]
[White "Ann"]
[Black "Bob"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 *
"""


def test_the_ruling_becomes_a_comment_before_the_new_result() -> None:
    text = annotate_record(PGN, "1/2-1/2", "Adjudicated: a draw {2-1 split}")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.headers["Result"] == "1/2-1/2"
    assert game.end().comment == "Adjudicated: a draw (2-1 split)"
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert text.rstrip().endswith("1/2-1/2")
    assert "*" not in text


def test_a_record_without_tags_or_result_gets_one() -> None:
    text = annotate_record("1. d4 d5", "1-0", "by adjudication")
    assert text == "1. d4 d5\n{by adjudication} 1-0\n"


def test_a_record_without_result_tag_gets_the_tag() -> None:
    text = annotate_record('[Event "x"]\n\n1. d4 d5 0-1', "1-0", "c")
    assert '[Result "1-0"]' in text
    assert text.rstrip().endswith("{c} 1-0")


def test_a_long_comment_is_wrapped_to_pgn_export_lines() -> None:
    text = annotate_record("1. d4 d5 *", "1/2-1/2", "a long reason " * 20)
    assert all(len(line) <= 79 for line in text.splitlines())
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and " ".join(game.end().comment.split()) == ("a long reason " * 20).strip()


def test_a_position_without_record_gives_a_record_starting_there() -> None:
    fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
    game = chess.pgn.read_game(io.StringIO(annotate_record(None, "1-0", "ruled", fen=fen)))
    assert game is not None and game.board().fen() == fen and game.headers["Result"] == "1-0"


def test_a_pdn_record_keeps_its_moves_and_gets_the_comment() -> None:
    text = annotate_record('[Event "ACF"]\n[Result "*"]\n1. 11-15 23-19 2. 8-11 22-17 *', "1/2-1/2", "draw",
                           game="checkers")
    assert '[Result "1/2-1/2"]' in text
    assert "1. 11-15 23-19 2. 8-11 22-17\n{draw} 1/2-1/2" in text


def test_comments_never_close_early() -> None:
    assert comment_text("a } b {c}\nd") == "a ) b (c) d"


def test_trf_codes_for_an_adjudicated_game_are_played_game_codes() -> None:
    assert trf_codes("1-0").codes == {"white": "1", "black": "0"}
    assert trf_codes("1/2-1/2").codes == {"white": "=", "black": "="}
    assert trf_codes("0-1", game="checkers").codes == {"red": "0", "white": "1"}
    assert trf_codes("1-0", forfeit=True).codes == {"white": "+", "black": "-"}
    assert trf_codes("1-0").sentence == "1-0 by adjudication: TRF code 1 for White, 0 for Black"
    with pytest.raises(ExportError):
        trf_codes("1/2-1/2", forfeit=True)
    with pytest.raises(ExportError):
        trf_codes("2-0")  # type: ignore[arg-type]


def test_ruling_comment_names_who_and_the_rule() -> None:
    text = ruling_comment("1/2-1/2", ["No win had a unanimous vote."], ["ACF Master Division local rules"],
                          who="Committee")
    assert text == "Committee: 1/2-1/2. No win had a unanimous vote. [ACF Master Division local rules]"
