"""Every token of a chess record is accounted for (adjudicator/chess/movetext.py, FIDE 8.1).

A token is a move (legal, or illegal as played), a known non-move (move number,
result, comment, NAG, glyph, variation, clock comment), or unreadable: an
unreadable token stops the replay at its own ply and is never skipped. Checked
against python-chess, which replays the moves before the token independently.
"""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.chess.movetext import BROKEN_TAG_NOTE, split_games, tokens
from adjudicator.chess.replay import RecordError, replay_chess

NOISE = ["Qh9", "Bxx4", "e9", "Xe4", "hello", "Ka0", "Nz3", "x", "Q", "]", "}", "e4e4e4", "0-1-0", "h0"]
"""Tokens that are no move in any language's letters: each must be reported where it stands."""


def _unreadable(record: str) -> tuple[int, list[tuple[int, str]]]:
    replay = replay_chess(record, allow_unreadable=True)
    return len(replay.plies), [(u.ply, u.token) for u in replay.unreadable]


@pytest.mark.parametrize("noise", ["Qh9", "Bxx4", "e9"])
def test_a_token_that_is_no_move_stops_the_replay_at_its_own_ply(noise: str) -> None:
    # the example: `printf '1. e4 e5 2. Qh9 *' | adjudicator replay -` reported nothing
    assert _unreadable(f"1. e4 e5 2. {noise} *") == (2, [(3, noise)])


def test_the_next_readable_move_is_never_named_as_the_unreadable_one() -> None:
    plies, bad = _unreadable("1. e4 e5 2. Nf3 Nc6 3. Bb5 Qh9 4. O-O Nf6 *")
    assert plies == 5 and bad == [(6, "Qh9")]


def test_a_claim_on_a_record_with_an_unreadable_token_is_an_error_naming_the_ply() -> None:
    with pytest.raises(RecordError) as err:
        replay_chess("1. e4 e5 2. Nf3 e9 3. Bc4")
    assert err.value.ply == 4 and "'e9'" in err.value.message


def test_an_assessment_written_onto_a_move_is_a_glyph_not_part_of_the_move() -> None:
    replay = replay_chess("1. e4+/- e5-+ 2. Nf3+= Nc6=/∞ 3. Bb5!? a6?! 4. Ba4⩲ Nf6∓ *")
    assert len(replay.plies) == 8 and not replay.unreadable and not replay.illegal


@pytest.mark.parametrize(
    "record",
    [
        "1. e4 e5 2. Nf3 $1 Nc6 $14 *",                       # NAGs
        "1. e4 e5 2. Nf3 !? Nc6 ?? 3. Bb5 +- a6 = *",        # glyphs standing alone
        "1. e4 e5 2. Nf3 (2. Bc4 Nf6 (2... Bc5)) Nc6 *",     # nested variations
        "1. e4 {[%clk 0:59:58]} e5 {[%clk 0:59:50]} 2. Nf3 Nc6 *",  # clock comments
        "1. e4 e5 ; a line comment\n2. Nf3 Nc6 *",
        "1. e4 1... e5 2. Nf3 2… Nc6 *",                     # move numbers in every style
        "1.e4 e5 2 Nf3 ... Nc6 *",
        "1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. Bc4 N Nc6 (=) *",  # en passant, a novelty, a draw offer
        "\ufeff1. e4 e5 2. Nf3 Nc6 *",                        # a byte-order mark is spacing
    ],
)
def test_known_non_moves_are_read_past(record: str) -> None:
    replay = replay_chess(record)
    reference = chess.Board()
    moves = [t.text for t in next(split_games(record)).moves]
    for text in moves:
        reference.push_san(text.replace("e.p.", "").rstrip("!?+#"))
    assert replay.final_board.board_fen() == reference.board_fen()


@pytest.mark.parametrize("record, result", [("1. e4 e5 1:0", "1-0"), ("1. e4 e5 0:1", "0-1"),
                                            ("1. e4 e5 ½-½", "1/2-1/2"), ("1. e4 e5 1/2", "1/2-1/2")])
