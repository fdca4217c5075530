"""The claim form: which fields each claim needs, and turning the posted form into a case.

Problems are data: :class:`ClaimForm` keeps what was typed and an error per field,
and the page shows both (status 422), never losing the TD's input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from werkzeug.datastructures import FileStorage, MultiDict

from adjudicator.checkers.replay import replay_checkers
from adjudicator.chess.notation import LANGUAGE_NAMES, LANGUAGES
from adjudicator.chess.replay import replay_chess
from adjudicator.claim_registry import ASKED_BY_NAME, ASKED_FACTS, IN_FORM_ORDER, AskedFact
from adjudicator.contract import SIDES, ContractError, parse_seconds
from adjudicator.requirements import checked_case
from adjudicator.rule import claim_ids
from adjudicator.rulesets import RulesetBook
from web.claims.offers import Offer
from web.submit import Submission
from web.tables.rulings import META_FIELDS

CLAIM_LABELS: dict[str, str] = {claim.id: claim.label for claim in IN_FORM_ORDER}
"""Each claim's words on the form, in the form's order (:mod:`adjudicator.claim_registry`)."""

NEEDS: dict[str, tuple[str, ...]] = {claim.id: claim.needs for claim in IN_FORM_ORDER}
"""The groups of fields a claim needs; the form shows only those."""

GAME_LABELS = {"chess": "Chess", "checkers": "Checkers"}
MAX_UPLOAD_BYTES = 1_000_000

TEXT_FIELDS = ("record", "opponent_record", "fen", *ASKED_BY_NAME, "time_control", "missing_moves", *META_FIELDS)
SCORESHEETS = {"claimant": "the claimant's scoresheet", "opponent": "the opponent's scoresheet"}
"""Which scoresheet the claim is ruled on (``ruled_on``), when the TD gives the opponent's too (US Chess 14C9)."""

FINDINGS: dict[str, str] = {
    "": "Recommend one from the position",
    "clear": "Clear: the claimant cannot lose by normal means",
    "unclear": "Unclear: decide later (postpone)",
    "incorrect": "Incorrect: the claim is wrong",
}
"""The TD's own finding on an insufficient-losing-chances claim (``td_finding``; docs/case-fields.md)."""
REQUESTS: dict[str, str] = {"draw": "A draw (III.5)", "increment": "A 5 s increment for both (III.4)"}
PREVIOUS_ILLEGAL: dict[str, str] = {"0": "None", "1": "One", "2": "Two"}
"""Earlier completed illegal moves of the claimed offender, already corrected (``previous_illegal_moves``,
FIDE 7.5.5: they count towards the loss)."""
FINDING_CHECKS = ("opponent_bonus", "postponed")
"""The finding's yes/no facts: the opponent's 2 minutes (III.5.2), a claim postponed earlier and decided now."""

FIELD_ORDER = ("event_slug", "game", "ruleset", "claim", "claimant", "record", "record_file", "missing_moves",
               "language",
               "opponent_record", "opponent_record_file", "ruled_on", "fen",
               *ASKED_BY_NAME, "previous_illegal_moves",
               "clock_white", "clock_red", "clock_black", "flagged", "time_control",
               "td_finding", "request", "opponent_bonus", "postponed", *META_FIELDS)
"""The fields in the order the form shows them: focus goes to the first one in error."""


def claims_for(game: str) -> list[str]:
    """The claims that exist in ``game``, in the form's order."""
    known = claim_ids(game)
    return [c for c in CLAIM_LABELS if c in known]


def side_label(side: str) -> str:
    return side.capitalize()


def form_field(contract_field: str | None, game: str = "chess") -> str | None:
    """The form field that shows a contract field's error (``clock.white`` -> ``clock_white``).

    In checkers the first mover's clock may be called ``black`` (PDN's name for Red); in chess
    ``clock.black`` is Black's clock, shown by the Black field.
    """
    if contract_field is None:
        return None
    if contract_field in ("clock.flagged", "flagged"):
        return "flagged"
    if contract_field.startswith("clock."):
        side = contract_field.split(".", 1)[1].lower()
        if game == "checkers" and side == "black":
            side = "red"
        return f"clock_{side}"
    if contract_field == "start_fen":
        return "fen"
    if contract_field.startswith("record."):  # a tag of the record (record.FEN): shown under the record
        return "record"
    return contract_field


