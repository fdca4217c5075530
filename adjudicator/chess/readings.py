"""The choice between readings of a chess record, and what it does to a ruling.

FIDE Laws, Appendix C.3: players may write the piece letters of their own language,
so one scoresheet can sometimes be read in two languages with different moves
(``Bc4``: an English bishop, a German pawn). The reader picks one reading by a
stated rule (:func:`adjudicator.chess.replay.replay_game`); this module says which
language a case is read in, and rules the case under every other full reading:

- the case's ``language``, else the ruleset's ``record.language``: that reading
  alone, nothing else is weighed;
- a reading the rule chose (English, because English reads every move; or the one
  other language that does): the ruling stands, and where another reading would
  give another verdict both are shown, so the arbiter can ask which letters the
  scoresheet uses;
- readings the rule cannot choose between (several languages read every move,
  with different moves): where their verdicts differ the claim is ``deferred``
  with both readings and both outcomes.

Whatever the language, every reading beyond plain SAN the replay made is in the
evidence (``record_notes``, by ply: a capture mark supplied, a lower-case piece
letter, a dash read as a hyphen, the language chosen...). A token with two legal
readings (``bc4``: the pawn or the bishop) is replayed by the reader's rule (the
file); where the other reading would give another verdict, both are shown
(``token_readings``) with a reason, as for languages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from adjudicator.chess.movetext import split_games
from adjudicator.chess.notation import LANGUAGE_NAMES
from adjudicator.chess.replay import PlyNote, Replay, replay_chess
from adjudicator.contract import Case, ContractError
from adjudicator.rulesets import ChessRuleset, Ruleset
from adjudicator.ruling import Ruling, Verdict, unique

Rule = Callable[[Case], Ruling]


def case_language(case: Case, ruleset: Ruleset) -> Case:
    """The case with the language its record is read in: its own, else the ruleset's ``record.language``."""
    if case.game != "chess" or case.language is not None or not isinstance(ruleset, ChessRuleset):
        return case
    default = ruleset.record.language
    return replace(case, language=default) if default else case


def _outcome(rule: Rule, case: Case) -> tuple[Ruling | None, str | None]:
    try:
        return rule(case), None
    except ContractError as exc:
        return None, exc.message


def _reading(replay: Replay, other: Replay, ruling: Ruling | None, error: str | None) -> dict[str, Any]:
    shown = replay.alternative_json(other)
    shown["verdict"] = ruling.verdict.value if ruling else None
    shown["result"] = ruling.result if ruling else None
    if error:
        shown["error"] = error
    return shown


def _name(language: str) -> str:
    return LANGUAGE_NAMES.get(language, language)


