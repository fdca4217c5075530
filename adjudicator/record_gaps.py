"""The record's numbering and structure in a ruling: gaps, marks before the end, a second game.

The scoresheet is the record of the game (FIDE 8.1; ACF Standard Laws on the score), and its
move numbers say which side made each move (:mod:`adjudicator.chess.numbering`). A ruling
never rests on a move nobody wrote:

- **A numbering gap** (``1. Nf3 Nf6 2. Nc3 3. e3``: Black's 2nd move is not written). Where the
  moves, read in order, replay legally from the gap on, the numbers are a slip: the claim is
  ruled on the moves in order and the reasons name the slip. Where they do not (a move read in
  order is illegal or unreadable at or after the gap: the illegality may be the gap's, not the
  player's), the verdict depends on a move the record does not contain: the claim is
  ``deferred``, the missing move(s) named (ply, side, number), and the TD is asked for them
  (case field ``missing_moves``: ``2... Nc6``, or ``none`` when no move is missing). An
  illegal-move claim on a move before the gap does not depend on it: it is ruled.
  So no penalty, touch-move or illegal-move consequence falls on a move that is only "illegal"
  because of a gap.
- **A result mark before the last move** (``½``, ``1/2``, ``1-0`` with the numbered moves going on):
  read past, the moves read as the game's, and the conflict named in the reasons for the TD to see.
  FIDE's ``(=)`` is a draw offer (Appendix C.13): a note.
- **A second game** in a case's record (tags after moves, ``1.`` after a result or after a blank
  line, a game of tags alone) is refused (:class:`SecondGame`, field ``record``) naming where it
  starts: a claim is about one game, and ruling the first one alone would set the rest aside
  unseen. The replay and check-games commands read every game of a file as a game.

No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from adjudicator.checkers import pdn
from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.movetext import split_games
from adjudicator.chess.numbering import NumberingGap, Slot, read_number
from adjudicator.chess.replay import RecordError, replay_chess
from adjudicator.contract import Case, ContractError
from adjudicator.ruling import Ruling, Verdict, unique

Rule = Callable[[Case], Ruling]
NONE = "none"
"""``missing_moves: none``: the TD has the scoresheet, and no move is missing (the number is a slip)."""


class SecondGame(ContractError):
    """A case's record holds more than one game."""

    def __init__(self, message: str) -> None:
        super().__init__("several_games", message, "record")


@dataclass(frozen=True)
class _Read:
    """What the ruling needs of a replay, in either game."""

    gaps: tuple[NumberingGap, ...]
    broken: tuple[int, ...]
    """Plies read in order that are illegal, or where the replay stopped (unreadable)."""
    marks: tuple[tuple[int, str], ...] = ()
    """(ply, note) of each result mark before the last move."""
    plies: int = 0
    """The moves read, in order."""


def _line(text: str, offset: int) -> tuple[int, str]:
    number = re.search(r"\d+[ \t]*(?:\.|…)+[ \t]*$", text[max(0, offset - 20):offset])
    if number is not None:  # from the move number written before the game's first move
        offset -= len(number.group())
    line = text.count("\n", 0, offset) + 1
    shown = text[offset:offset + 40].split("\n", 1)[0].strip()
    return line, shown


def one_game(case: Case) -> None:
    """Refuse a record that holds a second game, naming where it starts.

    :raises SecondGame: field ``record``.
    """
    if not case.record:
        return
    text = case.record
    if case.game == "chess":
        games = split_games(text)
        if next(games, None) is None:
            return
        second = next(games, None)
        if second is None:
            return
        offset = second.offset
    else:
        parts = pdn.split_games(text)
        if len(parts) < 2:
            return
        head = parts[1].strip().split("\n", 1)[0]
        first_end = text.find(parts[0].strip().splitlines()[-1]) if parts[0].strip() else 0
        offset = text.find(head, max(first_end, 0) + 1)
        offset = max(offset, 0)
    line, shown = _line(text, offset)
    raise SecondGame(
        f"the record holds a second game, starting at line {line} ({shown!r}): a claim is ruled on one game. "
        "Give the record of the game the claim is about; if the moves after a result belong to the same game, "
        "write their move numbers as they go on (2. Nf3 after 1... e5), not a new 1."
    )


# -- missing moves given by the TD ----------------------------------------------------------------


def _supplied(text: str, checkers: bool) -> list[tuple[Slot, str]]:
    """The TD's missing moves, each with its place: ``2... Nc6 3. e3`` (a move without a number follows the
    one before it)."""
    words = re.findall(r"\d+\s*(?:\.|…)+|[^\s.…]+", text)
    found: list[tuple[Slot, str]] = []
    slot: Slot | None = None
    for word in words:
        numbered = read_number(word)
        if numbered is not None:
            slot = numbered
            continue
        if slot is None:
            raise ContractError("invalid_field", "missing_moves: number each missing move as on the scoresheet "
                                f"(2... {'24-20' if checkers else 'Nc6'}), or write none", "missing_moves")
        found.append((slot, word))
        slot = Slot.at(slot.index + 1)
    return found


