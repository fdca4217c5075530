"""Which language's piece letters a record is read in: script first, then a stated rule (FIDE C.3).

FIDE Laws, Appendix C.3: players may write "the first letter of the name which is
commonly used in their country", so one scoresheet may sometimes be read in two
languages with different moves. The reading is chosen by this rule, never by how many
illegal moves a reading gives (see :func:`choose`); the replay itself lives in
:mod:`adjudicator.chess.replay`, which passes in a function replaying the record in
one language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from adjudicator.chess.notation import (
    LANGUAGE_NAMES,
    LANGUAGE_SCRIPTS,
    LANGUAGES,
    ReadingNote,
    lead_letter,
    letters_used,
    scripts_used,
)


class _Ply(Protocol):
    @property
    def move(self) -> Any: ...


class _AtPly(Protocol):
    @property
    def ply(self) -> int: ...


class _Replayed(Protocol):
    @property
    def plies(self) -> Sequence[_Ply]: ...

    @property
    def unreadable(self) -> Sequence[_AtPly]: ...

    @property
    def numbering_gaps(self) -> Sequence[_AtPly]: ...

    @property
    def language(self) -> str: ...


R = TypeVar("R", bound=_Replayed)


@dataclass(frozen=True)
class Choice(Generic[R]):
    """The reading chosen, by which rule, and the other full readings with different moves."""

    chosen: R
    rule: str
    """``english``, ``only``, ``undecided`` or ``furthest`` (see :func:`choose`)."""
    alternatives: tuple[R, ...] = ()


_ENGLISH_ONLY = frozenset(
    letter for letter in LANGUAGES["en"] if all(letter not in t for lang, t in LANGUAGES.items() if lang != "en")
)
"""Piece letters no other language has (Q): a record that uses one is read in English alone."""


def family(letters: set[str], scripts: frozenset[str]) -> list[str]:
    """The languages whose letters are written in the record's script(s) (:func:`scripts_used`).

    A Cyrillic letter means a Cyrillic-script language (Russian, Ukrainian, Bulgarian),
    never a Latin one; a Greek letter or file, Greek. Russian also has its Latin
    transliteration (Kr F L S K), so it is in the Latin family too. Scripts no language
    mixes: every language (the furthest reading is reported). A Latin record that uses
    no piece letter at all (pawn moves, castling, figurines) gives no ground for another
    language: English alone.
    """
    if not letters and scripts == {"Latin"}:
        return ["en"]
    found = [lang for lang in LANGUAGES if scripts <= LANGUAGE_SCRIPTS[lang]]
    return found or list(LANGUAGES)


def _differs(a: _Replayed, b: _Replayed) -> bool:
    return len(a.plies) != len(b.plies) or any(x.move != y.move for x, y in zip(a.plies, b.plies, strict=True))


def _meaning(lang: str, letters: Iterable[str]) -> tuple[int | None, ...]:
    table = LANGUAGES[lang]
    return tuple(table.get(letter) for letter in sorted(letters))


def alike(lang: str, letters: Iterable[str]) -> list[str]:
    """The other languages whose letters mean the same pieces as ``lang``'s for the letters used."""
    letters = list(letters)
    meaning = _meaning(lang, letters)
    return [other for other in LANGUAGES if other != lang and _meaning(other, letters) == meaning]


def _reads_up_to_a_gap(replay: _Replayed) -> bool:
    """Whether ``replay`` reads every token, or stops only at or after a numbering gap: read in order, a token
    there may be unreadable only because a move before it is not written (FIDE 8.1;
    :mod:`adjudicator.record_gaps` defers the claim asking for that move)."""
    if not replay.unreadable:
        return True
    return bool(replay.numbering_gaps) and min(g.ply for g in replay.numbering_gaps) <= replay.unreadable[0].ply