def weigh_readings(case: Case, ruling: Ruling, rule: Rule) -> Ruling:
    """``ruling`` with the record's other readings weighed (see the module docstring)."""
    if case.game != "chess" or not case.record:
        return ruling
    try:
        replay = replay_chess(case.record, case.start_fen, case.language, allow_unreadable=True)
    except ContractError:
        return ruling
    ruling = _with_notes(case, ruling, replay, rule)
    if case.language is not None:
        if case.language == "en":
            return ruling
        reading = {"language": case.language, "rule": "stated"}
        return replace(ruling, evidence={**ruling.evidence, "record_reading": reading})
    evidence = dict(ruling.evidence)
    if replay.language != "en":
        evidence["record_reading"] = {"language": replay.language, "rule": replay.reading}
    if not replay.alternatives:
        return replace(ruling, evidence=evidence) if evidence != ruling.evidence else ruling
    differing: list[dict[str, Any]] = []
    for other in replay.alternatives:
        other_ruling, error = _outcome(rule, replace(case, language=other.language))
        if other_ruling is None or (other_ruling.verdict, other_ruling.result) != (ruling.verdict, ruling.result):
            differing.append(_reading(replay, other, other_ruling, error))
    if not differing:
        return replace(ruling, evidence=evidence) if evidence != ruling.evidence else ruling
    chosen = {
        "language": replay.language, "rule": replay.reading,
        "verdict": ruling.verdict.value, "result": ruling.result,
    }
    evidence["record_reading"] = {"language": replay.language, "rule": replay.reading}
    evidence["alternative_readings"] = [chosen, *differing]
    others = ", ".join(
        f"in {_name(d['language'])} letters ply {d['first_difference']['ply']} is "
        f"{d['first_difference']['that_reading'] or 'unreadable'} and the claim would be "
        f"{d['verdict'] or 'not ruled (' + str(d.get('error')) + ')'}"
        for d in differing
    )
    if replay.is_reading_decided:
        why = (
            "English reads every move, so the record is read in English letters"
            if replay.reading == "english"
            else f"only {_name(replay.language)} letters read every move"
        )
        reason = f"{why} (FIDE C.3); {others}. If the scoresheet uses other letters, rule again with its language."
        return replace(ruling, reasons=(*ruling.reasons, reason), evidence=evidence)
    reason = (
        f"The record reads move for move in {_name(replay.language)} letters and in others, with different "
        f"moves: in {_name(replay.language)} letters the claim would be {ruling.verdict.value}; {others}."
    )
    return Ruling(
        claim=ruling.claim,
        verdict=Verdict.DEFERRED,
        result=None,
        rule_refs=unique(ruling.rule_refs),
        reasons=(reason,),
        instructions=("Ask which piece letters the scoresheet uses and rule again with that language.",),
        evidence=evidence,
        confidence=0.0,
    )


def _with_notes(case: Case, ruling: Ruling, replay: Replay, rule: Rule) -> Ruling:
    """``ruling`` with the replay's notes in its evidence, and each token's other legal reading
    weighed: shown, with its verdict, where it would change the verdict."""
    notes = replay.notes
    if not notes:
        return ruling
    evidence = {**ruling.evidence, "record_notes": [note.to_json() for note in notes]}
    reasons = ruling.reasons
    weighed: list[dict[str, Any]] = []
    for note in notes:
        if note.note.kind != "two-readings":
            continue
        for other in note.note.readings[1:]:
            shown = _token_reading(case, ruling, replay, note, other, rule)
            if shown is not None:
                weighed.append(shown)
                reasons = (*reasons, (
                    f"Ply {note.ply} is written {note.token}, which reads as {note.note.readings[0]} (replayed: "
                    f"a lower-case letter that can be a file is read as the file) or as {other}; read as {other}, "
                    f"the claim would be {shown['verdict'] or 'not ruled (' + str(shown.get('error')) + ')'}. "
                    "If the scoresheet means the other move, rule again with the record corrected."
                ))
    if weighed:
        evidence["token_readings"] = weighed
    return replace(ruling, evidence=evidence, reasons=reasons)


def _token_reading(
    case: Case, ruling: Ruling, replay: Replay, note: PlyNote, other: str, rule: Rule
) -> dict[str, Any] | None:
    """The claim ruled with ``note``'s token read as ``other`` (written as its squares, which every
    language reads alike); None when the verdict is the same."""
    game = next(split_games(case.record or ""), None)
    if game is None or note.ply > len(game.moves) or note.ply > len(replay.plies):
        return None
    token = game.moves[note.ply - 1]
    board = replay.board_after(note.ply - 1)
    try:
        move = board.parse_san(other)
    except ValueError:
        return None
    text = case.record or ""
    record = text[: token.offset] + move.uci() + text[token.offset + len(token.text):]
    other_ruling, error = _outcome(rule, replace(case, record=record))
    if other_ruling is not None and (other_ruling.verdict, other_ruling.result) == (ruling.verdict, ruling.result):
        return None
    shown: dict[str, Any] = {
        "ply": note.ply, "token": note.token, "this_reading": note.note.readings[0], "that_reading": other,
        "verdict": other_ruling.verdict.value if other_ruling else None,
        "result": other_ruling.result if other_ruling else None,
    }
    if error:
        shown["error"] = error
    return shown