def test_results_in_the_usual_spellings_end_the_game(record: str, result: str) -> None:
    replay = replay_chess(record)
    assert replay.result == result and len(replay.plies) == 2


def test_a_word_after_the_moves_is_reported_not_dropped() -> None:
    assert _unreadable("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 resigns 1-0") == (7, [(8, "resigns")])


def test_a_variation_that_is_never_closed_is_reported_where_it_opens() -> None:
    plies, bad = _unreadable("1. e4 e5 2. Nf3 (2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#")
    assert plies == 3 and bad == [(4, "(")]


def test_an_unclosed_variation_does_not_swallow_the_next_game() -> None:
    record = '[Event "a"]\n\n1. e4 (1. d4 d5\n\n[Event "b"]\n\n1. d4 d5 2. c4 *'
    first, second = (replay_chess_game for replay_chess_game in split_games(record))
    assert [m.text for m in first.moves] == ["e4", "("]
    assert [m.text for m in second.moves] == ["d4", "d5", "c4"] and second.tag("Event") == "b"


def _read(text: str) -> list[tuple[list[str], str | None, list[str]]]:
    return [([m.text for m in game.moves], game.result, [note.token for note in game.notes])
            for game in split_games(text)]


@pytest.mark.parametrize(("before", "game"), [
    ("1. e4 1-0\n", "1-0 ( e5 ) "),  # a second result starts a game with no move yet
    ("1. e4 1-0\n", "1-0 ( ) "),
    ("1. e4\n\n", "1. ( e5 ) *"),  # move number 1 after a blank line starts a game
])
def test_a_game_reads_the_same_after_another_game_as_alone(before: str, game: str) -> None:
    """A bracket in a game with no move yet varies nothing: it is read past with a note, whatever game came
    before, never a variation of the last game's moves hiding the moves inside it (a random seed found the
    stream and the whole text reading such a game differently: tests/test_movetext_stream.py)."""
    assert _read(before + game)[1:] == _read(game)
    assert any(tokens for _moves, _result, tokens in _read(game)), "the bracket is noted, not dropped"


def test_a_comment_that_swallows_moves_is_reported_but_a_closing_note_is_not() -> None:
    assert _unreadable("1. e4 e5 {a note 2. Nf3 Nc6 3. Bb5") == (2, [(3, "{")])
    assert _unreadable("1. e4 e5 {a closing note without its brace") == (2, [])
    assert _unreadable("1. e4 e5 {a *great* closing note") == (2, []), "a '*' in words is no result"


NEXT_GAME = '[Event "Next"]\n[Result "0-1"]\n\n1. d4 {[%clk 0:59:58]} d5 {[%clk 0:59:57]} 0-1\n'


@pytest.mark.parametrize("spoilt", [
    '[Event "Spoilt"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb{5 a6 1-0\n\n',
    '[Event "Spoilt"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {*\n\n',  # it swallows the result alone
    '[Event "Spoilt"]\r\n\r\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a note 1-0\r\n',  # no blank line, CRLF
    '[Event "Spoilt"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a note 1-0\n\x0c',  # a form feed before the tags
    '[Event "Spoilt"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a note 1-0\n\xa0',  # a no-break space before them
])
def test_a_comment_never_closed_ends_where_the_next_games_tags_begin(spoilt: str) -> None:
    """No silent game: a ``{`` never closed swallowed every game up to the next ``}`` (a random seed's
    collection lost four games inside one: tests/test_bulk_reader.py). It ends at a line that opens with a
    tag pair: the game it is in is unreadable there, and the games after it are read, the same as alone."""
    games = _read(spoilt + NEXT_GAME)
    assert len(games) == 2
    assert games[0][0][-1] == "{", "the game it is in is unreadable at the comment"
    assert games[1:] == _read(NEXT_GAME)
    assert list(split_games(spoilt + NEXT_GAME))[1].tags[0] == ("Event", "Next")