@dataclass
class ClaimForm:
    """What the TD typed, and what is wrong with it."""

    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    general_errors: list[str] = field(default_factory=list)
    offer: Offer | None = None
    """What the ruleset offers (:mod:`web.claims.offers`); None: every claim of the game, every question."""

    @property
    def game(self) -> str:
        game = self.values.get("game")
        return game if game in GAME_LABELS else "chess"

    @property
    def claim(self) -> str:
        claims = self.claims
        claim = self.values.get("claim")
        return claim if claim in claims else claims[0]

    @property
    def claims(self) -> list[str]:
        """The claims offered: the ruleset's (:attr:`offer`), else the game's."""
        if self.offer is not None and self.offer.game == self.game and self.offer.claims:
            return list(self.offer.claims)
        return claims_for(self.game)

    @property
    def findings(self) -> dict[str, str]:
        return self.offer.findings if self.offer is not None and self.offer.findings else FINDINGS

    @property
    def requests(self) -> dict[str, str]:
        return self.offer.requests if self.offer is not None else REQUESTS

    @property
    def finding_checks(self) -> tuple[str, ...]:
        return self.offer.finding_checks if self.offer is not None else FINDING_CHECKS

    @property
    def sides(self) -> tuple[str, str]:
        return SIDES["checkers" if self.game == "checkers" else "chess"]

    def needs(self, group: str) -> bool:
        return group in NEEDS.get(self.claim, ())

    @property
    def asked_facts(self) -> tuple[AskedFact, ...]:
        """The one-field facts the claim asks for (:data:`adjudicator.claim_registry.ASKED_FACTS`), in order."""
        return tuple(fact for fact in ASKED_FACTS if self.needs(fact.name))

    def value(self, name: str, default: str = "") -> str:
        value = self.values.get(name)
        return default if value is None else str(value)

    def flagged(self) -> list[str]:
        flagged = self.values.get("flagged") or []
        return [str(f) for f in flagged]

    @property
    def first_error(self) -> str | None:
        """The first field in error, in the form's order (it gets the focus)."""
        return next((name for name in FIELD_ORDER if name in self.errors), next(iter(self.errors), None))

    def add_error(self, exc: ContractError, visible: set[str]) -> None:
        name = form_field(exc.field, self.game)
        if name is not None and name in visible:
            message = exc.message
            if exc.field and message.startswith(f"{exc.field}: "):  # the field is named by where it shows
                message = message[len(exc.field) + 2 :]
            elif exc.field and exc.field.startswith("record.") and message.startswith(f"{exc.field} "):
                # under the record: "record.FEN is not ..." reads "The record's FEN tag is not ..."
                message = f"The record's {exc.field.split('.', 1)[1]} tag{message[len(exc.field):]}"
            self.errors.setdefault(name, message)
        else:
            where = f" ({exc.field})" if exc.field else ""
            self.general_errors.append(f"{exc.message}{where}")

    @property
    def languages(self) -> list[tuple[str, str]]:
        """The scoresheet languages a chess record may be read in (FIDE C.3), with their piece letters."""
        def letters(code: str) -> str:
            table = LANGUAGES[code]
            return " ".join(next(k for k, v in table.items() if v == p) for p in (6, 5, 4, 3, 2) if p in table.values())

        return [(code, f"{LANGUAGE_NAMES[code]} ({letters(code)})") for code in LANGUAGES]

    @property
    def record_gaps(self) -> list[dict[str, Any]]:
        """The numbering gaps of the record typed (:mod:`adjudicator.chess.numbering`): where its move numbers
        say a move is not written. The form then asks for the missing moves, in one field."""
        record = self.values.get("record")
        if not isinstance(record, str) or not record.strip() or len(record) > MAX_UPLOAD_BYTES:
            return []
        try:
            if self.game == "checkers":
                return [gap.to_json() for gap in replay_checkers(record).numbering_gaps]
            return [gap.to_json() for gap in replay_chess(record, allow_unreadable=True).numbering_gaps]
        except ContractError:
            return []

    def visible_fields(self) -> set[str]:
        shown = {"game", "ruleset", "claim", *META_FIELDS}
        if self.offer is None or self.offer.asks_claimant(self.claim):
            shown.add("claimant")
        if self.needs("position"):
            shown |= {"record", "record_file", "fen", "opponent_record", "opponent_record_file", "ruled_on"}
            if self.values.get("missing_moves") or self.record_gaps:
                shown.add("missing_moves")
            if self.game == "chess":
                shown.add("language")
        for name in (*ASKED_BY_NAME, "time_control"):
            if self.needs(name):
                shown.add(name)
        counts = self.offer is None or self.offer.illegal_count is not None
        if self.needs("previous_illegal_moves") and self.game == "chess" and counts:
            shown.add("previous_illegal_moves")
        if self.needs("clocks"):
            shown |= {f"clock_{side}" for side in self.sides}
        if self.needs("flagged"):
            shown.add("flagged")
        if self.needs("finding"):
            shown |= {"td_finding", *self.finding_checks}
            if self.requests:
                shown.add("request")
        return shown


