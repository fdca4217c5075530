"""Piece letters in their own script and language (FIDE C.3; issue 20).

A Cyrillic letter means a Cyrillic-script language (Russian, Ukrainian, Bulgarian),
never a Latin one: ``К`` is a Russian knight, never an English king; ``Ф`` a Russian
queen, never a French bishop. Every language the reader knows reads the same game,
and the language chosen is shown as a note at the record's first piece letter.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest

from adjudicator.chess.notation import LANGUAGE_NAMES, LANGUAGE_SCRIPTS, LANGUAGES
from adjudicator.chess.replay import replay_chess
from adjudicator.contract import parse_case
from adjudicator.rule import rule
from adjudicator.rulesets import RulesetBook

RUY = "r1bqk2r/1pppbppp/p1n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 4 6"


@pytest.mark.parametrize(
    ("record", "language"),
    [
        ("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. 0-0 Кf6 5. Лe1 Сe7", "ru"),
        ("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. 0-0 Кf6 5. Тe1 Сe7", "uk"),
        ("1. e4 e5 2. Кf3 Кc6 3. Оb5 a6 4. 0-0 Кf6 5. Тe1 Оe7", "bg"),
        ("1. e4 e5 2. Cf3 Cc6 3. Nb5 a6 4. O-O Cf6 5. Te1 Ne7", "ro"),
        ("1. e4 e5 2. Rf3 Rc6 3. Lb5 a6 4. O-O Rf6 5. Te1 Le7", "fi"),
        ("1. e4 e5 2. Rf3 Rc6 3. Bb5 a6 4. O-O Rf6 5. He1 Be7", "is"),
        ("1. e4 e5 2. Rf3 Rc6 3. Ob5 a6 4. O-O Rf6 5. Ve1 Oe7", "et"),
        ("1. e4 e5 2. Žf3 Žc6 3. Rb5 a6 4. O-O Žf6 5. Be1 Re7", "lt"),
        ("1. e4 e5 2. Af3 Ac6 3. Fb5 a6 4. O-O Af6 5. Ke1 Fe7", "tr"),
        ("1. ε4 ε5 2. Ιζ3 Ιγ6 3. Αβ5 α6 4. O-O Ιζ6 5. Πε1 Αε7", "el"),
        # Swedish, Danish and Norwegian letters are German's: one reading, reported as German's
        ("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. O-O Sf6 5. Te1 Le7", "de"),
    ],
)
def test_every_language_reads_the_same_game(record: str, language: str) -> None:
    replay = replay_chess(record)
    assert replay.final_board.fen() == RUY
    assert replay.language == language and not replay.illegal and not replay.alternatives
    (note,) = [n for n in replay.notes if n.note.kind == "language"]
    assert note.ply == 3 and LANGUAGE_NAMES[language] in note.note.text


def test_a_russian_knight_is_never_an_english_king_so_the_illegal_move_claim_is_rejected(book: RulesetBook) -> None:
    replay = replay_chess("1. Кa3 e5")
    assert replay.language == "ru" and replay.plies[0].move == chess.Move(chess.B1, chess.A3)
    assert replay.plies[0].is_legal and not replay.alternatives
    decided = rule(parse_case({"game": "chess", "ruleset": "fide-standard", "claim": "illegal-move",
                               "claimant": "black", "record": "1. Кa3 e5", "alleged_illegal_ply": 1}), book)
    assert decided.verdict == "rejected"


def test_a_russian_queen_is_never_a_french_bishop() -> None:
    replay = replay_chess("1. e4 e6 2. d4 Фf6")
    assert replay.language == "ru" and replay.reading == "only" and not replay.alternatives
    assert replay.plies[3].move == chess.Move(chess.D8, chess.F6) and replay.plies[3].is_legal


def test_a_cyrillic_record_that_no_language_reads_through_is_still_read_in_a_cyrillic_language() -> None:
    replay = replay_chess("1. e4 e5 2. Кf3 Кc6 3. Кx9", allow_unreadable=True)
    assert replay.language in ("ru", "uk", "bg") and replay.reading == "furthest"
    assert [(u.ply, u.token) for u in replay.unreadable] == [(5, "Кx9")]


def test_cyrillic_letters_typed_for_latin_files_are_read_with_a_note() -> None:
    replay = replay_chess("1. е4 е5 2. Кf3 Кс6 3. Сb5 а6 4. О-О Кf6 5. Лe1 Сe7")  # Cyrillic е, с, а, О
    assert replay.final_board.fen() == RUY
    look = [n for n in replay.notes if n.note.kind == "look-alike"]
    assert [n.ply for n in look] == [1, 2, 4, 6, 7]


def test_transliterated_russian_still_reads() -> None:
    replay = replay_chess("1. e4 e5 2. Kf3 Kc6 3. Sb5 a6 4. 0-0 Kf6 5. Le1 Se7")
    assert replay.language == "ru" and replay.final_board.fen() == RUY


def test_romanian_n_is_the_bishop() -> None:
    replay = replay_chess("1. e4 e5 2. Nc4 Cc6")  # no knight reaches c4: the Romanian bishop does
    assert replay.language == "ro" and replay.plies[2].move == chess.Move(chess.F1, chess.C4)


def test_a_record_english_reads_keeps_english_and_shows_the_romanian_reading_beside_it() -> None:
    replay = replay_chess("1. e4 e5 2. Ne2 Ne7")  # English: knights; Romanian: bishops
    assert replay.language == "en" and replay.reading == "english"
    (romanian,) = replay.alternatives
    assert romanian.language == "ro" and romanian.plies[2].move == chess.Move(chess.F1, chess.E2)


def test_the_stated_language_is_noted_as_stated() -> None:
    replay = replay_chess("1. e4 e5 2. Кf3", language="ru")
    (note,) = replay.notes
    assert note.ply == 3 and note.note.kind == "language" and "as the case" in note.note.text


def test_every_language_has_a_name_a_script_and_reaches_the_claim_form() -> None:
    from web.claims.forms import ClaimForm

    assert set(LANGUAGE_NAMES) == set(LANGUAGES)
    assert LANGUAGE_SCRIPTS["uk"] == {"Cyrillic"} and LANGUAGE_SCRIPTS["ru"] == {"Cyrillic", "Latin"}
    assert LANGUAGE_SCRIPTS["el"] == {"Greek"} and LANGUAGE_SCRIPTS["ro"] == {"Latin"}
    form: Any = ClaimForm.__new__(ClaimForm)
    shown = dict(ClaimForm.languages.fget(form))  # type: ignore[attr-defined]
    assert shown["uk"] == "Ukrainian (Кр Ф Т С К)" and shown["bg"] == "Bulgarian (Ц Д Т О К)"
    assert shown["ro"] == "Romanian (R D T N C)" and shown["ru"] == "Russian (Кр Ф Л С К)"