def choose(tokens: Sequence[str], replay_in: Callable[[str, str], R]) -> Choice[R]:
    """The reading of a record whose move tokens are ``tokens``; ``replay_in(language, rule)`` replays it.

    1. Script first: only languages of :func:`family` are tried (a Cyrillic ``К`` is never
       an English king, a Cyrillic ``Ф`` never a French bishop);
    2. English (rule ``english``), when the record's letters are Latin and English reads every
       token (an illegal move is still a reading), or stops only at or after a numbering gap (a
       token there may be unreadable only because the move the numbers say is missing is not
       written: another language reading it, with moves English reads as legal before the gap,
       is no ground to leave English);
    3. else a language of the family whose letters cover every letter used and that reads
       every token (``only``); when several do with different moves, the first in
       :data:`~adjudicator.chess.notation.LANGUAGES` order is replayed and the others are
       alternatives (``undecided``: a claim that depends on it is deferred);
    4. else (no reading gets through) the reading of the family's languages covering most
       of the letters used that gets furthest, English first among equals (``furthest``).

    Under rule 2, the family's other languages that also read every token with different
    moves are kept as alternatives (shown where they would change a verdict). Languages
    whose letters mean the same pieces for the letters used are one reading (the first).
    """
    # English first: it reads no Cyrillic or Greek letter, so trying it before the script rule
    # changes no choice, and a record with a Q (no other language's letter) is settled at once.
    in_english = replay_in("en", "english")
    if not in_english.unreadable and any(token[:1] in _ENGLISH_ONLY for token in tokens):
        return Choice(in_english, "english")
    letters = letters_used(tokens)
    candidates = family(letters, scripts_used(letters, tokens))
    english = in_english if "en" in candidates else None
    if english is not None and _reads_up_to_a_gap(english):
        return Choice(english, "english", _full_readings(candidates, letters, english, replay_in))
    full = _full_readings(candidates, letters, None, replay_in)
    if full:
        return Choice(full[0], "only" if len(full) == 1 else "undecided", full[1:])
    covered = {lang: len(letters & LANGUAGES[lang].keys()) for lang in candidates}
    most = max(covered.values())
    best = english if english is not None and covered["en"] == most else None
    tried: set[tuple[int | None, ...]] = {_meaning("en", letters)} if best is not None else set()
    for lang in candidates:
        meaning = _meaning(lang, letters)
        if lang == "en" or covered[lang] != most or meaning in tried:
            continue
        tried.add(meaning)
        trial = replay_in(lang, "furthest")
        if best is None or len(trial.plies) > len(best.plies):
            best = trial
    assert best is not None  # some language covers the most letters
    return Choice(best, "furthest")


def _full_readings(
    candidates: list[str], letters: set[str], english: R | None, replay_in: Callable[[str, str], R]
) -> tuple[R, ...]:
    """Readings in the family's other languages that read every token, with different moves (from
    ``english`` and each other). Only languages whose letters cover every letter used are tried, and
    one of each group whose letters mean the same pieces (never one reading the same as English's)."""
    found: list[R] = []
    tried = {_meaning("en", letters)} if english is not None else set()
    for lang in candidates:
        table = LANGUAGES[lang]
        if lang == "en" or not letters <= table.keys():
            continue
        meaning = _meaning(lang, letters)
        if meaning in tried:
            continue
        tried.add(meaning)
        trial = replay_in(lang, "english" if english is not None else "only")
        if trial.unreadable:
            continue
        if all(_differs(trial, other) for other in ([english] if english is not None else []) + found):
            found.append(trial)
    return tuple(found)


_RULE_WORDS = {
    "stated": "as the case (or the ruleset) states",
    "only": "the only letters that read every move",
    "undecided": "several languages' letters read every move, with different moves: the first is replayed",
    "furthest": "no language's letters read every move; these read furthest",
}


def language_note(language: str, rule: str, tokens: Sequence[str]) -> tuple[int, str, ReadingNote] | None:
    """(ply, token, note) naming the language the record was read in, at its first piece letter;
    None for English (plain SAN)."""
    if language == "en":
        return None
    table: Mapping[str, int] = LANGUAGES[language]
    used = {letter for token in tokens if (letter := lead_letter(token)) is not None and letter in table}
    for ply, token in enumerate(tokens, start=1):
        if lead_letter(token) in table:
            return ply, token, ReadingNote("language", language_words(language, rule, used))
    return None


def language_words(language: str, rule: str, used: set[str]) -> str:
    """The language note's words: the language, the others whose ``used`` letters mean the same pieces,
    and the rule that chose it (``used``: the record's piece letters that are the language's)."""
    name = LANGUAGE_NAMES.get(language, language)
    others = [LANGUAGE_NAMES.get(lang, lang) for lang in alike(language, used) if lang != "en"] if used else []
    same = f" (the same pieces in {', '.join(others)})" if others else ""
    why = _RULE_WORDS.get(rule, rule)
    return f"piece letters read as {name} letters{same}: {why} (FIDE C.3)"