def test_a_brace_that_closes_only_in_the_next_game_closes_nothing_across_its_tags() -> None:
    """The next game's tags end the comment first; its ``}`` is a stray one in that game (the compiled reader
    once took the two games for one clean game: tests/test_bulk_reader.py reads this literal both ways)."""
    games = _read('[Event "A"]\n\n1. e4 e5 2. Nf3 {a note\n\n[Event "B"]\n\n} Nc6 3. Bb5 *')
    assert [moves for moves, _result, _notes in games] == [["e4", "e5", "Nf3"], ["}", "Nc6", "Bb5"]]


def test_a_comment_quoting_a_tag_line_is_cut_there_visibly_never_silently() -> None:
    """The price of the rule: a comment that quotes a tag pair at the start of a line (rare, and python-chess
    reads it as comment text) is cut there too; what follows is a game whose first word is unreadable, so the
    arbiter sees it, and no game is ever hidden inside a comment."""
    text = '[Event "A"]\n\n1. e4 {The game was published as\n[Event "Old"]\nin 1923} e5 2. Nf3 *\n'
    assert _read(text) == [(["e4"], None, []), (["in", "}", "e5", "Nf3"], "*", [])]
    second = list(split_games(text))[1]
    assert replay_chess(text[second.offset:], allow_unreadable=True).unreadable[0].ply == 1


@pytest.mark.parametrize("text", [
    '[Event "A"]\r[Result "1-0"]\r\r1. e4 e5 ; a note\r2. Nf3 1-0\r\r[Event "B"]\r[Result "1-0"]\r\r1. d4 d5 1-0\r',
    '[Event "A"]\r\r1. e4 {never closed e5 *\r\r[Event "B"]\r\r1. d4 d5 1-0\r\r[Event "C"]\r\r1. c4 {ok} c5 0-1\r',
    '1. e4 e5 2. Nf3 *\r\r1. d4 d5 *\r%an escaped line 3. c4\r',
])
def test_a_lone_carriage_return_ends_a_line_as_a_line_feed_does(text: str) -> None:
    """Old Mac OS files end their lines with a lone ``\\r``: a ``;`` comment there swallowed the rest of the file,
    the next game with it, and a never-closed comment ran to a ``}`` games later. Read as the same file with
    ``\\n``, at the same offsets (tests/test_bulk_reader.py reads these literals with the compiled reader too)."""
    as_lines = text.replace("\r", "\n")
    assert _read(text) == _read(as_lines)
    assert len(_read(text)) >= 2
    assert [game.offset for game in split_games(text)] == [game.offset for game in split_games(as_lines)]


def test_a_comment_closed_only_by_a_later_comments_brace_is_unreadable_where_it_opens() -> None:
    """A ``{`` never closed runs on to the next comment's ``}``: the moves (here a whole untagged game) between
    them were read as comment text and the moves after it as this game's, without a word. A second ``{`` inside a
    comment that holds moves tells it; one holding a brace and no move stays a comment to its first ``}``."""
    text = '[Event "a"]\n1. e4 e5 2. Nf3 {unclosed\n\n1. d4 {Queen pawn} Nc6 *\n'
    assert _unreadable(text) == (3, [(4, "{")])
    assert _read("1. e4 {a {note} e5 *") == [(["e4", "e5"], "*", [])]
    assert _unreadable("1. e4 {Better is 1. d4 {see note} e5 2. Qh5 Nc6 *") == (4, []), "a '{' in a comment is text"


def test_a_comment_never_closed_that_holds_moves_without_numbers_is_unreadable() -> None:
    """Moves written without numbers (or a result glued to the next game's tag) inside a comment cut at the next
    game's tags: they were read as comment text, the game ending early without a word."""
    text = '[Event "a"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {Spanish\na6 Ba4 Nf6 O-O\n[Event "b"]\n1. d4 d5 0-1\n'
    assert _unreadable(text) == (5, [(6, "{")])
    assert _unreadable('1. e4 e5 2. Nf3 {oops Nc6 1-0[Event "b"]\n1. d4 *') == (3, [(4, "{")])
    assert _unreadable("1. e4 e5 {a closing note never closed") == (2, [])