def fill_missing(case: Case) -> Case:
    """The case with the TD's ``missing_moves`` written into the record at their gaps (each numbered as on the
    scoresheet); unchanged without them or with ``none``.

    :raises ContractError: ``missing_moves`` names a move the record's gaps do not leave out.
    """
    given = case.facts.missing_moves
    if given is None or given.lower() == NONE or not case.record:
        return case
    read = _read(case)
    if read is None or not read.gaps:
        raise ContractError("invalid_field", "missing_moves: the record's move numbers leave no move out",
                            "missing_moves")
    supplied = _supplied(given, case.game == "checkers")
    text = case.record
    inserts: dict[int, list[str]] = {}
    for slot, move in supplied:
        gap = next((g for g in read.gaps if slot in g.missing), None)
        if gap is None:
            wanted = "; ".join(s.label(case.sides) for g in read.gaps for s in g.missing) or "no move"
            raise ContractError("invalid_field", f"missing_moves: {slot.label(case.sides)} is not a move the record "
                                f"leaves out (it leaves out: {wanted})", "missing_moves")
        at = _gap_offset(text, gap, case.game)
        inserts.setdefault(at, []).append(f"{slot.number}{'.' if slot.first else '...'} {move}")
    for at in sorted(inserts, reverse=True):
        text = text[:at] + " ".join(inserts[at]) + " " + text[at:]
    return replace(case, record=text)


def _gap_offset(text: str, gap: NumberingGap, game: str) -> int:
    """Where the move number before the gap's first move stands in the record."""
    if game == "chess":
        found = next(split_games(text), None)
        if found is not None and gap.ply <= len(found.moves):
            token = found.moves[gap.ply - 1]
            at = text.rfind(gap.written.strip(), 0, token.offset)
            return at if at >= 0 else token.offset
    match = re.search(re.escape(gap.written.strip()) + r"\s*" + re.escape(gap.token), text)
    return match.start() if match else len(text)


# -- weighing a ruling -----------------------------------------------------------------------------


def _read(case: Case) -> _Read | None:
    try:
        if case.game == "chess":
            replay = replay_chess(case.record or "", case.start_fen, case.language, allow_unreadable=True)
            broken = [p.number for p in replay.illegal] + [u.ply for u in replay.unreadable]
            marks = tuple((n.ply, n.text) for n in replay.file_notes if n.kind == "result-mark")
            return _Read(replay.numbering_gaps, tuple(broken), marks, len(replay.plies))
        ballot = case.facts.ballot
        checkers = replay_checkers(case.record or "", case.start_fen, ballot)
        broken = [p.number for p in checkers.illegal] + [u.ply for u in checkers.unreadable]
        return _Read(checkers.numbering_gaps, tuple(broken), checkers.result_marks, len(checkers.plies))
    except ContractError:
        return None


def decide(case: Case, rule: Rule, refs: tuple[str, ...] = ()) -> Ruling:
    """``rule(case)``; where the record cannot be read at a ply at or after a numbering gap, a ruling that
    :func:`weigh_gaps` defers (the token may be unreadable only because a move before it is not written),
    instead of the error. Not where the TD found no move missing (``missing_moves: none``): the record is
    then read in order, and a token it cannot read is the error it is without a gap."""
    try:
        return rule(case)
    except RecordError as exc:
        given = case.facts.missing_moves
        if given is not None and given.lower() == NONE:
            raise
        read = _read(case) if exc.ply is not None else None
        if read is None or not read.gaps or exc.ply is None or read.gaps[0].ply > exc.ply:
            raise
        return Ruling(claim=case.claim, verdict=Verdict.DEFERRED, result=None, rule_refs=refs,
                      reasons=(f"The record cannot be read as written: {exc.message}.",),
                      evidence={"in_order_error": exc.message, "unreadable_ply": exc.ply}, confidence=1.0)


def _rests_before(case: Case, ruling: Ruling, read: _Read, window: int | None) -> bool:
    """Whether the ruling rests on moves before the first gap alone: an illegal-move claim on an earlier
    move, whose correction window (``window``: the last-moves window in plies, US Chess 11A) reads the same
    with the missing moves counted among the later ones."""
    if case.claim != "illegal-move":
        return False
    ply = read.gaps[0].ply
    ruled = ruling.evidence.get("ply")
    alleged = case.alleged_illegal_ply
    if not isinstance(ruled, int) or isinstance(ruled, bool):
        return alleged is not None and alleged < ply and ruling.verdict == Verdict.REJECTED
    if ruled >= ply or (alleged is not None and alleged >= ply):
        return False
    if window is not None:
        later = read.plies - ruled
        missing = sum(len(gap.missing) for gap in read.gaps)
        return (later < window) == (later + missing < window)
    return True


