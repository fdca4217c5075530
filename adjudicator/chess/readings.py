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
        replay = replay_chess(
            case.record, case.start_fen, case.language, allow_unreadable=True, readings=case.facts.readings
        )
    except ContractError:
        return ruling
    base = ruling
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
    alike: list[str] = []  # languages whose reading gives the same verdict
    equal = False
    for other in replay.alternatives:
        other_ruling, error = _outcome(rule, replace(case, language=other.language))
        if other_ruling is not None and (other_ruling.verdict, other_ruling.result) == (base.verdict, base.result):
            alike.append(other.language)
        else:
            shown = _reading(replay, other, other_ruling, error)
            invents = sorted(_irregular(other) - _irregular(replay))
            shown["keeps_record_legal"] = not invents
            equal = equal or (not invents and other_ruling is not None)
            differing.append(shown)
    if alike:  # every reading gives the same verdict: the ruling stands and says so (issue 34)
        evidence["same_verdict_readings"] = [replay.language, *alike]
        ruling = replace(ruling, reasons=(*ruling.reasons, (
            f"The record also reads move for move, with other moves, in {' and '.join(map(_name, alike))} letters; "
            f"the claim is {base.verdict.value} read either way (FIDE C.3)."
        )))
    if not differing:
        return replace(ruling, evidence=evidence) if evidence != ruling.evidence else ruling
    chosen = {
        "language": replay.language, "rule": replay.reading,
        "verdict": base.verdict.value, "result": base.result,
    }
    evidence["record_reading"] = {"language": replay.language, "rule": replay.reading}
    evidence["alternative_readings"] = [chosen, *differing]
    others = ", ".join(
        f"in {_name(d['language'])} letters ply {d['first_difference']['ply']} is "
        f"{d['first_difference']['that_reading'] or 'unreadable'} and the claim would be "
        f"{d['verdict'] or 'not ruled (' + str(d.get('error')) + ')'}"
        for d in differing
    )
    if replay.is_reading_decided and not equal:
        why = (
            "English reads every move, so the record is read in English letters"
            if replay.reading == "english"
            else f"only {_name(replay.language)} letters read every move"
        )
        reason = (
            f"{why} (FIDE C.3); {others}, with a move illegal or unreadable that the record as read has legal. "
            "If the scoresheet uses other letters, rule again with its language."
        )
        return replace(ruling, reasons=(*ruling.reasons, reason), evidence=evidence)
    reason = (
        f"The record reads move for move in {_name(replay.language)} letters and in others, with different "
        f"moves: in {_name(replay.language)} letters the claim would be {base.verdict.value}; {others}. "
        "A reading that changes the verdict is never chosen silently."
    )
    instructions: tuple[str, ...] = ("Ask which piece letters the scoresheet uses and rule again with that language.",)
    if ruling.verdict == Verdict.DEFERRED and ruling is not base:  # a token's readings deferred it too
        instructions = (*ruling.instructions, *instructions)
        reasons: tuple[str, ...] = (*ruling.reasons, reason)
    else:
        reasons = (reason,)
    return Ruling(
        claim=ruling.claim,
        verdict=Verdict.DEFERRED,
        result=None,
        rule_refs=unique(ruling.rule_refs),
        reasons=reasons,
        instructions=instructions,
        evidence=evidence,
        confidence=0.0,
    )


def _irregular(replay: Replay) -> set[int]:
    """The plies a reading makes illegal as played or cannot read."""
    return {p.number for p in replay.illegal} | {u.ply for u in replay.unreadable}


def _with_readings(case: Case, readings: dict[int, str]) -> Case:
    """The case with ``readings`` (ply -> the move meant) as its stated readings (the TD's field)."""
    return replace(case, extra={**case.extra, "readings": {str(ply): move for ply, move in sorted(readings.items())}})


