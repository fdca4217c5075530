"""Reading real files (issue 20, item 5): what python-chess and scalachess read is read, and where the choice
is ours a stated rule decides it and a note names the ply (adjudicator/chess/movetext.py).

Each test is one class of real-file untidiness. Where python-chess reads the record, its main line and
headers are the reference (the installed ``chess.pgn``); scalachess's reading is cited where it differs
(its ``Parser`` strips a ``[pgn]`` wrapper and reads ``1–0``; it reads one game per text).
"""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from adjudicator.chess.movetext import split_games, tokens
from adjudicator.chess.replay import replay_chess, replay_games

GAME = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
"""Six plies of a Ruy Lopez."""


def python_chess(record: str) -> tuple[dict[str, str], list[str]]:
    """python-chess's headers and main line (SAN) of the first game of ``record``."""
    game = chess.pgn.read_game(io.StringIO(record))
    assert game is not None
    return dict(game.headers), [move.uci() for move in game.mainline_moves()]


def main_line(record: str) -> list[str]:
    replay = replay_chess(record)
    return [ply.move.uci() for ply in replay.plies if ply.move is not None]


def notes(record: str) -> list[tuple[int, str]]:
    return [(note.ply, note.token) for note in replay_chess(record, allow_unreadable=True).file_notes]


# ---------------------------------------------------------------- tags: any name python-chess reads

@pytest.mark.parametrize("name", ["BlackType", "WhiteType", "Black-Elo", "White:Title", "Opening+Var", "ECO2"])
def test_a_tag_name_outside_the_seven_is_a_tag_as_python_chess_reads_it(name: str) -> None:
    record = f'[Event "Computer match"]\n[{name} "program"]\n[Result "*"]\n\n{GAME} *'
    (game,) = split_games(record)
    assert game.tag(name) == "program" == python_chess(record)[0][name]
    assert main_line(record) == python_chess(record)[1] and len(game.moves) == 6


def test_a_tag_name_in_another_script_is_a_tag_too() -> None:
    (game,) = split_games(f'[Турнир "Чемпионат клуба"]\n[Event "x"]\n\n{GAME} *')
    assert game.tag("Турнир") == "Чемпионат клуба" and game.tag("Event") == "x" and len(game.moves) == 6


def test_a_tag_value_with_quotes_left_unescaped_is_read_to_its_last_quote_as_python_chess_reads_it() -> None:
    record = f'[Event "x"]\n[Annotator "John "JJ" Smith"]\n\n{GAME} *'
    (game,) = split_games(record)
    assert game.tag("Annotator") == 'John "JJ" Smith' == python_chess(record)[0]["Annotator"]
    assert main_line(record) == python_chess(record)[1]


def test_a_bracketed_line_with_no_quoted_value_is_not_skipped_as_a_header() -> None:
    # python-chess skips any malformed header line unseen; here it may hold moves, so its '[' is reported
    for line in ("[Round 3]", "[1. e4 e5]"):
        replay = replay_chess(f'[Event "x"]\n{line}\n\n{GAME} *', allow_unreadable=True)
        assert [(u.ply, u.token) for u in replay.unreadable] == [(1, "[")], line


# ---------------------------------------------------------------- a forum's [pgn] wrapper (scalachess strips it)

@pytest.mark.parametrize(
    "record",
    [f"[pgn]{GAME}[/pgn]", f"[pgn]\n{GAME} *\n[/pgn]", f'[PGN][Event "x"]\n\n{GAME} 1-0[/PGN]'],
    ids=["around moves", "on lines of their own", "around tags, in capitals"],
)
def test_a_pgn_wrapper_is_markup_not_moves(record: str) -> None:
    replay = replay_chess(record)
    assert len(replay.plies) == 6 and not replay.unreadable and replay.notes == ()
    assert [t.kind for t in tokens(record) if "pgn" in t.text.lower()] == ["tag", "tag"]


def test_two_wrapped_games_are_two_games() -> None:
    record = f'[pgn][Event "a"]\n\n{GAME} *[/pgn]\n[pgn][Event "b"]\n\n1. d4 d5 *[/pgn]\n'
    games = list(split_games(record))
    assert [g.tag("Event") for g in games] == ["a", "b"] and [len(g.moves) for g in games] == [6, 2]


# ---------------------------------------------------------------- brackets that enclose no variation