def test_a_variation_that_a_new_game_starts_in_was_never_closed() -> None:
    """``1.`` after a blank line starts a game, inside a variation too (as a tag pair does): the variation opened
    before it is never closed (unreadable where it opens) and the next game is read. It ran on to that game's
    ``)``, and the next game was read as a variation of this one, without a word."""
    games = list(split_games("1. e4 e5 2. Nf3 (2. Nc3 Nc6 1-0\n\n1. d4 d5 2. c4 c6) Nc6 *\n"))
    assert [[(m.text, m.unreadable is not None) for m in g.moves] for g in games] == [
        [("e4", False), ("e5", False), ("Nf3", False), ("(", True)],
        [("d4", False), ("d5", False), ("c4", False), ("c6", False), ("Nc6", False)]]
    assert _read("1. e4 e5 2. Nf3 (2. Nc3 Nc6\n3. d4) Nc6 *") == [(["e4", "e5", "Nf3", "Nc6"], "*", [])]


@pytest.mark.parametrize(("text", "games"), [
    # prose naming a square in a comment never closed after the result: no phantom game (a review's case)
    ('[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 1-0 {White then played a4 and won\n\n[Event "b"]\n\n1. d4 d5 0-1\n',
     [["e4", "e5", "Nf3", "Nc6"], ["d4", "d5"]]),
    # an annotator's comment quoting a game, with a brace inside: text, as PGN has it
    ("1. e4 {Compare {the game\n\n1. d4 d5, which went} e5 2. Nf3 *", [["e4", "e5", "Nf3"]]),
    # a header line missing its bracket, not a game on one line: read past whole, as before, and noted
    ('[Event "Bundesliga "2. Liga"\n[Site "x"]\n\n1. e4 e5 *\n', [["e4", "e5"]]),
])
def test_what_reads_well_stays_read_as_before(text: str, games: list[list[str]]) -> None:
    """The rules that find a swallowed or broken game do not fire on what they only look like."""
    assert [moves for moves, _result, _notes in _read(text)] == games
    assert _unreadable(text.split("[Event \"b\"]")[0])[1] == []


def test_a_header_line_holding_two_tag_pairs_one_broken_takes_neither_and_says_so() -> None:
    games = list(split_games('[Event "b] [Site "c"] 1. d4 *'))
    assert [(g.tags, [m.text for m in g.moves]) for g in games] == [([], ["d4"])]
    assert [(note.token, note.text) for note in games[0].notes] == [('[Event "b] [Site "c"]', BROKEN_TAG_NOTE)]


def test_a_comment_spanning_lines_is_still_one_comment() -> None:
    assert _read("1. e4 {a note\nover [two] lines\n[not a tag} e5 *") == [(["e4", "e5"], "*", [])]


@pytest.mark.parametrize("stray", ["]", "}", "["])
def test_a_stray_bracket_in_the_moves_is_reported(stray: str) -> None:
    # a stray ')' is read past with a note instead (tests/test_movetext_files.py)
    assert _unreadable(f"1. e4 e5 2. Nf3 {stray} Nc6 *") == (3, [(4, stray)])


def test_a_broken_tag_line_in_the_header_is_not_a_move() -> None:
    assert _unreadable('[Event "Club ch\n[Site "?"]\n\n1. e4 e5 *') == (2, [])


def test_a_broken_tag_pair_in_a_one_line_game_keeps_the_games_moves_and_says_so() -> None:
    """A one-line export with a tag pair not closed: the moves and result after it on the line are the game's.
    They were read past with the tag, and the game lost without a word (its tags went to the next game)."""
    text = ('[Event "a"] [Site "x"] 1. e4 e5 1-0\n[Event "b"] [Site "y" 1. d4 d5 2. c4 0-1\n'
            '[Event "c"] [Site "z"] 1. c4 c5 1/2-1/2\n')
    games = list(split_games(text))
    assert [(g.tag("Event"), [m.text for m in g.moves], g.result) for g in games] == [
        ("a", ["e4", "e5"], "1-0"), ("b", ["d4", "d5", "c4"], "0-1"), ("c", ["c4", "c5"], "1/2-1/2")]
    assert [(note.token, note.text) for note in games[1].notes] == [('[Site "y"', BROKEN_TAG_NOTE)]
    first = list(split_games('[Event "a" 1. e4 e5 1-0\n[Event "b"]\n1. d4 d5 0-1\n'))
    assert [([m.text for m in g.moves], g.result) for g in first] == [(["e4", "e5"], "1-0"), (["d4", "d5"], "0-1")]
    two_in_one = list(split_games('[Event "b] [Site "c"] 1. d4 d5 *\n'))
    assert [([m.text for m in g.moves], g.result) for g in two_in_one] == [(["d4", "d5"], "*")]