def _slip(gaps: Sequence[NumberingGap]) -> str:
    return "; ".join(f"ply {g.ply}: {g.text}" for g in gaps)


def weigh_gaps(
    case: Case, ruling: Ruling, rule: Rule, refs: tuple[str, ...] = (), window: int | None = None
) -> Ruling:
    """``ruling`` with the record's numbering weighed (see the module docstring); ``refs``: the ruleset's
    article on the scoresheet, cited by a ruling deferred for a missing move; ``window``: the ruleset's
    last-moves correction window in plies (US Chess 11A), None where an illegal move can be corrected
    whatever came after it."""
    del rule  # the ruling on the moves in order is the one given; the other reading has a move nobody wrote
    if not case.record:
        return ruling
    read = _read(case)
    if read is None:
        return ruling
    reasons = list(ruling.reasons)
    evidence = dict(ruling.evidence)
    for ply, text in read.marks:
        reasons.append(f"Ply {ply}: {text}.")
    if read.marks:
        evidence["result_marks"] = [{"ply": ply, "note": text} for ply, text in read.marks]
    given = case.facts.missing_moves
    if not read.gaps:
        if given is not None and given.lower() != NONE:
            reasons.append(f"The record leaves out {given}; the TD gave it from the scoresheets (missing_moves), "
                           "and the record is read with it.")
            evidence["missing_moves_given"] = given
        changed = bool(read.marks) or "missing_moves_given" in evidence
        return replace(ruling, reasons=tuple(reasons), evidence=evidence) if changed else ruling
    evidence["numbering_gaps"] = [gap.to_json() for gap in read.gaps]
    if given is not None and given.lower() == NONE:
        reasons.append(f"The move numbers part from the moves ({_slip(read.gaps)}); the TD finds no move missing, "
                       "so the moves are read in order.")
        return replace(ruling, reasons=tuple(reasons), evidence=evidence)
    first = read.gaps[0]
    broken = [ply for ply in read.broken if ply >= first.ply]
    if not broken or _rests_before(case, ruling, read, window):
        why = ("the moves read in order replay legally from there on, so the numbers are a slip"
               if not broken else "the ruling rests on moves before it")
        reasons.append(f"The move numbers part from the moves ({_slip(read.gaps)}); {why}.")
        return replace(ruling, reasons=tuple(reasons), evidence=evidence)
    missing = [slot for gap in read.gaps if gap.ply <= broken[0] for slot in gap.missing]
    asked = ", ".join(slot.label(case.sides) for slot in missing)
    in_order = {"verdict": ruling.verdict.value, "result": ruling.result, "reasons": list(ruling.reasons)}
    evidence["in_order_ruling"] = in_order
    evidence["missing_moves"] = [
        {"ply": gap.ply, **slot.to_json(case.sides)} for gap in read.gaps if gap.ply <= broken[0]
        for slot in gap.missing
    ]
    shown = ruling.reasons[0] if ruling.reasons else ""
    if "in_order_error" in ruling.evidence:
        del evidence["in_order_ruling"]
        error = ruling.evidence["in_order_error"]
        in_order_text = (f"Read in order, the record cannot be read ({error})"
                         f"; but from ply {first.ply} on the moves may not be whose the order makes them, so it may be "
                         "unreadable only because a move before it is not written.")
    elif case.claim == "illegal-move" and isinstance(ruled := ruling.evidence.get("ply"), int) and ruled < first.ply:
        in_order_text = (
            f"Read in order, the claim would be {ruling.verdict.value} ({shown}); that move comes before the gap, "
            "but whether it is still within the correction window (each player's last moves) depends on how many "
            "moves the record leaves out after it.")
    else:
        in_order_text = (
            f"Read in order, the move at ply {broken[0]} cannot be played as written (illegal or unreadable), and "
            f"the claim would be {ruling.verdict.value} ({shown}); but from ply {first.ply} on the moves may not be "
            "whose the order makes them, so that verdict rests on a move the record does not contain.")
    deferred_reasons = [
        f"Ply {first.ply}: {first.text}.",
        in_order_text,
        *(f"Ply {ply}: {text}." for ply, text in read.marks),
    ]
    if not missing:
        asked = f"the move(s) around ply {first.ply} (the number {first.written} repeats)"
    example = " ".join(f"{s.number}{'.' if s.first else '...'} and the move" for s in missing) or "the moves"
    instructions = (
        f"Ask for {asked} from the players' scoresheets, and rule again with it (missing_moves: {example}); "
        "or, if no move is missing, rule again with missing_moves: none.",
    )
    return Ruling(
        claim=ruling.claim, verdict=Verdict.DEFERRED, result=None, rule_refs=unique([*refs, *ruling.rule_refs]),
        reasons=tuple(deferred_reasons), instructions=instructions, evidence=evidence, confidence=1.0,
    )