def _with_notes(case: Case, ruling: Ruling, replay: Replay, rule: Rule) -> Ruling:
    """``ruling`` with the replay's notes in its evidence, and each token's other legal reading weighed.

    A reading that makes some move illegal or unreadable which the replayed reading keeps legal invents a
    move nobody wrote: it is named, with its verdict, and the ruling stands (the record as a whole says
    which move was made). Readings that keep the record equally legal are equal: where their verdicts
    differ the claim is deferred with every reading and its verdict, and the TD names the move meant in
    the case's ``readings`` field; where they agree, the ruling stands and lists them."""
    notes = replay.notes
    if not notes:
        return ruling
    evidence: dict[str, Any] = {**ruling.evidence, "record_notes": [note.to_json() for note in notes]}
    stated = case.facts.readings
    reasons = ruling.reasons
    weighed: list[dict[str, Any]] = []
    equal_differing: list[dict[str, Any]] = []
    for note in notes:
        if note.note.kind != "two-readings":
            continue
        this = note.note.readings[0]
        if note.ply in stated:
            reasons = (*reasons, f"Ply {note.ply} is written {note.token} and read as {this}, as the case states "
                                 f"(readings); it also reads as {' or as '.join(note.note.readings[1:])}.")
            continue
        for other in note.note.readings[1:]:
            shown = _token_reading(case, ruling, replay, note, other, stated, rule)
            if shown is None:
                continue
            weighed.append(shown)
            verdict = shown["verdict"] or f"not ruled ({shown.get('error')})"
            if not shown["keeps_record_legal"]:
                invented = shown["invents"]
                reasons = (*reasons, (
                    f"Ply {note.ply} is written {note.token}, which reads as {this} (replayed) or as {other}; read "
                    f"as {other}, ply {invented[0]} would be illegal or unreadable where the record as read has a "
                    f"legal move, so {this} is read (the record is evidence of the moves made, FIDE 8.1); read as "
                    f"{other}, the claim would be {verdict}."
                ))
            elif shown["verdict"] == ruling.verdict.value and shown["result"] == ruling.result:
                reasons = (*reasons, (
                    f"Ply {note.ply} is written {note.token}, which reads as {this} or as {other}, each keeping the "
                    f"record as legal; the claim is {verdict} either way."
                ))
            else:
                equal_differing.append(shown)
    if weighed:
        evidence["token_readings"] = weighed
    if not equal_differing:
        return replace(ruling, evidence=evidence, reasons=reasons)
    return _deferred_on_tokens(ruling, evidence, equal_differing)


def _deferred_on_tokens(ruling: Ruling, evidence: dict[str, Any], differing: list[dict[str, Any]]) -> Ruling:
    """The claim deferred: a token reads two ways, as legally, with different verdicts (the TD chooses)."""
    parts = [
        f"ply {d['ply']} is written {d['token']}: read as {d['this_reading']} the claim is {ruling.verdict.value}"
        f"{' (' + ruling.result + ')' if ruling.result else ''}, read as {d['that_reading']} it is "
        f"{d['verdict'] or 'not ruled (' + str(d.get('error')) + ')'}{' (' + d['result'] + ')' if d['result'] else ''}"
        for d in differing
    ]
    evidence["chosen_reading"] = {"verdict": ruling.verdict.value, "result": ruling.result,
                                  "reasons": list(ruling.reasons)}
    reason = (
        f"The record reads two ways, each keeping every move as legal, with different verdicts: {'; '.join(parts)}. "
        "A reading that changes the verdict is never chosen silently."
    )
    first = differing[0]
    instruction = (
        f"Ask which move the scoresheet means at ply {first['ply']} ({first['token']}: {first['this_reading']} or "
        f"{first['that_reading']}) and rule again with it in the case's readings field, such as "
        f'"readings": {{"{first["ply"]}": "{first["that_reading"]}"}}.'
    )
    return Ruling(
        claim=ruling.claim,
        verdict=Verdict.DEFERRED,
        result=None,
        rule_refs=unique(ruling.rule_refs),
        reasons=(reason,),
        instructions=(instruction,),
        evidence=evidence,
        confidence=0.0,
    )


def _token_reading(
    case: Case, ruling: Ruling, replay: Replay, note: PlyNote, other: str, stated: dict[int, str], rule: Rule
) -> dict[str, Any] | None:
    """The claim ruled with ``note``'s token read as ``other`` (the case's ``readings`` field), and whether that
    reading keeps the record as legal as the replayed one; None where it cannot be replayed."""
    readings = {**stated, note.ply: other}
    try:
        theirs = replay_chess(case.record or "", case.start_fen, case.language, allow_unreadable=True,
                              readings=readings)
    except ContractError:
        return None
    invents = sorted(_irregular(theirs) - _irregular(replay))
    other_ruling, error = _outcome(rule, _with_readings(case, readings))
    shown: dict[str, Any] = {
        "ply": note.ply, "token": note.token, "this_reading": note.note.readings[0], "that_reading": other,
        "verdict": other_ruling.verdict.value if other_ruling else None,
        "result": other_ruling.result if other_ruling else None,
        "keeps_record_legal": not invents,
        "case_field": {"readings": {str(note.ply): other}},
    }
    if invents:
        shown["invents"] = invents
    if error:
        shown["error"] = error
    return shown