def read_form(form: MultiDict[str, str], files: Mapping[str, FileStorage] | None = None) -> ClaimForm:
    """The posted form's values (typed text kept as typed), with an upload read as the record."""
    values: dict[str, Any] = {}
    names = ("game", "ruleset", "claim", "claimant", *TEXT_FIELDS, "clock_white", "clock_black", "clock_red")
    for name in (*names, "checkers_piece", "checkers_turn", "checkers_flipped", "td_finding", "request", "language",
                 "ruled_on", "previous_illegal_moves"):
        if name in form:
            values[name] = form.get(name, "")
    values["flagged"] = form.getlist("flagged")
    for name in FINDING_CHECKS:
        values[name] = form.get(name) == "yes"
    claim_form = ClaimForm(values=values)
    for upload_field, text_field in (("record_file", "record"), ("opponent_record_file", "opponent_record")):
        upload = (files or {}).get(upload_field)
        if upload is not None and upload.filename:
            data = upload.read(MAX_UPLOAD_BYTES + 1)
            if len(data) > MAX_UPLOAD_BYTES:
                claim_form.errors[upload_field] = f"the file is larger than {MAX_UPLOAD_BYTES // 1000} kB"
            elif is_binary(data):
                claim_form.errors[upload_field] = (f"{upload.filename!r} is not a text file: upload the record as "
                                                   "PGN or PDN text (or paste it)")
            else:
                try:
                    claim_form.values[text_field] = data.decode("utf-8-sig")
                except UnicodeDecodeError:
                    claim_form.values[text_field] = data.decode("latin-1")
    return claim_form