def test_a_garbled_tag_line_is_read_past_whole_and_noted() -> None:
    games = list(split_games('[Event "x"y"\n[Site "s"]\n\n1. e4 e5 *\n'))
    assert [(g.tags, [m.text for m in g.moves]) for g in games] == [([("Site", "s")], ["e4", "e5"])]
    assert [note.token for note in games[0].notes] == ['[Event "x"y"']


def test_every_character_of_the_record_belongs_to_a_token() -> None:
    record = '[Event "x"]\n1. e4 {[%clk 1:00:00]} e5 $1 (1... c5 2. Nf3) 2. Nf3!? ; note\nQh9 ] 1-0'
    covered: set[int] = set()
    for token in tokens(record):
        covered.update(range(token.offset, token.offset + len(token.text)))
    assert all(i in covered for i, ch in enumerate(record) if not ch.isspace())
    kinds = {t.text: t.kind for t in tokens(record)}
    assert kinds["e4"] == "move" and kinds["Qh9"] == "move" and kinds["]"] == "unreadable"
    assert kinds["$1"] == "nag" and kinds["{[%clk 1:00:00]}"] == "clock-comment" and kinds["1-0"] == "result"


@st.composite
def noisy_games(draw: st.DrawFn) -> tuple[str, int, str, list[str]]:
    """A random legal game written as a scoresheet, with noise tokens put in at random places.

    Returns (record, expected ply of the first noise token, that token, the SAN moves before it).
    """
    board = chess.Board()
    sans: list[str] = []
    for _ in range(draw(st.integers(min_value=0, max_value=60))):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[draw(st.integers(min_value=0, max_value=len(moves) - 1))]
        sans.append(board.san(move))
        board.push(move)
    noise = draw(st.lists(st.sampled_from(NOISE), min_size=1, max_size=3))
    places = sorted(draw(st.lists(st.integers(min_value=0, max_value=len(sans)), min_size=len(noise),
                                  max_size=len(noise))))
    parts: list[str] = []
    mains: list[str] = []  # main-line tokens in order: moves and noise
    inserted = dict.fromkeys(range(len(sans) + 1), 0)
    for place in places:
        inserted[place] += 1
    pending = list(noise)
    for index in range(len(sans) + 1):
        for _ in range(inserted[index]):
            token = pending.pop(0)
            parts.append(token)
            mains.append(token)
        if index == len(sans):
            break
        if index % 2 == 0:
            parts.append(f"{index // 2 + 1}.")
        if draw(st.booleans()) and index % 7 == 3:
            parts.append(draw(st.sampled_from(["{a comment}", "$2", "!?", "{[%clk 0:10:00]}", "(1. d4 d5)"])))
        parts.append(sans[index])
        mains.append(sans[index])
    first = next(i for i, token in enumerate(mains) if token in NOISE)
    return " ".join(parts) + " *", first + 1, mains[first], mains[:first]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noisy_games())
def test_noise_anywhere_is_reported_as_the_first_unreadable_token_at_its_exact_ply(
    game: tuple[str, int, str, list[str]],
) -> None:
    record, ply, token, before = game
    replay = replay_chess(record, allow_unreadable=True)
    assert [(u.ply, u.token) for u in replay.unreadable] == [(ply, token)]
    reference = chess.Board()
    for san in before:
        reference.push_san(san)
    assert len(replay.plies) == ply - 1
    assert replay.final_board.fen() == reference.fen()