def test_a_close_bracket_with_no_variation_open_is_read_past_with_a_note_at_its_ply() -> None:
    record = "1. e4 e5 2. Nf3 ) Nc6 3. Bb5 a6 *"
    assert main_line(record) == python_chess(record)[1] == main_line(f"{GAME} *")
    assert notes(record) == [(4, ")")]
    replay = replay_chess(record)
    (note,) = replay.file_notes
    assert "closes nothing" in note.text
    assert replay.to_json()["notes"] == [{"ply": 4, "token": ")", "kind": "read-past", "note": note.text}]


def test_brackets_before_the_first_move_open_no_variation_and_the_game_is_read() -> None:
    # python-chess reads past a '(' with no move before it: there is nothing yet for a variation to vary
    for record in (f"(((\n{GAME} *", f"({GAME}) *"):
        assert main_line(record) == python_chess(record)[1] == main_line(f"{GAME} *"), record
    assert notes(f"(((\n{GAME} *") == [(1, "(((")]
    assert notes(f"({GAME}) *") == [(1, "("), (7, ")")]


def test_brackets_never_closed_with_no_move_after_them_are_read_past() -> None:
    replay = replay_chess(f"{GAME} ((( 1-0")
    assert len(replay.plies) == 6 and not replay.unreadable and replay.result == "1-0"
    assert [(n.ply, n.token) for n in replay.file_notes] == [(7, "(((")]
    assert "encloses nothing" in replay.file_notes[0].text


def test_a_variation_never_closed_that_holds_moves_still_stops_the_replay_where_it_opens() -> None:
    # the moves after it cannot be told from the variation: read either way, a move could be invented
    replay = replay_chess("1. e4 e5 ((( 2. Nf3 Nc6 *", allow_unreadable=True)
    assert len(replay.plies) == 2 and [(u.ply, u.token) for u in replay.unreadable] == [(3, "(")]


def test_closed_variations_at_any_depth_are_variations_as_before() -> None:
    record = "1. e4 e5 2. Nf3 (((2. d4 exd4))) (2. Bc4) Nc6 3. Bb5 a6 *"
    assert main_line(record) == main_line(f"{GAME} *") and notes(record) == []


# ---------------------------------------------------------------- results written with other dashes

@pytest.mark.parametrize(
    ("written", "result"),
    [("1–0", "1-0"), ("0–1", "0-1"), ("½–½", "1/2-1/2"), ("1/2–1/2", "1/2-1/2"), ("1—0", "1-0"),
     ("0\u20111", "0-1"), ("1\u22120", "1-0")],
    ids=["en dash", "en dash, Black", "en dash, halves", "en dash, fractions", "em dash", "non-breaking hyphen",
         "minus sign"],
)
def test_a_result_written_with_another_dash_is_the_result(written: str, result: str) -> None:
    replay = replay_chess(f"{GAME} {written}")
    assert replay.result == result and len(replay.plies) == 6 and not replay.unreadable


def test_a_game_after_an_en_dash_result_is_the_next_game() -> None:
    games = list(split_games(f"{GAME} 1–0\n1. d4 d5 0–1"))
    assert [(len(g.moves), g.result) for g in games] == [(6, "1-0"), (2, "0-1")]


# ---------------------------------------------------------------- untagged games apart by a blank line

def test_untagged_games_apart_by_a_blank_line_are_two_games_not_one_with_invented_moves() -> None:
    # before: one game of ten plies, the second game's 1. d4 read as Black's 4th move (illegal)
    record = f"{GAME}\n\n1. d4 d5 2. c4 e6\n"
    first, second = replay_games(record)
    assert len(first.plies) == 6 and not first.illegal and len(second.plies) == 4 and not second.illegal
    after = "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3"
    assert second.final_board.fen() == chess.Board(after).fen()
    (note,) = first.file_notes
    assert (note.ply, note.token, note.kind) == (7, "1.", "new-game") and "blank line" in note.text
    assert python_chess(record)[1] == main_line(f"{GAME} *")  # python-chess ends the first game there too


def test_a_blank_line_inside_a_game_is_only_spacing() -> None:
    # the stated rule: only White's first move number after a blank line starts a game
    for record in ("1. e4 e5\n\n2. Nf3 Nc6\n\n3. Bb5 a6 *", f'[Event "x"]\n\n\n{GAME}\n\n1-0', "1. e4\n\n1... e5 *"):
        assert len(list(split_games(record))) == 1, record
        assert replay_chess(record).file_notes == ()