def is_binary(data: bytes) -> bool:
    """Whether an upload is no text file (a NUL byte, or control characters a scoresheet's text never has,
    in its first 8 kB): read as text it would show as a page of garbage in the record field."""
    head = data[:8192]
    if b"\x00" in head:
        return True
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13))
    return controls > max(2, len(head) // 100)


def clock_reading(typed: str, field: str) -> str:
    """A clock as typed on the form, as the contract's ``h:mm:ss`` (FIDE clocks show h:mm:ss or m:ss).

    The rule (docs/web-app.md, "The claim form"): with a colon, the text goes as typed (``1:05:00``, ``5:00``,
    ``0:04.5``). Without one, a phone's number pad is enough: spaces, full stops or commas separate
    hours, minutes and seconds (``5 00``, ``1.05.00``); digits alone are read from the right, the last
    two the seconds, the two before the minutes, the rest the hours (``500`` is 5:00, ``10500`` is
    1:05:00, ``45`` is 0:45). Seconds and minutes after hours run from 00 to 59.

    :raises ContractError: a reading that breaks the rule, naming the contract field (``clock.white``).
    """
    text = typed.strip()
    if ":" in text or not text:
        return text
    parts = [p for p in re.split(r"[\s.,]+", text) if p]
    if not parts or not all(p.isascii() and p.isdigit() for p in parts):
        raise ContractError("invalid_field", f"{field}: {typed!r} is not a clock reading: write it as the clock "
                            "shows it, 1:05:00, 5:00, 5 00 or 500", field)
    if len(parts) == 1:  # digits alone, read from the right
        digits = parts[0]
        parts = [p for p in (digits[:-4], digits[-4:-2], digits[-2:]) if p]
        if len(parts) == 1:
            parts = ["0", *parts]
    if len(parts) > 3 or any(int(p) > 59 for p in parts[1:]) or any(len(p) > 2 for p in parts[1:]):
        raise ContractError("invalid_field", f"{field}: {typed!r} is not a clock reading: minutes and seconds "
                            "run from 00 to 59 (the last two digits are the seconds: 500 is 5:00)", field)
    if len(parts) == 3:
        return f"{int(parts[0])}:{int(parts[1]):02d}:{int(parts[2]):02d}"
    return f"{int(parts[0])}:{int(parts[1]):02d}"


def to_case(claim_form: ClaimForm, default_ruleset: str, book: RulesetBook, event: str | None = None) -> Submission:
    """The typed case, checked once (:func:`adjudicator.requirements.checked_case`), with the contract JSON it is
    stored as and the game's details (``event``: the event's name, None for the default event), from the fields
    the claim needs. The players are the form's own, filled in once when it was read
    (:func:`web.claims.views.fill_players`).

    Empty fields are left out. The form's own readings (a clock as typed, a choice) raise
    :class:`ContractError` naming the field; whatever the contract rejects comes back as
    :class:`~adjudicator.requirements.CaseRefused`, every problem named.
    """
    v = claim_form.values
    visible = claim_form.visible_fields()

    def text(name: str) -> str | None:
        value = str(v.get(name) or "").strip()
        return value or None

    case: dict[str, Any] = {
        "game": claim_form.game,
        "ruleset": text("ruleset") or default_ruleset,
        "claim": claim_form.claim,
        "claimant": text("claimant") if "claimant" in visible else None,
    }
    if claim_form.needs("position"):
        record = str(v.get("record") or "")
        opponent = str(v.get("opponent_record") or "")
        if opponent.strip():  # both scoresheets (US Chess 14C9): ruled on the one the TD confirms, both kept
            ruled_on = text("ruled_on") or "claimant"
            if ruled_on not in SCORESHEETS:
                raise ContractError("invalid_field", "ruled_on must be claimant or opponent", "ruled_on")
            if ruled_on == "claimant" and not record.strip():
                raise ContractError("missing_field", "the claimant's scoresheet is empty: give it, or rule on "
                                    "the opponent's", "record")
            case["scoresheets"] = {"claimant": record, "opponent": opponent, "ruled_on": ruled_on}
            record = opponent if ruled_on == "opponent" else record
        case["record"] = record if record.strip() else None
        case["fen"] = text("fen")
        if case["record"] is None and case["fen"] is None:
            raise ContractError("missing_field", "paste or upload the record, or set up the position", "record")
        if claim_form.game == "chess" and text("language"):
            case["language"] = text("language")  # the contract checks it is a known language
    if claim_form.needs("position") and text("missing_moves") is not None:
        case["missing_moves"] = text("missing_moves")  # the moves a numbering gap leaves out (adjudicator.record_gaps)
    for fact in claim_form.asked_facts:
        case[fact.name] = fact.read(text(fact.name))  # not a whole number: as typed, for the contract to refuse
    if claim_form.needs("time_control"):
        case["time_control"] = text("time_control")
    if claim_form.needs("clocks"):
        clock: dict[str, Any] = {}
        for side in claim_form.sides:
            reading = text(f"clock_{side}")
            if reading is not None:
                clock[side] = clock_reading(reading, f"clock.{side}")
        # nothing ticked and a clock at 0: left out, the clocks say whose flag is down (docs/command-line.md,
        # "Errors, hostile input, required facts");
        # nothing ticked and no clock at 0 is a slip the requirements ask about (``flagged: []``)
        if claim_form.needs("flagged") and (
            claim_form.flagged() or not any(parse_seconds(clock[side], f"clock.{side}") == 0 for side in clock)
        ):
            clock["flagged"] = claim_form.flagged()
        case["clock"] = clock or None
    if "previous_illegal_moves" in visible:
        previous = text("previous_illegal_moves")
        if previous is not None and previous != "0":
            if previous not in PREVIOUS_ILLEGAL:
                raise ContractError("invalid_field", "previous_illegal_moves must be 0, 1 or 2",
                                    "previous_illegal_moves")
            case["previous_illegal_moves"] = int(previous)
    if claim_form.needs("finding"):
        finding = text("td_finding")
        if finding is not None:
            if finding not in claim_form.findings:
                known = ", ".join(f for f in claim_form.findings if f)
                raise ContractError("invalid_field", f"td_finding must be one of {known}", "td_finding")
            case["td_finding"] = finding
        request = text("request") if "request" in visible else None
        if request is not None and request != "draw":
            if request not in REQUESTS:
                raise ContractError("invalid_field", "request must be draw or increment", "request")
            case["request"] = request
        for name in claim_form.finding_checks:
            if v.get(name) is True:
                case[name] = True
    data = {k: val for k, val in case.items() if val is not None}
    meta = {name: text(name) for name in META_FIELDS}
    meta["event"] = event
    return Submission(checked_case(data, book), data, meta)
