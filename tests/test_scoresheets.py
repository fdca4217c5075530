"""Two scoresheets of one game (US Chess 14C9: the claimant's must show the claim, the opponent's may be
borrowed): the first ply where they read different moves, and what each has there, judged in the
position both reach. Real games: tests/data/checkers/tinsley.pdn (Marion Tinsley's games, its README);
the chess sheets are written here."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.checkers.board import START
from adjudicator.checkers.pdn import split_games
from adjudicator.checkers.replay import replay_checkers
from adjudicator.scoresheets import compare_scoresheets

DATA = Path(__file__).resolve().parent / "data" / "checkers"
TINSLEY = [g for g in split_games((DATA / "tinsley.pdn").read_text(encoding="utf-8", errors="replace"))[:80]
           if (r := replay_checkers(g)).plies and not r.illegal and not r.unreadable]


def test_the_same_moves_written_differently_are_the_same_scoresheet() -> None:
    a = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
    b = '[White "A"]\n1.e4 {[%clk 0:59:50]} e5 2.Ngf3 Nbc6 3.Bb5 a6 *'
    found = compare_scoresheets("chess", a, b)
    assert found.agree and found.first_difference is None and found.plies == (6, 6)
    assert found.sentence() == "The two scoresheets agree: the same 6 moves."
    checkers = compare_scoresheets("checkers", "1. 9-14 22-17 2. 5-9", "1. 9x14 22-17 2. 5-9 1-1")
    assert checkers.agree, "10x14 written for a quiet move is the move 10-14 (the replay reads squares)"


def test_the_first_difference_and_which_reading_is_legal() -> None:
    found = compare_scoresheets("chess", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6")
    assert found.first_difference == 6
    assert found.claimant is not None and found.claimant.move == "3...a6" and found.claimant.is_legal
    assert found.opponent is not None and found.opponent.move == "3...Nf6" and found.opponent.is_legal
    illegal = compare_scoresheets("checkers", "1. 11-15 22-18 2. 15x22", "1. 11-15 22-18 2. 8-11")
    assert illegal.first_difference == 3
    assert illegal.claimant is not None and illegal.claimant.is_legal
    assert illegal.opponent is not None and illegal.opponent.is_legal is False
    assert illegal.opponent.reason == "a jump was compulsory (15x22)"
    assert illegal.sentence() == ("They agree up to ply 2; at ply 3 the claimant's scoresheet has Red's 15x22 "
                                  "(legal), the opponent's Red's 8-11 (illegal: a jump was compulsory (15x22)).")


def test_a_sheet_that_ends_or_cannot_be_read_has_no_move_there() -> None:
    short = compare_scoresheets("chess", "1. e4 e5 2. Nf3", "1. e4 e5 2. Nf3 Nc6")
    assert short.first_difference == 4 and short.claimant is not None and short.claimant.move is None
    assert short.claimant.describe() == "no move (it ends after ply 3)"
    blot = compare_scoresheets("chess", "1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Nf3 N?6")
    assert blot.first_difference == 4 and blot.opponent is not None and blot.opponent.token == "N?6"
    assert blot.opponent.move is None and "cannot be read" in blot.opponent.describe()


def test_sheets_that_cannot_be_compared_say_why() -> None:
    other_start = compare_scoresheets("chess", "1. e4", '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n1. Kb1')
    assert other_start.problem == "The two scoresheets start from different positions."
    unreadable = compare_scoresheets("checkers", "1. 11-15", '[FEN "X:nonsense"]\n1. 11-15')
    assert unreadable.problem is not None and unreadable.problem.startswith("The opponent's scoresheet cannot be read")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_one_move_changed_in_a_real_game_is_found_at_its_ply(data: st.DataObject) -> None:
    """A real game copied onto a second sheet with the move of one ply changed to another legal move (and
    the game cut there): the comparison names that ply, both readings legal, the earlier plies equal."""
    text = data.draw(st.sampled_from(TINSLEY))
    replay = replay_checkers(text)
    changeable = [p for p in replay.plies if len(p.before.legal_moves()) > 1]
    if not changeable:
        return
    ply = data.draw(st.sampled_from(changeable))
    other = data.draw(st.sampled_from([m for m in ply.before.legal_moves() if m != ply.move]))
    moves = [str(p.move) for p in replay.plies[: ply.number - 1]] + [str(other)]
    sheet = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    if replay.start != START:  # a FEN tag or a ballot start: the copy starts where the game did
        sheet = f'[FEN "{replay.start.fen()}"]\n{sheet}'
    found = compare_scoresheets("checkers", text, sheet)
    assert found.first_difference == ply.number, (text[:60], sheet)
    assert found.claimant is not None and found.claimant.is_legal
    assert found.opponent is not None and found.opponent.is_legal and found.opponent.token == str(other)
